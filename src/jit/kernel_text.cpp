#include "jit/kernel_text.h"

#include <array>

namespace tessera::jit {
namespace {

// libcu++ provides under cuda::std what the host's standard library provides under std;
// the using-directive lets the functors' std:: names find it (NVRTC has no std of its own).
// What libcu++ lacks, CUDA's math library has in the global namespace.
// The simulator's compiles leave out <complex>: their complex type is lite::complex
// (kernels/complex_type.h says why).
constexpr std::string_view kPreamble = R"(#if defined(__CUDACC_RTC__)
#include <cuda/std/bit>
#include <cuda/std/cmath>
#include <cuda/std/complex>
#include <cuda/std/cstdint>
#include <cuda/std/limits>
#include <cuda/std/type_traits>
#include <cuda/std/utility>
#include <cuda_fp16.h>
namespace std {
using namespace ::cuda::std;
using ::fma;
using ::fmod;
using ::modf;
}
#else
#include <bit>
#include <cmath>
#if !defined(TESSERA_CUDA_SIM)
#include <complex>
#endif
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#endif
)";

}  // namespace

const std::string& kernel_functors_text() {
  static const std::string text = [] {
    std::string all(kPreamble);
    for (size_t i = 0; i < kKernelFilesCount; ++i) {
      all += "#line 1 \"" + std::string(kKernelFiles[i].path) + "\"\n";
      all += kKernelFiles[i].text;
      all += "\n";
    }
    return all;
  }();
  return text;
}

const std::vector<std::pair<std::string, std::string>>& kernel_functors_headers() {
  static const auto headers = [] {
    std::string main(kPreamble);
    std::vector<std::pair<std::string, std::string>> files;
    for (size_t i = 0; i < kKernelFilesCount; ++i) {
      main += "#include \"" + std::string(kKernelFiles[i].path) + "\"\n";
      files.emplace_back(kKernelFiles[i].path, kKernelFiles[i].text);
    }
    files.emplace(files.begin(), kFunctorsHeader, std::move(main));
    return files;
  }();
  return headers;
}

std::string_view element_type(DType dtype) {
  static constexpr std::array<std::string_view, kNumDTypes> kNames = {
      "bool",     "int8_t",   "int16_t",  "int32_t",
      "int64_t",  "uint8_t",  "uint16_t", "uint32_t",
      "uint64_t", "tessera::kernels::half", "float", "double",
      "tessera::kernels::complex64", "tessera::kernels::complex128"};
  return kNames[static_cast<int>(dtype)];
}

const std::string& functor_name(Ufunc op) {
  static const auto names = [] {
    std::array<std::string, kNumUfuncs> n;
#define TS_FUNCTOR_NAME(id, name, nin, nout, functor, loops) \
  n[static_cast<int>(Ufunc::id)] = "tessera::kernels::" #functor;
    TESSERA_UFUNCS(TS_FUNCTOR_NAME)
#undef TS_FUNCTOR_NAME
    return n;
  }();
  return names[static_cast<int>(op)];
}

}  // namespace tessera::jit
