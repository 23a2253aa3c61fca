#pragma once
// Logical, bitwise, shift, gcd and lcm ufuncs, as NumPy 2.4's loops compute them.

#include <bit>
#include <complex>
#include <cstdint>
#include <type_traits>

#include "kernels/defs.h"
#include "kernels/element_types.h"

namespace tessera::kernels {

namespace logic_detail {

// Truthiness as NumPy's logical loops test it: non-zero, NaN included; a complex number is
// true when either part is.
template <class T>
TS_HD bool truth(T v) {
  if constexpr (is_complex_type<T>::value) {
    return v.real() != 0 || v.imag() != 0;
  } else if constexpr (std::is_same_v<T, half>) {
    return static_cast<float>(v) != 0.0f;
  } else {
    return v != T(0);
  }
}

// Wide enough that arithmetic on it never promotes to signed int.
template <class T>
using wide_unsigned_t =
    std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

// Magnitude as an unsigned value: |INT_MIN| is representable there.
template <class T>
TS_HD std::make_unsigned_t<T> magnitude(T v) {
  using U = std::make_unsigned_t<T>;
  if constexpr (std::is_signed_v<T>) {
    return v < 0 ? static_cast<U>(U(0) - static_cast<U>(v)) : static_cast<U>(v);
  } else {
    return v;
  }
}

template <class U>
TS_HD U gcd_unsigned(U a, U b) {
  while (a != 0) {
    U c = a;
    a = static_cast<U>(b % a);
    b = c;
  }
  return b;
}

// A shift count is in range when 0 <= b < bits; NumPy defines the others instead of
// leaving them to the hardware.
template <class T>
TS_HD bool shift_in_range(T b) {
  constexpr int bits = static_cast<int>(sizeof(T) * 8);
  if constexpr (std::is_signed_v<T>) {
    return b >= 0 && static_cast<int64_t>(b) < bits;
  } else {
    return static_cast<uint64_t>(b) < static_cast<uint64_t>(bits);
  }
}

}  // namespace logic_detail

struct LogicalAnd {
  template <class T>
  TS_HD bool operator()(T a, T b) const {
    return logic_detail::truth(a) && logic_detail::truth(b);
  }
};

struct LogicalOr {
  template <class T>
  TS_HD bool operator()(T a, T b) const {
    return logic_detail::truth(a) || logic_detail::truth(b);
  }
};

struct LogicalXor {
  template <class T>
  TS_HD bool operator()(T a, T b) const {
    return logic_detail::truth(a) != logic_detail::truth(b);
  }
};

struct LogicalNot {
  template <class T>
  TS_HD bool operator()(T x) const {
    return !logic_detail::truth(x);
  }
};

struct BitwiseAnd {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    return static_cast<T>(a & b);
  }
};

struct BitwiseOr {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    return static_cast<T>(a | b);
  }
};

struct BitwiseXor {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    return static_cast<T>(a ^ b);
  }
};

struct Invert {
  template <class T>
  TS_HD T operator()(T x) const {
    if constexpr (std::is_same_v<T, bool>) {
      return !x;  // NumPy's ~ on bool is logical not
    } else {
      return static_cast<T>(~x);
    }
  }
};

// NumPy: a << b is 0 once b reaches the bit width (or is negative).
struct LeftShift {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    using U = logic_detail::wide_unsigned_t<T>;
    if (!logic_detail::shift_in_range(b)) return T(0);
    return static_cast<T>(static_cast<U>(static_cast<U>(a) << b));
  }
};

// NumPy: a >> b with b out of range is -1 for negative a (the sign fills) and 0 otherwise.
struct RightShift {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    if (!logic_detail::shift_in_range(b)) {
      if constexpr (std::is_signed_v<T>) {
        if (a < 0) return T(-1);
      }
      return T(0);
    }
    return static_cast<T>(a >> b);  // arithmetic for signed types (C++20)
  }
};

// gcd(|a|, |b|) computed on magnitudes, so gcd(INT_MIN, 0) is 2^(bits-1), which wraps back
// to INT_MIN as NumPy's result does.
struct Gcd {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    using namespace logic_detail;
    return static_cast<T>(gcd_unsigned(magnitude(a), magnitude(b)));
  }
};

// |a| / gcd * |b|, wrapping on overflow; 0 when both are 0.
struct Lcm {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    using namespace logic_detail;
    using U = std::make_unsigned_t<T>;
    using W = wide_unsigned_t<T>;
    U ua = magnitude(a), ub = magnitude(b);
    U g = gcd_unsigned(ua, ub);
    if (g == 0) return T(0);
    return static_cast<T>(static_cast<W>(static_cast<W>(ua / g) * static_cast<W>(ub)));
  }
};

}  // namespace tessera::kernels

namespace tessera::kernels {

// The number of 1 bits in |x| (NumPy counts the magnitude of negative integers).
struct BitwiseCount {
  template <class T>
  TS_HD uint8_t operator()(T x) const {
    using U = std::make_unsigned_t<T>;
    U magnitude = static_cast<U>(x);
    if constexpr (std::is_signed_v<T>) {
      if (x < 0) magnitude = static_cast<U>(U(0) - magnitude);
    }
    return static_cast<uint8_t>(std::popcount(static_cast<unsigned long long>(magnitude)));
  }
};

}  // namespace tessera::kernels
