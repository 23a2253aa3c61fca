// FMA peak: ten independent accumulator chains per thread hide the FMA latency (4 cycles
// on current cores, two FMA ports), so the loop runs at the issue rate, the peak.
//
// Compiled once per target by Highway's foreach_target; HWY_ONCE holds the dispatch.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "backend/cpu/fma_peak.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <algorithm>
#include <atomic>
#include <chrono>

#include "backend/cpu/fma_peak.h"
#include "backend/cpu/parallel.h"

HWY_BEFORE_NAMESPACE();
namespace tessera::cpu::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Runs `iterations` rounds of 10 vector FMAs; returns the FMA count (lanes included) and
// a value derived from the results, so the compiler cannot drop the chains.
template <typename T>
double FmaChains(int64_t iterations, T seed, int64_t* fmas) {
  const hn::ScalableTag<T> d;
  const auto m = hn::Set(d, T(0.999999));
  const auto c = hn::Set(d, T(1e-7));
  auto a0 = hn::Set(d, seed), a1 = hn::Set(d, seed + T(1)), a2 = hn::Set(d, seed + T(2));
  auto a3 = hn::Set(d, seed + T(3)), a4 = hn::Set(d, seed + T(4)), a5 = hn::Set(d, seed + T(5));
  auto a6 = hn::Set(d, seed + T(6)), a7 = hn::Set(d, seed + T(7)), a8 = hn::Set(d, seed + T(8));
  auto a9 = hn::Set(d, seed + T(9));
  for (int64_t i = 0; i < iterations; ++i) {
    a0 = hn::MulAdd(a0, m, c);
    a1 = hn::MulAdd(a1, m, c);
    a2 = hn::MulAdd(a2, m, c);
    a3 = hn::MulAdd(a3, m, c);
    a4 = hn::MulAdd(a4, m, c);
    a5 = hn::MulAdd(a5, m, c);
    a6 = hn::MulAdd(a6, m, c);
    a7 = hn::MulAdd(a7, m, c);
    a8 = hn::MulAdd(a8, m, c);
    a9 = hn::MulAdd(a9, m, c);
  }
  *fmas = iterations * 10 * static_cast<int64_t>(hn::Lanes(d));
  const auto sum = hn::Add(hn::Add(hn::Add(a0, a1), hn::Add(a2, a3)),
                           hn::Add(hn::Add(hn::Add(a4, a5), hn::Add(a6, a7)), hn::Add(a8, a9)));
  return static_cast<double>(hn::GetLane(hn::SumOfLanes(d, sum)));
}

double FmaFloat(int64_t iterations, int64_t* fmas) {
  return FmaChains<float>(iterations, 1.0f, fmas);
}
double FmaDouble(int64_t iterations, int64_t* fmas) {
  return FmaChains<double>(iterations, 1.0, fmas);
}

}  // namespace tessera::cpu::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace tessera::cpu {

HWY_EXPORT(FmaFloat);
HWY_EXPORT(FmaDouble);

double fma_peak_flops(bool single, int reps) {
  constexpr int64_t kIterations = 20'000'000;
  const int threads = num_threads();
  double best = 0;
  for (int r = 0; r < reps; ++r) {
    std::atomic<int64_t> total{0};
    std::atomic<int64_t> sink{0};
    const auto start = std::chrono::steady_clock::now();
    parallel_for(threads, 1, [&](int64_t begin, int64_t end) {
      for (int64_t t = begin; t < end; ++t) {
        int64_t fmas = 0;
        const double v = single ? HWY_DYNAMIC_DISPATCH(FmaFloat)(kIterations, &fmas)
                                : HWY_DYNAMIC_DISPATCH(FmaDouble)(kIterations, &fmas);
        total += fmas;
        sink += static_cast<int64_t>(v) & 1;
      }
    });
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::max(best, 2.0 * static_cast<double>(total.load()) / seconds);
  }
  return best;
}

}  // namespace tessera::cpu
#endif  // HWY_ONCE
