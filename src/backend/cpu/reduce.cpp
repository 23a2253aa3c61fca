// Reductions on the CPU: an elementwise tree folded over some of its axes in one pass, with
// the op's own binary inner loop as the combiner (so every ufunc that reduces gets the
// same vectorized loop it uses elementwise, and `(x*x).sum()` reads x once).
//
// Two shapes of work. When the innermost axis (in the input's memory order) is reduced,
// each block of kBlock values is halved pairwise to one value and the blocks' values are
// combined by a binary-counter cascade: pairwise summation over the whole row, error
// O(log n) like NumPy's. When the innermost axis is kept, whole rows of accumulators are
// combined with whole rows of values: one vectorized loop call per block of rows. A
// short innermost axis trades places with a long one of the other kind, so neither shape
// degenerates into per-element calls. Ops that are not reorderable (subtract, divide, ...)
// fold strictly in index order, as NumPy does, and are not split over threads.

#include <algorithm>
#include <atomic>
#include <cstring>
#include <vector>

#include "backend/cpu/expr_program.h"
#include "backend/cpu/fp_flags.h"
#include "backend/cpu/parallel.h"
#include "backend/cpu/simd_reduce.h"
#include "backend/cpu/strided_loop.h"
#include "core/fp_events.h"
#include "tessera/errstate.h"

namespace tessera::cpu {
namespace {

constexpr int64_t kMaxItem = 16;  // complex128
// Work below this many elements is not worth another thread.
constexpr int64_t kGrainElements = 32 << 10;
// An innermost axis shorter than this swaps with a longer axis of the other kind.
constexpr int64_t kShortAxis = 128;

// How values fold: the op's binary loop, and the sizes it reads.
struct Folding {
  LoopFn combine = nullptr;
  BlockFold block_fold = nullptr;  // a SIMD fold of one block, when there is one
  int64_t isize = 0;  // accumulators
  int64_t vsize = 0;  // values: the same but for ordered folds such as ldexp(acc, int)
  bool ordered = false;
};

// The walk's operand 0 is the accumulator (stride 0 along the reduced axes).
struct Plan : TreeWalk, Folding {
  // sum((x - center)^2) with x contiguous operand 1: folded straight from memory.
  SquaresFold squares = nullptr;
  alignas(16) std::byte center[16] = {};
  // The tree is a bare contiguous input of the accumulator dtype, folded by block_fold.
  bool direct = false;
  std::vector<int> kept, reduced;  // layout axes other than the innermost, outermost first
  bool inner_reduced = false;
  int64_t inner = 1;               // the innermost axis' length
  int64_t inner_strides[StridedLayout::kMaxOperands] = {};
};

int64_t extent(const Plan& plan, const std::vector<int>& axes) {
  int64_t n = 1;
  for (int a : axes) n *= plan.layout.shape[a];
  return n;
}

void combine1(const Folding& plan, const std::byte* a, const std::byte* b, std::byte* out) {
  const std::byte* in[2] = {a, b};
  std::byte* outs[1] = {out};
  plan.combine(in, outs, 1);
}

// A row's values folded to one: pairwise within blocks, a binary-counter cascade across
// them; or, for ordered ops, strictly left to right from the starting value.
class Fold {
 public:
  Fold(const Folding& plan, std::byte* halving) : plan_(plan), halving_(halving) {}

  void start_from(const std::byte* value) {
    std::memcpy(level_[0], value, plan_.isize);
    used_[0] = true;
  }

  void add_block(const std::byte* values, int64_t m) {
    const int64_t size = plan_.isize;
    if (plan_.ordered) {  // always started from the accumulator's value
      for (int64_t i = 0; i < m; ++i) {
        combine1(plan_, level_[0], values + i * plan_.vsize, level_[0]);
      }
      return;
    }
    if (plan_.block_fold) {
      plan_.block_fold(values, m, halving_);
      push(halving_);
      return;
    }
    const std::byte* src = values;
    int64_t len = m;
    while (len > 1) {
      const int64_t half = len / 2;
      const std::byte* in[2] = {src, src + half * size};
      std::byte* out[1] = {halving_};
      plan_.combine(in, out, half);
      if (len % 2) std::memcpy(halving_ + half * size, src + (len - 1) * size, size);
      len = half + len % 2;
      src = halving_;
    }
    push(src);
  }

