#pragma once
// Arithmetic ufuncs, computing exactly what NumPy 2.4's loops compute for each loop type.
// Integers wrap on overflow (computed in an unsigned type: signed overflow is UB in C++),
// half is computed in float and rounded once (as NumPy's half loops do), and complex ops
// spell out NumPy's own formulas rather than std::complex's operators, whose C99 Annex G
// recovery of infinities NumPy does not perform.

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>

#include "kernels/cast.h"
#include "kernels/complex_math.h"
#include "kernels/complex_type.h"
#include "kernels/defs.h"
#include "kernels/element_types.h"

namespace tessera::kernels {

namespace arith_detail {

template <class T>
inline constexpr bool is_half_v = std::is_same_v<T, half>;
template <class T>
inline constexpr bool is_cplx_v = is_complex_type<T>::value;
template <class T>
inline constexpr bool is_int_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// The type an op computes in: NumPy's half loops convert to float and round the result.
template <class T>
using calc_t = std::conditional_t<is_half_v<T>, float, T>;

template <class T>
TS_HD auto real_of(T v) {
  if constexpr (is_cplx_v<T>) {
    return v.real();
  } else {
    return v;
  }
}
// float for complex64, double for complex128, T otherwise.
template <class T>
using real_t = decltype(real_of(std::declval<T>()));

// An unsigned type at least as wide as int: narrower unsigned types would promote to
// (signed) int, where a product such as 65535 * 65535 overflows.
template <class T>
using wide_unsigned_t =
    std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

template <class T>
TS_HD T wrap_add(T a, T b) {
  return static_cast<T>(wide_unsigned_t<T>(a) + wide_unsigned_t<T>(b));
}
template <class T>
TS_HD T wrap_sub(T a, T b) {
  return static_cast<T>(wide_unsigned_t<T>(a) - wide_unsigned_t<T>(b));
}
template <class T>
TS_HD T wrap_mul(T a, T b) {
  return static_cast<T>(wide_unsigned_t<T>(a) * wide_unsigned_t<T>(b));
}

// True for the one quotient that overflows: INT_MIN / -1.
template <class T>
TS_HD bool min_by_minus_one(T a, T b) {
  return std::is_signed_v<T> && a == std::numeric_limits<T>::min() && b == T(-1);
}

// NumPy defines x // 0 == 0 and x % 0 == 0 for integers (it only raises the divide-by-zero
// flag), and INT_MIN // -1 wraps to INT_MIN with remainder 0 (the quotient's overflow
// flag is raised by floor_divide and divmod, not by remainder).
template <class T>
TS_HD Pair<T, T> int_divmod(T a, T b) {
  if (b == 0) {
    raise_divide_by_zero_flag();
    return {T(0), T(0)};
  }
  if (min_by_minus_one(a, b)) return {a, T(0)};
  T q = static_cast<T>(a / b);
  T r = static_cast<T>(a % b);
  if constexpr (std::is_signed_v<T>) {
    // Python rounds the quotient toward -inf, so a remainder takes the divisor's sign.
    if (r != 0 && ((r < 0) != (b < 0))) {
      q = static_cast<T>(q - 1);
      r = static_cast<T>(r + b);
    }
  }
  return {q, r};
}

// npy_divmod: Python's float divmod (from CPython), remainder with the divisor's sign.
template <class F>
TS_HD Pair<F, F> float_divmod(F a, F b) {
  F mod = std::fmod(a, b);
  if (!b) return {a / b, mod};  // b == 0: inf or nan quotient, nan remainder
  F div = (a - mod) / b;        // very nearly an integer multiple of b
  if (mod) {
    if (std::isless(b, F(0)) != std::isless(mod, F(0))) {
      mod += b;
      div -= F(1);
    }
  } else {
    mod = std::copysign(F(0), b);
  }
  F floordiv;
  if (div) {
    floordiv = std::floor(div);
    if (std::isgreater(div - floordiv, F(0.5))) floordiv += F(1);
  } else {
    floordiv = std::copysign(F(0), a / b);
  }
  return {floordiv, mod};
}

// Integer power by repeated squaring modulo 2^bits. Negative exponents are refused by the
// engine before a loop runs; 0 keeps this total.
template <class T>
TS_HD T int_power(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b < 0) return T(0);
  }
  using U = wide_unsigned_t<T>;
  U base = static_cast<U>(a);
  U result = 1;
  auto e = static_cast<std::make_unsigned_t<T>>(b);
  while (e != 0) {
    if (e & 1u) result = static_cast<U>(result * base);
    base = static_cast<U>(base * base);
    e = static_cast<decltype(e)>(e >> 1);
  }
  return static_cast<T>(result);
}

