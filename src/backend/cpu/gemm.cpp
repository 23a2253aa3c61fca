// Matrix products on the CPU: floating and complex dtypes through OpenBLAS, integer and
// bool ones through a loop here, since no BLAS multiplies integers (NumPy does the same).

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <type_traits>

#include "backend/cpu/cpu_backend.h"
#include "backend/cpu/openblas.h"
#include "backend/cpu/parallel.h"
#include "backend/gemm_call.h"
#include "kernels/types.h"

namespace tessera::cpu {
namespace {

int trans(bool t) { return t ? kTrans : kNoTrans; }

template <typename T, typename Gemm, typename Batch>
void real_gemm(const GemmCall& c, Gemm gemm, Batch batch) {
  const T* a = reinterpret_cast<const T*>(c.a.data());
  const T* b = reinterpret_cast<const T*>(c.b.data());
  T* out = reinterpret_cast<T*>(c.c.data());
  if (c.batch == 1) {
    gemm(kColMajor, trans(c.trans_a), trans(c.trans_b), c.m, c.n, c.k, T(1), a, c.lda, b, c.ldb,
         T(0), out, c.ldc);
  } else {
    batch(kColMajor, trans(c.trans_a), trans(c.trans_b), c.m, c.n, c.k, T(1), a, c.lda,
          c.stride_a, b, c.ldb, c.stride_b, T(0), out, c.ldc, c.stride_c, c.batch);
  }
}

// One call per matrix: OpenBLAS 0.3.34's complex cblas_?gemm_batch_strided reads the
// batch strides in units of real numbers, not of complex elements (checked against a
// plain loop), so the batch is iterated here.
template <typename T, typename Gemm>
void complex_gemm(const GemmCall& c, Gemm gemm) {
  const T one(1), zero(0);
  const T* a = reinterpret_cast<const T*>(c.a.data());
  const T* b = reinterpret_cast<const T*>(c.b.data());
  T* out = reinterpret_cast<T*>(c.c.data());
  for (int64_t i = 0; i < c.batch; ++i) {
    gemm(kColMajor, trans(c.trans_a), trans(c.trans_b), c.m, c.n, c.k, &one,
         a + i * c.stride_a, c.lda, b + i * c.stride_b, c.ldb, &zero, out + i * c.stride_c,
         c.ldc);
  }
}

// Integer arithmetic wraps as NumPy's does: signed types are multiplied as unsigned.
template <typename T>
using wrapping_t = std::conditional_t<std::is_signed_v<T> && std::is_integral_v<T>,
                                      std::make_unsigned_t<T>, T>;

template <typename T>
T multiply_add(T acc, T x, T y) {
  if constexpr (std::is_same_v<T, bool>) {
    return acc || (x && y);
  } else {
    using W = wrapping_t<T>;
    return static_cast<T>(static_cast<W>(acc) + static_cast<W>(x) * static_cast<W>(y));
  }
}

// One column of C per task: column j = sum over p of op(A)[:, p] * op(B)[p, j], with
// op(A)'s columns read contiguously when A is untransposed (an axpy the compiler
// vectorizes), else as dot products of A's contiguous rows.
template <typename T>
void loop_gemm(const GemmCall& c) {
  const T* a0 = reinterpret_cast<const T*>(c.a.data());
  const T* b0 = reinterpret_cast<const T*>(c.b.data());
  T* c0 = reinterpret_cast<T*>(c.c.data());
  const int64_t columns = c.batch * c.n;
  const int64_t grain = std::max<int64_t>(1, (1 << 14) / std::max<int64_t>(1, c.m * c.k));
  parallel_for(columns, grain, [&](int64_t begin, int64_t end) {
    const std::unique_ptr<T[]> column(new T[c.k]);
    for (int64_t col = begin; col < end; ++col) {
      const int64_t batch = col / c.n, j = col % c.n;
      const T* a = a0 + batch * c.stride_a;
      const T* b = b0 + batch * c.stride_b;
      T* out = c0 + batch * c.stride_c + j * c.ldc;
      for (int64_t p = 0; p < c.k; ++p) column[p] = c.trans_b ? b[j + p * c.ldb] : b[p + j * c.ldb];
      if (c.trans_a) {
        for (int64_t i = 0; i < c.m; ++i) {
          T acc = T(0);
          for (int64_t p = 0; p < c.k; ++p) acc = multiply_add(acc, a[p + i * c.lda], column[p]);
          out[i] = acc;
        }
      } else {
        std::fill(out, out + c.m, T(0));
        for (int64_t p = 0; p < c.k; ++p) {
          const T y = column[p];
          const T* ap = a + p * c.lda;
          for (int64_t i = 0; i < c.m; ++i) out[i] = multiply_add(out[i], ap[i], y);
        }
      }
    }
  });
}

}  // namespace

void gemm(const GemmCall& call) {
  switch (call.c.dtype()) {
    case DType::Float32:
      return real_gemm<float>(call, openblas().sgemm, openblas().sgemm_batch);
    case DType::Float64:
      return real_gemm<double>(call, openblas().dgemm, openblas().dgemm_batch);
    case DType::Complex64:
      return complex_gemm<kernels::complex64>(call, openblas().cgemm);
    case DType::Complex128:
      return complex_gemm<kernels::complex128>(call, openblas().zgemm);
    default:
      kernels::visit_dtype(call.c.dtype(), [&](auto zero) {
        using T = decltype(zero);
        if constexpr (!std::is_floating_point_v<T> && !kernels::is_complex_type<T>::value &&
                      !std::is_same_v<T, kernels::half>) {
          loop_gemm<T>(call);
        } else {
          throw std::logic_error("[matmul] float16 is multiplied in float32 by the caller");
        }
      });
  }
}

}  // namespace tessera::cpu
