#include "backend/cpu/cpu_backend.h"

#include <unistd.h>

#include <cstdlib>

#include "backend/cpu/caching_allocator.h"

namespace tessera {
namespace {

// Freed blocks the CPU allocator may keep: TESSERA_CPU_CACHE_BYTES, else a quarter of RAM.
size_t cpu_cache_limit() {
  if (const char* env = std::getenv("TESSERA_CPU_CACHE_BYTES")) return std::strtoull(env, nullptr, 10);
  long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? static_cast<size_t>(pages) * page / 4 : size_t{1} << 30;
}

Array host_view(const void* host, const Array& like) {
  auto buffer = Buffer::wrap(Device::cpu(), const_cast<void*>(host), like.nbytes(), nullptr);
  return Array(buffer, like.dtype(), like.shape(),
               contiguous_strides(like.shape(), like.itemsize(), Order::C), 0);
}

class CpuBackend final : public Backend {
 public:
  CpuBackend() : allocator_(cpu_cache_limit()) {}
  Allocator& allocator() override { return allocator_; }
  void copy(const Array& src, const Array& dst) override { cpu::strided_copy(src, dst); }
  // One CPU device: never a peer of another; both live in host memory all the same.
  void copy_from_peer(const Array& src, const Array& dst) override { upload(src.data(), dst); }
  void upload(const void* host, const Array& dst) override {
    cpu::strided_copy(host_view(host, dst), dst);
  }
  void download(const Array& src, void* host) override {
    cpu::strided_copy(src, host_view(host, src));
  }
  void arange(const Array& dst, const Scalar& first, const Scalar& second) override {
    cpu::arange_fill(dst, first, second);
  }
  void linspace(const Array& dst, const LinspaceSpec& spec) override {
    cpu::linspace_fill(dst, spec);
  }
  void eval_expr(const expr::Node& root, std::span<const Array> outs) override {
    cpu::eval_expr(root, outs);
  }
  void reduce(const expr::Node& root, Ufunc op, int loop, bool ordered,
              const Array& acc) override {
    cpu::reduce(root, op, loop, ordered, acc);
  }
  void arg_reduce(const expr::Node& root, bool max, const Array& index) override {
    cpu::arg_reduce(root, max, index);
  }
  void scan(const expr::Node& root, Ufunc op, int loop, int axis, const Array& out) override {
    cpu::scan(root, op, loop, axis, out);
  }
  void sort(const Array& a, bool stable) override { cpu::sort(a, stable); }
  void argsort(const Array& a, const Array& index) override { cpu::argsort(a, index); }
  void searchsorted(const Array& sorted, const Array& values, bool right,
                    const Array& out) override {
    cpu::searchsorted(sorted, values, right, out);
  }
  void gather(const Array& src, int npre, const Array& offsets, const Array& out) override {
    cpu::gather(src, npre, offsets, out);
  }
  std::optional<int64_t> gather_index(const Array& src, int npre, const Array& index,
                                      int64_t extent, int64_t stride,
                                      const Array& out) override {
    return cpu::gather_index(src, npre, index, extent, stride, out);
  }
  void scatter(const Array& dst, int npre, const Array& offsets,
               const Array& values) override {
    cpu::scatter(dst, npre, offsets, values);
  }
  void scatter_apply(const Array& dst, int npre, const Array& offsets, const Array& values,
                     Ufunc op, int loop) override {
    cpu::scatter_apply(dst, npre, offsets, values, op, loop);
  }
  void compress(const Array& src, const Array& mask, const Array& out) override {
    cpu::compress(src, mask, out);
  }
  int64_t count_true(const Array& mask) override { return cpu::count_true(mask); }
  void gemm(const GemmCall& call) override { cpu::gemm(call); }
  void fft(const FftCall& call) override { cpu::fft(call); }
  void random(const RandomCall& call) override { cpu::random(call); }
  void lu_factor(const MatrixBatch& a, const Array& pivots, const Array& info) override {
    cpu::lu_factor(a, pivots, info);
  }
  void solve(const MatrixBatch& a, const MatrixBatch& b, const Array& info) override {
    cpu::solve(a, b, info);
  }
  void cholesky(const MatrixBatch& a, bool upper, const Array& info) override {
    cpu::cholesky(a, upper, info);
  }
  void qr(const MatrixBatch& a, const Array& tau, const Array& info) override {
    cpu::qr(a, tau, info);
  }
  void qr_q(const MatrixBatch& q, const Array& tau, int64_t reflectors,
            const Array& info) override {
    cpu::qr_q(q, tau, reflectors, info);
  }
  void svd(const MatrixBatch& a, const Array& s, const MatrixBatch* u, const MatrixBatch* vt,
           bool full, const Array& info) override {
    cpu::svd(a, s, u, vt, full, info);
  }
  void eigh(const MatrixBatch& a, const Array& w, bool vectors, bool upper,
            const Array& info) override {
    cpu::eigh(a, w, vectors, upper, info);
  }
  void eig(const MatrixBatch& a, const Array& w, const MatrixBatch* v,
           const Array& info) override {
    cpu::eig(a, w, v, info);
  }
  void lstsq(const MatrixBatch& a, const MatrixBatch& b, const Array& s, const Array& rank,
             double rcond, const Array& info) override {
    cpu::lstsq(a, b, s, rank, rcond, info);
  }
  void flat_nonzero(const Array& mask, const Array& out) override {
    cpu::flat_nonzero(mask, out);
  }
  void run_loop(Ufunc op, int loop, std::span<const void* const> in,
                std::span<const bool> broadcast, void* out, int64_t n) override {
    const int64_t no_strides[3] = {};
    cpu::run_loop_rows(op, loop, in, broadcast, {no_strides, in.size()}, 1, n, out);
  }
  std::optional<Array> run_loop_rows(Ufunc op, int loop, std::span<const void* const> in,
                                     std::span<const bool> broadcast,
                                     std::span<const int64_t> row_strides,
                                     const Dims& shape) override {
    Array out = Array::empty(shape, ufunc_info(op).loops[loop].out[0], Device::cpu());
    const int64_t cols = shape.back();
    cpu::run_loop_rows(op, loop, in, broadcast, row_strides, out.size() / cols, cols, out.data());
    return out;
  }

 private:
  CachingHostAllocator allocator_;
};

}  // namespace

Backend& cpu_backend() {
  static CpuBackend backend;
  return backend;
}

Backend& backend_for(Device device) {
  return device.is_cpu() ? cpu_backend() : cuda_backend(device.index);
}

}  // namespace tessera
