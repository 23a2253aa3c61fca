// SIMD inner loops for the transcendental functions that dominate elementwise time: sin,
// cos, exp and log in float32 and float64, through Highway's contrib/math with runtime
// dispatch (one binary runs SSE4, AVX2 or AVX-512, whichever the CPU has). Highway's
// functions are accurate (1-3 ULP) only inside a range and do not promise IEEE special
// values, so each vector is checked first: a vector with any lane outside the range
// (including nan, inf, zero and subnormals for log) runs through the scalar functor, the
// very code of the non-SIMD loop, so special values match NumPy exactly.
//
// This file is compiled once per target by Highway's foreach_target mechanism; the
// HWY_ONCE section at the end holds the single dispatching definitions.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "backend/cpu/simd_math.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/contrib/math/math-inl.h>
#include <hwy/highway.h>

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "backend/cpu/simd_math.h"
#include "kernels/ops_exp_log.h"
#include "kernels/ops_trig.h"

HWY_BEFORE_NAMESPACE();
namespace tessera::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Runs `vector_op` on whole vectors whose lanes all pass `in_range`, `scalar_op` on the
// other vectors and on the tail. Inside the range the true results raise no floating-point
// error, but Highway's polynomials may (an underflowing x^3 for a tiny x): the flags the
// vector pass adds are cleared before the scalar pass raises the real ones. `in_range`
// must be false for nan (comparisons with nan are).
template <class T, class InRange, class VectorOp, class ScalarOp>
HWY_INLINE void map_in_range(const T* HWY_RESTRICT in, T* HWY_RESTRICT out, int64_t n,
                             InRange in_range, VectorOp vector_op, ScalarOp scalar_op) {
  constexpr int kErrors = FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID;
  constexpr int64_t kChunk = 512;
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  for (int64_t start = 0; start < n; start += kChunk) {
    const int64_t end = std::min(n, start + kChunk);
    bool vector_in_range[kChunk];  // per vector of this chunk
    const int before = std::fetestexcept(kErrors);
    int64_t i = start, v = 0;
    for (; i + lanes <= end; i += lanes, ++v) {
      const auto x = hn::LoadU(d, in + i);
      vector_in_range[v] = hn::AllTrue(d, in_range(d, x));
      if (vector_in_range[v]) hn::StoreU(vector_op(d, x), d, out + i);
    }
    if (const int spurious = std::fetestexcept(kErrors) & ~before) std::feclearexcept(spurious);
    for (int64_t k = 0; k < v; ++k) {
      if (vector_in_range[k]) continue;
      const int64_t first = start + k * lanes;
      for (int64_t j = first; j < first + lanes; ++j) out[j] = scalar_op(in[j]);
    }
    for (; i < end; ++i) out[i] = scalar_op(in[i]);
  }
}

// Lanes within [lo, hi].
template <class T>
auto between(T lo, T hi) {
  return [lo, hi](auto d, auto x) {
    return hn::And(hn::Ge(x, hn::Set(d, lo)), hn::Le(x, hn::Set(d, hi)));
  };
}

// sin and cos: |x| up to 39000 (Highway's range reduction), zeros, and no nonzero |x|
// below the point where NumPy's result raises underflow (subnormals for double, the
// threshold of kernels::Sin/Cos for float): those lanes take the scalar functor, which
// raises it.
template <class T>
auto sin_cos_range() {
  const T smallest = sizeof(T) == 8 ? std::numeric_limits<T>::min()
                                    : T(kernels::detail::kFloatSinCosUnderflowBelow);
  return [smallest](auto d, auto x) {
    const auto magnitude = hn::Abs(x);
    return hn::And(hn::Le(magnitude, hn::Set(d, T(39000))),
                   hn::Or(hn::Ge(magnitude, hn::Set(d, smallest)), hn::Eq(x, hn::Zero(d))));
  };
}

