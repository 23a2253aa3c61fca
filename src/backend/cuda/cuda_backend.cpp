// The CUDA backend: device memory from each device's stream-ordered pool, copies through the
// driver, and every computation as a generated kernel (expr_kernel.h, fold_kernel.h,
// fill_kernel.h, index_kernel.h, sort_kernel.h, product_kernel.h) or a CUDA library call
// (cuBLAS, cuFFT, cuSOLVER), all queued on the current stream.

#include <memory>
#include <mutex>
#include <vector>

#include "backend/backend.h"
#include "backend/cuda/driver_memory.h"
#include "backend/cuda/cufft.h"
#include "backend/cuda/cusolver.h"
#include "backend/cuda/expr_kernel.h"
#include "backend/cuda/fill_kernel.h"
#include "backend/cuda/fold_kernel.h"
#include "backend/cuda/index_kernel.h"
#include "backend/cuda/product_kernel.h"
#include "backend/cuda/sort_kernel.h"
#include "backend/cuda/runtime.h"
#include "backend/fft_call.h"
#include "backend/gemm_call.h"
#include "backend/matrix_batch.h"
#include "backend/random_call.h"
#include "tessera/cuda.h"
#include "tessera/errors.h"

namespace tessera {
namespace {

class CudaBackend final : public Backend {
 public:
  explicit CudaBackend(int device) : device_(device) {}

  Allocator& allocator() override { return cuda::device_allocator(device_); }

