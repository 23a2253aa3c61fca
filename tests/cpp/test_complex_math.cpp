// The complex functions of generated CUDA code (kernels/complex_math.h, namespace device),
// run here on the host against the C library's C99 functions, which NumPy calls: special
// values (every pair of special real and imaginary parts) as glibc gives them, and the
// accuracy of ordinary values against glibc's long double functions as the truth.

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/complex_math.h"

namespace tessera {
namespace {

namespace device = kernels::complex_math::device;

using Device = std::function<device::cd(double, double)>;
using Truth = std::function<std::complex<long double>(std::complex<long double>)>;

struct Function {
  std::string name;
  Device ours;
  std::function<std::complex<double>(std::complex<double>)> glibc128;
  std::function<std::complex<float>(std::complex<float>)> glibc64;
  Truth truth;
  bool periodic;  // exp, trigonometric and hyperbolic: arguments on a box, not polar
};

#define TS_FUNCTION(fn, periodic)                                                        \
  Function {                                                                            \
    #fn, [](double x, double y) { return device::fn(x, y); },                            \
        [](std::complex<double> z) { return std::fn(z); },                               \
        [](std::complex<float> z) { return std::fn(z); },                                \
        [](std::complex<long double> z) { return std::fn(z); }, periodic                 \
  }

std::vector<Function> functions() {
  return {TS_FUNCTION(sqrt, false), TS_FUNCTION(exp, true),    TS_FUNCTION(log, false),
          TS_FUNCTION(sin, true),   TS_FUNCTION(cos, true),    TS_FUNCTION(tan, true),
          TS_FUNCTION(sinh, true),  TS_FUNCTION(cosh, true),   TS_FUNCTION(tanh, true),
          TS_FUNCTION(asin, false), TS_FUNCTION(acos, false),  TS_FUNCTION(atan, false),
          TS_FUNCTION(asinh, false), TS_FUNCTION(acosh, false), TS_FUNCTION(atanh, false)};
}

// Distance in units in the last place between two finite values of R.
template <class R>
double ulps(R a, R b) {
  using I = std::conditional_t<sizeof(R) == 8, int64_t, int32_t>;
  I ia, ib;
  std::memcpy(&ia, &a, sizeof a);
  std::memcpy(&ib, &b, sizeof b);
  __int128 ka = ia < 0 ? static_cast<__int128>(std::numeric_limits<I>::min()) - ia : ia;
  __int128 kb = ib < 0 ? static_cast<__int128>(std::numeric_limits<I>::min()) - ib : ib;
  const __int128 d = ka > kb ? ka - kb : kb - ka;
  return static_cast<double>(d);
}

// NumPy's test rule (test_ufunc_values.assert_close): nan where glibc has nan, infinities
// and zeros exactly (sign included), except that where glibc underflowed to zero a
// subnormal of the same sign one ULP away passes: rounding into the subnormal range
// differs between float arithmetic and double rounded once.
template <class R>
bool same_special(R got, R expected) {
  if (std::isnan(expected) || std::isnan(got)) return std::isnan(expected) && std::isnan(got);
  const bool signs = std::signbit(got) == std::signbit(expected);
  if (expected == 0 && std::fabs(got) < std::numeric_limits<R>::min()) {
    return signs && ulps(got, expected) <= 1;
  }
  if (std::isinf(expected) || std::isinf(got) || expected == 0) return got == expected && signs;
  return true;
}

template <class R>
std::complex<R> ours_in(const Function& f, std::complex<R> z) {
  const device::cd w = f.ours(z.real(), z.imag());
  return {static_cast<R>(w.re), static_cast<R>(w.im)};
}

std::string show(double x, double y) {
  std::ostringstream s;
  s.precision(17);
  s << "(" << x << ", " << y << ")";
  return s.str();
}

template <class R, class Glibc>
void check_specials(const Function& f, Glibc glibc) {
  constexpr R inf = std::numeric_limits<R>::infinity();
  constexpr R max = std::numeric_limits<R>::max();
  const std::vector<R> parts = {R(0),  R(-0.0), R(1),   R(-1),  R(0.5),    R(-2.5),
                                R(2),  inf,     -inf,   std::numeric_limits<R>::quiet_NaN(),
                                max / 4, max,   -max,   std::numeric_limits<R>::denorm_min(),
                                std::numeric_limits<R>::min(), R(1000), R(-800), R(3.14159265358979)};
  for (R x : parts) {
    for (R y : parts) {
      const std::complex<R> expected = glibc(std::complex<R>(x, y));
      const std::complex<R> got = ours_in(f, std::complex<R>(x, y));
      EXPECT_TRUE(same_special(got.real(), expected.real()) &&
                  same_special(got.imag(), expected.imag()))
          << f.name << show(x, y) << " = " << show(got.real(), got.imag()) << ", glibc "
          << show(expected.real(), expected.imag());
    }
  }
}

TEST(ComplexMath, SpecialValuesAreGlibcs) {
  for (const Function& f : functions()) {
    check_specials<double>(f, f.glibc128);
    check_specials<float>(f, f.glibc64);
  }
}

// Ordinary arguments the way test_ufunc_accuracy spreads them: a box for the periodic
// functions; polar over many scales, a box around 0, the real axis and the unit circle for
// the others.
template <class R>
std::vector<std::complex<R>> arguments(bool periodic, int n) {
  std::mt19937_64 rng(12345);
  std::uniform_real_distribution<double> unit(-1, 1), angle(-M_PI, M_PI);
  const bool wide = sizeof(R) == 8;
  const double tiny = std::numeric_limits<R>::min();
  const auto polar = [&](double lo, double hi) {
    const double r = std::exp(std::log(lo) + (std::log(hi) - std::log(lo)) * (unit(rng) + 1) / 2);
    const double t = angle(rng);
    return std::complex<R>(static_cast<R>(r * std::cos(t)), static_cast<R>(r * std::sin(t)));
  };
  std::vector<std::complex<R>> out;
  for (int i = 0; i < n; ++i) {
    if (periodic) {
      const double span = wide ? 50 : 20;
      out.emplace_back(static_cast<R>(span * unit(rng)), static_cast<R>(span * unit(rng)));
      out.push_back(polar(tiny, 1e-3));
      out.emplace_back(static_cast<R>(2 * unit(rng)), static_cast<R>(2 * unit(rng)));
    } else {
      const double lim = wide ? 1e8 : 1e4;
      out.push_back(polar(1 / lim, lim));
      out.push_back(polar(tiny, 1e-3));
      out.emplace_back(static_cast<R>(2 * unit(rng)), static_cast<R>(2 * unit(rng)));
      out.emplace_back(static_cast<R>(2 * unit(rng)), R(0));
      out.push_back(polar(1 - 1e-6, 1 + 1e-6));
    }
  }
  return out;
}

// The worst error in ULP of either part against the long double result rounded to R.
template <class R>
double worst_error(const Function& f, std::complex<R>* where) {
  double worst = 0;
  for (const std::complex<R> z : arguments<R>(f.periodic, 20000)) {
    const std::complex<long double> t = f.truth(std::complex<long double>(z.real(), z.imag()));
    const std::complex<R> truth(static_cast<R>(t.real()), static_cast<R>(t.imag()));
    const std::complex<R> got = ours_in(f, z);
    for (const auto& [g, e] : {std::pair{got.real(), truth.real()}, std::pair{got.imag(), truth.imag()}}) {
      if (!std::isfinite(e) || e == 0 || !std::isfinite(g)) continue;
      const double d = ulps(g, e);
      if (d > worst) {
        worst = d;
        *where = z;
      }
    }
  }
  return worst;
}

// complex64 is computed in double and rounded once: within 1 ULP of the truth (glibc's
// float functions are up to 6 ULP off). complex128 within 6 ULP, as glibc's (the worst are
// tan and tanh, whose Kahan form multiplies and divides libm's sinh and cosh).
TEST(ComplexMath, AccuracyAgainstLongDouble) {
  for (const Function& f : functions()) {
    std::complex<float> at64;
    std::complex<double> at128;
    const double e64 = worst_error<float>(f, &at64);
    const double e128 = worst_error<double>(f, &at128);
    EXPECT_LE(e64, 1) << f.name << " complex64 at " << show(at64.real(), at64.imag());
    EXPECT_LE(e128, 6) << f.name << " complex128 at " << show(at128.real(), at128.imag());
  }
}

// pow is exp(b log a) with C's complex multiplication: infinities in b log a are recovered
// as C99 Annex G says (and cpow gives), not lost to inf * 0 = nan.
TEST(ComplexMath, PowKeepsAnnexGProducts) {
  const double inf = std::numeric_limits<double>::infinity();
  for (const auto& [ar, ai, br, bi] : std::vector<std::array<double, 4>>{
           {-1, 0, inf, inf}, {-1, 0, inf, -inf}, {2, 1, -inf, inf}, {0.5, 3, 1, 2}}) {
    const std::complex<double> expected =
        std::pow(std::complex<double>(ar, ai), std::complex<double>(br, bi));
    const device::cd got = device::pow<double>(ar, ai, br, bi);
    EXPECT_TRUE(same_special(got.re, expected.real()) && same_special(got.im, expected.imag()))
        << show(ar, ai) << "^" << show(br, bi) << " = " << show(got.re, got.im) << ", glibc "
        << show(expected.real(), expected.imag());
    if (std::isfinite(expected.real()) && expected.real() != 0) {
      EXPECT_NEAR(got.re, expected.real(), 1e-14 * std::abs(expected));
    }
  }
}

// lite::complex, the simulator's complex type: std::complex's layout and interface, with
// NumPy's product and quotient (npy_math's formulas, no Annex G recovery).
TEST(LiteComplex, LayoutConversionsAndOperators) {
  using kernels::lite::complex;
  static_assert(sizeof(complex<float>) == sizeof(std::complex<float>) &&
                alignof(complex<double>) == alignof(std::complex<double>));
  const complex<double> a(1.5, -2.0), b(-0.25, 4.0);
  const auto is = [](complex<double> z, double re, double im) {
    return z.real() == re && z.imag() == im;
  };
  EXPECT_TRUE(is(a + b, 1.25, 2.0));
  EXPECT_TRUE(is(a - b, 1.75, -6.0));
  EXPECT_TRUE(is(a * b, 1.5 * -0.25 - -2.0 * 4.0, 1.5 * 4.0 + -2.0 * -0.25));
  const std::complex<double> quotient =
      std::complex<double>(1.5, -2.0) / std::complex<double>(-0.25, 4.0);
  EXPECT_NEAR((a / b).real(), quotient.real(), 1e-16);
  EXPECT_NEAR((a / b).imag(), quotient.imag(), 1e-16);
  EXPECT_TRUE(is(2.0 * a, 3.0, -4.0));
  EXPECT_TRUE(is(a * 2.0, 3.0, -4.0));
  EXPECT_TRUE(is(1.0 + a, 2.5, -2.0));
  EXPECT_TRUE(is(1.0 - a, -0.5, 2.0));
  EXPECT_TRUE(is(a / 2.0, 0.75, -1.0));
  EXPECT_TRUE(is(-a, -1.5, 2.0));
  EXPECT_TRUE(a == complex<double>(1.5, -2.0) && a != b && complex<double>(3.0) == 3.0);
  // NumPy's product: (inf + 0j) * (1 + inf j) keeps the nan of 0 * inf, as npy_math's does
  // (C99 Annex G would recover an infinity).
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(std::isnan((complex<double>(inf, 0.0) * complex<double>(1.0, inf)).real()));
  // Widening converts implicitly, narrowing only when asked.
  const complex<double> wide = complex<float>(0.5f, 2.0f);
  EXPECT_TRUE(is(wide, 0.5, 2.0));
  static_assert(!std::is_convertible_v<complex<double>, complex<float>> &&
                std::is_constructible_v<complex<float>, complex<double>>);
  // Functions found by argument-dependent lookup, as CuPy snippets call them.
  EXPECT_EQ(abs(complex<double>(3.0, -4.0)), 5.0);
  EXPECT_EQ(norm(complex<double>(3.0, -4.0)), 25.0);
  EXPECT_EQ(arg(complex<double>(-1.0, 0.0)), std::atan2(0.0, -1.0));
  EXPECT_TRUE(is(conj(a), 1.5, 2.0));
  EXPECT_TRUE(is(proj(complex<double>(-inf, -1.0)), inf, -0.0) &&
              std::signbit(proj(complex<double>(-inf, -1.0)).imag()));
  EXPECT_TRUE(is(real(a) * kernels::lite::polar(2.0, 0.0), 3.0, 0.0));
}

}  // namespace
}  // namespace tessera
