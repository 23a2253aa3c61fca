#include "backend/cuda/fold_kernel.h"

#include <algorithm>
#include <bit>
#include <memory>
#include <vector>

#include "backend/cuda/expr_kernel.h"
#include "backend/cuda/render_fold.h"
#include "backend/cuda/runtime.h"
#include "tessera/buffer.h"
#include "tessera/cuda.h"
#include "tessera/stream.h"

namespace tessera::cuda {
namespace {

constexpr unsigned kBlockThreads = 256;
// A split walk gives each thread at least this many values: fewer, and the partials' second
// pass would cost more than the blocks it adds.
constexpr int64_t kValuesPerThread = 32;
// The most chunks a walk splits into (gridDim.y's limit).
constexpr int64_t kMostChunks = 65535;

unsigned pow2_at_least(int64_t n, unsigned most) {
  if (n >= most) return most;
  return static_cast<unsigned>(std::bit_ceil(static_cast<uint64_t>(std::max<int64_t>(n, 1))));
}

unsigned blocks_for(int64_t items, unsigned per_block, int device) {
  const int64_t needed = (items + per_block - 1) / per_block;
  // Beyond enough blocks to fill every multiprocessor many times, grid-stride loops cover
  // the rest.
  return static_cast<unsigned>(std::clamp<int64_t>(needed, 1, int64_t{32} * multiprocessors(device)));
}

void run_fold(int device, const expr::KernelPlan& plan, const FoldLayout& layout,
              const FoldSpec& spec) {
  if (layout.outputs == 0) return;
  const std::string key = fold_signature(plan, spec) + "/" + std::to_string(layout.axes);
  const auto render = [&] { return render_fold(plan, layout.axes, spec); };
  const uintptr_t fold = generated_function(key, render, kFoldKernelName, device);
  const Stream stream = current_stream(Device::cuda(device));
  const bool blockwise = spec.kind != FoldKind::OrderedReduce && spec.kind != FoldKind::Scan;
  if (spec.kind == FoldKind::Scan && layout.walked >= kScanTile &&
      scan_reorders_exactly(plan, spec)) {
    // Long lines of an exact op: tiles chained by decoupled look-back.
    const int64_t per_line = (layout.walked + kScanTile - 1) / kScanTile;
    const int64_t tiles = per_line * layout.outputs;
    const std::shared_ptr<Buffer> status =
        Buffer::allocate(Device::cuda(device), static_cast<size_t>(scan_status_bytes(tiles)));
    check(driver()->cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(status->data()), 0,
                                    static_cast<size_t>(scan_status_zeroed(tiles)),
                                    stream_handle(stream)),
          "scan");
    std::vector<uint64_t> words = fold_params(plan, layout, per_line, status->data());
    std::vector<void*> params = {words.data()};
    const uintptr_t tiled = generated_function(key, render, kFoldTilesName, device);
    launch(tiled, {blocks_for(tiles, 1, device), 1, 1}, {kScanThreads, 1, 1},
           kScanSharedBytes, stream, params, "scan");
    return;  // `status` returns to the pool: its stream reuses it only after this work
  }
  if (!blockwise) {  // one thread per output, in order
    const unsigned threads = pow2_at_least(layout.outputs, kBlockThreads);
    std::vector<uint64_t> words = fold_params(plan, layout, 1, nullptr);
    std::vector<void*> params = {words.data()};
    launch(fold, {blocks_for(layout.outputs, threads, device), 1, 1}, {threads, 1, 1}, 0, stream,
           params, "reduce");
    return;
  }
  // Block shape: y threads share an output's values, x threads take adjacent outputs. When
  // the values lie innermost in memory the y threads read adjacent ones; otherwise the x
  // threads do, across outputs.
  unsigned bx, by;
  if (layout.inner_walked) {
    by = pow2_at_least(layout.walked, kBlockThreads);
    bx = pow2_at_least(layout.outputs, kBlockThreads / by);
  } else {
    bx = pow2_at_least(layout.outputs, 32);
    by = pow2_at_least(layout.walked, kBlockThreads / bx);
    bx = pow2_at_least(layout.outputs, kBlockThreads / by);
  }
  const unsigned gx = blocks_for(layout.outputs, bx, device);
  // Few outputs, many values: the walk splits into chunks, one block row each, until the
  // device has a few blocks per multiprocessor.
  const int64_t target_blocks = int64_t{4} * multiprocessors(device);
  int64_t chunks = 1;
  if (gx < target_blocks) {
    chunks = std::min({(target_blocks + gx - 1) / gx,
                       layout.walked / (int64_t{by} * kValuesPerThread), kMostChunks});
    chunks = std::max<int64_t>(chunks, 1);
    // A power of two: the partials' pairwise merge is then a balanced tree of equal parts,
    // as a pairwise sum's (with 6 chunks a float32 sum's rms error was 1.5x NumPy's).
    chunks = int64_t{1} << (63 - std::countl_zero(static_cast<uint64_t>(chunks)));
    if (chunks * layout.outputs >= (int64_t{1} << 31)) chunks = 1;
  }
  std::shared_ptr<Buffer> partials;
  if (chunks > 1) {
    partials = Buffer::allocate(Device::cuda(device),
                                static_cast<size_t>(chunks * layout.outputs) * kFoldedBytes);
  }
  std::vector<uint64_t> words = fold_params(plan, layout, chunks, partials ? partials->data() : nullptr);
  std::vector<void*> params = {words.data()};
  launch(fold, {gx, static_cast<unsigned>(chunks), 1}, {bx, by, 1},
         size_t{bx} * by * kFoldedBytes, stream, params, "reduce");
  if (chunks > 1) {
    const uintptr_t finish = generated_function(key, render, kFoldPartialsName, device);
    launch(finish, {blocks_for(layout.outputs, kBlockThreads, device), 1, 1},
           {kBlockThreads, 1, 1}, 0, stream, params, "reduce");
  }
  // `partials` returns to the pool here: its stream reuses it only after this work.
}

}  // namespace

