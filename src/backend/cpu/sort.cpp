// Sorting on the CPU, along the last axis of an array, with NumPy's order: NaN last,
// complex lexicographic. Highway's vqsort (vectorized quicksort) sorts 16-64 bit keys;
// one long row is cut into a chunk per thread, the chunks sorted at once and merged in
// parallel along the merge path. argsort sorts 128-bit (order-preserving key, index)
// pairs, which makes it stable for free: equal keys are ordered by their index.
// What vqsort has no keys for (8-bit, float16, complex) is written here by hand: counting
// sort for 8-bit keys, std::stable_sort with NumPy's comparison for the rest.

#include <hwy/contrib/sort/vqsort.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/parallel.h"
#include "kernels/ops_comparison.h"
#include "kernels/types.h"

namespace tessera::cpu {
namespace {

using kernels::complex128;
using kernels::complex64;
using kernels::half;

// Below this many elements a row is sorted by one thread.
constexpr int64_t kParallelSort = 1 << 18;

const hwy::Sorter& sorter() {
  thread_local hwy::Sorter s;
  return s;
}

using kernels::cmp_detail::has_nan;

// NumPy's sort order (kernels/ops_comparison.h).
template <typename T>
bool less(T a, T b) {
  return kernels::sort_less(a, b);
}

template <typename T>
constexpr bool kVqsortKey =
    std::is_same_v<T, int16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, int64_t> ||
    std::is_same_v<T, uint16_t> || std::is_same_v<T, uint32_t> ||
    std::is_same_v<T, uint64_t> || std::is_same_v<T, float> || std::is_same_v<T, double>;

// Moves NaNs to the end in their order, keeping their payloads; returns how many are not.
template <typename T>
int64_t nans_last(T* p, int64_t n) {
  if constexpr (std::is_integral_v<T> || kernels::is_complex_type<T>::value) {
    return n;  // complex NaNs have an order of their own, which less<> sorts them into
  } else {
    std::atomic<bool> any_nan{false};
    parallel_for(n, 1 << 16, [&](int64_t begin, int64_t end) {
      if (std::any_of(p + begin, p + end, [](T v) { return has_nan(v); })) any_nan = true;
    });
    if (!any_nan) return n;
    std::vector<T> nans;
    int64_t k = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (has_nan(p[i])) {
        nans.push_back(p[i]);
      } else {
        p[k++] = p[i];
      }
    }
    std::copy(nans.begin(), nans.end(), p + k);
    return k;
  }
}

// 8-bit keys: 256 buckets, in the order of the values (signed keys' sign bit flipped).
template <typename T>
void counting_sort(T* p, int64_t n) {
  constexpr uint8_t flip = std::is_signed_v<T> ? 0x80 : 0;
  int64_t counts[256] = {};
  for (int64_t i = 0; i < n; ++i) {
    uint8_t raw;
    std::memcpy(&raw, &p[i], 1);
    ++counts[raw ^ flip];
  }
  int64_t k = 0;
  for (int b = 0; b < 256; ++b) {
    const uint8_t raw = static_cast<uint8_t>(b ^ flip);
    T v;
    std::memcpy(&v, &raw, 1);
    std::fill(p + k, p + k + counts[b], v);
    k += counts[b];
  }
}

// Floats sort as unsigned integers whose order is the floats' (sign-magnitude flipped):
// exact for every value, where Highway 1.0.3's float vqsort turns +inf into the largest
// finite value, and merged as integers, without the float comparison's branches.
template <typename T>
using key_t = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;

template <typename T>
void to_keys(T* p, int64_t n) {
  using U = key_t<T>;
  constexpr U sign = U{1} << (8 * sizeof(U) - 1);
  U* keys = reinterpret_cast<U*>(p);
  parallel_for(n, 1 << 16, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) keys[i] = (keys[i] & sign) ? ~keys[i] : keys[i] | sign;
  });
}

template <typename T>
void from_keys(T* p, int64_t n) {
  using U = key_t<T>;
  constexpr U sign = U{1} << (8 * sizeof(U) - 1);
  U* keys = reinterpret_cast<U*>(p);
  parallel_for(n, 1 << 16, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) keys[i] = (keys[i] & sign) ? keys[i] & ~sign : ~keys[i];
  });
}

// Sorts p[0, n) with one thread; NaNs already last for vqsort keys.
template <typename T>
void sort_serial(T* p, int64_t n, bool stable) {
  if constexpr (sizeof(T) == 1) {
    counting_sort(p, n);
  } else if constexpr (kVqsortKey<T>) {
    if (stable) {
      std::stable_sort(p, p + n, less<T>);
    } else {
      sorter()(p, static_cast<size_t>(n), hwy::SortAscending());
    }
  } else {
    std::stable_sort(p, p + n, less<T>);
  }
}

