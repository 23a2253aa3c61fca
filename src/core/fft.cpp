// FFTs: operands brought to the transform's dtype and to a layout the FFT library can
// read, the result allocated, and one backend call over all axes and the whole batch.

#include "tessera/fft.h"

#include <algorithm>

#include "backend/backend.h"
#include "backend/fft_call.h"
#include "tessera/errors.h"
#include "tessera/ufunc.h"

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

IndexItem all() { return IndexItem::slice(std::nullopt, std::nullopt, 1); }

// Fills out[..., h:] along `last` (of length n) from the half the real-to-complex transform
// wrote: a real signal's spectrum is Hermitian, X[k] = conj(X[-k]) with every transformed
// index negated modulo its length. Along each other transformed axis, index 0 maps to
// itself and 1..m-1 to m-1..1, so the mirror is 2^(axes-1) rectangular blocks of views.
void complete_hermitian(const Array& out, const std::vector<int>& axes) {
  const int last = axes.back();
  const int64_t n = out.shape()[last], h = n / 2 + 1;
  if (h >= n) return;
  const int others = static_cast<int>(axes.size()) - 1;
  for (int64_t mask = 0; mask < (int64_t{1} << others); ++mask) {
    std::vector<IndexItem> dst(out.ndim(), all()), src(out.ndim(), all());
    bool empty = false;
    for (int i = 0; i < others; ++i) {
      const int axis = axes[i];
      const int64_t m = out.shape()[axis];
      if (mask >> i & 1) {
        if (m < 2) empty = true;
        dst[axis] = IndexItem::slice(1, std::nullopt, 1);
        src[axis] = IndexItem::slice(m - 1, 0, -1);
      } else {
        dst[axis] = IndexItem::slice(0, 1, 1);
        src[axis] = IndexItem::slice(0, 1, 1);
      }
    }
    if (empty) continue;
    dst[last] = IndexItem::slice(h, n, 1);
    src[last] = IndexItem::slice(n - h, 0, -1);
    const Operand mirrored[1] = {out.index(src)};
    out.index(dst).assign(apply_ufunc1(Ufunc::Conjugate, mirrored));
  }
}

// The complex transform of real input: the real-to-complex transform (half the work,
// and no complex copy of the input) written into the first half of the output, the rest
// by symmetry; an inverse is the conjugate of the forward transform of a real signal.
Array real_input_c2c(const Array& a, const std::vector<int>& axes, bool forward) {
  const DType c = fft_complex_dtype(a.dtype());
  const Array in = fft_input(a, real_of(c), false);
  Array out = Array::empty(a.shape(), c, a.device());
  std::vector<IndexItem> half(out.ndim(), all());
  half[axes.back()] = IndexItem::slice(0, out.shape()[axes.back()] / 2 + 1, 1);
  backend_for(a.device()).fft(plan_fft(in, out.index(half), axes, FftKind::RealToComplex, true));
  complete_hermitian(out, axes);
  if (forward) return out;
  const Operand spectrum[1] = {out};
  return apply_ufunc1(Ufunc::Conjugate, spectrum);
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
  if (!is_complex(a.dtype()) && a.size() > 0 && !axes.empty()) {
    return real_input_c2c(a, axes, forward);
  }
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
