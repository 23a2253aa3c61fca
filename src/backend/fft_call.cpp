#include "backend/fft_call.h"

#include <algorithm>

namespace tessera {

bool fft_readable(const Array& a) {
  for (int d = 0; d < a.ndim(); ++d) {
    if (a.shape()[d] == 1) continue;
    const int64_t s = a.strides()[d];
    if (s <= 0 || s % a.itemsize() != 0) return false;
  }
  return true;
}

FftCall plan_fft(const Array& in, const Array& out, const std::vector<int>& axes,
                 FftKind kind, bool forward) {
  FftCall call;
  call.kind = kind;
  call.forward = forward;
  call.in = in;
  call.out = out;
  const Array& logical = kind == FftKind::ComplexToReal ? out : in;
  auto axis = [&](int d) {
    return FftAxis{logical.shape()[d], in.strides()[d] / in.itemsize(),
                   out.strides()[d] / out.itemsize()};
  };
  for (int d : axes) call.axes.push_back(axis(d));
  for (int d = 0; d < in.ndim(); ++d) {
    if (std::find(axes.begin(), axes.end(), d) == axes.end() && in.shape()[d] != 1) {
      call.batch.push_back(axis(d));
    }
  }
  return call;
}

}  // namespace tessera