  // One value, already the fold of a block.
  void add_value(const std::byte* value) { push(value); }

  // The folded value; false when nothing was added.
  bool result(std::byte* out) const {
    bool any = false;
    alignas(16) std::byte acc[kMaxItem];
    for (int l = 0; l < kLevels; ++l) {
      if (!used_[l]) continue;
      if (any) {
        combine1(plan_, level_[l], acc, acc);
      } else {
        std::memcpy(acc, level_[l], plan_.isize);
        any = true;
      }
    }
    if (any) std::memcpy(out, acc, plan_.isize);
    return any;
  }

 private:
  static constexpr int kLevels = 64;

  void push(const std::byte* value) {
    alignas(16) std::byte carry[kMaxItem];
    std::memcpy(carry, value, plan_.isize);
    for (int l = 0; l < kLevels; ++l) {
      if (!used_[l]) {
        std::memcpy(level_[l], carry, plan_.isize);
        used_[l] = true;
        return;
      }
      combine1(plan_, level_[l], carry, carry);
      used_[l] = false;
    }
  }

  const Folding& plan_;
  std::byte* halving_;
  alignas(16) std::byte level_[kLevels][kMaxItem];  // valid where used_ is set
  bool used_[kLevels] = {};
};

std::byte* halving_buffer() {
  thread_local std::vector<std::byte> memory(kSlotBytes + 64);
  auto addr = reinterpret_cast<uintptr_t>(memory.data());
  return memory.data() + ((64 - addr % 64) % 64);
}

// Innermost axis reduced: folds the flat reduced elements [begin, end) belonging to the
// output at `out_ptrs` (inner axis fastest).
void fold_span(const Plan& plan, std::byte* const* out_ptrs, int64_t begin, int64_t end,
               Fold& fold) {
  const Program& p = plan.program;
  std::byte* memory = program_scratch(p);
  std::byte* slot_ptr[kMaxSlots];
  fill_constants(p, memory, std::min(plan.inner, kBlock));
  const int nops = plan.operands;
  clear_stale_fp_errors();
  for (int64_t pos = begin; pos < end;) {
    const int64_t row = pos / plan.inner, col = pos % plan.inner;
    const int64_t len = std::min(plan.inner - col, end - pos);
    std::byte* ptrs[StridedLayout::kMaxOperands];
    std::copy(out_ptrs, out_ptrs + nops, ptrs);
    add_offsets(plan, plan.reduced, row, ptrs);
    if (plan.squares || plan.direct) {
      // The values are the input itself (or its squared deviations): one SIMD call folds
      // the whole span, with no per-block program steps or cascade calls.
      alignas(16) std::byte value[kMaxItem];
      const std::byte* from = ptrs[1] + col * plan.inner_strides[1];
      if (plan.squares) {
        plan.squares(from, len, plan.center, value);
      } else {
        plan.block_fold(from, len, value);
      }
      fold.add_value(value);
      pos += len;
      continue;
    }
    for (int64_t off = col; off < col + len; off += kBlock) {
      const int64_t m = std::min(kBlock, col + len - off);
      run_block(p, ptrs, plan.inner_strides, off, m, memory, slot_ptr);
      fold.add_block(slot_ptr[p.roots[0]], m);
    }
    pos += len;
  }
  collect_fp_errors(plan.fold_errors);
}

void reduce_inner(const Plan& plan) {
  const int64_t outputs = extent(plan, plan.kept);
  const int64_t per_output = extent(plan, plan.reduced) * plan.inner;
  const int nops = plan.operands;
  auto output_ptrs = [&](int64_t o, std::byte** ptrs) {
    std::copy(plan.base, plan.base + nops, ptrs);
    add_offsets(plan, plan.kept, o, ptrs);
  };
  const int threads = num_threads();
  const bool split_outputs = plan.ordered || outputs >= threads ||
                             per_output < 2 * kGrainElements;
  if (split_outputs) {
    const int64_t grain = std::max<int64_t>(1, kGrainElements / std::max<int64_t>(per_output, 1));
    parallel_for(outputs, grain, [&](int64_t begin, int64_t end) {
      for (int64_t o = begin; o < end; ++o) {
        std::byte* ptrs[StridedLayout::kMaxOperands];
        output_ptrs(o, ptrs);
        Fold fold(plan, halving_buffer());
        if (plan.ordered) fold.start_from(ptrs[0]);
        fold_span(plan, ptrs, 0, per_output, fold);
        alignas(16) std::byte value[kMaxItem];
        clear_stale_fp_errors();
        fold.result(value);
        if (plan.ordered) {
          std::memcpy(ptrs[0], value, plan.isize);
        } else {
          combine1(plan, ptrs[0], value, ptrs[0]);
        }
        collect_fp_errors(plan.fold_errors);
      }
    });
    return;
  }
  // Few outputs, long reductions: each thread folds a contiguous share; the shares are
  // combined in order.
  const int64_t chunks = std::min<int64_t>(threads, per_output / kGrainElements);
  std::vector<std::byte> partial(chunks * kMaxItem);
  std::vector<char> nonempty(chunks);
  for (int64_t o = 0; o < outputs; ++o) {
    std::byte* ptrs[StridedLayout::kMaxOperands];
    output_ptrs(o, ptrs);
    parallel_for(chunks, 1, [&](int64_t begin, int64_t end) {
      for (int64_t c = begin; c < end; ++c) {
        Fold fold(plan, halving_buffer());
        fold_span(plan, ptrs, per_output * c / chunks, per_output * (c + 1) / chunks, fold);
        clear_stale_fp_errors();
        nonempty[c] = fold.result(partial.data() + c * kMaxItem);
        collect_fp_errors(plan.fold_errors);
      }
    });
    for (int64_t c = 0; c < chunks; ++c) {
      if (nonempty[c]) combine1(plan, ptrs[0], partial.data() + c * kMaxItem, ptrs[0]);
    }
  }
}

// Innermost axis kept: a contiguous accumulator row of `len` elements (at most a task's
// width), combined with the matching value row of every reduced index in [r_begin, r_end).
// Each value row is read start to end before the next, so memory streams sequentially.
// With `seed`, the first value row initializes the accumulators instead.
void fold_rows(const Plan& plan, std::byte* const* out_ptrs, int64_t off, int64_t len,
               int64_t r_begin, int64_t r_end, std::byte* acc, bool seed) {
  const Program& p = plan.program;
  std::byte* memory = program_scratch(p);
  std::byte* slot_ptr[kMaxSlots];
  fill_constants(p, memory, std::min(len, kBlock));
  const int nops = plan.operands;
  clear_stale_fp_errors();
  for (int64_t r = r_begin; r < r_end; ++r) {
    std::byte* ptrs[StridedLayout::kMaxOperands];
    std::copy(out_ptrs, out_ptrs + nops, ptrs);
    add_offsets(plan, plan.reduced, r, ptrs);
    for (int64_t b = 0; b < len; b += kBlock) {
      const int64_t m = std::min(kBlock, len - b);
      run_block(p, ptrs, plan.inner_strides, off + b, m, memory, slot_ptr);
      std::byte* a = acc + b * plan.isize;
      if (seed && r == r_begin) {
        std::memcpy(a, slot_ptr[p.roots[0]], m * plan.isize);
        continue;
      }
      const std::byte* in[2] = {a, slot_ptr[p.roots[0]]};
      std::byte* out[1] = {a};
      plan.combine(in, out, m);
    }
  }
  collect_fp_errors(plan.fold_errors);
}

// Accumulators per task: up to 32 KiB, so they stay in L1/L2 while the rows stream past.
int64_t task_width(const Plan& plan) {
  return std::max<int64_t>(kBlock, (32768 / plan.isize) / kBlock * kBlock);
}

std::byte* task_buffer(int64_t bytes) {
  thread_local std::vector<std::byte> memory;
  if (static_cast<int64_t>(memory.size()) < bytes) memory.resize(bytes);
  return memory.data();
}

void reduce_outer(const Plan& plan) {
  const int64_t rows = extent(plan, plan.kept);
  const int64_t width = std::min(task_width(plan), plan.inner);
  const int64_t tasks_per_row = (plan.inner + width - 1) / width;
  const int64_t tasks = rows * tasks_per_row;
  const int64_t reduced = extent(plan, plan.reduced);
  const int nops = plan.operands;
  const int64_t acc_stride = plan.inner_strides[0];
  const CastRow move = cast_row_for(plan.program.operands[0].dtype(),
                                    plan.program.operands[0].dtype());
  auto task_ptrs = [&](int64_t t, std::byte** ptrs, int64_t& off, int64_t& len) {
    std::copy(plan.base, plan.base + nops, ptrs);
    add_offsets(plan, plan.kept, t / tasks_per_row, ptrs);
    off = (t % tasks_per_row) * width;
    len = std::min(width, plan.inner - off);
  };
  const int threads = num_threads();
  if (plan.ordered || tasks >= threads || reduced * plan.inner < 2 * kGrainElements) {
    const int64_t grain =
        std::max<int64_t>(1, kGrainElements / std::max<int64_t>(reduced * width, 1));
    parallel_for(tasks, grain, [&](int64_t begin, int64_t end) {
      std::byte* acc = task_buffer(width * plan.isize);
      for (int64_t t = begin; t < end; ++t) {
        std::byte* ptrs[StridedLayout::kMaxOperands];
        int64_t off, len;
        task_ptrs(t, ptrs, off, len);
        std::byte* dst = ptrs[0] + off * acc_stride;
        move(dst, acc_stride, acc, plan.isize, len);
        fold_rows(plan, ptrs, off, len, 0, reduced, acc, false);
        move(acc, plan.isize, dst, acc_stride, len);
      }
    });
    return;
  }
  // Few accumulator rows, many reduced rows: each thread folds a share of the reduced rows
  // into its own accumulators (seeded from its first row); the shares are combined in order.
  const int64_t chunks = std::min<int64_t>(threads, reduced);
  const int64_t share_bytes = tasks * width * plan.isize;
  std::vector<std::byte> partial(chunks * share_bytes);
  parallel_for(chunks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) {
      const int64_t r0 = reduced * c / chunks, r1 = reduced * (c + 1) / chunks;
      for (int64_t t = 0; t < tasks; ++t) {
        std::byte* ptrs[StridedLayout::kMaxOperands];
        int64_t off, len;
        task_ptrs(t, ptrs, off, len);
        std::byte* acc = partial.data() + c * share_bytes + t * width * plan.isize;
        fold_rows(plan, ptrs, off, len, r0, r1, acc, true);
      }
    }
  });
  std::byte* acc = task_buffer(width * plan.isize);
  for (int64_t t = 0; t < tasks; ++t) {
    std::byte* ptrs[StridedLayout::kMaxOperands];
    int64_t off, len;
    task_ptrs(t, ptrs, off, len);
    std::byte* dst = ptrs[0] + off * acc_stride;
    move(dst, acc_stride, acc, plan.isize, len);
    for (int64_t c = 0; c < chunks; ++c) {
      const std::byte* in[2] = {acc, partial.data() + c * share_bytes + t * width * plan.isize};
      std::byte* out[1] = {acc};
      plan.combine(in, out, len);
    }
    move(acc, plan.isize, dst, acc_stride, len);
  }
}

