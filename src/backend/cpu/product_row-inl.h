// A row of a product with few terms, per Highway target: the element and vector forms
// that small_dot.cpp (the Dot node's own loop) and dot_chain.cpp (the Dot and the chain
// that consumes it) both compute, so the two give the same bits. Included by files that
// foreach_target compiles once per target; the toggle below lets each target in.

#if defined(TESSERA_CPU_PRODUCT_ROW_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef TESSERA_CPU_PRODUCT_ROW_INL_H_
#undef TESSERA_CPU_PRODUCT_ROW_INL_H_
#else
#define TESSERA_CPU_PRODUCT_ROW_INL_H_
#endif

#include <hwy/highway.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>

#include "expr/expr.h"

HWY_BEFORE_NAMESPACE();
namespace tessera::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class T>
T element(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

// One element of the product: x's and y's terms `steps` bytes apart, accumulated in order
// of the terms with fused multiply-adds, as OpenBLAS's kernels accumulate.
template <class T>
T dot_at(const std::byte* x, const std::byte* y, const int64_t* steps, int terms) {
  T acc = element<T>(x) * element<T>(y);
  for (int t = 1; t < terms; ++t) {
    acc = std::fma(element<T>(x + t * steps[0]), element<T>(y + t * steps[1]), acc);
  }
  return acc;
}

// A row of the product with `Terms` known at compile time, x fixed along the row (its
// terms held in registers) and y's terms contiguous rows: vector j is `at(j)`.
template <class T, int Terms>
struct ProductRow {
  using D = hn::ScalableTag<T>;
  D d;
  hn::Vec<D> xs[Terms];
  const T* ys[Terms];

  ProductRow(const std::byte* x, const std::byte* y, const int64_t* steps) {
    for (int t = 0; t < Terms; ++t) {
      xs[t] = hn::Set(d, element<T>(x + t * steps[0]));
      ys[t] = reinterpret_cast<const T*>(y + t * steps[1]);
    }
  }

  HWY_INLINE hn::Vec<D> at(int64_t j) const {
    auto acc = hn::Mul(xs[0], hn::LoadU(d, ys[0] + j));
    for (int t = 1; t < Terms; ++t) acc = hn::MulAdd(xs[t], hn::LoadU(d, ys[t] + j), acc);
    return acc;
  }
};

// Calls f(std::integral_constant<int, terms>) for a count of terms known only at run time
// (1 ... expr::kMaxDotTerms), so each count runs its own unrolled loop.
template <class F, int... Counts>
void with_terms(int terms, F&& f, std::integer_sequence<int, Counts...>) {
  ((terms == Counts + 1 ? (f(std::integral_constant<int, Counts + 1>{}), 0) : 0), ...);
}
template <class F>
void with_terms(int terms, F&& f) {
  with_terms(terms, std::forward<F>(f), std::make_integer_sequence<int, expr::kMaxDotTerms>{});
}

}  // namespace tessera::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#endif  // TESSERA_CPU_PRODUCT_ROW_INL_H_
