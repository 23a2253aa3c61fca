// SIMD inner loops for the transcendental functions that dominate elementwise time: sin,
// cos, exp and log in float32 and float64, with Highway's runtime dispatch (one binary runs
// SSE4, AVX2 or AVX-512, whichever the CPU has).
//
// Accuracy (docs/accuracy.md): the float64 kernels below are written to stay within 1 ULP
// of the correctly rounded result and to agree with glibc (what NumPy calls) on nearly
// every input. They follow the classic fdlibm structure -- an additive range reduction
// whose constant is split into parts that multiply exactly (Cody and Waite), then a
// polynomial on the reduced interval -- but carry the few leading terms as double-double
// values (a head and a tail), so that the only sizeable error left is the final rounding.
// The polynomials are truncated Taylor series, whose coefficients (1/n!, 2/(2k+1)) need no
// table to be checked; every truncation error is stated where it is made. float32 keeps
// Highway's contrib/math functions, which stay within NumPy's own float32 bounds.
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

// Runs `vector_op` on whole vectors (of tag `D`) whose lanes all pass `in_range`,
// `scalar_op` on the other vectors and on the tail. Inside the range the true results raise
// no floating-point error, but the kernels' intermediate terms may (an underflowing x^3
// for a tiny x): the flags the vector pass adds are cleared before the scalar pass raises
// the real ones. `in_range` must be false for nan (comparisons with nan are).
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
    // Two vectors per step when both are in range: their kernels are independent chains
    // of dependent operations, which the core then overlaps.
    for (; i + 2 * lanes <= end; i += 2 * lanes, v += 2) {
      const auto x0 = hn::LoadU(d, in + i);
      const auto x1 = hn::LoadU(d, in + i + lanes);
      vector_in_range[v] = hn::AllTrue(d, in_range(d, x0));
      vector_in_range[v + 1] = hn::AllTrue(d, in_range(d, x1));
      if (vector_in_range[v] && vector_in_range[v + 1]) {
        const auto y0 = vector_op(d, x0);
        const auto y1 = vector_op(d, x1);
        hn::StoreU(y0, d, out + i);
        hn::StoreU(y1, d, out + i + lanes);
      } else {
        if (vector_in_range[v]) hn::StoreU(vector_op(d, x0), d, out + i);
        if (vector_in_range[v + 1]) hn::StoreU(vector_op(d, x1), d, out + i + lanes);
      }
    }
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

// ---------------------------------------------------------------------------------------
// Double-double helpers. A pair (hi, lo) stands for the unevaluated sum hi + lo.

struct DD {
  VF64 hi, lo;
};

// Knuth's TwoSum: s + e == a + b exactly, for any a and b.
HWY_INLINE DD TwoSum(VF64 a, VF64 b) {
  const VF64 s = hn::Add(a, b);
  const VF64 bb = hn::Sub(s, a);
  const VF64 e = hn::Add(hn::Sub(a, hn::Sub(s, bb)), hn::Sub(b, bb));
  return {s, e};
}

// Dekker's FastTwoSum: exact when |a| >= |b| (or a is zero).
HWY_INLINE DD FastTwoSum(VF64 a, VF64 b) {
  const VF64 s = hn::Add(a, b);
  return {s, hn::Sub(b, hn::Sub(s, a))};
}

// p + e == a * b exactly (barring underflow): with a fused multiply-add the error is one
// instruction; without (the SSE4 target), Dekker's splitting into 26-bit halves.
HWY_INLINE DD TwoProd(VF64 a, VF64 b) {
  const VF64 p = hn::Mul(a, b);
#if HWY_NATIVE_FMA
  return {p, hn::MulSub(a, b, p)};
#else
  const DF64 d;
  const VF64 split = hn::Set(d, 134217729.0);  // 2^27 + 1
  const VF64 ta = hn::Mul(a, split), tb = hn::Mul(b, split);
  const VF64 ah = hn::Sub(ta, hn::Sub(ta, a)), bh = hn::Sub(tb, hn::Sub(tb, b));
  const VF64 al = hn::Sub(a, ah), bl = hn::Sub(b, bh);
  const VF64 e = hn::Add(
      hn::Add(hn::Add(hn::Sub(hn::Mul(ah, bh), p), hn::Mul(ah, bl)), hn::Mul(al, bh)),
      hn::Mul(al, bl));
  return {p, e};
#endif
}

