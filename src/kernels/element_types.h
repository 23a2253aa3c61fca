#pragma once
// The C++ types of the elements the kernels compute on, in every compilation of them: the
// host build (GCC's _Float16, std::complex), NVRTC (CUDA's __half, and std::complex as
// libcu++'s cuda::std::complex through the renderer's std mapping), and the simulator
// (_Float16, and lite::complex, which spares its every compile libstdc++'s <complex>).

#include <complex>
#include <type_traits>

#include "kernels/complex_type.h"
#include "kernels/defs.h"

namespace tessera::kernels {

// IEEE binary16; GCC implements it on every SSE2 target, converting through float.
#if defined(__CUDACC_RTC__)
using half = __half;
#else
using half = _Float16;
#endif

#if defined(TESSERA_CUDA_SIM)
template <class T>
using complex = lite::complex<T>;
#else
template <class T>
using complex = std::complex<T>;
#endif
using complex64 = complex<float>;
using complex128 = complex<double>;

template <typename T>
struct is_complex_type : std::false_type {};
template <typename T>
struct is_complex_type<complex<T>> : std::true_type {};

}  // namespace tessera::kernels