// std::merge, with the choice made by a conditional move: merging random keys, a branch
// mispredicts half the time. Stable: on ties the element of `a` comes first.
template <typename T, typename Less>
void branchless_merge(const T* a, int64_t na, const T* b, int64_t nb, T* out, Less lt) {
  int64_t i = 0, j = 0;
  while (i < na && j < nb) {
    const bool take_b = lt(b[j], a[i]);
    *out++ = take_b ? b[j] : a[i];
    j += take_b;
    i += !take_b;
  }
  out = std::copy(a + i, a + na, out);
  std::copy(b + j, b + nb, out);
}

// Merges sorted [a, a + na) and [b, b + nb) into out, the threads splitting the output
// along the merge path so each writes its own contiguous share.
template <typename T, typename Less>
void parallel_merge(const T* a, int64_t na, const T* b, int64_t nb, T* out, Less lt) {
  const int64_t total = na + nb;
  const int64_t parts = std::max<int64_t>(1, std::min<int64_t>(num_threads(), total / 65536));
  auto split = [&](int64_t k) {  // how many of a precede output position k
    int64_t lo = std::max<int64_t>(0, k - nb), hi = std::min(k, na);
    while (lo < hi) {
      const int64_t i = (lo + hi) / 2;
      if (lt(b[k - i - 1], a[i])) {
        hi = i;
      } else {
        lo = i + 1;
      }
    }
    return lo;
  };
  parallel_for(parts, 1, [&](int64_t begin, int64_t end) {
    for (int64_t part = begin; part < end; ++part) {
      const int64_t k0 = total * part / parts, k1 = total * (part + 1) / parts;
      const int64_t i0 = split(k0), i1 = split(k1);
      branchless_merge(a + i0, i1 - i0, b + (k0 - i0), (k1 - k0) - (i1 - i0), out + k0, lt);
    }
  });
}

// Sorts one contiguous run; long runs of vqsort keys are sorted in chunks by all threads
// and merged.
template <typename T, typename Less, typename Serial>
void sort_run(T* p, int64_t n, Less lt, Serial serial) {
  const int threads = num_threads();
  if (n < kParallelSort || threads < 2) {
    serial(p, n);
    return;
  }
  int64_t chunks = 1;
  while (chunks * 2 <= threads) chunks *= 2;
  std::vector<int64_t> bounds(chunks + 1);
  for (int64_t c = 0; c <= chunks; ++c) bounds[c] = n * c / chunks;
  parallel_for(chunks, 1, [&](int64_t begin, int64_t end) {
    for (int64_t c = begin; c < end; ++c) serial(p + bounds[c], bounds[c + 1] - bounds[c]);
  });
  // From the caching allocator: a fresh 80 MB every sort would cost its page faults.
  auto scratch = Buffer::allocate(Device::cpu(), n * sizeof(T));
  T* src = p;
  T* dst = reinterpret_cast<T*>(scratch->data());
  for (int64_t width = 1; width < chunks; width *= 2) {
    for (int64_t c = 0; c < chunks; c += 2 * width) {
      const int64_t lo = bounds[c], mid = bounds[c + width], hi = bounds[c + 2 * width];
      parallel_merge(src + lo, mid - lo, src + mid, hi - mid, dst + lo, lt);
    }
    std::swap(src, dst);
  }
  if (src != p) {
    parallel_for(n, 1 << 18, [&](int64_t begin, int64_t end) {
      std::copy(src + begin, src + end, p + begin);
    });
  }
}

template <typename T>
void sort_values(T* p, int64_t n, bool stable) {
  const int64_t k = nans_last(p, n);
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    if (!stable) {
      using U = key_t<T>;
      to_keys(p, k);
      U* keys = reinterpret_cast<U*>(p);
      sort_run(keys, k, std::less<U>(), [&](U* q, int64_t m) {
        sorter()(q, static_cast<size_t>(m), hwy::SortAscending());
      });
      from_keys(p, k);
      return;
    }
  }
  sort_run(p, k, less<T>, [&](T* q, int64_t m) { sort_serial(q, m, stable); });
}

// An unsigned key whose order is NumPy's order of the values; NaNs all equal and last,
// -0.0 equal to 0.0.
template <typename T>
uint64_t order_key(T v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v;
  } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    return static_cast<uint64_t>(static_cast<int64_t>(v)) ^ (uint64_t{1} << 63);
  } else if constexpr (std::is_integral_v<T>) {
    return v;
  } else {
    double d = static_cast<double>(v);
    if (d != d) return ~uint64_t{0};
    if (d == 0) d = 0;
    const uint64_t bits = std::bit_cast<uint64_t>(d);
    return (bits >> 63) ? ~bits : bits | (uint64_t{1} << 63);
  }
}

