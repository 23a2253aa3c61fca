// The real CUDA driver, loaded at run time: tessera links no CUDA library, so one build runs
// with or without a GPU and `import tessera` never fails for lack of one.

#include <dlfcn.h>

#include "backend/cuda/driver.h"
#include "backend/cuda/vendor_library.h"

namespace tessera::cuda {
namespace {

const DriverApi* load() {
  void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library) return nullptr;
  static DriverApi api{};
  api.name = "libcuda.so.1";
  // The versioned names are the ones cuda.h maps the plain names to.
  const bool complete =
      resolve(library, "cuInit", api.cuInit) &&
      resolve(library, "cuDriverGetVersion", api.cuDriverGetVersion) &&
      resolve(library, "cuGetErrorString", api.cuGetErrorString) &&
      resolve(library, "cuGetErrorName", api.cuGetErrorName) &&
      resolve(library, "cuDeviceGetCount", api.cuDeviceGetCount) &&
      resolve(library, "cuDeviceGet", api.cuDeviceGet) &&
      resolve(library, "cuDeviceGetName", api.cuDeviceGetName) &&
      resolve(library, "cuDeviceGetAttribute", api.cuDeviceGetAttribute) &&
      resolve(library, "cuDeviceTotalMem_v2", api.cuDeviceTotalMem) &&
      resolve(library, "cuDevicePrimaryCtxRetain", api.cuDevicePrimaryCtxRetain) &&
      resolve(library, "cuCtxSetCurrent", api.cuCtxSetCurrent) &&
      resolve(library, "cuCtxSynchronize", api.cuCtxSynchronize) &&
      resolve(library, "cuMemGetInfo_v2", api.cuMemGetInfo) &&
      resolve(library, "cuMemAlloc_v2", api.cuMemAlloc) &&
      resolve(library, "cuMemFree_v2", api.cuMemFree) &&
      resolve(library, "cuMemHostAlloc", api.cuMemHostAlloc) &&
      resolve(library, "cuMemFreeHost", api.cuMemFreeHost) &&
      resolve(library, "cuMemHostGetDevicePointer_v2", api.cuMemHostGetDevicePointer) &&
      resolve(library, "cuMemcpyHtoDAsync_v2", api.cuMemcpyHtoDAsync) &&
      resolve(library, "cuMemcpyDtoHAsync_v2", api.cuMemcpyDtoHAsync) &&
      resolve(library, "cuMemcpyDtoDAsync_v2", api.cuMemcpyDtoDAsync) &&
      resolve(library, "cuMemcpyPeerAsync", api.cuMemcpyPeerAsync) &&
      resolve(library, "cuMemsetD8Async", api.cuMemsetD8Async) &&
      resolve(library, "cuPointerGetAttribute", api.cuPointerGetAttribute) &&
      resolve(library, "cuStreamCreate", api.cuStreamCreate) &&
      resolve(library, "cuStreamDestroy_v2", api.cuStreamDestroy) &&
      resolve(library, "cuStreamSynchronize", api.cuStreamSynchronize) &&
      resolve(library, "cuStreamQuery", api.cuStreamQuery) &&
      resolve(library, "cuStreamWaitEvent", api.cuStreamWaitEvent) &&
      resolve(library, "cuEventCreate", api.cuEventCreate) &&
      resolve(library, "cuEventRecord", api.cuEventRecord) &&
      resolve(library, "cuEventQuery", api.cuEventQuery) &&
      resolve(library, "cuEventSynchronize", api.cuEventSynchronize) &&
      (resolve(library, "cuEventElapsedTime_v2", api.cuEventElapsedTime) ||
       resolve(library, "cuEventElapsedTime", api.cuEventElapsedTime)) &&
      resolve(library, "cuEventDestroy_v2", api.cuEventDestroy) &&
      resolve(library, "cuModuleLoadData", api.cuModuleLoadData) &&
      resolve(library, "cuModuleGetFunction", api.cuModuleGetFunction) &&
      resolve(library, "cuModuleUnload", api.cuModuleUnload) &&
      resolve(library, "cuLaunchKernel", api.cuLaunchKernel) &&
      resolve(library, "cuLaunchHostFunc", api.cuLaunchHostFunc) &&
      resolve(library, "cuLaunchCooperativeKernel", api.cuLaunchCooperativeKernel) &&
      resolve(library, "cuOccupancyMaxActiveBlocksPerMultiprocessor",
              api.cuOccupancyMaxActiveBlocksPerMultiprocessor);
  api.last_error_detail = [] { return static_cast<const char*>(nullptr); };
  int count = 0;
  if (!complete || api.cuInit(0) != CUDA_SUCCESS || api.cuDeviceGetCount(&count) != CUDA_SUCCESS ||
      count == 0) {
    dlclose(library);
    return nullptr;
  }
  return &api;
}

}  // namespace

const DriverApi* load_real_driver() {
  static const DriverApi* api = load();
  return api;
}

}  // namespace tessera::cuda