// The multiply and square loops' product: NumPy's SIMD kernels (taken on every FMA
// machine) round a.imag * b.imag or a.imag * b.real once and fuse the rest, which also
// decides inf vs nan, e.g. (3+infj) * (FLT_MAX+0.5j) is -inf+infj, not nan+infj.
template <class C>
TS_HD C cmul_fused(C a, C b) {
  return C(std::fma(a.real(), b.real(), -(a.imag() * b.imag())),
           std::fma(a.real(), b.imag(), a.imag() * b.real()));
}

// npy_math's complex product and quotient (complex_type.h).
using complex_arith::cdiv;
using complex_arith::cmul;

// |z| as NumPy's SIMD absolute loop computes it (not C's hypot, which can differ in the
// last bit): larger * sqrt(fma(r, r, 1)) with r = smaller / larger; an infinite part wins
// over a NaN.
template <class C>
TS_HD real_t<C> cabs(C z) {
  using R = real_t<C>;
  constexpr R inf = std::numeric_limits<R>::infinity();
  constexpr R nan = std::numeric_limits<R>::quiet_NaN();
  R re = std::fabs(z.real()), im = std::fabs(z.imag());
  if (re == inf || im == inf) return inf;
  if (std::isnan(re) || std::isnan(im)) return nan;
  R larger = re > im ? re : im;
  R smaller = re > im ? im : re;
  R ratio = larger == 0 ? R(0) : smaller / larger;
  return std::sqrt(std::fma(ratio, ratio, R(1))) * larger;
}

// npy_cpow: exact answers for zero exponents and bases, repeated multiplication for small
// integral real exponents, the C library's cpow otherwise.
template <class C>
TS_HD C cpow(C a, C b) {
  using R = real_t<C>;
  R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  if (br == 0 && bi == 0) return C(R(1), R(0));  // 0**0 is 1 too
  if (ar == 0 && ai == 0) {
    if (br > 0) return C(R(0), R(0));
    return C(std::numeric_limits<R>::quiet_NaN(), std::numeric_limits<R>::quiet_NaN());
  }
  if (bi == 0 && br > -100 && br < 100 && static_cast<R>(static_cast<int>(br)) == br) {
    int n = static_cast<int>(br);
    if (n == 1) return a;
    if (n == 2) return cmul(a, a);
    if (n == 3) return cmul(a, cmul(a, a));
    if (n < 0) n = -n;
    // Starts from 1 + 0j and multiplies it in, as NumPy does: 1 * p is not exact for
    // infinite p.
    C acc(R(1), R(0));
    C p = a;
    int mask = 1;
    while (true) {
      if (n & mask) acc = cmul(acc, p);
      mask <<= 1;
      if (n < mask) break;
      p = cmul(p, p);
    }
    if (br < 0) acc = cdiv(C(R(1), R(0)), acc);
    return acc;
  }
  return complex_math::pow(a, b);
}

}  // namespace arith_detail

struct Add {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    using namespace arith_detail;
    if constexpr (std::is_same_v<T, bool>) {
      return a || b;
    } else if constexpr (is_int_v<T>) {
      return wrap_add(a, b);
    } else if constexpr (is_cplx_v<T>) {
      return T(a.real() + b.real(), a.imag() + b.imag());
    } else {
      return static_cast<T>(calc_t<T>(a) + calc_t<T>(b));
    }
  }
};

