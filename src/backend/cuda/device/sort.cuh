#pragma once
// Sorting on a CUDA device (backend/cuda/sort_kernel.h): sort and argsort along the last
// axis of rows held contiguously, and searchsorted, in NumPy's order
// (kernels::sort_less). Device code compiled only as text, after the kernel support
// (render_cuda_prologue); sort_kernel.cpp renders the kernels for one dtype.
//
// Written here rather than taken from CUB: CUB's device-wide sorts are launched through the
// CUDA runtime, which tessera does not use (it drives the driver API and NVRTC), and its
// block primitives are inline PTX, which the simulator cannot run. The sort is a stable
// merge sort: tiles of kTile elements sorted by a block each in shared memory, then passes
// over global memory that each merge pairs of runs, every element finding its place by a
// binary search in the other run of its pair (a merge by ranks: no thread waits for
// another). argsort carries each element's index along.

namespace tessera::device {

// A tile of each row sorted by one block in shared memory: kTileThreads threads, each
// first sorting a run of kTile / kTileThreads elements by insertion.
constexpr int kTile = 1024, kTileThreads = 256, kTileRun = kTile / kTileThreads;

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

// Each tile of kTile elements of every row (a row's last tile may be shorter) sorted in
// place, stably, by one block in shared memory: runs of kTileRun by insertion, one per
// thread, then merge passes by ranks (as merge_pass) between two halves of `shared`
// (2 * kTile keys, then 2 * kTile indices when Indexed). With indices, each element's
// index in its row is its position before the sort. The merge passes over global memory
// then start from runs of kTile, seven passes fewer than from runs of 8.
template <class T, bool Indexed>
__device__ void sort_tiles(const SortParams& p, unsigned char* shared) {
  T* keys = reinterpret_cast<T*>(p.w[kKeysIn].a);
  long long* index = reinterpret_cast<long long*>(p.w[kIndexIn].a);
  const long long length = p.w[kLength].i;
  const long long tiles = (length + kTile - 1) / kTile;
  T* key_buffers[2] = {reinterpret_cast<T*>(shared), reinterpret_cast<T*>(shared) + kTile};
  long long* index_buffers[2] = {reinterpret_cast<long long*>(key_buffers[1] + kTile),
                                 reinterpret_cast<long long*>(key_buffers[1] + kTile) + kTile};
  for (long long tile = blockIdx.x; tile < p.w[kRows].i * tiles; tile += gridDim.x) {
    const long long row = tile / tiles, begin = (tile % tiles) * kTile;
    const int n = static_cast<int>(length - begin < kTile ? length - begin : kTile);
    T* k = keys + row * length + begin;
    long long* x = Indexed ? index + row * length + begin : nullptr;
    T* src = key_buffers[0];
    long long* src_index = index_buffers[0];
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
      src[i] = k[i];
      if constexpr (Indexed) src_index[i] = begin + i;
    }
    __syncthreads();
    const int run_begin = threadIdx.x * kTileRun;
    const int run_end = run_begin + kTileRun < n ? run_begin + kTileRun : n;
    for (int i = run_begin + 1; i < run_end; ++i) {
      const T key = src[i];
      int j = i;
      if constexpr (Indexed) {
        const long long at = src_index[i];
        for (; j > run_begin && tessera::kernels::sort_less(key, src[j - 1]); --j) {
          src[j] = src[j - 1];
          src_index[j] = src_index[j - 1];
        }
        src_index[j] = at;
      } else {
        for (; j > run_begin && tessera::kernels::sort_less(key, src[j - 1]); --j) {
          src[j] = src[j - 1];
        }
      }
      src[j] = key;
    }
    __syncthreads();
    int from = 0;
    for (int width = kTileRun; width < n; width *= 2) {
      const T* in = key_buffers[from];
      T* out = key_buffers[1 - from];
      for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const int lo = i / (2 * width) * (2 * width);
        const int mid = lo + width < n ? lo + width : n;
        const int hi = lo + 2 * width < n ? lo + 2 * width : n;
        const T key = in[i];
        const long long at = i < mid ? i + rank_in(in + mid, hi - mid, key, false)
                                     : i - width + rank_in(in + lo, mid - lo, key, true);
        out[at] = key;
        if constexpr (Indexed) index_buffers[1 - from][at] = index_buffers[from][i];
      }
      __syncthreads();
      from = 1 - from;
    }
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
      k[i] = key_buffers[from][i];
      if constexpr (Indexed) x[i] = index_buffers[from][i];
    }
    __syncthreads();  // the buffers are refilled for the next tile
  }
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