// (a.hi + a.lo) * (b.hi + b.lo), dropping a.lo * b.lo (below 2^-104 of the product).
HWY_INLINE DD MulDD(DD a, DD b) {
  const DD p = TwoProd(a.hi, b.hi);
  return {p.hi, hn::Add(p.lo, hn::MulAdd(a.hi, b.lo, hn::Mul(a.lo, b.hi)))};
}

// Rounds x to the nearest integer (ties to even) for |x| < 2^51 by adding and subtracting
// 1.5 * 2^52; `shifted` keeps the integer in its low mantissa bits (two's complement).
HWY_INLINE VF64 RoundViaShift(VF64 x, VF64& shifted) {
  const DF64 d;
  const VF64 magic = hn::Set(d, 0x1.8p52);
  shifted = hn::Add(x, magic);
  return hn::Sub(shifted, magic);
}

// ---------------------------------------------------------------------------------------
// sin and cos, float64.
//
// Reduction: n = round(x * 2/pi) and y = x - n * pi/2 with |y| <= pi/4 (plus rounding).
// pi/2 is written as P1 + P2 + P3 + P4, where P1, P2, P3 are pi/2's leading bits in three
// chunks of 33 significant bits (so n * Pk is exact for |n| < 2^20) and P4 is the rest
// rounded to double, 152 bits in all (the constants are pi/2's binary expansion, cut with
// a 400-bit evaluation of pi). x - n*P1 is exact (Sterbenz), n*P2 and n*P3 are exact and
// subtracted with TwoSum, so y = yh + yl carries x - n*pi/2 to about 2^-100 relative even
// next to a multiple of pi/2 (the nearest doubles below 2^20 come no closer than about
// 2^-60 relative to one).
constexpr double kTrigMax = 1.0e6;  // |n| <= 636620 < 2^20
constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
constexpr double kPio2_1 = 0x1.921fb54400000p+0;
constexpr double kPio2_2 = 0x1.0b4611a600000p-34;
constexpr double kPio2_3 = 0x1.3198a2e000000p-69;
constexpr double kPio2_4 = 0x1.b839a252049c1p-104;

// sin(yh + yl) and cos(yh + yl) for |yh| <= pi/4 + 2^-40, |yl| <= ulp(yh).
//
// sin y = y - y^3/6 + y^5/5! - ...: with z = yh^2, sin(yh) = yh + yh^3 * P(z) where
// P(z) = -1/3! + z/5! - z^2/7! + ... - z^8/19!; the first omitted term, y^21/21!, is below
// 2^-72 of sin(y) on the interval. The correction term v = yh^3 * P(z) (up to 0.081 |yh|)
// is carried in double-double (z and yh*z exact, -1/6 as a pair), so that its rounding
// stays below 2^-60 of the result; yl enters through sin(yh + yl) ~ sin(yh) + yl cos(yh).
//
// cos y = 1 - y^2/2 + y^4/4! - ...: cos(yh) = 1 - z/2 + z^2 * Q(z) with Q(z) = 1/4! -
// z/6! + ... + z^8/20! (first omitted term y^22/22!, below 2^-70). 1 - z/2 is formed as
// fdlibm's __kernel_cos does it, w = 1 - z/2 and its exact rounding error ((1 - w) - z/2),
// with the tail of z = yh^2 added back; u = z^2 * Q(z) (up to 0.016) is again a
// double-double product; yl enters through -yl sin(yh).
struct SinCos {
  VF64 sin, cos;
};