struct Subtract {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    using namespace arith_detail;
    if constexpr (is_int_v<T>) {
      return wrap_sub(a, b);
    } else if constexpr (is_cplx_v<T>) {
      return T(a.real() - b.real(), a.imag() - b.imag());
    } else {
      return static_cast<T>(calc_t<T>(a) - calc_t<T>(b));
    }
  }
};

struct Multiply {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    using namespace arith_detail;
    if constexpr (std::is_same_v<T, bool>) {
      return a && b;
    } else if constexpr (is_int_v<T>) {
      return wrap_mul(a, b);
    } else if constexpr (is_cplx_v<T>) {
      return cmul_fused(a, b);
    } else {
      return static_cast<T>(calc_t<T>(a) * calc_t<T>(b));
    }
  }
};

// multiply.accumulate's step (cumprod) along an axis of three or more: NumPy calls its
// multiply loop once per row with out[i-1] as an input, the operands overlap, and it falls
// back to its plain complex product, each product and sum rounded. (A row of two does not
// overlap and gets Multiply, the elementwise loop.) Results match bit for bit only by
// doing the same.
struct AccumulateMultiply {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    if constexpr (is_complex_type<T>::value) {
      return arith_detail::cmul(a, b);
    } else {
      return Multiply{}(a, b);
    }
  }
};

struct TrueDivide {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    using namespace arith_detail;
    if constexpr (is_cplx_v<T>) {
      return cdiv(a, b);
    } else {
      return static_cast<T>(calc_t<T>(a) / calc_t<T>(b));
    }
  }
};

struct Divmod {
  template <class T>
  TS_HD Pair<T, T> operator()(T a, T b) const {
    using namespace arith_detail;
    if constexpr (is_int_v<T>) {
      if (min_by_minus_one(a, b)) raise_overflow_flag();
      return int_divmod(a, b);
    } else {
      auto r = float_divmod(calc_t<T>(a), calc_t<T>(b));
      return {static_cast<T>(r.first), static_cast<T>(r.second)};
    }
  }
};

struct FloorDivide {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    using namespace arith_detail;
    if constexpr (is_int_v<T>) {
      if (min_by_minus_one(a, b)) raise_overflow_flag();
      return int_divmod(a, b).first;
    } else {
      // npy_floor_divide: a zero divisor gives a / b without divmod's work (and its flags).
      calc_t<T> x = a, y = b;
      return static_cast<T>(y ? float_divmod(x, y).first : x / y);
    }
  }
};

struct Remainder {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    using namespace arith_detail;
    if constexpr (is_int_v<T>) {
      return int_divmod(a, b).second;
    } else {
      // npy_remainder: a zero divisor gives fmod's nan without divmod's work (and flags).
      calc_t<T> x = a, y = b;
      return static_cast<T>(y ? float_divmod(x, y).second : std::fmod(x, y));
    }
  }
};

struct Fmod {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    using namespace arith_detail;
    if constexpr (is_int_v<T>) {
      // C's truncating remainder; NumPy gives 0 for a zero divisor and for INT_MIN % -1.
      if (b == 0) raise_divide_by_zero_flag();
      if (b == 0 || min_by_minus_one(a, b)) return T(0);
      return static_cast<T>(a % b);
    } else {
      return static_cast<T>(std::fmod(calc_t<T>(a), calc_t<T>(b)));
    }
  }
};

struct Power {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    using namespace arith_detail;
    if constexpr (is_int_v<T>) {
      return int_power(a, b);
    } else if constexpr (is_cplx_v<T>) {
      return cpow(a, b);
    } else {
      return static_cast<T>(std::pow(calc_t<T>(a), calc_t<T>(b)));
    }
  }
};

// NumPy's float_power loops are power's double and complex128 loops.
struct FloatPower {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    return Power{}(a, b);
  }
};

struct Negative {
  template <class T>
  TS_HD T operator()(T x) const {
    using namespace arith_detail;
    if constexpr (is_int_v<T>) {
      return wrap_sub(T(0), x);
    } else if constexpr (is_cplx_v<T>) {
      return T(-x.real(), -x.imag());
    } else {
      return static_cast<T>(-calc_t<T>(x));
    }
  }
};

