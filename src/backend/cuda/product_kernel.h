#pragma once
// Matrix products on a CUDA device (Backend::gemm): float and complex ones through cuBLAS
// (cublas.h), integer and bool ones through device/product.cuh's kernel, rendered per dtype;
// on the current stream.

#include <string>

#include "backend/gemm_call.h"

namespace tessera::cuda {

void launch_gemm(int device, const GemmCall& call);

// The integer product's program for `dtype` (for the NVRTC check).
std::string render_integer_product(DType dtype);

}  // namespace tessera::cuda
