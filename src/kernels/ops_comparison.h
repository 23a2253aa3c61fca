#pragma once
// Comparison ufuncs and maximum/minimum/fmax/fmin, as NumPy 2.4's loops compute them.
// Complex numbers order lexicographically (real part, then imaginary part), with NumPy's
// NaN rules; half compares through float, which is exact. The floating-point flags they
// raise match NumPy's warnings: real comparisons use the quiet forms (isless, ...), which
// raise no invalid flag for NaN, as NumPy's SIMD comparisons raise none.

#include <cmath>
#include <complex>
#include <type_traits>

#include "kernels/defs.h"
#include "kernels/element_types.h"

namespace tessera::kernels {

namespace cmp_detail {

template <class T>
inline constexpr bool is_cplx_v = is_complex_type<T>::value;
template <class T>
using calc_t = std::conditional_t<std::is_same_v<T, half>, float, T>;

// Integers of different signedness (the int64/uint64 loops) compare by value: a negative
// signed operand is below every unsigned one.
template <class A, class B>
TS_HD bool lt(A a, B b) {
  if constexpr (std::is_integral_v<A> && std::is_integral_v<B> &&
                std::is_signed_v<A> != std::is_signed_v<B>) {
    if constexpr (std::is_signed_v<A>) {
      return a < 0 || static_cast<std::make_unsigned_t<A>>(a) < b;
    } else {
      return b >= 0 && a < static_cast<std::make_unsigned_t<B>>(b);
    }
  } else if constexpr (std::is_floating_point_v<calc_t<A>>) {
    return std::isless(calc_t<A>(a), calc_t<B>(b));
  } else {
    return a < b;
  }
}
template <class A, class B>
TS_HD bool eq(A a, B b) {
  if constexpr (std::is_integral_v<A> && std::is_integral_v<B> &&
                std::is_signed_v<A> != std::is_signed_v<B>) {
    if constexpr (std::is_signed_v<A>) {
      return a >= 0 && static_cast<std::make_unsigned_t<A>>(a) == b;
    } else {
      return b >= 0 && a == static_cast<std::make_unsigned_t<B>>(b);
    }
  } else {
    return calc_t<A>(a) == calc_t<B>(b);
  }
}
// For floats not !lt(b, a), which a NaN operand would make true.
template <class A, class B>
TS_HD bool le(A a, B b) {
  if constexpr (std::is_floating_point_v<calc_t<A>>) {
    return std::islessequal(calc_t<A>(a), calc_t<B>(b));
  } else {
    return !lt(b, a);
  }
}

// NumPy's CGT/CGE/CLT/CLE: the real parts decide only when neither imaginary part is NaN.
// The comparison ufuncs use them with ordered operators, which raise the invalid flag for
// NaN parts (NumPy warns there too); maximum/minimum/fmax/fmin clear the flags afterwards,
// so they use the quiet forms (Quiet = true).
template <bool Quiet, class R>
TS_HD bool gt_(R a, R b) {
  if constexpr (Quiet) {
    return std::isgreater(a, b);
  } else {
    return a > b;
  }
}
template <bool Quiet, class R>
TS_HD bool ge_(R a, R b) {
  if constexpr (Quiet) {
    return std::isgreaterequal(a, b);
  } else {
    return a >= b;
  }
}
template <bool Quiet, class C>
TS_HD bool cgt(C x, C y) {
  return (gt_<Quiet>(x.real(), y.real()) && !std::isnan(x.imag()) && !std::isnan(y.imag())) ||
         (x.real() == y.real() && gt_<Quiet>(x.imag(), y.imag()));
}
template <bool Quiet, class C>
TS_HD bool cge(C x, C y) {
  return (gt_<Quiet>(x.real(), y.real()) && !std::isnan(x.imag()) && !std::isnan(y.imag())) ||
         (x.real() == y.real() && ge_<Quiet>(x.imag(), y.imag()));
}
template <bool Quiet, class C>
TS_HD bool clt(C x, C y) {
  return cgt<Quiet>(y, x);
}
template <bool Quiet, class C>
TS_HD bool cle(C x, C y) {
  return cge<Quiet>(y, x);
}

template <class T>
TS_HD bool has_nan(T v) {
  if constexpr (is_cplx_v<T>) {
    return std::isnan(v.real()) || std::isnan(v.imag());
  } else if constexpr (std::is_floating_point_v<calc_t<T>>) {
    return std::isnan(calc_t<T>(v));
  } else {
    (void)v;
    return false;
  }
}

}  // namespace cmp_detail

// NumPy's sort order (sort, argsort, searchsorted): real numbers ascending, NaN last;
// complex by real part then imaginary part, with the NaN cases ordered
// [R + Rj, R + nanj, nan + Rj, nan + nanj]. The CPU's sorts and the CUDA device's
// (backend/cuda/device/sort.cuh) both compare with it.
template <class T>
TS_HD bool sort_less(T a, T b) {
  using namespace cmp_detail;
  if constexpr (is_cplx_v<T>) {
    const auto ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
    if (ar < br) return ai == ai || bi != bi;
    if (ar > br) return bi != bi && ai == ai;
    if (ar == br || (ar != ar && br != br)) return ai < bi || (bi != bi && ai == ai);
    return br != br;
  } else if constexpr (std::is_integral_v<T>) {
    return a < b;
  } else {
    const calc_t<T> x = calc_t<T>(a), y = calc_t<T>(b);
    return x < y || (y != y && x == x);
  }
}

// argmax's (Max) and argmin's order: whether v displaces the best value so far. Strictly,
// so that of equal values the first index stays; the first NaN beats every number and is
// never displaced; complex values compare lexicographically. The CPU's arg_reduce and the
// CUDA generator's (backend/cuda/device/fold.cuh) both scan with it.
template <bool Max, class T>
TS_HD bool arg_beats(T v, T best) {
  using namespace cmp_detail;
  if (has_nan(best)) return false;
  if (has_nan(v)) return true;
  if constexpr (is_cplx_v<T>) {
    if (v.real() != best.real()) return Max ? v.real() > best.real() : v.real() < best.real();
    return Max ? v.imag() > best.imag() : v.imag() < best.imag();
  } else {
    return Max ? calc_t<T>(best) < calc_t<T>(v) : calc_t<T>(v) < calc_t<T>(best);
  }
}

struct Equal {
  template <class A, class B>
  TS_HD bool operator()(A a, B b) const {
    if constexpr (cmp_detail::is_cplx_v<A>) {
      return a.real() == b.real() && a.imag() == b.imag();
    } else {
      return cmp_detail::eq(a, b);
    }
  }
};

struct NotEqual {
  template <class A, class B>
  TS_HD bool operator()(A a, B b) const {
    if constexpr (cmp_detail::is_cplx_v<A>) {
      return a.real() != b.real() || a.imag() != b.imag();
    } else {
      return !cmp_detail::eq(a, b);  // true when either is NaN
    }
  }
};

struct Less {
  template <class A, class B>
  TS_HD bool operator()(A a, B b) const {
    if constexpr (cmp_detail::is_cplx_v<A>) {
      return cmp_detail::clt<false>(a, b);
    } else {
      return cmp_detail::lt(a, b);
    }
  }
};

struct LessEqual {
  template <class A, class B>
  TS_HD bool operator()(A a, B b) const {
    if constexpr (cmp_detail::is_cplx_v<A>) {
      return cmp_detail::cle<false>(a, b);
    } else {
      return cmp_detail::le(a, b);
    }
  }
};

struct Greater {
  template <class A, class B>
  TS_HD bool operator()(A a, B b) const {
    if constexpr (cmp_detail::is_cplx_v<A>) {
      return cmp_detail::cgt<false>(a, b);
    } else {
      return cmp_detail::lt(b, a);
    }
  }
};

struct GreaterEqual {
  template <class A, class B>
  TS_HD bool operator()(A a, B b) const {
    if constexpr (cmp_detail::is_cplx_v<A>) {
      return cmp_detail::cge<false>(a, b);
    } else {
      return cmp_detail::le(b, a);
    }
  }
};

// maximum/minimum propagate NaN: a NaN first operand wins, else a NaN second one (for
// complex, NaN in either part). fmax/fmin prefer the operand that is not NaN, and with two
// NaNs return the first. Ties of -0.0 and 0.0 follow the loops: float and double (x86's
// maxps/minps, in NumPy's SIMD and scalar paths alike) return the second operand; half
// and complex (>= and <= tests) return the first.
struct Maximum {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    using namespace cmp_detail;
    if constexpr (is_cplx_v<T>) {
      return (has_nan(a) || cge<true>(a, b)) ? a : b;
    } else if constexpr (std::is_same_v<T, half>) {
      return (le(b, a) || has_nan(a)) ? a : b;
    } else {
      return (has_nan(a) || lt(b, a)) ? a : b;
    }
  }
};