struct Positive {
  template <class T>
  TS_HD T operator()(T x) const {
    return x;
  }
};

struct Absolute {
  template <class T>
  TS_HD arith_detail::real_t<T> operator()(T x) const {
    using namespace arith_detail;
    if constexpr (std::is_same_v<T, bool> || std::is_unsigned_v<T>) {
      return x;
    } else if constexpr (is_int_v<T>) {
      return x < 0 ? wrap_sub(T(0), x) : x;  // abs(INT_MIN) wraps to INT_MIN
    } else if constexpr (is_cplx_v<T>) {
      return cabs(x);
    } else {
      return static_cast<T>(std::fabs(calc_t<T>(x)));
    }
  }
};

struct Fabs {
  template <class T>
  TS_HD T operator()(T x) const {
    return static_cast<T>(std::fabs(arith_detail::calc_t<T>(x)));
  }
};

struct Sign {
  template <class T>
  TS_HD T operator()(T x) const {
    using namespace arith_detail;
    if constexpr (std::is_unsigned_v<T>) {
      return static_cast<T>(x != 0);
    } else if constexpr (is_int_v<T>) {
      return static_cast<T>((x > 0) - (x < 0));
    } else if constexpr (is_cplx_v<T>) {
      // NumPy 2: z / |z|, with 0 for 0, a unit along an infinite axis, nan otherwise.
      using R = real_t<T>;
      R re = x.real(), im = x.imag();
      R abs = std::hypot(re, im);
      constexpr R nan = std::numeric_limits<R>::quiet_NaN();
      if (std::isnan(abs)) return T(nan, nan);
      if (std::isinf(abs)) {
        if (std::isinf(re)) {
          if (std::isinf(im)) return T(nan, nan);
          return T(re > 0 ? R(1) : R(-1), R(0));
        }
        return T(R(0), im > 0 ? R(1) : R(-1));
      }
      if (abs == 0) return T(R(0), R(0));
      return T(re / abs, im / abs);
    } else {
      // -0.0 gives +0.0 and nan gives itself, raising no invalid flag.
      calc_t<T> v = x;
      return std::isgreater(v, calc_t<T>(0))
                 ? T(1)
                 : (std::isless(v, calc_t<T>(0)) ? T(-1) : (v == 0 ? T(0) : x));
    }
  }
};

struct Reciprocal {
  template <class T>
  TS_HD T operator()(T x) const {
    using namespace arith_detail;
    if constexpr (is_int_v<T>) {
      // NumPy computes 1.0 / x in double and converts with C's cast: 0 for |x| > 1, and
      // 1 / 0 = inf converts to whatever the hardware gives (INT_MIN for int32/int64).
      // The conversion of 1 / 0 = inf is NumPy's invalid value in reciprocal.
      if (x == 0) raise_invalid_flag();
      return cast_value<T>(1.0 / static_cast<double>(x));
    } else if constexpr (is_cplx_v<T>) {
      using R = real_t<T>;
      R re = x.real(), im = x.imag();
      if (std::fabs(im) <= std::fabs(re)) {
        R r = im / re;
        R d = re + im * r;
        return T(R(1) / d, -r / d);
      }
      R r = re / im;
      R d = re * r + im;
      return T(r / d, R(-1) / d);
    } else {
      return static_cast<T>(calc_t<T>(1) / calc_t<T>(x));
    }
  }
};

// NumPy's square is multiply(x, x) (no bool loop, so Multiply's bool case never applies).
struct Square {
  template <class T>
  TS_HD T operator()(T x) const {
    return Multiply{}(x, x);
  }
};

struct Conjugate {
  template <class T>
  TS_HD T operator()(T x) const {
    if constexpr (is_complex_type<T>::value) {
      return T(x.real(), -x.imag());
    } else {
      return x;
    }
  }
};

}  // namespace tessera::kernels
