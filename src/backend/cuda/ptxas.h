#pragma once
// ptxas, the toolkit's PTX assembler, run as a separate program: it proves without a GPU that
// the PTX NVRTC produced assembles for a real architecture (DESIGN.md, "CUDA without a GPU").
// Cubins are cached through the kernel cache (kind "cubin").

#include <string>

namespace tessera::cuda {

// Whether ptxas was found: in the toolkit tessera was built against, else on PATH.
bool ptxas_available();

// The cubin (an ELF image) of `ptx` assembled for `arch` ("sm_80"), unoptimized (-O0: it
// proves the PTX assembles; nothing runs it). Throws CompileError
// carrying ptxas's log when assembly fails, std::runtime_error when ptxas is missing.
std::string ptxas_assemble(const std::string& ptx, const std::string& arch);

}  // namespace tessera::cuda
