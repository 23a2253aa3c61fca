#pragma once
// Value conversion between dtypes, as NumPy's unsafe cast converts (astype, assignment of
// arrays): complex to real keeps the real part, anything to bool tests for non-zero,
// integers wrap, and float to integer truncates toward zero. Float values that the integer
// type cannot hold (nan, inf, out of range) are undefined in C++; here they convert the way
// x86's truncating conversions do, which is what NumPy's C casts produce on this hardware.

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/element_types.h"

namespace tessera::kernels {

namespace cast_detail {

// cvttsd2si semantics: truncation, and the "integer indefinite" value (the minimum) for
// nan and out-of-range inputs.
template <typename I>
TS_HD I truncate_to(double v) {
  constexpr double lo = static_cast<double>(std::numeric_limits<I>::min());
  constexpr double hi = -lo;  // 2^(bits-1)
  if (!(v >= lo && v < hi)) return std::numeric_limits<I>::min();
  return static_cast<I>(v);
}

// Float to an integer type, following what compiled C code does on x86-64: 8/16/32-bit
// signed and 8/16-bit unsigned targets go through a 32-bit conversion, uint32 and int64
// through a 64-bit one, uint64 through the compiler's unsigned sequence.
template <typename To>
TS_HD To float_to_int(double v) {
  if constexpr (std::is_same_v<To, uint64_t>) {
    constexpr double two63 = 9223372036854775808.0;
    if (!(v >= two63)) return static_cast<uint64_t>(truncate_to<int64_t>(v));
    return static_cast<uint64_t>(truncate_to<int64_t>(v - two63)) ^ (uint64_t{1} << 63);
  } else if constexpr (std::is_same_v<To, int64_t> || std::is_same_v<To, uint32_t>) {
    return static_cast<To>(truncate_to<int64_t>(v));
  } else {
    return static_cast<To>(truncate_to<int32_t>(v));
  }
}

template <typename T>
TS_HD auto real_part(T v) {
  if constexpr (is_complex_type<T>::value) {
    return v.real();
  } else {
    return v;
  }
}

}  // namespace cast_detail

template <typename To, typename From>
TS_HD To cast_value(From v) {
  if constexpr (std::is_same_v<To, From>) {
    return v;
  } else if constexpr (std::is_same_v<To, bool>) {
    if constexpr (is_complex_type<From>::value) {
      return v.real() != 0 || v.imag() != 0;
    } else {
      return v != From(0);
    }
  } else if constexpr (is_complex_type<To>::value) {
    using R = typename To::value_type;
    if constexpr (is_complex_type<From>::value) {
      return To(static_cast<R>(v.real()), static_cast<R>(v.imag()));
    } else {
      return To(cast_value<R>(v), R(0));
    }
  } else if constexpr (is_complex_type<From>::value) {
    return cast_value<To>(v.real());
  } else if constexpr (std::is_integral_v<To> && !std::is_integral_v<From>) {
    return cast_detail::float_to_int<To>(static_cast<double>(v));
  } else {
    return static_cast<To>(v);
  }
}

}  // namespace tessera::kernels
