#pragma once
// Sorting on a CUDA device (backend/cuda/sort_kernel.h): sort and argsort along the last
// axis of rows held contiguously, and searchsorted, in NumPy's order
// (kernels::sort_less). Device code compiled only as text, after the kernel support
// (render_cuda_prologue); sort_kernel.cpp renders the kernels for one dtype.
//
// Written here rather than taken from CUB: CUB's device-wide sorts are launched through the
// CUDA runtime, which tessera does not use (it drives the driver API and NVRTC), and its
// block primitives are inline PTX, which the simulator cannot run. The sort is a stable
// merge sort: runs of kRun elements sorted by insertion, then passes that each merge
// pairs of runs, every element finding its place by a binary search in the other run of
// its pair (a merge by ranks: no thread waits for another, no shared memory). argsort
// carries each element's index along.

namespace tessera::device {

constexpr int kRun = 8;

// The parameter of the sort kernels (sort_kernel.cpp packs it).
struct SortParams {
  TsWord w[8];
};
enum SortWord {
  kKeysIn, kKeysOut, kIndexIn, kIndexOut,  // contiguous rows; indices int64, or absent
  kRows, kLength,                          // rows, and each one's length
  kWidth,                                  // the runs this merge pass merges in pairs
  kRight,                                  // searchsorted: side="right"
  // searchsorted reads `sorted` at kKeysIn (kLength of them), values at kKeysOut (kRows of
  // them), and writes int64 positions to kIndexOut.
};

// Each run of kRun elements of every row sorted in place, stably; with indices, each
// element's index in its row is written first.
template <class T, bool Indexed>
__device__ void sort_runs(const SortParams& p) {
  T* keys = reinterpret_cast<T*>(p.w[kKeysIn].a);
  long long* index = reinterpret_cast<long long*>(p.w[kIndexIn].a);
  const long long length = p.w[kLength].i;
  const long long runs = (length + kRun - 1) / kRun;
  grid_stride<long long>(p.w[kRows].i * runs, [&](long long t) {
    const long long row = t / runs, begin = (t % runs) * kRun;
    const long long end = begin + kRun < length ? begin + kRun : length;
    T* k = keys + row * length;
    long long* x = Indexed ? index + row * length : nullptr;
    if constexpr (Indexed) {
      for (long long i = begin; i < end; ++i) x[i] = i;
    }
    for (long long i = begin + 1; i < end; ++i) {
      const T key = k[i];
      long long j = i;
      if constexpr (Indexed) {
        const long long at = x[i];
        for (; j > begin && tessera::kernels::sort_less(key, k[j - 1]); --j) {
          k[j] = k[j - 1];
          x[j] = x[j - 1];
        }
        x[j] = at;
      } else {
        for (; j > begin && tessera::kernels::sort_less(key, k[j - 1]); --j) k[j] = k[j - 1];
      }
      k[j] = key;
    }
  });
}

// How many of the n keys at `run` come before `key`: those less than it, or (`after_equal`)
// those not greater.
template <class T>
__device__ __forceinline__ long long rank_in(const T* run, long long n, T key, bool after_equal) {
  long long lo = 0, hi = n;
  while (lo < hi) {
    const long long mid = lo + (hi - lo) / 2;
    const bool before = after_equal ? !tessera::kernels::sort_less(key, run[mid])
                                    : tessera::kernels::sort_less(run[mid], key);
    if (before) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

// One pass: runs [lo, lo + w) and [lo + w, lo + 2w) of every row merge into the output's
// [lo, lo + 2w). A left element goes before the right run's equal ones, which keeps the
// sort stable.
template <class T, bool Indexed>
__device__ void merge_pass(const SortParams& p) {
  const T* in = reinterpret_cast<const T*>(p.w[kKeysIn].a);
  T* out = reinterpret_cast<T*>(p.w[kKeysOut].a);
  const long long* index_in = reinterpret_cast<const long long*>(p.w[kIndexIn].a);
  long long* index_out = reinterpret_cast<long long*>(p.w[kIndexOut].a);
  const long long length = p.w[kLength].i, width = p.w[kWidth].i;
  grid_stride<long long>(p.w[kRows].i * length, [&](long long t) {
    const long long row = t / length, i = t % length;
    const long long lo = i / (2 * width) * (2 * width);
    const long long mid = lo + width < length ? lo + width : length;
    const long long hi = lo + 2 * width < length ? lo + 2 * width : length;
    const T* k = in + row * length;
    const T key = k[i];
    const long long at = i < mid ? i + rank_in(k + mid, hi - mid, key, false)
                                 : i - width + rank_in(k + lo, mid - lo, key, true);
    out[row * length + at] = key;
    if constexpr (Indexed) index_out[row * length + at] = index_in[row * length + i];
  });
}

// Where each value goes in `sorted` to keep it sorted: before equal elements, or after
// them (kRight).
template <class T>
__device__ void search_sorted(const SortParams& p) {
  const T* sorted = reinterpret_cast<const T*>(p.w[kKeysIn].a);
  const T* values = reinterpret_cast<const T*>(p.w[kKeysOut].a);
  long long* out = reinterpret_cast<long long*>(p.w[kIndexOut].a);
  const long long length = p.w[kLength].i;
  const bool right = p.w[kRight].i != 0;
  grid_stride<long long>(p.w[kRows].i, [&](long long t) {
    out[t] = rank_in(sorted, length, values[t], right);
  });
}

}  // namespace tessera::device
