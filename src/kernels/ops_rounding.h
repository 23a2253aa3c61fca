#pragma once
// Rounding ufuncs. NumPy's floor/ceil/trunc loops for bool and integers return the input
// unchanged; half rounds through float (exact: every half is a float and the rounded
// value is representable again).

#include <cmath>
#include <complex>
#include <type_traits>

#include "kernels/defs.h"
#include "kernels/element_types.h"

namespace tessera::kernels {

namespace round_detail {

template <class T>
inline constexpr bool is_real_float_v = std::is_floating_point_v<T> || std::is_same_v<T, half>;

// Applies Fn to a real float (half through float) and passes bool and integers through.
template <class Fn, class T>
TS_HD T apply(T x) {
  if constexpr (is_real_float_v<T>) {
    using C = std::conditional_t<std::is_same_v<T, half>, float, T>;
    return static_cast<T>(Fn{}(static_cast<C>(x)));
  } else {
    return x;
  }
}

struct floor_fn {
  template <class V>
  TS_HD V operator()(V v) const {
    return std::floor(v);
  }
};
struct ceil_fn {
  template <class V>
  TS_HD V operator()(V v) const {
    return std::ceil(v);
  }
};
struct trunc_fn {
  template <class V>
  TS_HD V operator()(V v) const {
    return std::trunc(v);
  }
};
// Round half to even in the default rounding mode; nearbyint, unlike rint, leaves the
// inexact flag alone.
struct rint_fn {
  template <class V>
  TS_HD V operator()(V v) const {
    return std::nearbyint(v);
  }
};

}  // namespace round_detail

struct Floor {
  template <class T>
  TS_HD T operator()(T x) const {
    return round_detail::apply<round_detail::floor_fn>(x);
  }
};

struct Ceil {
  template <class T>
  TS_HD T operator()(T x) const {
    return round_detail::apply<round_detail::ceil_fn>(x);
  }
};

struct Trunc {
  template <class T>
  TS_HD T operator()(T x) const {
    return round_detail::apply<round_detail::trunc_fn>(x);
  }
};

// Complex rounds each part.
struct Rint {
  template <class T>
  TS_HD T operator()(T x) const {
    if constexpr (is_complex_type<T>::value) {
      return T(round_detail::rint_fn{}(x.real()), round_detail::rint_fn{}(x.imag()));
    } else {
      return round_detail::apply<round_detail::rint_fn>(x);
    }
  }
};

}  // namespace tessera::kernels
