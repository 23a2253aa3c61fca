#pragma once
// Trigonometric and hyperbolic functions and their inverses, as NumPy computes them:
// half through float (rounded back once), float/double and complex through the C
// library (glibc's libm and C99 complex functions, as NumPy calls them).

#include <cmath>
#include <complex>
#include <type_traits>

#include "kernels/defs.h"
#include "kernels/ops_exp_log.h"  // detail:: half conversions and constants
#include "kernels/element_types.h"

namespace tessera::kernels {

namespace detail {

// NumPy's float32 sin and cos (its own SIMD polynomials on x86 with AVX2 or AVX-512, the
// CPUs tessera targets) evaluate both polynomials for every lane, and x * x * (-1/6)
// underflows for 0 < |x| < 2.6557422e-19: NumPy raises the underflow flag there for both
// functions, where the C library raises it only for subnormal inputs of sin.
inline constexpr float kFloatSinCosUnderflowBelow = 2.6557422e-19f;

template <class T>
TS_HD void raise_float_sin_cos_underflow(T x) {
  if constexpr (std::is_same_v<T, float>) {
    const float magnitude = std::fabs(x);
    if (magnitude != 0.0f && magnitude < kFloatSinCosUnderflowBelow) raise_underflow_flag();
  }
}

}  // namespace detail

// sin and cos raise NumPy's float32 underflow flag before the C library's call.
TS_LIBM_UNARY_CHECKED(Sin, sin, detail::raise_float_sin_cos_underflow)
TS_LIBM_UNARY_CHECKED(Cos, cos, detail::raise_float_sin_cos_underflow)

// TS_LIBM_UNARY (ops_exp_log.h): half forwards to float, every other type goes to the
// std:: overload (libm or <complex>).
TS_LIBM_UNARY(Tan, tan)
TS_LIBM_UNARY(Arcsin, asin)
TS_LIBM_UNARY(Arccos, acos)
TS_LIBM_UNARY(Arctan, atan)
TS_LIBM_UNARY(Sinh, sinh)
TS_LIBM_UNARY(Cosh, cosh)
TS_LIBM_UNARY(Arcsinh, asinh)
TS_LIBM_UNARY(Arccosh, acosh)
TS_LIBM_UNARY(Arctanh, atanh)


namespace detail {

// A double-double value hi + lo, for the few results that glibc rounds too coarsely.
struct ddouble {
  double hi, lo;
};

TS_HD ddouble two_sum(double a, double b) {  // exactly a + b
  const double s = a + b;
  const double v = s - a;
  return {s, (a - (s - v)) + (b - v)};
}

TS_HD ddouble two_prod(double a, double b) {  // exactly a * b
  const double p = a * b;
  return {p, std::fma(a, b, -p)};
}

// (tanh(y) - y) / y for |y| <= 1/16, from tanh's Taylor series (the coefficients of
// y^3 .. y^15 are 2^2n (2^2n - 1) B_2n / (2n)!); the first omitted term is below 2^-74 y.
TS_HD double tanh_series_rest(double y) {
  const double z = y * y;
  double p = -0x1.7da36452b75e3p-10;  // -929569/638512875
  p = p * z + 0x1.d6d3d0e157de0p-9;   // 21844/6081075
  p = p * z - 0x1.226e355e6c23dp-7;   // 1382/155925
  p = p * z + 0x1.664f4882c10fap-6;   // 62/2835
  p = p * z - 0x1.ba1ba1ba1ba1cp-5;   // 17/315
  p = p * z + 0x1.1111111111111p-3;   // 2/15
  p = p * z - 0x1.5555555555555p-2;   // 1/3
  return p * z;
}

// tanh(k/8) for k = 1..16 as (hi, lo), evaluated to 80 digits offline. A switch rather
// than an array because namespace-scope arrays are not usable in CUDA device code.
TS_HD ddouble tanh_eighth(int k) {
  // clang-format off
  switch (k) {
    case 1: return {0x1.fd5992bc4b835p-4, -0x1.fa84a9b880414p-63};
    case 2: return {0x1.f597ea69a1c86p-3, -0x1.d94e51c4f71acp-60};
    case 3: return {0x1.6ef53de8c8fb0p-2, -0x1.d5e3ebcaa0633p-59};
    case 4: return {0x1.d9353d7568af3p-2, 0x1.944a3b887196cp-56};
    case 5: return {0x1.1bf47eabb8f95p-1, 0x1.2221cd286d060p-55};
    case 6: return {0x1.45323e552f228p-1, 0x1.39d5832bf78fbp-56};
    case 7: return {0x1.686650b8c2015p-1, 0x1.9fa72eaddbf64p-57};
    case 8: return {0x1.85efab514f394p-1, 0x1.5618caf8a4f11p-55};
    case 9: return {0x1.9e5cb5ba44d69p-1, 0x1.7077d97de80bdp-56};
    case 10: return {0x1.b2523bb6b2deep-1, 0x1.3b6dd4e6b805ap-56};
    case 11: return {0x1.c278a52a4e478p-1, -0x1.33e1519ca472fp-55};
    case 12: return {0x1.cf6f9786df577p-1, 0x1.834edd51ae31ep-55};
    case 13: return {0x1.d9c6fafe61c78p-1, 0x1.478491cdd4ae2p-55};
    case 14: return {0x1.e1fbf97e33527p-1, -0x1.f8e008ea19093p-56};
    case 15: return {0x1.e8789ecec0ddap-1, 0x1.7e1eab8804de2p-55};
    case 16: return {0x1.ed9505e1bc3d4p-1, -0x1.661de681e0bedp-56};
    default: return {0x1.ed9505e1bc3d4p-1, -0x1.661de681e0bedp-56};
  }
  // clang-format on
}

// tanh(x) for 2^-27 <= x < 33/16, within 0.51 ulp. glibc's tanh is up to 2 ulp off on this
// range while NumPy's (SIMD) tanh stays within about 1.2 ulp, so libm's value can sit
// 3 ulp from NumPy's. Below 1/16 the series is used directly; above, with c = k/8 the
// nearest eighth and y = x - c (exact), tanh(x) = (T + t) / (1 + T t) for T = tanh(c) and
// t = tanh(y), carried in double-double so that only the final rounding matters.
TS_HD double tanh_mid(double x) {
  if (x < 0.0625) return x + x * tanh_series_rest(x);
  const int k = static_cast<int>(x * 8 + 0.5);
  const double y = x - k * 0.125;
  const double t_lo = y * tanh_series_rest(y);  // t = y + t_lo
  const ddouble tc = tanh_eighth(k);
  const double big_t = tc.hi;
  const double big_t_lo = tc.lo;
  ddouble num = two_sum(big_t, y);
  num = two_sum(num.hi, num.lo + (big_t_lo + t_lo));
  const ddouble prod = two_prod(big_t, y);
  ddouble den = two_sum(1.0, prod.hi);
  den = two_sum(den.hi, den.lo + (prod.lo + (big_t * t_lo + big_t_lo * y)));
  // Both parts are renormalized above (lo below half an ulp of hi), so one correction step
  // q + (num - q den) / den gives the quotient to about 2^-100.
  const double q = num.hi / den.hi;
  const ddouble qd = two_prod(q, den.hi);
  const double r = (((num.hi - qd.hi) - qd.lo) + num.lo) - q * den.lo;
  return q + r / den.hi;
}

}  // namespace detail

// half: NumPy computes tanhf and rounds, so half keeps libm's float result. float and
// double: the accurate path on |x| in [2^-27, 33/16), libm above (where it is within
// 0.55 ulp of the true value); float rounds the double result.
struct Tanh {
  template <class T>
  TS_HD T operator()(T x) const {
    if constexpr (detail::is_half_v<T>) {
      return detail::float_to_half(std::tanh(detail::half_to_float(x)));
    } else if constexpr (std::is_same_v<T, float>) {
      return static_cast<float>((*this)(static_cast<double>(x)));
    } else if constexpr (std::is_same_v<T, double>) {
      const double ax = std::fabs(x);
      // Below 2^-27, x^3/3 is under a quarter ulp of x, so tanh(x) rounds to x (glibc
      // goes through expm1 there and can be 1 ulp off).
      // (isless: a NaN input raises no invalid flag, as in NumPy.)
      if (std::isless(ax, 0x1p-27)) return x;
      if (std::isless(ax, 2.0625)) return std::copysign(detail::tanh_mid(ax), x);
      return std::tanh(x);
    } else {
      return complex_math::tanh(x);
    }
  }
};

struct Arctan2 {
  template <class T>
  TS_HD T operator()(T y, T x) const {
    if constexpr (detail::is_half_v<T>) {
      return detail::float_to_half((*this)(detail::half_to_float(y), detail::half_to_float(x)));
    } else {
      return std::atan2(y, x);
    }
  }
};

struct Hypot {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    if constexpr (detail::is_half_v<T>) {
      return detail::float_to_half((*this)(detail::half_to_float(a), detail::half_to_float(b)));
    } else {
      return std::hypot(a, b);
    }
  }
};

// NumPy multiplies by a constant, pi/180 or 180/pi evaluated in the loop's own precision
// from its rounded pi (so float uses float(pi)/180.0f), and never divides; half uses the
// float constant.
struct Deg2rad {
  template <class T>
  TS_HD T operator()(T x) const {
    if constexpr (detail::is_half_v<T>) {
      return detail::float_to_half((*this)(detail::half_to_float(x)));
    } else {
      constexpr T k = detail::math_consts<T>::pi / T(180);
      return x * k;
    }
  }
};

struct Rad2deg {
  template <class T>
  TS_HD T operator()(T x) const {
    if constexpr (detail::is_half_v<T>) {
      return detail::float_to_half((*this)(detail::half_to_float(x)));
    } else {
      constexpr T k = T(180) / detail::math_consts<T>::pi;
      return x * k;
    }
  }
};

}  // namespace tessera::kernels
