#pragma once
// CUDA's libraries (cuBLAS, cuFFT, cuSOLVER), loaded at run time as libcuda is: tessera
// links none of them, so one build runs with or without them and only what needs one
// fails, with advice, where it is missing.

#include <dlfcn.h>

#include <initializer_list>
#include <string>

namespace tessera::cuda {

// The first of `sonames` (newest major first) that loads, from the loader's search path
// (LD_LIBRARY_PATH, ldconfig) and then from the toolkit found when tessera was built; null
// when none does. `tried` (when given) receives the paths tried, for an error message.
void* open_vendor_library(std::initializer_list<const char*> sonames, std::string* tried = nullptr);

// entry = the library's `symbol`; false when it has none.
template <class Fn>
bool resolve(void* library, const char* symbol, Fn& entry) {
  entry = reinterpret_cast<Fn>(dlsym(library, symbol));
  return entry != nullptr;
}

}  // namespace tessera::cuda
