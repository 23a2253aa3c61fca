#include "backend/cuda/vendor_library.h"

#include <vector>

namespace tessera::cuda {

void* open_vendor_library(std::initializer_list<const char*> sonames, std::string* tried) {
  std::vector<std::string> candidates(sonames.begin(), sonames.end());
  const std::string toolkit = TESSERA_CUDA_TOOLKIT_LIB;
  if (!toolkit.empty()) {
    for (const char* soname : sonames) candidates.push_back(toolkit + "/" + soname);
  }
  for (const std::string& candidate : candidates) {
    if (tried) *tried += (tried->empty() ? "" : ", ") + candidate;
    if (void* library = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL)) return library;
  }
  return nullptr;
}

}  // namespace tessera::cuda