// sum((x - c)^2) and sum(x * x) trees over one contiguous float input: var/std's second
// pass. Returns the input's node and fills `center` (0 for x * x).
const expr::Node* squares_input(const expr::Node& root, DType dtype, std::byte* center) {
  using Kind = expr::Node::Kind;
  if (root.kind != Kind::Op || root.op != Ufunc::Multiply || root.args.size() != 2) {
    return nullptr;
  }
  const expr::Node* a = root.args[0].get();
  const expr::Node* b = root.args[1].get();
  auto same_input = [](const expr::Node* x, const expr::Node* y) {
    return x->kind == Kind::Input && y->kind == Kind::Input && x->input.data() == y->input.data() &&
           x->input.strides() == y->input.strides() && x->input.dtype() == y->input.dtype();
  };
  const bool same = a == b || same_input(a, b);
  if (!same || a->dtype != dtype) return nullptr;
  const expr::Node* x = a;
  Scalar c = Scalar(0.0).cast(dtype);
  if (a->kind == Kind::Op && a->op == Ufunc::Subtract) {
    x = a->args[0].get();
    const expr::Node* m = a->args[1].get();
    if (m->kind == Kind::Constant) {
      c = m->constant.cast(dtype);
    } else if (m->kind == Kind::Input && is_one_value(m->input)) {
      c = Scalar(m->input.dtype(), m->input.data()).cast(dtype);
    } else {
      return nullptr;
    }
  }
  if (x->kind != Kind::Input || x->input.dtype() != dtype || is_one_value(x->input)) {
    return nullptr;
  }
  std::memcpy(center, c.data(), itemsize(dtype));
  return x;
}

