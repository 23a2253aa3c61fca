#pragma once
// NumPy's complex product and quotient, and lite::complex: the complex number type of the
// code tessera compiles for the CUDA simulator (element_types.h picks it there).
//
// Why a type of our own there: libstdc++'s <complex> brings in <sstream>, and with it
// std::string's templates, which GCC instantiates again at the end of every translation
// unit that includes them, precompiled header or not: 0.1 s of the 0.2 s the simulator
// spends compiling a typical generated kernel, thousands of times in a test run. The
// functors only need parts and a constructor; lite::complex adds the arithmetic and the
// functions (complex_math.h) that CuPy's `complex<T>` offers kernels written by users.

#include <cmath>

#include "kernels/defs.h"

namespace tessera::kernels {

namespace complex_arith {

// npy_math's complex product and quotient (Smith's algorithm), as npy_cpow and the
// true_divide loop use them: unfused, and without C99 Annex G's recovery of infinities.
template <class C>
TS_HD C cmul(C a, C b) {
  return C(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
}
template <class C>
TS_HD C cdiv(C a, C b) {
  using R = typename C::value_type;
  R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  R abs_br = std::fabs(br), abs_bi = std::fabs(bi);
  if (abs_br >= abs_bi) {
    if (abs_br == 0 && abs_bi == 0) return C(ar / abs_br, ai / abs_bi);
    R rat = bi / br;
    R scl = R(1) / (br + bi * rat);
    return C((ar + ai * rat) * scl, (ai - ar * rat) * scl);
  }
  R rat = br / bi;
  R scl = R(1) / (bi + br * rat);
  return C((ar * rat + ai) * scl, (ai * rat - ar) * scl);
}

}  // namespace complex_arith

namespace lite {

// std::complex's interface, laid out as std::complex (two T, T's alignment). Products and
// quotients are NumPy's formulas above, as thrust::complex (CuPy's) computes them, not
// C99 Annex G's. A real operand of a binary operator is a T, as std::complex's (and so
// libcu++'s, which NVRTC compiles the same snippets with) must be.
template <class T>
class complex {
 public:
  using value_type = T;

  TS_HD constexpr complex(T re = T(), T im = T()) : re_(re), im_(im) {}
  // Widening is implicit, narrowing explicit, as between std::complex's specializations.
  template <class U>
  TS_HD constexpr explicit(sizeof(U) > sizeof(T)) complex(const complex<U>& z)
      : re_(static_cast<T>(z.real())), im_(static_cast<T>(z.imag())) {}

  TS_HD constexpr T real() const { return re_; }
  TS_HD constexpr T imag() const { return im_; }
  TS_HD constexpr void real(T v) { re_ = v; }
  TS_HD constexpr void imag(T v) { im_ = v; }

  TS_HD constexpr complex& operator=(T v) {
    re_ = v;
    im_ = T();
    return *this;
  }
  TS_HD constexpr complex& operator+=(const complex& z) {
    re_ += z.re_;
    im_ += z.im_;
    return *this;
  }
  TS_HD constexpr complex& operator-=(const complex& z) {
    re_ -= z.re_;
    im_ -= z.im_;
    return *this;
  }
  TS_HD complex& operator*=(const complex& z) { return *this = complex_arith::cmul(*this, z); }
  TS_HD complex& operator/=(const complex& z) { return *this = complex_arith::cdiv(*this, z); }
  TS_HD constexpr complex& operator+=(T v) {
    re_ += v;
    return *this;
  }
  TS_HD constexpr complex& operator-=(T v) {
    re_ -= v;
    return *this;
  }
  TS_HD constexpr complex& operator*=(T v) {
    re_ *= v;
    im_ *= v;
    return *this;
  }
  TS_HD constexpr complex& operator/=(T v) {
    re_ /= v;
    im_ /= v;
    return *this;
  }

 private:
  T re_, im_;
};

template <class T>
TS_HD constexpr complex<T> operator+(const complex<T>& z) {
  return z;
}
template <class T>
TS_HD constexpr complex<T> operator-(const complex<T>& z) {
  return complex<T>(-z.real(), -z.imag());
}

// Each binary operator for complex with complex and complex with real; a real left operand
// scales or shifts for + and *, as std::complex's, and converts for - and /.
#define TS_LITE_COMPLEX_OPERATOR(op)                                 \
  template <class T>                                                \
  TS_HD complex<T> operator op(complex<T> a, const complex<T>& b) { \
    return a op## = b;                                              \
  }                                                                 \
  template <class T>                                                \
  TS_HD complex<T> operator op(complex<T> a, const T& b) {          \
    return a op## = b;                                              \
  }
TS_LITE_COMPLEX_OPERATOR(+)
TS_LITE_COMPLEX_OPERATOR(-)
TS_LITE_COMPLEX_OPERATOR(*)
TS_LITE_COMPLEX_OPERATOR(/)
#undef TS_LITE_COMPLEX_OPERATOR

template <class T>
TS_HD complex<T> operator+(const T& a, complex<T> b) {
  return b += a;
}
template <class T>
TS_HD complex<T> operator*(const T& a, complex<T> b) {
  return b *= a;
}
template <class T>
TS_HD complex<T> operator-(const T& a, const complex<T>& b) {
  return complex<T>(a) -= b;
}
template <class T>
TS_HD complex<T> operator/(const T& a, const complex<T>& b) {
  return complex<T>(a) /= b;
}

template <class T>
TS_HD constexpr bool operator==(const complex<T>& a, const complex<T>& b) {
  return a.real() == b.real() && a.imag() == b.imag();
}
template <class T>
TS_HD constexpr bool operator==(const complex<T>& a, const T& b) {
  return a.real() == b && a.imag() == T();
}

}  // namespace lite

}  // namespace tessera::kernels
