// SIMD block folds (see simd_reduce.h). Sums keep eight vector accumulators and combine
// them pairwise, so each lane adds at most n / (8 * lanes) values in sequence: with the
// pairwise cascade over blocks, error stays as low as NumPy's pairwise summation. Max and
// min propagate NaN as NumPy does: any NaN in the block makes the result NaN.
//
// Compiled once per target by Highway's foreach_target; HWY_ONCE holds the dispatch.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "backend/cpu/simd_reduce.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "backend/cpu/simd_reduce.h"

HWY_BEFORE_NAMESPACE();
namespace tessera::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Blocks of this many values fold to one; the block values combine by a binary-counter
// cascade, so a long run is summed pairwise (error O(log n)) within a single call.
constexpr int64_t kSpanBlock = 512;

template <class T, class BlockFn>
T cascade_blocks(int64_t n, BlockFn block) {
  T level[64];
  bool used[64] = {};
  for (int64_t off = 0; off < n; off += kSpanBlock) {
    T carry = block(off, std::min(kSpanBlock, n - off));
    int l = 0;
    for (; used[l]; ++l) {
      carry = level[l] + carry;
      used[l] = false;
    }
    level[l] = carry;
    used[l] = true;
  }
  T total = T(-0.0);
  bool any = false;
  for (int l = 0; l < 64; ++l) {
    if (!used[l]) continue;
    total = any ? level[l] + total : level[l];
    any = true;
  }
  return total;
}

template <class T>
T SumBlock(const T* HWY_RESTRICT p, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  // -0.0, not 0.0: x + -0.0 is x for every x, so a block of -0.0 sums to -0.0.
  const auto zero = hn::Set(d, T(-0.0));
  auto a0 = zero, a1 = zero, a2 = zero, a3 = zero, a4 = zero, a5 = zero, a6 = zero, a7 = zero;
  int64_t i = 0;
  for (; i + 8 * lanes <= n; i += 8 * lanes) {
    a0 = hn::Add(a0, hn::LoadU(d, p + i));
    a1 = hn::Add(a1, hn::LoadU(d, p + i + lanes));
    a2 = hn::Add(a2, hn::LoadU(d, p + i + 2 * lanes));
    a3 = hn::Add(a3, hn::LoadU(d, p + i + 3 * lanes));
    a4 = hn::Add(a4, hn::LoadU(d, p + i + 4 * lanes));
    a5 = hn::Add(a5, hn::LoadU(d, p + i + 5 * lanes));
    a6 = hn::Add(a6, hn::LoadU(d, p + i + 6 * lanes));
    a7 = hn::Add(a7, hn::LoadU(d, p + i + 7 * lanes));
  }
  for (; i + lanes <= n; i += lanes) a0 = hn::Add(a0, hn::LoadU(d, p + i));
  const auto sum = hn::Add(hn::Add(hn::Add(a0, a1), hn::Add(a2, a3)),
                           hn::Add(hn::Add(a4, a5), hn::Add(a6, a7)));
  T total = hn::GetLane(hn::SumOfLanes(d, sum));
  T tail = T(-0.0);
  for (; i < n; ++i) tail += p[i];
  return total + tail;
}

template <class T>
T SquaresBlock(const T* HWY_RESTRICT p, int64_t n, T center) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const auto c = hn::Set(d, center);
  auto a0 = hn::Zero(d), a1 = hn::Zero(d), a2 = hn::Zero(d), a3 = hn::Zero(d);
  int64_t i = 0;
  for (; i + 4 * lanes <= n; i += 4 * lanes) {
    const auto v0 = hn::Sub(hn::LoadU(d, p + i), c);
    const auto v1 = hn::Sub(hn::LoadU(d, p + i + lanes), c);
    const auto v2 = hn::Sub(hn::LoadU(d, p + i + 2 * lanes), c);
    const auto v3 = hn::Sub(hn::LoadU(d, p + i + 3 * lanes), c);
    a0 = hn::MulAdd(v0, v0, a0);
    a1 = hn::MulAdd(v1, v1, a1);
    a2 = hn::MulAdd(v2, v2, a2);
    a3 = hn::MulAdd(v3, v3, a3);
  }
  for (; i + lanes <= n; i += lanes) {
    const auto v = hn::Sub(hn::LoadU(d, p + i), c);
    a0 = hn::MulAdd(v, v, a0);
  }
  T total = hn::GetLane(hn::SumOfLanes(d, hn::Add(hn::Add(a0, a1), hn::Add(a2, a3))));
  for (; i < n; ++i) total += (p[i] - center) * (p[i] - center);
  return total;
}