// Swaps the innermost axis with the longest axis of the other kind when it is short.
void choose_inner(StridedLayout& layout) {
  const int nd = layout.shape.size();
  auto is_reduced = [&](int a) { return layout.strides[0][a] == 0; };
  const int last = nd - 1;
  if (layout.shape[last] >= kShortAxis) return;
  int best = -1;
  for (int a = 0; a < last; ++a) {
    if (is_reduced(a) == is_reduced(last)) continue;
    if (layout.shape[a] > layout.shape[last] && (best < 0 || layout.shape[a] > layout.shape[best])) {
      best = a;
    }
  }
  if (best < 0) return;
  std::swap(layout.shape[best], layout.shape[last]);
  for (int k = 0; k < layout.operands; ++k) std::swap(layout.strides[k][best], layout.strides[k][last]);
}

// A whole array folded to one accumulator straight from memory: the tree is a bare input
// of the accumulator's dtype (or read as bool, for any() and all(): a cast that raises no
// floating-point errors), dense in memory and short enough for one thread. The fold is the
// general walk's for that case (the same SIMD fold of the whole row, or the same blocks
// halved pairwise), so the result is bit for bit the same; skipping the program and the
// layout is what makes t.sum() on a small array cost less than the fold itself would.
bool fold_dense_input(const expr::Node& root, Ufunc op, int loop, const Array& acc) {
  if (root.kind != expr::Node::Kind::Input) return false;
  const Array& x = root.input;
  const int64_t n = x.size();
  const bool converts = x.dtype() != root.dtype;
  if (root.dtype != acc.dtype() || (converts && root.dtype != DType::Bool) ||
      n >= 2 * kGrainElements) {
    return false;
  }
  if (!x.is_c_contiguous() && !x.is_f_contiguous()) return false;
  for (int64_t s : acc.strides()) {
    if (s != 0) return false;
  }
  Folding ops;
  ops.combine = loop_for(op, loop);
  ops.block_fold = simd_block_fold(op, acc.dtype());
  ops.isize = ops.vsize = acc.itemsize();
  Fold fold(ops, halving_buffer());
  const std::byte* values = x.data();
  std::byte* out = acc.data();
  alignas(16) std::byte value[kMaxItem];
  std::atomic<unsigned> errors{0};
  clear_stale_fp_errors();
  if (converts) {
    const CastRow cast = cast_row_for(x.dtype(), root.dtype);
    alignas(64) std::byte block[kBlock];
    for (int64_t off = 0; off < n; off += kBlock) {
      const int64_t m = std::min(kBlock, n - off);
      cast(values + off * x.itemsize(), x.itemsize(), block, 1, m);
      fold.add_block(block, m);
    }
  } else if (ops.block_fold) {
    ops.block_fold(values, n, value);
    fold.add_value(value);
  } else {
    for (int64_t off = 0; off < n; off += kBlock) {
      fold.add_block(values + off * ops.isize, std::min(kBlock, n - off));
    }
  }
  fold.result(value);
  combine1(ops, out, value, out);
  collect_fp_errors(errors);
  if (const unsigned raised = errors.load() & reported_fp_errors(op, acc.dtype())) {
    record_fp_errors("reduce", raised, fp_modes());
  }
  return true;
}

}  // namespace

