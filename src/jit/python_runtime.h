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
  using Element = T;
  static constexpr int kNdim = N;
  char* data = nullptr;
  long long shape[N > 0 ? N : 1] = {};
  long long strides[N > 0 ? N : 1] = {};

  Array() = default;
  // The same array seen with another layout (a variable holding arrays of several).
  template <int L2>
  TS_HD Array(const Array<T, N, L2>& other) : data(other.data) {
    for (int d = 0; d < N; ++d) {
      shape[d] = other.shape[d];
      strides[d] = other.stride(d);
    }
  }

  TS_HD long long stride(int d) const {
    if (L == kCLayout && d == N - 1) return static_cast<long long>(sizeof(T));
    if (L == kFLayout && d == 0) return static_cast<long long>(sizeof(T));
    return strides[d];
  }

  template <class... I>
  TS_HD T& operator()(I... index) const {
    static_assert(sizeof...(I) == N, "one index per dimension");
    const long long at[sizeof...(I) > 0 ? sizeof...(I) : 1] = {static_cast<long long>(index)...};
    char* p = data;
    for (int d = 0; d < N; ++d) p += (at[d] < 0 ? at[d] + shape[d] : at[d]) * stride(d);
    return *reinterpret_cast<T*>(p);
  }

  // The element at indices known not to be negative (no wrap-around).
  template <class... I>
  TS_HD T& direct(I... index) const {
    static_assert(sizeof...(I) == N, "one index per dimension");
    const long long at[sizeof...(I) > 0 ? sizeof...(I) : 1] = {static_cast<long long>(index)...};
    char* p = data;
    for (int d = 0; d < N; ++d) p += at[d] * stride(d);
    return *reinterpret_cast<T*>(p);
  }
};

// One item of a subscript that makes a view (a[i], a[1:-1, ::2], v[:, None]): an index,
// which drops its dimension, a slice, whose missing bounds are kNoBound, or a new axis of
// extent 1 (None, np.newaxis), which takes no dimension of the array.
inline constexpr long long kNoBound = -9223372036854775807LL - 1;
struct Item {
  enum Kind { kIndex, kSlice, kNewAxis } kind;
  long long start, stop, step;
  static TS_HD Item index(long long i) { return {kIndex, i, 0, 0}; }
  static TS_HD Item slice(long long start, long long stop, long long step) {
    return {kSlice, start, stop, step};
  }
  static TS_HD Item new_axis() { return {kNewAxis, 0, 0, 0}; }
};

TS_HD long long clamp_bound(long long bound, long long extent, long long low, long long high) {
  if (bound < 0) bound += extent;
  return bound < low ? low : bound > high ? high : bound;
}

