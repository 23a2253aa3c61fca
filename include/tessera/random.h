#pragma once
// Random numbers from a counter-based Philox4x32-10 stream (src/kernels/philox.h): the
// same seed gives the same numbers on every device and for any number of threads. Each
// call of a generator uses a fresh stretch of the stream.

#include <cstdint>

#include "tessera/array.h"

namespace tessera {

class Generator {
 public:
  explicit Generator(uint64_t seed);
  // A generator at a saved state: its key and the number of calls made so far.
  Generator(uint64_t key, uint64_t calls) : key_(key), calls_(calls) {}

  uint64_t key() const { return key_; }
  uint64_t calls() const { return calls_; }

  // Uniform on [0, 1), standard normal, standard exponential: float32 or float64.
  Array random(const Dims& shape, DType dtype, Device device);
  Array standard_normal(const Dims& shape, DType dtype, Device device);
  Array standard_exponential(const Dims& shape, DType dtype, Device device);
  // low + a uniform integer in [0, range) (range 0 = 2^64), `low` given as its bits and
  // the result wrapped into `dtype` (any integer or bool dtype).
  Array integers(uint64_t low, uint64_t range, const Dims& shape, DType dtype, Device device);
  // Per-element parameters, of the result's shape (broadcast by the caller).
  Array standard_gamma(const Array& shape_param);         // float64
  Array poisson(const Array& lam);                         // int64
  Array binomial(const Array& n, const Array& p);          // int64

 private:
  uint32_t next_call() { return static_cast<uint32_t>(calls_++); }
  uint64_t key_;
  uint64_t calls_ = 0;
};

}  // namespace tessera
