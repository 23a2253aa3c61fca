#include "jit/host_services.h"

#include <cmath>
#include <complex>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backend/cpu/cpu_backend.h"
#include "jit/render_python_body.h"
#include "tessera/creation.h"
#include "tessera/errors.h"
#include "tessera/linalg.h"
#include "tessera/reduction.h"
#include "tessera/ufunc.h"

namespace tessera::jit {
namespace {

// The runtime's Raise codes of np.linalg's errors (jit/python_runtime.h).
enum Code : int {
  kSingular = 22,
  kNotPositiveDefinite = 23,
  kNotSquare = 24,
  kNotFinite = 25,
  kIncompatible = 26,
  kNoConvergence = 27,
  kDomainChange = 28,
};

struct Failure {
  int code;
};

// The memory of a compiled function's array, seen as a tessera array (not owned).
Array memory_view(DType dtype, int ndim, const char* data, const long long* shape,
                  const long long* strides) {
  Dims dims(ndim), steps(ndim);
  int64_t low = 0, high = 0;
  bool empty = false;
  for (int d = 0; d < ndim; ++d) {
    dims[d] = shape[d];
    steps[d] = strides[d];
    empty = empty || shape[d] == 0;
    const int64_t span = shape[d] > 0 ? (shape[d] - 1) * strides[d] : 0;
    (span < 0 ? low : high) += span;
  }
  const size_t bytes = empty ? 0 : static_cast<size_t>(high - low + itemsize(dtype));
  auto buffer = Buffer::wrap(Device::cpu(), const_cast<char*>(data + low), bytes, nullptr);
  return Array(buffer, dtype, dims, steps, -low);
}

// The value of a 0-d array of `T`'s dtype.
template <class T>
T value_of(const Array& zero_d) {
  T v{};
  zero_d.copy_to_host(&v);
  return v;
}

void require_square(const Array& a) {
  if (a.ndim() != 2 || a.shape()[0] != a.shape()[1]) throw Failure{kNotSquare};
}

// Numba checks that the operands of most of np.linalg hold no inf or NaN. Read from the
// operand's memory directly: on the small matrices of a loop, an elementwise op and a
// reduction of the engine would cost more than the factorization.
template <class Part>
bool all_finite(const LinalgArray& a, int parts) {
  const long long rows = a.ndim > 0 ? a.shape[0] : 1, cols = a.ndim > 1 ? a.shape[1] : 1;
  const long long row_step = a.ndim > 0 ? a.strides[0] : 0, col_step = a.ndim > 1 ? a.strides[1] : 0;
  for (long long i = 0; i < rows; ++i) {
    for (long long j = 0; j < cols; ++j) {
      const Part* p = reinterpret_cast<const Part*>(a.data + i * row_step + j * col_step);
      for (int k = 0; k < parts; ++k) {
        if (!std::isfinite(p[k])) return false;
      }
    }
  }
  return true;
}

void require_finite(const LinalgArray& a, DType t) {
  const bool single = t == DType::Float32 || t == DType::Complex64;
  const int parts = is_complex(t) ? 2 : 1;
  if (!(single ? all_finite<float>(a, parts) : all_finite<double>(a, parts))) {
    throw Failure{kNotFinite};
  }
}

// `c` as a new malloc'd C-contiguous block, which the caller owns.
LinalgArray handed_over(const Array& c) {
  const DType dtype = c.dtype();
  LinalgArray o{};
  o.ndim = c.ndim();
  const size_t bytes = static_cast<size_t>(c.size()) * itemsize(dtype);
  o.data = static_cast<char*>(std::malloc(bytes > 0 ? bytes : 1));
  if (o.data == nullptr) throw std::bad_alloc();
  int64_t stride = itemsize(dtype);
  for (int d = c.ndim() - 1; d >= 0; --d) {
    o.shape[d] = c.shape()[d];
    o.strides[d] = stride;
    stride *= c.shape()[d];
  }
  if (bytes > 0) c.copy_to_host(o.data);
  return o;
}

// The residuals NumPy's lstsq returns: the squared norm of each column of b - a @ x where
// a has full column rank and more rows than columns, else none.
Array lstsq_residuals(const Array& a, const Array& b, const Lstsq& r) {
  const int64_t m = a.shape()[0], n = a.shape()[1];
  const DType real = real_dtype(r.x.dtype());
  if (value_of<int64_t>(r.rank) != n || m <= n) return Array::empty(Dims{0}, real, Device::cpu());
  const Operand residual_ops[2] = {Operand(b), Operand(matmul(a, r.x))};
  const Array residual = apply_ufunc1(Ufunc::Subtract, residual_ops);
  const Operand abs_op(residual);
  const Array magnitude = apply_ufunc1(Ufunc::Absolute, std::span(&abs_op, 1));
  const Operand square_ops[2] = {Operand(magnitude), Operand(magnitude)};
  ReduceOptions rows;
  rows.axis = std::vector<int64_t>{0};
  const Array sums = reduce(Ufunc::Add, apply_ufunc1(Ufunc::Multiply, square_ops), rows);
  return b.ndim() == 1 ? sums.reshape(Dims{1}) : sums;
}

// The element (i, j) of a 1-d (j = 0) or 2-d operand.
const char* element(const LinalgArray& a, long long i, long long j) {
  return a.data + i * a.strides[0] + (a.ndim > 1 ? j * a.strides[1] : 0);
}

bool lapack_dtype(DType t) {
  return t == DType::Float32 || t == DType::Float64 || t == DType::Complex64 ||
         t == DType::Complex128;
}

// The rows x columns operand `a` (a 1-d one as a column) copied into LAPACK's layout.
std::vector<char> column_major(const LinalgArray& a, long long rows, long long columns,
                               size_t size) {
  std::vector<char> m(static_cast<size_t>(rows * columns) * size);
  for (long long j = 0; j < columns; ++j) {
    for (long long i = 0; i < rows; ++i) std::memcpy(&m[(i + j * rows) * size], element(a, i, j), size);
  }
  return m;
}

// A new malloc'd C-contiguous rows x columns result of `ndim` dimensions (1: a column),
// which the caller owns.
LinalgArray new_result(long long rows, long long columns, size_t size, int ndim) {
  LinalgArray x{};
  x.ndim = ndim;
  x.shape[0] = rows;
  x.strides[0] = static_cast<long long>(size) * columns;
  x.shape[1] = columns;
  x.strides[1] = static_cast<long long>(size);
  x.data = static_cast<char*>(std::malloc(static_cast<size_t>(rows * columns) * size));
  if (x.data == nullptr) throw std::bad_alloc();
  return x;
}

// A column-major rows x columns matrix as a new result (new_result).
LinalgArray c_order_result(const std::vector<char>& m, long long rows, long long columns,
                           size_t size, int ndim) {
  LinalgArray x = new_result(rows, columns, size, ndim);
  for (long long i = 0; i < rows; ++i) {
    for (long long j = 0; j < columns; ++j) {
      std::memcpy(x.data + (i * columns + j) * size, &m[(i + j * rows) * size], size);
    }
  }
  return x;
}

// np.linalg.solve(a, b) and the LU factors behind det/slogdet, straight on the operands'
// memory for the float and complex dtypes LAPACK takes: the operands copied column-major,
// one gesv or getrf, the results copied back in C order. The engine's batched linalg
// builds arrays, a batch layout, an info array and results on every call, which cost 7x
// the factorization of a 4x4 system. Null when the general path takes the call: other
// dtypes, empty operands.
std::optional<int> solve_direct(DType t, const LinalgArray& a, const LinalgArray& b,
                                LinalgArray& x) {
  if (!lapack_dtype(t) || a.ndim != 2 || a.shape[0] == 0 || b.shape[0] == 0) return std::nullopt;
  if (b.ndim == 2 && b.shape[1] == 0) return std::nullopt;
  const long long n = a.shape[0];
  if (a.shape[1] != n) return kNotSquare;
  if (b.shape[0] != n) return kIncompatible;
  const size_t size = itemsize(t);
  const long long columns = b.ndim == 2 ? b.shape[1] : 1;
  std::vector<char> lu = column_major(a, n, n, size);
  std::vector<char> rhs = column_major(b, n, columns, size);
  if (cpu::solve_column_major(t, n, columns, lu.data(), rhs.data()) > 0) return kSingular;
  x = c_order_result(rhs, n, columns, size, b.ndim);
  return 0;
}

std::optional<int> lu_factor_direct(DType t, const LinalgArray& a, LinalgArray* out) {
  if (!lapack_dtype(t) || a.ndim != 2 || a.shape[0] == 0) return std::nullopt;
  const long long n = a.shape[0];
  if (a.shape[1] != n) return kNotSquare;
  const size_t size = itemsize(t);
  std::vector<char> lu = column_major(a, n, n, size);
  const LinalgArray pivots = new_result(n, 1, sizeof(int64_t), 1);
  // A singular matrix has factors too (a zero on U's diagonal): det reads them.
  cpu::lu_factor_column_major(t, n, lu.data(), reinterpret_cast<int64_t*>(pivots.data));
  try {
    out[0] = c_order_result(lu, n, n, size, 2);
  } catch (...) {
    std::free(pivots.data);
    throw;
  }
  out[1] = pivots;
  return 0;
}

std::vector<Array> compute(const std::string& op, double param, const std::vector<Array>& in) {
  const Array& a = in.at(0);
  const bool square = op == "solve" || op == "lu_factor" || op == "cholesky" ||
                      op == "eigh" || op == "eigvalsh" || op == "eig" || op == "eigvals";
  if (square) require_square(a);
  try {
    if (op == "solve") {
      const Array& b = in.at(1);
      if (b.shape()[0] != a.shape()[0]) throw Failure{kIncompatible};
      return {solve(a, b)};
    }
    if (op == "lu_factor") {
      LuFactors f = lu_factor(a);
      return {f.lu, f.pivots};
    }
    if (op == "cholesky") return {cholesky(a, false)};
    if (op == "qr") {
      const QrFactors f = qr_factor(a);
      const int64_t k = std::min(a.shape()[0], a.shape()[1]);
      const Array r = f.a.index({IndexItem::slice(0, k, 1),
                                 IndexItem::slice(std::nullopt, std::nullopt, 1)});
      // R: the factors' upper triangle, the reflectors below it zeroed.
      const Operand zero = Operand::scalar(Scalar(int64_t{0}).cast(r.dtype()));
      const Array rows = arange(k, Scalar(int64_t{0}), Scalar(int64_t{1}), DType::Int64,
                                Device::cpu()).reshape(Dims{k, 1});
      const Array cols = arange(r.shape()[1], Scalar(int64_t{0}), Scalar(int64_t{1}),
                                DType::Int64, Device::cpu()).reshape(Dims{1, r.shape()[1]});
      const Operand keep_ops[2] = {Operand(rows), Operand(cols)};
      const Array keep = apply_ufunc1(Ufunc::LessEqual, keep_ops);
      return {qr_q(f, false), where(Operand(keep), Operand(r), zero)};
    }
    if (op == "svd" || op == "svdvals") {
      const bool vectors = op == "svd";
      Svd s = svd(a, param != 0, vectors);
      if (!vectors) return {s.s};
      return {s.u, s.s, s.vh};
    }
    if (op == "eigh" || op == "eigvalsh") {
      const bool vectors = op == "eigh";
      Eigen e = eigh(a, false, vectors);
      if (!vectors) return {e.w};
      return {e.w, e.v};
    }
    if (op == "eig" || op == "eigvals") {
      const bool vectors = op == "eig";
      Eigen e = eig(a, vectors);
      std::vector<Array> results = {e.w};
      if (vectors) results.push_back(e.v);
      if (!is_complex(a.dtype())) {
        // Numba gives real input real results, and refuses a complex spectrum.
        for (Array& r : results) {
          const Operand imag_op(r.imag());
          const Operand zero = Operand::scalar(Scalar(0.0));
          const Operand ne_ops[2] = {imag_op, zero};
          ReduceOptions any;
          const Array nonzero = apply_ufunc1(Ufunc::NotEqual, ne_ops);
          if (r.size() > 0 && value_of<bool>(reduce(Ufunc::LogicalOr, nonzero, any))) {
            throw Failure{kDomainChange};
          }
          r = r.real();
        }
      }
      return results;
    }
    if (op == "lstsq") {
      const Array& b = in.at(1);
      if (b.shape()[0] != a.shape()[0]) throw Failure{kIncompatible};
      // Numba's rcond -1 (its default) is machine precision, as LAPACK's gelsd reads it.
      const DType t = a.dtype();
      const double eps = t == DType::Float32 || t == DType::Complex64 ? 1.1920928955078125e-07
                                                                        : 2.220446049250313e-16;
      const Lstsq r = lstsq(a, b, param < 0 ? eps : param);
      return {r.x, lstsq_residuals(a, b, r), r.rank, r.s};
    }
  } catch (const LinAlgError&) {
    throw Failure{op == "solve" ? kSingular : op == "cholesky" ? kNotPositiveDefinite
                                                               : kNoConvergence};
  }
  throw std::invalid_argument("[jit] no linalg service " + op);
}

}  // namespace

void matmul_service(const char* dtype, int ndim_a, const char* a, const long long* a_shape,
                    const long long* a_strides, int ndim_b, const char* b,
                    const long long* b_shape, const long long* b_strides, char* out) {
  const DType t = python_ir::dtype_named(dtype);  // the module names its own dtypes
  const Array product = matmul(memory_view(t, ndim_a, a, a_shape, a_strides),
                               memory_view(t, ndim_b, b, b_shape, b_strides));
  product.copy_to_host(out);
}

int linalg_service(const char* op, const char* dtype, double param, int inputs,
                   const LinalgArray* in, int outputs, LinalgArray* out) {
  const DType t = python_ir::dtype_named(dtype);
  std::vector<Array> results;
  try {
    // Numba's cholesky reads only the lower triangle and checks nothing else.
    if (std::string_view(op) != "cholesky") {
      for (int i = 0; i < inputs; ++i) require_finite(in[i], t);
    }
    if (std::string_view(op) == "solve" && outputs == 1) {
      if (const std::optional<int> code = solve_direct(t, in[0], in[1], out[0])) return *code;
    }
    if (std::string_view(op) == "lu_factor" && outputs == 2) {
      if (const std::optional<int> code = lu_factor_direct(t, in[0], out)) return *code;
    }
    std::vector<Array> operands;
    for (int i = 0; i < inputs; ++i) {
      operands.push_back(memory_view(t, in[i].ndim, in[i].data, in[i].shape, in[i].strides));
    }
    results = compute(op, param, operands);
  } catch (const Failure& f) {
    return f.code;
  }
  // Each result in the engine's dtype: the operands' (of a float or complex dtype, which
  // linalg keeps), their real dtype for singular values, eigenvalues of Hermitian matrices
  // and residuals, int64 for pivots and ranks: the types the front end gives them.
  int handed = 0;
  try {
    for (; handed < outputs; ++handed) {
      out[handed] = handed_over(results.at(static_cast<size_t>(handed)));
    }
  } catch (...) {
    for (int i = 0; i < handed; ++i) std::free(out[i].data);
    throw;
  }
  return 0;
}

}  // namespace tessera::jit
