#pragma once
// The single-source kernels (src/kernels/) as text, for every renderer of generated
// kernels: the same functors the CPU build compiles, so no op's math is spelled twice.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jit/embedded_file.h"
#include "tessera/dtype.h"
#include "tessera/ufunc.h"

namespace tessera::jit {

// Generated at build time by cmake/kernel_text.cmake, in the order a translation unit
// needs them, their #include lines removed.
extern const EmbeddedFile kKernelFiles[];
extern const size_t kKernelFilesCount;

// The standard headers the functors use, then the functors, each file under its #line.
// One text for every compiler: under NVRTC (__CUDACC_RTC__) the headers are libcu++'s and
// `std` names cuda::std; for the host compiler (and so the simulator) they are the host's.
const std::string& kernel_functors_text();

// The same text as headers, for a compiler given in-memory headers (NVRTC): kFunctorsHeader
// (the preamble, then an #include of each file) first, then each file under its path. A
// program that includes kFunctorsHeader in place of kernel_functors_text() compiles the
// same, and NVRTC can precompile that header once for every kernel (its automatic PCH).
inline constexpr const char* kFunctorsHeader = "tessera_kernels.h";
const std::vector<std::pair<std::string, std::string>>& kernel_functors_headers();

// How generated source spells the element type of `dtype` ("float",
// "tessera::kernels::complex64").
std::string_view element_type(DType dtype);

// The functor that computes `op` ("tessera::kernels::Add").
const std::string& functor_name(Ufunc op);

}  // namespace tessera::jit
