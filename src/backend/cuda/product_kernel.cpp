#include "backend/cuda/product_kernel.h"

#include <algorithm>
#include <array>
#include <vector>

#include "backend/cuda/cublas.h"
#include "backend/cuda/expr_kernel.h"
#include "backend/cuda/render_cuda.h"
#include "backend/cuda/render_values.h"
#include "tessera/cuda.h"
#include "tessera/stream.h"

namespace tessera::cuda {
namespace {

void integer_gemm(int device, const GemmCall& call) {
  const int64_t total = call.batch * call.m * call.n;
  if (total == 0) return;
  const DType dtype = call.c.dtype();
  const uintptr_t function = generated_function(
      "product:" + std::string(dtype_name(dtype)), [&] { return render_integer_product(dtype); },
      "ts_product", device);
  std::array<uint64_t, 15> w = {
      reinterpret_cast<uint64_t>(call.a.data()), reinterpret_cast<uint64_t>(call.b.data()),
      reinterpret_cast<uint64_t>(call.c.data()), static_cast<uint64_t>(call.m),
      static_cast<uint64_t>(call.n), static_cast<uint64_t>(call.k),
      static_cast<uint64_t>(call.lda), static_cast<uint64_t>(call.ldb),
      static_cast<uint64_t>(call.ldc), static_cast<uint64_t>(call.batch),
      static_cast<uint64_t>(call.stride_a), static_cast<uint64_t>(call.stride_b),
      static_cast<uint64_t>(call.stride_c), call.trans_a ? 1u : 0u, call.trans_b ? 1u : 0u};
  launch_grid_stride(function, device, total, w.data(), "matmul");
}

}  // namespace

std::string render_integer_product(DType dtype) {
  return render_cuda_prologue() + detail::device_file("backend/cuda/device/product.cuh") +
         "#line 1 \"[tessera] integer product\"\n"
         "extern \"C\" __global__ void __launch_bounds__(256) ts_product("
         "const tessera::device::ProductParams p) {\n  tessera::device::integer_product<" +
         detail::type_of(dtype) + ">(p);\n}\n";
}

void launch_gemm(int device, const GemmCall& call) {
  if (is_floating(call.c.dtype()) || is_complex(call.c.dtype())) {
    cublas_gemm(device, call);
  } else {
    integer_gemm(device, call);
  }
}

}  // namespace tessera::cuda
