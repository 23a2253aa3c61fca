// SIMD inner loops for the transcendental functions that dominate elementwise time: sin,
// cos, exp and log in float32 and float64, with Highway's runtime dispatch (one binary runs
// SSE4, AVX2 or AVX-512, whichever the CPU has).
//
// Accuracy (docs/accuracy.md): float64 sin, cos, exp and log stay within 1 ULP of the
// correctly rounded result. float64 sin and cos are tessera's kernel below, fdlibm's method
// (Cody-Waite reduction by pi/2, minimax polynomials on [-pi/4, pi/4]) in plain double
// arithmetic with fused multiply-adds that carry the few rounding errors that matter, so
// that it agrees with the correctly rounded result (and glibc, what NumPy calls) on about
// 99.5% of inputs; on targets without FMA (SSE4) they are the scalar functor. float64 exp
// and log, and every float32 function, are Highway's contrib/math: its float64 exp and log
// are within 1 ULP of the correctly rounded result (measured; equal to it on about 91% of
// inputs), its float32 functions within NumPy's own float32 bounds.
//
// Each kernel is valid only inside a range, and special values (nan, inf, zeros where the
// sign matters, results that overflow or underflow) must match NumPy's together with its
// floating-point flags, so each vector is checked first: a vector with any lane outside
// the range runs through the scalar functor, the very code of the non-SIMD loop. Results
// that are exact (cos(0) = 1, sin(+-0) = +-0, exp(0) = 1, log(1) = 0) come out exact from
// both paths, whatever the vector's other lanes hold.
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

// The vectors of doubles the float64 kernels work on.
using DF64 = hn::ScalableTag<double>;
using VF64 = hn::Vec<DF64>;