void launch_reduce(int device, const expr::Node& root, Ufunc op, int loop, bool ordered,
                   const Array& acc) {
  if (acc.size() == 0) return;
  const expr::KernelPlan plan = expr::lower(root, std::span(&acc, 1));
  std::vector<bool> walked(acc.ndim());
  for (int d = 0; d < acc.ndim(); ++d) walked[d] = acc.strides()[d] == 0;
  const FoldSpec spec{ordered ? FoldKind::OrderedReduce : FoldKind::Reduce, op, loop};
  run_fold(device, plan, fold_layout(plan, walked), spec);
}

void launch_arg_reduce(int device, const expr::Node& root, bool max, const Array& index) {
  if (index.size() == 0) return;
  const expr::KernelPlan plan = expr::lower(root, std::span(&index, 1));
  std::vector<bool> walked(index.ndim());
  for (int d = 0; d < index.ndim(); ++d) walked[d] = index.strides()[d] == 0;
  run_fold(device, plan, fold_layout(plan, walked),
           FoldSpec{max ? FoldKind::ArgMax : FoldKind::ArgMin});
}

void launch_scan(int device, const expr::Node& root, Ufunc op, int loop, int axis,
                 const Array& out) {
  if (out.size() == 0) return;
  const expr::KernelPlan plan = expr::lower(root, std::span(&out, 1));
  std::vector<bool> walked(out.ndim());
  walked[axis] = true;
  const bool accumulate_product = op == Ufunc::Multiply && is_complex(out.dtype()) &&
                                  out.shape()[axis] >= 3;
  run_fold(device, plan, fold_layout(plan, walked),
           FoldSpec{FoldKind::Scan, op, loop, accumulate_product});
}

}  // namespace tessera::cuda
