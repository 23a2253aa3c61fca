#pragma once
// The CUDA simulator's device runtime, part 5: the math functions of CUDA's device runtime
// that the C library lacks (rsqrt, sinpi, erfinv, normcdf ...), their float forms and
// overloads, CUDA's min/max for mixed types, and math_constants.h. The C library's
// functions (sinf, expf, fma, lgamma, sincos ...) and std's float overloads come from
// <math.h>. The float forms are computed in double and rounded: as accurate as CUDA's.

#include "backend/cudasim/prelude/atomics.h"

namespace __tsim {

constexpr double kPi = 3.14159265358979323846;
constexpr double kSqrt2 = 1.41421356237309504880;
constexpr double kTwoOverSqrtPi = 1.12837916709551257390;

// sin(pi x) and cos(pi x), exact at integers and half-integers: x is reduced exactly to
// y + q/2 with |y| <= 1/4.
inline void sincospi(double x, double* s, double* c) {
  if (!isfinite(x)) {
    *s = *c = x - x;
    return;
  }
  const double r = fmod(x, 2.0);
  const double n = nearbyint(2 * r);
  const double y = r - n / 2;
  const double sy = sin(kPi * y), cy = cos(kPi * y);
  double sv, cv;
  switch ((static_cast<int>(n) % 4 + 4) % 4) {
    case 0:
      sv = sy, cv = cy;
      break;
    case 1:
      sv = cy, cv = -sy;
      break;
    case 2:
      sv = -sy, cv = -cy;
      break;
    default:
      sv = -cy, cv = sy;
      break;
  }
  *s = sv == 0 ? copysign(0.0, x) : sv;
  *c = cv + 0.0;  // cospi(n + 1/2) is +0
}

// Giles' single-precision erfinv, as a starting point that Newton's method makes exact;
// w = -log((1 - x)(1 + x)), computed by the caller without cancellation.
inline double erfinv_estimate(double x, double w) {
  double p;
  if (w < 5) {
    w -= 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w;
    p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
  } else {
    w = sqrt(w) - 3;
    p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
  }
  return p * x;
}

// The z with erfc(z) = y for 0 < y < 2, refined against erfc (not erf) so that tiny y keep
// their precision. Past the estimate's range (y < 1e-7) the start is the asymptotic
// erfc(z) ~ exp(-z^2) / (z sqrt(pi)), solved by fixed point.
inline double erfcinv(double y) {
  if (!(y > 0 && y < 2)) return y == 0 ? HUGE_VAL : y == 2 ? -HUGE_VAL : NAN;
  if (y > 1) return -erfcinv(2 - y);  // 2 - y is exact here
  double z;
  if (y > 1e-7) {
    z = erfinv_estimate(1 - y, -log(y * (2 - y)));
  } else {
    z = sqrt(-log(y));
    for (int step = 0; step < 4; ++step) z = sqrt(-log(y * z * sqrt(kPi)));
  }
  for (int step = 0; step < 3; ++step) {
    const double slope = -kTwoOverSqrtPi * exp(-z * z);
    if (slope == 0) break;
    z -= (erfc(z) - y) / slope;
  }
  return z;
}

inline double erfinv(double x) {
  if (!(x > -1 && x < 1)) return x == 1 ? HUGE_VAL : x == -1 ? -HUGE_VAL : NAN;
  if (fabs(x) >= 0.5) return copysign(erfcinv(1 - fabs(x)), x);  // 1 - |x| is exact here
  double z = erfinv_estimate(x, -log1p(-x * x));
  for (int step = 0; step < 2; ++step) z -= (erf(z) - x) / (kTwoOverSqrtPi * exp(-z * z));
  return z;
}

// exp(x^2) erfc(x); past 26, where erfc underflows, its asymptotic series.
inline double erfcx(double x) {
  if (x < 26) return exp(x * x) * erfc(x);
  const double q = 1 / (2 * x * x);
  double sum = 1, term = 1;
  for (int k = 1; k <= 10; ++k) {
    term *= -(2 * k - 1) * q;
    sum += term;
  }
  return sum / (x * sqrt(kPi));
}

}  // namespace __tsim

// The C library's functions CUDA overloads for float.
inline float exp10(float x) { return exp10f(x); }
inline void sincos(float x, float* s, float* c) { sincosf(x, s, c); }

