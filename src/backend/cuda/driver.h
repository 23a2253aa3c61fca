#pragma once
// The CUDA driver API as a table of functions: either the real driver (libcuda, loaded with
// dlopen) or the simulator (src/backend/cudasim), which implements the same entries on the
// host. Everything above this table is the same code for both. The declarations mirror
// cuda.h (same signatures, same values) so that the real entries are filled by dlsym
// without the toolkit's headers at build time.

#include <cstddef>
#include <cstdint>

namespace tessera::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = uint64_t;
using CUcontext = struct CUctx_st*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_INVALID_VALUE = 1;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_NOT_INITIALIZED = 3;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr CUresult CUDA_ERROR_INVALID_DEVICE = 101;
constexpr CUresult CUDA_ERROR_INVALID_IMAGE = 200;
constexpr CUresult CUDA_ERROR_INVALID_CONTEXT = 201;
constexpr CUresult CUDA_ERROR_INVALID_HANDLE = 400;
constexpr CUresult CUDA_ERROR_NOT_FOUND = 500;
constexpr CUresult CUDA_ERROR_NOT_READY = 600;
constexpr CUresult CUDA_ERROR_ILLEGAL_ADDRESS = 700;
constexpr CUresult CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES = 701;
constexpr CUresult CUDA_ERROR_LAUNCH_FAILED = 719;
constexpr CUresult CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE = 720;
constexpr CUresult CUDA_ERROR_UNKNOWN = 999;

constexpr unsigned CU_STREAM_NON_BLOCKING = 0x1;
constexpr unsigned CU_EVENT_BLOCKING_SYNC = 0x1;
constexpr unsigned CU_EVENT_DISABLE_TIMING = 0x2;
constexpr unsigned CU_MEMHOSTALLOC_PORTABLE = 0x1;
constexpr unsigned CU_MEMHOSTALLOC_DEVICEMAP = 0x2;
// The driver's names for the default streams, valid wherever a stream handle is (and the
// stream values of the CUDA array interface): the legacy default stream, and the calling
// thread's own default stream.
inline const CUstream CU_STREAM_LEGACY = reinterpret_cast<CUstream>(uintptr_t{1});
inline const CUstream CU_STREAM_PER_THREAD = reinterpret_cast<CUstream>(uintptr_t{2});
// CUpointer_attribute: the ordinal of the device whose memory a pointer points into.
constexpr int CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9;

// The device attributes tessera reads (CUdevice_attribute values).
enum DeviceAttribute : int {
  kMaxThreadsPerBlock = 1,
  kMaxBlockDimX = 2,
  kMaxBlockDimY = 3,
  kMaxBlockDimZ = 4,
  kMaxGridDimX = 5,
  kMaxGridDimY = 6,
  kMaxGridDimZ = 7,
  kMaxSharedMemoryPerBlock = 8,
  kTotalConstantMemory = 9,
  kWarpSize = 10,
  kMaxRegistersPerBlock = 12,
  kClockRate = 13,
  kMultiProcessorCount = 16,
  kIntegrated = 18,
  kCanMapHostMemory = 19,
  kConcurrentKernels = 31,
  kEccEnabled = 32,
  kPciBusId = 33,
  kPciDeviceId = 34,
  kMemoryClockRate = 36,
  kGlobalMemoryBusWidth = 37,
  kL2CacheSize = 38,
  kMaxThreadsPerMultiProcessor = 39,
  kAsyncEngineCount = 40,
  kUnifiedAddressing = 41,
  kComputeCapabilityMajor = 75,
  kComputeCapabilityMinor = 76,
  kMaxSharedMemoryPerMultiprocessor = 81,
  kManagedMemory = 83,
  kMaxSharedMemoryPerBlockOptin = 97,
};

