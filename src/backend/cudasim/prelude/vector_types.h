#pragma once
// The CUDA simulator's device runtime, part 2: CUDA's vector types (char1 ... double4, with
// CUDA's alignments), dim3, the make_* functions, and the builtin variables threadIdx,
// blockIdx, blockDim, gridDim and warpSize.

#include "backend/cudasim/prelude/runtime.h"

// A 2- or 4-vector is aligned to its size, up to 16 bytes; 1- and 3-vectors to the element.
#define TSIM_VECTOR_TYPES(name, T)                                      \
  struct name##1 {                                                      \
    T x;                                                                \
  };                                                                    \
  struct alignas(2 * sizeof(T) < 16 ? 2 * sizeof(T) : 16) name##2 {     \
    T x, y;                                                             \
  };                                                                    \
  struct name##3 {                                                      \
    T x, y, z;                                                          \
  };                                                                    \
  struct alignas(4 * sizeof(T) < 16 ? 4 * sizeof(T) : 16) name##4 {     \
    T x, y, z, w;                                                       \
  };                                                                    \
  constexpr name##1 make_##name##1(T x) { return {x}; }                 \
  constexpr name##2 make_##name##2(T x, T y) { return {x, y}; }         \
  constexpr name##3 make_##name##3(T x, T y, T z) { return {x, y, z}; } \
  constexpr name##4 make_##name##4(T x, T y, T z, T w) { return {x, y, z, w}; }

TSIM_VECTOR_TYPES(char, signed char)
TSIM_VECTOR_TYPES(uchar, unsigned char)
TSIM_VECTOR_TYPES(short, short)
TSIM_VECTOR_TYPES(ushort, unsigned short)
TSIM_VECTOR_TYPES(int, int)
TSIM_VECTOR_TYPES(uint, unsigned)
TSIM_VECTOR_TYPES(long, long)
TSIM_VECTOR_TYPES(ulong, unsigned long)
TSIM_VECTOR_TYPES(longlong, long long)
TSIM_VECTOR_TYPES(ulonglong, unsigned long long)
TSIM_VECTOR_TYPES(float, float)
TSIM_VECTOR_TYPES(double, double)

#undef TSIM_VECTOR_TYPES

struct dim3 {
  unsigned x, y, z;
  constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return {x, y, z}; }
};

namespace __tsim {
inline uint3 uint3_of(const TsimDim3& d) { return {d.x, d.y, d.z}; }
}  // namespace __tsim

// Macros, so that each use reads the calling thread's place (the storage moves with the
// fiber that runs) and has CUDA's types: threadIdx.x is an unsigned int.
#define threadIdx (::__tsim::uint3_of(::__tsim::place_->thread_idx))
#define blockIdx (::__tsim::uint3_of(::__tsim::place_->block_idx))
#define blockDim (::dim3(::__tsim::uint3_of(::__tsim::place_->block_dim)))
#define gridDim (::dim3(::__tsim::uint3_of(::__tsim::place_->grid_dim)))
constexpr int warpSize = 32;