HWY_INLINE SinCos SinCosKernel(VF64 yh, VF64 yl) {
  const DF64 d;
  const DD z = TwoProd(yh, yh);

  // P(z) + 1/6 and Q(z) - 1/24, by Horner in z (plain double: they are below 0.006 and
  // 0.0015 of the leading coefficient's term).
  VF64 ps = hn::Set(d, -0x1.2f49b46814157p-57);          // -1/19!
  ps = hn::MulAdd(ps, z.hi, hn::Set(d, 0x1.952c77030ad4ap-49));   // 1/17!
  ps = hn::MulAdd(ps, z.hi, hn::Set(d, -0x1.ae7f3e733b81fp-41));  // -1/15!
  ps = hn::MulAdd(ps, z.hi, hn::Set(d, 0x1.6124613a86d09p-33));   // 1/13!
  ps = hn::MulAdd(ps, z.hi, hn::Set(d, -0x1.ae64567f544e4p-26));  // -1/11!
  ps = hn::MulAdd(ps, z.hi, hn::Set(d, 0x1.71de3a556c734p-19));   // 1/9!
  ps = hn::MulAdd(ps, z.hi, hn::Set(d, -0x1.a01a01a01a01ap-13));  // -1/7!
  ps = hn::MulAdd(ps, z.hi, hn::Set(d, 0x1.1111111111111p-7));    // 1/5!
  ps = hn::Mul(ps, z.hi);
  VF64 qc = hn::Set(d, 0x1.e542ba4020225p-62);                    // 1/20!
  qc = hn::MulAdd(qc, z.hi, hn::Set(d, -0x1.6827863b97d97p-53));  // -1/18!
  qc = hn::MulAdd(qc, z.hi, hn::Set(d, 0x1.ae7f3e733b81fp-45));   // 1/16!
  qc = hn::MulAdd(qc, z.hi, hn::Set(d, -0x1.93974a8c07c9dp-37));  // -1/14!
  qc = hn::MulAdd(qc, z.hi, hn::Set(d, 0x1.1eed8eff8d898p-29));   // 1/12!
  qc = hn::MulAdd(qc, z.hi, hn::Set(d, -0x1.27e4fb7789f5cp-22));  // -1/10!
  qc = hn::MulAdd(qc, z.hi, hn::Set(d, 0x1.a01a01a01a01ap-16));   // 1/8!
  qc = hn::MulAdd(qc, z.hi, hn::Set(d, -0x1.6c16c16c16c17p-10));  // -1/6!
  qc = hn::Mul(qc, z.hi);

  // P(z) and Q(z) as pairs: -1/6 and 1/24 are (head, tail) pairs, from the same
  // 400-bit evaluation.
  DD p = FastTwoSum(hn::Set(d, -0x1.5555555555555p-3), ps);
  p.lo = hn::Add(p.lo, hn::Set(d, -0x1.5555555555555p-57));
  DD q = FastTwoSum(hn::Set(d, 0x1.5555555555555p-5), qc);
  q.lo = hn::Add(q.lo, hn::Set(d, 0x1.5555555555555p-59));

  // sin: yh + v, v = (yh * z) * P.
  const DD yz = [&] {
    DD t = TwoProd(yh, z.hi);
    t.lo = hn::MulAdd(yh, z.lo, t.lo);
    return t;
  }();
  const DD v = MulDD(yz, p);
  const DD s = FastTwoSum(yh, v.hi);
  // cos(yh) ~ 1 - z/2 + z^2/24 is ample for the yl term (|yl| <= 2^-53).
  const VF64 cos_approx =
      hn::MulAdd(z.hi, hn::MulAdd(z.hi, hn::Set(d, 1.0 / 24), hn::Set(d, -0.5)), hn::Set(d, 1.0));
  const VF64 sin_tail = hn::Add(s.lo, hn::MulAdd(yl, cos_approx, v.lo));
  const VF64 sin_result = hn::Add(s.hi, sin_tail);

  // cos: w + (w's rounding error) - (tail of z)/2 + u - yl sin(yh).
  const VF64 half = hn::Set(d, 0.5);
  const VF64 hz = hn::Mul(z.hi, half);  // exact
  const VF64 one = hn::Set(d, 1.0);
  const VF64 w = hn::Sub(one, hz);
  const VF64 w_err = hn::Sub(hn::Sub(one, w), hz);  // exact, as in fdlibm's __kernel_cos
  DD zz = TwoProd(z.hi, z.hi);
  zz.lo = hn::MulAdd(hn::Add(z.hi, z.hi), z.lo, zz.lo);
  const DD u = MulDD(zz, q);
  const DD c = FastTwoSum(w, u.hi);
  // sin(yh) ~ yh - yh^3/6 for the yl term.
  const VF64 sin_approx = hn::MulAdd(yz.hi, hn::Set(d, -1.0 / 6), yh);
  VF64 cos_tail = hn::Sub(hn::Add(c.lo, w_err), hn::Mul(z.lo, half));
  cos_tail = hn::Add(cos_tail, hn::NegMulAdd(yl, sin_approx, u.lo));
  const VF64 cos_result = hn::Add(c.hi, cos_tail);
  return {sin_result, cos_result};
}

