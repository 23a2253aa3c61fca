#pragma once
// Fast Fourier transforms, unnormalized (forward e^-2πi jk/n, inverse e^+2πi jk/n): the
// Python layer applies NumPy's norm= and n=/s= on top.

#include <vector>

#include "tessera/array.h"

namespace tessera {

// The complex dtype a transform of `t` computes in: complex64 for float16, float32 and
// complex64 (NumPy 2 keeps single precision), complex128 otherwise.
DType fft_complex_dtype(DType t);

// The complex transform of a over `axes` (distinct); the result has a's shape.
Array fft_c2c(const Array& a, const std::vector<int>& axes, bool forward);
// The forward transform of real a over `axes`: the last of them keeps n//2+1 values.
Array fft_r2c(const Array& a, const std::vector<int>& axes);
// The inverse of fft_r2c: a's last transformed axis holds n_last//2+1 values of a
// Hermitian-symmetric signal whose real values (n_last along that axis) are returned.
Array fft_c2r(const Array& a, const std::vector<int>& axes, int64_t n_last);

}  // namespace tessera
