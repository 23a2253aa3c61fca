#include "backend/cuda/cusolver.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "backend/backend.h"
#include "backend/cuda/cublas.h"
#include "backend/cuda/expr_kernel.h"
#include "backend/cuda/render_cuda.h"
#include "backend/cuda/render_values.h"
#include "backend/cuda/runtime.h"
#include "backend/cuda/vendor_library.h"
#include "tessera/cuda.h"
#include "tessera/errors.h"
#include "tessera/linalg.h"
#include "tessera/reduction.h"
#include "tessera/stream.h"
#include "tessera/ufunc.h"

namespace tessera::cuda {
namespace {

// libcusolver (CUDA 13's major 12, then CUDA 12's 11); null when it does not load or lacks
// an entry. geev came with cuSOLVER 11.6 (CUDA 12.6): without it only eig fails.
const CusolverApi* load_real() {
  void* library = open_vendor_library({"libcusolver.so.12", "libcusolver.so.11"});
  if (!library) return nullptr;
  static CusolverApi api{};
  api.name = "libcusolver";
  bool complete =
      resolve(library, "cusolverDnCreate", api.cusolverDnCreate) &&
      resolve(library, "cusolverDnSetStream", api.cusolverDnSetStream) &&
      resolve(library, "cusolverDnCreateParams", api.cusolverDnCreateParams) &&
      resolve(library, "cusolverDnXgetrf_bufferSize", api.cusolverDnXgetrf_bufferSize) &&
      resolve(library, "cusolverDnXgetrf", api.cusolverDnXgetrf) &&
      resolve(library, "cusolverDnXgetrs", api.cusolverDnXgetrs) &&
      resolve(library, "cusolverDnXpotrf_bufferSize", api.cusolverDnXpotrf_bufferSize) &&
      resolve(library, "cusolverDnXpotrf", api.cusolverDnXpotrf) &&
      resolve(library, "cusolverDnXgeqrf_bufferSize", api.cusolverDnXgeqrf_bufferSize) &&
      resolve(library, "cusolverDnXgeqrf", api.cusolverDnXgeqrf) &&
      resolve(library, "cusolverDnXgesvd_bufferSize", api.cusolverDnXgesvd_bufferSize) &&
      resolve(library, "cusolverDnXgesvd", api.cusolverDnXgesvd) &&
      resolve(library, "cusolverDnXsyevd_bufferSize", api.cusolverDnXsyevd_bufferSize) &&
      resolve(library, "cusolverDnXsyevd", api.cusolverDnXsyevd);
  const char* orgqr[4] = {"cusolverDnSorgqr", "cusolverDnDorgqr", "cusolverDnCungqr",
                          "cusolverDnZungqr"};
  for (int t = 0; t < 4; ++t) {
    complete = complete &&
               resolve(library, (std::string(orgqr[t]) + "_bufferSize").c_str(),
                       api.orgqr_bufferSize[t]) &&
               resolve(library, orgqr[t], api.orgqr[t]);
  }
  if (!complete) {
    dlclose(library);
    return nullptr;
  }
  resolve(library, "cusolverDnXgeev_bufferSize", api.cusolverDnXgeev_bufferSize);
  resolve(library, "cusolverDnXgeev", api.cusolverDnXgeev);
  return &api;
}

const CusolverApi& require_cusolver() {
  if (is_simulated()) return *simulated_cusolver();
  static const CusolverApi* api = load_real();
  if (!api) {
    throw CudaRuntimeError("[linalg] cuSOLVER (libcusolver.so.12 or .11) was not found: install "
                           "the CUDA toolkit or the pip wheel nvidia-cusolver and put the "
                           "directory holding libcusolver.so on LD_LIBRARY_PATH");
  }
  return *api;
}

const char* status_name(cusolverStatus_t s) {
  switch (s) {
    case 1: return "CUSOLVER_STATUS_NOT_INITIALIZED";
    case 2: return "CUSOLVER_STATUS_ALLOC_FAILED";
    case CUSOLVER_STATUS_INVALID_VALUE: return "CUSOLVER_STATUS_INVALID_VALUE";
    case 4: return "CUSOLVER_STATUS_ARCH_MISMATCH";
    case CUSOLVER_STATUS_EXECUTION_FAILED: return "CUSOLVER_STATUS_EXECUTION_FAILED";
    case 7: return "CUSOLVER_STATUS_INTERNAL_ERROR";
    case CUSOLVER_STATUS_NOT_SUPPORTED: return "CUSOLVER_STATUS_NOT_SUPPORTED";
    default: return "cuSOLVER error";
  }
}

void check_status(cusolverStatus_t s, const char* call) {
  if (s != CUSOLVER_STATUS_SUCCESS) {
    throw CudaRuntimeError(std::string("[linalg] ") + call + " failed: " + status_name(s) + " (" +
                           std::to_string(s) + ")");
  }
}

// cudaDataType of a LAPACK dtype.
int data_type(DType t) {
  switch (t) {
    case DType::Float32: return CUDA_R_32F;
    case DType::Float64: return CUDA_R_64F;
    case DType::Complex64: return CUDA_C_32F;
    case DType::Complex128: return CUDA_C_64F;
    default: throw std::logic_error("[linalg] cuSOLVER called with " + std::string(dtype_name(t)));
  }
}

// The legacy entries' index: S, D, C, Z.
int precision_index(DType t) {
  return t == DType::Float32 ? 0 : t == DType::Float64 ? 1 : t == DType::Complex64 ? 2 : 3;
}

DType real_of(DType t) {
  return t == DType::Complex64 ? DType::Float32 : t == DType::Complex128 ? DType::Float64 : t;
}

int checked_int(int64_t v) {
  if (v > std::numeric_limits<int>::max()) {
    throw ValueError("[linalg] a matrix dimension of " + std::to_string(v) +
                     " exceeds cuSOLVER's 32-bit sizes for this routine");
  }
  return static_cast<int>(v);
}

void delete_host_work(void* data) { delete static_cast<std::vector<std::byte>*>(data); }

// One call's use of cuSOLVER on a device: the handle of this thread bound to the current
// stream, work areas, and LAPACK's info of each matrix (int32, as cuSOLVER writes it).
class Session {
 public:
  Session(int device, int64_t batch) : api(require_cusolver()), device_(device) {
    activate(device, "linalg");
    thread_local std::map<int, std::pair<cusolverDnHandle_t, cusolverDnParams_t>> handles;
    auto it = handles.find(device);
    if (it == handles.end()) {
      // Kept for the thread's life, like cuBLAS handles: one per device and thread, only
      // once made whole (a failure is retried at the next call).
      cusolverDnHandle_t h = nullptr;
      cusolverDnParams_t p = nullptr;
      check_status(api.cusolverDnCreate(&h), "cusolverDnCreate");
      check_status(api.cusolverDnCreateParams(&p), "cusolverDnCreateParams");
      it = handles.emplace(device, std::make_pair(h, p)).first;
    }
    handle = it->second.first;
    params = it->second.second;
    stream_ = stream_handle(current_stream(Device::cuda(device)));
    check_status(api.cusolverDnSetStream(handle, stream_), "cusolverDnSetStream");
    info_ = Array::empty(Dims{batch}, DType::Int32, Device::cuda(device));
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  // Host work areas are freed once the stream has run the calls that use them.
  ~Session() {
    if (host_work_ && driver()->cuLaunchHostFunc(stream_, &delete_host_work, host_work_.get()) ==
                          CUDA_SUCCESS) {
      host_work_.release();
    } else if (host_work_) {
      driver()->cuStreamSynchronize(stream_);
    }
  }

  // Work areas for the calls of this session (each call of the batch reuses them, in
  // stream order): device memory from the pool, host memory kept until the stream is done.
  void work(size_t device_bytes, size_t host_bytes) {
    device_work_ = Array::empty(Dims{static_cast<int64_t>(device_bytes)}, DType::UInt8,
                                Device::cuda(device_));
    host_work_ = std::make_unique<std::vector<std::byte>>(host_bytes);
  }
  void* device_work() { return device_work_.nbytes() ? device_work_.data() : nullptr; }
  size_t device_bytes() const { return static_cast<size_t>(device_work_.nbytes()); }
  void* host_work() { return host_work_->empty() ? nullptr : host_work_->data(); }
  size_t host_bytes() const { return host_work_->size(); }

  int* info(int64_t i) { return reinterpret_cast<int*>(info_.data()) + i; }
  // LAPACK's info of each matrix into `info` (int64, of any shape holding batch values).
  void write_info(const Array& info) {
    if (info.size() > 0) cuda_backend(device_).copy(info_.reshape(info.shape()), info);
  }

  const CusolverApi& api;
  cusolverDnHandle_t handle = nullptr;
  cusolverDnParams_t params = nullptr;

 private:
  int device_;
  CUstream stream_ = nullptr;
  Array info_, device_work_;
  std::unique_ptr<std::vector<std::byte>> host_work_;
};

// Matrix i of the batch, and row i of a per-matrix output `width` elements wide.
std::byte* matrix(const MatrixBatch& m, int64_t i) {
  return m.a.data() + i * m.stride * m.a.itemsize();
}
std::byte* row(const Array& a, int64_t i, int64_t width) {
  return a.data() + i * width * a.itemsize();
}

Array conjugate_transpose(const Array& a) {
  const Array t = a.swapaxes(-1, -2);
  return is_complex(a.dtype()) ? conjugate(t) : t;
}

// A's conjugate transpose as a new batch of column-major matrices.
MatrixBatch conjugate_transpose(const MatrixBatch& m) {
  const Dims batch(m.a.shape().begin(), m.a.shape().end() - 2);
  MatrixBatch t = column_major_empty(batch, m.cols, m.rows, m.a.dtype(), m.a.device());
  t.a.assign(conjugate_transpose(m.a));
  return t;
}

void unpack_real_eigen(int device, const Array& packed, const Array& parts, const Array& w,
                       const MatrixBatch* v, int64_t n, int64_t batch) {
  const DType real = parts.dtype(), complex = w.dtype();
  const uintptr_t function = generated_function(
      "eigen:" + std::string(dtype_name(real)), [&] { return render_eigen_unpack(real, complex); },
      "ts_eigen_unpack", device);
  std::array<uint64_t, 8> words = {
      v ? reinterpret_cast<uint64_t>(packed.data()) : 0, reinterpret_cast<uint64_t>(parts.data()),
      reinterpret_cast<uint64_t>(w.data()), v ? reinterpret_cast<uint64_t>(v->a.data()) : 0,
      static_cast<uint64_t>(n), static_cast<uint64_t>(batch),
      static_cast<uint64_t>(v ? v->ld : 1), static_cast<uint64_t>(v ? v->stride : 0)};
  launch_grid_stride(function, device, batch * n * (v ? n : 1), words.data(), "eig");
}

}  // namespace

std::string render_eigen_unpack(DType real, DType complex) {
  return render_cuda_prologue() + detail::device_file("backend/cuda/device/linalg.cuh") +
         "#line 1 \"[tessera] eigenvector unpacking\"\n"
         "extern \"C\" __global__ void __launch_bounds__(256) ts_eigen_unpack("
         "const tessera::device::EigenParams p) {\n  tessera::device::unpack_real_eigen<" +
         detail::type_of(real) + ", " + detail::type_of(complex) + ">(p);\n}\n";
}

void cusolver_lu_factor(int device, const MatrixBatch& a, const Array& pivots,
                        const Array& info) {
  Session s(device, a.batch);
  const int type = data_type(a.a.dtype());
  const int64_t k = std::min(a.rows, a.cols);
  size_t device_bytes = 0, host_bytes = 0;
  check_status(s.api.cusolverDnXgetrf_bufferSize(s.handle, s.params, a.rows, a.cols, type,
                                                 matrix(a, 0), a.ld, type, &device_bytes,
                                                 &host_bytes),
               "cusolverDnXgetrf_bufferSize");
  s.work(device_bytes, host_bytes);
  for (int64_t i = 0; i < a.batch; ++i) {
    check_status(s.api.cusolverDnXgetrf(s.handle, s.params, a.rows, a.cols, type, matrix(a, i),
                                        a.ld, reinterpret_cast<int64_t*>(row(pivots, i, k)), type,
                                        s.device_work(), s.device_bytes(), s.host_work(),
                                        s.host_bytes(), s.info(i)),
                 "cusolverDnXgetrf");
  }
  s.write_info(info);
}

void cusolver_solve(int device, const MatrixBatch& a, const MatrixBatch& b, const Array& info) {
  const int64_t n = a.rows;
  const Array pivots = Array::empty(Dims{a.batch, n}, DType::Int64, Device::cuda(device));
  cusolver_lu_factor(device, a, pivots, info);
  // getrs's own info only reports bad arguments; the factorization's is kept.
  Session s(device, a.batch);
  const int type = data_type(a.a.dtype());
  for (int64_t i = 0; i < a.batch; ++i) {
    check_status(s.api.cusolverDnXgetrs(s.handle, s.params, CUSOLVER_OP_N, n, b.cols, type,
                                        matrix(a, i), a.ld,
                                        reinterpret_cast<const int64_t*>(row(pivots, i, n)), type,
                                        matrix(b, i), b.ld, s.info(i)),
                 "cusolverDnXgetrs");
  }
}

void cusolver_cholesky(int device, const MatrixBatch& a, bool upper, const Array& info) {
  Session s(device, a.batch);
  const int type = data_type(a.a.dtype());
  const int uplo = upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  size_t device_bytes = 0, host_bytes = 0;
  check_status(s.api.cusolverDnXpotrf_bufferSize(s.handle, s.params, uplo, a.rows, type,
                                                 matrix(a, 0), a.ld, type, &device_bytes,
                                                 &host_bytes),
               "cusolverDnXpotrf_bufferSize");
  s.work(device_bytes, host_bytes);
  for (int64_t i = 0; i < a.batch; ++i) {
    check_status(s.api.cusolverDnXpotrf(s.handle, s.params, uplo, a.rows, type, matrix(a, i), a.ld,
                                        type, s.device_work(), s.device_bytes(), s.host_work(),
                                        s.host_bytes(), s.info(i)),
                 "cusolverDnXpotrf");
  }
  s.write_info(info);
}

void cusolver_qr(int device, const MatrixBatch& a, const Array& tau, const Array& info) {
  Session s(device, a.batch);
  const int type = data_type(a.a.dtype());
  const int64_t k = std::min(a.rows, a.cols);
  size_t device_bytes = 0, host_bytes = 0;
  check_status(s.api.cusolverDnXgeqrf_bufferSize(s.handle, s.params, a.rows, a.cols, type,
                                                 matrix(a, 0), a.ld, type, row(tau, 0, k), type,
                                                 &device_bytes, &host_bytes),
               "cusolverDnXgeqrf_bufferSize");
  s.work(device_bytes, host_bytes);
  for (int64_t i = 0; i < a.batch; ++i) {
    check_status(s.api.cusolverDnXgeqrf(s.handle, s.params, a.rows, a.cols, type, matrix(a, i),
                                        a.ld, type, row(tau, i, k), type, s.device_work(),
                                        s.device_bytes(), s.host_work(), s.host_bytes(),
                                        s.info(i)),
                 "cusolverDnXgeqrf");
  }
  s.write_info(info);
}

void cusolver_qr_q(int device, const MatrixBatch& q, const Array& tau, int64_t reflectors,
                   const Array& info) {
  Session s(device, q.batch);
  const int p = precision_index(q.a.dtype());
  const int m = checked_int(q.rows), n = checked_int(q.cols), k = checked_int(reflectors);
  const int ld = checked_int(q.ld);
  int lwork = 0;
  check_status(s.api.orgqr_bufferSize[p](s.handle, m, n, k, matrix(q, 0), ld,
                                         row(tau, 0, reflectors), &lwork),
               "cusolverDnXorgqr_bufferSize");
  s.work(static_cast<size_t>(std::max(lwork, 1)) * q.a.itemsize(), 0);
  for (int64_t i = 0; i < q.batch; ++i) {
    check_status(s.api.orgqr[p](s.handle, m, n, k, matrix(q, i), ld, row(tau, i, reflectors),
                                s.device_work(), lwork, s.info(i)),
                 "cusolverDnXorgqr");
  }
  s.write_info(info);
}

void cusolver_svd(int device, const MatrixBatch& a, const Array& s, const MatrixBatch* u,
                  const MatrixBatch* vt, bool full, const Array& info) {
  const int64_t m = a.rows, n = a.cols, k = std::min(m, n);
  if (m < n) {
    // cuSOLVER's gesvd takes m >= n only: A^H = U' S V'^H gives A = V' S U'^H.
    const MatrixBatch t = conjugate_transpose(a);
    if (!u && !vt) return cusolver_svd(device, t, s, nullptr, nullptr, full, info);
    const Dims batch(a.a.shape().begin(), a.a.shape().end() - 2);
    const MatrixBatch ut = column_major_empty(batch, n, full ? n : k, a.a.dtype(), a.a.device());
    const MatrixBatch vtt = column_major_empty(batch, k, k, a.a.dtype(), a.a.device());
    cusolver_svd(device, t, s, &ut, &vtt, full, info);
    if (u) Array(u->a).assign(conjugate_transpose(vtt.a));
    if (vt) Array(vt->a).assign(conjugate_transpose(ut.a));
    return;
  }
  Session session(device, a.batch);
  const int type = data_type(a.a.dtype()), real = data_type(real_of(a.a.dtype()));
  const signed char jobu = u ? (full ? 'A' : 'S') : 'N';
  const signed char jobvt = vt ? (full ? 'A' : 'S') : 'N';
  auto at = [](const MatrixBatch* x, int64_t i) -> void* { return x ? matrix(*x, i) : nullptr; };
  const int64_t ldu = u ? u->ld : m, ldvt = vt ? vt->ld : n;
  size_t device_bytes = 0, host_bytes = 0;
  check_status(session.api.cusolverDnXgesvd_bufferSize(
                   session.handle, session.params, jobu, jobvt, m, n, type, matrix(a, 0), a.ld,
                   real, row(s, 0, k), type, at(u, 0), ldu, type, at(vt, 0), ldvt, type,
                   &device_bytes, &host_bytes),
               "cusolverDnXgesvd_bufferSize");
  session.work(device_bytes, host_bytes);
  for (int64_t i = 0; i < a.batch; ++i) {
    check_status(session.api.cusolverDnXgesvd(
                     session.handle, session.params, jobu, jobvt, m, n, type, matrix(a, i), a.ld,
                     real, row(s, i, k), type, at(u, i), ldu, type, at(vt, i), ldvt, type,
                     session.device_work(), session.device_bytes(), session.host_work(),
                     session.host_bytes(), session.info(i)),
                 "cusolverDnXgesvd");
  }
  session.write_info(info);
}

void cusolver_eigh(int device, const MatrixBatch& a, const Array& w, bool vectors, bool upper,
                   const Array& info) {
  Session s(device, a.batch);
  const int type = data_type(a.a.dtype()), real = data_type(real_of(a.a.dtype()));
  const int jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const int uplo = upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  const int64_t n = a.rows;
  size_t device_bytes = 0, host_bytes = 0;
  check_status(s.api.cusolverDnXsyevd_bufferSize(s.handle, s.params, jobz, uplo, n, type,
                                                 matrix(a, 0), a.ld, real, row(w, 0, n), type,
                                                 &device_bytes, &host_bytes),
               "cusolverDnXsyevd_bufferSize");
  s.work(device_bytes, host_bytes);
  for (int64_t i = 0; i < a.batch; ++i) {
    check_status(s.api.cusolverDnXsyevd(s.handle, s.params, jobz, uplo, n, type, matrix(a, i), a.ld,
                                        real, row(w, i, n), type, s.device_work(),
                                        s.device_bytes(), s.host_work(), s.host_bytes(),
                                        s.info(i)),
                 "cusolverDnXsyevd");
  }
  s.write_info(info);
}

void cusolver_eig(int device, const MatrixBatch& a, const Array& w, const MatrixBatch* v,
                  const Array& info) {
  Session s(device, a.batch);
  if (!s.api.cusolverDnXgeev || !s.api.cusolverDnXgeev_bufferSize) {
    throw CudaRuntimeError("[eig] this cuSOLVER has no geev: it needs cuSOLVER 11.6 (CUDA 12.6) "
                           "or newer");
  }
  const DType dtype = a.a.dtype();
  const bool real_input = !is_complex(dtype);
  const int type = data_type(dtype);
  const int64_t n = a.rows, ld = std::max<int64_t>(n, 1);
  const int jobvr = v ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  // A real matrix's eigenvalues come back as n real parts and n imaginary parts, its
  // vectors packed as LAPACK's (device/linalg.cuh unpacks both); a complex one's directly.
  Array parts, packed;
  if (real_input) {
    parts = Array::empty(Dims{a.batch, 2 * n}, dtype, Device::cuda(device));
    if (v) packed = Array::empty(Dims{a.batch, n, n}, dtype, Device::cuda(device));
  }
  auto values = [&](int64_t i) -> void* {
    return real_input ? row(parts, i, 2 * n) : row(w, i, n);
  };
  auto vectors = [&](int64_t i) -> void* {
    if (!v) return nullptr;
    return real_input ? row(packed, i, n * n) : matrix(*v, i);
  };
  const int64_t ldvr = v && !real_input ? v->ld : ld;
  size_t device_bytes = 0, host_bytes = 0;
  check_status(s.api.cusolverDnXgeev_bufferSize(s.handle, s.params, CUSOLVER_EIG_MODE_NOVECTOR,
                                                jobvr, n, type, matrix(a, 0), a.ld, type,
                                                values(0), type, nullptr, ld, type, vectors(0),
                                                ldvr, type, &device_bytes, &host_bytes),
               "cusolverDnXgeev_bufferSize");
  s.work(device_bytes, host_bytes);
  for (int64_t i = 0; i < a.batch; ++i) {
    check_status(s.api.cusolverDnXgeev(s.handle, s.params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, n,
                                       type, matrix(a, i), a.ld, type, values(i), type, nullptr,
                                       ld, type, vectors(i), ldvr, type, s.device_work(),
                                       s.device_bytes(), s.host_work(), s.host_bytes(),
                                       s.info(i)),
                 "cusolverDnXgeev");
  }
  if (real_input && a.batch * n > 0) unpack_real_eigen(device, packed, parts, w, v, n, a.batch);
  s.write_info(info);
}

void cusolver_lstsq(int device, const MatrixBatch& a, const MatrixBatch& b, const Array& s,
                    const Array& rank, double rcond, const Array& info) {
  // x = V diag(1/s_i where s_i > rcond s_max, else 0) U^H b: gelsd's minimum-norm solution
  // (its cutoff too: a negative rcond means machine precision), from the economy SVD.
  const DType dtype = a.a.dtype(), real = real_of(dtype);
  const int64_t m = a.rows, n = a.cols, k = std::min(m, n);
  const Dims batch(a.a.shape().begin(), a.a.shape().end() - 2);
  const MatrixBatch u = column_major_empty(batch, m, k, dtype, a.a.device());
  const MatrixBatch vt = column_major_empty(batch, k, n, dtype, a.a.device());
  cusolver_svd(device, a, s, &u, &vt, false, info);
  const int nd = b.a.ndim();
  auto rows = [&](int64_t count) {
    std::vector<IndexItem> items(nd - 2, IndexItem::slice(std::nullopt, std::nullopt, 1));
    items.push_back(IndexItem::slice(0, count, 1));
    items.push_back(IndexItem::slice(std::nullopt, std::nullopt, 1));
    return items;
  };
  const double eps = real == DType::Float32 ? std::numeric_limits<float>::epsilon()
                                            : std::numeric_limits<double>::epsilon();
  std::vector<IndexItem> first(nd - 2, IndexItem::slice(std::nullopt, std::nullopt, 1));
  first.push_back(IndexItem::slice(0, 1, 1));
  const Array cutoff = multiply(s.index(first), Operand::weak_float(rcond < 0 ? eps : rcond));
  const Array kept = greater(s, cutoff);
  const Array inverse = where(kept, divide(Operand::weak_float(1.0), where(kept, s, Operand::weak_float(1.0))),
                              Operand::weak_float(0.0));
  const Array projected = matmul(conjugate_transpose(u.a), b.a.index(rows(m)));
  const Array scaled = multiply(projected, inverse.expand_dims({-1}));
  b.a.index(rows(n)).assign(matmul(conjugate_transpose(vt.a), scaled));
  ReduceOptions count;
  count.axis = std::vector<int64_t>{-1};
  count.out = rank;
  reduce(Ufunc::Add, kept, count);
}

}  // namespace tessera::cuda
