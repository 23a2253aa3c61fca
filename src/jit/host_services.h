#pragma once
// What code compiled from Python functions (jit/python_runtime.h) calls back into the
// engine for: products and np.linalg's decompositions, computed by tessera's matmul and
// linalg on the module's memory. The module's ts_python_bind receives these entry points;
// their signatures are the runtime's MatmulService and LinalgService.

namespace tessera::jit {

// a @ b of 1-d and 2-d operands of the dtype named `dtype` into `out`, a new C-contiguous
// array of the result's shape.
void matmul_service(const char* dtype, int ndim_a, const char* a, const long long* a_shape,
                    const long long* a_strides, int ndim_b, const char* b,
                    const long long* b_shape, const long long* b_strides, char* out);

// An operand or result of linalg_service: python_runtime.h's LinalgArray, the same layout.
struct LinalgArray {
  char* data;
  int ndim;
  long long shape[2];
  long long strides[2];
};

// np.linalg's function `op` on `inputs` 2-d (or 1-d right-hand side) arrays of the dtype
// named `dtype`, with Numba's checks and errors: each of its `outputs` results a new
// malloc'd C-contiguous block the caller owns (a number as a 0-d one). Returns 0, or the
// runtime's Raise code of the error, having freed its results. The ops: "solve" (a, b),
// "lu_factor" (lu, pivots), "cholesky", "qr" (q, r), "svd" (u, s, vh; param: full
// matrices when nonzero), "svdvals", "eigh" (w, v), "eigvalsh", "eig" (w, v), "eigvals",
// "lstsq" (x, residuals, rank, s; param: rcond).
int linalg_service(const char* op, const char* dtype, double param, int inputs,
                   const LinalgArray* in, int outputs, LinalgArray* out);

}  // namespace tessera::jit
