#pragma once
// The CPU backend's kernels, one file per family.

#include "backend/backend.h"

namespace tessera::cpu {

void strided_copy(const Array& src, const Array& dst);
void arange_fill(const Array& dst, const Scalar& first, const Scalar& second);
void linspace_fill(const Array& dst, const LinspaceSpec& spec);
void eval_expr(const expr::Node& root, std::span<const Array> outs);
void reduce(const expr::Node& root, Ufunc op, int loop, bool ordered, const Array& acc);
void arg_reduce(const expr::Node& root, bool max, const Array& index);
void scan(const expr::Node& root, Ufunc op, int loop, int axis, const Array& out);
void sort(const Array& a, bool stable);
void argsort(const Array& a, const Array& index);
void searchsorted(const Array& sorted, const Array& values, bool right, const Array& out);
void gather(const Array& src, int npre, const Array& offsets, const Array& out);
std::optional<int64_t> gather_index(const Array& src, int npre, const Array& index,
                                    int64_t extent, int64_t stride, const Array& out);
void scatter(const Array& dst, int npre, const Array& offsets, const Array& values);
void compress(const Array& src, const Array& mask, const Array& out);
void scatter_apply(const Array& dst, int npre, const Array& offsets, const Array& values,
                   Ufunc op, int loop);
void flat_nonzero(const Array& mask, const Array& out);
int64_t count_true(const Array& mask);
void gemm(const GemmCall& call);
void fft(const FftCall& call);
void random(const RandomCall& call);
void lu_factor(const MatrixBatch& a, const Array& pivots, const Array& info);
void solve(const MatrixBatch& a, const MatrixBatch& b, const Array& info);
// One system a x = b in host memory, in LAPACK's layout (column-major, leading dimension n;
// a float or complex dtype), solved in place: x overwrites b, a's LU factors overwrite a.
// Returns LAPACK's info (> 0: a is singular). For callers holding raw memory whose
// matrices are too small for the batched path's set-up to pay, the jit's linalg service.
int64_t solve_column_major(DType dtype, int64_t n, int64_t nrhs, void* a, void* b);
// Likewise the LU factors of one n x n matrix (LAPACK's getrf), in place, with its 1-based
// pivots; info > 0 where U has a zero on its diagonal (a singular matrix).
int64_t lu_factor_column_major(DType dtype, int64_t n, void* a, int64_t* pivots);
void cholesky(const MatrixBatch& a, bool upper, const Array& info);
void qr(const MatrixBatch& a, const Array& tau, const Array& info);
void qr_q(const MatrixBatch& q, const Array& tau, int64_t reflectors, const Array& info);
void svd(const MatrixBatch& a, const Array& s, const MatrixBatch* u, const MatrixBatch* vt,
         bool full, const Array& info);
void eigh(const MatrixBatch& a, const Array& w, bool vectors, bool upper, const Array& info);
void eig(const MatrixBatch& a, const Array& w, const MatrixBatch* v, const Array& info);
void lstsq(const MatrixBatch& a, const MatrixBatch& b, const Array& s, const Array& rank,
           double rcond, const Array& info);
void run_loop_rows(Ufunc op, int loop, std::span<const void* const> in,
                   std::span<const bool> broadcast, std::span<const int64_t> row_strides,
                   int64_t rows, int64_t cols, void* out);

// Converts n elements from `src` (stride in bytes) to `dst`: the cast loops of copy().
using CastRow = void (*)(const std::byte* src, int64_t src_stride, std::byte* dst,
                         int64_t dst_stride, int64_t n);
CastRow cast_row_for(DType from, DType to);

}  // namespace tessera::cpu
