// Random numbers on the CPU: each element computed from its own counter (kernels/philox.h),
// so any split over threads gives the same values. Uniform and normal variates share
// blocks between neighbouring elements; the normal transform (Box–Muller) runs over
// buffers through the SIMD log, sin and cos loops of the elementwise evaluator.

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/parallel.h"
#include "backend/cpu/ufunc_loops.h"
#include "backend/random_call.h"
#include "kernels/philox.h"
#include "kernels/types.h"

namespace tessera::cpu {
namespace {

using kernels::Philox4;
using kernels::philox4x32_10;

constexpr int64_t kGrain = 1 << 14;

// Whole blocks from `first` to `last`: one simple loop over block numbers, which the
// compiler vectorizes (Philox is multiplies and xors of independent counters).
template <typename T>
void uniform_blocks(const RandomCall& c, T* out, uint64_t first, uint64_t last) {
  const uint32_t k0 = static_cast<uint32_t>(c.key), k1 = static_cast<uint32_t>(c.key >> 32);
  const int64_t count = static_cast<int64_t>(last - first);
  for (int64_t g = 0; g < count; ++g) {
    const uint64_t block = first + static_cast<uint64_t>(g);
    const Philox4 b = philox4x32_10(
        {{static_cast<uint32_t>(block), static_cast<uint32_t>(block >> 32), 0, c.call}}, k0, k1);
    if constexpr (std::is_same_v<T, double>) {
      out[2 * g] = kernels::uniform_double(b.v[0], b.v[1]);
      out[2 * g + 1] = kernels::uniform_double(b.v[2], b.v[3]);
    } else {
      for (int j = 0; j < 4; ++j) out[4 * g + j] = kernels::uniform_float(b.v[j]);
    }
  }
}

// Element i of a float64 stream is the (i % 2)-th double of block i / 2; of a float32
// stream, the (i % 4)-th float of block i / 4. Writes elements [begin, end) to out[0...].
template <typename T>
void uniform_range(const RandomCall& c, T* out, int64_t begin, int64_t end) {
  constexpr int64_t per = std::is_same_v<T, double> ? 2 : 4;
  const int64_t first_full = (begin + per - 1) / per, last_full = end / per;
  if (first_full >= last_full) {
    T edge[2 * per];
    uniform_blocks(c, edge, begin / per, (end + per - 1) / per);
    for (int64_t i = begin; i < end; ++i) out[i - begin] = edge[i - begin / per * per];
    return;
  }
  uniform_blocks(c, out + (first_full * per - begin), first_full, last_full);
  T edge[per];
  if (begin < first_full * per) {
    uniform_blocks(c, edge, first_full - 1, first_full);
    for (int64_t i = begin; i < first_full * per; ++i) out[i - begin] = edge[i % per];
  }
  if (last_full * per < end) {
    uniform_blocks(c, edge, last_full, last_full + 1);
    for (int64_t i = last_full * per; i < end; ++i) out[i - begin] = edge[i % per];
  }
}

template <typename T>
DType dtype_of() {
  return std::is_same_v<T, double> ? DType::Float64 : DType::Float32;
}

LoopFn math_loop(Ufunc op, DType dtype) {
  const std::vector<LoopSignature>& loops = ufunc_info(op).loops;
  for (size_t k = 0; k < loops.size(); ++k) {
    if (loops[k].in[0] == dtype && loops[k].out[0] == dtype) {
      return loop_for(op, static_cast<int>(k));
    }
  }
  throw std::logic_error("[random] no loop for " + std::string(ufunc_info(op).name));
}

template <typename T>
void run_loop_on(LoopFn loop, const T* in, T* out, int64_t n) {
  const std::byte* ins[1] = {reinterpret_cast<const std::byte*>(in)};
  std::byte* outs[1] = {reinterpret_cast<std::byte*>(out)};
  loop(ins, outs, n);
}

// The SIMD loops round their vector body and their scalar tail differently in the last
// bit, so the transforms below run over groups fixed by absolute position (kGroup values
// from a multiple of kGroup, the array's end closing the last): the results do not
// depend on how the array was split among threads.
constexpr int64_t kGroup = 512;

// Box–Muller over pairs: elements 2k and 2k + 1 are r cos θ and r sin θ of the uniforms
// (u1, u2) those elements hold in the uniform stream, r = sqrt(-2 log(1 - u1)), θ = 2π u2.
template <typename T>
void normal_range(const RandomCall& c, T* out, int64_t begin, int64_t end) {
  static const LoopFn log = math_loop(Ufunc::Log, dtype_of<T>());
  static const LoopFn sin = math_loop(Ufunc::Sin, dtype_of<T>());
  static const LoopFn cos = math_loop(Ufunc::Cos, dtype_of<T>());
  constexpr int64_t kPairs = kGroup;
  T u[2 * kPairs], radius[kPairs], angle[kPairs], cosine[kPairs], sine[kPairs];
  const int64_t all_pairs = (c.out.size() + 1) / 2;
  const int64_t first_pair = begin / 2 / kPairs * kPairs, last_pair = (end + 1) / 2;
  for (int64_t p0 = first_pair; p0 < last_pair; p0 += kPairs) {
    const int64_t np = std::min(kPairs, all_pairs - p0);
    uniform_range(c, u, 2 * p0, 2 * (p0 + np));
    for (int64_t k = 0; k < np; ++k) {
      radius[k] = T(1) - u[2 * k];
      angle[k] = T(6.283185307179586) * u[2 * k + 1];
    }
    run_loop_on(log, radius, radius, np);
    for (int64_t k = 0; k < np; ++k) radius[k] = std::sqrt(T(-2) * radius[k]);
    run_loop_on(cos, angle, cosine, np);
    run_loop_on(sin, angle, sine, np);
    for (int64_t k = 0; k < np; ++k) {
      const int64_t i = 2 * (p0 + k);
      if (i >= begin && i < end) out[i - begin] = radius[k] * cosine[k];
      if (i + 1 >= begin && i + 1 < end) out[i + 1 - begin] = radius[k] * sine[k];
    }
  }
}

// -log(1 - u): the standard exponential of each uniform.
template <typename T>
void exponential_range(const RandomCall& c, T* out, int64_t begin, int64_t end) {
  static const LoopFn log = math_loop(Ufunc::Log, dtype_of<T>());
  T v[kGroup];
  for (int64_t g0 = begin / kGroup * kGroup; g0 < end; g0 += kGroup) {
    const int64_t n = std::min(kGroup, c.out.size() - g0);
    uniform_range(c, v, g0, g0 + n);
    for (int64_t i = 0; i < n; ++i) v[i] = T(1) - v[i];
    run_loop_on(log, v, v, n);
    for (int64_t i = std::max(g0, begin); i < std::min(g0 + n, end); ++i) out[i - begin] = -v[i - g0];
  }
}

template <typename T>
void floating(const RandomCall& c, void (*range)(const RandomCall&, T*, int64_t, int64_t)) {
  T* out = reinterpret_cast<T*>(c.out.data());
  parallel_for(c.out.size(), kGrain, [&](int64_t begin, int64_t end) {
    range(c, out + begin, begin, end);
  });
}

template <typename F>
void each_element(const RandomCall& c, F&& f) {
  parallel_for(c.out.size(), kGrain / 16, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) {
      kernels::PhiloxStream stream(c.key, static_cast<uint64_t>(i), c.call);
      f(i, stream);
    }
  });
}