// sin(-0.0) is -0.0, which Highway's Sin does not keep.
template <class T>
void SinLoop(const T* in, T* out, int64_t n) {
  map_in_range<T>(in, out, n, sin_cos_range<T>(),
                  [](auto d, auto x) {
                    return hn::IfThenElse(hn::Eq(x, hn::Zero(d)), x, hn::Sin(d, x));
                  },
                  kernels::Sin{});
}

template <class T>
void CosLoop(const T* in, T* out, int64_t n) {
  map_in_range<T>(in, out, n, sin_cos_range<T>(), [](auto d, auto x) { return hn::Cos(d, x); },
                  kernels::Cos{});
}

// Away from overflow to inf and from results in the subnormal range.
template <class T>
void ExpLoop(const T* in, T* out, int64_t n) {
  const T limit = sizeof(T) == 8 ? T(700) : T(85);
  map_in_range<T>(in, out, n, between(-limit, limit),
                  [](auto d, auto x) { return hn::Exp(d, x); }, kernels::Exp{});
}

// Positive normal numbers: zero, negatives, subnormals, inf and nan go to the scalar path.
template <class T>
void LogLoop(const T* in, T* out, int64_t n) {
  map_in_range<T>(in, out, n,
                  between(std::numeric_limits<T>::min(), std::numeric_limits<T>::max()),
                  [](auto d, auto x) { return hn::Log(d, x); }, kernels::Log{});
}

#define TS_SIMD_ENTRY(Name, T)                                                     \
  void Name##_##T(const std::byte* const* in, std::byte* const* out, int64_t n) {  \
    Name##Loop<T>(reinterpret_cast<const T*>(in[0]), reinterpret_cast<T*>(out[0]), n); \
  }
TS_SIMD_ENTRY(Sin, float)
TS_SIMD_ENTRY(Sin, double)
TS_SIMD_ENTRY(Cos, float)
TS_SIMD_ENTRY(Cos, double)
TS_SIMD_ENTRY(Exp, float)
TS_SIMD_ENTRY(Exp, double)
TS_SIMD_ENTRY(Log, float)
TS_SIMD_ENTRY(Log, double)
#undef TS_SIMD_ENTRY

}  // namespace tessera::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tessera::cpu {

#define TS_SIMD_DISPATCH(Name, T)                                                   \
  HWY_EXPORT(Name##_##T);                                                           \
  static void dispatch_##Name##_##T(const std::byte* const* in, std::byte* const* out, \
                                    int64_t n) {                                    \
    HWY_DYNAMIC_DISPATCH(Name##_##T)(in, out, n);                                   \
  }
TS_SIMD_DISPATCH(Sin, float)
TS_SIMD_DISPATCH(Sin, double)
TS_SIMD_DISPATCH(Cos, float)
TS_SIMD_DISPATCH(Cos, double)
TS_SIMD_DISPATCH(Exp, float)
TS_SIMD_DISPATCH(Exp, double)
TS_SIMD_DISPATCH(Log, float)
TS_SIMD_DISPATCH(Log, double)
#undef TS_SIMD_DISPATCH

void register_simd_math_loops(LoopTable& table) {
  replace_loop(table, Ufunc::Sin, DType::Float32, &dispatch_Sin_float);
  replace_loop(table, Ufunc::Sin, DType::Float64, &dispatch_Sin_double);
  replace_loop(table, Ufunc::Cos, DType::Float32, &dispatch_Cos_float);
  replace_loop(table, Ufunc::Cos, DType::Float64, &dispatch_Cos_double);
  replace_loop(table, Ufunc::Exp, DType::Float32, &dispatch_Exp_float);
  replace_loop(table, Ufunc::Exp, DType::Float64, &dispatch_Exp_double);
  replace_loop(table, Ufunc::Log, DType::Float32, &dispatch_Log_float);
  replace_loop(table, Ufunc::Log, DType::Float64, &dispatch_Log_double);
}

}  // namespace tessera::cpu
#endif  // HWY_ONCE