// x - n*pi/2 as (yh, yl), n = round(x * 2/pi), and n's two low bits (the quadrant) as the
// low bits of `quadrant`.
HWY_INLINE DD ReducePio2(VF64 x, hn::Vec<hn::RebindToUnsigned<DF64>>& quadrant) {
  const DF64 d;
  const hn::RebindToUnsigned<DF64> du;
  VF64 shifted;
  const VF64 n = RoundViaShift(hn::Mul(x, hn::Set(d, kTwoOverPi)), shifted);
  quadrant = hn::BitCast(du, shifted);
  const VF64 a = hn::NegMulAdd(n, hn::Set(d, kPio2_1), x);     // exact
  DD r = TwoSum(a, hn::Neg(hn::Mul(n, hn::Set(d, kPio2_2))));  // n*P2 exact
  const DD r2 = TwoSum(r.hi, hn::Neg(hn::Mul(n, hn::Set(d, kPio2_3))));  // n*P3 exact
  const VF64 tail = hn::NegMulAdd(n, hn::Set(d, kPio2_4), hn::Add(r.lo, r2.lo));
  return FastTwoSum(r2.hi, tail);
}

// sin x: quadrant 0..3 gives sin y, cos y, -sin y, -cos y.
HWY_INLINE VF64 SinF64(VF64 x) {
  const DF64 d;
  const hn::RebindToUnsigned<DF64> du;
  hn::Vec<decltype(du)> quadrant;
  const DD y = ReducePio2(x, quadrant);
  const SinCos sc = SinCosKernel(y.hi, y.lo);
  const auto odd = hn::RebindMask(d, hn::TestBit(quadrant, hn::Set(du, 1)));
  const VF64 r = hn::IfThenElse(odd, sc.cos, sc.sin);
  const auto sign = hn::ShiftLeft<62>(hn::And(quadrant, hn::Set(du, 2)));
  // sin(-0.0) is -0.0: yh + v above would give +0.0.
  return hn::IfThenElse(hn::Eq(x, hn::Zero(d)), x, hn::Xor(r, hn::BitCast(d, sign)));
}

// cos x: quadrant 0..3 gives cos y, -sin y, -cos y, sin y.
HWY_INLINE VF64 CosF64(VF64 x) {
  const DF64 d;
  const hn::RebindToUnsigned<DF64> du;
  hn::Vec<decltype(du)> quadrant;
  const DD y = ReducePio2(x, quadrant);
  const SinCos sc = SinCosKernel(y.hi, y.lo);
  const auto odd = hn::RebindMask(d, hn::TestBit(quadrant, hn::Set(du, 1)));
  const VF64 r = hn::IfThenElse(odd, sc.sin, sc.cos);
  const auto sign =
      hn::ShiftLeft<62>(hn::And(hn::Add(quadrant, hn::Set(du, 1)), hn::Set(du, 2)));
  return hn::Xor(r, hn::BitCast(d, sign));
}

// ---------------------------------------------------------------------------------------
// exp, float64: x = k ln2 + r, |r| <= ln2/2 (plus rounding), exp x = 2^k exp(r).
//
// ln2 = L1 + L2 with L1 its leading 42 bits (k * L1 exact for |k| < 2^11) and L2 the rest
// rounded to double; x - k*L1 is exact (Sterbenz) and r = rh + rl with rl = -k*L2.
// exp(r) = 1 + r + r^2/2 + r^3 E(r), E(r) = 1/3! + r/4! + ... + r^13/16!: the first
// omitted term r^17/17! is below 2^-74 on the interval. 1 + r + r^2/2 + r^3 E(r) is summed
// in double-double (r^2 exact, 1/6 as a pair, r^3 E(r) up to 0.0075 as a product of
// pairs), so its rounding error stays below 2^-62 before the final rounding; r's tail
// enters through exp(rh + rl) ~ exp(rh) (1 + rl).
constexpr double kExpMax = 700.0;  // results stay normal and finite
constexpr double kLog2e = 0x1.71547652b82fep+0;
constexpr double kLn2_1 = 0x1.62e42fefa3800p-1;
constexpr double kLn2_2 = 0x1.ef35793c76730p-45;

