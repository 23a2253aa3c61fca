#pragma once
// The descriptor of one call of a random generator: which sampler, the key and call number
// that select the stream (kernels/philox.h), its parameters, and the output. Every backend
// runs the same TS_HD samplers on it, so a seed gives the same bits on every device.

#include <cstdint>

#include "tessera/array.h"

namespace tessera {

enum class RandomKind {
  Uniform,              // [0, 1): float32 or float64
  Normal,               // standard normal: float32 or float64
  Exponential,          // standard exponential: float32 or float64
  Integers,             // low + uniform [0, range), range 0 = 2^64; any integer dtype
  Gamma,                // standard gamma of shape a[i] (float64)
  Poisson,              // of mean a[i] (float64), int64
  Binomial,             // of trials n[i] (int64 in b) and probability a[i] (float64), int64
};

struct RandomCall {
  RandomKind kind = RandomKind::Uniform;
  uint64_t key = 0;
  uint32_t call = 0;
  uint64_t low = 0, range = 0;  // Integers: the bits of low, and the range
  Array a, b;                   // per-element parameters (C-contiguous, out's size) or invalid
  Array out;                    // C-contiguous
};

}  // namespace tessera
