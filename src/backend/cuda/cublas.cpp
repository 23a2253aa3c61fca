#include "backend/cuda/cublas.h"

#include <complex>
#include <limits>
#include <map>
#include <string>

#include "backend/cuda/runtime.h"
#include "backend/cuda/vendor_library.h"
#include "tessera/array.h"
#include "tessera/cuda.h"
#include "tessera/errors.h"
#include "tessera/stream.h"

namespace tessera::cuda {
namespace {

// libcublas (CUDA 13, then 12); null when it does not load or lacks an entry.
const CublasApi* load_real() {
  void* library = open_vendor_library({"libcublas.so.13", "libcublas.so.12"});
  if (!library) return nullptr;
  static CublasApi api{};
  api.name = "libcublas";
  if (resolve(library, "cublasCreate_v2", api.cublasCreate) &&
      resolve(library, "cublasSetStream_v2", api.cublasSetStream) &&
      resolve(library, "cublasSetMathMode", api.cublasSetMathMode) &&
      resolve(library, "cublasSetWorkspace_v2", api.cublasSetWorkspace) &&
      resolve(library, "cublasGemmStridedBatchedEx", api.cublasGemmStridedBatchedEx) &&
      resolve(library, "cublasGetStatusString", api.cublasGetStatusString)) {
    return &api;
  }
  dlclose(library);
  return nullptr;
}

const CublasApi& require_cublas() {
  if (is_simulated()) return *simulated_cublas();
  static const CublasApi* api = load_real();
  if (!api) {
    throw CudaRuntimeError("[matmul] cuBLAS (libcublas.so.13 or .12) was not found: install the "
                           "CUDA toolkit or the pip wheel nvidia-cublas and put the directory "
                           "holding libcublas.so on LD_LIBRARY_PATH");
  }
  return *api;
}

void check_status(const CublasApi& api, cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw CudaRuntimeError(std::string("[matmul] ") + call + " failed: " +
                           api.cublasGetStatusString(status));
  }
}

struct Handle {
  cublasHandle_t handle = nullptr;
  int64_t workspace_bytes = 0;
};

// The work area cuBLAS's guide recommends: 32 MiB on Hopper and newer, whose kernels use
// more, 4 MiB before.
int64_t workspace_bytes(int device) {
  return device_properties(device).major >= 9 ? (int64_t{32} << 20) : (int64_t{4} << 20);
}

// One handle per device and thread, created on first use and kept for the thread's life
// (cuBLAS handles are not to be shared between threads that use them at once).
const Handle& handle_for(const CublasApi& api, int device) {
  thread_local std::map<int, Handle> handles;
  if (auto it = handles.find(device); it != handles.end()) return it->second;
  activate(device, "matmul");
  Handle h;
  h.workspace_bytes = workspace_bytes(device);
  check_status(api, api.cublasCreate(&h.handle), "cublasCreate");
  check_status(api, api.cublasSetMathMode(h.handle, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
  // only once it is ready: a failure is retried next call
  return handles.emplace(device, h).first->second;
}

int checked_int(int64_t v) {
  if (v > std::numeric_limits<int>::max()) {
    throw ValueError("[matmul] a matrix dimension of " + std::to_string(v) +
                     " exceeds cuBLAS's 32-bit sizes");
  }
  return static_cast<int>(v);
}

}  // namespace

void cublas_gemm(int device, const GemmCall& call) {
  const CublasApi& api = require_cublas();
  const Handle& h = handle_for(api, device);
  activate(device, "matmul");
  const cublasHandle_t handle = h.handle;
  check_status(api,
               api.cublasSetStream(handle, stream_handle(current_stream(Device::cuda(device)))),
               "cublasSetStream");
  // The work area comes from the memory pool, stream-ordered, at each call, as CuPy and
  // PyTorch give it, rather than from the cudaMalloc cuBLAS would make per handle and
  // stream: the pool's cache serves it, and out-of-memory handling is the pool's. It goes
  // back to the pool when this call returns, usable again behind the product.
  const Array workspace =
      Array::empty(Dims{h.workspace_bytes}, DType::UInt8, Device::cuda(device));
  check_status(api,
               api.cublasSetWorkspace(handle, workspace.data(),
                                      static_cast<size_t>(h.workspace_bytes)),
               "cublasSetWorkspace");
  // alpha = 1 and beta = 0 in the compute type: float for float32 and complex64 (its real
  // and imaginary parts), double for the others.
  const std::complex<float> one_f(1), zero_f(0);
  const std::complex<double> one_d(1), zero_d(0);
  int type = 0, compute = 0;
  const void *alpha = nullptr, *beta = nullptr;
  switch (call.c.dtype()) {
    case DType::Float32: type = CUDA_R_32F; compute = CUBLAS_COMPUTE_32F; break;
    case DType::Float64: type = CUDA_R_64F; compute = CUBLAS_COMPUTE_64F; break;
    case DType::Complex64: type = CUDA_C_32F; compute = CUBLAS_COMPUTE_32F; break;
    case DType::Complex128: type = CUDA_C_64F; compute = CUBLAS_COMPUTE_64F; break;
    default: throw std::logic_error("[matmul] cuBLAS multiplies float and complex dtypes");
  }
  const bool single = compute == CUBLAS_COMPUTE_32F;
  alpha = single ? static_cast<const void*>(&one_f) : static_cast<const void*>(&one_d);
  beta = single ? static_cast<const void*>(&zero_f) : static_cast<const void*>(&zero_d);
  check_status(api,
               api.cublasGemmStridedBatchedEx(
                   handle, call.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N,
                   call.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, checked_int(call.m),
                   checked_int(call.n), checked_int(call.k), alpha, call.a.data(), type,
                   checked_int(call.lda), call.stride_a, call.b.data(), type,
                   checked_int(call.ldb), call.stride_b, beta, call.c.data(), type,
                   checked_int(call.ldc), call.stride_c, checked_int(call.batch), compute,
                   CUBLAS_GEMM_DEFAULT),
               "cublasGemmStridedBatchedEx");
}

}  // namespace tessera::cuda