#define TS_SQUARES_FOLD(T)                                                             \
  void Squares_##T(const std::byte* values, int64_t n, const std::byte* center,        \
                   std::byte* out) {                                                   \
    T c;                                                                               \
    std::memcpy(&c, center, sizeof(T));                                                \
    const T* p = reinterpret_cast<const T*>(values);                                   \
    const T r = cascade_blocks<T>(                                                     \
        n, [&](int64_t off, int64_t m) { return SquaresBlock<T>(p + off, m, c); });  \
    std::memcpy(out, &r, sizeof(T));                                                   \
  }
TS_SQUARES_FOLD(float)
TS_SQUARES_FOLD(double)
#undef TS_SQUARES_FOLD

// Equal values (0.0 and -0.0) resolve to the later one, as NumPy's maximum(a, b) returns b
// when neither is greater; x86's max/min instructions do the same within a lane.
template <class T, bool Max>
T ExtremeBlock(const T* HWY_RESTRICT p, int64_t n) {
  const hn::ScalableTag<T> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  auto pick = [](auto a, auto b) { return Max ? hn::Max(a, b) : hn::Min(a, b); };
  // Lanes that compare equal to themselves: all but NaN. (Highway's Ne is an ordered
  // comparison, false for NaN too, so it cannot find them.)
  auto ordered = [&](auto v) { return hn::VecFromMask(d, hn::Eq(v, v)); };
  T best = p[0];
  bool nan = false;
  int64_t i = 0;
  if (n >= 4 * lanes) {
    auto a0 = hn::LoadU(d, p), a1 = hn::LoadU(d, p + lanes);
    auto a2 = hn::LoadU(d, p + 2 * lanes), a3 = hn::LoadU(d, p + 3 * lanes);
    auto numbers = hn::And(hn::And(ordered(a0), ordered(a1)), hn::And(ordered(a2), ordered(a3)));
    for (i = 4 * lanes; i + 4 * lanes <= n; i += 4 * lanes) {
      const auto v0 = hn::LoadU(d, p + i), v1 = hn::LoadU(d, p + i + lanes);
      const auto v2 = hn::LoadU(d, p + i + 2 * lanes), v3 = hn::LoadU(d, p + i + 3 * lanes);
      a0 = pick(a0, v0);
      a1 = pick(a1, v1);
      a2 = pick(a2, v2);
      a3 = pick(a3, v3);
      numbers = hn::And(numbers, hn::And(hn::And(ordered(v0), ordered(v1)),
                                         hn::And(ordered(v2), ordered(v3))));
    }
    nan = !hn::AllTrue(d, hn::MaskFromVec(numbers));
    const auto all = pick(pick(a0, a1), pick(a2, a3));
    best = hn::GetLane(Max ? hn::MaxOfLanes(d, all) : hn::MinOfLanes(d, all));
  }
  for (; i < n; ++i) {
    nan |= std::isnan(p[i]);
    best = Max ? (p[i] >= best ? p[i] : best) : (p[i] <= best ? p[i] : best);
  }
  return nan ? std::numeric_limits<T>::quiet_NaN() : best;
}

// any and all of bools (bytes, true when non-zero): the OR of the bytes is non-zero when one
// is, the minimum when all are. Whole blocks of four vectors; the generic fold would take
// each byte through the op's loop.
template <bool All>
uint8_t TruthBlock(const uint8_t* HWY_RESTRICT p, int64_t n) {
  const hn::ScalableTag<uint8_t> d;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  auto pick = [](auto a, auto b) { return All ? hn::Min(a, b) : hn::Or(a, b); };
  auto a0 = hn::Set(d, All ? 1 : 0), a1 = a0, a2 = a0, a3 = a0;
  int64_t i = 0;
  for (; i + 4 * lanes <= n; i += 4 * lanes) {
    a0 = pick(a0, hn::LoadU(d, p + i));
    a1 = pick(a1, hn::LoadU(d, p + i + lanes));
    a2 = pick(a2, hn::LoadU(d, p + i + 2 * lanes));
    a3 = pick(a3, hn::LoadU(d, p + i + 3 * lanes));
  }
  const auto folded = pick(pick(a0, a1), pick(a2, a3));
  bool result = All ? hn::AllFalse(d, hn::Eq(folded, hn::Zero(d)))
                    : !hn::AllTrue(d, hn::Eq(folded, hn::Zero(d)));
  for (; i < n; ++i) result = All ? result && p[i] != 0 : result || p[i] != 0;
  return result ? 1 : 0;
}

// The number of true bools (non-zero bytes) in n values, as int64: sums of eight 0/1 bytes
// per 64-bit lane, where the generic fold would convert each byte to int64 first.
int64_t CountBlock(const uint8_t* HWY_RESTRICT p, int64_t n) {
  const hn::ScalableTag<uint8_t> d;
  const hn::Repartition<uint64_t, decltype(d)> d64;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(d));
  const auto one = hn::Set(d, 1), zero = hn::Zero(d);
  auto ones = [&](const uint8_t* at) {
    return hn::IfThenElseZero(hn::Ne(hn::LoadU(d, at), zero), one);
  };
  auto c0 = hn::Zero(d64), c1 = hn::Zero(d64);
  int64_t i = 0;
  for (; i + 2 * lanes <= n; i += 2 * lanes) {
    c0 = hn::Add(c0, hn::SumsOf8(ones(p + i)));
    c1 = hn::Add(c1, hn::SumsOf8(ones(p + i + lanes)));
  }
  int64_t count = static_cast<int64_t>(hn::GetLane(hn::SumOfLanes(d64, hn::Add(c0, c1))));
  for (; i < n; ++i) count += p[i] != 0;
  return count;
}

