// argmax/argmin on the CPU: the tree's values along one axis scanned for the first extreme,
// in one pass. Written by hand because no library keeps NumPy's rules together: the first
// occurrence wins, the first NaN wins over every number, complex compares lexicographically.

#include <algorithm>
#include <cmath>
#include <vector>

#include "backend/cpu/expr_program.h"
#include "backend/cpu/parallel.h"
#include "backend/cpu/simd_reduce.h"
#include "backend/cpu/strided_loop.h"
#include "kernels/ops_comparison.h"
#include "kernels/types.h"

namespace tessera::cpu {
namespace {

constexpr int64_t kGrainElements = 32 << 10;

using kernels::cmp_detail::has_nan;

// The walk's operand 0 is the index array.
struct ArgPlan : TreeWalk {
  int axis = -1;  // the reduced layout axis
  std::vector<int> kept;  // layout axes other than the reduced one and (case B) the inner one
  int64_t inner_strides[StridedLayout::kMaxOperands] = {};
};

template <typename T, bool Max>
struct Best {
  T value{};
  int64_t index = -1;

  void offer(T v, int64_t i) {
    if (index < 0 || kernels::arg_beats<Max, T>(v, value)) {
      value = v;
      index = i;
    }
  }
};

// The SIMD fold of the op over T, where there is one (floats).
template <typename T, bool Max>
BlockFold extreme_fold() {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return simd_block_fold(Max ? Ufunc::Maximum : Ufunc::Minimum,
                           std::is_same_v<T, float> ? DType::Float32 : DType::Float64);
  }
  return nullptr;
}

// Offers m values `v`, elements off ... off + m - 1, to `best`. Floats: the block's extreme
// by SIMD first, then only a block that improves on the best is searched for where that
// value first occurs.
template <typename T, bool Max>
void offer_block(Best<T, Max>& best, const T* v, int64_t off, int64_t m, BlockFold fold) {
  if (fold) {
    T extreme;
    fold(reinterpret_cast<const std::byte*>(v), m, reinterpret_cast<std::byte*>(&extreme));
    if (best.index >= 0 && !kernels::arg_beats<Max, T>(extreme, best.value)) return;
    const bool nan = has_nan(extreme);
    int64_t i = 0;
    while (nan ? !has_nan(v[i]) : v[i] != extreme) ++i;
    best.value = v[i];
    best.index = off + i;
    return;
  }
  for (int64_t i = 0; i < m; ++i) best.offer(v[i], off + i);
}

// Scans elements [begin, end) of the innermost (reduced) axis at `ptrs`.
template <typename T, bool Max>
Best<T, Max> scan_row(const ArgPlan& plan, std::byte* const* ptrs, int64_t begin, int64_t end) {
  const Program& p = plan.program;
  std::byte* memory = program_scratch(p);
  std::byte* slot_ptr[kMaxSlots];
  fill_constants(p, memory, std::min(end - begin, kBlock));
  Best<T, Max> best;
  const BlockFold fold = extreme_fold<T, Max>();
  for (int64_t off = begin; off < end; off += kBlock) {
    const int64_t m = std::min(kBlock, end - off);
    run_block(p, ptrs, plan.inner_strides, off, m, memory, slot_ptr);
    offer_block(best, reinterpret_cast<const T*>(slot_ptr[p.roots[0]]), off, m, fold);
  }
  return best;
}

// The whole of a bare input, dense in memory and short enough for one thread, scanned
// straight from memory in the blocks scan_row would take (the same first extreme): no
// program or layout for t.argmax() on a small array.
template <typename T, bool Max>
int64_t scan_dense(const Array& x) {
  const T* v = reinterpret_cast<const T*>(x.data());
  const int64_t n = x.size();
  const BlockFold fold = extreme_fold<T, Max>();
  Best<T, Max> best;
  for (int64_t off = 0; off < n; off += kBlock) {
    offer_block(best, v + off, off, std::min(kBlock, n - off), fold);
  }
  return best.index;
}

template <typename T, bool Max>
void arg_inner(const ArgPlan& plan) {
  const int nops = plan.operands;
  const int64_t n = plan.layout.shape[plan.axis];
  int64_t outputs = 1;
  for (int a : plan.kept) outputs *= plan.layout.shape[a];
  auto output_ptrs = [&](int64_t o, std::byte** ptrs) {
    std::copy(plan.base, plan.base + nops, ptrs);
    add_offsets(plan, plan.kept, o, ptrs);
  };
  const int threads = num_threads();
  if (outputs >= threads || n < 2 * kGrainElements) {
    const int64_t grain = std::max<int64_t>(1, kGrainElements / n);
    parallel_for(outputs, grain, [&](int64_t begin, int64_t end) {
      for (int64_t o = begin; o < end; ++o) {
        std::byte* ptrs[StridedLayout::kMaxOperands];
        output_ptrs(o, ptrs);
        *reinterpret_cast<int64_t*>(ptrs[0]) = scan_row<T, Max>(plan, ptrs, 0, n).index;
      }
    });
    return;
  }
  // Few long rows: threads scan shares of each row; the earliest share wins ties.
  const int64_t chunks = std::min<int64_t>(threads, n / kGrainElements);
  std::vector<Best<T, Max>> shares(chunks);
  for (int64_t o = 0; o < outputs; ++o) {
    std::byte* ptrs[StridedLayout::kMaxOperands];
    output_ptrs(o, ptrs);
    parallel_for(chunks, 1, [&](int64_t begin, int64_t end) {
      for (int64_t c = begin; c < end; ++c) {
        shares[c] = scan_row<T, Max>(plan, ptrs, n * c / chunks, n * (c + 1) / chunks);
      }
    });
    Best<T, Max> best;
    for (const auto& s : shares) best.offer(s.value, s.index);
    *reinterpret_cast<int64_t*>(ptrs[0]) = best.index;
  }
}

// The reduced axis is not innermost: rows of the inner (kept) axis are compared
// elementwise against running bests, one row per index along the reduced axis.
template <typename T, bool Max>
void arg_outer(const ArgPlan& plan) {
  const int nops = plan.operands;
  const int last = plan.layout.shape.size() - 1;
  const int64_t inner = plan.layout.shape[last];
  const int64_t n = plan.layout.shape[plan.axis];
  const int64_t blocks = (inner + kBlock - 1) / kBlock;
  int64_t rows = 1;
  for (int a : plan.kept) rows *= plan.layout.shape[a];
  const int64_t grain = std::max<int64_t>(1, kGrainElements / (n * kBlock));
  parallel_for(rows * blocks, grain, [&](int64_t begin, int64_t end) {
    const Program& p = plan.program;
    std::byte* memory = program_scratch(p);
    std::byte* slot_ptr[kMaxSlots];
    std::vector<T> best(kBlock);
    std::vector<int64_t> index(kBlock);
    for (int64_t t = begin; t < end; ++t) {
      std::byte* ptrs[StridedLayout::kMaxOperands];
      std::copy(plan.base, plan.base + nops, ptrs);
      add_offsets(plan, plan.kept, t / blocks, ptrs);
      const int64_t off = (t % blocks) * kBlock;
      const int64_t m = std::min(kBlock, inner - off);
      fill_constants(p, memory, m);
      for (int64_t r = 0; r < n; ++r) {
        std::byte* row[StridedLayout::kMaxOperands];
        for (int k = 0; k < nops; ++k) row[k] = ptrs[k] + r * plan.layout.strides[k][plan.axis];
        run_block(p, row, plan.inner_strides, off, m, memory, slot_ptr);
        const T* v = reinterpret_cast<const T*>(slot_ptr[p.roots[0]]);
        for (int64_t i = 0; i < m; ++i) {
          if (r == 0 || kernels::arg_beats<Max, T>(v[i], best[i])) {
            best[i] = v[i];
            index[i] = r;
          }
        }
      }
      std::byte* dst = ptrs[0] + off * plan.inner_strides[0];
      for (int64_t i = 0; i < m; ++i) {
        *reinterpret_cast<int64_t*>(dst + i * plan.inner_strides[0]) = index[i];
      }
    }
  });
}

}  // namespace