template <typename T>
void argsort_values(const T* p, int64_t n, int64_t* index) {
  if constexpr (kernels::is_complex_type<T>::value) {
    for (int64_t i = 0; i < n; ++i) index[i] = i;
    std::stable_sort(index, index + n, [&](int64_t a, int64_t b) { return less(p[a], p[b]); });
  } else {
    auto memory = Buffer::allocate(Device::cpu(), n * sizeof(hwy::uint128_t));
    hwy::uint128_t* pairs = reinterpret_cast<hwy::uint128_t*>(memory->data());
    for (int64_t i = 0; i < n; ++i) {
      pairs[i].hi = order_key(p[i]);
      pairs[i].lo = static_cast<uint64_t>(i);
    }
    sort_run(pairs, n, [](const hwy::uint128_t& a, const hwy::uint128_t& b) { return a < b; },
             [](hwy::uint128_t* q, int64_t m) {
               sorter()(q, static_cast<size_t>(m), hwy::SortAscending());
             });
    for (int64_t i = 0; i < n; ++i) index[i] = static_cast<int64_t>(pairs[i].lo);
  }
}

// Calls body(row pointer, row stride) for every row along the last axis of `a`.
template <typename Body>
void for_each_last_axis_row(const Array& a, Body body) {
  const int nd = a.ndim();
  const int64_t n = a.shape()[nd - 1];
  if (n == 0 || a.size() == 0) return;
  const int64_t rows = a.size() / n;
  const int64_t grain = std::max<int64_t>(1, kParallelSort / std::max<int64_t>(n, 1));
  parallel_for(rows, grain, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      int64_t rest = r, offset = 0;
      for (int i = nd - 2; i >= 0; --i) {
        offset += (rest % a.shape()[i]) * a.strides()[i];
        rest /= a.shape()[i];
      }
      body(r, a.data() + offset, a.strides()[nd - 1]);
    }
  });
}

// A row as contiguous T: in place when it is, else a gathered copy written back after.
template <typename T, typename Body>
void with_contiguous_row(std::byte* row, int64_t stride, int64_t n, bool write_back, Body body) {
  if (stride == static_cast<int64_t>(sizeof(T))) {
    body(reinterpret_cast<T*>(row));
    return;
  }
  std::unique_ptr<T[]> copy(new T[n]);
  for (int64_t i = 0; i < n; ++i) std::memcpy(&copy[i], row + i * stride, sizeof(T));
  body(copy.get());
  if (write_back) {
    for (int64_t i = 0; i < n; ++i) std::memcpy(row + i * stride, &copy[i], sizeof(T));
  }
}

}  // namespace

void searchsorted(const Array& sorted, const Array& values, bool right, const Array& out) {
  const int64_t n = sorted.size(), m = values.size();
  int64_t* o = reinterpret_cast<int64_t*>(out.data());
  kernels::visit_dtype(sorted.dtype(), [&](auto zero) {
    using T = decltype(zero);
    const T* a = reinterpret_cast<const T*>(sorted.data());
    const T* v = reinterpret_cast<const T*>(values.data());
    parallel_for(m, 4096, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) {
        const T x = v[i];
        // left: the first position whose element is not less than x; right: not <= x.
        o[i] = right ? std::upper_bound(a, a + n, x, less<T>) - a
                     : std::lower_bound(a, a + n, x, less<T>) - a;
      }
    });
  });
}

void sort(const Array& a, bool stable) {
  if (a.ndim() == 0) return;
  const int64_t n = a.shape()[a.ndim() - 1];
  kernels::visit_dtype(a.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for_each_last_axis_row(a, [&](int64_t, std::byte* row, int64_t stride) {
      with_contiguous_row<T>(row, stride, n, true, [&](T* p) { sort_values(p, n, stable); });
    });
  });
}

void argsort(const Array& a, const Array& index) {
  if (a.ndim() == 0) return;
  const int64_t n = a.shape()[a.ndim() - 1];
  kernels::visit_dtype(a.dtype(), [&](auto zero) {
    using T = decltype(zero);
    for_each_last_axis_row(a, [&](int64_t r, std::byte* row, int64_t stride) {
      std::vector<int64_t> order(n);
      with_contiguous_row<T>(row, stride, n, false,
                             [&](T* p) { argsort_values(p, n, order.data()); });
      // index rows follow the same row enumeration as a's.
      int64_t rest = r, offset = 0;
      for (int i = index.ndim() - 2; i >= 0; --i) {
        offset += (rest % index.shape()[i]) * index.strides()[i];
        rest /= index.shape()[i];
      }
      std::byte* dst = index.data() + offset;
      const int64_t istride = index.strides()[index.ndim() - 1];
      for (int64_t i = 0; i < n; ++i) std::memcpy(dst + i * istride, &order[i], 8);
    });
  });
}

}  // namespace tessera::cpu
