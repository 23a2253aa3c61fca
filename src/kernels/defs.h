#pragma once
// Definitions shared by every compilation of the kernels: the host build, NVRTC and the
// CUDA simulator. TS_HD marks a function usable on both host and device.

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define TS_HD __host__ __device__ __forceinline__
#else
#define TS_HD inline
#endif

namespace tessera::kernels {

// NumPy's integer and half loops set the floating-point flags by hand
// (npy_set_floatstatus_*), and it warns from them; these raise a flag with a host
// operation whose result is dropped (a GPU has no flags: there they do nothing visible).
TS_HD void raise_divide_by_zero_flag() {
  volatile float one = 1.0f, zero = 0.0f;
  one = one / zero;
}
TS_HD void raise_overflow_flag() {
  volatile float big = 3.0e38f;
  big = big * big;
}
TS_HD void raise_underflow_flag() {
  volatile float tiny = 1.0e-30f;
  tiny = tiny * tiny;
}
TS_HD void raise_invalid_flag() {
  volatile float zero = 0.0f;
  zero = zero / zero;
}

// The result of an op with two outputs (divmod, frexp, modf).
template <class A, class B>
struct Pair {
  A first;
  B second;
};

}  // namespace tessera::kernels
