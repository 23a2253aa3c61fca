// Devices, streams and events of the public CUDA API (tessera/cuda.h), over the driver table.

#include <algorithm>

#include "backend/cuda/driver_memory.h"
#include "backend/cuda/runtime.h"
#include "tessera/cuda.h"
#include "tessera/errors.h"

namespace tessera::cuda {
namespace {

// CuPy's names for the attributes Device.attributes reports.
constexpr std::pair<const char*, int> kAttributes[] = {
    {"MaxThreadsPerBlock", kMaxThreadsPerBlock},
    {"MaxBlockDimX", kMaxBlockDimX},
    {"MaxBlockDimY", kMaxBlockDimY},
    {"MaxBlockDimZ", kMaxBlockDimZ},
    {"MaxGridDimX", kMaxGridDimX},
    {"MaxGridDimY", kMaxGridDimY},
    {"MaxGridDimZ", kMaxGridDimZ},
    {"MaxSharedMemoryPerBlock", kMaxSharedMemoryPerBlock},
    {"TotalConstantMemory", kTotalConstantMemory},
    {"WarpSize", kWarpSize},
    {"MaxRegistersPerBlock", kMaxRegistersPerBlock},
    {"ClockRate", kClockRate},
    {"MultiProcessorCount", kMultiProcessorCount},
    {"Integrated", kIntegrated},
    {"CanMapHostMemory", kCanMapHostMemory},
    {"ConcurrentKernels", kConcurrentKernels},
    {"EccEnabled", kEccEnabled},
    {"PciBusId", kPciBusId},
    {"PciDeviceId", kPciDeviceId},
    {"MemoryClockRate", kMemoryClockRate},
    {"GlobalMemoryBusWidth", kGlobalMemoryBusWidth},
    {"L2CacheSize", kL2CacheSize},
    {"MaxThreadsPerMultiProcessor", kMaxThreadsPerMultiProcessor},
    {"AsyncEngineCount", kAsyncEngineCount},
    {"UnifiedAddressing", kUnifiedAddressing},
    {"ComputeCapabilityMajor", kComputeCapabilityMajor},
    {"ComputeCapabilityMinor", kComputeCapabilityMinor},
    {"MaxSharedMemoryPerMultiprocessor", kMaxSharedMemoryPerMultiprocessor},
    {"ManagedMemory", kManagedMemory},
    {"MaxSharedMemoryPerBlockOptin", kMaxSharedMemoryPerBlockOptin},
};

int attribute(int device, int which) {
  activate(device, "Device.attributes");
  int value = 0;
  check(driver()->cuDeviceGetAttribute(&value, which, device), "Device.attributes");
  return value;
}

CUevent event_handle(uintptr_t h) { return reinterpret_cast<CUevent>(h); }

}  // namespace

bool is_available() { return device_count() > 0; }

DeviceProperties device_properties(int device) {
  activate(device, "Device");
  const DriverApi& d = *driver();
  DeviceProperties p;
  char name[256] = {};
  check(d.cuDeviceGetName(name, sizeof name, device), "Device");
  p.name = name;
  p.major = attribute(device, kComputeCapabilityMajor);
  p.minor = attribute(device, kComputeCapabilityMinor);
  p.multiprocessors = attribute(device, kMultiProcessorCount);
  check(d.cuDeviceTotalMem(&p.total_memory, device), "Device");
  return p;
}

std::map<std::string, int> device_attributes(int device) {
  std::map<std::string, int> all;
  for (const auto& [name, which] : kAttributes) all.emplace(name, attribute(device, which));
  return all;
}

std::pair<size_t, size_t> mem_info(int device) {
  activate(device, "Device.mem_info");
  size_t free = 0, total = 0;
  check(driver()->cuMemGetInfo(&free, &total), "Device.mem_info");
  return {free, total};
}

void synchronize_device(int device) {
  activate(device, "Device.synchronize");
  check(driver()->cuCtxSynchronize(), "Device.synchronize");
}

Stream create_stream(int device, bool non_blocking) {
  activate(device, "Stream");
  CUstream handle = nullptr;
  check(driver()->cuStreamCreate(&handle, non_blocking ? CU_STREAM_NON_BLOCKING : 0), "Stream");
  return Stream(Device::cuda(device), reinterpret_cast<uintptr_t>(handle));
}

void destroy_stream(const Stream& stream) {
  if (stream.is_default()) return;
  activate(stream.device().index, "Stream");
  // The pool would otherwise record free events on the destroyed handle: its blocks move to
  // the default stream once the stream's work is done.
  // A kernel error the wait reports is raised once the stream is gone.
  const CUresult finished = driver()->cuStreamSynchronize(stream_handle(stream));
  device_pool(stream.device().index).retire_stream(stream.handle());
  check(driver()->cuStreamDestroy(stream_handle(stream)), "Stream");
  check(finished, "Stream");
}

bool stream_done(const Stream& stream) {
  activate(stream.device().index, "Stream.done");
  const CUresult r = driver()->cuStreamQuery(stream_handle(stream));
  if (r == CUDA_ERROR_NOT_READY) return false;
  check(r, "Stream.done");
  return true;
}

Event::Event(int device, bool timing, bool blocking) : device_(device), handle_(0) {
  activate(device, "Event");
  CUevent event = nullptr;
  const unsigned flags =
      (timing ? 0u : CU_EVENT_DISABLE_TIMING) | (blocking ? CU_EVENT_BLOCKING_SYNC : 0u);
  check(driver()->cuEventCreate(&event, flags), "Event");
  handle_ = reinterpret_cast<uintptr_t>(event);
}

Event::~Event() {
  if (const DriverApi* d = driver()) d->cuEventDestroy(event_handle(handle_));
}

void Event::record(const Stream& stream) {
  if (stream.device().is_cpu() || stream.device().index != device_) {
    throw ValueError("[Event.record] the event belongs to cuda:" + std::to_string(device_) +
                     ", the stream to " + stream.device().str());
  }
  activate(device_, "Event.record");
  check(driver()->cuEventRecord(event_handle(handle_), stream_handle(stream)), "Event.record");
}

bool Event::done() const {
  const CUresult r = driver()->cuEventQuery(event_handle(handle_));
  if (r == CUDA_ERROR_NOT_READY) return false;
  check(r, "Event.done");
  return true;
}

void Event::synchronize() const {
  check(driver()->cuEventSynchronize(event_handle(handle_)), "Event.synchronize");
}

float elapsed_ms(const Event& start, const Event& end) {
  float ms = 0;
  check(driver()->cuEventElapsedTime(&ms, event_handle(start.handle()), event_handle(end.handle())),
        "get_elapsed_time");
  return ms;
}

void wait_event(const Stream& stream, const Event& event) {
  activate(stream.device().index, "Stream.wait_event");
  check(driver()->cuStreamWaitEvent(stream_handle(stream), event_handle(event.handle()), 0),
        "Stream.wait_event");
}

void stream_wait(const Stream& waiter, const Stream& producer) {
  if (waiter == producer) return;  // a stream runs its own work in order already
  if (waiter.device() != producer.device()) {
    throw ValueError("[stream_wait] the streams are on " + waiter.device().str() + " and " +
                     producer.device().str());
  }
  Event producer_done(producer.device().index, /*timing=*/false);
  activate(producer.device().index, "stream_wait");
  check(driver()->cuEventRecord(event_handle(producer_done.handle()), stream_handle(producer)),
        "stream_wait", "recording an event on stream " + std::to_string(producer.handle()));
  // Destroying the event right after is safe: the driver keeps what the wait needs.
  wait_event(waiter, producer_done);
}

int pointer_device(uintptr_t ptr) {
  const DriverApi* d = driver();
  if (!d || ptr == 0) return -1;
  int ordinal = -1;
  const CUresult r =
      d->cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, ptr);
  if (r == CUDA_ERROR_INVALID_VALUE) return -1;
  check(r, "pointer_device");
  return ordinal;
}

