#pragma once
// Linear algebra: matrix products through BLAS.

#include <optional>

#include "tessera/array.h"
#include "tessera/ufunc.h"

namespace tessera {

// numpy.matmul: x @ y with NumPy's rules for 1-d operands (a vector is promoted to a matrix
// and the added axis removed from the result), broadcasting of the leading (stack) axes,
// and dtype promotion; `dtype` forces the computation dtype and `out` receives the result,
// each under `casting`.
Array matmul(const Array& x, const Array& y, std::optional<DType> dtype = std::nullopt,
             const std::optional<Array>& out = std::nullopt,
             Casting casting = Casting::SameKind);

}  // namespace tessera

// LAPACK-level decompositions and solvers, batched over the leading axes as NumPy's are.
// Integer and bool inputs are computed in float64; float16 raises TypeError, as in
// NumPy. Results are float32/float64/complex64/complex128; matrices come back in
// LAPACK's column-major layout (values as NumPy's, strides Fortran-ordered per matrix).
namespace tessera {

// The dtype linalg computes `t` in; TypeError naming `api` for float16.
DType linalg_dtype(DType t, const char* api);
// Of two operands: each as above (so bool with float32 is float64), then promoted.
DType linalg_dtype(DType a, DType b, const char* api);

struct LuFactors {
  Array lu;      // (..., n, n): L below the diagonal (unit diagonal implied), U on and above
  Array pivots;  // int64 (..., n): row i was swapped with row pivots[i] - 1 (LAPACK's)
};
LuFactors lu_factor(const Array& a);

// x with a @ x = b; b is a stack of vectors only when 1-d (NumPy 2). LinAlgError when a
// matrix is singular.
Array solve(const Array& a, const Array& b);

// The lower (a = L L^H) or upper (a = U^H U) Cholesky factor; the other triangle is zero.
Array cholesky(const Array& a, bool upper);

struct QrFactors {
  Array a;    // R on and above the diagonal, the Householder reflectors below
  Array tau;  // (..., min(m, n))
};
QrFactors qr_factor(const Array& a);
// Q (..., m, m if `complete` else min(m, n)) from qr_factor's result.
Array qr_q(const QrFactors& factors, bool complete);

struct Svd {
  Array u, s, vh;  // u and vh invalid without compute_uv
};
Svd svd(const Array& a, bool full_matrices, bool compute_uv);

struct Eigen {
  Array w, v;  // v invalid without vectors
};
// Hermitian: eigenvalues ascending (real dtype), read from the lower or upper triangle.
Eigen eigh(const Array& a, bool upper, bool vectors);
// General: eigenvalues and right eigenvectors, complex.
Eigen eig(const Array& a, bool vectors);

struct Lstsq {
  Array x, rank, s;  // rank int64 (...,)
};
// Minimum-norm least squares for a (..., m, n) and b (..., m) or (..., m, k); singular
// values below rcond * max(s) count as zero.
Lstsq lstsq(const Array& a, const Array& b, double rcond);

}  // namespace tessera
