#pragma once
// The descriptor of a batched matrix product in BLAS's column-major terms: what OpenBLAS's
// cblas_?gemm_batch_strided and cuBLAS's cublasGemmStridedBatchedEx take. Built here,
// once, for every backend (DESIGN.md, "CUDA without a GPU", point 3), so the CPU tests
// check the transposes and leading dimensions that the CUDA backend will pass to cuBLAS.

#include <cstdint>
#include <vector>

#include "tessera/array.h"

namespace tessera {

// C[b] = op(A[b]) · op(B[b]) for b < batch, column-major: C is m×n with leading dimension
// ldc; op(A) is m×k, op(B) is k×n; op(X) = X^T when trans_x (X then stored k×m or n×k).
// Strides are in elements. `a`, `b` and `c` view the first matrix of the batch.
struct GemmCall {
  bool trans_a = false;
  bool trans_b = false;
  int64_t m = 0, n = 0, k = 0;
  int64_t lda = 1, ldb = 1, ldc = 1;
  int64_t batch = 1;
  int64_t stride_a = 0, stride_b = 0, stride_c = 0;
  Array a, b, c;
};

// Whether a BLAS can read the matrices in x's last two axes as they lie: one of the two
// axes unit-strided and the other a non-negative multiple of the element size (any stride
// along an axis of length 1). Otherwise the caller copies x first.
bool gemm_readable(const Array& x);

// The calls computing out = x @ y for x (..., m, k), y (..., k, n) and out (..., m, n),
// all of one dtype, with equal leading shapes (broadcast views allowed in x and y), x and
// y gemm_readable, out C-contiguous, k > 0 and out non-empty. Leading axes that merge
// into one uniform stride make one batched call; the others are iterated.
std::vector<GemmCall> plan_matmul(const Array& x, const Array& y, const Array& out);

}  // namespace tessera