  void copy(const Array& src, const Array& dst) override {
    if (src.dtype() == dst.dtype() && src.is_c_contiguous() && dst.is_c_contiguous()) {
      cuda::activate(device_, "copy");
      cuda::check(cuda::driver()->cuMemcpyDtoDAsync(device_ptr(dst), device_ptr(src),
                                                    dst.nbytes(), stream()),
                  "copy");
      return;
    }
    cuda::launch_expr(device_, *expr::input(src, dst.dtype()), std::span(&dst, 1));
  }
  void copy_from_peer(const Array& src, const Array& dst) override {
    const int from = src.device().index;
    // Queued on this device's stream behind the work queued for src on its own...
    cuda::Event ready(from, /*timing=*/false);
    ready.record(current_stream(src.device()));
    cuda::wait_event(current_stream(Device::cuda(device_)), ready);
    cuda::activate(device_, "asarray");
    const auto context = [](int device) { return cuda::context_of(device, "asarray"); };
    cuda::check(cuda::driver()->cuMemcpyPeerAsync(device_ptr(dst), context(device_),
                                                  device_ptr(src), context(from), dst.nbytes(),
                                                  stream()),
                "asarray");
    // ...and src's stream waits for the copy before later work there may reuse src's memory.
    cuda::Event copied(device_, /*timing=*/false);
    copied.record(current_stream(Device::cuda(device_)));
    cuda::wait_event(current_stream(src.device()), copied);
  }
  void upload(const void* host, const Array& dst) override {
    if (dst.is_c_contiguous()) {
      cuda::activate(device_, "asarray");
      cuda::check(cuda::driver()->cuMemcpyHtoDAsync(device_ptr(dst), host, dst.nbytes(), stream()),
                  "asarray");
      return;
    }
    // Into a contiguous twin on the device, then scattered into dst's layout there.
    const Array twin = Array::empty(dst.shape(), dst.dtype(), dst.device());
    upload(host, twin);
    copy(twin, dst);
  }
  void download(const Array& src, void* host) override {
    if (src.is_c_contiguous()) {
      cuda::activate(device_, "asnumpy");
      cuda::check(cuda::driver()->cuMemcpyDtoHAsync(host, device_ptr(src), src.nbytes(), stream()),
                  "asnumpy");
      cuda::check(cuda::driver()->cuStreamSynchronize(stream()), "asnumpy");
      return;
    }
    // Gathered into a contiguous twin on the device first, so one transfer moves it all.
    const Array twin = Array::empty(src.shape(), src.dtype(), src.device());
    copy(src, twin);
    download(twin, host);
  }
  void arange(const Array& dst, const Scalar& first, const Scalar& second) override {
    cuda::launch_arange(device_, dst, first, second);
  }
  void linspace(const Array& dst, const LinspaceSpec& spec) override {
    cuda::launch_linspace(device_, dst, spec);
  }
  void eval_expr(const expr::Node& root, std::span<const Array> outs) override {
    cuda::launch_expr(device_, root, outs);
  }
  void run_loop(Ufunc op, int loop, std::span<const void* const> in,
                std::span<const bool> broadcast, void* out, int64_t n) override {
    cuda::launch_loop(device_, op, loop, in, broadcast, out, n);
  }
  void reduce(const expr::Node& root, Ufunc op, int loop, bool ordered,
              const Array& acc) override {
    cuda::launch_reduce(device_, root, op, loop, ordered, acc);
  }
  void arg_reduce(const expr::Node& root, bool max, const Array& index) override {
    cuda::launch_arg_reduce(device_, root, max, index);
  }
  void scan(const expr::Node& root, Ufunc op, int loop, int axis, const Array& out) override {
    cuda::launch_scan(device_, root, op, loop, axis, out);
  }
  void sort(const Array& a, bool /*stable: the merge sort always is*/) override {
    cuda::launch_sort(device_, a);
  }
  void argsort(const Array& a, const Array& index) override {
    cuda::launch_argsort(device_, a, index);
  }
  void searchsorted(const Array& sorted, const Array& values, bool right,
                    const Array& out) override {
    cuda::launch_searchsorted(device_, sorted, values, right, out);
  }
  void gather(const Array& src, int npre, const Array& offsets, const Array& out) override {
    cuda::launch_gather(device_, src, npre, offsets, out);
  }
  std::optional<int64_t> gather_index(const Array& src, int npre, const Array& index,
                                      int64_t extent, int64_t stride,
                                      const Array& out) override {
    return cuda::launch_gather_index(device_, src, npre, index, extent, stride, out);
  }
  void scatter(const Array& dst, int npre, const Array& offsets, const Array& values) override {
    cuda::launch_scatter(device_, dst, npre, offsets, values);
  }
  void compress(const Array& src, const Array& mask, const Array& out) override {
    cuda::launch_compress(device_, src, mask, out);
  }
  void scatter_apply(const Array& dst, int npre, const Array& offsets, const Array& values,
                     Ufunc op, int loop) override {
    cuda::launch_scatter_apply(device_, dst, npre, offsets, values, op, loop);
  }
  int64_t count_true(const Array& mask) override { return cuda::count_true(device_, mask); }
  void flat_nonzero(const Array& mask, const Array& out) override {
    cuda::launch_flat_nonzero(device_, mask, out);
  }
  void gemm(const GemmCall& call) override { cuda::launch_gemm(device_, call); }
  void lu_factor(const MatrixBatch& a, const Array& pivots, const Array& info) override {
    cuda::cusolver_lu_factor(device_, a, pivots, info);
  }
  void solve(const MatrixBatch& a, const MatrixBatch& b, const Array& info) override {
    cuda::cusolver_solve(device_, a, b, info);
  }
  void cholesky(const MatrixBatch& a, bool upper, const Array& info) override {
    cuda::cusolver_cholesky(device_, a, upper, info);
  }
  void qr(const MatrixBatch& a, const Array& tau, const Array& info) override {
    cuda::cusolver_qr(device_, a, tau, info);
  }
  void qr_q(const MatrixBatch& q, const Array& tau, int64_t reflectors,
            const Array& info) override {
    cuda::cusolver_qr_q(device_, q, tau, reflectors, info);
  }
  void svd(const MatrixBatch& a, const Array& sv, const MatrixBatch* u, const MatrixBatch* vt,
           bool full, const Array& info) override {
    cuda::cusolver_svd(device_, a, sv, u, vt, full, info);
  }
  void eigh(const MatrixBatch& a, const Array& w, bool vectors, bool upper,
            const Array& info) override {
    cuda::cusolver_eigh(device_, a, w, vectors, upper, info);
  }
  void eig(const MatrixBatch& a, const Array& w, const MatrixBatch* v,
           const Array& info) override {
    cuda::cusolver_eig(device_, a, w, v, info);
  }
  void lstsq(const MatrixBatch& a, const MatrixBatch& b, const Array& sv, const Array& rank,
             double rcond, const Array& info) override {
    cuda::cusolver_lstsq(device_, a, b, sv, rank, rcond, info);
  }
  void fft(const FftCall& call) override { cuda::cufft_execute(device_, call); }
  void random(const RandomCall& call) override { cuda::launch_random(device_, call); }

 private:
  cuda::CUstream stream() const {
    return cuda::stream_handle(current_stream(Device::cuda(device_)));
  }
  static cuda::CUdeviceptr device_ptr(const Array& a) {
    return reinterpret_cast<cuda::CUdeviceptr>(a.data());
  }

  int device_;
};

}  // namespace

Backend& cuda_backend(int device) {
  static std::mutex mutex;
  static auto* backends = new std::vector<std::unique_ptr<CudaBackend>>();  // never destroyed
  cuda::activate(device, "cuda");
  std::lock_guard lock(mutex);
  if (backends->size() <= static_cast<size_t>(device)) backends->resize(device + 1);
  auto& slot = (*backends)[device];
  if (!slot) slot = std::make_unique<CudaBackend>(device);
  return *slot;
}

}  // namespace tessera
