#pragma once
// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011),
// and the samplers built on it, written once for every device (TS_HD): the same seed
// gives the same bits on the CPU and on CUDA devices.
//
// The stream is counter-based: a value depends only on the key (from the seed) and its
// counter {index lo, index hi, draw, call}, never on which thread computes it. `index` is
// the element (or the group of elements that share a block), `call` counts the
// generator's calls, and `draw` numbers the successive blocks one element consumes when
// its sampler rejects candidates (gamma, poisson, binomial, bounded integers).

#include <cmath>
#include <cstdint>

#include "kernels/defs.h"

namespace tessera::kernels {

struct Philox4 {
  uint32_t v[4];
};

TS_HD Philox4 philox4x32_10(Philox4 ctr, uint32_t k0, uint32_t k1) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) {
      k0 += 0x9E3779B9u;
      k1 += 0xBB67AE85u;
    }
    const uint64_t p0 = static_cast<uint64_t>(0xD2511F53u) * ctr.v[0];
    const uint64_t p1 = static_cast<uint64_t>(0xCD9E8D57u) * ctr.v[2];
    ctr = {{static_cast<uint32_t>(p1 >> 32) ^ ctr.v[1] ^ k0, static_cast<uint32_t>(p1),
            static_cast<uint32_t>(p0 >> 32) ^ ctr.v[3] ^ k1, static_cast<uint32_t>(p0)}};
  }
  return ctr;
}

// SplitMix64: spreads a user's seed over the 64 key bits.
TS_HD uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Uniform doubles in [0, 1) from 53 bits, floats from 24: exact multiples of 2^-53/2^-24.
TS_HD double uniform_double(uint32_t hi, uint32_t lo) {
  const uint64_t bits = (static_cast<uint64_t>(hi) << 32 | lo) >> 11;
  return static_cast<double>(bits) * 0x1.0p-53;
}
TS_HD float uniform_float(uint32_t x) { return static_cast<float>(x >> 8) * 0x1.0p-24f; }

// The blocks of one element, one after another: its private stream.
struct PhiloxStream {
  uint64_t key;
  uint64_t index;
  uint32_t call;
  uint32_t draw = 0;
  Philox4 block{};
  int used = 4;

  TS_HD PhiloxStream(uint64_t k, uint64_t i, uint32_t c, uint32_t first_draw = 0)
      : key(k), index(i), call(c), draw(first_draw) {}

  TS_HD uint32_t next32() {
    if (used == 4) {
      block = philox4x32_10({{static_cast<uint32_t>(index), static_cast<uint32_t>(index >> 32),
                              draw++, call}},
                            static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32));
      used = 0;
    }
    return block.v[used++];
  }
  TS_HD uint64_t next64() {
    const uint64_t hi = next32();
    return hi << 32 | next32();
  }
  TS_HD double uniform() {
    const uint32_t hi = next32();
    return uniform_double(hi, next32());
  }
  // In (0, 1]: safe for log.
  TS_HD double uniform_open0() { return 1.0 - uniform(); }
  TS_HD double normal() {
    const double r = std::sqrt(-2.0 * std::log(uniform_open0()));
    return r * std::cos(6.283185307179586 * uniform());
  }
};

// Uniform over [0, range) (range 0 meaning 2^64), exactly: Lemire's multiply-shift with
// rejection of the biased low products.
TS_HD uint64_t bounded(PhiloxStream& s, uint64_t range) {
  if (range == 0) return s.next64();
  if (range <= 0xFFFFFFFFull) {
    const uint32_t r = static_cast<uint32_t>(range);
    uint64_t m = static_cast<uint64_t>(s.next32()) * r;
    if (static_cast<uint32_t>(m) < r) {
      const uint32_t threshold = static_cast<uint32_t>(-r) % r;
      while (static_cast<uint32_t>(m) < threshold) m = static_cast<uint64_t>(s.next32()) * r;
    }
    return m >> 32;
  }
  unsigned __int128 m = static_cast<unsigned __int128>(s.next64()) * range;
  if (static_cast<uint64_t>(m) < range) {
    const uint64_t threshold = (0 - range) % range;
    while (static_cast<uint64_t>(m) < threshold) {
      m = static_cast<unsigned __int128>(s.next64()) * range;
    }
  }
  return static_cast<uint64_t>(m >> 64);
}

