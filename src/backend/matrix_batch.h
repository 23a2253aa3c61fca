#pragma once
// The descriptor of a LAPACK-style call's matrix operand: a batch of column-major matrices,
// as LAPACK, cuSOLVER and their batched forms take them. Built by the core (linalg.cpp)
// for every backend (DESIGN.md, "CUDA without a GPU", point 3).

#include <cstdint>

#include "tessera/array.h"

namespace tessera {

// `batch` matrices of rows×cols, column-major with leading dimension ld, `stride`
// elements apart; `a` views them (its data() is the first matrix's first element).
struct MatrixBatch {
  Array a;
  int64_t rows = 0, cols = 0, ld = 1;
  int64_t batch = 1, stride = 0;
};

// A new batch of a's matrices (a: (..., rows, cols)) copied and cast to `dtype`, each
// column-major and the batch packed: the layout LAPACK overwrites in place. The array
// keeps a's shape, so views of the result read as a's matrices.
MatrixBatch column_major_copy(const Array& a, DType dtype);

// An uninitialized batch of `batch` shape with rows×cols matrices.
MatrixBatch column_major_empty(const Dims& batch, int64_t rows, int64_t cols, DType dtype,
                               Device device);

}  // namespace tessera