// Defined unless the C library has them (glibc 2.41 brought C23's sinpi and cospi).
#if !defined(__GLIBC__) || __GLIBC__ * 100 + __GLIBC_MINOR__ < 241
inline double sinpi(double x) {
  double s, c;
  ::__tsim::sincospi(x, &s, &c);
  return s;
}
inline double cospi(double x) {
  double s, c;
  ::__tsim::sincospi(x, &s, &c);
  return c;
}
inline float sinpif(float x) { return static_cast<float>(sinpi(x)); }
inline float cospif(float x) { return static_cast<float>(cospi(x)); }
#endif
inline float sinpi(float x) { return sinpif(x); }
inline float cospi(float x) { return cospif(x); }
inline void sincospi(double x, double* s, double* c) { ::__tsim::sincospi(x, s, c); }
inline void sincospif(float x, float* s, float* c) {
  double sd, cd;
  ::__tsim::sincospi(x, &sd, &cd);
  *s = static_cast<float>(sd);
  *c = static_cast<float>(cd);
}
inline void sincospi(float x, float* s, float* c) { sincospif(x, s, c); }

inline double rsqrt(double x) { return 1 / sqrt(x); }
inline float rsqrtf(float x) { return static_cast<float>(rsqrt(x)); }
inline float rsqrt(float x) { return rsqrtf(x); }
inline double rcbrt(double x) { return 1 / cbrt(x); }
inline float rcbrtf(float x) { return static_cast<float>(rcbrt(x)); }
inline float rcbrt(float x) { return rcbrtf(x); }
inline double rhypot(double x, double y) { return 1 / hypot(x, y); }
inline float rhypotf(float x, float y) { return static_cast<float>(rhypot(x, y)); }
inline float rhypot(float x, float y) { return rhypotf(x, y); }
inline double norm3d(double a, double b, double c) { return sqrt(a * a + b * b + c * c); }
inline float norm3df(float a, float b, float c) { return static_cast<float>(norm3d(a, b, c)); }
inline double norm4d(double a, double b, double c, double d) {
  return sqrt(a * a + b * b + c * c + d * d);
}
inline float norm4df(float a, float b, float c, float d) {
  return static_cast<float>(norm4d(a, b, c, d));
}
inline double rnorm3d(double a, double b, double c) { return 1 / norm3d(a, b, c); }
inline float rnorm3df(float a, float b, float c) { return static_cast<float>(rnorm3d(a, b, c)); }
inline double rnorm4d(double a, double b, double c, double d) { return 1 / norm4d(a, b, c, d); }
inline float rnorm4df(float a, float b, float c, float d) {
  return static_cast<float>(rnorm4d(a, b, c, d));
}
inline double norm(int dim, const double* p) {
  double sum = 0;
  for (int i = 0; i < dim; ++i) sum += p[i] * p[i];
  return sqrt(sum);
}
inline float normf(int dim, const float* p) {
  double sum = 0;
  for (int i = 0; i < dim; ++i) sum += static_cast<double>(p[i]) * p[i];
  return static_cast<float>(sqrt(sum));
}
inline double rnorm(int dim, const double* p) { return 1 / norm(dim, p); }
inline float rnormf(int dim, const float* p) { return 1 / normf(dim, p); }
inline float fdividef(float x, float y) { return x / y; }

inline double erfinv(double x) { return ::__tsim::erfinv(x); }
inline float erfinvf(float x) { return static_cast<float>(erfinv(x)); }
inline float erfinv(float x) { return erfinvf(x); }
inline double erfcinv(double y) { return ::__tsim::erfcinv(y); }
inline float erfcinvf(float y) { return static_cast<float>(erfcinv(y)); }
inline float erfcinv(float y) { return erfcinvf(y); }
inline double erfcx(double x) {
  return x >= 0 ? ::__tsim::erfcx(x) : 2 * exp(x * x) - ::__tsim::erfcx(-x);
}
inline float erfcxf(float x) { return static_cast<float>(erfcx(x)); }
inline float erfcx(float x) { return erfcxf(x); }
inline double normcdf(double x) { return 0.5 * erfc(-x / ::__tsim::kSqrt2); }
inline float normcdff(float x) { return static_cast<float>(normcdf(x)); }
inline float normcdf(float x) { return normcdff(x); }
inline double normcdfinv(double p) { return -::__tsim::kSqrt2 * erfcinv(2 * p) + 0.0; }
inline float normcdfinvf(float p) { return static_cast<float>(normcdfinv(p)); }
inline float normcdfinv(float p) { return normcdfinvf(p); }
inline double cyl_bessel_i0(double x) { return ::__tsim::runtime_->cyl_bessel_i(0.0, fabs(x)); }
inline float cyl_bessel_i0f(float x) { return static_cast<float>(cyl_bessel_i0(x)); }
inline double cyl_bessel_i1(double x) {
  return copysign(::__tsim::runtime_->cyl_bessel_i(1.0, fabs(x)), x);
}
inline float cyl_bessel_i1f(float x) { return static_cast<float>(cyl_bessel_i1(x)); }

