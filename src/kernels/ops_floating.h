#pragma once
// Floating-point classification and manipulation, as NumPy computes it.
//
// Most half cases go through float like NumPy's half loops do, but NumPy implements
// copysign, nextafter and spacing for half directly on the 16-bit pattern, and its half
// spacing differs from the float/double one (it is never negative, and for a negative
// power of two it is the gap towards zero); those cases are reproduced bit for bit.

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/defs.h"
#include "kernels/ops_exp_log.h"  // detail:: half conversions
#include "kernels/element_types.h"

namespace tessera::kernels {

namespace detail {

template <class T>
struct float_bits;
template <>
struct float_bits<half> {
  using type = uint16_t;
};
template <>
struct float_bits<float> {
  using type = uint32_t;
};
template <>
struct float_bits<double> {
  using type = uint64_t;
};

template <class T>
TS_HD typename float_bits<T>::type to_bits(T x) {
  return std::bit_cast<typename float_bits<T>::type>(x);
}

template <class T>
TS_HD T from_bits(typename float_bits<T>::type b) {
  return std::bit_cast<T>(b);
}

// Classification of a real value; half is widened first because the std:: overloads do
// not cover it (the widening keeps nan, inf and the sign).
template <class T>
TS_HD auto widen_half(T x) {
  if constexpr (is_half_v<T>) {
    return static_cast<float>(x);
  } else {
    return x;
  }
}

inline constexpr uint16_t kHalfNan = 0x7e00u;  // NPY_HALF_NAN

// npy_half_nextafter: step the bit pattern one unit towards y; overflow when a finite x
// steps to an infinity.
TS_HD uint16_t half_nextafter_bits(uint16_t x, uint16_t y) {
  const bool x_nan = (x & 0x7c00u) == 0x7c00u && (x & 0x03ffu) != 0;
  const bool y_nan = (y & 0x7c00u) == 0x7c00u && (y & 0x03ffu) != 0;
  if (x_nan || y_nan) return kHalfNan;
  // Equal inputs (+0 and -0 included) give x back, unlike C's nextafter, which gives y.
  if (x == y || ((x | y) & 0x7fffu) == 0) return x;
  if ((x & 0x7fffu) == 0) return static_cast<uint16_t>((y & 0x8000u) + 1);
  bool towards_zero;
  if (!(x & 0x8000u)) {
    towards_zero = static_cast<int16_t>(x) > static_cast<int16_t>(y);
  } else {
    towards_zero = !(y & 0x8000u) || (x & 0x7fffu) > (y & 0x7fffu);
  }
  const auto result = static_cast<uint16_t>(towards_zero ? x - 1 : x + 1);
  if ((result & 0x7fffu) == 0x7c00u && (x & 0x7c00u) != 0x7c00u) raise_overflow_flag();
  return result;
}

// npy_half_spacing: the gap to the next half of larger magnitude, returned as a positive
// value, except that for negative powers of two it is the (smaller) gap towards zero.
TS_HD uint16_t half_spacing_bits(uint16_t h) {
  const uint16_t exp = h & 0x7c00u;
  const uint16_t sig = h & 0x03ffu;
  if (exp == 0x7c00u) {
    raise_invalid_flag();
    return kHalfNan;
  }
  if (h == 0x7bffu) {  // the largest half steps to +inf
    raise_overflow_flag();
    return 0x7c00u;
  }
  if ((h & 0x8000u) && sig == 0) {
    if (exp > 0x2c00u) return static_cast<uint16_t>(exp - 0x2c00u);
    if (exp > 0x0400u) return static_cast<uint16_t>(1u << ((exp >> 10) - 2));
    return 0x0001u;
  }
  if (exp > 0x2800u) return static_cast<uint16_t>(exp - 0x2800u);
  if (exp > 0x0400u) return static_cast<uint16_t>(1u << ((exp >> 10) - 1));
  return 0x0001u;
}

}  // namespace detail

struct Isnan {
  template <class T>
  TS_HD bool operator()(T x) const {
    if constexpr (std::is_integral_v<T>) {
      return false;
    } else if constexpr (is_complex_type<T>::value) {
      return std::isnan(x.real()) || std::isnan(x.imag());
    } else {
      return std::isnan(detail::widen_half(x));
    }
  }
};

// Complex: true if either part is infinite, even when the other one is nan.
struct Isinf {
  template <class T>
  TS_HD bool operator()(T x) const {
    if constexpr (std::is_integral_v<T>) {
      return false;
    } else if constexpr (is_complex_type<T>::value) {
      return std::isinf(x.real()) || std::isinf(x.imag());
    } else {
      return std::isinf(detail::widen_half(x));
    }
  }
};

struct Isfinite {
  template <class T>
  TS_HD bool operator()(T x) const {
    if constexpr (std::is_integral_v<T>) {
      return true;
    } else if constexpr (is_complex_type<T>::value) {
      return std::isfinite(x.real()) && std::isfinite(x.imag());
    } else {
      return std::isfinite(detail::widen_half(x));
    }
  }
};

// half reads its sign bit directly: a GPU's half-to-float conversion makes every nan the
// canonical positive one, which would lose the sign of -nan.
struct Signbit {
  template <class T>
  TS_HD bool operator()(T x) const {
    if constexpr (detail::is_half_v<T>) {
      return (detail::to_bits(x) & 0x8000u) != 0;
    } else {
      return std::signbit(x);
    }
  }
};

struct Copysign {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    if constexpr (detail::is_half_v<T>) {
      const uint16_t bits = (detail::to_bits(a) & 0x7fffu) | (detail::to_bits(b) & 0x8000u);
      return detail::from_bits<half>(static_cast<uint16_t>(bits));
    } else {
      return std::copysign(a, b);
    }
  }
};

