#pragma once
// The C++ types of the elements the kernels compute on, in every compilation of them: the
// host build and the simulator (GCC's _Float16, std::complex), and NVRTC (CUDA's __half,
// and std::complex as libcu++'s cuda::std::complex through the renderer's std mapping).

#include <complex>
#include <type_traits>

#include "kernels/defs.h"

namespace tessera::kernels {

// IEEE binary16; GCC implements it on every SSE2 target, converting through float.
#if defined(__CUDACC_RTC__)
using half = __half;
#else
using half = _Float16;
#endif
using complex64 = std::complex<float>;
using complex128 = std::complex<double>;

template <typename T>
struct is_complex_type : std::false_type {};
template <typename T>
struct is_complex_type<std::complex<T>> : std::true_type {};

}  // namespace tessera::kernels
