#pragma once
// The CUDA simulator's device runtime, part 6: CUDA's intrinsics — the fast math ones
// (__expf ... computed accurately here), arithmetic with a named rounding (__fadd_rz ...),
// conversions (__float2int_rn: rounded and saturated, NaN to 0, as cvt does), bit
// reinterpretation (__float_as_int ...) and the integer ones (__popc, __byte_perm ...).

#include "backend/cudasim/prelude/math.h"

namespace __tsim {

// `op` computed in rounding mode `mode`. Its operands go through volatile storage inside
// `op`, so the compiler can neither move the arithmetic across the mode changes nor fuse it
// with its neighbours. Kernels run in the default mode, to nearest.
template <class T, class Op>
inline T with_rounding(int mode, Op op) {
  if (mode == FE_TONEAREST) return op();
  const int saved = fegetround();
  fesetround(mode);
  const volatile T result = op();
  fesetround(saved);
  return result;
}

// `value` read back through volatile storage: an operand `rounded` cannot fold or move.
template <class T>
inline T opaque(T value) {
  volatile T stored = value;
  return stored;
}

// op(args...) computed in rounding mode `mode` and converted to R there.
template <class R, class Op, class... Args>
inline R rounded(int mode, Op op, Args... args) {
  return with_rounding<R>(mode, [=] { return static_cast<R>(op(opaque(args)...)); });
}

// The identity: a conversion's operation, the cast to R being the rounded step.
struct as_is {
  template <class T>
  T operator()(T x) const { return x; }
};

// A floating value rounded to an integer and saturated to I's range, as cvt.rni/rzi/... do.
template <class I, class F>
inline I saturate_to(F rounded) {
  if (rounded != rounded) return 0;
  if (rounded <= static_cast<F>(std::numeric_limits<I>::min())) {
    return std::numeric_limits<I>::min();
  }
  if (rounded >= static_cast<F>(std::numeric_limits<I>::max())) {
    return std::numeric_limits<I>::max();
  }
  return static_cast<I>(rounded);
}

template <class To, class From>
inline To bit_cast(From value) {
  static_assert(sizeof(To) == sizeof(From));
  To to;
  __builtin_memcpy(&to, &value, sizeof(To));
  return to;
}

}  // namespace __tsim

// Fast math.
inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return exp10f(x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline void __sincosf(float x, float* s, float* c) { sincosf(x, s, c); }
inline float __powf(float x, float y) { return powf(x, y); }
inline float __fdividef(float x, float y) { return x / y; }
inline float __saturatef(float x) { return x >= 1.0f ? 1.0f : x > 0.0f ? x : 0.0f; }

// Arithmetic with a named rounding: _rn to nearest even, _rz toward zero, _ru up, _rd down.
// One type's operations: `p` is the names' letter (f, d), `fma_name` the fused
// multiply-add's prefix (__fmaf_, __fma_).
#define TSIM_ROUNDED_OPS(T, p, fma_name, suffix, mode, sqrt_fn, fma_fn)                  \
  TSIM_ON_USE inline T __##p##add_##suffix(T a, T b) {                                   \
    return ::__tsim::rounded<T>(mode, [](T x, T y) { return x + y; }, a, b);             \
  }                                                                                      \
  TSIM_ON_USE inline T __##p##sub_##suffix(T a, T b) { return __##p##add_##suffix(a, -b); } \
  TSIM_ON_USE inline T __##p##mul_##suffix(T a, T b) {                                   \
    return ::__tsim::rounded<T>(mode, [](T x, T y) { return x * y; }, a, b);             \
  }                                                                                      \
  TSIM_ON_USE inline T __##p##div_##suffix(T a, T b) {                                   \
    return ::__tsim::rounded<T>(mode, [](T x, T y) { return x / y; }, a, b);             \
  }                                                                                      \
  TSIM_ON_USE inline T __##p##rcp_##suffix(T a) { return __##p##div_##suffix(T(1), a); } \
  TSIM_ON_USE inline T __##p##sqrt_##suffix(T a) {                                       \
    return ::__tsim::rounded<T>(mode, [](T x) { return sqrt_fn(x); }, a);                \
  }                                                                                      \
  TSIM_ON_USE inline T fma_name##suffix(T a, T b, T c) {                                 \
    return ::__tsim::rounded<T>(mode, [](T x, T y, T z) { return fma_fn(x, y, z); }, a, b, c); \
  }
