#pragma once
// Fills on a CUDA device: arange, linspace and the random generators' samplers, each
// element computed by the functions the CPU backend calls (kernels/range.h,
// kernels/philox.h), so the same inputs give the same values on both. Device code compiled
// only as text, after the functors and the kernel support (render_cuda_prologue), by NVRTC
// or by the simulator; backend/cuda/fill_kernel.cpp renders one kernel per dtype that
// calls one of these.

namespace tessera::device {

// The parameter of every fill kernel (fill_kernel.cpp packs it). Values of the output's
// dtype are stored as their bytes, one or two words.
struct FillParams {
  TsWord w[14];
};
enum FillWord {
  kOut, kCount,
  // arange: its first two values; linspace: start, stop, step, delta, div, flags.
  kValues,
  // the random samplers
  kKey = kValues, kCall, kLow, kRange, kParamA, kParamB,
};

template <class T>
__device__ __forceinline__ T word_value(const FillParams& p, int w) {
  return *reinterpret_cast<const T*>(&p.w[w]);
}

template <class T>
__device__ void arange_fill(const FillParams& p) {
  T* out = reinterpret_cast<T*>(p.w[kOut].a);
  const T first = word_value<T>(p, kValues), second = word_value<T>(p, kValues + 2);
  grid_stride<long long>(p.w[kCount].i, [&](long long i) {
    out[i] = tessera::kernels::arange_value(static_cast<int64_t>(i), first, second);
  });
}

template <class T>
__device__ void linspace_fill(const FillParams& p) {
  T* out = reinterpret_cast<T*>(p.w[kOut].a);
  const long long flags = p.w[kValues + 9].i;
  const tessera::kernels::LinspaceValues<T> values{
      word_value<T>(p, kValues),     word_value<T>(p, kValues + 2),
      word_value<T>(p, kValues + 4), word_value<T>(p, kValues + 6),
      p.w[kValues + 8].i,            (flags & 1) != 0,
      (flags & 2) != 0,              (flags & 4) != 0};
  const long long n = p.w[kCount].i;
  grid_stride<long long>(n, [&](long long i) { out[i] = values(static_cast<int64_t>(i), n); });
}

// The uniform stream's block g: elements [g * per, g * per + per) of a float64 stream
// (per = 2) or a float32 one (per = 4), as the CPU's uniform_blocks forms them.
template <class T>
struct UniformBlock {
  static constexpr int per = sizeof(T) == 8 ? 2 : 4;
  T u[per];

  __device__ UniformBlock(const FillParams& p, long long g) {
    const unsigned long long key = p.w[kKey].u;
    const auto b = tessera::kernels::philox4x32_10(
        {{static_cast<uint32_t>(g), static_cast<uint32_t>(static_cast<unsigned long long>(g) >> 32),
          0u, static_cast<uint32_t>(p.w[kCall].u)}},
        static_cast<uint32_t>(key), static_cast<uint32_t>(key >> 32));
    if constexpr (per == 2) {
      u[0] = tessera::kernels::uniform_double(b.v[0], b.v[1]);
      u[1] = tessera::kernels::uniform_double(b.v[2], b.v[3]);
    } else {
      for (int j = 0; j < 4; ++j) u[j] = tessera::kernels::uniform_float(b.v[j]);
    }
  }
};

// One thread per block of the uniform stream; `f(i, block)` writes element i (< n) of it.
template <class T, class F>
__device__ __forceinline__ void each_block(const FillParams& p, F&& f) {
  constexpr int per = UniformBlock<T>::per;
  const long long n = p.w[kCount].i;
  grid_stride<long long>((n + per - 1) / per, [&](long long g) {
    const UniformBlock<T> block(p, g);
    for (int j = 0; j < per && g * per + j < n; ++j) f(g * per + j, block, j);
  });
}

template <class T>
__device__ void uniform_fill(const FillParams& p) {
  T* out = reinterpret_cast<T*>(p.w[kOut].a);
  each_block<T>(p, [&](long long i, const UniformBlock<T>& b, int j) { out[i] = b.u[j]; });
}

// Box–Muller over the pairs (2k, 2k + 1) of the uniform stream, in T's precision, as the
// CPU's normal_range: r = sqrt(-2 log(1 - u1)), θ = 2π u2; r cos θ, r sin θ. Blocks hold
// whole pairs. The CPU evaluates log, sin and cos with its SIMD loops, this with CUDA's
// math library: the values agree to a few ULP (docs/cuda.md).
template <class T>
__device__ void normal_fill(const FillParams& p) {
  T* out = reinterpret_cast<T*>(p.w[kOut].a);
  each_block<T>(p, [&](long long i, const UniformBlock<T>& b, int j) {
    const int pair = j & ~1;
    const T radius = std::sqrt(T(-2) * std::log(T(1) - b.u[pair]));
    const T angle = T(6.283185307179586) * b.u[pair + 1];
    out[i] = radius * ((j & 1) ? std::sin(angle) : std::cos(angle));
  });
}

// -log(1 - u): the standard exponential of each uniform.
template <class T>
__device__ void exponential_fill(const FillParams& p) {
  T* out = reinterpret_cast<T*>(p.w[kOut].a);
  each_block<T>(p, [&](long long i, const UniformBlock<T>& b, int j) {
    out[i] = -std::log(T(1) - b.u[j]);
  });
}

// The samplers of one private stream per element (kernels::PhiloxStream): `f(i, stream)`
// writes element i.
template <class F>
__device__ __forceinline__ void each_stream(const FillParams& p, F&& f) {
  grid_stride<long long>(p.w[kCount].i, [&](long long i) {
    tessera::kernels::PhiloxStream s(p.w[kKey].u, static_cast<uint64_t>(i),
                                     static_cast<uint32_t>(p.w[kCall].u));
    f(i, s);
  });
}

template <class T>
__device__ void integers_fill(const FillParams& p) {
  T* out = reinterpret_cast<T*>(p.w[kOut].a);
  each_stream(p, [&](long long i, tessera::kernels::PhiloxStream& s) {
    out[i] = static_cast<T>(p.w[kLow].u + tessera::kernels::bounded(s, p.w[kRange].u));
  });
}

__device__ inline void gamma_fill(const FillParams& p) {
  double* out = reinterpret_cast<double*>(p.w[kOut].a);
  const double* shape = reinterpret_cast<const double*>(p.w[kParamA].a);
  each_stream(p, [&](long long i, tessera::kernels::PhiloxStream& s) {
    out[i] = tessera::kernels::standard_gamma(s, shape[i]);
  });
}

__device__ inline void poisson_fill(const FillParams& p) {
  long long* out = reinterpret_cast<long long*>(p.w[kOut].a);
  const double* lam = reinterpret_cast<const double*>(p.w[kParamA].a);
  each_stream(p, [&](long long i, tessera::kernels::PhiloxStream& s) {
    out[i] = tessera::kernels::poisson(s, lam[i]);
  });
}

__device__ inline void binomial_fill(const FillParams& p) {
  long long* out = reinterpret_cast<long long*>(p.w[kOut].a);
  const double* prob = reinterpret_cast<const double*>(p.w[kParamA].a);
  const long long* trials = reinterpret_cast<const long long*>(p.w[kParamB].a);
  each_stream(p, [&](long long i, tessera::kernels::PhiloxStream& s) {
    out[i] = tessera::kernels::binomial(s, trials[i], prob[i]);
  });
}

}  // namespace tessera::device
