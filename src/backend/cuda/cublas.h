#pragma once
// cuBLAS, loaded at run time like libcuda (tessera links no CUDA library), or on the
// simulator a table of the same entries that runs the CPU backend's BLAS on the same
// arguments, in stream order (src/backend/cudasim/sim_cublas.cpp): the descriptor code
// that turns a GemmCall into cuBLAS's arguments is what the simulator's tests exercise.
// The declarations mirror cublas_api.h (same signatures, same values).

#include <cstddef>
#include <cstdint>

#include "backend/cuda/driver.h"
#include "backend/gemm_call.h"

namespace tessera::cuda {

using cublasHandle_t = struct cublasContext*;
using cublasStatus_t = int;
constexpr cublasStatus_t CUBLAS_STATUS_SUCCESS = 0;
constexpr cublasStatus_t CUBLAS_STATUS_INVALID_VALUE = 7;
constexpr cublasStatus_t CUBLAS_STATUS_NOT_SUPPORTED = 15;
constexpr int CUBLAS_OP_N = 0, CUBLAS_OP_T = 1;
// cudaDataType
constexpr int CUDA_R_32F = 0, CUDA_R_64F = 1, CUDA_C_32F = 4, CUDA_C_64F = 5;
// cublasComputeType_t: float products accumulate in float, never in TF32 (NumPy users
// expect float32 products to be float32's); that takes CUBLAS_COMPUTE_32F_FAST_TF32.
constexpr int CUBLAS_COMPUTE_32F = 68, CUBLAS_COMPUTE_64F = 70;
constexpr int CUBLAS_DEFAULT_MATH = 0;
constexpr int CUBLAS_GEMM_DEFAULT = -1;

struct CublasApi {
  const char* name;
  cublasStatus_t (*cublasCreate)(cublasHandle_t* handle);  // _v2
  cublasStatus_t (*cublasSetStream)(cublasHandle_t handle, CUstream stream);  // _v2
  cublasStatus_t (*cublasSetMathMode)(cublasHandle_t handle, int mode);
  cublasStatus_t (*cublasSetWorkspace)(cublasHandle_t handle, void* workspace,
                                       size_t bytes);  // _v2
  cublasStatus_t (*cublasGemmStridedBatchedEx)(
      cublasHandle_t handle, int transa, int transb, int m, int n, int k, const void* alpha,
      const void* a, int a_type, int lda, long long stride_a, const void* b, int b_type, int ldb,
      long long stride_b, const void* beta, void* c, int c_type, int ldc, long long stride_c,
      int batch, int compute_type, int algo);
  const char* (*cublasGetStatusString)(cublasStatus_t status);
};

// The simulator's table (src/backend/cudasim/sim_cublas.cpp).
const CublasApi* simulated_cublas();

// c = op(a) op(b) as `call` describes (float32, float64, complex64 or complex128), on CUDA
// device `device`'s current stream, through that device's cuBLAS handle of this thread.
// CudaRuntimeError when cuBLAS cannot be loaded or fails.
void cublas_gemm(int device, const GemmCall& call);

}  // namespace tessera::cuda
