#pragma once
// The CUDA renderers' hand-written device code (src/backend/cuda/device/) as text, for the
// kernels they generate; cmake/kernel_text.cmake embeds it, its #include lines removed.

#include <cstddef>

#include "jit/embedded_file.h"

namespace tessera::cuda {

using jit::EmbeddedFile;
extern const EmbeddedFile kDeviceFiles[];
extern const size_t kDeviceFilesCount;

}  // namespace tessera::cuda
