// Loads scipy-openblas64 with dlopen, after choosing its core type from the CPU's features.

#include "backend/cpu/openblas.h"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "core/environment.h"

namespace tessera::cpu {
namespace {

constexpr const char* kSoname = "libscipy_openblas64_.so";

// OpenBLAS's kernel set for this CPU. DYNAMIC_ARCH builds detect the core from its
// model number, and a model newer than the build (or a hypervisor's masked CPUID) lands
// on a generic SSE kernel that is ~10x slower; choosing by ISA features is never wrong:
// every AVX-512 core runs the SkylakeX kernels and every AVX2+FMA core the Haswell ones
// (OpenBLAS's Zen and newer Intel targets reuse them for float and double GEMM).
const char* core_type_for_this_cpu() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq")) {
    return "SkylakeX";
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return "Haswell";
  return nullptr;  // older cores: OpenBLAS's own detection knows them
}

std::vector<std::string> candidate_paths() {
  std::vector<std::string> paths;
  if (const char* env = std::getenv("TESSERA_OPENBLAS_LIBRARY"); env && *env) {
    paths.emplace_back(env);
  }
  paths.emplace_back(TESSERA_OPENBLAS_LIBRARY);  // where the build found it
  paths.emplace_back(kSoname);                    // the loader's search path
  return paths;
}

// How long OpenBLAS's threads spin after a call before they sleep, as log2 of cycles:
// 2^20 is ~0.3 ms, long enough for back-to-back products to find them awake. OpenBLAS's
// own default, 2^28 (~0.1 s), leaves a thread spinning on a core that tessera's pool
// needs for whatever follows the product: an elementwise op run right after a matmul
// took 1.5x its time on 2 cores.
constexpr const char* kThreadTimeout = "20";

// Sets an environment variable for the moment OpenBLAS loads (it reads its settings
// then, once) unless the user set it, so child processes and other libraries see the
// user's environment.
class LoadTimeSetting {
 public:
  LoadTimeSetting(const char* name, const char* value)
      : name_(name), set_(value && !std::getenv(name)) {
    if (set_) setenv(name_, value, 0);
  }
  ~LoadTimeSetting() {
    if (set_) unsetenv(name_);
  }
  LoadTimeSetting(const LoadTimeSetting&) = delete;
  LoadTimeSetting& operator=(const LoadTimeSetting&) = delete;

 private:
  const char* name_;
  bool set_;
};

void* open_with_settings(const std::string& path) {
  const std::lock_guard lock(environment_mutex());
  const LoadTimeSetting core("OPENBLAS_CORETYPE", core_type_for_this_cpu());
  const LoadTimeSetting timeout("OPENBLAS_THREAD_TIMEOUT", kThreadTimeout);
  return dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
}

template <typename Fn>
void bind(void* handle, const char* name, Fn& fn) {
  const std::string symbol = std::string("scipy_") + name + "64_";
  void* p = dlsym(handle, symbol.c_str());
  if (!p) throw std::runtime_error("[openblas] the loaded OpenBLAS lacks " + symbol);
  fn = reinterpret_cast<Fn>(p);
}

OpenBlas load() {
  std::string tried;
  void* handle = nullptr;
  for (const std::string& path : candidate_paths()) {
    handle = open_with_settings(path);
    if (handle) break;
    tried += "\n  " + path + ": " + dlerror();
  }
  if (!handle) {
    throw std::runtime_error("[openblas] cannot load OpenBLAS (pip install scipy-openblas64, "
                             "or set TESSERA_OPENBLAS_LIBRARY); tried:" + tried);
  }
  OpenBlas t{};
  t.handle = handle;
  bind(handle, "cblas_sgemm", t.sgemm);
  bind(handle, "cblas_dgemm", t.dgemm);
  bind(handle, "cblas_cgemm", t.cgemm);
  bind(handle, "cblas_zgemm", t.zgemm);
  bind(handle, "cblas_sgemm_batch_strided", t.sgemm_batch);
  bind(handle, "cblas_dgemm_batch_strided", t.dgemm_batch);
  bind(handle, "openblas_get_corename", t.corename);
  bind(handle, "openblas_get_config", t.config);
  return t;
}

}  // namespace

const OpenBlas& openblas() {
  static const OpenBlas table = load();
  return table;
}

void* openblas_symbol(const char* name) {
  void* p = nullptr;
  bind(openblas().handle, name, p);
  return p;
}

std::string openblas_description() {
  const OpenBlas& t = openblas();
  return std::string(t.config()) + " core=" + t.corename();
}

}  // namespace tessera::cpu
