#pragma once
// The runtime of code generated from Python functions (jit/python_runtime.h) as text;
// cmake/kernel_text.cmake embeds it, its #include lines removed.

#include <cstddef>

#include "jit/embedded_file.h"

namespace tessera::jit {

extern const EmbeddedFile kPythonKernelFiles[];
extern const size_t kPythonKernelFilesCount;

// What CUDA kernels from Python functions add (jit/python_cuda_runtime.h).
extern const EmbeddedFile kPythonCudaFiles[];
extern const size_t kPythonCudaFilesCount;

}  // namespace tessera::jit
