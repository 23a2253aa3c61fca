#pragma once
// The loop of an expression tree's Dot node (expr/expr.h): a matrix product with few terms
// per element, computed in the evaluator's blocks so that what consumes the product (the
// rest of the tree, a reduction) reads it from cache instead of from a materialized
// matrix. OpenBLAS has no such fused entry point, and for few terms its kernels are bound
// by writing the product anyway.

#include <cstddef>
#include <cstdint>

#include "tessera/dtype.h"

namespace tessera::cpu {

// out[j] = sum over t < terms of x[t] * y[t] for j < n, where element j's x[t] lies at
// x + j * x_stride + t * steps[0] (bytes) and y[t] likewise; accumulated in order of t
// with fused multiply-adds, as OpenBLAS's kernels accumulate.
using SmallDotFn = void (*)(const std::byte* x, int64_t x_stride, const std::byte* y,
                            int64_t y_stride, const int64_t* steps, int terms, std::byte* out,
                            int64_t n);

// The loop for float32 or float64.
SmallDotFn small_dot_for(DType dtype);

}  // namespace tessera::cpu
