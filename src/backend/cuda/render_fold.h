#pragma once
// The CUDA renderer of folds: reductions, argmax/argmin and scans of an elementwise tree,
// each one generated kernel (two for a reduction split across blocks) that computes the
// tree's values as render_cuda.h's kernels do and folds them with the generic device code
// of backend/cuda/device/fold.cuh (shared-memory trees, split walks, ordered folds).
//
// The plan's operand 0 receives the results (the accumulators, the indices, the scan's
// output); the layout splits the plan's axes into kept ones (one output each) and walked
// ones (the values folded into each output).

#include <cstdint>
#include <string>
#include <vector>

#include "expr/kernel_plan.h"

namespace tessera::cuda {

enum class FoldKind : uint8_t {
  Reduce,         // operand 0 = op(operand 0, fold of the values), in any order
  OrderedReduce,  // operand 0 = op(...op(op(operand 0, v0), v1)..., vn), one walked axis
  ArgMax,         // operand 0 (int64) = the index along the walked axis of the first extreme
  ArgMin,
  Scan,           // operand 0 = op's inclusive scan of the values along the walked axis
};

struct FoldSpec {
  FoldKind kind = FoldKind::Reduce;
  Ufunc op{};    // Reduce, OrderedReduce, Scan: the ufunc and its loop
  int loop = 0;
  // A Scan of multiply along an axis of three or more: combined as NumPy's accumulate
  // does (kernels::AccumulateMultiply), not as its elementwise loop.
  bool accumulate_product = false;
};

struct FoldLayout {
  int axes = 1;  // as KernelLayout: the axes each operand has words for, 1, 4, 16 or kMaxDims
  std::vector<int64_t> shape;                 // the kept axes, then the walked ones
  std::vector<std::vector<int64_t>> strides;  // per operand, bytes
  int kept = 0;
  int64_t outputs = 1, walked = 1;
  // The first input's innermost axis (smallest stride) is walked: a block's threads then
  // share outputs and read adjacent values; otherwise they take adjacent outputs.
  bool inner_walked = false;
  bool wide_index = false;
};

// The layout of `plan` with the axes of operand 0's shape where `walked` is true walked.
// Axes of extent 1 go; the rest are ordered by the first input's strides (kept ones first)
// and merged where every operand's strides allow; a single walked axis keeps its index.
FoldLayout fold_layout(const expr::KernelPlan& plan, const std::vector<bool>& walked);

// The program for `plan` folded as `spec` says, with `axes` words per operand: kernel
// kFoldKernelName and, for Reduce and the arg-reductions, kFoldPartialsName (its second
// pass). render_fold_kernel gives the kernels alone, named `name` and `name`_partials, to
// follow render_fold_prologue: several folds can make one program.
std::string render_fold(const expr::KernelPlan& plan, int axes, const FoldSpec& spec);
const std::string& render_fold_prologue();
std::string render_fold_kernel(const expr::KernelPlan& plan, int axes, const FoldSpec& spec,
                               const std::string& name);
inline constexpr const char* kFoldKernelName = "ts_fold";
inline constexpr const char* kFoldPartialsName = "ts_fold_partials";
// A Scan whose op reorders exactly (scan_reorders_exactly) also has kFoldTilesName, the
// tiled scan of long lines (device/fold.cuh's scan_tiles): its blocks are
// kScanThreads threads with kScanSharedBytes of shared memory, each tile kScanTile values
// (the device file's constants), its status (kPartials) as
// scan_status_bytes says, the counter and flags (scan_status_zeroed bytes) zeroed first.
inline constexpr const char* kFoldTilesName = "ts_fold_tiles";
inline constexpr int64_t kScanThreads = 256, kScanTile = 2048, kScanSharedBytes = 128;
inline int64_t scan_status_zeroed(int64_t tiles) { return 8 + (4 * tiles + 7) / 8 * 8; }
inline int64_t scan_status_bytes(int64_t tiles) { return scan_status_zeroed(tiles) + 16 * tiles; }

// Whether `spec` is a scan whose op gives the same values in any grouping: integer and
// bool add, multiply (both wrap), extremes, bitwise and logical ops, on values of the
// output's dtype.
bool scan_reorders_exactly(const expr::KernelPlan& plan, const FoldSpec& spec);

// What the program's source depends on besides `axes` (plan_signature, and the fold).
std::string fold_signature(const expr::KernelPlan& plan, const FoldSpec& spec);

// The kernels' parameter: the plan's words, then the fold's own; a split walk's partials
// (`chunks` per output, each kFoldedBytes) at `partials`.
std::vector<uint64_t> fold_params(const expr::KernelPlan& plan, const FoldLayout& layout,
                                  int64_t chunks, const void* partials);

// The bytes of one partial fold, in shared memory and in a split walk's buffer
// (device/fold.cuh's kFoldedBytes).
inline constexpr int kFoldedBytes = 32;

}  // namespace tessera::cuda
