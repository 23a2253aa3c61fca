#include "backend/cpu/stream_triad.h"

#include <algorithm>
#include <chrono>
#include <memory>

#include "backend/cpu/parallel.h"

namespace tessera::cpu {

double stream_triad_bandwidth(int64_t n, int reps) {
  std::unique_ptr<double[]> a(new double[n]), b(new double[n]), c(new double[n]);
  constexpr int64_t kGrain = 1 << 16;
  // Each thread first-touches the pages it will stream through.
  parallel_for(n, kGrain, [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i) {
      a[i] = 0.0;
      b[i] = 1.0;
      c[i] = 2.0;
    }
  });
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    auto start = std::chrono::steady_clock::now();
    parallel_for(n, kGrain, [&](int64_t lo, int64_t hi) {
      double* __restrict pa = a.get();
      const double* __restrict pb = b.get();
      const double* __restrict pc = c.get();
      for (int64_t i = lo; i < hi; ++i) pa[i] = pb[i] + 3.0 * pc[i];
    });
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  return 24.0 * static_cast<double>(n) / best;
}

}  // namespace tessera::cpu
