#pragma once
// The eigen decomposition of real matrices on a CUDA device (backend/cuda/cusolver.cpp):
// cuSOLVER's geev returns it packed as LAPACK's does, and NumPy's eig returns complex
// eigenvalues and vectors. No library unpacks it, so this kernel does. Device code
// compiled only as text, after the functors (render_cuda_prologue).

namespace tessera::device {

// Words: the packed vectors (n×n column-major per matrix, null without vectors), the
// eigenvalues' parts (per matrix n real parts, then n imaginary parts), the complex
// eigenvalues (n per matrix) and vectors (column-major, leading dimension ld, `stride`
// elements apart) written.
struct EigenParams {
  TsWord w[8];
};
enum EigenWord { kPacked, kParts, kValues, kVectors, kEigenN, kEigenBatch, kEigenLd, kEigenStride };

// One thread per element of the vectors (or per eigenvalue without them). A conjugate
// pair (j, j+1), its first eigenvalue's imaginary part positive, is packed as the real
// and imaginary parts of v(j) in columns j and j+1; v(j+1) is v(j)'s conjugate.
template <class R, class C>
__device__ void unpack_real_eigen(const EigenParams& p) {
  const R* packed = reinterpret_cast<const R*>(p.w[kPacked].a);
  const R* parts = reinterpret_cast<const R*>(p.w[kParts].a);
  C* values = reinterpret_cast<C*>(p.w[kValues].a);
  C* vectors = reinterpret_cast<C*>(p.w[kVectors].a);
  const long long n = p.w[kEigenN].i, ld = p.w[kEigenLd].i, stride = p.w[kEigenStride].i;
  const long long rows = packed ? n : 1;
  const long long total = p.w[kEigenBatch].i * n * rows;
  grid_stride<long long>(total, [&](long long t) {
    const long long r = t % rows, j = t / rows % n, b = t / (rows * n);
    const R* part = parts + b * 2 * n;
    const R imag = part[n + j];
    if (r == 0) values[b * n + j] = C(part[j], imag);
    if (!packed) return;
    const R* column = packed + b * n * n + r;
    R re = column[j * n], im = 0;
    if (imag > 0) {
      im = column[(j + 1) * n];
    } else if (imag < 0) {
      re = column[(j - 1) * n];
      im = -column[j * n];
    }
    vectors[b * stride + r + j * ld] = C(re, im);
  });
}

}  // namespace tessera::device
