#pragma once
// The STREAM triad (a = b + s * c) on every pool thread: the memory bandwidth that
// memory-bound kernels are measured against.

#include <cstdint>

namespace tessera::cpu {

// Best bytes per second over `reps` runs on arrays of `n` doubles (24 bytes per element
// moved, as STREAM counts them).
double stream_triad_bandwidth(int64_t n, int reps);

}  // namespace tessera::cpu
