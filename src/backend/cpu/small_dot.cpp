// SIMD loops of Dot nodes (small_dot.h), through Highway with runtime dispatch. The common
// layout, a row of the product (x fixed along the row, y's terms contiguous rows), runs as
// vectors; any other layout (a reduction walking down a column) runs element by element.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "backend/cpu/small_dot.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>

#include "backend/cpu/small_dot.h"
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

template <class T>
T dot_at(const std::byte* x, const std::byte* y, const int64_t* steps, int terms) {
  T acc = element<T>(x) * element<T>(y);
  for (int t = 1; t < terms; ++t) {
    acc = std::fma(element<T>(x + t * steps[0]), element<T>(y + t * steps[1]), acc);
  }
  return acc;
}

// A row of the product with `Terms` known at compile time: x's terms held in registers,
// the multiply-adds of one vector unrolled.
template <class T, int Terms>
int64_t RowOfProduct(const std::byte* x, const std::byte* y, const int64_t* steps, T* out,
                     int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  hn::Vec<decltype(d)> xs[Terms];
  const T* ys[Terms];
  for (int t = 0; t < Terms; ++t) {
    xs[t] = hn::Set(d, element<T>(x + t * steps[0]));
    ys[t] = reinterpret_cast<const T*>(y + t * steps[1]);
  }
  int64_t j = 0;
  for (; j + lanes <= n; j += lanes) {
    auto acc = hn::Mul(xs[0], hn::LoadU(d, ys[0] + j));
    for (int t = 1; t < Terms; ++t) acc = hn::MulAdd(xs[t], hn::LoadU(d, ys[t] + j), acc);
    hn::StoreU(acc, d, out + j);
  }
  return j;
}

template <class T, int... Terms>
int64_t RowOfProductWith(int terms, const std::byte* x, const std::byte* y,
                         const int64_t* steps, T* out, int64_t n,
                         std::integer_sequence<int, Terms...>) {
  int64_t done = 0;
  ((terms == Terms + 1 ? (done = RowOfProduct<T, Terms + 1>(x, y, steps, out, n), 0) : 0), ...);
  return done;
}

template <class T>
void SmallDotLoop(const std::byte* x, int64_t x_stride, const std::byte* y, int64_t y_stride,
                  const int64_t* steps, int terms, std::byte* out, int64_t n) {
  T* o = reinterpret_cast<T*>(out);
  int64_t j = 0;
  if (x_stride == 0 && y_stride == static_cast<int64_t>(sizeof(T))) {
    j = RowOfProductWith<T>(terms, x, y, steps, o, n,
                            std::make_integer_sequence<int, expr::kMaxDotTerms>{});
  }
  for (; j < n; ++j) o[j] = dot_at<T>(x + j * x_stride, y + j * y_stride, steps, terms);
}

void SmallDotFloat(const std::byte* x, int64_t xs, const std::byte* y, int64_t ys,
                   const int64_t* steps, int terms, std::byte* out, int64_t n) {
  SmallDotLoop<float>(x, xs, y, ys, steps, terms, out, n);
}
void SmallDotDouble(const std::byte* x, int64_t xs, const std::byte* y, int64_t ys,
                    const int64_t* steps, int terms, std::byte* out, int64_t n) {
  SmallDotLoop<double>(x, xs, y, ys, steps, terms, out, n);
}

}  // namespace tessera::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tessera::cpu {

HWY_EXPORT(SmallDotFloat);
HWY_EXPORT(SmallDotDouble);

namespace {
void dispatch_float(const std::byte* x, int64_t xs, const std::byte* y, int64_t ys,
                    const int64_t* steps, int terms, std::byte* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(SmallDotFloat)(x, xs, y, ys, steps, terms, out, n);
}
void dispatch_double(const std::byte* x, int64_t xs, const std::byte* y, int64_t ys,
                     const int64_t* steps, int terms, std::byte* out, int64_t n) {
  HWY_DYNAMIC_DISPATCH(SmallDotDouble)(x, xs, y, ys, steps, terms, out, n);
}
}  // namespace

SmallDotFn small_dot_for(DType dtype) {
  return dtype == DType::Float32 ? &dispatch_float : &dispatch_double;
}

}  // namespace tessera::cpu
#endif  // HWY_ONCE
