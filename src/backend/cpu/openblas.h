#pragma once
// OpenBLAS (with its LAPACK), loaded at run time with dlopen, as the CUDA libraries are.
// Loading it ourselves lets tessera pick OpenBLAS's core type from the CPU's features
// before OpenBLAS's own detection runs: some builds do not recognize newer cores and
// silently fall back to their slowest kernels. The library is scipy-openblas64 (the build
// NumPy ships): ILP64, with every symbol prefixed "scipy_" and suffixed "64_".

#include <complex>
#include <cstdint>
#include <string>

namespace tessera::cpu {

using blas_int = int64_t;  // ILP64

// CBLAS's enum values (an int in the C ABI).
enum : int { kColMajor = 102 };
enum : int { kNoTrans = 111, kTrans = 112 };

template <typename T>
using GemmFn = void (*)(int order, int trans_a, int trans_b, blas_int m, blas_int n,
                        blas_int k, T alpha, const T* a, blas_int lda, const T* b,
                        blas_int ldb, T beta, T* c, blas_int ldc);
template <typename T>
using GemmBatchFn = void (*)(int order, int trans_a, int trans_b, blas_int m, blas_int n,
                             blas_int k, T alpha, const T* a, blas_int lda, blas_int stride_a,
                             const T* b, blas_int ldb, blas_int stride_b, T beta, T* c,
                             blas_int ldc, blas_int stride_c, blas_int batch);
// The complex forms take alpha and beta by pointer.
template <typename T>
using ComplexGemmFn = void (*)(int order, int trans_a, int trans_b, blas_int m, blas_int n,
                               blas_int k, const void* alpha, const void* a, blas_int lda,
                               const void* b, blas_int ldb, const void* beta, void* c,
                               blas_int ldc);
struct OpenBlas {
  GemmFn<float> sgemm;
  GemmFn<double> dgemm;
  ComplexGemmFn<std::complex<float>> cgemm;
  ComplexGemmFn<std::complex<double>> zgemm;
  GemmBatchFn<float> sgemm_batch;
  GemmBatchFn<double> dgemm_batch;
  const char* (*corename)();
  const char* (*config)();
  void* handle;  // for the LAPACK routines, looked up by name (lapack.h)
};

// The library, loaded on first use. Raises RuntimeError naming the paths it tried when
// none loads. $TESSERA_OPENBLAS_LIBRARY overrides where it is looked for; a user's
// $OPENBLAS_CORETYPE overrides the core type tessera would choose, and
// $OPENBLAS_THREAD_TIMEOUT how long its threads spin after a call (tessera: 2^20 cycles).
const OpenBlas& openblas();

// Looks up an exported symbol (given without the "scipy_" prefix and "64_" suffix).
void* openblas_symbol(const char* name);

// "OpenBLAS 0.3.x ... <core>": what was loaded and which kernels it runs.
std::string openblas_description();

}  // namespace tessera::cpu