void reduce(const expr::Node& root, Ufunc op, int loop, bool ordered, const Array& acc) {
  if (acc.size() == 0) return;
  if (!ordered && fold_dense_input(root, op, loop, acc)) return;
  Plan plan;
  plan.combine = loop_for(op, loop);
  plan.ordered = ordered;
  // Walked in the order of what is read (the first input), not of the small accumulator.
  walk_tree(plan, root, acc);
  if (!ordered) plan.block_fold = simd_block_fold(op, acc.dtype());
  plan.isize = acc.itemsize();
  plan.vsize = itemsize(root.dtype);
  const std::vector<Array>& operands = plan.program.operands;
  const int nops = plan.operands;
  StridedLayout& layout = plan.layout;
  // A reduced axis of length 1 is dropped by the layout; all-kept layouts still fold one row.
  if (!ordered) choose_inner(layout);
  const int last = layout.shape.size() - 1;
  plan.inner = layout.shape[last];
  plan.inner_reduced = layout.strides[0][last] == 0 && layout.shape[last] > 1;
  for (int k = 0; k < nops; ++k) plan.inner_strides[k] = layout.strides[k][last];
  for (int a = 0; a < last; ++a) {
    (layout.strides[0][a] == 0 ? plan.reduced : plan.kept).push_back(a);
  }
  if (plan.inner_reduced && op == Ufunc::Add && !ordered) {
    SquaresFold fold = simd_squares_fold(acc.dtype());
    const expr::Node* x = fold ? squares_input(root, acc.dtype(), plan.center) : nullptr;
    // Operand 1 is the tree's first input: x, contiguous along the reduced inner axis.
    if (x && nops >= 2 && operands[1].data() == x->input.data() &&
        plan.inner_strides[1] == plan.isize) {
      plan.squares = fold;
    }
  }
  const bool bare_input = plan.inner_reduced && !plan.squares && nops == 2 &&
                          root.kind == expr::Node::Kind::Input &&
                          plan.inner_strides[1] == root.input.itemsize();
  if (bare_input && plan.block_fold && root.input.dtype() == acc.dtype()) {
    plan.direct = true;
  } else if (bare_input && op == Ufunc::Add && !ordered && root.input.dtype() == DType::Bool &&
             acc.dtype() == DType::Int64) {
    plan.block_fold = simd_count_fold();  // a bool array summed: its bytes counted
    plan.direct = true;
  }
  clear_stale_fp_errors();  // the serial combines below run on this thread
  if (plan.inner_reduced) {
    reduce_inner(plan);
  } else {
    reduce_outer(plan);
  }
  collect_fp_errors(plan.fold_errors);
  record_walk_errors(plan, "reduce", op, acc.dtype());
}

}  // namespace tessera::cpu
