#pragma once
// Roots, exponentials and logarithms, computed the way NumPy's loops compute them.
//
// half has no math of its own: NumPy converts to float, calls the float function and
// rounds the result back once, so every functor here forwards half to its float case.
// Real float/double and most complex cases are the C library's functions (glibc's libm
// and C99 complex functions, which is what NumPy calls); the complex exp2, expm1, log2,
// log10 and log1p are NumPy's own formulas, reproduced step by step.

#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <type_traits>

#include "kernels/complex_math.h"
#include "kernels/defs.h"
#include "kernels/element_types.h"

namespace tessera::kernels {

namespace detail {

// NumPy's NPY_* constants, spelled separately per precision so each is the literal rounded
// once to that precision, exactly as NumPy's float and double loops see it.
template <class R>
struct math_consts;
template <>
struct math_consts<float> {
  static constexpr float ln2 = 0.693147180559945309417232121458176568f;
  static constexpr float log2e = 1.442695040888963407359924681001892137f;
  static constexpr float log10e = 0.434294481903251827651128918916605082f;
  static constexpr float pi = 3.141592653589793238462643383279502884f;
};
template <>
struct math_consts<double> {
  static constexpr double ln2 = 0.693147180559945309417232121458176568;
  static constexpr double log2e = 1.442695040888963407359924681001892137;
  static constexpr double log10e = 0.434294481903251827651128918916605082;
  static constexpr double pi = 3.141592653589793238462643383279502884;
};

template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, half>;

// half <-> float the way NumPy converts: exactly, except that a signaling nan stays
// signaling (GCC's conversions quiet it). That decides e.g. hypot(sNaN, inf), which is
// nan, not inf, and keeps nan payloads that pass through unchanged bit-identical. NumPy's
// float -> half also raises underflow for any nonzero value below half's smallest normal
// that is not exactly a half subnormal (a multiple of 2^-24), even when it rounds up to
// the smallest normal; GCC's conversion raises it only for results that stay subnormal.
TS_HD float half_to_float(half h) {
  const uint16_t b = std::bit_cast<uint16_t>(h);
  if ((b & 0x7c00u) == 0x7c00u && (b & 0x03ffu) != 0) {
    const uint32_t sign = static_cast<uint32_t>(b & 0x8000u) << 16;
    return std::bit_cast<float>(sign | 0x7f800000u | static_cast<uint32_t>(b & 0x03ffu) << 13);
  }
  return static_cast<float>(h);
}

TS_HD half float_to_half(float f) {
  const uint32_t b = std::bit_cast<uint32_t>(f);
  if ((b & 0x7f800000u) == 0x7f800000u && (b & 0x007fffffu) != 0) {
    // NumPy keeps the top payload bits, and the lowest one if none of them is set.
    uint32_t sig = (b & 0x007fffffu) >> 13;
    if (sig == 0) sig = 1;
    return std::bit_cast<half>(static_cast<uint16_t>(((b >> 16) & 0x8000u) | 0x7c00u | sig));
  }
  const float magnitude = std::fabs(f);
  if (magnitude != 0.0f && magnitude < 0x1p-14f) {
    const float in_subnormal_steps = magnitude * 0x1p24f;  // exact: a power-of-two scale
    if (in_subnormal_steps != std::trunc(in_subnormal_steps)) raise_underflow_flag();
  }
  return static_cast<half>(f);
}

// Scales both parts separately (not a complex product), so an infinite or nan part does
// not leak into the other one.
template <class C, class R>
TS_HD C scale_parts(C z, R k) {
  return C(z.real() * k, z.imag() * k);
}

}  // namespace detail

namespace detail {
template <class T>
TS_HD void no_flag_check(T) {}
}  // namespace detail

// A functor for a C-library function that NumPy calls unchanged for float, double and
// complex: the half case forwards to float, float and double call `check(x)` (a flag
// NumPy raises that the C library does not) and go to the std:: overload, complex goes to
// complex_math (the C library's function on the host, tessera's own in CUDA code).
// ops_trig.h uses it too.
#define TS_LIBM_UNARY_CHECKED(Name, fn, check)                           \
  struct Name {                                                          \
    template <class T>                                                   \
    TS_HD T operator()(T x) const {                                      \
      if constexpr (detail::is_half_v<T>) {                              \
        return detail::float_to_half((*this)(detail::half_to_float(x))); \
      } else if constexpr (is_complex_type<T>::value) {                  \
        return complex_math::fn(x);                                      \
      } else {                                                           \
        check(x);                                                        \
        return std::fn(x);                                               \
      }                                                                  \
    }                                                                    \
  };
#define TS_LIBM_UNARY(Name, fn) TS_LIBM_UNARY_CHECKED(Name, fn, detail::no_flag_check)

TS_LIBM_UNARY(Sqrt, sqrt)

struct Cbrt {  // real only: NumPy has no complex cbrt
  template <class T>
  TS_HD T operator()(T x) const {
    if constexpr (detail::is_half_v<T>) {
      return detail::float_to_half((*this)(detail::half_to_float(x)));
    } else {
      return std::cbrt(x);
    }
  }
};

TS_LIBM_UNARY(Exp, exp)

struct Exp2 {
  template <class T>
  TS_HD T operator()(T x) const {
    if constexpr (detail::is_half_v<T>) {
      return detail::float_to_half((*this)(detail::half_to_float(x)));
    } else if constexpr (is_complex_type<T>::value) {
      // NumPy: cexp(z * ln2), with the two parts scaled independently.
      using R = typename T::value_type;
      return complex_math::exp(detail::scale_parts(x, detail::math_consts<R>::ln2));
    } else {
      return std::exp2(x);
    }
  }
};

struct Expm1 {
  template <class T>
  TS_HD T operator()(T x) const {
    if constexpr (detail::is_half_v<T>) {
      return detail::float_to_half((*this)(detail::half_to_float(x)));
    } else if constexpr (is_complex_type<T>::value) {
      // NumPy's formula: cos(y) - 1 is written as -2 sin^2(y/2) so the real part keeps its
      // precision for small y; the imaginary part is plain exp(x) sin(y).
      using R = typename T::value_type;
      const R re = x.real();
      const R im = x.imag();
      const R a = std::sin(im / R(2));
      return T(std::expm1(re) * std::cos(im) - R(2) * a * a, std::exp(re) * std::sin(im));
    } else {
      return std::expm1(x);
    }
  }
};

struct Log {
  template <class T>
  TS_HD T operator()(T x) const {
    if constexpr (detail::is_half_v<T>) {
      return detail::float_to_half((*this)(detail::half_to_float(x)));
    } else if constexpr (std::is_same_v<T, double>) {
      // NumPy's wheels link glibc's pre-2.29 double log and log2 (symbol version
      // GLIBC_2.2.5), whose wrapper answers x < 0 with +nan where the current ones give
      // -nan; clearing the sign keeps the invalid flag the call raises.
      // (isless: a NaN input raises no invalid flag, as in NumPy.)
      const double r = std::log(x);
      return std::isless(x, 0.0) ? std::fabs(r) : r;
    } else if constexpr (is_complex_type<T>::value) {
      return complex_math::log(x);
    } else {
      return std::log(x);
    }
  }
};

struct Log2 {
  template <class T>
  TS_HD T operator()(T x) const {
    if constexpr (detail::is_half_v<T>) {
      return detail::float_to_half((*this)(detail::half_to_float(x)));
    } else if constexpr (is_complex_type<T>::value) {
      // NumPy: clog(z) with both parts multiplied by log2(e).
      using R = typename T::value_type;
      return detail::scale_parts(complex_math::log(x), detail::math_consts<R>::log2e);
    } else if constexpr (std::is_same_v<T, double>) {
      const double r = std::log2(x);
      return std::isless(x, 0.0) ? std::fabs(r) : r;  // +nan for x < 0, as in Log
    } else {
      return std::log2(x);
    }
  }
};

struct Log10 {
  template <class T>
  TS_HD T operator()(T x) const {
    if constexpr (detail::is_half_v<T>) {
      return detail::float_to_half((*this)(detail::half_to_float(x)));
    } else if constexpr (is_complex_type<T>::value) {
      // NumPy: clog(z) with both parts multiplied by log10(e); std::log10 on complex
      // divides by log(10) instead, which rounds differently.
      using R = typename T::value_type;
      return detail::scale_parts(complex_math::log(x), detail::math_consts<R>::log10e);
    } else {
      return std::log10(x);
    }
  }
};

struct Log1p {
  template <class T>
  TS_HD T operator()(T x) const {
    if constexpr (detail::is_half_v<T>) {
      return detail::float_to_half((*this)(detail::half_to_float(x)));
    } else if constexpr (is_complex_type<T>::value) {
      // NumPy 2.4's formula: log|z + 1| + i arg(z + 1). It loses precision when z + 1 is
      // near the unit circle; matching NumPy matters more here than accuracy.
      using R = typename T::value_type;
      const R re1 = x.real() + R(1);
      return T(std::log(std::hypot(re1, x.imag())), std::atan2(x.imag(), re1));
    } else {
      return std::log1p(x);
    }
  }
};

struct Logaddexp {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    if constexpr (detail::is_half_v<T>) {
      return detail::float_to_half((*this)(detail::half_to_float(a), detail::half_to_float(b)));
    } else {
      // Equal inputs (including two infinities of one sign, where a - b would be nan)
      // give a + log(2) directly. Otherwise factor out the larger input so exp never
      // overflows. A nan difference falls through both comparisons and is returned.
      if (a == b) return a + detail::math_consts<T>::ln2;
      const T d = a - b;
      if (d > 0) return a + std::log1p(std::exp(-d));
      if (d <= 0) return b + std::log1p(std::exp(d));
      return d;
    }
  }
};

struct Logaddexp2 {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    if constexpr (detail::is_half_v<T>) {
      return detail::float_to_half((*this)(detail::half_to_float(a), detail::half_to_float(b)));
    } else {
      // Same structure as Logaddexp, in base 2; log2(1 + v) is log2(e) * log1p(v) as in
      // NumPy, not std::log2(1 + v), which would lose small v.
      constexpr T log2e = detail::math_consts<T>::log2e;
      if (a == b) return a + T(1);
      const T d = a - b;
      if (d > 0) return a + log2e * std::log1p(std::exp2(-d));
      if (d <= 0) return b + log2e * std::log1p(std::exp2(d));
      return d;
    }
  }
};


}  // namespace tessera::kernels
