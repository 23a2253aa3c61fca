#pragma once
// arange's and linspace's element i, computed in the order and precision NumPy's are (its
// `fill` for arange, function_base.linspace's arithmetic for linspace), so that results
// match it bit for bit: once for the CPU loops (backend/cpu/range_fill.cpp) and the CUDA
// fill kernels (backend/cuda/fill_kernel.cpp).

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "kernels/defs.h"
#include "kernels/element_types.h"

namespace tessera::kernels {

// Element i >= 2 of arange: first + i * (second - first), in the arithmetic NumPy's fill
// uses for T. Branch-free, so that loops over it vectorize. Booleans have no ranges longer
// than 2 (callers check).
template <class T>
TS_HD T arange_step(int64_t i, T first, T second) {
  if constexpr (std::is_same_v<T, bool>) {
    (void)i;
    (void)first;
    return second;
  } else if constexpr (std::is_integral_v<T>) {
    // NumPy computes in npy_intp and wraps to T; unsigned arithmetic has the same low bits.
    const T delta = static_cast<T>(second - first);
    const uint64_t s = static_cast<uint64_t>(static_cast<std::make_signed_t<T>>(first));
    const uint64_t d = static_cast<uint64_t>(static_cast<std::make_signed_t<T>>(delta));
    return static_cast<T>(s + static_cast<uint64_t>(i) * d);
  } else if constexpr (std::is_same_v<T, half>) {
    const float start = static_cast<float>(first);
    const float delta = static_cast<float>(second) - start;
    return static_cast<half>(start + static_cast<float>(i) * delta);
  } else if constexpr (is_complex_type<T>::value) {
    using R = typename T::value_type;
    const R sr = first.real(), si = first.imag();
    const R dr = second.real() - sr, di = second.imag() - si;
    return T(sr + static_cast<R>(i) * dr, si + static_cast<R>(i) * di);
  } else {
    const T delta = second - first;
    return first + static_cast<T>(i) * delta;
  }
}

// Element i of arange: the two values given, then arange_step's.
template <class T>
TS_HD T arange_value(int64_t i, T first, T second) {
  return i == 0 ? first : i == 1 ? second : arange_step(i, first, second);
}

namespace range_detail {

// NumPy's scalar arithmetic for linspace's computation types: half goes through float per
// operation, complex uses NumPy's component formulas.
template <class T, class = void>
struct Arith {
  static TS_HD T mul(T a, T b) { return a * b; }
  static TS_HD T add(T a, T b) { return a + b; }
  static TS_HD T div(T a, int64_t d) { return a / static_cast<T>(d); }
  static TS_HD T floor(T a) { return std::floor(a); }
  static TS_HD T from(int64_t i) { return static_cast<T>(i); }
};
template <>
struct Arith<half> {
  static TS_HD half mul(half a, half b) {
    return half(static_cast<float>(a) * static_cast<float>(b));
  }
  static TS_HD half add(half a, half b) {
    return half(static_cast<float>(a) + static_cast<float>(b));
  }
  static TS_HD half div(half a, int64_t d) {
    return half(static_cast<float>(a) / static_cast<float>(half(static_cast<float>(d))));
  }
  static TS_HD half floor(half a) { return half(std::floor(static_cast<float>(a))); }
  static TS_HD half from(int64_t i) { return half(static_cast<float>(i)); }
};
template <class C>
struct Arith<C, std::enable_if_t<is_complex_type<C>::value>> {
  using R = typename C::value_type;
  static TS_HD C mul(C a, C b) {
    return C(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  }
  static TS_HD C add(C a, C b) { return C(a.real() + b.real(), a.imag() + b.imag()); }
  static TS_HD C div(C a, int64_t d) {  // NumPy's Smith division by (d + 0j)
    const R scl = R(1) / static_cast<R>(d);
    return C(a.real() * scl, a.imag() * scl);
  }
  static TS_HD C floor(C a) { return a; }  // complex results are never floored
  static TS_HD C from(int64_t i) { return C(static_cast<R>(i), R(0)); }
};

}  // namespace range_detail

// linspace's element i of n: y = (i / div) * delta when `divide_first` (NumPy's path for a
// step that underflows to zero), else i * step; then y + start; `stop` itself for the last
// element when `set_last`; floored when `floor`.
template <class T>
struct LinspaceValues {
  T start, stop, step, delta;
  int64_t div;
  bool divide_first, set_last, floor;

  TS_HD T operator()(int64_t i, int64_t n) const {
    using A = range_detail::Arith<T>;
    T y = divide_first ? A::mul(A::div(A::from(i), div), delta) : A::mul(A::from(i), step);
    y = A::add(y, start);
    if (set_last && i == n - 1) y = stop;
    return floor ? A::floor(y) : y;
  }
};

}  // namespace tessera::kernels