void arg_reduce(const expr::Node& root, bool max, const Array& index) {
  if (index.size() == 0) return;
  const Array& x = root.input;
  if (root.kind == expr::Node::Kind::Input && x.dtype() == root.dtype && x.ndim() == 1 &&
      x.strides()[0] == x.itemsize() && index.strides()[0] == 0 &&
      x.size() < 2 * kGrainElements) {
    kernels::visit_dtype(root.dtype, [&](auto zero) {
      using T = decltype(zero);
      *reinterpret_cast<int64_t*>(index.data()) =
          max ? scan_dense<T, true>(x) : scan_dense<T, false>(x);
    });
    return;
  }
  ArgPlan plan;
  walk_tree(plan, root, index);
  const int nops = plan.operands;
  const int last = plan.layout.shape.size() - 1;
  for (int a = 0; a <= last; ++a) {
    if (plan.layout.strides[0][a] == 0 && plan.layout.shape[a] > 1) plan.axis = a;
  }
  if (plan.axis < 0) {
    throw std::logic_error("arg_reduce: the reduced axis has fewer than two elements");
  }
  const bool inner = plan.axis == last;
  for (int a = 0; a < last; ++a) {
    if (a != plan.axis) plan.kept.push_back(a);
  }
  for (int k = 0; k < nops; ++k) plan.inner_strides[k] = plan.layout.strides[k][last];
  kernels::visit_dtype(root.dtype, [&](auto zero) {
    using T = decltype(zero);
    if (inner) {
      max ? arg_inner<T, true>(plan) : arg_inner<T, false>(plan);
    } else {
      max ? arg_outer<T, true>(plan) : arg_outer<T, false>(plan);
    }
  });
  record_program_errors(plan.program);
}

}  // namespace tessera::cpu
