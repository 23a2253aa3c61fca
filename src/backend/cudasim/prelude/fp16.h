#pragma once
// The CUDA simulator's cuda_fp16.h: a source that includes <cuda_fp16.h> gets this text in
// place of the include. __half is the compiler's IEEE binary16, so arithmetic, comparisons
// and conversions to and from float are the language's; __half2 is a pair.

#include "backend/cudasim/prelude/intrinsics.h"

// The compiler must have _Float16 (GCC 12 and clang 15 have, on x86-64 and AArch64).
using __half = _Float16;
struct alignas(4) __half2 {
  __half x, y;
};
using half = __half;
using half2 = __half2;
using __half_raw = unsigned short;

inline __half __float2half(float a) { return static_cast<__half>(a); }
inline __half __float2half_rn(float a) { return static_cast<__half>(a); }
inline __half __double2half(double a) { return static_cast<__half>(a); }
inline float __half2float(__half a) { return static_cast<float>(a); }
inline __half __int2half_rn(int a) { return static_cast<__half>(a); }
inline __half __uint2half_rn(unsigned a) { return static_cast<__half>(a); }
inline int __half2int_rn(__half a) { return __float2int_rn(a); }
inline int __half2int_rz(__half a) { return __float2int_rz(a); }
inline unsigned __half2uint_rn(__half a) { return __float2uint_rn(a); }
inline unsigned __half2uint_rz(__half a) { return __float2uint_rz(a); }
inline short __half_as_short(__half a) { return ::__tsim::bit_cast<short>(a); }
inline unsigned short __half_as_ushort(__half a) { return ::__tsim::bit_cast<unsigned short>(a); }
inline __half __short_as_half(short a) { return ::__tsim::bit_cast<__half>(a); }
inline __half __ushort_as_half(unsigned short a) { return ::__tsim::bit_cast<__half>(a); }

inline __half2 __halves2half2(__half a, __half b) { return {a, b}; }
inline __half2 __half2half2(__half a) { return {a, a}; }
inline __half2 __float2half2_rn(float a) { return {__float2half(a), __float2half(a)}; }
inline __half2 __floats2half2_rn(float a, float b) { return {__float2half(a), __float2half(b)}; }
inline __half2 __float22half2_rn(float2 a) { return __floats2half2_rn(a.x, a.y); }
inline float2 __half22float2(__half2 a) { return {__half2float(a.x), __half2float(a.y)}; }
inline float __low2float(__half2 a) { return __half2float(a.x); }
inline float __high2float(__half2 a) { return __half2float(a.y); }
inline __half __low2half(__half2 a) { return a.x; }
inline __half __high2half(__half2 a) { return a.y; }
inline __half2 __lows2half2(__half2 a, __half2 b) { return {a.x, b.x}; }
inline __half2 __highs2half2(__half2 a, __half2 b) { return {a.y, b.y}; }
inline __half2 __lowhigh2highlow(__half2 a) { return {a.y, a.x}; }

inline __half __hadd(__half a, __half b) { return a + b; }
inline __half __hsub(__half a, __half b) { return a - b; }
inline __half __hmul(__half a, __half b) { return a * b; }
inline __half __hdiv(__half a, __half b) { return a / b; }
inline __half __hneg(__half a) { return -a; }
inline __half __habs(__half a) { return static_cast<__half>(fabsf(a)); }
inline __half __hfma(__half a, __half b, __half c) { return static_cast<__half>(fmaf(a, b, c)); }
inline __half __hmin(__half a, __half b) { return static_cast<__half>(fminf(a, b)); }
inline __half __hmax(__half a, __half b) { return static_cast<__half>(fmaxf(a, b)); }
inline bool __heq(__half a, __half b) { return a == b; }
inline bool __hne(__half a, __half b) { return a != b && a == a && b == b; }
inline bool __hlt(__half a, __half b) { return a < b; }
inline bool __hle(__half a, __half b) { return a <= b; }
inline bool __hgt(__half a, __half b) { return a > b; }
inline bool __hge(__half a, __half b) { return a >= b; }
inline bool __hequ(__half a, __half b) { return !(a < b || a > b); }
inline bool __hneu(__half a, __half b) { return a != b; }
inline bool __hisnan(__half a) { return a != a; }
inline int __hisinf(__half a) {
  return a == __half(INFINITY) ? 1 : a == __half(-INFINITY) ? -1 : 0;
}

#define TSIM_HALF2_BINARY(name, op) \
  inline __half2 name(__half2 a, __half2 b) { return {op(a.x, b.x), op(a.y, b.y)}; }
TSIM_HALF2_BINARY(__hadd2, __hadd)
TSIM_HALF2_BINARY(__hsub2, __hsub)
TSIM_HALF2_BINARY(__hmul2, __hmul)
TSIM_HALF2_BINARY(__h2div, __hdiv)
TSIM_HALF2_BINARY(__hmin2, __hmin)
TSIM_HALF2_BINARY(__hmax2, __hmax)
#undef TSIM_HALF2_BINARY
inline __half2 __hneg2(__half2 a) { return {-a.x, -a.y}; }
inline __half2 __habs2(__half2 a) { return {__habs(a.x), __habs(a.y)}; }
inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return {__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)};
}

#define TSIM_HALF_MATH(name, f) \
  inline __half name(__half a) { return static_cast<__half>(f(static_cast<float>(a))); }
TSIM_HALF_MATH(hsqrt, sqrtf)
TSIM_HALF_MATH(hrsqrt, rsqrtf)
TSIM_HALF_MATH(hrcp, 1.0f /)
TSIM_HALF_MATH(hexp, expf)
TSIM_HALF_MATH(hexp2, exp2f)
TSIM_HALF_MATH(hexp10, exp10f)
TSIM_HALF_MATH(hlog, logf)
TSIM_HALF_MATH(hlog2, log2f)
TSIM_HALF_MATH(hlog10, log10f)
TSIM_HALF_MATH(hsin, sinf)
TSIM_HALF_MATH(hcos, cosf)
TSIM_HALF_MATH(hfloor, floorf)
TSIM_HALF_MATH(hceil, ceilf)
TSIM_HALF_MATH(htrunc, truncf)
TSIM_HALF_MATH(hrint, nearbyintf)
#undef TSIM_HALF_MATH

inline __half atomicAdd(__half* address, __half value) {
  return ::__tsim::atomic_update(address, [value](__half old) { return old + value; });
}
inline __half2 atomicAdd(__half2* address, __half2 value) {
  return ::__tsim::atomic_update(address, [value](__half2 old) { return __hadd2(old, value); });
}
