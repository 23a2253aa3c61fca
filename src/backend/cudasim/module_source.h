#pragma once
// The C++ translation unit the host compiler builds for a simulated CUDA module: the prelude
// (the device runtime, src/backend/cudasim/prelude/, embedded as text at build time), the
// user's CUDA source lightly rewritten, and a footer exporting the kernels (sim_abi.h).
//
// The rewrite, on the user's source only (comments, strings and macros are left alone):
// - `extern __shared__ T name[];` becomes a pointer to the block's dynamic shared memory: a
//   local `T* const name` in a function, a per-OS-thread pointer at namespace scope that
//   each thread's entry points at its block's memory;
// - `__noinline__` becomes __attribute__((noinline)) (it cannot be a macro: libstdc++ spells
//   __attribute__((__noinline__)));
// - includes of CUDA's own headers (cuda_runtime.h, device_launch_parameters.h,
//   math_constants.h, <cassert> ..., see kProvidedHeaders) are dropped: the prelude provides
//   them; <cuda_fp16.h> is replaced by the prelude's fp16.h; `#pragma unroll` is dropped.
// Line numbers are kept, and the source is compiled as "kernel.cu", so the compiler's
// messages point at the user's lines.

#include <cstddef>
#include <string>
#include <vector>

#include "jit/embedded_file.h"

namespace tessera::cudasim {

// `cuda_source` as C++ for the host compiler, exporting `kernel_names` (names or name
// expressions, "saxpy", "reduce<float, 256>") as tsim_kernel_0, 1, ... in that order;
// `defines` (#define lines) come just before the source.
std::string sim_translation_unit(const std::string& cuda_source,
                                 const std::vector<std::string>& kernel_names,
                                 const std::string& defines = "");

// `cuda_source` compiled with NVRTC's `options` (their -D definitions apply) as the
// translation unit that exports every __global__ function that is not a template, by its
// name, and each of `name_expressions`.
std::string module_translation_unit(const std::string& cuda_source,
                                    const std::vector<std::string>& options,
                                    const std::vector<std::string>& name_expressions);

// The text every module starts with (all prelude headers but fp16.h, in order).
const std::string& prelude_text();
// The text every module of tessera's generated kernels starts with: the prelude, then the
// functors of src/kernels/ (jit/kernel_text.h).
const std::string& functors_prefix();

// The prelude's headers as text, in the order a module needs them; generated at build time
// by cmake/cudasim_prelude.cmake.
using jit::EmbeddedFile;
extern const EmbeddedFile kPreludeFiles[];
extern const size_t kPreludeFilesCount;

}  // namespace tessera::cudasim
