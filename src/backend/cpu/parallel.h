#pragma once
// Fork-join parallelism for CPU kernels: a persistent pool with one worker per core (the
// calling thread is one of them), so a parallel op costs a wake-up, not a thread spawn.

#include <cstdint>
#include <functional>

namespace tessera::cpu {

int num_threads();
void set_num_threads(int n);

// Runs body(begin, end) over [0, n) in chunks of at least `grain` items, spread over the
// pool; runs inline when one chunk would do. Exceptions from body propagate to the caller.
void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& body);

}  // namespace tessera::cpu