struct Minimum {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    using namespace cmp_detail;
    if constexpr (is_cplx_v<T>) {
      return (has_nan(a) || cle<true>(a, b)) ? a : b;
    } else if constexpr (std::is_same_v<T, half>) {
      return (le(a, b) || has_nan(a)) ? a : b;
    } else {
      return (has_nan(a) || lt(a, b)) ? a : b;
    }
  }
};

struct Fmax {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    using namespace cmp_detail;
    if constexpr (is_cplx_v<T>) {
      return (has_nan(b) || cge<true>(a, b)) ? a : b;
    } else if constexpr (std::is_same_v<T, half>) {
      return (le(b, a) || has_nan(b)) ? a : b;
    } else {
      return (has_nan(b) || lt(b, a)) ? a : b;
    }
  }
};

struct Fmin {
  template <class T>
  TS_HD T operator()(T a, T b) const {
    using namespace cmp_detail;
    if constexpr (is_cplx_v<T>) {
      return (has_nan(b) || cle<true>(a, b)) ? a : b;
    } else if constexpr (std::is_same_v<T, half>) {
      return (le(a, b) || has_nan(b)) ? a : b;
    } else {
      return (has_nan(b) || lt(a, b)) ? a : b;
    }
  }
};

}  // namespace tessera::kernels

namespace tessera::kernels {

// clip(x, lo, hi) as NumPy's clip loop computes it: max with lo, then min with hi, each
// keeping its left operand when it is NaN and taking the right one on ties (so a NaN
// bound propagates and clip(-0.0, 0, 1) is 0.0); complex values compare
// lexicographically.
struct Clip {
  template <class T>
  TS_HD T operator()(T x, T lo, T hi) const {
    using namespace cmp_detail;
    const T m = (has_nan(x) || greater(x, lo)) ? x : lo;
    return (has_nan(m) || greater(hi, m)) ? m : hi;
  }

 private:
  template <class T>
  static TS_HD bool greater(T a, T b) {
    if constexpr (cmp_detail::is_cplx_v<T>) {
      return a.real() > b.real() || (a.real() == b.real() && a.imag() > b.imag());
    } else {
      return cmp_detail::lt(b, a);
    }
  }
};

}  // namespace tessera::kernels
