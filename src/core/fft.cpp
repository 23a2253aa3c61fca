// FFTs: operands brought to the transform's dtype and to a layout the FFT library can
// read, the result allocated, and one backend call over all axes and the whole batch.

#include "tessera/fft.h"

#include <algorithm>

#include "backend/backend.h"
#include "backend/fft_call.h"
#include "tessera/errors.h"

namespace tessera {
namespace {

DType real_of(DType complex) {
  return complex == DType::Complex64 ? DType::Float32 : DType::Float64;
}

// `a` in `dtype`, computed, with positive element strides; `fresh` forces a private copy
// (for transforms that overwrite their input).
Array fft_input(const Array& a, DType dtype, bool fresh) {
  if (fresh || a.dtype() != dtype) return a.astype(dtype, Order::C);
  a.data();
  return fft_readable(a) ? a : a.copy(Order::C);
}

void check_axes(const Array& a, const std::vector<int>& axes) {
  for (size_t i = 0; i < axes.size(); ++i) {
    if (axes[i] < 0 || axes[i] >= a.ndim() ||
        std::find(axes.begin(), axes.begin() + i, axes[i]) != axes.begin() + i) {
      throw ValueError("[fft] axes must be distinct axes of the array");
    }
  }
}

}  // namespace

DType fft_complex_dtype(DType t) {
  switch (t) {
    case DType::Float16:
    case DType::Float32:
    case DType::Complex64:
      return DType::Complex64;
    default:
      return DType::Complex128;
  }
}

Array fft_c2c(const Array& a, const std::vector<int>& axes, bool forward) {
  check_axes(a, axes);
  const DType c = fft_complex_dtype(a.dtype());
  const Array in = fft_input(a, c, false);
  Array out = Array::empty(a.shape(), c, a.device());
  if (out.size() == 0 || axes.empty()) {
    if (out.size() > 0) out.assign(in);
    return out;
  }
  backend_for(a.device()).fft(plan_fft(in, out, axes, FftKind::ComplexToComplex, forward));
  return out;
}

Array fft_r2c(const Array& a, const std::vector<int>& axes) {
  check_axes(a, axes);
  if (axes.empty()) throw ValueError("[rfftn] at least one axis must be transformed");
  if (is_complex(a.dtype())) {
    throw TypeError("[rfft] the input of a real transform must be real, got " +
                    std::string(dtype_name(a.dtype())));
  }
  const DType c = fft_complex_dtype(a.dtype());
  const Array in = fft_input(a, real_of(c), false);
  Dims shape = a.shape();
  shape[axes.back()] = shape[axes.back()] / 2 + 1;
  Array out = Array::empty(shape, c, a.device());
  if (a.size() == 0) return out;
  backend_for(a.device()).fft(plan_fft(in, out, axes, FftKind::RealToComplex, true));
  return out;
}

Array fft_c2r(const Array& a, const std::vector<int>& axes, int64_t n_last) {
  check_axes(a, axes);
  if (axes.empty()) throw ValueError("[irfftn] at least one axis must be transformed");
  if (a.shape()[axes.back()] != n_last / 2 + 1) {
    throw ValueError("[irfft] the last transformed axis must hold n//2+1 values");
  }
  const DType c = fft_complex_dtype(a.dtype());
  Dims shape = a.shape();
  shape[axes.back()] = n_last;
  Array out = Array::empty(shape, real_of(c), a.device());
  if (out.size() == 0) return out;
  const Array in = fft_input(a, c, true);
  backend_for(a.device()).fft(plan_fft(in, out, axes, FftKind::ComplexToReal, false));
  return out;
}

}  // namespace tessera
