#include "backend/cuda/ptxas.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "backend/cuda/nvrtc.h"
#include "jit/kernel_cache.h"

extern char** environ;

namespace tessera::cuda {
namespace fs = std::filesystem;
namespace {

bool executable(const fs::path& path) {
  std::error_code unreadable;  // a PATH entry we may not search is simply skipped
  return fs::is_regular_file(path, unreadable) && access(path.c_str(), X_OK) == 0;
}

std::string find_ptxas() {
  fs::path toolkit = TESSERA_CUDA_TOOLKIT_BIN;
  if (!toolkit.empty() && executable(toolkit / "ptxas")) return (toolkit / "ptxas").string();
  const char* path = std::getenv("PATH");
  std::string_view dirs = path != nullptr ? path : "";
  while (!dirs.empty()) {
    size_t colon = dirs.find(':');
    std::string_view dir = dirs.substr(0, colon);
    fs::path candidate = fs::path(dir.empty() ? "." : dir) / "ptxas";
    if (executable(candidate)) return fs::absolute(candidate).string();
    dirs.remove_prefix(colon == std::string_view::npos ? dirs.size() : colon + 1);
  }
  return "";
}

const std::string& ptxas_path() {
  static const std::string path = find_ptxas();
  return path;
}

// A private scratch directory, removed with everything in it.
struct TempDir {
  fs::path path;
  TempDir() {
    std::string name = (fs::temp_directory_path() / "tessera-ptxas-XXXXXX").string();
    if (mkdtemp(name.data()) == nullptr) {
      throw std::runtime_error("[RawKernel] cannot create a temporary directory for ptxas: " +
                               std::string(std::strerror(errno)));
    }
    path = name;
  }
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

struct Run {
  bool succeeded;
  std::string output;  // stdout and stderr, interleaved as written
};

// Runs ptxas with `args`, its output going to a file so that no pipe can fill and block it.
Run run_ptxas(const std::vector<std::string>& args, const fs::path& scratch) {
  fs::path log = scratch / "ptxas.log";
  std::vector<char*> argv;
  std::string program = ptxas_path();
  argv.push_back(program.data());
  std::vector<std::string> copies = args;
  for (auto& arg : copies) argv.push_back(arg.data());
  argv.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  pid_t pid = 0;
  int error = posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) {
    throw std::runtime_error("[RawKernel] cannot run " + program + ": " + std::strerror(error));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      throw std::runtime_error("[RawKernel] lost track of " + program + ": " +
                               std::strerror(errno));
    }
  }
  return {WIFEXITED(status) && WEXITSTATUS(status) == 0, read_file(log)};
}

// The path and version banner: a different ptxas may assemble differently, so it keys the cache.
const std::string& ptxas_identity() {
  static const std::string identity = [] {
    TempDir scratch;
    return ptxas_path() + "\n" + run_ptxas({"--version"}, scratch.path).output;
  }();
  return identity;
}

std::string assemble(const std::string& ptx, const std::string& arch) {
  TempDir scratch;
  fs::path input = scratch.path / "kernel.ptx";
  fs::path output = scratch.path / "kernel.cubin";
  std::ofstream(input, std::ios::binary) << ptx;
  // -O0: the check needs ptxas to parse the PTX, select the architecture's instructions and
  // allocate registers, not to optimize the code; its optimizer took 40% of the time
  // (35.5 against 21.6 s for the 730 conversion kernels of the C++ suite) and nothing it
  // makes is run (the driver compiles what a GPU runs from the PTX).
  Run run = run_ptxas({"-arch=" + arch, "-O0", "-o", output.string(), input.string()},
                      scratch.path);
  if (!run.succeeded) {
    throw CompileError("[RawKernel] ptxas failed for " + arch + ":\n" + run.output, run.output,
                       ptx);
  }
  return read_file(output);
}

}  // namespace

bool ptxas_available() { return !ptxas_path().empty(); }

std::string ptxas_assemble(const std::string& ptx, const std::string& arch) {
  if (!ptxas_available()) {
    throw std::runtime_error(
        "[RawKernel] ptxas was not found in the CUDA toolkit nor on PATH; install the CUDA "
        "toolkit and put its bin directory on PATH.");
  }
  jit::CacheKey key{"cubin", {ptx, arch, ptxas_identity(), "-O0"}};
  return jit::cached_bytes(key, [&] { return assemble(ptx, arch); });
}

}  // namespace tessera::cuda