// Python's slice of a dimension of `extent`: its first index and its length.
TS_HD void slice_bounds(long long extent, const Item& it, long long& first, long long& count) {
  const long long step = it.step;
  if (step > 0) {
    const long long lo = it.start == kNoBound ? 0 : clamp_bound(it.start, extent, 0, extent);
    const long long hi = it.stop == kNoBound ? extent : clamp_bound(it.stop, extent, 0, extent);
    first = lo;
    count = hi > lo ? (hi - lo + step - 1) / step : 0;
  } else {
    const long long lo = it.start == kNoBound ? extent - 1 : clamp_bound(it.start, extent, -1, extent - 1);
    const long long hi = it.stop == kNoBound ? -1 : clamp_bound(it.stop, extent, -1, extent - 1);
    first = lo;
    count = lo > hi ? (lo - hi - step - 1) / (-step) : 0;
  }
}

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
enum class Raise : int {
  None = 0,
  ZeroDivision = 1,       // ZeroDivisionError: division by zero
  NegativeDimension = 2,  // ValueError: negative dimensions are not allowed
  NoMemory = 3,           // MemoryError
  TooManyArrays = 4,      // MemoryError: more arrays alive in one call than the arena holds
  SliceStepZero = 5,      // ValueError: slice step cannot be zero
  SliceShape = 6,         // ValueError: cannot assign slice from input of different shape
  Broadcast = 7,          // ValueError: operands could not be broadcast together
  EmptyMaximum = 8,       // ValueError: zero-size array to reduction operation maximum ...
  EmptyMinimum = 9,       // ValueError: ... minimum ...
  EmptyArgmax = 10,       // ValueError: attempt to get argmax of an empty sequence
  EmptyArgmin = 11,       // ValueError: ... argmin ...
  EmptyRange = 12,        // ValueError: empty range for randrange()
  ArangeStep = 13,        // ValueError: Maximum allowed size exceeded (np.arange's step 0)
  ReshapeSize = 14,       // ValueError: total size of new array must be unchanged
  ReshapeUnknown = 15,    // ValueError: can only specify one unknown dimension
  MatmulShape = 16,       // ValueError: matmul: ... mismatch in its core dimension
  MaskShape = 17,         // IndexError: boolean index did not match indexed array
  ConcatenateShape = 18,  // ValueError: ... dimensions except for the concatenation axis ...
  StackShape = 19,        // ValueError: all input arrays must have the same shape
  IndexOutOfBounds = 20,  // IndexError: index out of bounds in an integer array index
  IndexedShape = 21,      // ValueError: shape mismatch: value array could not be broadcast ...
  // np.linalg's errors, as Numba raises them (numpy.linalg.LinAlgError unless noted).
  LinalgSingular = 22,          // Matrix is singular to machine precision.
  LinalgNotPositive = 23,       // Matrix is not positive definite.
  LinalgNotSquare = 24,         // Last 2 dimensions of the array must be square.
  LinalgNotFinite = 25,         // Array must not contain infs or NaNs.
  LinalgIncompatible = 26,      // Incompatible array sizes, system is not dimensionally valid.
  LinalgNoConvergence = 27,     // ... did not converge
  LinalgDomainChange = 28,      // ValueError: eig() argument must not cause a domain change.
  LinalgNormOrder = 29,         // ValueError: Invalid norm order for matrices.
  InterpEmpty = 30,             // ValueError: array of sample points is empty
  InterpSizes = 31,             // ValueError: fp and xp are not of the same size.
  BincountNegative = 32,        // ValueError: first argument of bincount must be non-negative
  ItemSize = 33,                // ValueError: can only convert an array of size 1 to ...
  DigitizeBins = 34,            // ValueError: bins must be monotonically increasing or ...
  HistogramBins = 35,           // ValueError: histogram(): `bins` should be a positive integer
  HistogramRange = 36,          // ValueError: histogram(): max must be larger than min ...
  HistogramEdges = 37,          // ValueError: histogram(): bins must increase monotonically
  Percentiles = 38,             // ValueError: Percentiles must be in the range [0, 100]
  Quantiles = 39,               // ValueError: Quantiles must be in the range [0, 1]
  CrossDimensions = 40,         // ValueError: incompatible dimensions for cross product
  CrossOf2d = 41,               // ValueError: np.cross of 2-element vectors
  ConvolveAEmpty = 42,          // ValueError: 'a' cannot be empty
  ConvolveVEmpty = 43,          // ValueError: 'v' cannot be empty
};

#if !defined(__CUDACC__) && !defined(__CUDACC_RTC__)
// On the host a raise unwinds to the entry point, which returns its code.
struct Raised {
  Raise code;
};
[[noreturn]] inline void raise(Raise code) { throw Raised{code}; }

// Arrays a compiled call creates (np.empty, np.zeros ...): heap blocks of this thread, freed
// when the call's entry point returns, except the one it returns, whose ownership passes to
// the caller (tessera's binding frees it with free() when the array it becomes dies).
struct Arena {
  void* blocks[4096];
  int count = 0;
};
inline thread_local Arena arena;

class ArenaScope {
 public:
  ArenaScope() : first_(arena.count) {}
  ~ArenaScope() {
    for (int i = first_; i < arena.count; ++i) {
      if (!kept(arena.blocks[i])) std::free(arena.blocks[i]);
    }
    arena.count = first_;
  }
  // The blocks the call returns (an array, or a tuple's arrays): the caller owns them.
  void keep(void* block) { kept_[kept_count_++] = block; }
  bool kept(const void* block) const {
    for (int i = 0; i < kept_count_; ++i) {
      if (kept_[i] == block) return true;
    }
    return false;
  }
  // Whether `data` starts a block this call created.
  bool holds(const void* data) const {
    for (int i = first_; i < arena.count; ++i) {
      if (arena.blocks[i] == data) return true;
    }
    return false;
  }

 private:
  int first_;
  void* kept_[64];  // a returned tuple's items at most (the binding's result slots)
  int kept_count_ = 0;
};

// prange: tessera runs a parallel loop's chunks on its thread pool. It hands this module
// its entry points when it loads it (ts_python_bind); unbound, loops run serially.
using ChunkBody = void (*)(void* context, long long begin, long long end, int chunk);
using ParallelFor = void (*)(long long count, int chunks, ChunkBody body, void* context);
inline ParallelFor parallel_for = nullptr;
inline int pool_threads = 1;

// The most chunks a parallel loop splits into (its reductions keep a partial per chunk).
constexpr int kMostChunks = 256;

// How many chunks a loop of `count` iterations runs in: a few per thread, so that uneven
// iterations even out, no more than there are iterations.
inline int parallel_chunks(long long count) {
  long long chunks = 4LL * pool_threads;
  if (chunks > kMostChunks) chunks = kMostChunks;
  if (chunks > count) chunks = count;
  return chunks < 1 ? 1 : static_cast<int>(chunks);
}

