#include "backend/cuda/nvrtc.h"

#include <dlfcn.h>

#include <cctype>
#include <optional>
#include <set>
#include <string_view>

#include "backend/cuda/vendor_library.h"
#include "jit/kernel_cache.h"
#include "jit/kernel_text.h"
#include "tessera/errors.h"

namespace tessera::cuda {
namespace {

// The slice of nvrtc.h we call. The header is not included so that building needs no toolkit;
// these signatures are NVRTC's stable C ABI (nvrtcResult is an int-sized enum).
using Program = struct NvrtcProgramImpl*;
constexpr int kSuccess = 0;
constexpr int kErrorCompilation = 6;

struct Nvrtc {
  void* handle = nullptr;
  std::string tried;  // where we looked, for the error when nothing was found
  const char* (*GetErrorString)(int) = nullptr;
  int (*Version)(int*, int*) = nullptr;
  int (*CreateProgram)(Program*, const char*, const char*, int, const char* const*,
                       const char* const*) = nullptr;
  int (*DestroyProgram)(Program*) = nullptr;
  int (*AddNameExpression)(Program, const char*) = nullptr;
  int (*CompileProgram)(Program, int, const char* const*) = nullptr;
  int (*GetPTXSize)(Program, size_t*) = nullptr;
  int (*GetPTX)(Program, char*) = nullptr;
  int (*GetProgramLogSize)(Program, size_t*) = nullptr;
  int (*GetProgramLog)(Program, char*) = nullptr;
  int (*GetLoweredName)(Program, const char*, const char**) = nullptr;
};

bool bind_all(Nvrtc& api) {
  void* h = api.handle;
  return resolve(h, "nvrtcGetErrorString", api.GetErrorString) &&
         resolve(h, "nvrtcVersion", api.Version) && resolve(h, "nvrtcCreateProgram", api.CreateProgram) &&
         resolve(h, "nvrtcDestroyProgram", api.DestroyProgram) &&
         resolve(h, "nvrtcAddNameExpression", api.AddNameExpression) &&
         resolve(h, "nvrtcCompileProgram", api.CompileProgram) &&
         resolve(h, "nvrtcGetPTXSize", api.GetPTXSize) && resolve(h, "nvrtcGetPTX", api.GetPTX) &&
         resolve(h, "nvrtcGetProgramLogSize", api.GetProgramLogSize) &&
         resolve(h, "nvrtcGetProgramLog", api.GetProgramLog) &&
         resolve(h, "nvrtcGetLoweredName", api.GetLoweredName);
}

Nvrtc load() {
  Nvrtc api;
  api.handle = open_vendor_library({"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"}, &api.tried);
  if (api.handle != nullptr && !bind_all(api)) {
    dlclose(api.handle);
    api.handle = nullptr;
  }
  return api;
}

const Nvrtc& nvrtc() {
  static const Nvrtc api = load();
  return api;
}

const Nvrtc& require_nvrtc() {
  const Nvrtc& api = nvrtc();
  if (api.handle == nullptr) {
    std::string advice =
        "Install the CUDA toolkit, or the pip wheel nvidia-cuda-nvrtc (CUDA 13) or "
        "nvidia-cuda-nvrtc-cu12, and put the directory holding libnvrtc.so on LD_LIBRARY_PATH.";
    throw std::runtime_error(
        "[RawKernel] NVRTC (libnvrtc) was not found, so CUDA kernels cannot be compiled. Tried: " +
        api.tried + ". " + advice);
  }
  return api;
}

void check(const Nvrtc& api, int status, const char* call) {
  if (status != kSuccess) {
    throw std::runtime_error(std::string("[RawKernel] ") + call +
                             " failed: " + api.GetErrorString(status));
  }
}

// Destroys the program on every path out of the compilation.
struct ProgramGuard {
  const Nvrtc& api;
  Program program = nullptr;
  ~ProgramGuard() {
    if (program != nullptr) api.DestroyProgram(&program);
  }
};

std::string program_log(const Nvrtc& api, Program program) {
  size_t size = 0;
  check(api, api.GetProgramLogSize(program, &size), "nvrtcGetProgramLogSize");
  std::string log(size, '\0');
  check(api, api.GetProgramLog(program, log.data()), "nvrtcGetProgramLog");
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

// The line number of a log line "file(LINE): error: ..." about `file`, if it is one.
std::optional<int> error_line(std::string_view line, std::string_view file) {
  if (!line.starts_with(file) || line.substr(file.size()).find('(') != 0) return std::nullopt;
  line.remove_prefix(file.size() + 1);
  size_t digits = 0;
  while (digits < line.size() && std::isdigit(static_cast<unsigned char>(line[digits]))) ++digits;
  std::string_view rest = line.substr(digits);
  if (digits == 0 || digits > 9 || !rest.starts_with("): ")) return std::nullopt;
  rest.remove_prefix(3);
  if (!rest.starts_with("error") && !rest.starts_with("catastrophic error")) return std::nullopt;
  return std::stoi(std::string(line.substr(0, digits)));
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  while (!text.empty()) {
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    if (line.ends_with('\r')) line.remove_suffix(1);
    lines.push_back(line);
    if (end == std::string_view::npos) break;
    text.remove_prefix(end + 1);
  }
  return lines;
}

// The log, then each source line an error points at: the log alone names only line numbers
// of a source the user may have built from strings.
std::string failure_report(const std::string& headline, const std::string& log,
                           const std::string& source, const std::string& file) {
  std::string report = "[RawKernel] NVRTC compilation failed:" + headline + "\n" + log;
  std::vector<std::string_view> source_lines = split_lines(source);
  std::set<int> quoted;
  for (std::string_view line : split_lines(log)) {
    std::optional<int> number = error_line(line, file);
    if (!number || *number < 1 || size_t(*number) > source_lines.size()) continue;
    if (!quoted.insert(*number).second) continue;
    if (quoted.size() == 1) report += "\n\nSource lines with errors:";
    report += "\n  " + std::to_string(*number) + " | ";
    report += source_lines[size_t(*number) - 1];
  }
  return report;
}

// "sm_80" -> "compute_80"; refuses what is not "sm_<number>[letter]".
std::string virtual_arch(const std::string& arch) {
  size_t digits = 0;
  while (3 + digits < arch.size() && std::isdigit(static_cast<unsigned char>(arch[3 + digits]))) {
    ++digits;
  }
  size_t rest = arch.size() - 3 - digits;
  bool valid = arch.starts_with("sm_") && digits > 0 &&
               (rest == 0 || (rest == 1 && std::islower(static_cast<unsigned char>(arch.back()))));
  if (!valid) {
    throw ValueError("[RawKernel] arch must look like sm_80 or sm_90a, got '" + arch + "'");
  }
  return "compute_" + arch.substr(3);
}

NvrtcResult compile(const Nvrtc& api, const std::string& source, const std::string& name,
                    const std::vector<std::string>& options,
                    const std::vector<std::string>& name_expressions,
                    const std::string& arch_option) {
  // A generated kernel (it starts with the functors' text) includes them as in-memory
  // headers instead, which NVRTC precompiles once per process (its automatic PCH: the first
  // kernel pays for the headers, every later one about a tenth of it). Its #line
  // directives, kept for error messages, would stop the PCH; NVRTC's warning about them goes.
  const std::string& functors = jit::kernel_functors_text();
  const bool generated = source.starts_with(functors);
  const std::string text =
      generated ? "#include \"" + std::string(jit::kFunctorsHeader) + "\"\n" +
                      source.substr(functors.size())
                : source;
  std::vector<const char*> header_texts, header_names;
  if (generated) {
    for (const auto& [path, content] : jit::kernel_functors_headers()) {
      header_names.push_back(path.c_str());
      header_texts.push_back(content.c_str());
    }
  }
  ProgramGuard guard{api};
  check(api, api.CreateProgram(&guard.program, text.c_str(), name.c_str(),
                               static_cast<int>(header_texts.size()), header_texts.data(),
                               header_names.data()),
        "nvrtcCreateProgram");
  for (const auto& expression : name_expressions) {
    check(api, api.AddNameExpression(guard.program, expression.c_str()), "nvrtcAddNameExpression");
  }
  std::vector<const char*> argv = {arch_option.c_str()};
  for (const auto& option : options) argv.push_back(option.c_str());
  if (generated) {
    for (const char* option : {"--pch", "--pch-messages=false", "--pch-verbose=false",
                               "--diag-suppress=20283"}) {
      argv.push_back(option);
    }
  }
  int status = api.CompileProgram(guard.program, int(argv.size()), argv.data());
  NvrtcResult result;
  result.log = program_log(api, guard.program);
  if (status != kSuccess) {
    // NVRTC names the program "default_program" in its log when it has no name.
    std::string file = name.empty() ? "default_program" : name;
    std::string headline =
        status == kErrorCompilation ? "" : std::string(" ") + api.GetErrorString(status);
    throw CompileError(failure_report(headline, result.log, text, file), result.log, source);
  }
  size_t size = 0;
  check(api, api.GetPTXSize(guard.program, &size), "nvrtcGetPTXSize");
  result.ptx.assign(size, '\0');
  check(api, api.GetPTX(guard.program, result.ptx.data()), "nvrtcGetPTX");
  while (!result.ptx.empty() && result.ptx.back() == '\0') result.ptx.pop_back();
  for (const auto& expression : name_expressions) {
    const char* lowered = nullptr;
    check(api, api.GetLoweredName(guard.program, expression.c_str(), &lowered),
          "nvrtcGetLoweredName");
    result.lowered_names.emplace_back(lowered);
  }
  return result;
}

// Length-prefixed fields ("5:hello"), to store lists in a cache key part or a cache entry.
std::string join_fields(const std::vector<std::string>& fields) {
  std::string out;
  for (const auto& field : fields)
    out.append(std::to_string(field.size())).append(":").append(field);
  return out;
}

std::vector<std::string> split_fields(std::string_view text) {
  std::vector<std::string> fields;
  while (!text.empty()) {
    size_t colon = text.find(':');
    size_t size = std::stoul(std::string(text.substr(0, colon)));
    fields.emplace_back(text.substr(colon + 1, size));
    text.remove_prefix(colon + 1 + size);
  }
  return fields;
}

}  // namespace

bool nvrtc_available() { return nvrtc().handle != nullptr; }

std::string nvrtc_version() {
  const Nvrtc& api = nvrtc();
  int major = 0, minor = 0;
  if (api.handle == nullptr || api.Version(&major, &minor) != kSuccess) return "";
  return std::to_string(major) + "." + std::to_string(minor);
}

NvrtcResult nvrtc_compile(const std::string& source, const std::string& name,
                          const std::vector<std::string>& options,
                          const std::vector<std::string>& name_expressions,
                          const std::string& arch) {
  const Nvrtc& api = require_nvrtc();
  std::string arch_option = "--gpu-architecture=" + virtual_arch(arch);
  jit::CacheKey key{"ptx",
                    {source, name, join_fields(options), join_fields(name_expressions), arch,
                     "nvrtc " + nvrtc_version()}};
  // The entry holds the PTX, the log and the lowered names, as one list of fields.
  std::string entry = jit::cached_bytes(key, [&] {
    NvrtcResult result = compile(api, source, name, options, name_expressions, arch_option);
    std::vector<std::string> fields = {result.ptx, result.log};
    fields.insert(fields.end(), result.lowered_names.begin(), result.lowered_names.end());
    return join_fields(fields);
  });
  std::vector<std::string> fields = split_fields(entry);
  return {fields[0], {fields.begin() + 2, fields.end()}, fields[1]};
}

}  // namespace tessera::cuda
