#pragma once
// The backend contract: what a device must provide for arrays to live on it. Callers
// (src/core) have already checked shapes, dtypes and devices; backends only move bytes and
// compute. A backend that lacks an operation raises NotImplementedError naming it.

#include <cstddef>
#include <optional>
#include <span>

#include "tessera/array.h"
#include "tessera/buffer.h"
#include "tessera/scalar.h"
#include "tessera/ufunc.h"

namespace tessera {

namespace expr {
struct Node;
}
struct GemmCall;
struct MatrixBatch;
struct FftCall;
struct RandomCall;

// How linspace's values are formed: y[i] = (i / div) * delta when `divide_first` (NumPy's
// path for a step that underflows to zero), else y[i] = i * step; then y[i] += start; the
// last element is `stop` when `set_last`; values are floored when `floor`.
struct LinspaceSpec {
  Scalar start, stop, step, delta;  // all of the computation dtype
  int64_t div = 0;
  bool divide_first = false;
  bool set_last = false;
  bool floor = false;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual Allocator& allocator() = 0;

  // dst[...] = cast(src[...]); equal shapes, both on this device, no overlap.
  virtual void copy(const Array& src, const Array& dst) = 0;
  // dst (C-contiguous, on this device) = src (C-contiguous, of dst's shape and dtype) on
  // another device of this kind, device to device: after the work queued for src, and
  // before later work on src's device may reuse its memory.
  virtual void copy_from_peer(const Array& src, const Array& dst) = 0;
  // Host memory (C-contiguous, dst's dtype) to dst, and src to host memory.
  virtual void upload(const void* host, const Array& dst) = 0;
  virtual void download(const Array& src, void* host) = 0;
  // dst (1-d, contiguous) = first, first + delta, ... computed as NumPy's fill does.
  virtual void arange(const Array& dst, const Scalar& first, const Scalar& second) = 0;
  // dst (1-d, contiguous, of the spec's computation dtype) per LinspaceSpec.
  virtual void linspace(const Array& dst, const LinspaceSpec& spec) = 0;
  // Evaluates the expression `root` into `outs`, all of the tree's shape: one array, or
  // one per output when root is an op with two. Each out's dtype is its node's dtype. An
  // input may share memory with an output only as the very same view.
  virtual void eval_expr(const expr::Node& root, std::span<const Array> outs) = 0;
  // One loop of one ufunc over n contiguous elements: in[k] points at n values of the
  // loop's k-th input dtype in device memory, or, when broadcast[k], at one value in host
  // memory (a scalar operand). The small-array path, where building a tree would cost more
  // than the work.
  virtual void run_loop(Ufunc op, int loop, std::span<const void* const> in,
                        std::span<const bool> broadcast, void* out, int64_t n) = 0;
  // run_loop over `shape` as rows of its last axis, each row contiguous (slices of a small
  // grid: a stencil's terms): row r of input k starts r * row_strides[k] bytes after in[k].
  // Returns a new C-contiguous array, or nothing where the backend has no such loop: the
  // caller evaluates the op in general then.
  virtual std::optional<Array> run_loop_rows(Ufunc, int, std::span<const void* const>,
                                             std::span<const bool>, std::span<const int64_t>,
                                             const Dims&) {
    return std::nullopt;
  }
  // Folds the tree's values into the accumulators: acc = op(acc, v, v', ...) over the
  // reduced axes, with op's loop `loop` (inputs and output all of acc's dtype, the tree's
  // dtype). `acc` is viewed at the tree's shape with stride 0 along the reduced axes, and
  // only there; it holds each fold's starting value. An `ordered` op is combined strictly
  // in index order along its single reduced axis; others in any order and grouping.
  virtual void reduce(const expr::Node& root, Ufunc op, int loop, bool ordered,
                      const Array& acc) = 0;
  // The index along the reduced axis of each fold's largest (`max`) or smallest value:
  // `index` (int64) is viewed at the tree's shape with stride 0 along that one axis. The
  // first occurrence wins; NaN beats every number; complex values compare lexicographically.
  virtual void arg_reduce(const expr::Node& root, bool max, const Array& index) = 0;
  // The inclusive scan out[i] = op(out[i-1], v[i]) along `axis` (of length >= 2) of the
  // tree's values, strictly in order, into `out` (the tree's shape and dtype).
  virtual void scan(const expr::Node& root, Ufunc op, int loop, int axis, const Array& out) = 0;
  // Sorts `a` in place along its last axis, in NumPy's order (NaN last; complex
  // lexicographic); `stable` keeps equal elements in their order.
  virtual void sort(const Array& a, bool stable) = 0;
  // index (int64, a's shape) = along a's last axis, the stable permutation that sorts it.
  virtual void argsort(const Array& a, const Array& index) = 0;
  // out[i] (int64) = where values[i] goes in `sorted` (1-d, ascending in NumPy's order) to
  // keep it sorted: before equal elements, or after them when `right`. All contiguous, and
  // values of sorted's dtype.
  virtual void searchsorted(const Array& sorted, const Array& values, bool right,
                            const Array& out) = 0;
  // Advanced indexing. `src` views the leading `npre` dims, then the trailing ones;
  // offsets (int64, 1-d, contiguous) are byte displacements, checked by the caller.
  // out (C-contiguous, of shape pre + (offsets.size(),) + post): out[p, b, q] = the
  // element of src at [p, q] displaced by offsets[b].
  virtual void gather(const Array& src, int npre, const Array& offsets, const Array& out) = 0;
  // gather for one index array (int64, 1-d, contiguous) along the dimension it replaces,
  // of length `extent` and byte stride `stride`: negative indices count from the end, and
  // the indices are checked here, in the same pass. Returns the first out-of-bounds
  // index (out is then unspecified), or nothing.
  virtual std::optional<int64_t> gather_index(const Array& src, int npre, const Array& index,
                                              int64_t extent, int64_t stride,
                                              const Array& out) = 0;
  // The inverse, into `dst`, from `values` (C-contiguous, dst's dtype, out's shape above);
  // in order of b, so of duplicate offsets the last value stays.
  virtual void scatter(const Array& dst, int npre, const Array& offsets,
                       const Array& values) = 0;
  // out (1-d) = the elements of src where mask is true, in C order; src and mask are
  // C-contiguous and of one shape, and out has the count of true elements.
  virtual void compress(const Array& src, const Array& mask, const Array& out) = 0;
  // ufunc.at: like scatter, but each addressed element x of dst becomes op(x, value) (op's
  // loop `loop`, values of its second input dtype) or op(x) for a unary op (values
  // invalid); strictly in order, so repeated offsets apply again and again.
  virtual void scatter_apply(const Array& dst, int npre, const Array& offsets,
                             const Array& values, Ufunc op, int loop) = 0;
  // The number of true elements of mask (bool, C-contiguous).
  virtual int64_t count_true(const Array& mask) = 0;
  // out (int64, 1-d, the count of true elements) = the flat positions where mask
  // (bool, C-contiguous) is true.
  virtual void flat_nonzero(const Array& mask, const Array& out) = 0;
  // The batched matrix product the descriptor describes (gemm_call.h), of c's dtype:
  // float and complex through the device's BLAS; integer and bool ones wrap as NumPy's.
  virtual void gemm(const GemmCall& call) = 0;