// A conversion from A to R in the rounding mode.
#define TSIM_ROUNDED_CONVERSION(R, name, A, suffix, mode) \
  TSIM_ON_USE inline R name##suffix(A a) { return ::__tsim::rounded<R>(mode, ::__tsim::as_is{}, a); }
#define TSIM_ROUNDED(suffix, mode)                                                  \
  TSIM_ROUNDED_OPS(float, f, __fmaf_, suffix, mode, sqrtf, fmaf)                    \
  TSIM_ROUNDED_OPS(double, d, __fma_, suffix, mode, sqrt, fma)                      \
  TSIM_ROUNDED_CONVERSION(float, __double2float_, double, suffix, mode)             \
  TSIM_ROUNDED_CONVERSION(float, __int2float_, int, suffix, mode)                   \
  TSIM_ROUNDED_CONVERSION(float, __uint2float_, unsigned, suffix, mode)             \
  TSIM_ROUNDED_CONVERSION(float, __ll2float_, long long, suffix, mode)              \
  TSIM_ROUNDED_CONVERSION(float, __ull2float_, unsigned long long, suffix, mode)    \
  TSIM_ROUNDED_CONVERSION(double, __ll2double_, long long, suffix, mode)            \
  TSIM_ROUNDED_CONVERSION(double, __ull2double_, unsigned long long, suffix, mode)
TSIM_ROUNDED(rn, FE_TONEAREST)
TSIM_ROUNDED(rz, FE_TOWARDZERO)
TSIM_ROUNDED(ru, FE_UPWARD)
TSIM_ROUNDED(rd, FE_DOWNWARD)
#undef TSIM_ROUNDED
#undef TSIM_ROUNDED_CONVERSION
#undef TSIM_ROUNDED_OPS
inline float __frsqrt_rn(float x) { return rsqrtf(x); }
inline float __fmaf_ieee_rn(float a, float b, float c) { return fmaf(a, b, c); }
inline double __int2double_rn(int a) { return a; }
inline double __uint2double_rn(unsigned a) { return a; }

// Floating to integer: rounded as named, then saturated.
#define TSIM_TO_INT(name, F, I)                                                          \
  TSIM_ON_USE inline I name##_rn(F x) { return ::__tsim::saturate_to<I>(nearbyint(x)); } \
  TSIM_ON_USE inline I name##_rz(F x) { return ::__tsim::saturate_to<I>(trunc(x)); }     \
  TSIM_ON_USE inline I name##_ru(F x) { return ::__tsim::saturate_to<I>(ceil(x)); }      \
  TSIM_ON_USE inline I name##_rd(F x) { return ::__tsim::saturate_to<I>(floor(x)); }
TSIM_TO_INT(__float2int, float, int)
TSIM_TO_INT(__float2uint, float, unsigned)
TSIM_TO_INT(__float2ll, float, long long)
TSIM_TO_INT(__float2ull, float, unsigned long long)
TSIM_TO_INT(__double2int, double, int)
TSIM_TO_INT(__double2uint, double, unsigned)
TSIM_TO_INT(__double2ll, double, long long)
TSIM_TO_INT(__double2ull, double, unsigned long long)
#undef TSIM_TO_INT

// Bit reinterpretation.
TSIM_ON_USE
inline int __float_as_int(float x) { return ::__tsim::bit_cast<int>(x); }
TSIM_ON_USE
inline unsigned __float_as_uint(float x) { return ::__tsim::bit_cast<unsigned>(x); }
TSIM_ON_USE
inline float __int_as_float(int x) { return ::__tsim::bit_cast<float>(x); }
TSIM_ON_USE
inline float __uint_as_float(unsigned x) { return ::__tsim::bit_cast<float>(x); }
TSIM_ON_USE
inline long long __double_as_longlong(double x) { return ::__tsim::bit_cast<long long>(x); }
TSIM_ON_USE
inline double __longlong_as_double(long long x) { return ::__tsim::bit_cast<double>(x); }
TSIM_ON_USE
inline int __double2hiint(double x) { return static_cast<int>(__double_as_longlong(x) >> 32); }
TSIM_ON_USE
inline int __double2loint(double x) { return static_cast<int>(__double_as_longlong(x)); }
TSIM_ON_USE
inline double __hiloint2double(int hi, int lo) {
  return __longlong_as_double(static_cast<long long>(static_cast<unsigned long long>(hi) << 32 |
                                                     static_cast<unsigned>(lo)));
}

