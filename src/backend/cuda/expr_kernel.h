#pragma once
// Elementwise trees on a CUDA device: lowered (expr/kernel_plan.h), rendered
// (render_cuda.h), compiled once per signature and layout (NVRTC on a GPU, the host
// compiler on the simulator, both through the kernel cache), and launched on the current
// stream. The host does not wait for the kernel.

#include <span>
#include <string>
#include <vector>

#include "expr/expr.h"
#include "tessera/array.h"

namespace tessera::cuda {

// Whether eval_expr on CUDA devices runs generated kernels (else the staging path): while
// the simulator cannot yet afford a kernel per tree of the whole suite (docs/cuda.md), on
// when TESSERA_CUDA_CODEGEN=1, and switched by tests.
bool generated_kernels_enabled();
void set_generated_kernels(bool enabled);

// Evaluates `root` into `outs` (see Backend::eval_expr) on CUDA device `device`.
void launch_expr(int device, const expr::Node& root, std::span<const Array> outs);

// The options generated kernels compile with: the toolkit's headers (libcu++, cuda_fp16.h)
// and no contraction of a * b + c into one rounding, which the CPU build does not do
// either, so both give the same bits for the same arithmetic.
const std::vector<std::string>& generated_kernel_options();

}  // namespace tessera::cuda
