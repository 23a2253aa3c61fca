// Scans (ufunc.accumulate, cumsum, cumprod) on the CPU: out[i] = op(out[i-1], v[i]) along
// one axis, where v is an elementwise tree evaluated in the same pass. Strictly in order,
// as NumPy computes them, so results round exactly as NumPy's do.
//
// Along the innermost axis the dependency is serial: add and multiply run as typed loops
// over their functors; other ops call their inner loop one element at a time. Along an
// outer axis whole rows combine at once through the op's vectorized loop.

#include <algorithm>
#include <cstring>
#include <vector>

#include "backend/cpu/expr_program.h"
#include "backend/cpu/fp_flags.h"
#include "backend/cpu/parallel.h"
#include "backend/cpu/strided_loop.h"
#include "kernels/ops_arithmetic.h"
#include "kernels/types.h"

namespace tessera::cpu {
namespace {

constexpr int64_t kGrainElements = 32 << 10;

// A serial scan of one block, carrying `acc` (valid when `started`) across blocks.
using SerialScan = void (*)(LoopFn loop, const std::byte* values, std::byte* out, int64_t n,
                            std::byte* acc, bool started);

template <class F, class T>
void typed_scan(LoopFn, const std::byte* values, std::byte* out, int64_t n, std::byte* acc,
                bool started) {
  const T* v = reinterpret_cast<const T*>(values);
  T* o = reinterpret_cast<T*>(out);
  T a;
  std::memcpy(&a, acc, sizeof(T));
  int64_t i = 0;
  if (!started) a = v[i++];
  if (i == 1) o[0] = a;
  const F f{};
  for (; i < n; ++i) o[i] = a = static_cast<T>(f(a, v[i]));
  std::memcpy(acc, &a, sizeof(T));
}

template <int64_t Size>
void looped_scan(LoopFn loop, const std::byte* values, std::byte* out, int64_t n,
                 std::byte* acc, bool started) {
  int64_t i = 0;
  if (!started) {
    std::memcpy(acc, values, Size);
    std::memcpy(out, values, Size);
    i = 1;
  }
  for (; i < n; ++i) {
    const std::byte* in[2] = {acc, values + i * Size};
    std::byte* o[1] = {out + i * Size};
    loop(in, o, 1);
    std::memcpy(acc, out + i * Size, Size);
  }
}

template <class T>
void accumulate_multiply_rows(const std::byte* const* in, std::byte* const* out, int64_t n) {
  const T* a = reinterpret_cast<const T*>(in[0]);
  const T* b = reinterpret_cast<const T*>(in[1]);
  T* o = reinterpret_cast<T*>(out[0]);
  for (int64_t i = 0; i < n; ++i) o[i] = kernels::AccumulateMultiply{}(a[i], b[i]);
}

SerialScan serial_scan_for(Ufunc op, DType dtype, bool fused) {
  return kernels::visit_dtype(dtype, [&](auto zero) -> SerialScan {
    using T = decltype(zero);
    if (op == Ufunc::Add && !std::is_same_v<T, bool>) return &typed_scan<kernels::Add, T>;
    if (op == Ufunc::Multiply && !std::is_same_v<T, bool>) {
      return fused ? &typed_scan<kernels::Multiply, T>
                   : &typed_scan<kernels::AccumulateMultiply, T>;
    }
    return &looped_scan<sizeof(T)>;
  });
}

// The loop that combines whole rows along an outer scan axis.
LoopFn row_combine_for(Ufunc op, int loop, DType dtype, bool fused) {
  if (fused) return loop_for(op, loop);
  if (op == Ufunc::Multiply && dtype == DType::Complex64) {
    return &accumulate_multiply_rows<kernels::complex64>;
  }
  if (op == Ufunc::Multiply && dtype == DType::Complex128) {
    return &accumulate_multiply_rows<kernels::complex128>;
  }
  return loop_for(op, loop);
}

// The walk's operand 0 is the output; its layout has a marker after the operands.
struct ScanPlan : TreeWalk {
  LoopFn combine = nullptr;
  SerialScan serial = nullptr;
  int64_t isize = 0;
  int axis = -1;         // the scan axis in the layout
  std::vector<int> others;  // layout axes iterated outside each scan
  int64_t inner_strides[StridedLayout::kMaxOperands] = {};
};

// The scan axis is innermost: each row is scanned serially, rows spread over threads.
void scan_inner(const ScanPlan& plan) {
  const int nops = plan.operands;
  const int64_t n = plan.layout.shape[plan.axis];
  int64_t rows = 1;
  for (int a : plan.others) rows *= plan.layout.shape[a];
  const bool direct = plan.inner_strides[0] == plan.isize;
  const CastRow move = cast_row_for(plan.program.operands[0].dtype(),
                                    plan.program.operands[0].dtype());
  parallel_for(rows, std::max<int64_t>(1, kGrainElements / n), [&](int64_t begin, int64_t end) {
    const Program& p = plan.program;
    std::byte* memory = program_scratch(p);
    std::byte* slot_ptr[kMaxSlots];
    std::vector<std::byte> staging(direct ? 0 : kSlotBytes);
    alignas(16) std::byte acc[16];
    fill_constants(p, memory, std::min(n, kBlock));
    clear_stale_fp_errors();
    for (int64_t r = begin; r < end; ++r) {
      std::byte* ptrs[StridedLayout::kMaxOperands];
      std::copy(plan.base, plan.base + nops, ptrs);
      add_offsets(plan, plan.others, r, ptrs);
      for (int64_t off = 0; off < n; off += kBlock) {
        const int64_t m = std::min(kBlock, n - off);
        run_block(p, ptrs, plan.inner_strides, off, m, memory, slot_ptr);
        std::byte* dst = ptrs[0] + off * plan.inner_strides[0];
        std::byte* out = direct ? dst : staging.data();
        plan.serial(plan.combine, slot_ptr[p.roots[0]], out, m, acc, off > 0);
        if (!direct) move(out, plan.isize, dst, plan.inner_strides[0], m);
      }
    }
    collect_fp_errors(plan.fold_errors);
  });
}

// The scan axis is outer: row i of the output is op(row i-1, values of row i), a block of
// the innermost axis at a time.
void scan_outer(const ScanPlan& plan) {
  const int nops = plan.operands;
  const int last = plan.layout.shape.size() - 1;
  const int64_t inner = plan.layout.shape[last];
  const int64_t n = plan.layout.shape[plan.axis];
  const int64_t blocks = (inner + kBlock - 1) / kBlock;
  int64_t rows = 1;
  for (int a : plan.others) rows *= plan.layout.shape[a];
  const CastRow move = cast_row_for(plan.program.operands[0].dtype(),
                                    plan.program.operands[0].dtype());
  const int64_t grain = std::max<int64_t>(1, kGrainElements / (n * kBlock));
  parallel_for(rows * blocks, grain, [&](int64_t begin, int64_t end) {
    const Program& p = plan.program;
    std::byte* memory = program_scratch(p);
    std::byte* slot_ptr[kMaxSlots];
    std::vector<std::byte> acc(kSlotBytes);
    clear_stale_fp_errors();
    for (int64_t t = begin; t < end; ++t) {
      std::byte* ptrs[StridedLayout::kMaxOperands];
      std::copy(plan.base, plan.base + nops, ptrs);
      add_offsets(plan, plan.others, t / blocks, ptrs);
      const int64_t off = (t % blocks) * kBlock;
      const int64_t m = std::min(kBlock, inner - off);
      fill_constants(p, memory, m);
      for (int64_t i = 0; i < n; ++i) {
        std::byte* row[StridedLayout::kMaxOperands];
        for (int k = 0; k < nops; ++k) row[k] = ptrs[k] + i * plan.layout.strides[k][plan.axis];
        run_block(p, row, plan.inner_strides, off, m, memory, slot_ptr);
        if (i == 0) {
          std::memcpy(acc.data(), slot_ptr[p.roots[0]], m * plan.isize);
        } else {
          const std::byte* in[2] = {acc.data(), slot_ptr[p.roots[0]]};
          std::byte* out[1] = {acc.data()};
          plan.combine(in, out, m);
        }
        move(acc.data(), plan.isize, row[0] + off * plan.inner_strides[0],
             plan.inner_strides[0], m);
      }
    }
    collect_fp_errors(plan.fold_errors);
  });
}

}  // namespace

void scan(const expr::Node& root, Ufunc op, int loop, int axis, const Array& out) {
  if (out.size() == 0) return;
  ScanPlan plan;
  // The marker: a stride on the scan axis only, so no other axis merges into it.
  Dims marker(out.ndim(), 0);
  marker[axis] = 1;
  walk_tree(plan, root, out, &marker);
  const bool fused = out.shape()[axis] == 2;
  plan.combine = row_combine_for(op, loop, out.dtype(), fused);
  plan.serial = serial_scan_for(op, out.dtype(), fused);
  plan.isize = out.itemsize();
  const int nops = plan.operands;
  const int last = plan.layout.shape.size() - 1;
  for (int a = 0; a <= last; ++a) {
    if (plan.layout.strides[nops][a] != 0) plan.axis = a;
  }
  if (plan.axis < 0) {
    throw std::logic_error("scan: the scan axis has fewer than two elements");
  }
  for (int a = 0; a < last; ++a) {
    if (a != plan.axis) plan.others.push_back(a);
  }
  for (int k = 0; k < nops; ++k) plan.inner_strides[k] = plan.layout.strides[k][last];
  if (plan.axis == last) {
    scan_inner(plan);
  } else {
    scan_outer(plan);
  }
  record_walk_errors(plan, "accumulate", op, out.dtype());
}

}  // namespace tessera::cpu