// Integer intrinsics.
inline int __popc(unsigned x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __clz(int x) { return x ? __builtin_clz(static_cast<unsigned>(x)) : 32; }
inline int __clzll(long long x) {
  return x ? __builtin_clzll(static_cast<unsigned long long>(x)) : 64;
}
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline unsigned __brev(unsigned x) {
  x = (x >> 1 & 0x55555555u) | (x & 0x55555555u) << 1;
  x = (x >> 2 & 0x33333333u) | (x & 0x33333333u) << 2;
  x = (x >> 4 & 0x0f0f0f0fu) | (x & 0x0f0f0f0fu) << 4;
  return __builtin_bswap32(x);
}
inline unsigned long long __brevll(unsigned long long x) {
  return static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32 |
         __brev(static_cast<unsigned>(x >> 32));
}
// Byte i of the result is byte (s >> 4i) & 7 of the eight bytes y:x.
inline unsigned __byte_perm(unsigned x, unsigned y, unsigned s) {
  const unsigned long long bytes = static_cast<unsigned long long>(y) << 32 | x;
  unsigned result = 0;
  for (int i = 0; i < 4; ++i) {
    result |= static_cast<unsigned>(bytes >> (8 * (s >> (4 * i) & 7)) & 0xff) << (8 * i);
  }
  return result;
}
inline int __mul24(int x, int y) {
  return static_cast<int>(static_cast<long long>(x << 8 >> 8) * (y << 8 >> 8));
}
inline unsigned __umul24(unsigned x, unsigned y) { return (x & 0xffffff) * (y & 0xffffff); }
inline int __mulhi(int x, int y) { return static_cast<int>(static_cast<long long>(x) * y >> 32); }
inline unsigned __umulhi(unsigned x, unsigned y) {
  return static_cast<unsigned>(static_cast<unsigned long long>(x) * y >> 32);
}
inline long long __mul64hi(long long x, long long y) {
  return static_cast<long long>(static_cast<__int128>(x) * y >> 64);
}
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return static_cast<unsigned long long>(static_cast<unsigned __int128>(x) * y >> 64);
}
inline unsigned __sad(int x, int y, unsigned z) {
  const long long difference = static_cast<long long>(x) - y;
  return static_cast<unsigned>(difference < 0 ? -difference : difference) + z;
}
inline unsigned __usad(unsigned x, unsigned y, unsigned z) { return (x > y ? x - y : y - x) + z; }
inline int __hadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y) >> 1); }
inline int __rhadd(int x, int y) {
  return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1);
}
inline unsigned __uhadd(unsigned x, unsigned y) {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) + y) >> 1);
}
inline unsigned __urhadd(unsigned x, unsigned y) {
  return static_cast<unsigned>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}
// The 64 bits hi:lo shifted, then the high (left) or low (right) word; the _c forms clamp the
// shift to 32, the others take it modulo 32.
inline unsigned __funnelshift_l(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned long long both = static_cast<unsigned long long>(hi) << 32 | lo;
  return static_cast<unsigned>(both << (shift & 31) >> 32);
}
inline unsigned __funnelshift_lc(unsigned lo, unsigned hi, unsigned shift) {
  return shift >= 32 ? lo : __funnelshift_l(lo, hi, shift);
}
inline unsigned __funnelshift_r(unsigned lo, unsigned hi, unsigned shift) {
  const unsigned long long both = static_cast<unsigned long long>(hi) << 32 | lo;
  return static_cast<unsigned>(both >> (shift & 31));
}
inline unsigned __funnelshift_rc(unsigned lo, unsigned hi, unsigned shift) {
  return shift >= 32 ? hi : __funnelshift_r(lo, hi, shift);
}
// Four-way byte dot products with accumulate (sm_61).
inline int __dp4a(int a, int b, int c) {
  for (int i = 0; i < 32; i += 8) {
    c += static_cast<signed char>(a >> i) * static_cast<signed char>(b >> i);
  }
  return c;
}
inline unsigned __dp4a(unsigned a, unsigned b, unsigned c) {
  for (int i = 0; i < 32; i += 8) c += (a >> i & 0xff) * (b >> i & 0xff);
  return c;
}
