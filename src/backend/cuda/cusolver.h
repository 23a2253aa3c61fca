#pragma once
// cuSOLVER's dense routines, loaded at run time like libcuda (tessera links no CUDA
// library), or on the simulator a table of the same entries that runs the CPU backend's
// LAPACK on the very arguments cuSOLVER would get, in stream order
// (src/backend/cudasim/sim_cusolver.cpp). The 64-bit generic API (cusolverDnX*) where it
// has the routine; orgqr/ungqr, which it lacks, from the legacy API. The declarations
// mirror cusolverDn.h (same signatures, same values).

#include <cstddef>
#include <cstdint>
#include <string>

#include "backend/cuda/driver.h"
#include "backend/matrix_batch.h"

namespace tessera::cuda {

using cusolverDnHandle_t = struct cusolverDnContext*;
using cusolverDnParams_t = struct cusolverDnParamsOpaque*;
using cusolverStatus_t = int;
constexpr cusolverStatus_t CUSOLVER_STATUS_SUCCESS = 0, CUSOLVER_STATUS_INVALID_VALUE = 3,
                           CUSOLVER_STATUS_EXECUTION_FAILED = 6,
                           CUSOLVER_STATUS_NOT_SUPPORTED = 15;
constexpr int CUSOLVER_EIG_MODE_NOVECTOR = 0, CUSOLVER_EIG_MODE_VECTOR = 1;
constexpr int CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1;
constexpr int CUSOLVER_OP_N = 0;  // cublasOperation_t's CUBLAS_OP_N

// The legacy orgqr/ungqr of one precision (S, D, C, Z: the matrix and tau of that type).
using OrgqrBufferSize = cusolverStatus_t (*)(cusolverDnHandle_t, int m, int n, int k,
                                             const void* a, int lda, const void* tau,
                                             int* lwork);
using Orgqr = cusolverStatus_t (*)(cusolverDnHandle_t, int m, int n, int k, void* a, int lda,
                                   const void* tau, void* work, int lwork, int* info);

struct CusolverApi {
  const char* name;
  cusolverStatus_t (*cusolverDnCreate)(cusolverDnHandle_t* handle);
  cusolverStatus_t (*cusolverDnSetStream)(cusolverDnHandle_t handle, CUstream stream);
  cusolverStatus_t (*cusolverDnCreateParams)(cusolverDnParams_t* params);
  cusolverStatus_t (*cusolverDnXgetrf_bufferSize)(cusolverDnHandle_t, cusolverDnParams_t,
                                                  int64_t m, int64_t n, int type_a,
                                                  const void* a, int64_t lda, int compute,
                                                  size_t* device_bytes, size_t* host_bytes);
  cusolverStatus_t (*cusolverDnXgetrf)(cusolverDnHandle_t, cusolverDnParams_t, int64_t m,
                                       int64_t n, int type_a, void* a, int64_t lda,
                                       int64_t* ipiv, int compute, void* device_work,
                                       size_t device_bytes, void* host_work, size_t host_bytes,
                                       int* info);
  cusolverStatus_t (*cusolverDnXgetrs)(cusolverDnHandle_t, cusolverDnParams_t, int trans,
                                       int64_t n, int64_t nrhs, int type_a, const void* a,
                                       int64_t lda, const int64_t* ipiv, int type_b, void* b,
                                       int64_t ldb, int* info);
  cusolverStatus_t (*cusolverDnXpotrf_bufferSize)(cusolverDnHandle_t, cusolverDnParams_t,
                                                  int uplo, int64_t n, int type_a,
                                                  const void* a, int64_t lda, int compute,
                                                  size_t* device_bytes, size_t* host_bytes);
  cusolverStatus_t (*cusolverDnXpotrf)(cusolverDnHandle_t, cusolverDnParams_t, int uplo,
                                       int64_t n, int type_a, void* a, int64_t lda, int compute,
                                       void* device_work, size_t device_bytes, void* host_work,
                                       size_t host_bytes, int* info);
  cusolverStatus_t (*cusolverDnXgeqrf_bufferSize)(cusolverDnHandle_t, cusolverDnParams_t,
                                                  int64_t m, int64_t n, int type_a,
                                                  const void* a, int64_t lda, int type_tau,
                                                  const void* tau, int compute,
                                                  size_t* device_bytes, size_t* host_bytes);
  cusolverStatus_t (*cusolverDnXgeqrf)(cusolverDnHandle_t, cusolverDnParams_t, int64_t m,
                                       int64_t n, int type_a, void* a, int64_t lda,
                                       int type_tau, void* tau, int compute, void* device_work,
                                       size_t device_bytes, void* host_work, size_t host_bytes,
                                       int* info);
  cusolverStatus_t (*cusolverDnXgesvd_bufferSize)(
      cusolverDnHandle_t, cusolverDnParams_t, signed char jobu, signed char jobvt, int64_t m,
      int64_t n, int type_a, const void* a, int64_t lda, int type_s, const void* s, int type_u,
      const void* u, int64_t ldu, int type_vt, const void* vt, int64_t ldvt, int compute,
      size_t* device_bytes, size_t* host_bytes);
  cusolverStatus_t (*cusolverDnXgesvd)(cusolverDnHandle_t, cusolverDnParams_t, signed char jobu,
                                       signed char jobvt, int64_t m, int64_t n, int type_a,
                                       void* a, int64_t lda, int type_s, void* s, int type_u,
                                       void* u, int64_t ldu, int type_vt, void* vt,
                                       int64_t ldvt, int compute, void* device_work,
                                       size_t device_bytes, void* host_work, size_t host_bytes,
                                       int* info);
  cusolverStatus_t (*cusolverDnXsyevd_bufferSize)(cusolverDnHandle_t, cusolverDnParams_t,
                                                  int jobz, int uplo, int64_t n, int type_a,
                                                  const void* a, int64_t lda, int type_w,
                                                  const void* w, int compute,
                                                  size_t* device_bytes, size_t* host_bytes);
  cusolverStatus_t (*cusolverDnXsyevd)(cusolverDnHandle_t, cusolverDnParams_t, int jobz,
                                       int uplo, int64_t n, int type_a, void* a, int64_t lda,
                                       int type_w, void* w, int compute, void* device_work,
                                       size_t device_bytes, void* host_work, size_t host_bytes,
                                       int* info);
  cusolverStatus_t (*cusolverDnXgeev_bufferSize)(
      cusolverDnHandle_t, cusolverDnParams_t, int jobvl, int jobvr, int64_t n, int type_a,
      const void* a, int64_t lda, int type_w, const void* w, int type_vl, const void* vl,
      int64_t ldvl, int type_vr, const void* vr, int64_t ldvr, int compute,
      size_t* device_bytes, size_t* host_bytes);
  cusolverStatus_t (*cusolverDnXgeev)(cusolverDnHandle_t, cusolverDnParams_t, int jobvl,
                                      int jobvr, int64_t n, int type_a, void* a, int64_t lda,
                                      int type_w, void* w, int type_vl, void* vl, int64_t ldvl,
                                      int type_vr, void* vr, int64_t ldvr, int compute,
                                      void* device_work, size_t device_bytes, void* host_work,
                                      size_t host_bytes, int* info);
  // Indexed S, D, C, Z.
  OrgqrBufferSize orgqr_bufferSize[4];
  Orgqr orgqr[4];
};

// The simulator's table (src/backend/cudasim/sim_cusolver.cpp).
const CusolverApi* simulated_cusolver();

// Backend's LAPACK-level calls (backend.h) on CUDA device `device`'s current stream, one
// cuSOLVER call per matrix of the batch, work areas from the device's memory pool, and
// LAPACK's info per matrix into `info` (int64) on the device. CudaRuntimeError when
// cuSOLVER cannot be loaded or fails.
void cusolver_lu_factor(int device, const MatrixBatch& a, const Array& pivots,
                        const Array& info);
void cusolver_solve(int device, const MatrixBatch& a, const MatrixBatch& b, const Array& info);
void cusolver_cholesky(int device, const MatrixBatch& a, bool upper, const Array& info);
void cusolver_qr(int device, const MatrixBatch& a, const Array& tau, const Array& info);
void cusolver_qr_q(int device, const MatrixBatch& q, const Array& tau, int64_t reflectors,
                   const Array& info);
void cusolver_svd(int device, const MatrixBatch& a, const Array& s, const MatrixBatch* u,
                  const MatrixBatch* vt, bool full, const Array& info);
void cusolver_eigh(int device, const MatrixBatch& a, const Array& w, bool vectors, bool upper,
                   const Array& info);
void cusolver_eig(int device, const MatrixBatch& a, const Array& w, const MatrixBatch* v,
                  const Array& info);
// cuSOLVER has no gelsd: the minimum-norm solution from its SVD, as CuPy computes it.
void cusolver_lstsq(int device, const MatrixBatch& a, const MatrixBatch& b, const Array& s,
                    const Array& rank, double rcond, const Array& info);

// The program that unpacks a real matrix's eigenvalues and vectors from LAPACK's packing
// (device/linalg.cuh), for `real` and its `complex` dtype (for the NVRTC check).
std::string render_eigen_unpack(DType real, DType complex);

}  // namespace tessera::cuda
