#pragma once
// The complex elementary functions of the functors: complex_math::sqrt(z), exp, log, the
// trigonometric and hyperbolic functions and their inverses, and pow.
//
// On the host they are the C library's C99 functions (glibc's csqrt, clog ...), which is
// what NumPy calls, so CPU results are NumPy's bit for bit. A GPU has no C library, and
// libcu++'s cuda::std::complex functions use the textbook formulas (log|z| as
// log(abs(z)), sqrt through the polar form, atanh as a quotient's log ...) that lose most
// digits on whole regions of the plane and get C99's special values wrong. Generated CUDA
// code (under NVRTC, and in the simulator, which stands in for it) therefore uses the
// `device` implementations below: C99 Annex G's special values, and the accurate
// algorithms of the literature (Kahan's csqrt and ctanh; a double-double |z|^2 - 1 for log
// near the unit circle; Hull, Fairgrieve and Tang's asin/acos, 1997). They are written
// here, not taken from a library, because no library ships such functions for device code
// (thrust::complex's do not compile under NVRTC). Every computation is in double; the
// complex64 functions round the double result once (pow forms b log a in float, as cpowf).

#include <cmath>
#include <limits>

#include "kernels/defs.h"
#include "kernels/element_types.h"

namespace tessera::kernels::complex_math {

namespace device {

struct cd {
  double re, im;
};

inline constexpr double kInf = std::numeric_limits<double>::infinity();
inline constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
inline constexpr double kLn2 = 0x1.62e42fefa39efp-1;
inline constexpr double kPi = 0x1.921fb54442d18p+1;
inline constexpr double kPi2 = 0x1.921fb54442d18p+0;
inline constexpr double kPi4 = 0x1.921fb54442d18p-1;
inline constexpr double k3Pi4 = 0x1.2d97c7f3321d2p+1;
// exp(kExpStep) is finite; exp(x) for larger x is carried as exp(kExpStep) * exp(x - step).
inline constexpr double kExpStep = 708.0;
// Beyond this |z| the 1 in 1 - z^2 and 1 +- z is below half an ulp of z^2 and z.
inline constexpr double kBig = 0x1p27;
// Below this |z| the cubic terms of asin, atan and their kin are below half an ulp.
inline constexpr double kSmall = 0x1p-27;

TS_HD cd times_minus_i(cd w) { return {w.im, -w.re}; }  // -i w

// a + b exactly, as hi + lo.
TS_HD void two_sum(double a, double b, double& hi, double& lo) {
  hi = a + b;
  const double v = hi - a;
  lo = (a - (hi - v)) + (b - v);
}

TS_HD void sincos_of(double y, double& s, double& c) {
  if (y == 0) {  // keeps the zero's sign, and sin(0) needs no call
    s = y;
    c = 1;
  } else {
    s = std::sin(y);
    c = std::cos(y);
  }
}

// k e^x (cos y + i sin y) given s = sin y, c = cos y, for x > kExpStep where e^x overflows
// but the product may not. k (1 or 1/2) scales the first factor, not s and c: halving a
// subnormal sine would round it away.
TS_HD cd big_exp_cis(double x, double s, double c, double k) {
  const double step = std::exp(kExpStep);
  x -= kExpStep;
  s *= step * k;
  c *= step * k;
  if (x > kExpStep) {
    x -= kExpStep;
    s *= step;
    c *= step;
  }
  if (x > kExpStep) {
    constexpr double kMax = std::numeric_limits<double>::max();
    return {c * kMax, s * kMax};
  }
  const double e = std::exp(x);
  return {e * c, e * s};
}

TS_HD cd sqrt(double x, double y) {
  if (std::isinf(y)) return {kInf, y};
  if (std::isinf(x)) {
    if (x > 0) return {x, std::isnan(y) ? y : std::copysign(0.0, y)};
    return {std::isnan(y) ? y : 0.0, std::copysign(kInf, y)};
  }
  if (std::isnan(x) || std::isnan(y)) return {kNan, kNan};
  if (y == 0) {
    if (x < 0) return {0.0, std::copysign(std::sqrt(-x), y)};
    return {std::fabs(std::sqrt(x)), y};
  }
  // Kahan: t = sqrt((|x| + |z|) / 2) has no cancellation; the other part is (y / t) / 2,
  // halved last as the C library does (that order decides where a tiny part rounds to 0).
  // Scaling by an even power of two keeps |z| finite and subnormal inputs exact.
  int scale = 0;
  const double ax = std::fabs(x), ay = std::fabs(y);
  if (ax > 0x1p1020 || ay > 0x1p1020) {
    x *= 0x1p-4;
    y *= 0x1p-4;
    scale = 2;
  } else if (ax < 0x1p-1000 && ay < 0x1p-1000) {
    x *= 0x1p108;
    y *= 0x1p108;
    scale = -54;
  }
  const double d = std::hypot(x, y);
  double re, im;
  if (x >= 0) {
    re = std::sqrt(0.5 * (d + x));
    im = 0.5 * (y / re);
  } else {
    im = std::copysign(std::sqrt(0.5 * (d - x)), y);
    re = std::fabs(0.5 * (y / im));
  }
  return {std::ldexp(re, scale), std::ldexp(im, scale)};
}

TS_HD cd exp(double x, double y) {
  if (std::isnan(x)) return {kNan, y == 0 ? y : kNan};
  if (std::isinf(x)) {
    if (!std::isfinite(y)) return x > 0 ? cd{kInf, kNan} : cd{0.0, std::copysign(0.0, y)};
    const double v = x > 0 ? kInf : 0.0;
    if (y == 0) return {v, y};
    double s, c;
    sincos_of(y, s, c);
    return {std::copysign(v, c), std::copysign(v, s)};
  }
  if (!std::isfinite(y)) return {kNan, kNan};
  double s, c;
  sincos_of(y, s, c);
  if (x > kExpStep) return big_exp_cis(x, s, c, 1.0);
  const double e = std::exp(x);
  return {e * c, e * s};
}

// log|z| for finite z, not both parts zero.
TS_HD double log_abs(double x, double y) {
  double ax = std::fabs(x), ay = std::fabs(y);
  if (ax < ay) {
    const double t = ax;
    ax = ay;
    ay = t;
  }
  if (ax > 0x1p500) return std::log(std::hypot(ax * 0x1p-2, ay * 0x1p-2)) + 2 * kLn2;
  if (ax < 0x1p-500) return std::log(std::hypot(ax * 0x1p54, ay * 0x1p54)) - 54 * kLn2;
  // |z|^2 as a double-double: the squares' rounding errors come from fma.
  const double p1 = ax * ax, e1 = std::fma(ax, ax, -p1);
  const double p2 = ay * ay, e2 = std::fma(ay, ay, -p2);
  const double h2 = p1 + p2;
  if (h2 >= 0.25 && h2 <= 4) {
    // log|z| = log1p(|z|^2 - 1) / 2, with |z|^2 - 1 summed exactly before one rounding:
    // near the unit circle the difference cancels and the last bits of the squares decide.
    double s, t, u, v;
    two_sum(p1, -1.0, s, t);
    two_sum(s, p2, u, v);
    return 0.5 * std::log1p(u + (v + t + e1 + e2));
  }
  double hi, lo;
  two_sum(p1, p2, hi, lo);
  lo += e1 + e2;
  return 0.5 * (std::log(hi) + lo / hi);
}

TS_HD cd log(double x, double y) {
  if (std::isnan(x) || std::isnan(y)) {
    return {(std::isinf(x) || std::isinf(y)) ? kInf : kNan, kNan};
  }
  if (std::isinf(x) || std::isinf(y)) return {kInf, std::atan2(y, x)};
  if (x == 0 && y == 0) return {-kInf, std::atan2(y, x)};
  return {log_abs(x, y), std::atan2(y, x)};
}

TS_HD cd sinh(double x, double y) {
  if (std::isfinite(x) && std::isfinite(y)) {
    if (y == 0) return {std::sinh(x), y};
    double s, c;
    sincos_of(y, s, c);
    if (std::fabs(x) > kExpStep) {
      // sinh x and cosh x are e^|x| / 2 (sign of x for sinh) to all digits here.
      const cd w = big_exp_cis(std::fabs(x), s, c, 0.5);
      return {std::copysign(1.0, x) * w.re, w.im};
    }
    return {std::sinh(x) * c, std::cosh(x) * s};
  }
  if (x == 0) return {x, kNan};  // +-0 + i inf or nan
  if (std::isinf(x)) {
    if (y == 0) return {x, y};
    if (!std::isfinite(y)) return {kInf, kNan};
    double s, c;
    sincos_of(y, s, c);
    return {std::copysign(kInf, x * c), std::copysign(kInf, s)};
  }
  return {kNan, (std::isnan(x) && y == 0) ? y : kNan};
}

TS_HD cd cosh(double x, double y) {
  if (std::isfinite(x) && std::isfinite(y)) {
    if (y == 0) return {std::cosh(x), std::copysign(1.0, x) * y};
    double s, c;
    sincos_of(y, s, c);
    if (std::fabs(x) > kExpStep) {
      const cd w = big_exp_cis(std::fabs(x), s, c, 0.5);
      return {w.re, std::copysign(1.0, x) * w.im};
    }
    return {std::cosh(x) * c, std::sinh(x) * s};
  }
  if (x == 0) return {kNan, 0.0};  // +-0 + i inf or nan: nan +- i0 (C99 leaves the sign open)
  if (std::isinf(x)) {
    if (y == 0) return {kInf, std::copysign(1.0, x) * y};
    if (!std::isfinite(y)) return {kInf, kNan};
    double s, c;
    sincos_of(y, s, c);
    return {std::copysign(kInf, c), std::copysign(kInf, x * s)};
  }
  return {kNan, (std::isnan(x) && y == 0) ? y : kNan};
}

TS_HD cd tanh(double x, double y) {
  if (std::isinf(x)) {
    const double imag = (std::isfinite(y) && std::fabs(y) > 1)
                            ? std::copysign(0.0, std::sin(y) * std::cos(y))
                            : std::copysign(0.0, y);
    return {std::copysign(1.0, x), imag};
  }
  if (!std::isfinite(x) || !std::isfinite(y)) {
    if (std::isnan(x) && y == 0) return {x, y};
    if (x == 0) return {x, kNan};
    return {kNan, kNan};
  }
  double s, c;
  sincos_of(y, s, c);
  if (std::fabs(x) > 22) {
    // tanh x rounds to +-1; the imaginary part is sin 2y / (cosh 2x + cos 2y) ~ 4 s c e^-2|x|.
    return {std::copysign(1.0, x), 4 * s * c * std::exp(-2 * std::fabs(x))};
  }
  // Kahan: tanh z = (sinh x cosh x + i sin y cos y) / (sinh^2 x + cos^2 y), a denominator
  // without cancellation.
  const double sh = std::sinh(x), ch = std::cosh(x);
  const double den = sh * sh + c * c;
  return {sh * ch / den, s * c / den};
}

// asin and acos of x + iy for finite x, y >= 0 (Hull, Fairgrieve and Tang): the real parts
// of asin and acos, and the imaginary part of acos's negation (= asin's imaginary part).
struct AsinParts {
  double asin_re, acos_re, im;
};

TS_HD AsinParts asin_first_quadrant(double x, double y) {
  if (x > kBig || y > kBig) {
    // asin z = -i log(2iz) + O(1/z^2).
    const double arg = std::atan2(x, y);
    return {arg, std::atan2(y, x), log_abs(x, y) + kLn2};
  }
  if (x < kSmall && y < kSmall) return {x, kPi2 - x, y};
  if (y < 0x1p-400) {
    // y^2 is negligible (or underflows) beside |1 - x|, which is at least an ulp of 1
    // unless x = 1: the limits of the formulas below as y -> 0.
    if (x < 1) return {std::asin(x), std::acos(x), y / std::sqrt((1 - x) * (1 + x))};
    if (x == 1) {
      const double root = std::sqrt(y);
      return {kPi2 - root, root, root};
    }
    const double root = std::sqrt((x - 1) * (x + 1));
    return {kPi2, y / root, std::log1p((x - 1) + root)};
  }
  const double r = std::hypot(x + 1, y), s = std::hypot(x - 1, y);
  const double a = 0.5 * (r + s);
  const double b = x / a;
  const double y2 = y * y;
  AsinParts out;
  if (b <= 0.6417) {
    out.asin_re = std::asin(b);
    out.acos_re = std::acos(b);
  } else {
    double t;  // sqrt((a + x) / 2 * (y^2 / (r + x + 1) + s -+ (x - 1))), the tangent's inverse
    if (x <= 1) {
      t = std::sqrt(0.5 * (a + x) * (y2 / (r + x + 1) + (s + (1 - x))));
      out.asin_re = std::atan(x / t);
      out.acos_re = std::atan(t / x);
    } else {
      const double apx = a + x;
      t = y * std::sqrt(0.5 * (apx / (r + x + 1) + apx / (s + (x - 1))));
      out.asin_re = std::atan(x / t);
      out.acos_re = std::atan(t / x);
    }
  }
  if (a <= 1.5) {
    double am1;  // a - 1 without cancellation
    if (x < 1) {
      am1 = 0.5 * (y2 / (r + (x + 1)) + y2 / (s + (1 - x)));
    } else {
      am1 = 0.5 * (y2 / (r + (x + 1)) + (s + (x - 1)));
    }
    out.im = std::log1p(am1 + std::sqrt(am1 * (a + 1)));
  } else {
    out.im = std::log(a + std::sqrt((a - 1) * (a + 1)));
  }
  return out;
}

TS_HD cd asinh(double x, double y) {
  if (!std::isfinite(x) || !std::isfinite(y)) {
    if (std::isinf(x)) {
      if (std::isnan(y)) return {x, kNan};
      return {x, std::copysign(std::isinf(y) ? kPi4 : 0.0, y)};
    }
    if (std::isinf(y)) {
      if (std::isnan(x)) return {std::copysign(kInf, x), kNan};
      return {std::copysign(kInf, x), std::copysign(kPi2, y)};
    }
    // a nan part, the other finite
    if (std::isnan(x) && y == 0) return {kNan, y};
    return {kNan, kNan};
  }
  // asinh z = -i asin(iz); asin of the first quadrant, signs restored by symmetry.
  const AsinParts p = asin_first_quadrant(std::fabs(y), std::fabs(x));
  return {std::copysign(p.im, x), std::copysign(p.asin_re, y)};
}

TS_HD cd asin(double x, double y) {
  const cd w = asinh(-y, x);  // asin z = -i asinh(iz)
  return times_minus_i(w);
}

TS_HD cd acos(double x, double y) {
  if (!std::isfinite(x) || !std::isfinite(y)) {
    if (std::isinf(x)) {
      if (std::isnan(y)) return {kNan, -std::copysign(kInf, y)};
      if (std::isinf(y)) return {x < 0 ? k3Pi4 : kPi4, -y};
      return {x < 0 ? kPi : 0.0, std::copysign(kInf, -y)};
    }
    if (std::isinf(y)) return {std::isnan(x) ? kNan : kPi2, -y};
    if (x == 0) return {kPi2, kNan};  // +-0 + i nan
    return {kNan, kNan};
  }
  const AsinParts p = asin_first_quadrant(std::fabs(x), std::fabs(y));
  const double re = std::signbit(x) ? kPi - p.acos_re : p.acos_re;
  return {re, std::signbit(y) ? p.im : -p.im};
}

TS_HD cd acosh(double x, double y) {
  // acosh z = +-i acos z, the sign making the real part non-negative.
  const cd w = acos(x, y);
  return {std::fabs(w.im), std::isnan(y) ? w.re : std::copysign(w.re, y)};
}

TS_HD cd atanh(double x, double y) {
  if (!std::isfinite(x) || !std::isfinite(y)) {
    if (std::isinf(y)) return {std::copysign(0.0, x), std::copysign(kPi2, y)};
    if (std::isinf(x)) return {std::copysign(0.0, x), std::isnan(y) ? kNan : std::copysign(kPi2, y)};
    if (x == 0) return {x, kNan};  // +-0 + i nan
    return {kNan, kNan};
  }
  const double ax = std::fabs(x), ay = std::fabs(y);
  double re, im;
  if (ax > kBig || ay > kBig) {
    // atanh z = 1/z + i pi/2 sgn(y) + O(1/z^3): Re(1/z) = x / |z|^2, without overflow.
    constexpr double k = 0x1p-8;  // keeps |z| finite; Re(1/z) may be subnormal, not zero
    const double h = std::hypot(ax * k, ay * k);
    re = ((ax * k) / h) / h * k;
    im = kPi2;
  } else if (ax < kSmall && ay < kSmall) {
    re = ax;
    im = ay;
  } else if (ax == 1 && ay == 0) {
    re = kInf;
    im = 0;
  } else {
    // Re = log1p(4x / ((1 - x)^2 + y^2)) / 4, Im = atan2(2y, (1 - x)(1 + x) - y^2) / 2.
    const double omx = 1 - ax;
    const double near_one = std::hypot(omx, ay);
    // Close to +-1 the quotient overflows (or its denominator underflows): there
    // Re = log(|1 + z| / |1 - z|) / 2, a difference without cancellation.
    re = near_one < 0x1p-25 ? 0.5 * (std::log(std::hypot(1 + ax, ay)) - std::log(near_one))
                            : 0.25 * std::log1p(4 * ax / (omx * omx + ay * ay));
    im = 0.5 * std::atan2(2 * ay, omx * (1 + ax) - ay * ay);
  }
  return {std::copysign(re, x), std::copysign(im, y)};
}

TS_HD cd atan(double x, double y) { return times_minus_i(atanh(-y, x)); }  // -i atanh(iz)
TS_HD cd sin(double x, double y) {  // -i sinh(iz); glibc's +i inf for an infinite y
  if (std::isinf(y) && !std::isfinite(x)) return {kNan, kInf};
  return times_minus_i(sinh(-y, x));
}
TS_HD cd cos(double x, double y) { return cosh(-y, x); }                   // cosh(iz)
TS_HD cd tan(double x, double y) { return times_minus_i(tanh(-y, x)); }    // -i tanh(iz)

// (a + ib)(c + id) with C99 Annex G's recovery of infinities: a product that comes out
// nan + i nan although an operand (or a partial product) is infinite is recomputed with the
// infinities as +-1 and the nans as +-0, then scaled by infinity.
// T is the precision of the arithmetic (float for complex64, as C's __mulsc3).
template <class T>
TS_HD cd multiply(T a, T b, T c, T d) {
  const T ac = a * c, bd = b * d, ad = a * d, bc = b * c;
  T x = ac - bd, y = ad + bc;
  if (!std::isnan(x) || !std::isnan(y)) return {x, y};
  const auto unit_if_inf = [](T v) { return std::copysign(std::isinf(v) ? T(1) : T(0), v); };
  const auto zero_if_nan = [](T v) { return std::isnan(v) ? std::copysign(T(0), v) : v; };
  bool recalc = false;
  if (std::isinf(a) || std::isinf(b)) {
    a = unit_if_inf(a);
    b = unit_if_inf(b);
    c = zero_if_nan(c);
    d = zero_if_nan(d);
    recalc = true;
  }
  if (std::isinf(c) || std::isinf(d)) {
    c = unit_if_inf(c);
    d = unit_if_inf(d);
    a = zero_if_nan(a);
    b = zero_if_nan(b);
    recalc = true;
  }
  if (!recalc && (std::isinf(ac) || std::isinf(bd) || std::isinf(ad) || std::isinf(bc))) {
    a = zero_if_nan(a);
    b = zero_if_nan(b);
    c = zero_if_nan(c);
    d = zero_if_nan(d);
    recalc = true;
  }
  if (recalc) {
    constexpr T inf = std::numeric_limits<T>::infinity();
    x = inf * (a * c - b * d);
    y = inf * (a * d + b * c);
  }
  return {x, y};
}

// a^b as C's cpow computes it: exp(b log a), the product as C multiplies complex numbers.
// complex64 (T = float) forms b log a in float, as cpowf does: where it overflows there,
// cpowf's result is nan or infinite, and so is this one.
template <class T>
TS_HD cd pow(T ar, T ai, T br, T bi) {
  const cd l = log(ar, ai);
  const cd w = multiply<T>(br, bi, static_cast<T>(l.re), static_cast<T>(l.im));
  return exp(w.re, w.im);
}

}  // namespace device

// The functors' entry points: the C library on the host, `device` in generated CUDA code.
#if defined(__CUDACC_RTC__) || defined(TESSERA_CUDA_SIM)
#define TS_COMPLEX_UNARY(fn)                                                         \
  template <class C>                                                                 \
  TS_HD C fn(C z) {                                                                  \
    using R = typename C::value_type;                                                \
    const device::cd w = device::fn(static_cast<double>(z.real()), static_cast<double>(z.imag())); \
    return C(static_cast<R>(w.re), static_cast<R>(w.im));                            \
  }
template <class C>
TS_HD C pow(C a, C b) {
  using R = typename C::value_type;
  const device::cd w = device::pow<R>(a.real(), a.imag(), b.real(), b.imag());
  return C(static_cast<R>(w.re), static_cast<R>(w.im));
}
#else
#define TS_COMPLEX_UNARY(fn) \
  template <class C>         \
  inline C fn(C z) {         \
    return std::fn(z);       \
  }
template <class C>
inline C pow(C a, C b) {
  return std::pow(a, b);
}
#endif

TS_COMPLEX_UNARY(sqrt)
TS_COMPLEX_UNARY(exp)
TS_COMPLEX_UNARY(log)
TS_COMPLEX_UNARY(sin)
TS_COMPLEX_UNARY(cos)
TS_COMPLEX_UNARY(tan)
TS_COMPLEX_UNARY(sinh)
TS_COMPLEX_UNARY(cosh)
TS_COMPLEX_UNARY(tanh)
TS_COMPLEX_UNARY(asin)
TS_COMPLEX_UNARY(acos)
TS_COMPLEX_UNARY(atan)
TS_COMPLEX_UNARY(asinh)
TS_COMPLEX_UNARY(acosh)
TS_COMPLEX_UNARY(atanh)
#undef TS_COMPLEX_UNARY

}  // namespace tessera::kernels::complex_math