// Runs `vector_op` on whole vectors (of tag `D`) whose lanes all pass `in_range` and the
// kernel's own check, `scalar_op` on the other vectors and on the tail. `vector_op(d, x, ok)`
// receives `in_range`'s mask in `ok` and may clear lanes of it (a reduction it cannot
// vouch for); a vector is stored only if every lane stays set. Inside the range the true
// results raise no floating-point error, but the kernels' intermediate terms may (an
// underflowing x^3 for a tiny x), and so may a kernel run on a vector that then goes to the
// scalar path: the flags the vector pass adds are cleared before the scalar pass raises the
// real ones. `in_range` must be false for nan (comparisons with nan are).
template <class D, class T, class InRange, class VectorOp, class ScalarOp>
HWY_INLINE void map_in_range(D d, const T* HWY_RESTRICT in, T* HWY_RESTRICT out, int64_t n,
                             InRange in_range, VectorOp vector_op, ScalarOp scalar_op) {
  constexpr int kErrors = FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID;
  constexpr int64_t kChunk = 512;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  for (int64_t start = 0; start < n; start += kChunk) {
    const int64_t end = std::min(n, start + kChunk);
    bool vector_in_range[kChunk];  // per vector of this chunk
    const int before = std::fetestexcept(kErrors);
    int64_t i = start, v = 0;
    // Two vectors per step: their kernels are independent chains of dependent operations,
    // which the core then overlaps.
    for (; i + 2 * lanes <= end; i += 2 * lanes, v += 2) {
      const auto x0 = hn::LoadU(d, in + i);
      const auto x1 = hn::LoadU(d, in + i + lanes);
      auto ok0 = in_range(d, x0);
      auto ok1 = in_range(d, x1);
      const auto y0 = vector_op(d, x0, ok0);
      const auto y1 = vector_op(d, x1, ok1);
      vector_in_range[v] = hn::AllTrue(d, ok0);
      vector_in_range[v + 1] = hn::AllTrue(d, ok1);
      if (vector_in_range[v]) hn::StoreU(y0, d, out + i);
      if (vector_in_range[v + 1]) hn::StoreU(y1, d, out + i + lanes);
    }
    for (; i + lanes <= end; i += lanes, ++v) {
      const auto x = hn::LoadU(d, in + i);
      auto ok = in_range(d, x);
      const auto y = vector_op(d, x, ok);
      vector_in_range[v] = hn::AllTrue(d, ok);
      if (vector_in_range[v]) hn::StoreU(y, d, out + i);
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

// ---------------------------------------------------------------------------------------
// sin and cos, float64.
//
// Reduction (Cody and Waite, with FMA): n = round(x * 2/pi), y = x - n*pi/2 with
// |y| <= pi/4 (plus rounding), as yh + yl. pi/2 = C1 + C2 + C3 with C1 = RN(pi/2),
// C2 = RN(pi/2 - C1), |C3| < 2^-109. For |x| <= kTrigMax (so |n| < 2^20):
// * a = x - n*C1 (one FMA) is exact: x and n*C1 are multiples of 2^-53 and |a| < 1;
// * yh = RN(a - n*C2) (one FMA); when |yh| >= 2^-28, a - yh is exact (Sterbenz:
//   |n*C2| < 2^-33 is tiny next to a), and so is the FMA yl = (a - yh) - n*C2, the
//   rounding error of yh (it spans ulp(yh)/2 down to 2^-106: under 53 bits);
// * the omitted n*C3 is below 2^-89, under 2^-61 of |yh|: at most 0.004 ULP of the result,
//   and negligible for the usual |x| (below 2^-103 for |x| < 100);
// * when n == 0 (every lane with |x| < 2^-27 is such a lane) y = x exactly.
// Lanes with |yh| < 2^-28 and n != 0 (x within about 2^-28 of a nonzero multiple of pi/2,
// which none of the 14 million random test inputs was) send their vector to the scalar
// functor instead of carrying a longer reduction for all.
constexpr double kTrigMax = 1.0e6;  // |n| <= 636620 < 2^20
constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
constexpr double kPio2_1 = 0x1.921fb54442d18p+0;
constexpr double kPio2_2 = 0x1.1a62633145c07p-54;

// Kernel on [-pi/4, pi/4], fdlibm's method (__kernel_sin, __kernel_cos):
//   sin y = y + S1 y^3 + y^5 Ps(z),        z = y^2, S1 = -1/6,
//   cos y = 1 - z/2 + z^2 Pc(z),
// with Ps (S2..S7) and Pc (C1..C6) weighted-minimax polynomials of degree 5 in z, fitted by
// tools/fit_sincos.py (mpmath; Lawson's iteration on [0, pi/4 + 2^-20] minimising the error
// in ULPs of the result, with S1 = RN(-1/6) and C1 = RN(1/24) fixed, so that the fit
// absorbs what it can of their rounding), whose approximation error is below 0.0025 ULP
// (sin) and 0.001 ULP (cos) of the result. Plain double arithmetic
// with FMA; what keeps the result near correctly rounded is that the few error terms that
// matter are carried: the leading term S1 y^3 (up to 0.08 of the result) or -z/2 as a
// product with its exact FMA error and a FastTwoSum onto the head (exact: |head| > |term|),
// the rounding errors of z and y^3 (FMA), and yl through
// sin(yh + yl) ~ sin(yh) + yl (1 - z/2), cos(yh + yl) ~ cos(yh) - yl yh. What is left
// before the final rounding is a few hundredths of an ULP at most (roundings of terms below
// 0.003 of the result, yl yh^3/6): measured within 1 ULP of the correctly rounded result
// everywhere and equal to it (and to glibc) on about 99.5% of random inputs
// (docs/accuracy.md).
//
// Which polynomial a lane needs depends on its quadrant (sin x is +-sin y or +-cos y), so
// each lane selects its coefficients (blends) and one polynomial is evaluated: both forms
// are lead + m c0 + m z P(z) with lead = y or 1, m = y z or z, c0 = S1 or -1/2.
constexpr double kS1 = -0x1.5555555555555p-3;  // RN(-1/6)
constexpr double kSinPoly[6] = {                // S2..S7
    0x1.111111111105bp-7,   -0x1.a01a019ffafbcp-13, 0x1.71de3a2eb6b92p-19,
    -0x1.ae642578c7058p-26, 0x1.61053e1ceeb21p-33,  -0x1.9dbbd91f98627p-41};
constexpr double kCosPoly[6] = {  // C1 = RN(1/24), C2..C6
    0x1.5555555555555p-5,   -0x1.6c16c16c16318p-10, 0x1.a01a019e3a2e5p-16,
    -0x1.27e4f90b7dd8cp-22, 0x1.1eea8d127ad99p-29,  -0x1.8ffc3562e82e3p-37};

// sin x (kCos false) or cos x (kCos true). `ok` is cleared for the lanes whose reduction
// is not known exact (above).
template <bool kCos>
HWY_INLINE VF64 SinCosF64(VF64 x, hn::Mask<DF64>& ok) {
  const DF64 d;
  const hn::RebindToUnsigned<DF64> du;
  // n = round(x * 2/pi) by the 1.5 * 2^52 shift; its low bits are the quadrant.
  const VF64 magic = hn::Set(d, 0x1.8p52);
  const VF64 shifted = hn::MulAdd(x, hn::Set(d, kTwoOverPi), magic);
  const VF64 n = hn::Sub(shifted, magic);
  const VF64 a = hn::NegMulAdd(n, hn::Set(d, kPio2_1), x);  // exact
  const VF64 y = hn::NegMulAdd(n, hn::Set(d, kPio2_2), a);
  const VF64 yl = hn::NegMulAdd(n, hn::Set(d, kPio2_2), hn::Sub(a, y));  // exact when ok
  ok = hn::And(ok, hn::Or(hn::Ge(hn::Abs(y), hn::Set(d, 0x1p-28)),
                          hn::Lt(hn::Abs(x), hn::Set(d, 0x1p-27))));

  // Quadrant q (n, plus 1 for cos): odd q takes the cos form, q & 2 negates.
  auto q = hn::BitCast(du, shifted);
  if constexpr (kCos) q = hn::Add(q, hn::Set(du, 1));
  const auto use_cos = hn::RebindMask(d, hn::TestBit(q, hn::Set(du, 1)));

  const VF64 one = hn::Set(d, 1.0);
  const VF64 z = hn::Mul(y, y);
  const VF64 zl = hn::MulSub(y, y, z);  // z's rounding error, exact
  const VF64 lead = hn::IfThenElse(use_cos, one, y);
  const VF64 m = hn::Mul(z, lead);  // y^3 or z
  const VF64 ml = hn::MulAdd(zl, lead, hn::MulSub(z, lead, m));
  const VF64 c0 = hn::IfThenElse(use_cos, hn::Set(d, -0.5), hn::Set(d, kS1));
  const VF64 th = hn::Mul(m, c0);
  const VF64 tl = hn::MulSub(m, c0, th);  // exact
  const VF64 s = hn::Add(lead, th);
  const VF64 e = hn::Sub(th, hn::Sub(s, lead));  // FastTwoSum, exact
  VF64 p = hn::IfThenElse(use_cos, hn::Set(d, kCosPoly[5]), hn::Set(d, kSinPoly[5]));
  for (int i = 4; i >= 0; --i) {
    p = hn::MulAdd(p, z, hn::IfThenElse(use_cos, hn::Set(d, kCosPoly[i]),
                                        hn::Set(d, kSinPoly[i])));
  }
  const VF64 mz = hn::Mul(m, z);  // y^5 or z^2
  // yl's contribution: yl cos(yh) ~ yl (1 - z/2), or -yl sin(yh) ~ -yl yh.
  const VF64 yk = hn::IfThenElse(use_cos, hn::Neg(y), hn::NegMulAdd(hn::Set(d, 0.5), z, one));
  VF64 low = hn::Add(e, tl);
  low = hn::MulAdd(ml, c0, low);
  low = hn::MulAdd(mz, p, low);
  low = hn::MulAdd(yl, yk, low);
  VF64 r = hn::Add(s, low);
  // sin y has y's sign (cos y is positive): for sin, take it from `lead`, which keeps
  // sin(-0) = -0 (s = -0 + +0 would be +0). cos(0) = 1 comes out exact (every term but
  // `lead` is zero).
  if constexpr (!kCos) r = hn::CopySign(r, lead);
  const auto sign = hn::ShiftLeft<62>(hn::And(q, hn::Set(du, 2)));
  return hn::Xor(r, hn::BitCast(d, sign));
}

// ---------------------------------------------------------------------------------------
// The loops.

// Lanes within [lo, hi].
template <class T>
auto between(T lo, T hi) {
  return [lo, hi](auto d, auto x) {
    return hn::And(hn::Ge(x, hn::Set(d, lo)), hn::Le(x, hn::Set(d, hi)));
  };
}

// sin and cos: |x| up to the kernel's limit (kTrigMax for double, 39000 for Highway's
// float range reduction), zeros, and no nonzero |x| below the point where NumPy's result
// raises underflow (subnormals for double, the threshold of kernels::Sin/Cos for float):
// those lanes take the scalar functor, which raises it.
template <class T>
auto sin_cos_range() {
  const T largest = sizeof(T) == 8 ? T(kTrigMax) : T(39000);
  const T smallest = sizeof(T) == 8 ? std::numeric_limits<T>::min()
                                    : T(kernels::detail::kFloatSinCosUnderflowBelow);
  return [largest, smallest](auto d, auto x) {
    const auto magnitude = hn::Abs(x);
    return hn::And(hn::Le(magnitude, hn::Set(d, largest)),
                   hn::Or(hn::Ge(magnitude, hn::Set(d, smallest)), hn::Eq(x, hn::Zero(d))));
  };
}

// float32 keeps Highway's contrib/math functions (1-3 ULP; within NumPy's own float32
// bounds on NumPy's validation data, docs/accuracy.md), and so do float64 exp and log, which
// are within 1 ULP of the correctly rounded result (measured, docs/accuracy.md) but not
// exact where the result is: exp(+-0) = 1 and log(1) = 0 are blended in.
using DF32 = hn::ScalableTag<float>;

template <class T>
void SinLoop(const T* in, T* out, int64_t n) {
  if constexpr (sizeof(T) == 8) {
#if HWY_NATIVE_FMA
    map_in_range(DF64(), in, out, n, sin_cos_range<T>(),
                 [](DF64, VF64 x, hn::Mask<DF64>& ok) { return SinCosF64<false>(x, ok); },
                 kernels::Sin{});
#else
    // The kernel's exactness rests on fused multiply-adds (SSE4, scalar targets have none).
    for (int64_t i = 0; i < n; ++i) out[i] = kernels::Sin{}(in[i]);
#endif
  } else {
    // sin(-0.0) is -0.0, which Highway's Sin does not keep.
    map_in_range(DF32(), in, out, n, sin_cos_range<T>(),
                 [](DF32 d, hn::Vec<DF32> x, hn::Mask<DF32>&) {
                   return hn::IfThenElse(hn::Eq(x, hn::Zero(d)), x, hn::Sin(d, x));
                 },
                 kernels::Sin{});
  }
}

template <class T>
void CosLoop(const T* in, T* out, int64_t n) {
  if constexpr (sizeof(T) == 8) {
#if HWY_NATIVE_FMA
    map_in_range(DF64(), in, out, n, sin_cos_range<T>(),
                 [](DF64, VF64 x, hn::Mask<DF64>& ok) { return SinCosF64<true>(x, ok); },
                 kernels::Cos{});
#else
    for (int64_t i = 0; i < n; ++i) out[i] = kernels::Cos{}(in[i]);
#endif
  } else {
    map_in_range(DF32(), in, out, n, sin_cos_range<T>(),
                 [](DF32 d, hn::Vec<DF32> x, hn::Mask<DF32>&) { return hn::Cos(d, x); },
                 kernels::Cos{});
  }
}

// Away from overflow to inf and from results in the subnormal range.
template <class T>
void ExpLoop(const T* in, T* out, int64_t n) {
  const T limit = sizeof(T) == 8 ? T(700) : T(85);
  map_in_range(hn::ScalableTag<T>(), in, out, n, between(-limit, limit),
               [](auto d, auto x, auto&) {
                 return hn::IfThenElse(hn::Eq(x, hn::Zero(d)), hn::Set(d, T(1)), hn::Exp(d, x));
               },
               kernels::Exp{});
}

// Positive normal numbers: zero, negatives, subnormals, inf and nan go to the scalar path.
template <class T>
void LogLoop(const T* in, T* out, int64_t n) {
  map_in_range(hn::ScalableTag<T>(), in, out, n,
               between(std::numeric_limits<T>::min(), std::numeric_limits<T>::max()),
               [](auto d, auto x, auto&) {
                 return hn::IfThenElseZero(hn::Ne(x, hn::Set(d, T(1))), hn::Log(d, x));
               },
               kernels::Log{});
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
