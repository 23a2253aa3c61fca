#include "backend/matrix_batch.h"

#include <algorithm>

namespace tessera {

MatrixBatch column_major_empty(const Dims& batch, int64_t rows, int64_t cols, DType dtype,
                               Device device) {
  Dims transposed = batch;
  transposed.push_back(cols);
  transposed.push_back(rows);
  const int nd = transposed.size();
  MatrixBatch m;
  m.a = Array::empty(transposed, dtype, device).swapaxes(nd - 2, nd - 1);
  m.rows = rows;
  m.cols = cols;
  m.ld = std::max<int64_t>(rows, 1);
  m.batch = batch.product();
  m.stride = rows * cols;
  return m;
}

MatrixBatch column_major_copy(const Array& a, DType dtype) {
  const int nd = a.ndim();
  MatrixBatch m = column_major_empty(Dims(a.shape().begin(), a.shape().end() - 2),
                                     a.shape()[nd - 2], a.shape()[nd - 1], dtype, a.device());
  if (a.size() > 0) m.a.assign(a);
  return m;
}

}  // namespace tessera
