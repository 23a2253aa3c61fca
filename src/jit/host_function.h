#pragma once
// Functions generated as host C++ (Python functions: jit/render_python.h), compiled by the
// host compiler into shared objects kept in the kernel cache (jit/kernel_cache.h) and
// loaded for the life of the process.

#include <string>
#include <string_view>
#include <vector>

namespace tessera::jit {

// The address of `symbol` in `source` compiled with the host compiler (cached on disk by
// the source, compiler and options; `prefix`, a text the source begins with, becomes a
// precompiled header). CompileError with the compiler's log if it does not compile.
void* host_function(const std::string& source, const std::string& symbol,
                    std::string_view prefix = {});

// The options generated host code is compiled with: optimized for this machine's CPU (with
// 256-bit vectors at most), no floating-point contraction (a * b + c rounds twice, as in
// Numba and NumPy).
const std::vector<std::string>& host_function_options();

}  // namespace tessera::jit
