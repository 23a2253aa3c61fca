// Decompositions and solvers: NumPy's checks and dtypes here, the batch laid out as LAPACK
// reads it (matrix_batch.h), the factorization in the backend, and LAPACK's info turned
// into LinAlgError as numpy.linalg raises it.

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "backend/backend.h"
#include "backend/matrix_batch.h"
#include "tessera/creation.h"
#include "tessera/errors.h"
#include "tessera/linalg.h"

namespace tessera {
namespace {

Dims batch_dims(const Array& a) { return Dims(a.shape().begin(), a.shape().end() - 2); }

Dims with(const Dims& batch, std::initializer_list<int64_t> tail) {
  Dims d = batch;
  for (int64_t n : tail) d.push_back(n);
  return d;
}

void require_matrices(const Array& a, const char* api) {
  if (a.ndim() < 2) {
    throw LinAlgError(std::string("[") + api + "] " + std::to_string(a.ndim()) +
                      "-dimensional array given. Array must be at least two-dimensional");
  }
}

void require_square(const Array& a, const char* api) {
  require_matrices(a, api);
  if (a.shape()[a.ndim() - 1] != a.shape()[a.ndim() - 2]) {
    throw LinAlgError(std::string("[") + api + "] Last 2 dimensions of the array must be "
                      "square, got shape " + a.shape().str());
  }
}

// LAPACK's info per matrix (int64, one per matrix of the batch).
Array new_info(const Dims& batch, Device device) {
  return zeros(batch, DType::Int64, device);
}

// LinAlgError with `message` when any matrix's info is positive.
void check_info(const Array& info, const char* api, const char* message) {
  if (info.size() == 0) return;
  std::vector<int64_t> host(info.size());
  info.copy_to_host(host.data());
  if (std::any_of(host.begin(), host.end(), [](int64_t v) { return v > 0; })) {
    throw LinAlgError(std::string("[") + api + "] " + message);
  }
  if (std::any_of(host.begin(), host.end(), [](int64_t v) { return v < 0; })) {
    throw std::logic_error(std::string("[") + api + "] LAPACK rejected an argument");
  }
}

Backend& backend(const Array& a) { return backend_for(a.device()); }

// The lower (or upper) triangle of each matrix, the rest zeroed.
Array triangle(const Array& a, bool upper) {
  const int nd = a.ndim();
  const int64_t rows = a.shape()[nd - 2], cols = a.shape()[nd - 1];
  Array rows_index = arange(rows, Scalar(int64_t{0}), Scalar(int64_t{1}), DType::Int64,
                            a.device()).reshape(Dims{rows, 1});
  Array cols_index = arange(cols, Scalar(int64_t{0}), Scalar(int64_t{1}), DType::Int64,
                            a.device()).reshape(Dims{1, cols});
  const Operand r(rows_index), c(cols_index);
  const Operand keep_ops[2] = {r, c};
  Array keep = apply_ufunc1(upper ? Ufunc::LessEqual : Ufunc::GreaterEqual, keep_ops);
  // In C order, as NumPy returns its factors (the column-major work copy is LAPACK's).
  return where(Operand(keep), Operand(a), Operand::scalar(Scalar(int64_t{0}).cast(a.dtype())))
      .copy(Order::C);
}

}  // namespace

DType linalg_dtype(DType t, const char* api) {
  switch (t) {
    case DType::Float32:
    case DType::Float64:
    case DType::Complex64:
    case DType::Complex128:
      return t;
    case DType::Float16:
      throw TypeError(std::string("[") + api + "] array type float16 is unsupported in linalg");
    default:
      return DType::Float64;
  }
}

DType linalg_dtype(DType a, DType b, const char* api) {
  return promote_types(linalg_dtype(a, api), linalg_dtype(b, api));
}

LuFactors lu_factor(const Array& a) {
  require_square(a, "lu_factor");
  const DType t = linalg_dtype(a.dtype(), "lu_factor");
  MatrixBatch m = column_major_copy(a, t);
  const Dims batch = batch_dims(a);
  Array pivots = Array::empty(with(batch, {m.rows}), DType::Int64, a.device());
  Array info = new_info(batch, a.device());
  if (m.batch > 0 && m.rows > 0) backend(a).lu_factor(m, pivots, info);
  return {m.a, pivots};
}

Array solve(const Array& a, const Array& b) {
  require_square(a, "solve");
  const bool vector = b.ndim() == 1;
  if (!vector && b.ndim() < 2) {
    throw ValueError("[solve] b must be at least one-dimensional");
  }
  const DType t = linalg_dtype(a.dtype(), b.dtype(), "solve");
  const int64_t n = a.shape()[a.ndim() - 1];
  const Array bm = vector ? b.reshape(Dims{b.shape()[0], 1}) : b;
  if (bm.shape()[bm.ndim() - 2] != n) {
    throw ValueError("[solve] Input operand 1 has a mismatch in its core dimension 0, with "
                     "gufunc signature (m,m),(m,n)->(m,n) (size " +
                     std::to_string(bm.shape()[bm.ndim() - 2]) + " is different from " +
                     std::to_string(n) + ")");
  }
  const Dims batch = broadcast_shapes({batch_dims(a), batch_dims(bm)}, "solve");
  const int64_t k = bm.shape()[bm.ndim() - 1];
  MatrixBatch lu = column_major_copy(a.broadcast_to(with(batch, {n, n})), t);
  MatrixBatch x = column_major_copy(bm.broadcast_to(with(batch, {n, k})), t);
  Array info = new_info(batch, a.device());
  if (lu.batch > 0 && n > 0 && k > 0) backend(a).solve(lu, x, info);
  check_info(info, "solve", "Singular matrix");
  return vector ? x.a.reshape(with(batch, {n})) : x.a;
}

Array cholesky(const Array& a, bool upper) {
  require_square(a, "cholesky");
  MatrixBatch m = column_major_copy(a, linalg_dtype(a.dtype(), "cholesky"));
  Array info = new_info(batch_dims(a), a.device());
  if (m.batch > 0 && m.rows > 0) backend(a).cholesky(m, upper, info);
  check_info(info, "cholesky", "Matrix is not positive definite");
  return triangle(m.a, upper);
}

QrFactors qr_factor(const Array& a) {
  require_matrices(a, "qr");
  MatrixBatch m = column_major_copy(a, linalg_dtype(a.dtype(), "qr"));
  const Dims batch = batch_dims(a);
  Array tau = Array::empty(with(batch, {std::min(m.rows, m.cols)}), m.a.dtype(), a.device());
  Array info = new_info(batch, a.device());
  if (m.batch > 0 && m.rows > 0 && m.cols > 0) backend(a).qr(m, tau, info);
  return {m.a, tau};
}

Array qr_q(const QrFactors& f, bool complete) {
  const int nd = f.a.ndim();
  const int64_t rows = f.a.shape()[nd - 2], cols = f.a.shape()[nd - 1];
  const int64_t k = std::min(rows, cols);
  const int64_t q_cols = complete ? rows : k;
  const Dims batch = batch_dims(f.a);
  MatrixBatch q = column_major_empty(batch, rows, q_cols, f.a.dtype(), f.a.device());
  if (q.a.size() == 0) return q.a;
  // Q's first columns hold the reflectors; orgqr builds Q over them.
  const int64_t shared = std::min(cols, q_cols);
  std::vector<IndexItem> first(nd - 1, IndexItem::slice(std::nullopt, std::nullopt, 1));
  first.push_back(IndexItem::slice(0, shared, 1));
  q.a.index(first).assign(f.a.index(first));
  Array info = new_info(batch, f.a.device());
  backend(f.a).qr_q(q, f.tau, k, info);
  return q.a;
}

Svd svd(const Array& a, bool full_matrices, bool compute_uv) {
  require_matrices(a, "svd");
  const DType t = linalg_dtype(a.dtype(), "svd");
  const DType real = real_dtype(t);
  const int nd = a.ndim();
  const int64_t m = a.shape()[nd - 2], n = a.shape()[nd - 1], k = std::min(m, n);
  const Dims batch = batch_dims(a);
  MatrixBatch work = column_major_copy(a, t);
  Svd r;
  r.s = Array::empty(with(batch, {k}), real, a.device());
  Array info = new_info(batch, a.device());
  std::optional<MatrixBatch> u, vt;
  if (compute_uv) {
    u = column_major_empty(batch, m, full_matrices ? m : k, t, a.device());
    vt = column_major_empty(batch, full_matrices ? n : k, n, t, a.device());
    r.u = u->a;
    r.vh = vt->a;
  }
  if (work.batch == 0) return r;
  if (k == 0) {
    // No singular values: full_matrices' u and vh are identities, as NumPy returns.
    if (compute_uv) {
      r.u = eye(u->rows, u->cols, 0, t, a.device()).broadcast_to(u->a.shape()).copy();
      r.vh = eye(vt->rows, vt->cols, 0, t, a.device()).broadcast_to(vt->a.shape()).copy();
    }
    return r;
  }
  backend(a).svd(work, r.s, compute_uv ? &*u : nullptr, compute_uv ? &*vt : nullptr,
                 full_matrices, info);
  check_info(info, "svd", "SVD did not converge");
  return r;
}

Eigen eigh(const Array& a, bool upper, bool vectors) {
  require_square(a, "eigh");
  const DType t = linalg_dtype(a.dtype(), "eigh");
  MatrixBatch m = column_major_copy(a, t);
  const Dims batch = batch_dims(a);
  Eigen r;
  r.w = Array::empty(with(batch, {m.rows}), real_dtype(t), a.device());
  Array info = new_info(batch, a.device());
  if (m.batch > 0 && m.rows > 0) backend(a).eigh(m, r.w, vectors, upper, info);
  check_info(info, "eigh", "Eigenvalues did not converge");
  if (vectors) r.v = m.a;
  return r;
}

Eigen eig(const Array& a, bool vectors) {
  require_square(a, "eig");
  const DType t = linalg_dtype(a.dtype(), "eig");
  const DType c = is_complex(t) ? t : (t == DType::Float32 ? DType::Complex64 : DType::Complex128);
  MatrixBatch m = column_major_copy(a, t);
  const Dims batch = batch_dims(a);
  Eigen r;
  r.w = Array::empty(with(batch, {m.rows}), c, a.device());
  std::optional<MatrixBatch> v;
  if (vectors) {
    v = column_major_empty(batch, m.rows, m.rows, c, a.device());
    r.v = v->a;
  }
  Array info = new_info(batch, a.device());
  if (m.batch > 0 && m.rows > 0) backend(a).eig(m, r.w, vectors ? &*v : nullptr, info);
  check_info(info, "eig", "Eigenvalues did not converge");
  return r;
}

Lstsq lstsq(const Array& a, const Array& b, double rcond) {
  require_matrices(a, "lstsq");
  const bool vector = b.ndim() == 1;
  const Array bm = vector ? b.reshape(Dims{b.shape()[0], 1}) : b;
  const int nd = a.ndim();
  const int64_t m = a.shape()[nd - 2], n = a.shape()[nd - 1], k = bm.shape()[bm.ndim() - 1];
  if (bm.ndim() != nd || bm.shape()[nd - 2] != m) {
    throw LinAlgError("[lstsq] Incompatible dimensions: a has shape " + a.shape().str() +
                      " and b has shape " + b.shape().str());
  }
  const DType t = linalg_dtype(a.dtype(), b.dtype(), "lstsq");
  const Dims batch = batch_dims(a);
  MatrixBatch work = column_major_copy(a, t);
  // b is solved in place in a buffer of max(m, n) rows: the solution is its first n.
  const int64_t rows = std::max(m, n);
  MatrixBatch x = column_major_empty(batch, rows, k, t, a.device());
  if (x.a.size() > 0) {
    x.a.fill(Scalar(int64_t{0}).cast(t));
    std::vector<IndexItem> top(nd - 2, IndexItem::slice(std::nullopt, std::nullopt, 1));
    top.push_back(IndexItem::slice(0, m, 1));
    top.push_back(IndexItem::slice(std::nullopt, std::nullopt, 1));
    x.a.index(top).assign(bm);
  }
  Lstsq r;
  r.s = Array::empty(with(batch, {std::min(m, n)}), real_dtype(t), a.device());
  r.rank = zeros(batch, DType::Int64, a.device());
  Array info = new_info(batch, a.device());
  if (work.batch > 0 && m > 0 && n > 0 && k > 0) {
    backend(a).lstsq(work, x, r.s, r.rank, rcond, info);
  } else if (work.batch > 0 && m > 0 && n > 0) {
    MatrixBatch none = column_major_empty(batch, rows, 1, t, a.device());
    none.a.fill(Scalar(int64_t{0}).cast(t));
    backend(a).lstsq(work, none, r.s, r.rank, rcond, info);
  }
  check_info(info, "lstsq", "SVD did not converge in Linear Least Squares");
  std::vector<IndexItem> solution(nd - 2, IndexItem::slice(std::nullopt, std::nullopt, 1));
  solution.push_back(IndexItem::slice(0, n, 1));
  solution.push_back(IndexItem::slice(std::nullopt, std::nullopt, 1));
  r.x = x.a.index(solution).copy(Order::C);  // NumPy's solution is C-contiguous
  if (vector) r.x = r.x.reshape(Dims(r.x.shape().begin(), r.x.shape().end() - 1));
  return r;
}

}  // namespace tessera
