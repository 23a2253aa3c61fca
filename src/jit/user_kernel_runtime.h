#pragma once
// The device-side API of kernels written as CUDA C++ snippets (CuPy's ElementwiseKernel and
// ReductionKernel; the renderer is jit/render_user_kernel.h): CuPy's names — CArray,
// CIndexer, `complex<T>`, `_ind`, `i` — so that a snippet written for CuPy compiles
// unchanged. It is text (cmake/kernel_text.cmake embeds it) that follows the functors of
// src/kernels/ in every user kernel: under NVRTC for a GPU, and after the simulator's
// prelude for the simulator and the CPU device (TESSERA_CUDA_SIM is defined there).
//
// The layout of CArray and CIndexer is also the host's: user_kernel.cpp packs an array
// argument as {data, size, shape[max(ndim, 1)], strides[max(ndim, 1)]} in 8-byte words.

#include <cstddef>

// CuPy's complex type is thrust's; here it is the functors' (libcu++'s cuda::std::complex
// under NVRTC, lite::complex in the simulator), with the same arithmetic and functions
// (abs, exp, real, imag ...).
template <class T>
using complex = tessera::kernels::complex<T>;

// An array argument: element i of a raw parameter (`x[i]`, C order over its shape) or the
// element at an index tuple (`x[_ind.get()]`). Strides are in bytes, as NumPy's.
template <class T, int ndim, bool c_contiguous = false>
struct CArray {
  static constexpr int kDims = ndim > 0 ? ndim : 1;
  T* data_;
  ptrdiff_t size_;
  ptrdiff_t shape_[kDims];
  ptrdiff_t strides_[kDims];

  __device__ ptrdiff_t size() const { return size_; }
  __device__ const ptrdiff_t* shape() const { return shape_; }
  __device__ const ptrdiff_t* strides() const { return strides_; }
  __device__ T* data() const { return data_; }

  __device__ T& operator[](const ptrdiff_t (&index)[kDims]) { return *at(index); }
  __device__ const T& operator[](const ptrdiff_t (&index)[kDims]) const { return *at(index); }
  __device__ T& operator[](ptrdiff_t i) { return *at(i); }
  __device__ const T& operator[](ptrdiff_t i) const { return *at(i); }

  __device__ T* at(const ptrdiff_t (&index)[kDims]) const {
    if constexpr (ndim == 0) {
      return data_;
    } else if constexpr (ndim == 1 && c_contiguous) {
      return data_ + index[0];
    } else {
      ptrdiff_t offset = 0;
      for (int d = 0; d < ndim; ++d) offset += index[d] * strides_[d];
      return reinterpret_cast<T*>(reinterpret_cast<char*>(data_) + offset);
    }
  }
  __device__ T* at(ptrdiff_t i) const {
    if constexpr (ndim == 0) {
      return data_;
    } else if constexpr (c_contiguous) {
      return data_ + i;
    } else {
      ptrdiff_t offset = 0;
      for (int d = ndim - 1; d > 0; --d) {
        offset += (i % shape_[d]) * strides_[d];
        i /= shape_[d];
      }
      offset += i * strides_[0];
      return reinterpret_cast<T*>(reinterpret_cast<char*>(data_) + offset);
    }
  }
};

// The loop's position: set(i) turns the flat index i into an index tuple over the shape.
template <int ndim>
struct CIndexer {
  static constexpr int kDims = ndim > 0 ? ndim : 1;
  ptrdiff_t size_;
  ptrdiff_t shape_[kDims];
  ptrdiff_t index_[kDims];

  __device__ ptrdiff_t size() const { return size_; }
  __device__ const ptrdiff_t* shape() const { return shape_; }
  __device__ const ptrdiff_t (&get() const)[kDims] { return index_; }
  __device__ void set(ptrdiff_t i) {
    if constexpr (ndim == 1) {
      index_[0] = i;
    } else if constexpr (ndim > 1) {
      for (int d = ndim - 1; d > 0; --d) {
        index_[d] = i % shape_[d];
        i /= shape_[d];
      }
      index_[0] = i;
    }
  }
};