#define TS_BLOCK_FOLD(Name, T, expr)                                                \
  void Name##_##T(const std::byte* values, int64_t n, std::byte* out) {             \
    const T r = expr(reinterpret_cast<const T*>(values), n);                        \
    std::memcpy(out, &r, sizeof(T));                                                \
  }
template <class T>
T SumSpan(const T* HWY_RESTRICT p, int64_t n) {
  return cascade_blocks<T>(n, [&](int64_t off, int64_t m) { return SumBlock<T>(p + off, m); });
}

TS_BLOCK_FOLD(Sum, float, SumSpan<float>)
TS_BLOCK_FOLD(Sum, double, SumSpan<double>)
TS_BLOCK_FOLD(Max, float, (ExtremeBlock<float, true>))
TS_BLOCK_FOLD(Max, double, (ExtremeBlock<double, true>))
TS_BLOCK_FOLD(Min, float, (ExtremeBlock<float, false>))
TS_BLOCK_FOLD(Min, double, (ExtremeBlock<double, false>))
TS_BLOCK_FOLD(All, uint8_t, TruthBlock<true>)
TS_BLOCK_FOLD(Any, uint8_t, TruthBlock<false>)
#undef TS_BLOCK_FOLD

void Count(const std::byte* values, int64_t n, std::byte* out) {
  const int64_t r = CountBlock(reinterpret_cast<const uint8_t*>(values), n);
  std::memcpy(out, &r, sizeof r);
}

}  // namespace tessera::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tessera::cpu {

#define TS_FOLD_DISPATCH(Name, T)                                                   \
  HWY_EXPORT(Name##_##T);                                                           \
  static void dispatch_##Name##_##T(const std::byte* values, int64_t n, std::byte* out) { \
    HWY_DYNAMIC_DISPATCH(Name##_##T)(values, n, out);                               \
  }
TS_FOLD_DISPATCH(Sum, float)
TS_FOLD_DISPATCH(Sum, double)
TS_FOLD_DISPATCH(Max, float)
TS_FOLD_DISPATCH(Max, double)
TS_FOLD_DISPATCH(Min, float)
TS_FOLD_DISPATCH(Min, double)
TS_FOLD_DISPATCH(All, uint8_t)
TS_FOLD_DISPATCH(Any, uint8_t)
#undef TS_FOLD_DISPATCH

HWY_EXPORT(Count);
static void dispatch_count(const std::byte* values, int64_t n, std::byte* out) {
  HWY_DYNAMIC_DISPATCH(Count)(values, n, out);
}
BlockFold simd_count_fold() { return &dispatch_count; }

HWY_EXPORT(Squares_float);
HWY_EXPORT(Squares_double);
static void dispatch_squares_float(const std::byte* v, int64_t n, const std::byte* c,
                                   std::byte* out) {
  HWY_DYNAMIC_DISPATCH(Squares_float)(v, n, c, out);
}
static void dispatch_squares_double(const std::byte* v, int64_t n, const std::byte* c,
                                    std::byte* out) {
  HWY_DYNAMIC_DISPATCH(Squares_double)(v, n, c, out);
}

SquaresFold simd_squares_fold(DType dtype) {
  if (dtype == DType::Float32) return &dispatch_squares_float;
  if (dtype == DType::Float64) return &dispatch_squares_double;
  return nullptr;
}

BlockFold simd_block_fold(Ufunc op, DType dtype) {
  if (dtype == DType::Bool) {
    switch (op) {
      case Ufunc::LogicalAnd: case Ufunc::Minimum: return &dispatch_All_uint8_t;
      case Ufunc::LogicalOr: case Ufunc::Maximum: return &dispatch_Any_uint8_t;
      default: return nullptr;
    }
  }
  const bool f32 = dtype == DType::Float32, f64 = dtype == DType::Float64;
  if (!f32 && !f64) return nullptr;
  switch (op) {
    case Ufunc::Add: return f32 ? &dispatch_Sum_float : &dispatch_Sum_double;
    case Ufunc::Maximum: return f32 ? &dispatch_Max_float : &dispatch_Max_double;
    case Ufunc::Minimum: return f32 ? &dispatch_Min_float : &dispatch_Min_double;
    default: return nullptr;
  }
}

}  // namespace tessera::cpu
#endif  // HWY_ONCE