uintptr_t host_device_pointer(uintptr_t host) {
  activate(0, "mapped_array");
  CUdeviceptr ptr = 0;
  check(driver()->cuMemHostGetDevicePointer(&ptr, reinterpret_cast<void*>(host), 0),
        "mapped_array");
  return static_cast<uintptr_t>(ptr);
}

void launch(uintptr_t function, LaunchDims grid, LaunchDims block, size_t shared_bytes,
            const Stream& stream, std::vector<void*>& params, const char* api, bool cooperative) {
  activate(stream.device().index, api);
  const auto f = reinterpret_cast<CUfunction>(function);
  const auto shared = static_cast<unsigned>(shared_bytes);
  const CUresult r =
      cooperative
          ? driver()->cuLaunchCooperativeKernel(f, grid.x, grid.y, grid.z, block.x, block.y,
                                                block.z, shared, stream_handle(stream),
                                                params.data())
          : driver()->cuLaunchKernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z, shared,
                                     stream_handle(stream), params.data(), nullptr);
  if (r == CUDA_SUCCESS) return;
  const auto dims = [](LaunchDims d) {
    return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
  };
  check(r, api, std::string(cooperative ? "cooperatively " : "") + "launching grid " + dims(grid) +
                    ", block " + dims(block) + ", " + std::to_string(shared_bytes) +
                    " bytes of dynamic shared memory");
}

int max_cooperative_blocks(uintptr_t function, int device, unsigned block_threads,
                           size_t shared_bytes) {
  activate(device, "max_cooperative_grid_blocks");
  int per_multiprocessor = 0, multiprocessors = 0;
  check(driver()->cuOccupancyMaxActiveBlocksPerMultiprocessor(
            &per_multiprocessor, reinterpret_cast<CUfunction>(function),
            static_cast<int>(block_threads), shared_bytes),
        "max_cooperative_grid_blocks");
  check(driver()->cuDeviceGetAttribute(&multiprocessors, kMultiProcessorCount, device),
        "max_cooperative_grid_blocks");
  return per_multiprocessor * multiprocessors;
}

}  // namespace tessera::cuda