namespace tessera::kernels::lite {

// std::complex's free functions for lite::complex, found by argument-dependent lookup as
// CuPy's kernels call them (abs(z), exp(z) ...): the elementary functions are the
// functors' (complex_math above), computed in double and rounded once.
template <class T>
TS_HD T real(const complex<T>& z) {
  return z.real();
}
template <class T>
TS_HD T imag(const complex<T>& z) {
  return z.imag();
}
// |z| as thrust's (CuPy's) abs computes it, C's hypot; NumPy's absolute ufunc is the
// functors' Absolute, which snippets do not call.
template <class T>
TS_HD T abs(const complex<T>& z) {
  return std::hypot(z.real(), z.imag());
}
template <class T>
TS_HD T arg(const complex<T>& z) {
  return std::atan2(z.imag(), z.real());
}
template <class T>
TS_HD T norm(const complex<T>& z) {
  return z.real() * z.real() + z.imag() * z.imag();
}
template <class T>
TS_HD complex<T> conj(const complex<T>& z) {
  return complex<T>(z.real(), -z.imag());
}
template <class T>
TS_HD complex<T> proj(const complex<T>& z) {
  if (std::isinf(z.real()) || std::isinf(z.imag())) {
    return complex<T>(std::numeric_limits<T>::infinity(), std::copysign(T(0), z.imag()));
  }
  return z;
}
template <class T>
TS_HD complex<T> polar(T r, T theta = T()) {
  return complex<T>(r * std::cos(theta), r * std::sin(theta));
}
template <class T>
TS_HD complex<T> pow(const complex<T>& a, const complex<T>& b) {
  return complex_math::pow(a, b);
}
template <class T>
TS_HD complex<T> pow(const complex<T>& a, const T& b) {
  return complex_math::pow(a, complex<T>(b));
}
template <class T>
TS_HD complex<T> pow(const T& a, const complex<T>& b) {
  return complex_math::pow(complex<T>(a), b);
}
template <class T>
TS_HD complex<T> log10(const complex<T>& z) {
  const complex<T> l = complex_math::log(z);
  constexpr T kLog10e = T(0.434294481903251827651128918916605082);
  return complex<T>(l.real() * kLog10e, l.imag() * kLog10e);
}

#define TS_LITE_COMPLEX_FUNCTION(fn)         \
  template <class T>                         \
  TS_HD complex<T> fn(const complex<T>& z) { \
    return complex_math::fn(z);              \
  }
TS_LITE_COMPLEX_FUNCTION(sqrt)
TS_LITE_COMPLEX_FUNCTION(exp)
TS_LITE_COMPLEX_FUNCTION(log)
TS_LITE_COMPLEX_FUNCTION(sin)
TS_LITE_COMPLEX_FUNCTION(cos)
TS_LITE_COMPLEX_FUNCTION(tan)
TS_LITE_COMPLEX_FUNCTION(sinh)
TS_LITE_COMPLEX_FUNCTION(cosh)
TS_LITE_COMPLEX_FUNCTION(tanh)
TS_LITE_COMPLEX_FUNCTION(asin)
TS_LITE_COMPLEX_FUNCTION(acos)
TS_LITE_COMPLEX_FUNCTION(atan)
TS_LITE_COMPLEX_FUNCTION(asinh)
TS_LITE_COMPLEX_FUNCTION(acosh)
TS_LITE_COMPLEX_FUNCTION(atanh)
#undef TS_LITE_COMPLEX_FUNCTION

}  // namespace tessera::kernels::lite
