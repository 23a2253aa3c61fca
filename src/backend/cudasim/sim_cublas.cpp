// The simulator's cuBLAS (backend/cuda/cublas.h): the same entries as libcublas, whose
// products run the CPU backend's BLAS on the very arguments cuBLAS would get, queued on the
// handle's stream behind the work before them. Device memory is host memory here, so the
// matrices are read where they lie.

#include "backend/backend.h"
#include "backend/cuda/cublas.h"
#include "backend/cuda/driver.h"
#include "backend/cuda/runtime.h"
#include "backend/cudasim/host_task.h"

namespace tessera::cuda {
namespace {

struct SimHandle {
  CUstream stream = nullptr;
  void* workspace = nullptr;
};

SimHandle* handle_of(cublasHandle_t handle) { return reinterpret_cast<SimHandle*>(handle); }

cublasStatus_t create(cublasHandle_t* handle) {
  *handle = reinterpret_cast<cublasHandle_t>(new SimHandle);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t set_stream(cublasHandle_t handle, CUstream stream) {
  handle_of(handle)->stream = stream;
  return CUBLAS_STATUS_SUCCESS;
}

// cuBLAS's rules for a user work area: 256-byte aligned, a multiple of 256 bytes.
cublasStatus_t set_workspace(cublasHandle_t handle, void* workspace, size_t bytes) {
  if (reinterpret_cast<uintptr_t>(workspace) % 256 != 0 || bytes % 256 != 0 ||
      (workspace == nullptr && bytes != 0)) {
    return CUBLAS_STATUS_INVALID_VALUE;
  }
  handle_of(handle)->workspace = workspace;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t set_math_mode(cublasHandle_t, int mode) {
  return mode == CUBLAS_DEFAULT_MATH ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_SUPPORTED;
}

// The dtype cuBLAS's data type and compute type name together, as tessera calls it: the
// operands' and the product's types equal, the compute type the data's precision.
bool dtype_of(int type, int compute, DType* dtype) {
  switch (type) {
    case CUDA_R_32F: *dtype = DType::Float32; return compute == CUBLAS_COMPUTE_32F;
    case CUDA_R_64F: *dtype = DType::Float64; return compute == CUBLAS_COMPUTE_64F;
    case CUDA_C_32F: *dtype = DType::Complex64; return compute == CUBLAS_COMPUTE_32F;
    case CUDA_C_64F: *dtype = DType::Complex128; return compute == CUBLAS_COMPUTE_64F;
    default: return false;
  }
}

// A view of simulated device memory as a CPU array of `dtype` (the CPU BLAS reads its
// address and dtype; the extents are the call's).
Array host_view(const void* data, DType dtype) {
  return Array(Buffer::wrap(Device::cpu(), const_cast<void*>(data), itemsize(dtype), nullptr),
               dtype, Dims{1}, Dims{itemsize(dtype)}, 0);
}

bool is_one(const void* scalar, int compute, bool zero) {
  const double want = zero ? 0.0 : 1.0;
  if (compute == CUBLAS_COMPUTE_32F) return *static_cast<const float*>(scalar) == want;
  return *static_cast<const double*>(scalar) == want;
}

cublasStatus_t gemm_strided_batched(cublasHandle_t handle, int transa, int transb, int m, int n,
                                    int k, const void* alpha, const void* a, int a_type, int lda,
                                    long long stride_a, const void* b, int b_type, int ldb,
                                    long long stride_b, const void* beta, void* c, int c_type,
                                    int ldc, long long stride_c, int batch, int compute_type,
                                    int algo) {
  DType dtype;
  // tessera asks for C = op(A) op(B) only (alpha 1, beta 0), one data type throughout, and
  // gives every product a work area from its memory pool (without one, real cuBLAS would
  // allocate its own outside the pool).
  if (handle_of(handle)->workspace == nullptr ||
      !dtype_of(c_type, compute_type, &dtype) || a_type != c_type || b_type != c_type ||
      algo != CUBLAS_GEMM_DEFAULT || !is_one(alpha, compute_type, false) ||
      !is_one(beta, compute_type, true) || transa < 0 || transa > 1 || transb < 0 ||
      transb > 1 || m < 0 || n < 0 || k < 0 || batch < 0) {
    return CUBLAS_STATUS_NOT_SUPPORTED;
  }
  GemmCall call;
  call.trans_a = transa == CUBLAS_OP_T;
  call.trans_b = transb == CUBLAS_OP_T;
  call.m = m;
  call.n = n;
  call.k = k;
  call.lda = lda;
  call.ldb = ldb;
  call.ldc = ldc;
  call.batch = batch;
  call.stride_a = stride_a;
  call.stride_b = stride_b;
  call.stride_c = stride_c;
  call.a = host_view(a, dtype);
  call.b = host_view(b, dtype);
  call.c = host_view(c, dtype);
  const bool queued = enqueue_host_task(handle_of(handle)->stream, "cublasGemmStridedBatchedEx",
                                        [call] { cpu_backend().gemm(call); });
  return queued ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_SUPPORTED;
}

const char* status_string(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    default: return "CUBLAS_STATUS_NOT_SUPPORTED";
  }
}

}  // namespace

const CublasApi* simulated_cublas() {
  static const CublasApi api = {"simulated cuBLAS", create, set_stream, set_math_mode,
                                set_workspace,       gemm_strided_batched, status_string};
  return &api;
}

}  // namespace tessera::cuda
