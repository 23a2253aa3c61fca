// The CUDA backend until the CUDA device lands: every call says what is missing, so the
// CUDA device exists in every type and signature without a single #ifdef.

#include <string>

#include "backend/backend.h"
#include "tessera/errors.h"

namespace tessera {
namespace {

[[noreturn]] void unsupported(const char* op) {
  throw NotImplementedError(std::string("[") + op + "] not supported on cuda devices yet");
}

class CudaAllocatorStub final : public Allocator {
 public:
  void* allocate(size_t) override { unsupported("allocate"); }
  void deallocate(void*, size_t) noexcept override {}
  AllocatorStats stats() const override { return {}; }
  void release_cached() override {}
};

class CudaBackendStub final : public Backend {
 public:
  Allocator& allocator() override { return allocator_; }
  void copy(const Array&, const Array&) override { unsupported("copy"); }
  void upload(const void*, const Array&) override { unsupported("upload"); }
  void download(const Array&, void*) override { unsupported("download"); }
  void arange(const Array&, const Scalar&, const Scalar&) override { unsupported("arange"); }
  void linspace(const Array&, const LinspaceSpec&) override { unsupported("linspace"); }
  void eval_expr(const expr::Node&, std::span<const Array>) override {
    unsupported("elementwise");
  }
  void run_loop(Ufunc, int, std::span<const void* const>, std::span<const bool>, void*,
                int64_t) override {
    unsupported("elementwise");
  }
  void reduce(const expr::Node&, Ufunc, int, bool, const Array&) override {
    unsupported("reduce");
  }
  void arg_reduce(const expr::Node&, bool, const Array&) override { unsupported("arg_reduce"); }
  void scan(const expr::Node&, Ufunc, int, int, const Array&) override { unsupported("scan"); }
  void sort(const Array&, bool) override { unsupported("sort"); }
  void argsort(const Array&, const Array&) override { unsupported("argsort"); }
  void searchsorted(const Array&, const Array&, bool, const Array&) override {
    unsupported("searchsorted");
  }
  void gather(const Array&, int, const Array&, const Array&) override { unsupported("gather"); }
  std::optional<int64_t> gather_index(const Array&, int, const Array&, int64_t, int64_t,
                                      const Array&) override {
    unsupported("gather");
  }
  void scatter(const Array&, int, const Array&, const Array&) override {
    unsupported("scatter");
  }
  void compress(const Array&, const Array&, const Array&) override { unsupported("compress"); }
  void scatter_apply(const Array&, int, const Array&, const Array&, Ufunc, int) override {
    unsupported("ufunc.at");
  }
  void flat_nonzero(const Array&, const Array&) override { unsupported("nonzero"); }
  void gemm(const GemmCall&) override { unsupported("matmul"); }
  void fft(const FftCall&) override { unsupported("fft"); }
  void random(const RandomCall&) override { unsupported("random"); }
  void lu_factor(const MatrixBatch&, const Array&, const Array&) override { unsupported("lu"); }
  void solve(const MatrixBatch&, const MatrixBatch&, const Array&) override {
    unsupported("solve");
  }
  void cholesky(const MatrixBatch&, bool, const Array&) override { unsupported("cholesky"); }
  void qr(const MatrixBatch&, const Array&, const Array&) override { unsupported("qr"); }
  void qr_q(const MatrixBatch&, const Array&, int64_t, const Array&) override {
    unsupported("qr");
  }
  void svd(const MatrixBatch&, const Array&, const MatrixBatch*, const MatrixBatch*, bool,
           const Array&) override {
    unsupported("svd");
  }
  void eigh(const MatrixBatch&, const Array&, bool, bool, const Array&) override {
    unsupported("eigh");
  }
  void eig(const MatrixBatch&, const Array&, const MatrixBatch*, const Array&) override {
    unsupported("eig");
  }
  void lstsq(const MatrixBatch&, const MatrixBatch&, const Array&, const Array&, double,
             const Array&) override {
    unsupported("lstsq");
  }
  int64_t count_true(const Array&) override { unsupported("count_nonzero"); }

 private:
  CudaAllocatorStub allocator_;
};

}  // namespace

Backend& cuda_backend() {
  static CudaBackendStub backend;
  return backend;
}

}  // namespace tessera
