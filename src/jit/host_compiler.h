#pragma once
// The host C++ compiler, for code compiled at run time (the CUDA simulator's kernel
// modules): $TESSERA_CXX, else `c++` on PATH. Where none exists the features that need it
// raise an error that says so.

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::jit {

// A failed compilation: what() is the compiler's log.
class CompileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The compiler's path and version line (a cache key part); throws CompileError when there
// is no host compiler.
const std::string& host_compiler_identity();

// Compiles C++ `source` into the shared object `out` (-shared -fPIC, C++20, -O2 plus
// `options`); throws CompileError carrying the log. When `source` begins with `prefix` (a
// long text every module starts with, such as the simulator's prelude), GCC compiles the
// prefix once into a precompiled header kept in the kernel cache, and each module then
// parses only the rest: the headers cost most of a small module's compile.
void compile_shared_object(const std::string& source, const std::vector<std::string>& options,
                           const std::filesystem::path& out, std::string_view prefix = {});

}  // namespace tessera::jit
