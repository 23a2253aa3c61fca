#include "backend/cudasim/host_module.h"

#include <dlfcn.h>

#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "backend/cudasim/executor.h"
#include "backend/cudasim/module_source.h"
#include "jit/host_compiler.h"
#include "jit/kernel_cache.h"

namespace tessera::cudasim {

const HostModule& load_host_module(const std::string& source,
                                   const std::vector<std::string>& extra_options) {
  static std::mutex mutex;
  using Key = std::pair<std::string, std::vector<std::string>>;
  static auto* loaded = new std::map<Key, std::unique_ptr<HostModule>>();  // never freed
  Key id{source, extra_options};
  {
    std::lock_guard lock(mutex);
    if (auto it = loaded->find(id); it != loaded->end()) return *it->second;
  }
  // Frames larger than a page probe each page as they grow, so a thread whose stack
  // overflows faults in its guard page (reported by the fault trap) rather than writing
  // past it into whatever lies below.
  std::vector<std::string> options = {"-fstack-clash-protection"};
  options.insert(options.end(), extra_options.begin(), extra_options.end());
  std::string joined;
  for (const std::string& option : options) joined += option + " ";
  joined.pop_back();
  const jit::CacheKey key{"sim-so", {source, jit::host_compiler_identity(), joined}};
  const std::filesystem::path library_path =
      jit::cached_file(key, ".so", [&](const std::filesystem::path& out) {
        // What every module (or every generated one) starts with is compiled once.
        const std::string& prefix = source.starts_with(functors_prefix()) ? functors_prefix()
                                                                         : prelude_text();
        jit::compile_shared_object(source, options, out, prefix);
      });
  void* library = dlopen(library_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) throw std::runtime_error(dlerror());
  auto bind = reinterpret_cast<void (*)(const TsimRuntime*)>(dlsym(library, "tsim_bind"));
  auto count = static_cast<const int*>(dlsym(library, "tsim_kernel_count"));
  if (!bind || !count) {
    dlclose(library);
    throw std::runtime_error("not a simulator module");
  }
  bind(runtime_table());
  auto module = std::make_unique<HostModule>();
  module->library = library;
  for (int i = 0; i < *count; ++i) {
    const std::string symbol = "tsim_kernel_" + std::to_string(i);
    if (auto k = static_cast<const TsimKernel*>(dlsym(library, symbol.c_str()))) {
      module->kernels.emplace(k->name, k);
    }
  }
  std::lock_guard lock(mutex);
  auto [it, added] = loaded->emplace(std::move(id), std::move(module));
  return *it->second;
}

}  // namespace tessera::cudasim