// CUDA's min and max: one overload per type (float ones ignore a NaN, as fminf does), and
// the usual arithmetic conversions for mixed arguments (min(int, unsigned) is unsigned).
#define TSIM_MIN_MAX(T)                            \
  inline T min(T a, T b) { return b < a ? b : a; } \
  inline T max(T a, T b) { return a < b ? b : a; }
TSIM_MIN_MAX(int)
TSIM_MIN_MAX(unsigned)
TSIM_MIN_MAX(long)
TSIM_MIN_MAX(unsigned long)
TSIM_MIN_MAX(long long)
TSIM_MIN_MAX(unsigned long long)
#undef TSIM_MIN_MAX
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
template <class A, class B>
requires(std::is_arithmetic_v<A>&& std::is_arithmetic_v<B> &&
         !std::is_same_v<A, B>) inline std::common_type_t<A, B> min(A a, B b) {
  using C = std::common_type_t<A, B>;
  return min(static_cast<C>(a), static_cast<C>(b));
}
template <class A, class B>
requires(std::is_arithmetic_v<A>&& std::is_arithmetic_v<B> &&
         !std::is_same_v<A, B>) inline std::common_type_t<A, B> max(A a, B b) {
  using C = std::common_type_t<A, B>;
  return max(static_cast<C>(a), static_cast<C>(b));
}
inline unsigned umin(unsigned a, unsigned b) { return min(a, b); }
inline unsigned umax(unsigned a, unsigned b) { return max(a, b); }
inline long long llmin(long long a, long long b) { return min(a, b); }
inline long long llmax(long long a, long long b) { return max(a, b); }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return min(a, b); }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return max(a, b); }

// math_constants.h (the commonly used ones).
#define CUDART_INF_F __builtin_huge_valf()
#define CUDART_NAN_F __builtin_nanf("")
#define CUDART_MIN_DENORM_F __FLT_DENORM_MIN__
#define CUDART_MAX_NORMAL_F __FLT_MAX__
#define CUDART_NEG_ZERO_F (-0.0f)
#define CUDART_ZERO_F 0.0f
#define CUDART_ONE_F 1.0f
#define CUDART_SQRT_HALF_F 0.70710678f
#define CUDART_SQRT_TWO_F 1.41421356f
#define CUDART_THIRD_F 0.33333333f
#define CUDART_PIO4_F 0.78539816f
#define CUDART_PIO2_F 1.57079633f
#define CUDART_3PIO4_F 2.35619449f
#define CUDART_2_OVER_PI_F 0.63661977f
#define CUDART_SQRT_2_OVER_PI_F 0.79788456f
#define CUDART_PI_F 3.14159265f
#define CUDART_L2E_F 1.44269504f
#define CUDART_L2T_F 3.32192809f
#define CUDART_LG2_F 0.30103000f
#define CUDART_LGE_F 0.43429448f
#define CUDART_LN2_F 0.69314718f
#define CUDART_LNT_F 2.30258509f
#define CUDART_LNPI_F 1.14472989f
#define CUDART_TWO_TO_23_F 8388608.0f
#define CUDART_TWO_TO_24_F 16777216.0f
#define CUDART_TWO_TO_31_F 2147483648.0f
#define CUDART_TWO_TO_32_F 4294967296.0f
#define CUDART_INF __builtin_huge_val()
#define CUDART_NAN __builtin_nan("")
#define CUDART_NEG_ZERO (-0.0)
#define CUDART_MIN_DENORM __DBL_DENORM_MIN__
#define CUDART_ZERO 0.0
#define CUDART_ONE 1.0
#define CUDART_SQRT_TWO 1.4142135623730951
#define CUDART_SQRT_HALF 0.70710678118654757
#define CUDART_THIRD 0.33333333333333333
#define CUDART_TWOTHIRD 0.66666666666666667
#define CUDART_PIO4 0.78539816339744831
#define CUDART_PIO2 1.5707963267948966
#define CUDART_3PIO4 2.3561944901923448
#define CUDART_2_OVER_PI 0.63661977236758134
#define CUDART_PI 3.1415926535897931
#define CUDART_SQRT_2PI 2.5066282746310002
#define CUDART_SQRT_PIO2 1.2533141373155003
#define CUDART_SQRT_2OPI 0.79788456080286536
#define CUDART_L2E 1.4426950408889634
#define CUDART_L2T 3.3219280948873622
#define CUDART_LG2 0.30102999566398120
#define CUDART_LGE 0.43429448190325182
#define CUDART_LN2 0.69314718055994531
#define CUDART_LNT 2.3025850929940457
#define CUDART_LNPI 1.1447298858494002
#define CUDART_TWO_TO_52 4503599627370496.0
#define CUDART_TWO_TO_53 9007199254740992.0
#define CUDART_TWO_TO_54 18014398509481984.0