// The entries tessera uses; each named after the driver symbol it is loaded from.
struct DriverApi {
  const char* name;  // "libcuda.so.1" or "simulator"
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuDriverGetVersion)(int* version);
  CUresult (*cuGetErrorString)(CUresult error, const char** text);
  CUresult (*cuGetErrorName)(CUresult error, const char** text);
  CUresult (*cuDeviceGetCount)(int* count);
  CUresult (*cuDeviceGet)(CUdevice* device, int ordinal);
  CUresult (*cuDeviceGetName)(char* name, int length, CUdevice device);
  CUresult (*cuDeviceGetAttribute)(int* value, int attribute, CUdevice device);
  CUresult (*cuDeviceTotalMem)(size_t* bytes, CUdevice device);                 // _v2
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext* context, CUdevice device);
  CUresult (*cuCtxSetCurrent)(CUcontext context);
  CUresult (*cuCtxSynchronize)();
  CUresult (*cuMemGetInfo)(size_t* free, size_t* total);                         // _v2
  CUresult (*cuMemAlloc)(CUdeviceptr* ptr, size_t bytes);                        // _v2
  CUresult (*cuMemFree)(CUdeviceptr ptr);                                        // _v2
  CUresult (*cuMemHostAlloc)(void** ptr, size_t bytes, unsigned flags);
  CUresult (*cuMemFreeHost)(void* ptr);
  CUresult (*cuMemHostGetDevicePointer)(CUdeviceptr* ptr, void* host, unsigned flags);  // _v2
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr dst, const void* src, size_t bytes,
                                CUstream stream);                                // _v2
  CUresult (*cuMemcpyDtoHAsync)(void* dst, CUdeviceptr src, size_t bytes,
                                CUstream stream);                                // _v2
  CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                                CUstream stream);                                // _v2
  CUresult (*cuMemcpyPeerAsync)(CUdeviceptr dst, CUcontext dst_context, CUdeviceptr src,
                                CUcontext src_context, size_t bytes, CUstream stream);
  CUresult (*cuMemsetD8Async)(CUdeviceptr dst, unsigned char value, size_t count,
                              CUstream stream);
  // CUDA_ERROR_INVALID_VALUE for a pointer into no device allocation.
  CUresult (*cuPointerGetAttribute)(void* data, int attribute, CUdeviceptr ptr);
  CUresult (*cuStreamCreate)(CUstream* stream, unsigned flags);
  CUresult (*cuStreamDestroy)(CUstream stream);  // _v2
  CUresult (*cuStreamSynchronize)(CUstream stream);
  CUresult (*cuStreamQuery)(CUstream stream);
  CUresult (*cuStreamWaitEvent)(CUstream stream, CUevent event, unsigned flags);
  CUresult (*cuEventCreate)(CUevent* event, unsigned flags);
  CUresult (*cuEventRecord)(CUevent event, CUstream stream);
  CUresult (*cuEventQuery)(CUevent event);
  CUresult (*cuEventSynchronize)(CUevent event);
  CUresult (*cuEventElapsedTime)(float* ms, CUevent start, CUevent end);
  CUresult (*cuEventDestroy)(CUevent event);  // _v2
  CUresult (*cuModuleLoadData)(CUmodule* module, const void* image);
  CUresult (*cuModuleGetFunction)(CUfunction* function, CUmodule module, const char* name);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuLaunchKernel)(CUfunction f, unsigned grid_x, unsigned grid_y, unsigned grid_z,
                             unsigned block_x, unsigned block_y, unsigned block_z,
                             unsigned shared_bytes, CUstream stream, void** params,
                             void** extra);
  // Runs fn(data) on the host once the work queued on `stream` before it is done; later
  // work waits for it (how the simulated CUDA libraries run in stream order).
  CUresult (*cuLaunchHostFunc)(CUstream stream, void (*fn)(void* data), void* data);
  // A launch whose blocks all run at once, so that they can wait for each other (cooperative
  // groups' grid.sync()): CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE for more blocks than the
  // device holds at once.
  CUresult (*cuLaunchCooperativeKernel)(CUfunction f, unsigned grid_x, unsigned grid_y,
                                        unsigned grid_z, unsigned block_x, unsigned block_y,
                                        unsigned block_z, unsigned shared_bytes, CUstream stream,
                                        void** params);
  // How many blocks of f, of `block_size` threads and `shared_bytes` of dynamic shared
  // memory each, one multiprocessor holds at once.
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int* blocks, CUfunction f,
                                                          int block_size, size_t shared_bytes);
  // Not in the driver: what went wrong in the last failed call of this thread, beyond the
  // error code (the simulator's kernel errors name block and thread); null for none.
  const char* (*last_error_detail)();
  // Not in the driver: every allocation must be handed out exactly as asked and on its
  // own (no pooling, no rounding), because the driver checks accesses against its bounds
  // (the simulator with TESSERA_CUDA_SIM_CHECK=1).
  bool exact_allocations;
};

// The real driver: libcuda.so.1 loaded and initialized, or null (no driver, no device).
const DriverApi* load_real_driver();
// The simulator's table (src/backend/cudasim/sim_driver.cpp).
const DriverApi* simulated_driver();
// How many times the host has waited for simulated device work: stream, event and context
// synchronizations, and copies into pageable host memory (which wait as on a GPU).
uint64_t simulated_host_waits();

}  // namespace tessera::cuda
