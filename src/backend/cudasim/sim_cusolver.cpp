// The simulator's cuSOLVER (backend/cuda/cusolver.h): the same entries as libcusolver, with
// its rules (gesvd for m >= n only; geev of a real matrix returning LAPACK's packing; work
// areas of the sizes asked for, given before the call), whose routines run the CPU
// backend's LAPACK on the very arguments cuSOLVER would get, queued on the handle's stream
// behind the work before them. Device memory is host memory here, so the matrices are
// read where they lie; info is written as cuSOLVER writes it, an int on the device.

#include <algorithm>
#include <complex>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#include "backend/backend.h"
#include "backend/cpu/openblas.h"
#include "backend/cuda/cublas.h"
#include "backend/cuda/cusolver.h"
#include "backend/cuda/runtime.h"
#include "backend/cudasim/host_task.h"

namespace tessera::cuda {
namespace {

struct SimHandle {
  CUstream stream = nullptr;
};

SimHandle* handle_of(cusolverDnHandle_t handle) { return reinterpret_cast<SimHandle*>(handle); }

// What each call asks for, so that the caller's work-area path runs here too.
constexpr size_t kDeviceWork = 256, kHostWork = 64;

bool dtype_of(int type, DType* dtype) {
  switch (type) {
    case CUDA_R_32F: *dtype = DType::Float32; return true;
    case CUDA_R_64F: *dtype = DType::Float64; return true;
    case CUDA_C_32F: *dtype = DType::Complex64; return true;
    case CUDA_C_64F: *dtype = DType::Complex128; return true;
    default: return false;
  }
}

DType real_of(DType t) {
  return t == DType::Complex64 ? DType::Float32 : t == DType::Complex128 ? DType::Float64 : t;
}

// A view of simulated device memory as a CPU array of `dtype` (LAPACK reads its address
// and dtype; the extents are the call's).
Array host_view(const void* data, DType dtype) {
  return Array(Buffer::wrap(Device::cpu(), const_cast<void*>(data), itemsize(dtype), nullptr),
               dtype, Dims{1}, Dims{itemsize(dtype)}, 0);
}

MatrixBatch one_matrix(void* data, DType dtype, int64_t rows, int64_t cols, int64_t ld) {
  MatrixBatch m;
  m.a = host_view(data, dtype);
  m.rows = rows;
  m.cols = cols;
  m.ld = ld;
  return m;
}

// Queues `routine` (which returns LAPACK's info) on the handle's stream, its info then
// written to `info` as an int.
cusolverStatus_t enqueue(cusolverDnHandle_t handle, int* info,
                         std::function<int64_t()> routine) {
  auto task = [info, routine = std::move(routine)] { *info = static_cast<int>(routine()); };
  const bool queued = enqueue_host_task(handle_of(handle)->stream, "cuSOLVER routine", task);
  return queued ? CUSOLVER_STATUS_SUCCESS : CUSOLVER_STATUS_EXECUTION_FAILED;
}

// A CPU routine's info, written into an int64 of its own.
int64_t with_info(const std::function<void(const Array&)>& routine) {
  int64_t info = 0;
  routine(host_view(&info, DType::Int64));
  return info;
}

// The work areas a caller must hand a routine after asking their sizes.
bool work_given(void* device_work, size_t device_bytes, void* host_work, size_t host_bytes,
                size_t host_wanted = 0) {
  return device_work != nullptr && device_bytes >= kDeviceWork &&
         (host_wanted == 0 || (host_work != nullptr && host_bytes >= host_wanted));
}

cusolverStatus_t create(cusolverDnHandle_t* handle) {
  *handle = reinterpret_cast<cusolverDnHandle_t>(new SimHandle);
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t set_stream(cusolverDnHandle_t handle, CUstream stream) {
  handle_of(handle)->stream = stream;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t create_params(cusolverDnParams_t* params) {
  static int token;
  *params = reinterpret_cast<cusolverDnParams_t>(&token);
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t sizes(size_t* device_bytes, size_t* host_bytes, size_t host = 0) {
  *device_bytes = kDeviceWork;
  *host_bytes = host;
  return CUSOLVER_STATUS_SUCCESS;
}

cusolverStatus_t getrf_size(cusolverDnHandle_t, cusolverDnParams_t, int64_t, int64_t, int,
                            const void*, int64_t, int, size_t* device_bytes, size_t* host_bytes) {
  return sizes(device_bytes, host_bytes);
}

cusolverStatus_t getrf(cusolverDnHandle_t handle, cusolverDnParams_t, int64_t m, int64_t n,
                       int type, void* a, int64_t lda, int64_t* ipiv, int compute, void* dw,
                       size_t db, void* hw, size_t hb, int* info) {
  DType dtype;
  if (!dtype_of(type, &dtype) || compute != type || m < 0 || n < 0 ||
      lda < std::max<int64_t>(1, m) || !work_given(dw, db, hw, hb)) {
    return CUSOLVER_STATUS_INVALID_VALUE;
  }
  return enqueue(handle, info, [=] {
    return with_info([&](const Array& i) {
      cpu_backend().lu_factor(one_matrix(a, dtype, m, n, lda), host_view(ipiv, DType::Int64), i);
    });
  });
}

// LAPACK's getrs, which the CPU backend has no call of its own for (its solve is gesv).
template <typename T>
int64_t lapack_getrs(int64_t n, int64_t nrhs, const void* a, int64_t lda, const int64_t* ipiv,
                     void* b, int64_t ldb) {
  using I = cpu::blas_int;
  using Fn = void (*)(const char*, const I*, const I*, const T*, const I*, const I*, T*,
                      const I*, I*, size_t);
  const char prefix = std::is_same_v<T, float> ? 's' : std::is_same_v<T, double> ? 'd'
                      : std::is_same_v<T, std::complex<float>> ? 'c' : 'z';
  static const auto getrs =
      reinterpret_cast<Fn>(cpu::openblas_symbol((std::string(1, prefix) + "getrs_").c_str()));
  const char trans = 'N';
  I info = 0;
  getrs(&trans, &n, &nrhs, static_cast<const T*>(a), &lda, ipiv, static_cast<T*>(b), &ldb,
        &info, 1);
  return info;
}

cusolverStatus_t getrs(cusolverDnHandle_t handle, cusolverDnParams_t, int trans, int64_t n,
                       int64_t nrhs, int type_a, const void* a, int64_t lda, const int64_t* ipiv,
                       int type_b, void* b, int64_t ldb, int* info) {
  DType dtype;
  if (!dtype_of(type_a, &dtype) || type_b != type_a || trans != CUSOLVER_OP_N || n < 0 ||
      nrhs < 0 || lda < std::max<int64_t>(1, n) || ldb < std::max<int64_t>(1, n)) {
    return CUSOLVER_STATUS_INVALID_VALUE;
  }
  return enqueue(handle, info, [=]() -> int64_t {
    switch (dtype) {
      case DType::Float32: return lapack_getrs<float>(n, nrhs, a, lda, ipiv, b, ldb);
      case DType::Float64: return lapack_getrs<double>(n, nrhs, a, lda, ipiv, b, ldb);
      case DType::Complex64:
        return lapack_getrs<std::complex<float>>(n, nrhs, a, lda, ipiv, b, ldb);
      default: return lapack_getrs<std::complex<double>>(n, nrhs, a, lda, ipiv, b, ldb);
    }
  });
}

cusolverStatus_t potrf_size(cusolverDnHandle_t, cusolverDnParams_t, int, int64_t, int,
                            const void*, int64_t, int, size_t* device_bytes, size_t* host_bytes) {
  return sizes(device_bytes, host_bytes);
}

cusolverStatus_t potrf(cusolverDnHandle_t handle, cusolverDnParams_t, int uplo, int64_t n,
                       int type, void* a, int64_t lda, int compute, void* dw, size_t db, void* hw,
                       size_t hb, int* info) {
  DType dtype;
  if (!dtype_of(type, &dtype) || compute != type || n < 0 || lda < std::max<int64_t>(1, n) ||
      (uplo != CUBLAS_FILL_MODE_LOWER && uplo != CUBLAS_FILL_MODE_UPPER) ||
      !work_given(dw, db, hw, hb)) {
    return CUSOLVER_STATUS_INVALID_VALUE;
  }
  return enqueue(handle, info, [=] {
    return with_info([&](const Array& i) {
      cpu_backend().cholesky(one_matrix(a, dtype, n, n, lda), uplo == CUBLAS_FILL_MODE_UPPER, i);
    });
  });
}

cusolverStatus_t geqrf_size(cusolverDnHandle_t, cusolverDnParams_t, int64_t, int64_t, int,
                            const void*, int64_t, int, const void*, int, size_t* device_bytes,
                            size_t* host_bytes) {
  return sizes(device_bytes, host_bytes);
}

cusolverStatus_t geqrf(cusolverDnHandle_t handle, cusolverDnParams_t, int64_t m, int64_t n,
                       int type, void* a, int64_t lda, int type_tau, void* tau, int compute,
                       void* dw, size_t db, void* hw, size_t hb, int* info) {
  DType dtype;
  if (!dtype_of(type, &dtype) || type_tau != type || compute != type || m < 0 || n < 0 ||
      lda < std::max<int64_t>(1, m) || !work_given(dw, db, hw, hb)) {
    return CUSOLVER_STATUS_INVALID_VALUE;
  }
  return enqueue(handle, info, [=] {
    return with_info([&](const Array& i) {
      cpu_backend().qr(one_matrix(a, dtype, m, n, lda), host_view(tau, dtype), i);
    });
  });
}

cusolverStatus_t gesvd_size(cusolverDnHandle_t, cusolverDnParams_t, signed char, signed char,
                            int64_t, int64_t, int, const void*, int64_t, int, const void*, int,
                            const void*, int64_t, int, const void*, int64_t, int,
                            size_t* device_bytes, size_t* host_bytes) {
  return sizes(device_bytes, host_bytes);
}

bool job(signed char j) { return j == 'N' || j == 'S' || j == 'A'; }

cusolverStatus_t gesvd(cusolverDnHandle_t handle, cusolverDnParams_t, signed char jobu,
                       signed char jobvt, int64_t m, int64_t n, int type, void* a, int64_t lda,
                       int type_s, void* s, int type_u, void* u, int64_t ldu, int type_vt,
                       void* vt, int64_t ldvt, int compute, void* dw, size_t db, void* hw,
                       size_t hb, int* info) {
  DType dtype, real;
  // cuSOLVER's gesvd takes m >= n only; tessera computes the vectors all or none, of one
  // extent (the min(m, n) or all of them).
  if (!dtype_of(type, &dtype) || !dtype_of(type_s, &real) || real != real_of(dtype) ||
      type_u != type || type_vt != type || compute != type || m < n || n < 0 ||
      lda < std::max<int64_t>(1, m) || !job(jobu) || !job(jobvt) || jobu != jobvt ||
      (jobu != 'N' && (!u || !vt || ldu < m || ldvt < n)) || !work_given(dw, db, hw, hb)) {
    return CUSOLVER_STATUS_INVALID_VALUE;
  }
  return enqueue(handle, info, [=] {
    return with_info([&](const Array& i) {
      const int64_t k = n;  // min(m, n)
      const bool full = jobu == 'A';
      if (jobu == 'N') {
        cpu_backend().svd(one_matrix(a, dtype, m, n, lda), host_view(s, real), nullptr, nullptr,
                          false, i);
        return;
      }
      const MatrixBatch mu = one_matrix(u, dtype, m, full ? m : k, ldu);
      const MatrixBatch mvt = one_matrix(vt, dtype, full ? n : k, n, ldvt);
      cpu_backend().svd(one_matrix(a, dtype, m, n, lda), host_view(s, real), &mu, &mvt, full, i);
    });
  });
}

cusolverStatus_t syevd_size(cusolverDnHandle_t, cusolverDnParams_t, int, int, int64_t, int,
                            const void*, int64_t, int, const void*, int, size_t* device_bytes,
                            size_t* host_bytes) {
  return sizes(device_bytes, host_bytes);
}

cusolverStatus_t syevd(cusolverDnHandle_t handle, cusolverDnParams_t, int jobz, int uplo,
                       int64_t n, int type, void* a, int64_t lda, int type_w, void* w, int compute,
                       void* dw, size_t db, void* hw, size_t hb, int* info) {
  DType dtype, real;
  if (!dtype_of(type, &dtype) || !dtype_of(type_w, &real) || real != real_of(dtype) ||
      compute != type || n < 0 || lda < std::max<int64_t>(1, n) ||
      (jobz != CUSOLVER_EIG_MODE_VECTOR && jobz != CUSOLVER_EIG_MODE_NOVECTOR) ||
      (uplo != CUBLAS_FILL_MODE_LOWER && uplo != CUBLAS_FILL_MODE_UPPER) ||
      !work_given(dw, db, hw, hb)) {
    return CUSOLVER_STATUS_INVALID_VALUE;
  }
  return enqueue(handle, info, [=] {
    return with_info([&](const Array& i) {
      cpu_backend().eigh(one_matrix(a, dtype, n, n, lda), host_view(w, real),
                         jobz == CUSOLVER_EIG_MODE_VECTOR, uplo == CUBLAS_FILL_MODE_UPPER, i);
    });
  });
}

cusolverStatus_t geev_size(cusolverDnHandle_t, cusolverDnParams_t, int, int, int64_t, int,
                           const void*, int64_t, int, const void*, int, const void*, int64_t,
                           int, const void*, int64_t, int, size_t* device_bytes,
                           size_t* host_bytes) {
  return sizes(device_bytes, host_bytes, kHostWork);
}

// geev through the CPU's eig, which unpacks a real matrix's result; packed again here as
// cuSOLVER returns it (the caller's unpacking is what this exercises): n real parts then
// n imaginary parts, and a conjugate pair's vector as real and imaginary parts in two
// adjacent columns.
template <typename R>
int64_t real_geev(int64_t n, void* a, int64_t lda, R* parts, R* packed, DType dtype) {
  using C = std::complex<R>;
  const DType complex = dtype == DType::Float32 ? DType::Complex64 : DType::Complex128;
  std::vector<C> w(std::max<int64_t>(n, 1)), v(packed ? std::max<int64_t>(n * n, 1) : 1);
  const MatrixBatch mv = one_matrix(v.data(), complex, n, n, std::max<int64_t>(n, 1));
  const int64_t info = with_info([&](const Array& i) {
    cpu_backend().eig(one_matrix(a, dtype, n, n, lda), host_view(w.data(), complex),
                      packed ? &mv : nullptr, i);
  });
  for (int64_t j = 0; j < n; ++j) {
    parts[j] = w[j].real();
    parts[n + j] = w[j].imag();
  }
  if (!packed) return info;
  for (int64_t j = 0; j < n; ++j) {
    const bool pair = w[j].imag() != 0 && j + 1 < n;
    for (int64_t r = 0; r < n; ++r) {
      packed[r + j * n] = v[r + j * n].real();
      if (pair) packed[r + (j + 1) * n] = v[r + j * n].imag();
    }
    if (pair) ++j;
  }
  return info;
}

cusolverStatus_t geev(cusolverDnHandle_t handle, cusolverDnParams_t, int jobvl, int jobvr,
                      int64_t n, int type, void* a, int64_t lda, int type_w, void* w, int type_vl,
                      void*, int64_t, int type_vr, void* vr, int64_t ldvr, int compute, void* dw,
                      size_t db, void* hw, size_t hb, int* info) {
  DType dtype;
  const bool vectors = jobvr == CUSOLVER_EIG_MODE_VECTOR;
  // Every data type the matrix's (for a real one, W of 2n real values); left vectors not.
  if (!dtype_of(type, &dtype) || type_w != type || type_vl != type || type_vr != type ||
      compute != type || jobvl != CUSOLVER_EIG_MODE_NOVECTOR ||
      (jobvr != CUSOLVER_EIG_MODE_VECTOR && jobvr != CUSOLVER_EIG_MODE_NOVECTOR) || n < 0 ||
      lda < std::max<int64_t>(1, n) || (vectors && (!vr || ldvr < std::max<int64_t>(1, n))) ||
      !work_given(dw, db, hw, hb, kHostWork)) {
    return CUSOLVER_STATUS_INVALID_VALUE;
  }
  return enqueue(handle, info, [=]() -> int64_t {
    switch (dtype) {
      case DType::Float32:
        return real_geev<float>(n, a, lda, static_cast<float*>(w),
                                vectors ? static_cast<float*>(vr) : nullptr, dtype);
      case DType::Float64:
        return real_geev<double>(n, a, lda, static_cast<double*>(w),
                                 vectors ? static_cast<double*>(vr) : nullptr, dtype);
      default: {
        const MatrixBatch mv = one_matrix(vr, dtype, n, n, ldvr);
        return with_info([&](const Array& i) {
          cpu_backend().eig(one_matrix(a, dtype, n, n, lda), host_view(w, dtype),
                            vectors ? &mv : nullptr, i);
        });
      }
    }
  });
}

template <int P>
cusolverStatus_t orgqr_size(cusolverDnHandle_t, int m, int n, int k, const void*, int lda,
                            const void*, int* lwork) {
  if (m < 0 || n < 0 || n > m || k < 0 || k > n || lda < std::max(1, m)) {
    return CUSOLVER_STATUS_INVALID_VALUE;
  }
  *lwork = std::max(1, n) * 4;
  return CUSOLVER_STATUS_SUCCESS;
}

template <int P>
cusolverStatus_t orgqr(cusolverDnHandle_t handle, int m, int n, int k, void* a, int lda,
                       const void* tau, void* work, int lwork, int* info) {
  constexpr DType kTypes[4] = {DType::Float32, DType::Float64, DType::Complex64,
                               DType::Complex128};
  const DType dtype = kTypes[P];
  if (m < 0 || n < 0 || n > m || k < 0 || k > n || lda < std::max(1, m) || !work ||
      lwork < std::max(1, n) * 4) {
    return CUSOLVER_STATUS_INVALID_VALUE;
  }
  return enqueue(handle, info, [=] {
    return with_info([&](const Array& i) {
      cpu_backend().qr_q(one_matrix(a, dtype, m, n, lda), host_view(tau, dtype), k, i);
    });
  });
}

}  // namespace

const CusolverApi* simulated_cusolver() {
  static const CusolverApi api = {
      "simulated cuSOLVER", create, set_stream, create_params, getrf_size, getrf, getrs,
      potrf_size, potrf, geqrf_size, geqrf, gesvd_size, gesvd, syevd_size, syevd, geev_size,
      geev, {orgqr_size<0>, orgqr_size<1>, orgqr_size<2>, orgqr_size<3>},
      {orgqr<0>, orgqr<1>, orgqr<2>, orgqr<3>}};
  return &api;
}

}  // namespace tessera::cuda
