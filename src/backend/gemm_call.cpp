// plan_matmul: a row-major product as column-major BLAS calls. Row-major out = x · y is,
// read as column-major memory, out^T = y^T · x^T: so BLAS's A is y, its B is x, m and n
// swap, and each operand is transposed or not by which of its axes is unit-strided.

#include "backend/gemm_call.h"

#include <algorithm>

namespace tessera {
namespace {

// A row-major r×c matrix with element strides (sr, sc), read as BLAS's column-major
// operand that must appear as its transpose (c×r): untransposed when rows are contiguous
// runs (sc == 1, ld = sr), transposed when columns are (sr == 1, ld = sc).
struct Operand {
  bool trans;
  int64_t ld;
};

Operand as_column_major_transpose(int64_t rows, int64_t cols, int64_t sr, int64_t sc) {
  if (cols == 1) sc = 1;
  if (rows == 1) sr = std::max<int64_t>(cols, 1);
  if (sc == 1 && sr >= std::max<int64_t>(cols, 1)) return {false, sr};
  return {true, sc};  // gemm_readable: sr == 1 and sc >= rows
}

bool readable_layout(int64_t rows, int64_t cols, int64_t sr, int64_t sc) {
  if (cols == 1) sc = 1;
  if (rows == 1) sr = std::max<int64_t>(cols, 1);
  if (sc == 1 && sr >= std::max<int64_t>(cols, 1)) return true;
  if (sr == 1 && sc >= std::max<int64_t>(rows, 1)) return true;
  return rows == 1 && cols == 1;
}

int64_t elements(int64_t byte_stride, int64_t itemsize) { return byte_stride / itemsize; }

}  // namespace

bool gemm_readable(const Array& x) {
  const int nd = x.ndim();
  const int64_t item = x.itemsize();
  const int64_t sr = x.strides()[nd - 2], sc = x.strides()[nd - 1];
  if (sr % item != 0 || sc % item != 0) return false;
  return readable_layout(x.shape()[nd - 2], x.shape()[nd - 1], elements(sr, item),
                         elements(sc, item));
}

std::vector<GemmCall> plan_matmul(const Array& x, const Array& y, const Array& out) {
  const int nd = out.ndim();
  const int64_t item = out.itemsize();
  const int64_t m = out.shape()[nd - 2], n = out.shape()[nd - 1], k = x.shape()[nd - 1];
  const Operand ya = as_column_major_transpose(k, n, elements(y.strides()[nd - 2], item),
                                               elements(y.strides()[nd - 1], item));
  const Operand xb = as_column_major_transpose(m, k, elements(x.strides()[nd - 2], item),
                                               elements(x.strides()[nd - 1], item));
  GemmCall call;
  call.m = n;
  call.n = m;
  call.k = k;
  call.trans_a = ya.trans;
  call.lda = ya.ld;
  call.trans_b = xb.trans;
  call.ldb = xb.ld;
  call.ldc = std::max<int64_t>(n, 1);
  call.stride_c = m * n;

  // The leading axes, with those of length 1 dropped; the innermost run of axes that
  // merge into one uniform stride in x, y and out becomes the batch of each call.
  std::vector<int> axes;
  for (int d = 0; d < nd - 2; ++d) {
    if (out.shape()[d] != 1) axes.push_back(d);
  }
  int first_batch_axis = static_cast<int>(axes.size());
  int64_t batch = 1;
  if (!axes.empty()) {
    const int last = axes.back();
    batch = out.shape()[last];
    call.stride_a = elements(y.strides()[last], item);
    call.stride_b = elements(x.strides()[last], item);
    first_batch_axis = static_cast<int>(axes.size()) - 1;
    while (first_batch_axis > 0) {
      const int d = axes[first_batch_axis - 1];
      const int64_t extent = out.shape()[d];
      const bool merges = elements(y.strides()[d], item) == call.stride_a * batch &&
                          elements(x.strides()[d], item) == call.stride_b * batch;
      if (!merges) break;
      batch *= extent;
      --first_batch_axis;
    }
  }
  call.batch = batch;

  // One call per index of the outer (unmerged) leading axes.
  std::vector<int> outer(axes.begin(), axes.begin() + first_batch_axis);
  int64_t count = 1;
  for (int d : outer) count *= out.shape()[d];
  std::vector<GemmCall> calls;
  calls.reserve(count);
  // Each call's views span one index of the outer axes (their shape is only checked
  // against the buffer; the call's fields say what is read).
  auto one_call = [&](const Array& a) {
    Dims shape = a.shape();
    for (int d : outer) shape[d] = 1;
    return shape;
  };
  std::vector<int64_t> index(outer.size(), 0);
  for (int64_t c = 0; c < count; ++c) {
    int64_t off_x = 0, off_y = 0, off_out = 0;
    for (size_t i = 0; i < outer.size(); ++i) {
      off_x += index[i] * x.strides()[outer[i]];
      off_y += index[i] * y.strides()[outer[i]];
      off_out += index[i] * out.strides()[outer[i]];
    }
    GemmCall each = call;
    each.a = y.as_strided(one_call(y), y.strides(), y.offset() + off_y);
    each.b = x.as_strided(one_call(x), x.strides(), x.offset() + off_x);
    each.c = out.as_strided(one_call(out), out.strides(), out.offset() + off_out);
    calls.push_back(std::move(each));
    for (int i = static_cast<int>(outer.size()) - 1; i >= 0; --i) {
      if (++index[i] < out.shape()[outer[i]]) break;
      index[i] = 0;
    }
  }
  return calls;
}

}  // namespace tessera