// body(begin, end, chunk) for each chunk of [0, count): on the pool, or here when unbound.
// A Python exception raised in a chunk is raised here once every chunk has ended (it does
// not unwind through tessera's pool).
template <class F>
void parallel_range(long long count, int chunks, F& body) {
  struct Context {
    F* body;
    int raised;
  };
  Context context{&body, 0};
  const ChunkBody run = [](void* p, long long begin, long long end, int chunk) {
    auto* c = static_cast<Context*>(p);
    try {
      (*c->body)(begin, end, chunk);
    } catch (const Raised& r) {
      __atomic_store_n(&c->raised, static_cast<int>(r.code), __ATOMIC_RELAXED);
    }
  };
  if (parallel_for == nullptr) {
    for (int k = 0; k < chunks; ++k) run(&context, count * k / chunks, count * (k + 1) / chunks, k);
  } else {
    parallel_for(count, chunks, run, &context);
  }
  if (context.raised) raise(static_cast<Raise>(context.raised));
}

// print() in jit functions: one line, its items formatted as Python's print formats them,
// handed to tessera (ts_python_bind's print_text), which writes it to sys.stdout.
using PrintText = void (*)(const char* text, long long size);
inline PrintText print_text = nullptr;

class PrintLine {
 public:
  void text(const char* s, long long n) {
    separate();
    put(s, n);
  }
  void boolean(bool v) {
    separate();
    put(v ? "True" : "False");
  }
  void integer(long long v) {
    separate();
    char b[32];
    put(b, std::snprintf(b, sizeof b, "%lld", v));
  }
  void unsigned_integer(unsigned long long v) {
    separate();
    char b[32];
    put(b, std::snprintf(b, sizeof b, "%llu", v));
  }
  void real(double v) {
    separate();
    put_float(v, true);
  }
  // Python's complex repr: "2j" for a positive zero real part, else "(1-2j)"; the parts as
  // repr writes floats, without ".0".
  void complex(double re, double im) {
    separate();
    const bool bare = re == 0 && !std::signbit(re);
    if (!bare) {
      put("(");
      put_float(re, false);
      if (!(std::signbit(im) && !std::isnan(im))) put("+");
    }
    put_float(im, false);
    put(bare ? "j" : "j)");
  }
  void end() {
    put("\n");
    if (print_text) {
      print_text(buffer_, size_);
    } else {
      std::fwrite(buffer_, 1, static_cast<size_t>(size_), stdout);
      std::fflush(stdout);
    }
  }