HWY_INLINE VF64 ExpF64(VF64 x) {
  const DF64 d;
  const hn::RebindToUnsigned<DF64> du;
  VF64 shifted;
  const VF64 k = RoundViaShift(hn::Mul(x, hn::Set(d, kLog2e)), shifted);
  const VF64 rh = hn::NegMulAdd(k, hn::Set(d, kLn2_1), x);  // exact
  const VF64 rl = hn::Neg(hn::Mul(k, hn::Set(d, kLn2_2)));
  const DD r = TwoSum(rh, rl);

  VF64 e = hn::Set(d, 0x1.ae7f3e733b81fp-45);                  // 1/16!
  e = hn::MulAdd(e, r.hi, hn::Set(d, 0x1.ae7f3e733b81fp-41));  // 1/15!
  e = hn::MulAdd(e, r.hi, hn::Set(d, 0x1.93974a8c07c9dp-37));  // 1/14!
  e = hn::MulAdd(e, r.hi, hn::Set(d, 0x1.6124613a86d09p-33));  // 1/13!
  e = hn::MulAdd(e, r.hi, hn::Set(d, 0x1.1eed8eff8d898p-29));  // 1/12!
  e = hn::MulAdd(e, r.hi, hn::Set(d, 0x1.ae64567f544e4p-26));  // 1/11!
  e = hn::MulAdd(e, r.hi, hn::Set(d, 0x1.27e4fb7789f5cp-22));  // 1/10!
  e = hn::MulAdd(e, r.hi, hn::Set(d, 0x1.71de3a556c734p-19));  // 1/9!
  e = hn::MulAdd(e, r.hi, hn::Set(d, 0x1.a01a01a01a01ap-16));  // 1/8!
  e = hn::MulAdd(e, r.hi, hn::Set(d, 0x1.a01a01a01a01ap-13));  // 1/7!
  e = hn::MulAdd(e, r.hi, hn::Set(d, 0x1.6c16c16c16c17p-10));  // 1/6!
  e = hn::MulAdd(e, r.hi, hn::Set(d, 0x1.1111111111111p-7));   // 1/5!
  e = hn::MulAdd(e, r.hi, hn::Set(d, 0x1.5555555555555p-5));   // 1/4!
  e = hn::Mul(e, r.hi);
  DD ep = FastTwoSum(hn::Set(d, 0x1.5555555555555p-3), e);  // + 1/3! as a pair
  ep.lo = hn::Add(ep.lo, hn::Set(d, 0x1.5555555555555p-57));

  const DD r2 = TwoProd(r.hi, r.hi);  // r^2, exact
  DD r3 = TwoProd(r2.hi, r.hi);
  r3.lo = hn::MulAdd(r2.lo, r.hi, r3.lo);
  const DD t = MulDD(r3, ep);

  const VF64 half = hn::Set(d, 0.5);
  const DD s1 = FastTwoSum(hn::Set(d, 1.0), r.hi);
  const DD s2 = FastTwoSum(s1.hi, hn::Mul(r2.hi, half));
  const DD s3 = FastTwoSum(s2.hi, t.hi);
  // Tails: the three sums', r^2's and the product's, and r's.
  VF64 tail = hn::Add(hn::Add(s1.lo, s2.lo), hn::Add(s3.lo, t.lo));
  tail = hn::MulAdd(r2.lo, half, tail);
  tail = hn::MulAdd(r.lo, s3.hi, tail);  // s3.hi ~ exp(rh)
  const VF64 m = hn::Add(s3.hi, tail);

  // 2^k from k's bits: |k| <= 1010, so k + 1023 is a normal exponent and the product exact.
  const auto kbits = hn::Sub(hn::BitCast(du, shifted), hn::BitCast(du, hn::Set(d, 0x1.8p52)));
  const auto scale = hn::ShiftLeft<52>(hn::Add(kbits, hn::Set(du, 1023)));
  return hn::Mul(m, hn::BitCast(d, scale));
}

