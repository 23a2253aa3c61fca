#include "backend/cuda/driver_memory.h"

#include <memory>
#include <mutex>
#include <vector>

#include "backend/cuda/runtime.h"
#include "tessera/device.h"
#include "tessera/stream.h"

namespace tessera::cuda {
namespace {

class DriverMemory final : public DeviceMemory {
 public:
  explicit DriverMemory(int device) : device_(device) {}

  void* raw_allocate(size_t bytes) override {
    activate(device_, "cuda.alloc");
    CUdeviceptr ptr = 0;
    const CUresult r = driver()->cuMemAlloc(&ptr, bytes);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) return nullptr;
    check(r, "cuda.alloc");
    return reinterpret_cast<void*>(ptr);
  }
  void raw_free(void* ptr) override {
    activate(device_, "cuda.free");
    check(driver()->cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)), "cuda.free");
  }
  size_t device_total_bytes() override {
    size_t bytes = 0;
    check(driver()->cuDeviceTotalMem(&bytes, device_), "cuda.memory");
    return bytes;
  }
  uintptr_t record_event(uintptr_t stream) override {
    activate(device_, "cuda.free");
    CUevent event = nullptr;
    check(driver()->cuEventCreate(&event, CU_EVENT_DISABLE_TIMING), "cuda.free");
    check(driver()->cuEventRecord(event, reinterpret_cast<CUstream>(stream)), "cuda.free");
    return reinterpret_cast<uintptr_t>(event);
  }
  bool event_done(uintptr_t event) override {
    const CUresult r = driver()->cuEventQuery(reinterpret_cast<CUevent>(event));
    if (r == CUDA_ERROR_NOT_READY) return false;
    check(r, "cuda.malloc");
    return true;
  }
  void synchronize_event(uintptr_t event) override {
    check(driver()->cuEventSynchronize(reinterpret_cast<CUevent>(event)), "cuda.malloc");
  }
  void destroy_event(uintptr_t event) override {
    driver()->cuEventDestroy(reinterpret_cast<CUevent>(event));
  }
  bool exact_allocations() override { return driver()->exact_allocations; }

 private:
  int device_;
};

struct DeviceMemoryState {
  DriverMemory memory;
  MemoryPool pool;
  PoolAllocator allocator;

  explicit DeviceMemoryState(int device)
      : memory(device),
        pool(memory, device),
        allocator(pool, [device] { return current_stream(Device::cuda(device)).handle(); }) {}
};

DeviceMemoryState& state(int device) {
  static std::mutex mutex;
  // Never destroyed: arrays may outlive every static object, and the driver reclaims
  // device memory when the process ends.
  static auto* states = new std::vector<std::unique_ptr<DeviceMemoryState>>();
  std::lock_guard lock(mutex);
  activate(device, "cuda");
  if (states->size() <= static_cast<size_t>(device)) states->resize(device + 1);
  auto& slot = (*states)[device];
  if (!slot) slot = std::make_unique<DeviceMemoryState>(device);
  return *slot;
}

// Page-locked memory, portable (usable with every device) and mapped into the devices'
// address space (mapped_array).
class DriverPinnedHost final : public PinnedHost {
 public:
  void* allocate(size_t bytes) override {
    activate(0, "alloc_pinned_memory");
    void* ptr = nullptr;
    const CUresult r = driver()->cuMemHostAlloc(
        &ptr, bytes, CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) return nullptr;
    check(r, "alloc_pinned_memory");
    return ptr;
  }
  void free(void* ptr) override { check(driver()->cuMemFreeHost(ptr), "free_pinned_memory"); }
};

}  // namespace

PinnedMemoryPool& pinned_pool() {
  static auto* host = new DriverPinnedHost();  // never destroyed, as the device pools
  static auto* pool = new PinnedMemoryPool(*host);
  return *pool;
}

MemoryPool& device_pool(int device) { return state(device).pool; }
Allocator& device_allocator(int device) { return state(device).allocator; }

}  // namespace tessera::cuda