// Marsaglia and Tsang's gamma sampler (shape < 1 by the boost u^(1/shape)).
TS_HD double standard_gamma(PhiloxStream& s, double shape) {
  if (shape <= 0.0) return 0.0;
  double boost = 1.0;
  if (shape < 1.0) {
    boost = std::pow(s.uniform_open0(), 1.0 / shape);
    shape += 1.0;
  }
  const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = s.normal();
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = s.uniform_open0();
    if (u < 1.0 - 0.0331 * (x * x) * (x * x)) return boost * d * v;
    if (std::log(u) < 0.5 * x * x + d * (1.0 - v + std::log(v))) return boost * d * v;
  }
}

// Poisson: multiplication of uniforms for small means, Hörmann's PTRS (transformed
// rejection with squeeze, as NumPy uses) for lam >= 10.
TS_HD int64_t poisson(PhiloxStream& s, double lam) {
  if (lam <= 0.0) return 0;
  if (lam < 10.0) {
    const double limit = std::exp(-lam);
    int64_t k = 0;
    double p = s.uniform();
    while (p > limit) {
      ++k;
      p *= s.uniform();
    }
    return k;
  }
  const double slam = std::sqrt(lam), loglam = std::log(lam);
  const double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
  const double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2.0);
  for (;;) {
    const double u = s.uniform() - 0.5, v = s.uniform();
    const double us = 0.5 - std::fabs(u);
    const double k = std::floor((2.0 * a / us + b) * u + lam + 0.43);
    if (us >= 0.07 && v <= vr) return static_cast<int64_t>(k);
    if (k < 0.0 || (us < 0.013 && v > us)) continue;
    if (std::log(v) + std::log(invalpha) - std::log(a / (us * us) + b) <=
        -lam + k * loglam - std::lgamma(k + 1.0)) {
      return static_cast<int64_t>(k);
    }
  }
}

// Binomial: inversion for small n*p, Hörmann's BTRS for larger; p > 1/2 by symmetry.
TS_HD int64_t binomial(PhiloxStream& s, int64_t n, double p) {
  if (n <= 0 || p <= 0.0) return 0;
  if (p >= 1.0) return n;
  if (p > 0.5) return n - binomial(s, n, 1.0 - p);
  const double q = 1.0 - p;
  if (static_cast<double>(n) * p < 10.0) {
    const double ratio = p / q, a = (static_cast<double>(n) + 1.0) * ratio;
    for (;;) {
      double r = std::pow(q, static_cast<double>(n));
      double u = s.uniform();
      int64_t x = 0;
      while (u > r && x <= n) {
        u -= r;
        ++x;
        r *= a / static_cast<double>(x) - ratio;
      }
      if (x <= n) return x;
    }
  }
  const double nd = static_cast<double>(n);
  const double spq = std::sqrt(nd * p * q);
  const double b = 1.15 + 2.53 * spq, a = -0.0873 + 0.0248 * b + 0.01 * p;
  const double c = nd * p + 0.5, alpha = (2.83 + 5.1 / b) * spq, vr = 0.92 - 4.2 / b;
  const double m = std::floor((nd + 1.0) * p), lpq = std::log(p / q);
  const double h = std::lgamma(m + 1.0) + std::lgamma(nd - m + 1.0);
  for (;;) {
    const double u = s.uniform() - 0.5;
    double v = s.uniform();
    const double us = 0.5 - std::fabs(u);
    const double k = std::floor((2.0 * a / us + b) * u + c);
    if (k < 0.0 || k > nd) continue;
    if (us >= 0.07 && v <= vr) return static_cast<int64_t>(k);
    v = std::log(v * alpha / (a / (us * us) + b));
    if (v <= h - std::lgamma(k + 1.0) - std::lgamma(nd - k + 1.0) + (k - m) * lpq) {
      return static_cast<int64_t>(k);
    }
  }
}

}  // namespace tessera::kernels
