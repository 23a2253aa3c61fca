#pragma once
// The check DESIGN.md asks of every generated CUDA kernel, shared by the C++ suites: the
// source compiles with NVRTC (for compute_80, with the options generated kernels use) and its
// PTX assembles with ptxas for sm_80 and sm_90.

#include <gtest/gtest.h>

#include <string>

#include "backend/cuda/expr_kernel.h"
#include "backend/cuda/nvrtc.h"
#include "backend/cuda/ptxas.h"

namespace tessera {

inline void expect_compiles(const std::string& source, const std::string& name) {
  SCOPED_TRACE(name);
  cuda::NvrtcResult result;
  try {
    result = cuda::nvrtc_compile(source, name + ".cu", cuda::generated_kernel_options(), {},
                                 "sm_80");
  } catch (const cuda::CompileError& e) {
    ADD_FAILURE() << e.what();
    return;
  }
  for (const char* arch : {"sm_80", "sm_90"}) {
    EXPECT_NO_THROW(cuda::ptxas_assemble(result.ptx, arch)) << arch;
  }
}

}  // namespace tessera