// ---------------------------------------------------------------------------------------
// log, float64, for positive normal x: x = 2^e m with m in [sqrt(2)/2, sqrt(2)), f = m - 1
// (exact), log x = e ln2 + log1p(f).
//
// log1p(f) = 2 atanh(s) with s = f / (2 + f), |s| <= 0.1716, written as fdlibm's __ieee754_log
// writes it: log1p(f) = f - f^2/2 + s (f^2/2 + R(s)), R(s) = 2s^2/3 + 2s^4/5 + ... +
// 2s^26/27 (first omitted term 2s^29/29, below 2^-70 of the result). f^2/2 and s are
// double-double (s by one division and an exact residual), the product s (f^2/2 + R) (up
// to 0.019) and R itself (s^2 and the leading 2/3 as pairs) too, and the sum
// e*L1 + f - f^2/2 + s (...) is taken with TwoSum, so the error before the final rounding
// stays near 2^-62 of the result.
HWY_INLINE VF64 LogF64(VF64 x) {
  const DF64 d;
  const hn::RebindToUnsigned<DF64> du;
  // Exponent such that m = x / 2^e lies in [sqrt(2)/2, sqrt(2)): adding (1 - sqrt(2)/2)'s
  // offset in the bit pattern carries into the exponent field exactly at m = sqrt(2)/2.
  const auto bits = hn::BitCast(du, x);
  const auto offset = hn::Set(du, 0x3ff0000000000000ull - 0x3fe6a09e667f3bcdull);
  const auto biased = hn::ShiftRight<52>(hn::Add(bits, offset));  // e + 1023
  const auto mbits = hn::Sub(bits, hn::ShiftLeft<52>(hn::Sub(biased, hn::Set(du, 1023))));
  const VF64 f = hn::Sub(hn::BitCast(d, mbits), hn::Set(d, 1.0));  // exact
  // e as a double: the biased exponent placed in the low mantissa bits of 2^52.
  const VF64 e = hn::Sub(hn::BitCast(d, hn::Or(biased, hn::Set(du, 0x4330000000000000ull))),
                         hn::Set(d, 0x1p52 + 1023));

  // s = f / (2 + f) as a pair: 2 + f as a pair, one division, then the exact residual
  // (sh need not be the correctly rounded quotient: sl corrects it).
  const DD den = FastTwoSum(hn::Set(d, 2.0), f);
  const VF64 inv = hn::Div(hn::Set(d, 1.0), den.hi);
  const VF64 sh = hn::Mul(f, inv);
  const DD q = TwoProd(sh, den.hi);  // f - q.hi is exact (Sterbenz)
  const VF64 resid = hn::NegMulAdd(sh, den.lo, hn::Sub(hn::Sub(f, q.hi), q.lo));
  const VF64 sl = hn::Mul(resid, inv);

  DD z = TwoProd(sh, sh);
  z.lo = hn::MulAdd(hn::Add(sh, sh), sl, z.lo);
  VF64 rp = hn::Set(d, 0x1.2f684bda12f68p-4);                  // 2/27
  rp = hn::MulAdd(rp, z.hi, hn::Set(d, 0x1.47ae147ae147bp-4));  // 2/25
  rp = hn::MulAdd(rp, z.hi, hn::Set(d, 0x1.642c8590b2164p-4));  // 2/23
  rp = hn::MulAdd(rp, z.hi, hn::Set(d, 0x1.8618618618618p-4));  // 2/21
  rp = hn::MulAdd(rp, z.hi, hn::Set(d, 0x1.af286bca1af28p-4));  // 2/19
  rp = hn::MulAdd(rp, z.hi, hn::Set(d, 0x1.e1e1e1e1e1e1ep-4));  // 2/17
  rp = hn::MulAdd(rp, z.hi, hn::Set(d, 0x1.1111111111111p-3));  // 2/15
  rp = hn::MulAdd(rp, z.hi, hn::Set(d, 0x1.3b13b13b13b14p-3));  // 2/13
  rp = hn::MulAdd(rp, z.hi, hn::Set(d, 0x1.745d1745d1746p-3));  // 2/11
  rp = hn::MulAdd(rp, z.hi, hn::Set(d, 0x1.c71c71c71c71cp-3));  // 2/9
  rp = hn::MulAdd(rp, z.hi, hn::Set(d, 0x1.2492492492492p-2));  // 2/7
  rp = hn::MulAdd(rp, z.hi, hn::Set(d, 0x1.999999999999ap-2));  // 2/5
  rp = hn::Mul(rp, z.hi);
  // R = s^2 (2/3 + rp) as a product of pairs: s^2 exact, 2/3 as (head, tail).
  DD lead = FastTwoSum(hn::Set(d, 0x1.5555555555555p-1), rp);
  lead.lo = hn::Add(lead.lo, hn::Set(d, 0x1.5555555555555p-55));
  const DD big_r = MulDD(z, lead);

  const VF64 half = hn::Set(d, 0.5);
  DD hf = TwoProd(f, f);  // f^2, then halved (exact)
  hf.hi = hn::Mul(hf.hi, half);
  hf.lo = hn::Mul(hf.lo, half);
  DD a = TwoSum(hf.hi, big_r.hi);
  a.lo = hn::Add(a.lo, hn::Add(hf.lo, big_r.lo));
  const DD t = MulDD({sh, sl}, a);

  const DD s1 = TwoSum(f, hn::Neg(hf.hi));
  const DD s2 = TwoSum(s1.hi, t.hi);
  const DD s3 = TwoSum(hn::Mul(e, hn::Set(d, kLn2_1)), s2.hi);  // e*L1 exact
  VF64 tail = hn::Add(hn::Sub(s1.lo, hf.lo), hn::Add(s2.lo, t.lo));
  tail = hn::MulAdd(e, hn::Set(d, kLn2_2), hn::Add(tail, s3.lo));
  return hn::Add(s3.hi, tail);
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
// bounds on NumPy's validation data, docs/accuracy.md): widening to the double kernels
// above would round correctly but runs at a quarter of the speed.
using DF32 = hn::ScalableTag<float>;

template <class T>
void SinLoop(const T* in, T* out, int64_t n) {
  if constexpr (sizeof(T) == 8) {
    map_in_range(DF64(), in, out, n, sin_cos_range<T>(),
                 [](DF64, VF64 x) { return SinF64(x); }, kernels::Sin{});
  } else {
    // sin(-0.0) is -0.0, which Highway's Sin does not keep.
    map_in_range(DF32(), in, out, n, sin_cos_range<T>(),
                 [](DF32 d, hn::Vec<DF32> x) {
                   return hn::IfThenElse(hn::Eq(x, hn::Zero(d)), x, hn::Sin(d, x));
                 },
                 kernels::Sin{});
  }
}

template <class T>
void CosLoop(const T* in, T* out, int64_t n) {
  if constexpr (sizeof(T) == 8) {
    map_in_range(DF64(), in, out, n, sin_cos_range<T>(),
                 [](DF64, VF64 x) { return CosF64(x); }, kernels::Cos{});
  } else {
    map_in_range(DF32(), in, out, n, sin_cos_range<T>(),
                 [](DF32 d, hn::Vec<DF32> x) { return hn::Cos(d, x); }, kernels::Cos{});
  }
}

// Away from overflow to inf and from results in the subnormal range.
template <class T>
void ExpLoop(const T* in, T* out, int64_t n) {
  if constexpr (sizeof(T) == 8) {
    map_in_range(DF64(), in, out, n, between(-kExpMax, kExpMax),
                 [](DF64, VF64 x) { return ExpF64(x); }, kernels::Exp{});
  } else {
    map_in_range(DF32(), in, out, n, between(-85.0f, 85.0f),
                 [](DF32 d, hn::Vec<DF32> x) { return hn::Exp(d, x); }, kernels::Exp{});
  }
}

// Positive normal numbers: zero, negatives, subnormals, inf and nan go to the scalar path.
template <class T>
void LogLoop(const T* in, T* out, int64_t n) {
  const auto range = between(std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
  if constexpr (sizeof(T) == 8) {
    map_in_range(DF64(), in, out, n, range, [](DF64, VF64 x) { return LogF64(x); },
                 kernels::Log{});
  } else {
    map_in_range(DF32(), in, out, n, range,
                 [](DF32 d, hn::Vec<DF32> x) { return hn::Log(d, x); }, kernels::Log{});
  }
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
