#pragma once
// What the code generated from Python functions (jit/render_python.h) needs besides the
// functors: array views, and Python's errors raised from generated code. Compiled only as
// text, after the functors (jit/kernel_text.h), by the host compiler or NVRTC.

#include "kernels/defs.h"

namespace tessera::pyjit {

// An array argument: its data, and per dimension its length and byte stride. An index
// below zero counts from the end of its dimension, as Python's and Numba's do. The layout
// is part of the type, as in Numba: a C-contiguous array's last dimension (a Fortran one's
// first) steps by the item size, a constant the compiler can turn into vector loads, where
// a run-time stride would make it gather.
enum Layout : int { kAnyLayout = 0, kCLayout = 1, kFLayout = 2 };

template <class T, int N, int L = kAnyLayout>
struct Array {
  char* data;
  long long shape[N > 0 ? N : 1];
  long long strides[N > 0 ? N : 1];

  TS_HD long long stride(int d) const {
    if (L == kCLayout && d == N - 1) return static_cast<long long>(sizeof(T));
    if (L == kFLayout && d == 0) return static_cast<long long>(sizeof(T));
    return strides[d];
  }

  template <class... I>
  TS_HD T& operator()(I... index) const {
    static_assert(sizeof...(I) == N, "one index per dimension");
    const long long at[] = {static_cast<long long>(index)...};
    char* p = data;
    for (int d = 0; d < N; ++d) p += (at[d] < 0 ? at[d] + shape[d] : at[d]) * stride(d);
    return *reinterpret_cast<T*>(p);
  }

  // The element at indices known not to be negative (no wrap-around).
  template <class... I>
  TS_HD T& direct(I... index) const {
    static_assert(sizeof...(I) == N, "one index per dimension");
    const long long at[] = {static_cast<long long>(index)...};
    char* p = data;
    for (int d = 0; d < N; ++d) p += at[d] * stride(d);
    return *reinterpret_cast<T*>(p);
  }
};

// A tuple: its first item, then the tuple of the others (C++'s std::tuple is not in
// every standard library the generated code compiles with).
template <class... T>
struct Tuple {};
template <class H, class... R>
struct Tuple<H, R...> {
  H head;
  Tuple<R...> rest;
};

template <int I, class H, class... R>
TS_HD auto get(const Tuple<H, R...>& t) {
  if constexpr (I == 0) {
    return t.head;
  } else {
    return get<I - 1>(t.rest);
  }
}

// Item i of a tuple whose items share one type, i counting from the end when negative.
template <class H, class... R>
TS_HD H get_at(const Tuple<H, R...>& t, long long i) {
  if (i < 0) i += 1 + static_cast<long long>(sizeof...(R));
  if constexpr (sizeof...(R) == 0) {
    return t.head;
  } else {
    return i == 0 ? t.head : get_at(t.rest, i - 1);
  }
}

// The number of iterations of Python's range(start, stop, step) (step nonzero), counted
// without overflow whatever the bounds. It is signed, so that a loop counting up to it
// tells the compiler its index is never negative (no wrap-around of negative indices, and
// contiguous loads stay vector loads); a range of 2^63 iterations or more is out of reach.
template <class T>
TS_HD long long range_count(T start, T stop, T step) {
  using U = unsigned long long;
  if (step > 0) {
    return start < stop ? static_cast<long long>(
                              (static_cast<U>(stop) - static_cast<U>(start) - 1) / static_cast<U>(step) + 1)
                        : 0;
  }
  return start > stop ? static_cast<long long>((static_cast<U>(start) - static_cast<U>(stop) - 1) /
                                                   (U(0) - static_cast<U>(step)) +
                                               1)
                      : 0;
}

// Python's exceptions a generated function raises, by code (python/tessera/jit/ errors).
enum class Raise : int { None = 0, ZeroDivision = 1 };

#if !defined(__CUDACC__) && !defined(__CUDACC_RTC__)
// On the host a raise unwinds to the entry point, which returns its code.
struct Raised {
  Raise code;
};
inline void raise(Raise code) { throw Raised{code}; }

// Python's `a / b`, `a // b` and `a % b` raise ZeroDivisionError for a zero divisor (Numba's
// default error model for jit functions), where NumPy's loops give inf, nan or 0.
template <class T>
inline T checked_divisor(T b) {
  if (b == T(0)) raise(Raise::ZeroDivision);
  return b;
}
#endif

}  // namespace tessera::pyjit
