#include "jit/host_function.h"

#include <dlfcn.h>

#include <map>
#include <mutex>

#include "jit/host_compiler.h"
#include "jit/kernel_cache.h"

namespace tessera::jit {

const std::vector<std::string>& host_function_options() {
  // 256-bit vectors where the CPU has 512-bit ones: GCC's AVX-512 loops over neighbours
  // (a stencil's nine shifted, mostly misaligned loads) ran the smoothing loop 29% slower on
  // the development machine's AMD EPYC (3.83 against 2.97 ms for 2000², its prange version
  // 2.0 against 1.6 ms, Numba's parallel 1.6); LLVM, Numba's compiler, prefers 256 too.
  static const std::vector<std::string> options = {"-O3", "-march=native",
                                                   "-mprefer-vector-width=256",
                                                   "-ffp-contract=off", "-fno-math-errno"};
  return options;
}

void* host_function(const std::string& source, const std::string& symbol,
                    std::string_view prefix) {
  static std::mutex mutex;
  static auto* loaded = new std::map<std::string, void*>();  // path -> handle, never closed
  const CacheKey key{"host-so", {source, host_compiler_identity(), [] {
                                   std::string all;
                                   for (const std::string& o : host_function_options()) all += o + " ";
                                   return all;
                                 }()}};
  const std::filesystem::path path = cached_file(key, ".so", [&](const std::filesystem::path& out) {
    compile_shared_object(source, host_function_options(), out, prefix);
  });
  std::lock_guard lock(mutex);
  void*& handle = (*loaded)[path.string()];
  if (!handle) {
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) throw CompileError(std::string("[jit] cannot load ") + path.string() + ": " + dlerror());
  }
  void* address = dlsym(handle, symbol.c_str());
  if (!address) throw CompileError("[jit] " + path.string() + " has no symbol " + symbol);
  return address;
}

}  // namespace tessera::jit
