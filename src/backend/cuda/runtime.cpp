#include "backend/cuda/runtime.h"

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include "tessera/errors.h"

namespace tessera::cuda {
namespace {

bool simulator_requested() {
  const char* flag = std::getenv("TESSERA_CUDA_SIM");
  return flag && *flag && std::strcmp(flag, "0") != 0;
}

}  // namespace

const DriverApi* driver() {
  static const DriverApi* api = simulator_requested() ? simulated_driver() : load_real_driver();
  return api;
}

bool is_simulated() { return driver() == simulated_driver(); }

int device_count() {
  const DriverApi* api = driver();
  int count = 0;
  if (!api || api->cuDeviceGetCount(&count) != CUDA_SUCCESS) return 0;
  return count;
}

const DriverApi& require_driver(const char* api) {
  if (const DriverApi* d = driver()) return *d;
  throw CudaRuntimeError(std::string("[") + api +
                         "] no CUDA device was found (no usable libcuda.so.1 driver or GPU); "
                         "set TESSERA_CUDA_SIM=1 to run CUDA code on the CPU with the simulator");
}

void check(CUresult r, const char* api) { check(r, api, std::string()); }

void check(CUresult r, const char* api, const std::string& context) {
  if (r == CUDA_SUCCESS) return;
  const DriverApi& d = require_driver(api);
  const char* name = nullptr;
  const char* text = nullptr;
  if (d.cuGetErrorName(r, &name) != CUDA_SUCCESS || !name) name = "CUDA_ERROR_UNKNOWN";
  if (d.cuGetErrorString(r, &text) != CUDA_SUCCESS || !text) text = "unknown error";
  std::string message = std::string("[") + api + "] " + name + ": " + text;
  if (const char* detail = d.last_error_detail()) {
    message += std::string(" (") + detail + ")";
  } else if (!context.empty()) {
    message += " (" + context + ")";
  }
  if (r == CUDA_ERROR_OUT_OF_MEMORY) throw DeviceOutOfMemoryError(message);
  throw CudaRuntimeError(message);
}

CUcontext context_of(int device, const char* api) {
  const DriverApi& d = require_driver(api);
  // Primary contexts, retained once per device and never released: tessera owns them for
  // the life of the process, as the CUDA runtime does.
  static std::mutex mutex;
  static std::vector<CUcontext> contexts;
  std::lock_guard lock(mutex);
  if (contexts.empty()) contexts.resize(device_count(), nullptr);
  if (!contexts[device]) {
    CUdevice handle;
    check(d.cuDeviceGet(&handle, device), api);
    check(d.cuDevicePrimaryCtxRetain(&contexts[device], handle), api);
  }
  return contexts[device];
}

void activate(int device, const char* api) {
  const DriverApi& d = require_driver(api);
  const int count = device_count();
  if (device < 0 || device >= count) {
    throw CudaRuntimeError(std::string("[") + api + "] invalid device ordinal " +
                           std::to_string(device) + ": " + std::to_string(count) +
                           " CUDA device(s) found");
  }
  const CUcontext context = context_of(device, api);
  thread_local CUcontext current = nullptr;
  if (current != context) {
    check(d.cuCtxSetCurrent(context), api);
    current = context;
  }
}

}  // namespace tessera::cuda
