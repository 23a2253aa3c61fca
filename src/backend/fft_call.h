#pragma once
// The descriptor of a batched multi-dimensional FFT: what FFTW's guru interface and cuFFT's
// cufftPlanMany/cufftXtMakePlanMany describe. Built here, once, for every backend
// (DESIGN.md, "CUDA without a GPU", point 3).

#include <cstdint>
#include <vector>

#include "tessera/array.h"

namespace tessera {

enum class FftKind { ComplexToComplex, RealToComplex, ComplexToReal };

// One axis: its logical length and the element strides of input and output along it.
struct FftAxis {
  int64_t n = 0;
  int64_t in_stride = 0;
  int64_t out_stride = 0;
};

// Transforms `in` into `out` over `axes` (in order; for the real transforms the last of
// them is the halved one: n//2+1 complex values stand for n real ones), looping over
// `batch`. Unnormalized, as FFTW and cuFFT compute: forward e^-2πi jk/n, inverse e^+2πi.
struct FftCall {
  FftKind kind = FftKind::ComplexToComplex;
  bool forward = true;
  std::vector<FftAxis> axes;
  std::vector<FftAxis> batch;
  Array in, out;
};

// Whether an FFT library can read or write `a` as it lies: positive element strides
// (every axis of length 1 aside). Otherwise the caller copies it first.
bool fft_readable(const Array& a);

// The call for `in` -> `out` over `axes` (distinct, non-negative). The transformed axes'
// logical lengths come from the real side: in for ComplexToComplex and RealToComplex, out
// for ComplexToReal.
FftCall plan_fft(const Array& in, const Array& out, const std::vector<int>& axes,
                 FftKind kind, bool forward);

}  // namespace tessera
