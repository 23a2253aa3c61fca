// The CUDA backend: device memory from each device's stream-ordered pool, copies through the
// driver on the current stream, and every computation through the staging path
// (staging.h) until the code generator renders them as kernels.

#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "backend/backend.h"
#include "backend/cuda/driver_memory.h"
#include "backend/cuda/cufft.h"
#include "backend/cuda/expr_kernel.h"
#include "backend/cuda/fill_kernel.h"
#include "backend/cuda/fold_kernel.h"
#include "backend/cuda/index_kernel.h"
#include "backend/cuda/product_kernel.h"
#include "backend/cuda/sort_kernel.h"
#include "backend/cuda/runtime.h"
#include "backend/cuda/staging.h"
#include "backend/fft_call.h"
#include "backend/gemm_call.h"
#include "backend/matrix_batch.h"
#include "backend/random_call.h"
#include "tessera/cuda.h"
#include "tessera/errors.h"

namespace tessera {
namespace {

using cuda::Staging;

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
    if (cuda::generated_kernels_enabled()) {
      cuda::launch_expr(device_, *expr::input(src, dst.dtype()), std::span(&dst, 1));
      return;
    }
    Staging s(device_);
    const Array host_src = s.host(src);
    cpu_backend().copy(host_src, s.output(dst));
    s.write_back(dst);
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
    if (cuda::generated_kernels_enabled()) {
      cuda::launch_arange(device_, dst, first, second);
      return;
    }
    Staging s(device_);
    cpu_backend().arange(s.output(dst), first, second);
    s.write_back(dst);
  }
  void linspace(const Array& dst, const LinspaceSpec& spec) override {
    if (cuda::generated_kernels_enabled()) {
      cuda::launch_linspace(device_, dst, spec);
      return;
    }
    Staging s(device_);
    cpu_backend().linspace(s.output(dst), spec);
    s.write_back(dst);
  }
  void eval_expr(const expr::Node& root, std::span<const Array> outs) override {
    if (cuda::generated_kernels_enabled()) {
      cuda::launch_expr(device_, root, outs);
      return;
    }
    Staging s(device_);
    const expr::NodePtr tree = s.host(root);
    std::vector<Array> host_outs;
    for (const Array& out : outs) host_outs.push_back(s.output(out));
    cpu_backend().eval_expr(*tree, host_outs);
    for (const Array& out : outs) s.write_back(out);
  }
  void run_loop(Ufunc op, int loop, std::span<const void* const> in,
                std::span<const bool> broadcast, void* out, int64_t n) override {
    if (cuda::generated_kernels_enabled()) {
      cuda::launch_loop(device_, op, loop, in, broadcast, out, n);
      return;
    }
    const LoopSignature& sig = ufunc_info(op).loops[loop];
    cuda::activate(device_, "ufunc");
    std::vector<std::vector<std::byte>> host_in(in.size());
    std::vector<const void*> host_ptrs;
    for (size_t k = 0; k < in.size(); ++k) {
      host_in[k].resize((broadcast[k] ? 1 : n) * itemsize(sig.in[k]));
      if (broadcast[k]) {
        std::memcpy(host_in[k].data(), in[k], host_in[k].size());  // a scalar, on the host
      } else {
        cuda::check(cuda::driver()->cuMemcpyDtoHAsync(
                        host_in[k].data(), reinterpret_cast<cuda::CUdeviceptr>(in[k]),
                        host_in[k].size(), stream()),
                    "ufunc");
      }
      host_ptrs.push_back(host_in[k].data());
    }
    cuda::check(cuda::driver()->cuStreamSynchronize(stream()), "ufunc");
    std::vector<std::byte> host_out(n * itemsize(sig.out[0]));
    cpu_backend().run_loop(op, loop, host_ptrs, broadcast, host_out.data(), n);
    cuda::check(cuda::driver()->cuMemcpyHtoDAsync(reinterpret_cast<cuda::CUdeviceptr>(out),
                                                  host_out.data(), host_out.size(), stream()),
                "ufunc");
  }
  void reduce(const expr::Node& root, Ufunc op, int loop, bool ordered,
              const Array& acc) override {
    if (cuda::generated_kernels_enabled()) {
      cuda::launch_reduce(device_, root, op, loop, ordered, acc);
      return;
    }
    Staging s(device_);
    cpu_backend().reduce(*s.host(root), op, loop, ordered, s.host(acc));
    s.write_back(acc);
  }
  void arg_reduce(const expr::Node& root, bool max, const Array& index) override {
    if (cuda::generated_kernels_enabled()) {
      cuda::launch_arg_reduce(device_, root, max, index);
      return;
    }
    Staging s(device_);
    const expr::NodePtr tree = s.host(root);
    cpu_backend().arg_reduce(*tree, max, s.output(index));
    s.write_back(index);
  }
  void scan(const expr::Node& root, Ufunc op, int loop, int axis, const Array& out) override {
    if (cuda::generated_kernels_enabled()) {
      cuda::launch_scan(device_, root, op, loop, axis, out);
      return;
    }
    Staging s(device_);
    const expr::NodePtr tree = s.host(root);
    cpu_backend().scan(*tree, op, loop, axis, s.output(out));
    s.write_back(out);
  }
  void sort(const Array& a, bool stable) override {
    if (cuda::generated_kernels_enabled()) {
      cuda::launch_sort(device_, a);  // always stable
      return;
    }
    Staging s(device_);
    cpu_backend().sort(s.host(a), stable);
    s.write_back(a);
  }
  void argsort(const Array& a, const Array& index) override {
    if (cuda::generated_kernels_enabled()) {
      cuda::launch_argsort(device_, a, index);
      return;
    }
    Staging s(device_);
    const Array host_a = s.host(a);
    cpu_backend().argsort(host_a, s.output(index));
    s.write_back(index);
  }
  void searchsorted(const Array& sorted, const Array& values, bool right,
                    const Array& out) override {
    if (cuda::generated_kernels_enabled()) {
      cuda::launch_searchsorted(device_, sorted, values, right, out);
      return;
    }
    Staging s(device_);
    const Array host_sorted = s.host(sorted), host_values = s.host(values);
    cpu_backend().searchsorted(host_sorted, host_values, right, s.output(out));
    s.write_back(out);
  }
  void gather(const Array& src, int npre, const Array& offsets, const Array& out) override {
    if (cuda::generated_kernels_enabled()) {
      cuda::launch_gather(device_, src, npre, offsets, out);
      return;
    }
    Staging s(device_);
    const Array host_src = s.host(src), host_offsets = s.host(offsets);
    cpu_backend().gather(host_src, npre, host_offsets, s.output(out));
    s.write_back(out);
  }
  std::optional<int64_t> gather_index(const Array& src, int npre, const Array& index,
                                      int64_t extent, int64_t stride,
                                      const Array& out) override {
    if (cuda::generated_kernels_enabled()) {
      return cuda::launch_gather_index(device_, src, npre, index, extent, stride, out);
    }
    Staging s(device_);
    const Array host_src = s.host(src), host_index = s.host(index);
    auto bad = cpu_backend().gather_index(host_src, npre, host_index, extent, stride,
                                          s.output(out));
    s.write_back(out);
    return bad;
  }
  void scatter(const Array& dst, int npre, const Array& offsets, const Array& values) override {
    if (cuda::generated_kernels_enabled()) {
      cuda::launch_scatter(device_, dst, npre, offsets, values);
      return;
    }
    Staging s(device_);
    cpu_backend().scatter(s.host(dst), npre, s.host(offsets), s.host(values));
    s.write_back(dst);
  }
  void compress(const Array& src, const Array& mask, const Array& out) override {
    if (cuda::generated_kernels_enabled()) {
      cuda::launch_compress(device_, src, mask, out);
      return;
    }
    Staging s(device_);
    const Array host_src = s.host(src), host_mask = s.host(mask);
    cpu_backend().compress(host_src, host_mask, s.output(out));
    s.write_back(out);
  }
  void scatter_apply(const Array& dst, int npre, const Array& offsets, const Array& values,
                     Ufunc op, int loop) override {
    if (cuda::generated_kernels_enabled()) {
      cuda::launch_scatter_apply(device_, dst, npre, offsets, values, op, loop);
      return;
    }
    Staging s(device_);
    cpu_backend().scatter_apply(s.host(dst), npre, s.host(offsets), s.host(values), op, loop);
    s.write_back(dst);
  }
  int64_t count_true(const Array& mask) override {
    if (cuda::generated_kernels_enabled()) return cuda::count_true(device_, mask);
    Staging s(device_);
    return cpu_backend().count_true(s.host(mask));
  }
  void flat_nonzero(const Array& mask, const Array& out) override {
    if (cuda::generated_kernels_enabled()) {
      cuda::launch_flat_nonzero(device_, mask, out);
      return;
    }
    Staging s(device_);
    const Array host_mask = s.host(mask);
    cpu_backend().flat_nonzero(host_mask, s.output(out));
    s.write_back(out);
  }
  void gemm(const GemmCall& call) override {
    if (cuda::generated_kernels_enabled()) {
      cuda::launch_gemm(device_, call);
      return;
    }
    Staging s(device_);
    GemmCall host = call;
    host.a = s.host(call.a);
    host.b = s.host(call.b);
    host.c = s.host(call.c);
    cpu_backend().gemm(host);
    s.write_back(call.c);
  }
  void lu_factor(const MatrixBatch& a, const Array& pivots, const Array& info) override {
    Staging s(device_);
    cpu_backend().lu_factor(host(s, a), s.host(pivots), s.host(info));
    write_back(s, {a.a, pivots, info});
  }
  void solve(const MatrixBatch& a, const MatrixBatch& b, const Array& info) override {
    Staging s(device_);
    cpu_backend().solve(host(s, a), host(s, b), s.host(info));
    write_back(s, {a.a, b.a, info});
  }
  void cholesky(const MatrixBatch& a, bool upper, const Array& info) override {
    Staging s(device_);
    cpu_backend().cholesky(host(s, a), upper, s.host(info));
    write_back(s, {a.a, info});
  }
  void qr(const MatrixBatch& a, const Array& tau, const Array& info) override {
    Staging s(device_);
    cpu_backend().qr(host(s, a), s.host(tau), s.host(info));
    write_back(s, {a.a, tau, info});
  }
  void qr_q(const MatrixBatch& q, const Array& tau, int64_t reflectors,
            const Array& info) override {
    Staging s(device_);
    cpu_backend().qr_q(host(s, q), s.host(tau), reflectors, s.host(info));
    write_back(s, {q.a, info});
  }
  void svd(const MatrixBatch& a, const Array& sv, const MatrixBatch* u, const MatrixBatch* vt,
           bool full, const Array& info) override {
    Staging s(device_);
    std::optional<MatrixBatch> hu, hvt;
    if (u) hu = host(s, *u);
    if (vt) hvt = host(s, *vt);
    cpu_backend().svd(host(s, a), s.host(sv), hu ? &*hu : nullptr, hvt ? &*hvt : nullptr, full,
                      s.host(info));
    write_back(s, {a.a, sv, info});
    if (u) s.write_back(u->a);
    if (vt) s.write_back(vt->a);
  }
  void eigh(const MatrixBatch& a, const Array& w, bool vectors, bool upper,
            const Array& info) override {
    Staging s(device_);
    cpu_backend().eigh(host(s, a), s.host(w), vectors, upper, s.host(info));
    write_back(s, {a.a, w, info});
  }
  void eig(const MatrixBatch& a, const Array& w, const MatrixBatch* v,
           const Array& info) override {
    Staging s(device_);
    std::optional<MatrixBatch> hv;
    if (v) hv = host(s, *v);
    cpu_backend().eig(host(s, a), s.host(w), hv ? &*hv : nullptr, s.host(info));
    write_back(s, {a.a, w, info});
    if (v) s.write_back(v->a);
  }
  void lstsq(const MatrixBatch& a, const MatrixBatch& b, const Array& sv, const Array& rank,
             double rcond, const Array& info) override {
    Staging s(device_);
    cpu_backend().lstsq(host(s, a), host(s, b), s.host(sv), s.host(rank), rcond, s.host(info));
    write_back(s, {a.a, b.a, sv, rank, info});
  }
  void fft(const FftCall& call) override { cuda::cufft_execute(device_, call); }
  void random(const RandomCall& call) override {
    if (cuda::generated_kernels_enabled()) {
      cuda::launch_random(device_, call);
      return;
    }
    Staging s(device_);
    RandomCall host = call;
    host.a = s.host(call.a);
    host.b = s.host(call.b);
    host.out = s.output(call.out);
    cpu_backend().random(host);
    s.write_back(call.out);
  }

 private:
  cuda::CUstream stream() const {
    return cuda::stream_handle(current_stream(Device::cuda(device_)));
  }
  static cuda::CUdeviceptr device_ptr(const Array& a) {
    return reinterpret_cast<cuda::CUdeviceptr>(a.data());
  }
  static MatrixBatch host(Staging& s, const MatrixBatch& m) {
    MatrixBatch h = m;
    h.a = s.host(m.a);
    return h;
  }
  static void write_back(Staging& s, std::initializer_list<Array> arrays) {
    for (const Array& a : arrays) s.write_back(a);
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
