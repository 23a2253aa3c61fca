#pragma once
// Elementwise trees on a CUDA device: lowered (expr/kernel_plan.h), rendered
// (render_cuda.h), compiled once per signature and layout (NVRTC on a GPU, the host
// compiler on the simulator, both through the kernel cache), and launched on the current
// stream. The host does not wait for the kernel.

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "expr/expr.h"
#include "tessera/array.h"

namespace tessera::cuda {

// Evaluates `root` into `outs` (see Backend::eval_expr) on CUDA device `device`.
void launch_expr(int device, const expr::Node& root, std::span<const Array> outs);

// One loop of one ufunc over n contiguous elements (see Backend::run_loop): device
// pointers, and host pointers to single values for the broadcast inputs, which become the
// kernel's constants.
void launch_loop(int device, Ufunc op, int loop, std::span<const void* const> in,
                 std::span<const bool> broadcast, void* out, int64_t n);

// The kernel `name` of the generated program known as `key`, loaded on `device`. The
// program is rendered (`render`) and compiled the first time its key is asked for, through
// the kernel cache, and kept for the process. A program that fails to compile or load is
// tessera's bug: the error names the file in the cache directory that keeps its source.
uintptr_t generated_function(const std::string& key, const std::function<std::string()>& render,
                             const char* name, int device);

// The device's multiprocessors, asked once: launch shapes fill them.
int multiprocessors(int device);

// Launches `function`, a kernel of 256-thread blocks whose grid-stride loop covers `total`
// independent elements, with `words` its one parameter, on `device`'s current stream: a
// block per 256 elements, at most 32 per multiprocessor (the loop covers the rest, so huge
// arrays do not launch millions of blocks). Nothing when `total` is 0.
void launch_grid_stride(uintptr_t function, int device, int64_t total, void* words,
                        const char* api);

// The toolkit's headers for NVRTC (-I its include folder and CCCL's), which CuPy gives every
// RawKernel too: <cuda_fp16.h>, <cooperative_groups.h>, <cuda/std/...>.
const std::vector<std::string>& toolkit_include_options();

// The options generated kernels compile with: the toolkit's headers (libcu++, cuda_fp16.h)
// and no contraction of a * b + c into one rounding, which the CPU build does not do
// either, so both give the same bits for the same arithmetic.
const std::vector<std::string>& generated_kernel_options();

}  // namespace tessera::cuda