void integers(const RandomCall& c) {
  kernels::visit_dtype(c.out.dtype(), [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_integral_v<T>) {
      T* out = reinterpret_cast<T*>(c.out.data());
      each_element(c, [&](int64_t i, kernels::PhiloxStream& s) {
        out[i] = static_cast<T>(c.low + kernels::bounded(s, c.range));
      });
    } else {
      throw std::logic_error("[random] integers into a non-integer dtype");
    }
  });
}

}  // namespace

void random(const RandomCall& c) {
  if (c.out.size() == 0) return;
  const bool single = c.out.dtype() == DType::Float32;
  switch (c.kind) {
    case RandomKind::Uniform:
      return single ? floating<float>(c, uniform_range<float>)
                    : floating<double>(c, uniform_range<double>);
    case RandomKind::Normal:
      return single ? floating<float>(c, normal_range<float>)
                    : floating<double>(c, normal_range<double>);
    case RandomKind::Exponential:
      return single ? floating<float>(c, exponential_range<float>)
                    : floating<double>(c, exponential_range<double>);
    case RandomKind::Integers:
      return integers(c);
    case RandomKind::Gamma: {
      const double* shape = reinterpret_cast<const double*>(c.a.data());
      double* out = reinterpret_cast<double*>(c.out.data());
      return each_element(c, [&](int64_t i, kernels::PhiloxStream& s) {
        out[i] = kernels::standard_gamma(s, shape[i]);
      });
    }
    case RandomKind::Poisson: {
      const double* lam = reinterpret_cast<const double*>(c.a.data());
      int64_t* out = reinterpret_cast<int64_t*>(c.out.data());
      return each_element(c, [&](int64_t i, kernels::PhiloxStream& s) {
        out[i] = kernels::poisson(s, lam[i]);
      });
    }
    case RandomKind::Binomial: {
      const double* p = reinterpret_cast<const double*>(c.a.data());
      const int64_t* n = reinterpret_cast<const int64_t*>(c.b.data());
      int64_t* out = reinterpret_cast<int64_t*>(c.out.data());
      return each_element(c, [&](int64_t i, kernels::PhiloxStream& s) {
        out[i] = kernels::binomial(s, n[i], p[i]);
      });
    }
  }
}

}  // namespace tessera::cpu