 private:
  void separate() {
    if (items_++) put(" ");
  }
  void put(const char* s, long long n = -1) {
    if (n < 0) n = static_cast<long long>(std::strlen(s));
    const long long room = static_cast<long long>(sizeof buffer_) - 1 - size_;
    if (n > room) n = room;  // a line past the buffer is cut
    std::memcpy(buffer_ + size_, s, static_cast<size_t>(n));
    size_ += n;
  }
  // Python's repr of a float: the fewest significant digits that read back as the same
  // value, in fixed notation for decimal exponents in [-4, 16) (with ".0" for integral
  // values when `point`), in scientific notation otherwise ("1e+16", "1.5e-07").
  void put_float(double v, bool point) {
    if (std::isnan(v)) return put("nan");
    if (std::isinf(v)) return put(v < 0 ? "-inf" : "inf");
    char e[40];
    int precision = 0;
    for (; precision < 17; ++precision) {
      std::snprintf(e, sizeof e, "%.*e", precision, v);
      if (std::strtod(e, nullptr) == v) break;
    }
    // e: [-]d[.ddd]e±XX
    const bool negative = e[0] == '-';
    const char* m = e + negative;
    char digits[20];
    int count = 0;
    for (const char* c = m; *c != 'e'; ++c) {
      if (*c != '.') digits[count++] = *c;
    }
    while (count > 1 && digits[count - 1] == '0') --count;
    const int exponent = std::atoi(std::strchr(m, 'e') + 1);
    if (negative) put("-");
    if (exponent < -4 || exponent >= 16) {
      put(digits, 1);
      if (count > 1) {
        put(".");
        put(digits + 1, count - 1);
      }
      char x[8];
      put(x, std::snprintf(x, sizeof x, "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent)));
    } else if (exponent < 0) {
      put("0.");
      for (int k = 0; k < -exponent - 1; ++k) put("0");
      put(digits, count);
    } else {
      const int whole = exponent + 1;
      for (int k = 0; k < whole; ++k) put(k < count ? digits + k : "0", 1);
      if (count > whole) {
        put(".");
        put(digits + whole, count - whole);
      } else if (point) {
        put(".0");
      }
    }
  }

  char buffer_[4096];
  long long size_ = 0;
  int items_ = 0;
};

// A new C-contiguous array of the extents `dims` (negative ones raise ValueError, as
// NumPy's "negative dimensions are not allowed"), filled with `fill` unless `empty`.
template <class T, int N>
Array<T, N, kCLayout> new_array(const long long (&dims)[N], bool empty, T fill) {
  Array<T, N, kCLayout> a;
  long long count = 1;
  for (int d = N - 1; d >= 0; --d) {
    if (dims[d] < 0) raise(Raise::NegativeDimension);
    a.shape[d] = dims[d];
    a.strides[d] = count * static_cast<long long>(sizeof(T));
    count *= dims[d];
  }
  if (arena.count == static_cast<int>(sizeof(arena.blocks) / sizeof(void*))) {
    raise(Raise::TooManyArrays);
  }
  void* block = std::malloc(count > 0 ? static_cast<size_t>(count) * sizeof(T) : 1);
  if (block == nullptr) raise(Raise::NoMemory);
  arena.blocks[arena.count++] = block;
  a.data = static_cast<char*>(block);
  if (!empty) {
    T* p = static_cast<T*>(block);
    for (long long i = 0; i < count; ++i) p[i] = fill;
  }
  return a;
}

// An array the call created whose last reference the compiler has proven gone (a
// whole-array expression's result about to be replaced): freed now, not at return, so a
// loop that makes a new array each iteration runs in constant memory. An array not in the
// arena (never assigned yet: nullptr) is left alone.
inline void release(const char* data) {
  if (data == nullptr) return;
  for (int i = arena.count - 1; i >= 0; --i) {
    if (arena.blocks[i] == data) {
      std::free(arena.blocks[i]);
      arena.blocks[i] = arena.blocks[--arena.count];
      return;
    }
  }
}

// The extent of two aligned dimensions broadcast together (NumPy's rule).
inline long long broadcast_extent(long long a, long long b) {
  if (a == b || b == 1) return a;
  if (a == 1) return b;
  raise(Raise::Broadcast);
}

// Python's `a / b`, `a // b` and `a % b` raise ZeroDivisionError for a zero divisor (Numba's
// default error model for jit functions), where NumPy's loops give inf, nan or 0.
template <class T>
inline T checked_divisor(T b) {
  if (b == T(0)) raise(Raise::ZeroDivision);
  return b;
}

inline long long checked_step(long long step) {
  if (step == 0) raise(Raise::SliceStepZero);
  return step;
}
#else
// CUDA kernels raise nothing (Numba's CUDA error model): a zero step takes one element.
__device__ inline long long checked_step(long long step) { return step == 0 ? 1 : step; }
#endif

// Python's truth of a number (nonzero), of a value or of an array element alike.
template <class T>
TS_HD bool truth(const T& v) {
  return v != T(0);
}

// `a` with its dimensions in reverse order (a.T): the same memory.
template <class R, class A>
TS_HD R transpose(const A& a) {
  R r;
  r.data = a.data;
  for (int d = 0; d < A::kNdim; ++d) {
    r.shape[d] = a.shape[A::kNdim - 1 - d];
    r.strides[d] = a.stride(A::kNdim - 1 - d);
  }
  return r;
}

// `a` with dimension k of the result being dimension Axes[k] of `a` (a.transpose(axes)):
// the same memory.
template <class R, int... Axes, class A>
TS_HD R permute(const A& a) {
  static_assert(sizeof...(Axes) == A::kNdim, "one axis per dimension");
  constexpr int axes[] = {Axes...};
  R r;
  r.data = a.data;
  for (int d = 0; d < A::kNdim; ++d) {
    r.shape[d] = a.shape[axes[d]];
    r.strides[d] = a.stride(axes[d]);
  }
  return r;
}

// The view R of `a` that `items` select (missing trailing items are whole dimensions). An
// index below zero counts from the end; bounds are not checked, as in Numba.
template <class R, class A, int K>
TS_HD R view(const A& a, const Item (&items)[K]) {
  R r;
  r.data = a.data;
  int out = 0, d = 0;
  for (int k = 0; k < K; ++k) {
    if (items[k].kind == Item::kNewAxis) {
      r.shape[out] = 1;
      r.strides[out] = 0;
      ++out;
      continue;
    }
    const long long extent = a.shape[d], stride = a.stride(d);
    ++d;
    if (items[k].kind == Item::kIndex) {
      r.data += (items[k].start < 0 ? items[k].start + extent : items[k].start) * stride;
      continue;
    }
    long long first = 0, count = extent;
    const long long step = checked_step(items[k].step);
    slice_bounds(extent, items[k], first, count);
    r.data += first * stride;
    r.shape[out] = count;
    r.strides[out] = stride * step;
    ++out;
  }
  for (; d < A::kNdim; ++d, ++out) {  // the dimensions past the items, whole
    r.shape[out] = a.shape[d];
    r.strides[out] = a.stride(d);
  }
  return r;
}

// a.real / a.imag of a complex array: the parts, the array's memory and strides seen as
// the part's type R::Element.
template <class R, class A>
TS_HD R part_view(const A& a, bool imag) {
  R r;
  r.data = a.data + (imag ? sizeof(typename R::Element) : 0);
  for (int d = 0; d < A::kNdim; ++d) {
    r.shape[d] = a.shape[d];
    r.strides[d] = a.stride(d);
  }
  return r;
}

// f(element address) for every element of `a`, the last index fastest.
template <class A, class F>
TS_HD void for_each_element(const A& a, long long (&index)[A::kNdim > 0 ? A::kNdim : 1], F&& f) {
  constexpr int N = A::kNdim;
  long long count = 1;
  for (int d = 0; d < N; ++d) count *= a.shape[d];
  for (int d = 0; d < N; ++d) index[d] = 0;
  for (long long i = 0; i < count; ++i) {
    char* p = a.data;
    for (int d = 0; d < N; ++d) p += index[d] * a.stride(d);
    f(p);
    for (int d = N - 1; d >= 0; --d) {
      if (++index[d] < a.shape[d]) break;
      index[d] = 0;
    }
  }
}

// The bytes an array's elements span: [low, high).
template <class A>
TS_HD void byte_range(const A& a, const char*& low, const char*& high) {
  low = high = a.data;
  for (int d = 0; d < A::kNdim; ++d) {
    if (a.shape[d] == 0) {
      high = low;
      return;
    }
    const long long reach = (a.shape[d] - 1) * a.stride(d);
    (reach < 0 ? low : high) += reach;
  }
  high += sizeof(typename A::Element);
}

// Python's `view[...] = value` (view: a slice of an array): every element set to `value`, a
// number of the view's dtype, or to the array `value` broadcast to the view's shape (NumPy's
// rules: its dimensions align with the view's last ones, each of the view's extent or 1;
// ValueError otherwise), each converted as a ufunc's output is. An array that overlaps the
// view is copied first, so every element is read before any is written (a[1:] = a[:-1]).
template <class V, class S>
TS_HD void assign_array(const V& to, const S& value) {
  using T = typename V::Element;
  constexpr int N = V::kNdim;
  long long index[N > 0 ? N : 1];
  if constexpr (!requires { S::kNdim; }) {
    for_each_element(to, index, [&](char* p) { *reinterpret_cast<T*>(p) = value; });
  } else if constexpr (S::kNdim == 0) {
    const T one =
        tessera::kernels::cast_value<T>(*reinterpret_cast<const typename S::Element*>(value.data));
    for_each_element(to, index, [&](char* p) { *reinterpret_cast<T*>(p) = one; });
  } else {
#if !defined(__CUDACC__) && !defined(__CUDACC_RTC__)
    constexpr int M = S::kNdim;
    using E = typename S::Element;
    Array<E, N> source;  // the value seen at the view's shape
    source.data = value.data;
    for (int d = 0; d < N; ++d) {
      const int e = d - (N - M);
      const long long extent = e >= 0 ? value.shape[e] : 1;
      if (extent != 1 && extent != to.shape[d]) raise(Raise::SliceShape);
      source.shape[d] = to.shape[d];
      source.strides[d] = extent == 1 ? 0 : value.stride(e);
    }
    const char *to_low, *to_high, *from_low, *from_high;
    byte_range(to, to_low, to_high);
    byte_range(value, from_low, from_high);
    if (from_low < to_high && to_low < from_high) {
      long long dims[M];
      for (int e = 0; e < M; ++e) dims[e] = value.shape[e];
      const Array<E, M, kCLayout> copy = new_array<E, M>(dims, true, E());
      long long at[M];
      E* out = reinterpret_cast<E*>(copy.data);
      for_each_element(value, at, [&](char* p) { *out++ = *reinterpret_cast<const E*>(p); });
      source.data = copy.data;
      for (int d = N - M; d < N; ++d) {
        if (source.strides[d] != 0) source.strides[d] = copy.stride(d - (N - M));
      }
    }
    for_each_element(to, index, [&](char* p) {
      const char* q = source.data;
      for (int d = 0; d < N; ++d) q += index[d] * source.strides[d];
      *reinterpret_cast<T*>(p) = tessera::kernels::cast_value<T>(*reinterpret_cast<const E*>(q));
    });
    if (source.data != value.data) release(source.data);  // the overlap's copy
#endif
  }
}

#if !defined(__CUDACC__) && !defined(__CUDACC_RTC__)
// Python's `random` module and NumPy's legacy `np.random` inside jit functions, drawn as
// Numba draws them (numba/_random.c, cpython/randomimpl.py, np/random/legacy.py), so the
// same seed gives Numba's numbers: one Mersenne Twister per thread for each module, seeded
// by Knuth's initialization (random.seed / np.random.seed with an integer), from the
// system's entropy until then. The states live in tessera (a module's ts_python_bind
// hands over where), so every jit function of a process shares them, as Numba's do; a
// module never bound keeps its own.
struct RandomState {
  unsigned int mt[624];
  int index;
  int has_gauss;
  double gauss;
  int initialized;
};
using RandomStates = void* (*)(int which);  // which: 0 Python's random, 1 np.random
inline RandomStates random_states = nullptr;

inline RandomState& random_state(int which) {
  static_assert(sizeof(RandomState) <= 4096, "tessera hands out 4 KiB per state");
  static thread_local RandomState* found[2] = {nullptr, nullptr};  // asked once per thread
  RandomState*& state = found[which];
  if (state == nullptr) {
    static thread_local RandomState own[2] = {};
    state = random_states ? static_cast<RandomState*>(random_states(which)) : &own[which];
  }
  return *state;
}

inline void random_seed(int which, unsigned int seed) {
  RandomState& s = random_state(which);
  for (int i = 0; i < 624; ++i) {
    s.mt[i] = seed;
    seed = 1812433253U * (seed ^ (seed >> 30)) + static_cast<unsigned int>(i) + 1;
  }
  s.index = 624;
  s.has_gauss = 0;
  s.gauss = 0.0;
  s.initialized = 1;
}

inline unsigned int random_u32(RandomState& s, int which) {
  if (!s.initialized) {  // no seed yet: the system's entropy (Numba reads os.urandom)
    unsigned int seed = static_cast<unsigned int>(reinterpret_cast<uintptr_t>(&s));
    if (FILE* f = std::fopen("/dev/urandom", "rb")) {
      if (std::fread(&seed, sizeof seed, 1, f) != 1) seed ^= 0x9e3779b9U;
      std::fclose(f);
    }
    random_seed(which, seed);
  }
  if (s.index >= 624) {  // the reference implementation's regeneration of the block
    constexpr unsigned int kUpper = 0x80000000U, kLower = 0x7fffffffU, kMatrix = 0x9908b0dfU;
    int i = 0;
    unsigned int y;
    for (; i < 624 - 397; ++i) {
      y = (s.mt[i] & kUpper) | (s.mt[i + 1] & kLower);
      s.mt[i] = s.mt[i + 397] ^ (y >> 1) ^ (0U - (y & 1U) & kMatrix);
    }
    for (; i < 623; ++i) {
      y = (s.mt[i] & kUpper) | (s.mt[i + 1] & kLower);
      s.mt[i] = s.mt[i + 397 - 624] ^ (y >> 1) ^ (0U - (y & 1U) & kMatrix);
    }
    y = (s.mt[623] & kUpper) | (s.mt[0] & kLower);
    s.mt[623] = s.mt[396] ^ (y >> 1) ^ (0U - (y & 1U) & kMatrix);
    s.index = 0;
  }
  unsigned int y = s.mt[s.index++];
  y ^= y >> 11;
  y ^= (y << 7) & 0x9d2c5680U;
  y ^= (y << 15) & 0xefc60000U;
  y ^= y >> 18;
  return y;
}

inline unsigned int random_u32(int which) { return random_u32(random_state(which), which); }

// A double in [0, 1) from 53 random bits.
inline double random_double(int which) {
  RandomState& s = random_state(which);
  const unsigned int a = random_u32(s, which) >> 5;
  const unsigned int b = random_u32(s, which) >> 6;
  return (a * 67108864.0 + b) / 9007199254740992.0;
}

// A standard normal draw: the polar method, the second of each pair kept for the next.
inline double random_gauss(int which) {
  RandomState& s = random_state(which);
  if (s.has_gauss) {
    s.has_gauss = 0;
    return s.gauss;
  }
  double x1, x2, r2;
  do {
    x1 = 2.0 * random_double(which) - 1.0;
    x2 = 2.0 * random_double(which) - 1.0;
    r2 = x1 * x1 + x2 * x2;
  } while (!(r2 < 1.0 && r2 != 0.0));
  const double f = std::sqrt(-2.0 * std::log(r2) / r2);
  random_state(which).gauss = f * x1;
  random_state(which).has_gauss = 1;
  return f * x2;
}

// `nbits` random bits (1 to 64): NumPy's state takes the low bits of each draw and the
// high word first, Python's the high bits and the low word first.
inline unsigned long long random_bits(int which, int nbits, bool numpy) {
  const auto shifted = [&](int bits) -> unsigned long long {
    const unsigned int y = random_u32(which);
    return numpy ? (y & (0xffffffffU >> (32 - bits))) : (y >> (32 - bits));
  };
  if (nbits <= 32) return shifted(nbits);
  if (numpy) {
    const unsigned long long high = shifted(nbits - 32);
    return random_u32(which) + (high << 32);
  }
  const unsigned long long low = random_u32(which);
  return low + (shifted(nbits - 32) << 32);
}

// random.randrange(start, stop, step) (numpy: false) and np.random.randint(low, high)
// (numpy: true, step 1): rejection sampling of as many bits as the count needs.
inline long long random_range(int which, long long start, long long stop, long long step,
                              bool numpy) {
  long long n = stop - start;
  if (step < 0) n = (n + step + 1) / step;
  if (step > 1) n = (n + step - 1) / step;
  if (n <= 0) raise(Raise::EmptyRange);
  if (numpy && n == 1) return start;
  const unsigned long long bound = static_cast<unsigned long long>(numpy ? n - 1 : n);
  const int nbits = 64 - __builtin_clzll(bound);
  unsigned long long r;
  do {
    r = random_bits(which, nbits, numpy);
  } while (static_cast<long long>(r) >= n);
  return start + static_cast<long long>(r) * step;
}

// a.reshape(dims) of a C-contiguous array: a view with the extents `dims`, one of which
// may be -1 (inferred from the size).
template <class R, class A, int M>
R reshape(const A& a, const long long (&dims)[M]) {
  long long size = 1;
  for (int d = 0; d < A::kNdim; ++d) size *= a.shape[d];
  long long known = 1;
  int unknown = -1;
  for (int i = 0; i < M; ++i) {
    if (dims[i] == -1) {
      if (unknown >= 0) raise(Raise::ReshapeUnknown);
      unknown = i;
    } else if (dims[i] < 0) {
      raise(Raise::NegativeDimension);
    } else {
      known *= dims[i];
    }
  }
  R r;
  r.data = a.data;
  for (int i = 0; i < M; ++i) r.shape[i] = dims[i];
  if (unknown >= 0) {
    if (known == 0 || size % known != 0) raise(Raise::ReshapeSize);
    r.shape[unknown] = size / known;
  } else if (known != size) {
    raise(Raise::ReshapeSize);
  }
  long long stride = static_cast<long long>(sizeof(typename A::Element));
  for (int i = M - 1; i >= 0; --i) {
    r.strides[i] = stride;
    stride *= r.shape[i];
  }
  return r;
}

// a @ b of 2-d and 1-d arrays (NumPy's matmul) by tessera's matmul (OpenBLAS for floats),
// which the module's ts_python_bind hands over: a new C-contiguous array.
using MatmulService = void (*)(const char* dtype, int ndim_a, const char* a,
                               const long long* a_shape, const long long* a_strides, int ndim_b,
                               const char* b, const long long* b_shape,
                               const long long* b_strides, char* out);
inline MatmulService matmul_service = nullptr;

template <class R, class A, class B>
R matmul(const A& a, const B& b, const char* dtype) {
  constexpr int NA = A::kNdim, NB = B::kNdim;
  const long long inner_b = NB == 1 ? b.shape[0] : b.shape[NB - 2];
  if (a.shape[NA - 1] != inner_b) raise(Raise::MatmulShape);
  long long dims[R::kNdim];
  int d = 0;
  if (NA == 2) dims[d++] = a.shape[0];
  if (NB == 2) dims[d++] = b.shape[1];
  using T = typename R::Element;
  const Array<T, R::kNdim, kCLayout> r = new_array<T, R::kNdim>(dims, true, T());
  long long shape_a[2], strides_a[2], shape_b[2], strides_b[2];
  for (int i = 0; i < NA; ++i) {
    shape_a[i] = a.shape[i];
    strides_a[i] = a.stride(i);
  }
  for (int i = 0; i < NB; ++i) {
    shape_b[i] = b.shape[i];
    strides_b[i] = b.stride(i);
  }
  if (matmul_service == nullptr) raise(Raise::NoMemory);
  matmul_service(dtype, NA, a.data, shape_a, strides_a, NB, b.data, shape_b, strides_b, r.data);
  return r;
}

// np.linalg's functions by tessera's linalg (LAPACK), which the module's ts_python_bind
// hands over as a service: op names the function ("inv", "svd" ...), `param` its number
// argument (an order, an exponent, a tolerance). Each array goes as its data, shape and
// byte strides; each result comes back as a block of malloc'd memory (an array
// C-contiguous, a number as one element), which the call takes over: arrays into its arena,
// numbers read and freed. A nonzero return is a Raise code (the service has freed its
// results).
struct LinalgArray {
  char* data;
  int ndim;
  long long shape[2];
  long long strides[2];
};
using LinalgService = int (*)(const char* op, const char* dtype, double param, int inputs,
                              const LinalgArray* in, int outputs, LinalgArray* out);
inline LinalgService linalg_service = nullptr;

template <class A>
LinalgArray linalg_input(const A& a) {
  LinalgArray d{a.data, A::kNdim, {1, 1}, {0, 0}};
  for (int i = 0; i < A::kNdim; ++i) {
    d.shape[i] = a.shape[i];
    d.strides[i] = a.stride(i);
  }
  return d;
}

template <class R>
constexpr int linalg_results = 1;
template <class... T>
constexpr int linalg_results<Tuple<T...>> = sizeof...(T);

template <class T>
void take_linalg_result(const LinalgArray& o, T& value) {
  value = *reinterpret_cast<const T*>(o.data);
  std::free(o.data);
}
template <class T, int N, int L>
void take_linalg_result(const LinalgArray& o, Array<T, N, L>& a) {
  arena.blocks[arena.count++] = o.data;
  a.data = o.data;
  for (int d = 0; d < N; ++d) {
    a.shape[d] = o.shape[d];
    a.strides[d] = o.strides[d];
  }
}
template <class R>
void take_linalg_results(const LinalgArray* o, R& r) {
  take_linalg_result(o[0], r);
}
template <class H, class... R>
void take_linalg_results(const LinalgArray* o, Tuple<H, R...>& t) {
  take_linalg_result(o[0], t.head);
  if constexpr (sizeof...(R) > 0) take_linalg_results(o + 1, t.rest);
}

template <class R, class... A>
R linalg(const char* op, const char* dtype, double param, const A&... a) {
  const LinalgArray in[] = {linalg_input(a)...};
  constexpr int kResults = linalg_results<R>;
  LinalgArray out[kResults];
  if (linalg_service == nullptr) raise(Raise::NoMemory);
  const int code = linalg_service(op, dtype, param, static_cast<int>(sizeof...(A)), in, kResults, out);
  if (code != 0) raise(static_cast<Raise>(code));
  if (arena.count + kResults > static_cast<int>(sizeof(arena.blocks) / sizeof(void*))) {
    for (const LinalgArray& o : out) std::free(o.data);
    raise(Raise::TooManyArrays);
  }
  R r{};
  take_linalg_results(out, r);
  return r;
}

// np.dot(a, b) of two vectors, by the same service: a number.
template <class T, class A, class B>
T dot(const A& a, const B& b, const char* dtype) {
  if (a.shape[0] != b.shape[0]) raise(Raise::MatmulShape);
  const long long shape_a[1] = {a.shape[0]}, strides_a[1] = {a.stride(0)};
  const long long shape_b[1] = {b.shape[0]}, strides_b[1] = {b.stride(0)};
  T result{};
  if (matmul_service == nullptr) raise(Raise::NoMemory);
  matmul_service(dtype, 1, a.data, shape_a, strides_a, 1, b.data, shape_b, strides_b,
                 reinterpret_cast<char*>(&result));
  return result;
}

// np.sort of a new 1-d array, in place: NaNs last, as NumPy's.
template <class A>
void sort_in_place(const A& a) {
  using T = typename A::Element;
  T* first = reinterpret_cast<T*>(a.data);
  std::sort(first, first + a.shape[0], [](const T& x, const T& y) {
    return x < y || (y != y && x == x);
  });
}

// np.argsort of a 1-d array into `order` (0, 1, ... n-1 on entry): stable, NaNs last.
template <class O, class A>
void argsort_into(const O& order, const A& a) {
  using T = typename A::Element;
  long long* first = reinterpret_cast<long long*>(order.data);
  std::stable_sort(first, first + order.shape[0], [&](long long i, long long j) {
    const T x = a(i), y = a(j);
    return x < y || (y != y && x == x);
  });
}

// The array an entry point returns, as a block the caller will own: the array itself when
// it starts a block this call created and is C-contiguous (kept), else a C-contiguous copy
// in a new block (a strided view into a new array, a view into an argument, whose memory
// the caller must not free, or an array a returned tuple already holds, which must not
// have two owners).
template <class A>
A returned_array(ArenaScope& arrays, const A& r) {
  using E = typename A::Element;
  constexpr int N = A::kNdim;
  // A new array, or a C-contiguous view from its start, hands its block over; a view with
  // other strides (a column) is copied, since the caller sees the block as dense.
  bool dense = true;
  long long expected = static_cast<long long>(sizeof(E));
  for (int d = N - 1; d >= 0; --d) {
    if (r.shape[d] != 1 && r.stride(d) != expected) dense = false;
    expected *= r.shape[d];
  }
  if (dense && arrays.holds(r.data) && !arrays.kept(r.data)) {
    arrays.keep(r.data);
    return r;
  }
  Array<E, N, kCLayout> copy;
  long long count = 1;
  for (int d = N - 1; d >= 0; --d) {
    copy.shape[d] = r.shape[d];
    copy.strides[d] = count * static_cast<long long>(sizeof(E));
    count *= r.shape[d];
  }
  void* block = std::malloc(count > 0 ? static_cast<size_t>(count) * sizeof(E) : 1);
  if (block == nullptr) raise(Raise::NoMemory);
  copy.data = static_cast<char*>(block);
  E* out = static_cast<E*>(block);
  long long index[N > 0 ? N : 1];
  for_each_element(r, index, [&](char* p) { *out++ = *reinterpret_cast<const E*>(p); });
  arrays.keep(block);  // not in the arena: nothing frees it but the caller
  return A(copy);
}
#endif

}  // namespace tessera::pyjit
