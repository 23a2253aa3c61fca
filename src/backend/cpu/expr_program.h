#pragma once
// An elementwise tree compiled for the CPU: a short program of steps over cache-resident
// slots of kBlock elements. The evaluator stores each block of the root into an output;
// reductions fold it into accumulators instead.

#include <atomic>
#include <span>
#include <string_view>
#include <vector>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/small_dot.h"
#include "backend/cpu/strided_loop.h"
#include "backend/cpu/ufunc_loops.h"
#include "expr/expr.h"

namespace tessera::cpu {

constexpr int64_t kBlock = 512;
constexpr int64_t kSlotBytes = kBlock * 16;  // the widest dtype, complex128
// Slots lie this far apart: three cache lines more than a slot, so that element i of one
// slot and element i of the next differ in their low 12 address bits. At a multiple of
// 4 KiB a step's loads from one slot falsely wait on its stores to another (4K aliasing),
// which made a binary op on float64 slots store-bound.
constexpr int64_t kSlotStride = kSlotBytes + 192;
constexpr int kMaxSlots = 64;

// The most arguments of a step: a ufunc's take up to 3, a user's function up to this.
constexpr int kMaxStepArgs = 8;

struct Step {
  enum Kind : uint8_t { Load, Constant, Run, Convert, Dot, User } kind;
  int operand = 0;         // Load: which operand; Dot: the first of its two
  CastRow cast = nullptr;  // Load, Convert: the (possibly identity) conversion
  bool converts = false;   // Load: the input's dtype differs from the slot's
  Ufunc op{};              // Run: the ufunc, and its loop
  LoopFn loop = nullptr;
  const expr::UserFunction* user = nullptr;  // User: the function, run by its block loop
  int args[kMaxStepArgs] = {};
  int nargs = 0;
  int results[2] = {};
  int nresults = 0;
  Scalar value;  // Constant
  SmallDotFn dot = nullptr;  // Dot: the loop, its terms and their steps (expr::Node's)
  int dot_terms = 0;
  int64_t dot_steps[2] = {};
  // Run, and Load or Convert that change dtype: the name floating-point errors are
  // reported under, and the modes of the call that made the step (empty: not checked).
  std::string_view fp_name;
  FpModes fp_modes;
  FpOrigin fp_origin;
  unsigned fp_reported = 0;  // the errors reported for it (reported_fp_errors)
};

struct Program {
  std::vector<Step> steps;
  std::vector<DType> slot_dtypes;
  // The arrays walked together: those the caller placed first (outputs, accumulators),
  // then one per Input node.
  std::vector<Array> operands;
  int roots[2] = {};  // the slots holding the tree's value(s)
  uint64_t id = 0;    // unique per compilation: which program a thread's slots hold
  // Some slot or operand is float16, whose conversions (libgcc's soft-float) raise
  // overflow and underflow in the x87 status word: the flags are read from both.
  bool half_precision = false;
  // Blocks check the flags after every step instead of once (a block that raised some is
  // then not run twice): a user's function may have effects (print), and an evaluation
  // whose output is also an input reads what its first run wrote.
  bool check_every_step = false;
  // The floating-point errors each step raised, from every thread that ran the program.
  mutable std::atomic<uint8_t> step_errors[2 * kMaxSlots] = {};
  // Flags already raised when a block started: a reduction's or scan's fold between
  // blocks (the evaluator's rows raise none between blocks and ignore these).
  mutable std::atomic<unsigned> entry_errors{0};
  // The exception code a user's function raised (its first), and which function's step.
  mutable std::atomic<int> user_raise{0};
  mutable std::atomic<int> user_raise_step{-1};
};

// Records the errors `p`'s steps raised (see tessera/errstate.h) on this thread; throws
// the exception a user's function raised, if one did.
void record_program_errors(const Program& p);

// Whether every element of `a` is the same one (size 1, or broadcast from one element).
inline bool is_one_value(const Array& a) {
  for (int d = 0; d < a.ndim(); ++d) {
    if (a.shape()[d] != 1 && a.strides()[d] != 0) return false;
  }
  return a.size() > 0;
}

// Appends `root`'s inputs to p.operands and its steps to p.steps; with `both_outputs`, root
// is an op with two outputs and sets both roots. Throws logic_error past the limits.
void compile_program(Program& p, const expr::Node& root, bool both_outputs = false);

// Per-thread slot memory for `p`, reused across evaluations.
std::byte* program_scratch(const Program& p);

// Runs `p` on elements [off, off + m) of a row (m <= kBlock): ptrs/strides per operand.
// slot_ptr receives where each slot's values are; a Run step whose result slot has a
// non-null entry in `direct` writes there instead of scratch (the evaluator's in-place
// store into a contiguous output).
void run_block(const Program& p, std::byte* const* ptrs, const int64_t* strides, int64_t off,
               int64_t m, std::byte* memory, std::byte** slot_ptr,
               std::span<std::byte* const> direct = {});

// Fills the constant slots of a program for blocks of up to m elements. Call before each
// row; it does the work once per program and thread, as constants never change.
void fill_constants(const Program& p, std::byte* memory, int64_t m);

// A tree walked together with the array it folds or scans into (operand 0: output,
// accumulators or indices), as reductions, scans and argmax do: the program, and the
// operands' layout with axes ordered by the first input's strides (by operand 0's when
// the tree reads no array). `marker` strides, when given, join the layout as one more
// operand that keeps its one non-zero axis from merging with others.
struct TreeWalk {
  Program program;
  StridedLayout layout;
  int operands = 0;  // the program's (the marker excluded)
  std::byte* base[StridedLayout::kMaxOperands] = {};
  // The floating-point errors of the folds between the program's blocks, from every
  // thread (each unit of work: clear_stale_fp_errors, then collect_fp_errors into these).
  mutable std::atomic<unsigned> fold_errors{0};
};

// Records the errors of a reduction's or scan's walk: its tree's steps', and its folds'
// under `fold_name` ("reduce", "accumulate") as `op` on `dtype` reports them.
void record_walk_errors(const TreeWalk& walk, std::string_view fold_name, Ufunc op,
                        DType dtype);

void walk_tree(TreeWalk& walk, const expr::Node& root, const Array& first,
               const Dims* marker = nullptr);

// Moves each operand's pointer to the flat index `flat` over the layout axes `axes`
// (the last fastest).
void add_offsets(const TreeWalk& walk, const std::vector<int>& axes, int64_t flat,
                 std::byte** ptrs);

}  // namespace tessera::cpu
