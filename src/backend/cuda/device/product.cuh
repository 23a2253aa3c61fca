#pragma once
// Integer and bool matrix products on a CUDA device (backend/cuda/product_kernel.h): no BLAS
// multiplies integers, so each element of C is a loop over k here, wrapping as NumPy's do
// (the op's own Add and Multiply functors). Device code compiled only as text, after the
// functors (render_cuda_prologue).

namespace tessera::device {

// A GemmCall (backend/gemm_call.h) as words: column-major, strides in elements.
struct ProductParams {
  TsWord w[15];
};
enum ProductWord {
  kA, kB, kC, kM, kN, kK, kLda, kLdb, kLdc, kBatch, kStrideA, kStrideB, kStrideC, kTransA,
  kTransB,
};

// C[b][i + j ldc] = sum over p of op(A)[i, p] op(B)[p, j]: one thread per element, i fastest,
// so a warp writes a column's consecutive elements.
template <class T>
__device__ void integer_product(const ProductParams& p) {
  const T* a0 = reinterpret_cast<const T*>(p.w[kA].a);
  const T* b0 = reinterpret_cast<const T*>(p.w[kB].a);
  T* c0 = reinterpret_cast<T*>(p.w[kC].a);
  const long long m = p.w[kM].i, n = p.w[kN].i, k = p.w[kK].i;
  const long long lda = p.w[kLda].i, ldb = p.w[kLdb].i, ldc = p.w[kLdc].i;
  const bool trans_a = p.w[kTransA].i != 0, trans_b = p.w[kTransB].i != 0;
  const long long total = p.w[kBatch].i * m * n;
  grid_stride<long long>(total, [&](long long t) {
    const long long i = t % m, j = t / m % n, batch = t / (m * n);
    const T* a = a0 + batch * p.w[kStrideA].i;
    const T* b = b0 + batch * p.w[kStrideB].i;
    T acc = T(0);
    for (long long q = 0; q < k; ++q) {
      const T x = trans_a ? a[q + i * lda] : a[i + q * lda];
      const T y = trans_b ? b[j + q * ldb] : b[q + j * ldb];
      acc = static_cast<T>(tessera::kernels::Add{}(acc, tessera::kernels::Multiply{}(x, y)));
    }
    c0[batch * p.w[kStrideC].i + i + j * ldc] = acc;
  });
}

}  // namespace tessera::device
