// matmul: the gufunc (n?,k),(k,m?)->(n?,m?). Shapes, dtypes and layouts are settled here;
// the backend multiplies the matrices it is handed (floating ones through its BLAS).

#include <algorithm>
#include <cmath>
#include <complex>

#include "backend/backend.h"
#include "backend/gemm_call.h"
#include "core/fp_events.h"
#include "core/pending.h"
#include "expr/expr.h"
#include "core/ufunc_resolve.h"
#include "tessera/creation.h"
#include "tessera/errors.h"
#include "tessera/linalg.h"
#include "tessera/reduction.h"

namespace tessera {
namespace {

constexpr const char* kSignature = "(n?,k),(k,m?)->(n?,m?)";

void require_matrix_or_vector(const Array& a, int index) {
  if (a.ndim() == 0) {
    throw ValueError("[matmul] Input operand " + std::to_string(index) +
                     " does not have enough dimensions (has 0, gufunc core with signature " +
                     kSignature + " requires 1)");
  }
}

DType computation_dtype(const Array& x, const Array& y, std::optional<DType> dtype,
                        Casting casting) {
  const Operand both[2] = {x, y};
  const DType common = dtype ? *dtype : result_type(both);
  for (const Array* a : {&x, &y}) {
    if (!can_cast(a->dtype(), common, casting)) {
      throw TypeError("[matmul] Cannot cast ufunc 'matmul' input from " + dtype_repr(a->dtype()) +
                      " to " + dtype_repr(common) + " with casting rule '" +
                      casting_name(casting) + "'");
    }
  }
  return common;
}

// The operand as the BLAS will read it: in the computation dtype, computed, and laid out
// with a unit stride along one of its matrix axes.
Array gemm_operand(const Array& a, DType dtype) {
  Array x = a.dtype() == dtype ? a : a.astype(dtype);
  x.data();
  return gemm_readable(x) ? x : x.copy(Order::C);
}

Dims with_matrix(const Dims& leading, int64_t rows, int64_t cols) {
  Dims d = leading;
  d.push_back(rows);
  d.push_back(cols);
  return d;
}

Dims leading_dims(const Array& a) { return Dims(a.shape().begin(), a.shape().end() - 2); }

// Up to expr::kMaxDotTerms terms per element a product of two matrices is a Dot node:
// the result stays pending and fuses with what uses it (a distance matrix's
// x2[:, None] - 2 * x @ y.T + y2 is one pass writing the result once, not four). With so
// few terms the product is bound by writing the output, so BLAS gains nothing over it.
bool multiplies_as_dot(const Array& x, const Array& y, int64_t m, int64_t k, int64_t n,
                       DType work) {
  return x.device().is_cpu() && x.ndim() == 2 && y.ndim() == 2 && k > 0 &&
         k <= expr::kMaxDotTerms &&
         (work == DType::Float32 || work == DType::Float64) && m * n >= lazy_min_elements() &&
         !fp_modes().acts_at_once();
}

// x (m, k) @ y (k, n) as a pending Dot node over the (m, n) result: x's row and y's
// column viewed at every element (stride 0 along the other axis), y's rows made
// contiguous first so a row of the result is a few vector multiply-adds.
Array dot_product(const Array& x, const Array& y, DType work) {
  const Array a = gemm_operand(x, work);
  Array b = gemm_operand(y, work);
  const int64_t item = itemsize(work);
  if (b.strides()[1] != item) b = b.copy(Order::C);
  const int64_t m = a.shape()[0], n = b.shape()[1];
  PendingOriginScope origin;
  const Array rows = a.as_strided({m, n}, {a.strides()[0], 0}, a.offset());
  const Array cols = b.as_strided({m, n}, {0, b.strides()[1]}, b.offset());
  const int64_t steps[2] = {a.strides()[1], b.strides()[0]};
  const Dims shape{m, n};
  return make_pending(expr::dot(rows, cols, static_cast<int>(a.shape()[1]), steps), shape,
                      contiguous_strides(shape, item, Order::C), x.device());
}

bool any_true(const Array& mask) {
  bool any = false;
  reduce(Ufunc::LogicalOr, mask).copy_to_host(&any);
  return any;
}

// Whether every element of the floating `out` is finite, at the speed of reading it once:
// inf and NaN survive any sum, so a finite sum (the SIMD fold's) settles it, and only a
// sum that overflowed needs the element test. The sum's own overflow is not reported.
bool all_finite(const Array& out) {
  struct Quiet {
    const FpModes saved = fp_modes();
    Quiet() {
      set_fp_modes(FpModes{{FpMode::Ignore, FpMode::Ignore, FpMode::Ignore, FpMode::Ignore}});
    }
    ~Quiet() { set_fp_modes(saved); }
  };
  std::byte sum[16];
  {
    const Quiet quiet;
    reduce(Ufunc::Add, out).copy_to_host(sum);
  }
  const std::complex<double> total = Scalar(out.dtype(), sum).to_complex();
  if (std::isfinite(total.real()) && std::isfinite(total.imag())) return true;
  return !any_true(logical_not(isfinite(out)));
}

// OpenBLAS's threads keep their floating-point flags to themselves, so on the CPU
// the errors NumPy's matmul reports are read from the values instead. Once a product or a
// sum overflows, the element stays inf or becomes NaN: a finite result raised neither error.
// A non-finite result is traced to its cause where the inputs settle it: from finite inputs
// something overflowed; NaN from inputs without NaN came from an invalid operation (inf * 0,
// inf - inf). What inputs that hold inf or NaN themselves can explain is not reported.
void record_blas_fp_errors(const Array& a, const Array& b, const Array& out) {
  if (!is_floating(out.dtype()) && !is_complex(out.dtype())) return;
  const FpModes modes = fp_modes();
  if (modes[FpError::Overflow] == FpMode::Ignore && modes[FpError::Invalid] == FpMode::Ignore) {
    return;
  }
  if (all_finite(out)) return;
  const bool nan_in = any_true(isnan(a)) || any_true(isnan(b));
  const bool finite_in = !nan_in && !any_true(isinf(a)) && !any_true(isinf(b));
  unsigned raised = finite_in ? fp_bit(FpError::Overflow) : 0;
  if (!nan_in && any_true(isnan(out))) raised |= fp_bit(FpError::Invalid);
  record_fp_errors("matmul", raised, modes);
  report_fp_events();
}

// x @ y for matrices (ndim >= 2), stacks broadcast, into a new C-contiguous array.
Array multiply_matrices(const Array& x, const Array& y, DType dtype) {
  const int64_t m = x.shape()[x.ndim() - 2], k = x.shape()[x.ndim() - 1];
  const int64_t n = y.shape()[y.ndim() - 1];
  if (y.shape()[y.ndim() - 2] != k) {
    throw ValueError("[matmul] Input operand 1 has a mismatch in its core dimension 0, with "
                     "gufunc signature " + std::string(kSignature) + " (size " +
                     std::to_string(y.shape()[y.ndim() - 2]) + " is different from " +
                     std::to_string(k) + ")");
  }
  const Dims leading = broadcast_shapes({leading_dims(x), leading_dims(y)}, "matmul");
  const Dims shape = with_matrix(leading, m, n);
  // float16 has no BLAS: it is multiplied in float32 and rounded once, as CuPy does.
  const DType work = dtype == DType::Float16 ? DType::Float32 : dtype;
  Array out = Array::empty(shape, work, x.device());
  if (out.size() == 0) return out.astype(dtype);
  if (k == 0) {
    out.fill(Scalar(int64_t{0}).cast(work));
    return out.astype(dtype);
  }
  if (multiplies_as_dot(x, y, m, k, n, work)) {
    const Array product = dot_product(x, y, work);
    return work == dtype ? product : product.astype(dtype);
  }
  const Array a = gemm_operand(x, work).broadcast_to(with_matrix(leading, m, k));
  const Array b = gemm_operand(y, work).broadcast_to(with_matrix(leading, k, n));
  Backend& backend = backend_for(x.device());
  for (const GemmCall& call : plan_matmul(a, b, out)) backend.gemm(call);
  // On CUDA devices products report no floating-point errors, as every kernel there
  // (docs/cuda.md): reading the values back would make the host wait for each product.
  if (x.device().is_cpu()) record_blas_fp_errors(a, b, out);
  return work == dtype ? out : out.astype(dtype);
}

}  // namespace

Array matmul(const Array& x, const Array& y, std::optional<DType> dtype,
             const std::optional<Array>& out, Casting casting) {
  require_matrix_or_vector(x, 0);
  require_matrix_or_vector(y, 1);
  if (x.device() != y.device()) {
    throw ValueError("[matmul] operands are on different devices: " + x.device().str() +
                     " and " + y.device().str());
  }
  const DType work = computation_dtype(x, y, dtype, casting);
  const bool x_vector = x.ndim() == 1, y_vector = y.ndim() == 1;
  const Array xm = x_vector ? x.expand_dims({0}) : x;
  const Array ym = y_vector ? y.expand_dims({1}) : y;
  Array result = multiply_matrices(xm, ym, work);
  if (y_vector) result = result.squeeze({result.ndim() - 1});
  if (x_vector) result = result.squeeze({result.ndim() - (y_vector ? 1 : 2)});
  if (!out) return result;
  // The loop (leading) axes broadcast with out's, as in every NumPy gufunc.
  const bool fits = out->ndim() >= result.ndim() &&
                    broadcast_shapes({result.shape(), out->shape()}, "matmul") == out->shape();
  if (!fits) {
    throw ValueError("[matmul] Output operand 0 has shape " + out->shape().str() +
                     ", but the result has shape " + result.shape().str());
  }
  if (!can_cast(work, out->dtype(), casting)) {
    throw TypeError("[matmul] Cannot cast ufunc 'matmul' output from " + dtype_repr(work) +
                    " to " + dtype_repr(out->dtype()) + " with casting rule '" +
                    casting_name(casting) + "'");
  }
  Array dst = *out;
  dst.require_writeable("matmul");
  dst.assign(result.broadcast_to(dst.shape()));
  return dst;
}

}  // namespace tessera
