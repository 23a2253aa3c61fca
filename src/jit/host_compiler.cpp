#include "jit/host_compiler.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <string_view>

#include "core/environment.h"
#include "jit/kernel_cache.h"

extern char** environ;

namespace tessera::jit {
namespace {

struct Compiler {
  std::string path;
  std::string identity;
  bool gcc;
};

struct Finished {
  int status;  // the exit status, or -1 when it did not exit normally
  std::string output;
};

// Runs argv[0] (a path) with argv, no shell involved; its stdout and stderr together are the
// output, its stdin is empty.
Finished run(const std::vector<std::string>& argv) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
    throw CompileError(std::string("[host compiler] pipe: ") + std::strerror(errno));
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid;
  int spawned;
  {
    const std::lock_guard lock(environment_mutex());  // environ is read until the exec
    spawned = posix_spawn(&pid, argv[0].c_str(), &actions, nullptr, args.data(), environ);
  }
  posix_spawn_file_actions_destroy(&actions);
  close(pipe_fds[1]);
  if (spawned != 0) {
    close(pipe_fds[0]);
    throw CompileError("[host compiler] cannot run " + argv[0] + ": " + std::strerror(spawned));
  }
  Finished finished{-1, {}};
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(pipe_fds[0], buffer, sizeof buffer);
    if (n > 0) {
      finished.output.append(buffer, static_cast<size_t>(n));
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  close(pipe_fds[0]);
  int status = 0;
  pid_t waited;
  while ((waited = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
  }
  if (waited == pid && WIFEXITED(status)) finished.status = WEXITSTATUS(status);
  return finished;
}

bool executable(const std::string& path) {
  struct stat info;
  return stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && access(path.c_str(), X_OK) == 0;
}

// $TESSERA_CXX, else `c++`, found on PATH unless it names a path.
std::string compiler_path() {
  const char* chosen = std::getenv("TESSERA_CXX");
  const std::string name = chosen && *chosen ? chosen : "c++";
  const std::string origin = chosen && *chosen ? "$TESSERA_CXX (" + name + ")" : "c++";
  if (name.find('/') != std::string::npos) {
    if (executable(name)) return name;
    throw CompileError("[host compiler] " + origin + " is not an executable file");
  }
  const char* path = std::getenv("PATH");
  std::string_view dirs = path ? path : "/usr/bin:/bin";
  while (!dirs.empty()) {
    const size_t colon = std::min(dirs.find(':'), dirs.size());
    const std::string dir(dirs.substr(0, colon));
    const std::string candidate = (dir.empty() ? "." : dir) + "/" + name;
    if (executable(candidate)) return candidate;
    dirs.remove_prefix(std::min(colon + 1, dirs.size()));
  }
  throw CompileError("[host compiler] no C++ compiler: " + origin +
                     " is not on PATH; install g++ or set TESSERA_CXX");
}

// The compiler in use, looked up again whenever $TESSERA_CXX or PATH changes.
const Compiler& host_compiler() {
  static std::mutex mutex;
  static std::map<std::string, Compiler> known;
  const std::string path = compiler_path();
  std::lock_guard lock(mutex);
  auto it = known.find(path);
  if (it == known.end()) {
    const Finished version = run({path, "--version"});
    if (version.status != 0) {
      throw CompileError("[host compiler] " + path + " --version failed:\n" + version.output);
    }
    const std::string first_line = version.output.substr(0, version.output.find('\n'));
    // GCC alone marks template statics and inline variables as unique symbols, which
    // would tie the kernel modules loaded in one process together.
    const bool gcc = version.output.find("Free Software Foundation") != std::string::npos &&
                     version.output.find("clang") == std::string::npos;
    it = known.emplace(path, Compiler{path, path + ": " + first_line, gcc}).first;
  }
  return it->second;
}

// A temporary file holding `text`, removed when this goes.
class TempSource {
 public:
  explicit TempSource(const std::string& text) {
    std::string name = (std::filesystem::temp_directory_path() / "tessera-XXXXXX.cpp").string();
    const int fd = mkstemps(name.data(), 4);
    if (fd < 0) {
      throw CompileError("[host compiler] temporary file: " + std::string(std::strerror(errno)));
    }
    path_ = name;
    size_t written = 0;
    while (written < text.size()) {
      const ssize_t n = write(fd, text.data() + written, text.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        close(fd);
        throw CompileError("[host compiler] writing " + path_ + ": " + std::strerror(errno));
      }
      written += static_cast<size_t>(n);
    }
    close(fd);
  }
  TempSource(const TempSource&) = delete;
  TempSource& operator=(const TempSource&) = delete;
  ~TempSource() { unlink(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// The header holding `text`, precompiled with `flags` beside it (GCC reads <header>.gch in
// place of a header compiled with the same flags, and the header itself otherwise).
std::filesystem::path precompiled_header(const Compiler& compiler, std::string_view text,
                                         const std::vector<std::string>& flags) {
  std::string joined;
  for (const std::string& f : flags) joined += f + " ";
  const CacheKey key{"pch", {std::string(text), compiler.identity, joined}};
  const std::filesystem::path gch = cached_file(key, ".h.gch", [&](const std::filesystem::path& out) {
    const TempSource header{std::string(text)};
    std::vector<std::string> argv = {compiler.path};
    argv.insert(argv.end(), flags.begin(), flags.end());
    argv.insert(argv.end(), {"-o", out.string(), "-x", "c++-header", header.path()});
    const Finished finished = run(argv);
    if (finished.status != 0) throw CompileError("[host compiler] " + finished.output);
  });
  std::filesystem::path header = gch;
  header.replace_extension();  // <digest>.h
  std::error_code ec;
  if (!std::filesystem::exists(header, ec)) {
    // Written under a temporary name and renamed, so no compiler reads half a header.
    const std::filesystem::path temp = header.string() + ".tmp" + std::to_string(getpid());
    {
      std::ofstream file(temp, std::ios::binary);
      file.write(text.data(), static_cast<std::streamsize>(text.size()));
    }
    std::filesystem::rename(temp, header, ec);
  }
  return header;
}

}  // namespace

const std::string& host_compiler_identity() { return host_compiler().identity; }

void compile_shared_object(const std::string& source, const std::vector<std::string>& options,
                           const std::filesystem::path& out, std::string_view prefix) {
  const Compiler& compiler = host_compiler();
  // Nothing interposes on a module's functions, so calls between them may be inlined.
  // -pipe: the compiler hands its assembly to the assembler through a pipe rather than a
  // temporary file, 14% of a generated kernel's compile (tests compile them by the thousand).
  std::vector<std::string> flags = {"-std=c++20", "-O2", "-fPIC", "-fno-semantic-interposition",
                                    "-pipe"};
  if (compiler.gcc) flags.push_back("-fno-gnu-unique");
  flags.insert(flags.end(), options.begin(), options.end());
  std::vector<std::string> argv = {compiler.path, "-shared"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  std::string_view body = source;
  if (compiler.gcc && !prefix.empty() && body.starts_with(prefix)) {
    argv.insert(argv.end(), {"-include", precompiled_header(compiler, prefix, flags).string()});
    body.remove_prefix(prefix.size());
  }
  const TempSource file{std::string(body)};
  argv.insert(argv.end(), {"-o", out.string(), "-x", "c++", file.path()});
  const Finished finished = run(argv);
  if (finished.status != 0) {
    throw CompileError(finished.output.empty()
                           ? "[host compiler] " + compiler.path + " failed without a message"
                           : finished.output);
  }
}

}  // namespace tessera::jit