namespace ts_user {

// The elements [begin, end) of n that the calling thread takes in an elementwise loop. A GPU
// thread takes every (threads)-th element, so that a warp reads neighbouring memory; a CPU
// thread (the simulator's, or the CPU device's) takes one contiguous run, so that the
// compiler can vectorize it and no two threads write the same cache line.
__device__ inline ptrdiff_t thread_rank() {
  return static_cast<ptrdiff_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ inline ptrdiff_t thread_count() {
  return static_cast<ptrdiff_t>(gridDim.x) * blockDim.x;
}
__device__ inline ptrdiff_t chunk_begin(ptrdiff_t n) {
  const ptrdiff_t chunk = (n + thread_count() - 1) / thread_count();
  const ptrdiff_t begin = chunk * thread_rank();
  return begin < n ? begin : n;
}
__device__ inline ptrdiff_t chunk_end(ptrdiff_t n) {
  const ptrdiff_t chunk = (n + thread_count() - 1) / thread_count();
  const ptrdiff_t end = chunk * (thread_rank() + 1);
  return end < n ? end : n;
}

// A reduction's running value, combined pairwise: values are reduced in runs of 128, and
// the runs' results as a binary counter adds (two results of 2^k runs make one of 2^(k+1)),
// so a sum's rounding error grows as log(n), as NumPy's pairwise summation's does, rather
// than as n. Only reduce(a, b) is needed; empty means no value was added.
template <class T, class Reduce>
struct Pairwise {
  static constexpr int kRun = 128;
  static constexpr int kLevels = 48;
  static constexpr int kLanes = 8;
  Reduce reduce;
  T run{};
  int in_run = 0;
  // add_lanes' runs: eight independent chains, which a CPU overlaps (and a compiler may make
  // vector operations of), where one running value waits for each reduce before the next.
  T lane[kLanes];
  int in_lanes = 0;
  unsigned long long filled = 0;  // bit k: level[k] holds the result of 2^k runs
  T level[kLevels];

  __device__ explicit Pairwise(Reduce r) : reduce(r) {}

  __device__ void add(const T& v) {
    run = in_run == 0 ? v : static_cast<T>(reduce(run, v));
    if (++in_run == kRun) {
      carry(run);
      in_run = 0;
    }
  }
  // Eight values at once, value l into lane l.
  __device__ void add_lanes(const T (&v)[kLanes]) {
    for (int l = 0; l < kLanes; ++l) {
      lane[l] = in_lanes == 0 ? v[l] : static_cast<T>(reduce(lane[l], v[l]));
    }
    in_lanes += kLanes;
    if (in_lanes == kRun) {
      carry(lanes_reduced());
      in_lanes = 0;
    }
  }
  __device__ T lanes_reduced() const {
    const T a = reduce(reduce(lane[0], lane[1]), reduce(lane[2], lane[3]));
    const T b = reduce(reduce(lane[4], lane[5]), reduce(lane[6], lane[7]));
    return static_cast<T>(reduce(a, b));
  }
  __device__ void carry(T v) {
    int k = 0;
    while ((filled >> k) & 1) {
      v = static_cast<T>(reduce(level[k], v));
      filled &= ~(1ull << k);
      ++k;
    }
    level[k] = v;
    filled |= 1ull << k;
  }
  // The reduction of every value added, into `out`; false when none was.
  __device__ bool result(T& out) const {
    bool have = in_run > 0;
    if (have) out = run;
    if (in_lanes > 0) {
      out = have ? static_cast<T>(reduce(lanes_reduced(), out)) : lanes_reduced();
      have = true;
    }
    for (int k = 0; k < kLevels; ++k) {
      if (!((filled >> k) & 1)) continue;
      out = have ? static_cast<T>(reduce(level[k], out)) : level[k];
      have = true;
    }
    return have;
  }
};

}  // namespace ts_user

#ifdef TESSERA_CUDA_SIM
#define TS_ELEMENTWISE_FOR(i, n) \
  for (ptrdiff_t i = ts_user::chunk_begin(n), i##_end = ts_user::chunk_end(n); i < i##_end; ++i)
#else
#define TS_ELEMENTWISE_FOR(i, n)                                          \
  for (ptrdiff_t i = ts_user::thread_rank(); i < (n); i += ts_user::thread_count())
#endif
