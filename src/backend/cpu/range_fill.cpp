// arange and linspace values, computed in the same order and precision as NumPy's so that
// results match it bit for bit (NumPy's `fill` for arange, function_base.linspace's
// arithmetic for linspace).

#include <cmath>
#include <string>
#include <type_traits>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/parallel.h"
#include "kernels/types.h"
#include "tessera/errors.h"

namespace tessera::cpu {
namespace {

using kernels::half;
using kernels::is_complex_type;

constexpr int64_t kGrain = 1 << 15;

// out[i] = start + i * delta, in the arithmetic NumPy's fill uses for T.
template <typename T>
void arange_typed(T* out, int64_t n, T first, T second) {
  if (n > 0) out[0] = first;
  if (n > 1) out[1] = second;
  if (n <= 2) return;
  if constexpr (std::is_same_v<T, bool>) {
    return;  // NumPy refuses boolean ranges longer than 2; callers check.
  } else if constexpr (std::is_integral_v<T>) {
    // NumPy computes in npy_intp and wraps to T; unsigned arithmetic has the same low bits.
    const T delta = static_cast<T>(second - first);
    const uint64_t s = static_cast<uint64_t>(static_cast<std::make_signed_t<T>>(first));
    const uint64_t d = static_cast<uint64_t>(static_cast<std::make_signed_t<T>>(delta));
    parallel_for(n - 2, kGrain, [&](int64_t b, int64_t e) {
      for (int64_t i = b + 2; i < e + 2; ++i) out[i] = static_cast<T>(s + uint64_t(i) * d);
    });
  } else if constexpr (std::is_same_v<T, half>) {
    const float start = first, delta = float(second) - start;
    parallel_for(n - 2, kGrain, [&](int64_t b, int64_t e) {
      for (int64_t i = b + 2; i < e + 2; ++i) out[i] = static_cast<half>(start + float(i) * delta);
    });
  } else if constexpr (is_complex_type<T>::value) {
    using R = typename T::value_type;
    const R sr = first.real(), si = first.imag();
    const R dr = second.real() - sr, di = second.imag() - si;
    parallel_for(n - 2, kGrain, [&](int64_t b, int64_t e) {
      for (int64_t i = b + 2; i < e + 2; ++i) out[i] = T(sr + R(i) * dr, si + R(i) * di);
    });
  } else {
    const T start = first, delta = second - first;
    parallel_for(n - 2, kGrain, [&](int64_t b, int64_t e) {
      for (int64_t i = b + 2; i < e + 2; ++i) out[i] = start + T(i) * delta;
    });
  }
}

// NumPy's scalar arithmetic for the linspace computation types: half goes through float
// per operation, complex uses NumPy's component formulas.
template <typename T>
struct Arith {
  static T mul(T a, T b) { return a * b; }
  static T add(T a, T b) { return a + b; }
  static T div(T a, int64_t d) { return a / T(d); }
  static T floor(T a) { return std::floor(a); }
};
template <>
struct Arith<half> {
  static half mul(half a, half b) { return half(float(a) * float(b)); }
  static half add(half a, half b) { return half(float(a) + float(b)); }
  static half div(half a, int64_t d) { return half(float(a) / float(half(d))); }
  static half floor(half a) { return half(std::floor(float(a))); }
};
template <typename R>
struct Arith<std::complex<R>> {
  using C = std::complex<R>;
  static C mul(C a, C b) {
    return C(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
  }
  static C add(C a, C b) { return C(a.real() + b.real(), a.imag() + b.imag()); }
  static C div(C a, int64_t d) {  // NumPy's Smith division by (d + 0j)
    const R scl = R(1) / R(d);
    return C(a.real() * scl, a.imag() * scl);
  }
  static C floor(C a) { return a; }  // complex results are never floored
};

template <typename T>
void linspace_typed(T* out, int64_t n, const LinspaceSpec& spec) {
  using A = Arith<T>;
  const T start = spec.start.get<T>(), step = spec.step.get<T>(), delta = spec.delta.get<T>();
  parallel_for(n, kGrain, [&](int64_t b, int64_t e) {
    for (int64_t i = b; i < e; ++i) {
      T y = spec.divide_first ? A::mul(A::div(T(i), spec.div), delta) : A::mul(T(i), step);
      y = A::add(y, start);
      if (spec.set_last && i == n - 1) y = spec.stop.get<T>();
      out[i] = spec.floor ? A::floor(y) : y;
    }
  });
}

}  // namespace

void arange_fill(const Array& dst, const Scalar& first, const Scalar& second) {
  kernels::visit_dtype(dst.dtype(), [&](auto tag) {
    using T = decltype(tag);
    arange_typed<T>(reinterpret_cast<T*>(dst.data()), dst.size(), first.get<T>(),
                    second.get<T>());
  });
}

void linspace_fill(const Array& dst, const LinspaceSpec& spec) {
  kernels::visit_dtype(dst.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half> ||
                  is_complex_type<T>::value) {
      linspace_typed<T>(reinterpret_cast<T*>(dst.data()), dst.size(), spec);
    } else {
      throw TypeError("[linspace] computes in an inexact dtype, not " +
                      std::string(dtype_name(dst.dtype())));
    }
  });
}

}  // namespace tessera::cpu
