#pragma once
// NVRTC, CUDA's run-time compiler, loaded with dlopen on first use (DESIGN.md, "CUDA without
// a GPU"): one build runs with or without the toolkit, and only kernel compilation needs it.
// PTX is cached through the kernel cache (kind "ptx").

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace tessera::cuda {

// A kernel that did not compile (NVRTC) or assemble (ptxas). what() is the whole report: the
// compiler's log followed by the source lines its errors point at.
class CompileError : public std::runtime_error {
 public:
  CompileError(const std::string& message, std::string log, std::string source)
      : std::runtime_error(message), log_(std::move(log)), source_(std::move(source)) {}
  const std::string& log() const { return log_; }
  const std::string& source() const { return source_; }

 private:
  std::string log_;
  std::string source_;
};

struct NvrtcResult {
  std::string ptx;
  std::vector<std::string> lowered_names;  // one per name expression, in order
  std::string log;                         // warnings, when there were any
};

// Whether libnvrtc could be loaded.
bool nvrtc_available();

// "13.0": NVRTC's version, or "" when it is missing.
std::string nvrtc_version();

// Compiles CUDA C++ `source` (`name` is the file name its log uses) to PTX for the virtual
// architecture of `arch` ("sm_80" -> --gpu-architecture=compute_80, ahead of `options`).
// Returns the lowered (mangled) name of each of `name_expressions` ("scale<float>").
// Throws CompileError when the source does not compile, std::runtime_error when NVRTC is
// missing, ValueError for an `arch` that is not "sm_<number>[letter]" ("sm_90a").
NvrtcResult nvrtc_compile(const std::string& source, const std::string& name,
                          const std::vector<std::string>& options,
                          const std::vector<std::string>& name_expressions,
                          const std::string& arch);

}  // namespace tessera::cuda