struct Nextafter {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    if constexpr (detail::is_half_v<T>) {
      return detail::from_bits<half>(
          detail::half_nextafter_bits(detail::to_bits(a), detail::to_bits(b)));
    } else {
      return std::nextafter(a, b);
    }
  }
};

// float/double: NumPy's npy_spacing, i.e. the step to the neighbour of larger magnitude,
// carrying x's sign; nan for infinities, the smallest subnormal for zeros.
struct Spacing {
  template <class T>
  TS_HD T operator()(T x) const {
    if constexpr (detail::is_half_v<T>) {
      return detail::from_bits<half>(detail::half_spacing_bits(detail::to_bits(x)));
    } else {
      if (std::isinf(x)) return std::numeric_limits<T>::quiet_NaN();
      T next;
      if (std::isnan(x)) {
        next = x;
      } else if (x == T(0)) {
        next = std::numeric_limits<T>::denorm_min();
      } else {
        next = detail::from_bits<T>(detail::to_bits(x) + 1);
      }
      // NumPy steps with nextafter, whose flags it reports: overflow past the largest
      // value, underflow into the subnormals.
      if (std::isinf(next)) raise_overflow_flag();
      if (std::fpclassify(next) == FP_SUBNORMAL) raise_underflow_flag();
      return next - x;
    }
  }
};

// NumPy's loops take an int32 or int64 exponent; int64 values outside int's range are
// clamped, which cannot change the (already overflowed or underflowed) result.
struct Ldexp {
  template <class T, class I>
  TS_HD T operator()(T x, I e) const {
    if constexpr (detail::is_half_v<T>) {
      return detail::float_to_half((*this)(detail::half_to_float(x), e));
    } else {
      int n;
      if constexpr (sizeof(I) > sizeof(int)) {
        constexpr I lo = std::numeric_limits<int>::min();
        constexpr I hi = std::numeric_limits<int>::max();
        n = static_cast<int>(e < lo ? lo : (e > hi ? hi : e));
      } else {
        n = static_cast<int>(e);
      }
      return std::ldexp(x, n);
    }
  }
};

// (mantissa, exponent); for zero, inf and nan the exponent is 0 and the mantissa is x.
struct Frexp {
  template <class T>
  TS_HD Pair<T, int32_t> operator()(T x) const {
    if constexpr (detail::is_half_v<T>) {
      const Pair<float, int32_t> r = (*this)(detail::half_to_float(x));
      return {detail::float_to_half(r.first), r.second};
    } else {
      int e = 0;
      const T m = std::frexp(x, &e);
      return {m, static_cast<int32_t>(e)};
    }
  }
};

// (fractional part, integral part), NumPy's output order; both carry x's sign.
struct Modf {
  template <class T>
  TS_HD Pair<T, T> operator()(T x) const {
    if constexpr (detail::is_half_v<T>) {
      const Pair<float, float> r = (*this)(detail::half_to_float(x));
      return {detail::float_to_half(r.first), detail::float_to_half(r.second)};
    } else {
      T ip;
      const T fp = std::modf(x, &ip);
      return {fp, ip};
    }
  }
};

struct Heaviside {
  template <class T>
  TS_HD T operator()(T x, T h0) const {
    if constexpr (detail::is_half_v<T>) {
      return detail::float_to_half((*this)(detail::half_to_float(x), detail::half_to_float(h0)));
    } else {
      if (std::isnan(x)) return std::numeric_limits<T>::quiet_NaN();
      if (x == T(0)) return h0;
      return x < T(0) ? T(0) : T(1);
    }
  }
};

}  // namespace tessera::kernels
