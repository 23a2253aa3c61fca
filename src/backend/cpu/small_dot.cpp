// SIMD loops of Dot nodes (small_dot.h), through Highway with runtime dispatch. The common
// layout, a row of the product (x fixed along the row, y's terms contiguous rows), runs as
// vectors; any other layout (a reduction walking down a column) runs element by element.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "backend/cpu/small_dot.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <cstdint>

#include "backend/cpu/product_row-inl.h"
#include "backend/cpu/small_dot.h"

HWY_BEFORE_NAMESPACE();
namespace tessera::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class T>
void SmallDotLoop(const std::byte* x, int64_t x_stride, const std::byte* y, int64_t y_stride,
                  const int64_t* steps, int terms, std::byte* out, int64_t n) {
  T* o = reinterpret_cast<T*>(out);
  int64_t j = 0;
  if (x_stride == 0 && y_stride == static_cast<int64_t>(sizeof(T))) {
    with_terms(terms, [&](auto count) {
      const ProductRow<T, decltype(count)::value> row(x, y, steps);
      const int64_t lanes = static_cast<int64_t>(hn::Lanes(row.d));
      for (; j + lanes <= n; j += lanes) hn::StoreU(row.at(j), row.d, o + j);
    });
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
