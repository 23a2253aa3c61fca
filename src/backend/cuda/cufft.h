#pragma once
// cuFFT, loaded at run time like libcuda (tessera links no CUDA library), or on the
// simulator a table of the same entries whose transforms run the CPU backend's FFTW on the
// very layout cuFFT would get, in stream order (src/backend/cudasim/sim_cufft.cpp). The
// declarations mirror cufft.h (same signatures, same values).

#include <cstddef>

#include "backend/cuda/driver.h"
#include "backend/fft_call.h"

namespace tessera::cuda {

using cufftHandle = int;
using cufftResult = int;
constexpr cufftResult CUFFT_SUCCESS = 0x0, CUFFT_INVALID_PLAN = 0x1, CUFFT_INVALID_VALUE = 0x4,
                      CUFFT_EXEC_FAILED = 0x6, CUFFT_NOT_SUPPORTED = 0x10;
constexpr int CUFFT_FORWARD = -1, CUFFT_INVERSE = 1;
// cufftType
constexpr int CUFFT_R2C = 0x2a, CUFFT_C2R = 0x2c, CUFFT_C2C = 0x29, CUFFT_D2Z = 0x6a,
              CUFFT_Z2D = 0x6c, CUFFT_Z2Z = 0x69;

struct CufftApi {
  const char* name;
  cufftResult (*cufftCreate)(cufftHandle* plan);
  cufftResult (*cufftDestroy)(cufftHandle plan);
  cufftResult (*cufftSetAutoAllocation)(cufftHandle plan, int auto_allocate);
  cufftResult (*cufftMakePlanMany64)(cufftHandle plan, int rank, long long* n,
                                     long long* inembed, long long istride, long long idist,
                                     long long* onembed, long long ostride, long long odist,
                                     int type, long long batch, size_t* work_size);
  cufftResult (*cufftSetWorkArea)(cufftHandle plan, void* work_area);
  cufftResult (*cufftSetStream)(cufftHandle plan, CUstream stream);
  // C2C and Z2Z take a direction; the real transforms' direction is their type's.
  cufftResult (*cufftExecC2C)(cufftHandle plan, void* in, void* out, int direction);
  cufftResult (*cufftExecR2C)(cufftHandle plan, void* in, void* out);
  cufftResult (*cufftExecC2R)(cufftHandle plan, void* in, void* out);
  cufftResult (*cufftExecZ2Z)(cufftHandle plan, void* in, void* out, int direction);
  cufftResult (*cufftExecD2Z)(cufftHandle plan, void* in, void* out);
  cufftResult (*cufftExecZ2D)(cufftHandle plan, void* in, void* out);
};

// The simulator's table (src/backend/cudasim/sim_cufft.cpp).
const CufftApi* simulated_cufft();

// The transform `call` describes, on CUDA device `device`'s current stream: split into
// passes of at most three axes (cuFFT's rank limit), each laid out in cuFFT's advanced
// layout where its strides nest and through packed copies where they do not; the batch
// axes that do not merge into one are looped over. Plans are kept per device and thread,
// their work areas come from the device's memory pool. CudaRuntimeError when cuFFT cannot
// be loaded or fails.
void cufft_execute(int device, const FftCall& call);

}  // namespace tessera::cuda