  // LAPACK-level factorizations, each over a batch of column-major matrices
  // (matrix_batch.h) that it overwrites, as LAPACK does. `info` (int64, one per matrix)
  // receives LAPACK's info: > 0 where the matrix is singular, not positive definite, or
  // the iteration did not converge. Per-matrix outputs (pivots, tau, s, w, rank) are
  // C-contiguous, one row per matrix. Floating and complex dtypes only.
  virtual void lu_factor(const MatrixBatch& a, const Array& pivots, const Array& info) = 0;
  // b = a^-1 b (a is overwritten by its LU factors).
  virtual void solve(const MatrixBatch& a, const MatrixBatch& b, const Array& info) = 0;
  // The Cholesky factor in a's lower (or upper) triangle; the other is left as it was.
  virtual void cholesky(const MatrixBatch& a, bool upper, const Array& info) = 0;
  // Householder QR: R in a's upper triangle, the reflectors below it and in tau.
  virtual void qr(const MatrixBatch& a, const Array& tau, const Array& info) = 0;
  // Q from the first `reflectors` reflectors in q's columns (as qr left them) and tau.
  virtual void qr_q(const MatrixBatch& q, const Array& tau, int64_t reflectors,
                    const Array& info) = 0;
  // Singular values (descending) into s; u and vt (each null for none) receive the
  // singular vectors: min(m, n) of them, or all when `full`.
  virtual void svd(const MatrixBatch& a, const Array& s, const MatrixBatch* u,
                   const MatrixBatch* vt, bool full, const Array& info) = 0;
  // Eigenvalues (ascending, real) of a Hermitian matrix read from its lower (or upper)
  // triangle into w; the eigenvectors over a when `vectors`.
  virtual void eigh(const MatrixBatch& a, const Array& w, bool vectors, bool upper,
                    const Array& info) = 0;
  // Eigenvalues (complex) into w and, when v is given, right eigenvectors (complex,
  // unit norm) into v.
  virtual void eig(const MatrixBatch& a, const Array& w, const MatrixBatch* v,
                   const Array& info) = 0;
  // The minimum-norm least-squares solution into b's first a.cols rows; singular values
  // (of a's real dtype) into s, effective rank (int64) into rank.
  virtual void lstsq(const MatrixBatch& a, const MatrixBatch& b, const Array& s,
                     const Array& rank, double rcond, const Array& info) = 0;

  // The unnormalized FFT the descriptor describes (fft_call.h): complex64/float32 or
  // complex128/float64; a complex-to-real call may overwrite its input.
  virtual void fft(const FftCall& call) = 0;

  // Fills call.out from the generator stream the descriptor selects (random_call.h).
  virtual void random(const RandomCall& call) = 0;
};

Backend& backend_for(Device device);
Backend& cpu_backend();
// The backend of CUDA device `device`; CudaRuntimeError when there is no such device.
Backend& cuda_backend(int device);

}  // namespace tessera
