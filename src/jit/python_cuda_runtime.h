#pragma once
// What CUDA kernels generated from Python functions (`tessera.cuda.jit`, rendered by
// jit/render_python.h's CUDA renderer) need besides the functors and jit/python_runtime.h:
// Numba's `cuda` module on the device — thread indices, barriers, warp intrinsics, atomics
// on every type Numba takes, bit operations — each one function here, which the generated
// code calls as tessera::pyjit::gpu::<name> (the IR's `intrinsic` node). Compiled only as
// text, by NVRTC or by the CUDA simulator (which supplies the CUDA built-ins on the host).
//
// Numba's semantics are kept where CUDA's built-ins differ: atomics on int64 go through the
// unsigned 64-bit built-ins (same bits in two's complement), floating-point max/min and
// their NaN-ignoring variants are compare-and-swap loops, inc/dec on uint64 too.

#include "jit/python_runtime.h"

namespace tessera::pyjit::gpu {

// --- where the thread is -------------------------------------------------------------------

__device__ inline int threadIdx_x() { return static_cast<int>(threadIdx.x); }
__device__ inline int threadIdx_y() { return static_cast<int>(threadIdx.y); }
__device__ inline int threadIdx_z() { return static_cast<int>(threadIdx.z); }
__device__ inline int blockIdx_x() { return static_cast<int>(blockIdx.x); }
__device__ inline int blockIdx_y() { return static_cast<int>(blockIdx.y); }
__device__ inline int blockIdx_z() { return static_cast<int>(blockIdx.z); }
__device__ inline int blockDim_x() { return static_cast<int>(blockDim.x); }
__device__ inline int blockDim_y() { return static_cast<int>(blockDim.y); }
__device__ inline int blockDim_z() { return static_cast<int>(blockDim.z); }
__device__ inline int gridDim_x() { return static_cast<int>(gridDim.x); }
__device__ inline int gridDim_y() { return static_cast<int>(gridDim.y); }
__device__ inline int gridDim_z() { return static_cast<int>(gridDim.z); }

// The thread's lane in its warp: its place in the block, x fastest, modulo the warp size.
__device__ inline int laneid() {
  return static_cast<int>((threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) &
                          31u);
}

// --- device functions written in CUDA C++ (cuda.declare_device) --------------------------------

// A call through Numba's ABI: `int f(R* result, args...)` stores the result and returns a
// status (0; Numba ignores it too).
template <class R, class... P, class... A>
__device__ R call_numba_abi(int (*f)(R*, P...), A... args) {
  R result{};
  f(&result, static_cast<P>(args)...);
  return result;
}

// --- barriers and fences ------------------------------------------------------------------

__device__ inline void syncthreads() { __syncthreads(); }
__device__ inline int syncthreads_count(bool p) { return __syncthreads_count(p); }
__device__ inline int syncthreads_and(bool p) { return __syncthreads_and(p); }
__device__ inline int syncthreads_or(bool p) { return __syncthreads_or(p); }
__device__ inline void syncwarp(int mask) { __syncwarp(static_cast<unsigned>(mask)); }
__device__ inline void threadfence() { __threadfence(); }
__device__ inline void threadfence_block() { __threadfence_block(); }
__device__ inline void threadfence_system() { __threadfence_system(); }
__device__ inline void nanosleep(unsigned ns) { __nanosleep(ns); }

// --- warps ---------------------------------------------------------------------------------

__device__ inline unsigned activemask() { return __activemask(); }
__device__ inline unsigned lanemask_lt() { return (1u << laneid()) - 1u; }

template <class T>
__device__ T shfl_sync(int mask, T value, int lane) {
  return __shfl_sync(static_cast<unsigned>(mask), value, lane);
}
template <class T>
__device__ T shfl_up_sync(int mask, T value, int delta) {
  return __shfl_up_sync(static_cast<unsigned>(mask), value, static_cast<unsigned>(delta));
}
template <class T>
__device__ T shfl_down_sync(int mask, T value, int delta) {
  return __shfl_down_sync(static_cast<unsigned>(mask), value, static_cast<unsigned>(delta));
}
template <class T>
__device__ T shfl_xor_sync(int mask, T value, int lane_mask) {
  return __shfl_xor_sync(static_cast<unsigned>(mask), value, lane_mask);
}

__device__ inline bool all_sync(int mask, bool p) { return __all_sync(static_cast<unsigned>(mask), p) != 0; }
__device__ inline bool any_sync(int mask, bool p) { return __any_sync(static_cast<unsigned>(mask), p) != 0; }
__device__ inline bool eq_sync(int mask, bool p) { return __uni_sync(static_cast<unsigned>(mask), p) != 0; }
__device__ inline int ballot_sync(int mask, bool p) {
  return static_cast<int>(__ballot_sync(static_cast<unsigned>(mask), p));
}

// match_any_sync and match_all_sync compare the bits of 4- or 8-byte values.
template <class T>
__device__ auto value_bits(T value) {
  if constexpr (sizeof(T) == 8) {
    unsigned long long bits;
    memcpy(&bits, &value, 8);
    return bits;
  } else {
    unsigned bits;
    memcpy(&bits, &value, 4);
    return bits;
  }
}
template <class T>
__device__ int match_any_sync(int mask, T value) {
  return static_cast<int>(__match_any_sync(static_cast<unsigned>(mask), value_bits(value)));
}
template <class T>
__device__ Tuple<int, bool> match_all_sync(int mask, T value) {
  int predicate = 0;
  const unsigned m = __match_all_sync(static_cast<unsigned>(mask), value_bits(value), &predicate);
  return {static_cast<int>(m), {predicate != 0, {}}};
}

// --- bits and arithmetic -------------------------------------------------------------------

// The bits of an integer of at most 4 bytes, zero-extended to 32.
template <class T>
__device__ unsigned low_bits(T x) {
  if constexpr (sizeof(T) == 4) {
    return static_cast<unsigned>(x);
  } else {
    return static_cast<unsigned>(x) & ((1u << (8 * sizeof(T))) - 1u);
  }
}

template <class T>
__device__ T popc(T x) {
  if constexpr (sizeof(T) == 8) {
    return static_cast<T>(__popcll(static_cast<long long>(x)));
  } else {
    return static_cast<T>(__popc(low_bits(x)));
  }
}

// Leading zeros within the type's own width.
template <class T>
__device__ T clz(T x) {
  if constexpr (sizeof(T) == 8) {
    return static_cast<T>(__clzll(static_cast<long long>(x)));
  } else {
    return static_cast<T>(__clz(static_cast<int>(low_bits(x))) - 32 + 8 * static_cast<int>(sizeof(T)));
  }
}

// The position of the least significant set bit, counting from 1; 0 for 0.
template <class T>
__device__ unsigned ffs(T x) {
  if constexpr (sizeof(T) == 8) {
    return static_cast<unsigned>(__ffsll(static_cast<long long>(x)));
  } else {
    return static_cast<unsigned>(__ffs(static_cast<int>(low_bits(x))));
  }
}

template <class T>
__device__ T brev(T x) {
  if constexpr (sizeof(T) == 8) {
    return static_cast<T>(__brevll(static_cast<unsigned long long>(x)));
  } else {
    return static_cast<T>(__brev(static_cast<unsigned>(x)));
  }
}

__device__ inline float fma(float a, float b, float c) { return ::fmaf(a, b, c); }
__device__ inline double fma(double a, double b, double c) { return ::fma(a, b, c); }
__device__ inline float cbrt(float x) { return ::cbrtf(x); }
__device__ inline double cbrt(double x) { return ::cbrt(x); }

template <class T>
__device__ T selp(bool test, T a, T b) {
  return test ? a : b;
}

// --- atomics -------------------------------------------------------------------------------
// Each returns the value at `p` before the update, as Numba's cuda.atomic functions do.

// The built-in's operand type for T: int and unsigned as they are, 8-byte integers as
// unsigned long long.
template <class T>
using AtomicWord = typename std::conditional<sizeof(T) == 8, unsigned long long, T>::type;

template <class T>
__device__ AtomicWord<T>* word(T* p) {
  return reinterpret_cast<AtomicWord<T>*>(p);
}

// A compare-and-swap loop applying `next(old)` (for what no built-in does); `next` returns
// false to leave the value as it is.
template <class T, class Next>
__device__ T atomic_update(T* p, Next next) {
  using W = typename std::conditional<sizeof(T) == 8, unsigned long long, unsigned>::type;
  W* address = reinterpret_cast<W*>(p);
  W seen = *reinterpret_cast<volatile W*>(address);
  for (;;) {
    T old;
    memcpy(&old, &seen, sizeof(T));
    T value;
    if (!next(old, value)) return old;
    W bits;
    memcpy(&bits, &value, sizeof(T));
    const W before = atomicCAS(address, seen, bits);
    if (before == seen) return old;
    seen = before;
  }
}

template <class T>
__device__ T atomic_add(T* p, T v) {
  if constexpr (sizeof(T) == 8 && !std::is_floating_point<T>::value) {
    return static_cast<T>(atomicAdd(word(p), static_cast<unsigned long long>(v)));
  } else {
    return atomicAdd(p, v);
  }
}

template <class T>
__device__ T atomic_sub(T* p, T v) {
  if constexpr (std::is_floating_point<T>::value) {
    return atomicAdd(p, -v);
  } else if constexpr (sizeof(T) == 8) {
    return static_cast<T>(atomicAdd(word(p), 0ull - static_cast<unsigned long long>(v)));
  } else {
    return atomicSub(p, v);
  }
}

// max and min: an integer by the built-in; a float stored when the comparison holds, so a
// NaN operand changes nothing and a NaN in memory stays (Numba's: use nanmax/nanmin to skip
// NaNs).
template <class T>
__device__ T atomic_max(T* p, T v) {
  if constexpr (std::is_floating_point<T>::value) {
    return atomic_update(p, [v](T old, T& next) { next = v; return old < v; });
  } else if constexpr (sizeof(T) == 8) {
    if constexpr (std::is_signed<T>::value) {
      return static_cast<T>(atomicMax(reinterpret_cast<long long*>(p), static_cast<long long>(v)));
    } else {
      return static_cast<T>(atomicMax(word(p), static_cast<unsigned long long>(v)));
    }
  } else {
    return atomicMax(p, v);
  }
}

template <class T>
__device__ T atomic_min(T* p, T v) {
  if constexpr (std::is_floating_point<T>::value) {
    return atomic_update(p, [v](T old, T& next) { next = v; return old > v; });
  } else if constexpr (sizeof(T) == 8) {
    if constexpr (std::is_signed<T>::value) {
      return static_cast<T>(atomicMin(reinterpret_cast<long long*>(p), static_cast<long long>(v)));
    } else {
      return static_cast<T>(atomicMin(word(p), static_cast<unsigned long long>(v)));
    }
  } else {
    return atomicMin(p, v);
  }
}

// nanmax and nanmin: a NaN operand changes nothing; a NaN in memory is replaced.
template <class T>
__device__ T atomic_nanmax(T* p, T v) {
  if constexpr (std::is_floating_point<T>::value) {
    return atomic_update(p, [v](T old, T& next) { next = v; return v == v && (old < v || old != old); });
  } else {
    return atomic_max(p, v);
  }
}

template <class T>
__device__ T atomic_nanmin(T* p, T v) {
  if constexpr (std::is_floating_point<T>::value) {
    return atomic_update(p, [v](T old, T& next) { next = v; return v == v && (old > v || old != old); });
  } else {
    return atomic_min(p, v);
  }
}

template <class T>
__device__ T atomic_and(T* p, T v) {
  return static_cast<T>(atomicAnd(word(p), static_cast<AtomicWord<T>>(v)));
}
template <class T>
__device__ T atomic_or(T* p, T v) {
  return static_cast<T>(atomicOr(word(p), static_cast<AtomicWord<T>>(v)));
}
template <class T>
__device__ T atomic_xor(T* p, T v) {
  return static_cast<T>(atomicXor(word(p), static_cast<AtomicWord<T>>(v)));
}
template <class T>
__device__ T atomic_exch(T* p, T v) {
  return static_cast<T>(atomicExch(word(p), static_cast<AtomicWord<T>>(v)));
}

// inc: old >= v ? 0 : old + 1. dec: old == 0 || old > v ? v : old - 1. (Unsigned types.)
template <class T>
__device__ T atomic_inc(T* p, T v) {
  if constexpr (sizeof(T) == 4) {
    return atomicInc(p, v);
  } else {
    return atomic_update(p, [v](T old, T& next) { next = old >= v ? T(0) : T(old + 1); return true; });
  }
}
template <class T>
__device__ T atomic_dec(T* p, T v) {
  if constexpr (sizeof(T) == 4) {
    return atomicDec(p, v);
  } else {
    return atomic_update(p, [v](T old, T& next) { next = old == 0 || old > v ? v : T(old - 1); return true; });
  }
}

template <class T>
__device__ T atomic_cas(T* p, T expected, T v) {
  return static_cast<T>(atomicCAS(word(p), static_cast<AtomicWord<T>>(expected),
                                  static_cast<AtomicWord<T>>(v)));
}

// --- arrays of shared and local memory ---------------------------------------------------

// A C-contiguous view of `dims` over `data` (the storage of cuda.shared.array or
// cuda.local.array, declared by the generated code).
template <class T, int N>
__device__ Array<T, N, kCLayout> view(T* data, const long long (&dims)[N]) {
  Array<T, N, kCLayout> a;
  a.data = reinterpret_cast<char*>(data);
  long long step = static_cast<long long>(sizeof(T));
  for (int d = N - 1; d >= 0; --d) {
    a.shape[d] = dims[d];
    a.strides[d] = step;
    step *= dims[d];
  }
  return a;
}

}  // namespace tessera::pyjit::gpu
