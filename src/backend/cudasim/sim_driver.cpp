// The CUDA simulator's driver table: the entries of driver.h implemented on the host, so the
// CUDA backend runs end to end without a GPU. Device memory is host memory whose ranges are
// checked on every copy; each stream is an ordered queue served by its own thread; events
// record when their place in a queue is reached; modules are CUDA C++ translation units
// compiled by the host compiler (module_source.h) and run by the executor.
//
// Differences from a GPU, on purpose: a kernel error is reported by the next synchronizing
// call on its stream and then cleared (a GPU context would stay unusable); destroying a
// stream waits for its work; timings mean nothing.


#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "backend/cuda/driver.h"
#include "backend/cudasim/executor.h"
#include "backend/cudasim/fault_trap.h"
#include "backend/cudasim/host_module.h"
#include "backend/cudasim/sim_memory.h"

namespace tessera::cuda {
namespace {

thread_local std::string error_detail;

CUresult fail(CUresult code, std::string detail) {
  error_detail = std::move(detail);
  return code;
}

size_t env_size(const char* name, size_t fallback) {
  const char* text = std::getenv(name);
  if (!text || !*text) return fallback;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(text, &end, 10);
  return (end && *end == '\0' && value > 0) ? static_cast<size_t>(value) : fallback;
}

struct SimStream;

// A task waits for other queues to reach a position before it runs (legacy default-stream
// ordering, cuStreamWaitEvent).
struct Task {
  std::function<void()> run;
  std::vector<std::pair<std::shared_ptr<SimStream>, uint64_t>> waits;
};

// One lock and one condition for every queue: the simulator's queues are few and short, and
// a single lock makes cross-queue waits simple to get right.
std::mutex queues_mutex;
std::condition_variable queues_changed;

struct SimStream {
  int device = 0;
  bool blocking = true;  // synchronizes with the legacy default stream
  bool is_default = false;
  std::deque<Task> queue;
  uint64_t enqueued = 0, completed = 0;
  bool stopping = false;
  std::string error;  // the first kernel error since the last synchronization
  CUresult error_code = CUDA_SUCCESS;
  std::thread worker;

  void serve() {
    std::unique_lock lock(queues_mutex);
    for (;;) {
      queues_changed.wait(lock, [&] { return stopping || !queue.empty(); });
      if (queue.empty()) return;
      Task task = std::move(queue.front());
      queue.pop_front();
      queues_changed.wait(lock, [&] {
        return std::all_of(task.waits.begin(), task.waits.end(),
                           [](const auto& w) { return w.first->completed >= w.second; });
      });
      lock.unlock();
      std::string failure;
      CUresult code = CUDA_ERROR_LAUNCH_FAILED;
      try {
        task.run();
      } catch (const cudasim::KernelError& e) {
        failure = e.what();
        if (e.illegal_address()) code = CUDA_ERROR_ILLEGAL_ADDRESS;
      } catch (const std::exception& e) {
        failure = e.what();
      }
      lock.lock();
      if (!failure.empty() && error.empty()) {
        error = std::move(failure);
        error_code = code;
      }
      ++completed;
      queues_changed.notify_all();
    }
  }
};

struct SimEvent {
  std::shared_ptr<SimStream> stream;  // null until recorded
  uint64_t position = 0;
  bool timing = true;
  std::chrono::steady_clock::time_point time;
};

struct SimDevice {
  size_t capacity = 0;
  size_t used = 0;
  std::map<uintptr_t, size_t> allocations;  // start -> bytes counted (sim_memory.h)
  std::shared_ptr<SimStream> default_stream;
  std::vector<std::weak_ptr<SimStream>> streams;
};

struct Simulator {
  std::mutex mutex;  // devices' memory maps and stream lists, handle maps
  std::vector<SimDevice> devices;
  std::map<uintptr_t, size_t> pinned;  // page-locked host memory, also device-visible
  std::unordered_map<CUstream, std::shared_ptr<SimStream>> streams;
  std::unordered_map<CUevent, std::shared_ptr<SimEvent>> events;

  Simulator() {
    devices.resize(std::max<size_t>(1, env_size("TESSERA_CUDA_SIM_DEVICES", 1)));
    for (SimDevice& d : devices) {
      d.capacity = env_size("TESSERA_CUDA_SIM_MEMORY", size_t{4} << 30);
      d.default_stream = start_stream(static_cast<int>(&d - devices.data()), true, true);
    }
    cudasim::install_fault_trap([this](uintptr_t address) {
      std::lock_guard lock(mutex);
      std::map<uintptr_t, size_t> live = pinned;
      for (const SimDevice& d : devices) live.insert(d.allocations.begin(), d.allocations.end());
      return cudasim::describe_device_address(live, address);
    });
  }
  ~Simulator() {
    for (SimDevice& d : devices) stop(*d.default_stream);
    for (auto& [handle, s] : streams) stop(*s);
  }

  static std::shared_ptr<SimStream> start_stream(int device, bool blocking, bool is_default) {
    auto s = std::make_shared<SimStream>();
    s->device = device;
    s->blocking = blocking;
    s->is_default = is_default;
    s->worker = std::thread([raw = s.get()] { raw->serve(); });
    return s;
  }
  static void stop(SimStream& s) {
    {
      std::lock_guard lock(queues_mutex);
      s.stopping = true;
    }
    queues_changed.notify_all();
    if (s.worker.joinable()) s.worker.join();
  }
};

Simulator& sim() {
  static Simulator instance;
  return instance;
}

thread_local int current_device = -1;  // the current context's device

CUcontext context_of(int device) { return reinterpret_cast<CUcontext>(uintptr_t(device) + 1); }
int device_of(CUcontext context) { return static_cast<int>(reinterpret_cast<uintptr_t>(context)) - 1; }

// The stream a handle names: 0, CU_STREAM_LEGACY and CU_STREAM_PER_THREAD are the current
// device's default stream (the simulator has one per device, which no other stream waits
// for implicitly).
std::shared_ptr<SimStream> stream_of(CUstream handle) {
  Simulator& s = sim();
  std::lock_guard lock(s.mutex);
  if (!handle || handle == CU_STREAM_LEGACY || handle == CU_STREAM_PER_THREAD) {
    if (current_device < 0) return nullptr;
    return s.devices[current_device].default_stream;
  }
  auto it = s.streams.find(handle);
  return it == s.streams.end() ? nullptr : it->second;
}

// Queues `run` on `stream` behind the work it must follow; returns its position (the
// stream's completed count once it has run).
uint64_t enqueue(const std::shared_ptr<SimStream>& stream, std::function<void()> run,
             std::vector<std::pair<std::shared_ptr<SimStream>, uint64_t>> waits = {}) {
  Simulator& s = sim();
  std::vector<std::shared_ptr<SimStream>> others;
  uint64_t position;
  {
    std::lock_guard lock(s.mutex);
    SimDevice& d = s.devices[stream->device];
    if (stream->is_default) {
      for (const auto& weak : d.streams) {
        if (auto other = weak.lock(); other && other->blocking) others.push_back(other);
      }
    } else if (stream->blocking) {
      others.push_back(d.default_stream);
    }
  }
  {
    std::lock_guard lock(queues_mutex);
    for (auto& other : others) waits.emplace_back(other, other->enqueued);
    stream->queue.push_back(Task{std::move(run), std::move(waits)});
    position = ++stream->enqueued;
  }
  queues_changed.notify_all();
  return position;
}

// Every wait of the host for device work (simulated_host_waits).
std::atomic<uint64_t> host_waits{0};

// Waits until `stream` has run everything queued so far; returns its kernel error, if any.
CUresult drain(SimStream& stream) {
  ++host_waits;
  std::unique_lock lock(queues_mutex);
  const uint64_t target = stream.enqueued;
  queues_changed.wait(lock, [&] { return stream.completed >= target; });
  if (stream.error.empty()) return CUDA_SUCCESS;
  std::string message = std::move(stream.error);
  stream.error.clear();
  return fail(stream.error_code, std::move(message));
}

// Whether [ptr, ptr + bytes) lies inside one device allocation or pinned block.
bool in_allocation(const std::map<uintptr_t, size_t>& blocks, uintptr_t ptr, size_t bytes) {
  auto it = blocks.upper_bound(ptr);
  if (it == blocks.begin()) return false;
  --it;
  return ptr + bytes <= it->first + it->second;
}

CUresult check_range(CUdeviceptr ptr, size_t bytes, const char* api) {
  Simulator& s = sim();
  std::lock_guard lock(s.mutex);
  for (const SimDevice& d : s.devices) {
    if (in_allocation(d.allocations, ptr, bytes)) return CUDA_SUCCESS;
  }
  if (in_allocation(s.pinned, ptr, bytes)) return CUDA_SUCCESS;
  return fail(CUDA_ERROR_INVALID_VALUE,
              std::string(api) + ": [" + std::to_string(ptr) + ", +" + std::to_string(bytes) +
                  ") is not inside one device allocation");
}

CUresult copy_async(void* dst, const void* src, size_t bytes, CUstream handle) {
  auto stream = stream_of(handle);
  if (!stream) return fail(CUDA_ERROR_INVALID_HANDLE, "unknown stream");
  if (bytes == 0) return CUDA_SUCCESS;
  enqueue(stream, [=] { std::memcpy(dst, src, bytes); });
  return CUDA_SUCCESS;
}

bool is_pinned(const void* host, size_t bytes) {
  Simulator& s = sim();
  std::lock_guard lock(s.mutex);
  return in_allocation(s.pinned, reinterpret_cast<uintptr_t>(host), bytes);
}

// ---- the table's entries ----

CUresult init(unsigned) { return CUDA_SUCCESS; }
CUresult driver_version(int* v) { return *v = 13000, CUDA_SUCCESS; }
// The codes the simulator returns, with the driver's names and texts for them.
struct ErrorText {
  CUresult code;
  const char* name;
  const char* text;
};
constexpr ErrorText kErrors[] = {
    {CUDA_SUCCESS, "CUDA_SUCCESS", "no error"},
    {CUDA_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {CUDA_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"},
    {CUDA_ERROR_INVALID_IMAGE, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"},
    {CUDA_ERROR_INVALID_CONTEXT, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"},
    {CUDA_ERROR_INVALID_HANDLE, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"},
    {CUDA_ERROR_NOT_FOUND, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {CUDA_ERROR_NOT_READY, "CUDA_ERROR_NOT_READY", "device not ready"},
    {CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES",
     "too many resources requested for launch"},
    {CUDA_ERROR_ILLEGAL_ADDRESS, "CUDA_ERROR_ILLEGAL_ADDRESS",
     "an illegal memory access was encountered"},
    {CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE",
     "too many blocks in cooperative launch"},
};

const ErrorText& error_text(CUresult error) {
  static constexpr ErrorText unknown{CUDA_ERROR_UNKNOWN, "CUDA_ERROR_UNKNOWN", "unknown error"};
  for (const ErrorText& e : kErrors) {
    if (e.code == error) return e;
  }
  return unknown;
}

CUresult error_string(CUresult error, const char** text) {
  *text = error_text(error).text;
  return CUDA_SUCCESS;
}
CUresult error_name(CUresult error, const char** text) {
  *text = error_text(error).name;
  return CUDA_SUCCESS;
}

CUresult device_count(int* count) {
  *count = static_cast<int>(sim().devices.size());
  return CUDA_SUCCESS;
}
CUresult device_get(CUdevice* device, int ordinal) {
  if (ordinal < 0 || ordinal >= static_cast<int>(sim().devices.size())) {
    return fail(CUDA_ERROR_INVALID_DEVICE, "no simulated device " + std::to_string(ordinal));
  }
  *device = ordinal;
  return CUDA_SUCCESS;
}
CUresult device_name(char* name, int length, CUdevice) {
  std::snprintf(name, static_cast<size_t>(length), "tessera CUDA simulator");
  return CUDA_SUCCESS;
}
int multiprocessors() {
  // As many multiprocessors as host cores, or TESSERA_CUDA_SIM_MULTIPROCESSORS: launch
  // shapes that depend on the count (a fold's split into chunks) can then be a real GPU's.
  static const int count = static_cast<int>(env_size(
      "TESSERA_CUDA_SIM_MULTIPROCESSORS", std::max(1u, std::thread::hardware_concurrency())));
  return count;
}

CUresult device_attribute(int* value, int attribute, CUdevice) {
  switch (attribute) {
    case kMaxThreadsPerBlock: case kMaxBlockDimX: case kMaxBlockDimY: *value = 1024; break;
    case kMaxBlockDimZ: *value = 64; break;
    case kMaxGridDimX: *value = 2147483647; break;
    case kMaxGridDimY: case kMaxGridDimZ: *value = 65535; break;
    case kMaxSharedMemoryPerBlock: *value = 48 << 10; break;
    case kMaxSharedMemoryPerBlockOptin: *value = 163 << 10; break;
    case kMaxSharedMemoryPerMultiprocessor: *value = 164 << 10; break;
    case kTotalConstantMemory: *value = 64 << 10; break;
    case kWarpSize: *value = 32; break;
    case kMaxRegistersPerBlock: *value = 65536; break;
    case kMultiProcessorCount: *value = multiprocessors(); break;
    case kMaxThreadsPerMultiProcessor: *value = 2048; break;
    case kComputeCapabilityMajor: *value = 8; break;
    case kComputeCapabilityMinor: *value = 0; break;
    case kCanMapHostMemory: case kConcurrentKernels: case kUnifiedAddressing:
    case kManagedMemory: *value = 1; break;
    case kL2CacheSize: *value = 40 << 20; break;
    case kAsyncEngineCount: *value = 2; break;
    default: *value = 0; break;
  }
  return CUDA_SUCCESS;
}
CUresult device_total_mem(size_t* bytes, CUdevice device) {
  Simulator& s = sim();
  if (device < 0 || static_cast<size_t>(device) >= s.devices.size()) {
    return fail(CUDA_ERROR_INVALID_DEVICE, "no simulated device " + std::to_string(device));
  }
  *bytes = s.devices[device].capacity;
  return CUDA_SUCCESS;
}
CUresult primary_context(CUcontext* context, CUdevice device) {
  *context = context_of(device);
  return CUDA_SUCCESS;
}
CUresult set_current(CUcontext context) {
  current_device = context ? device_of(context) : -1;
  return CUDA_SUCCESS;
}
CUresult context_synchronize() {
  if (current_device < 0) return fail(CUDA_ERROR_INVALID_CONTEXT, "no current context");
  ++host_waits;
  Simulator& s = sim();
  std::vector<std::shared_ptr<SimStream>> all;
  {
    std::lock_guard lock(s.mutex);
    SimDevice& d = s.devices[current_device];
    all.push_back(d.default_stream);
    for (const auto& weak : d.streams) {
      if (auto other = weak.lock()) all.push_back(other);
    }
  }
  CUresult result = CUDA_SUCCESS;
  for (auto& stream : all) {
    if (const CUresult r = drain(*stream); r != CUDA_SUCCESS && result == CUDA_SUCCESS) result = r;
  }
  return result;
}
CUresult mem_info(size_t* free, size_t* total) {
  if (current_device < 0) return fail(CUDA_ERROR_INVALID_CONTEXT, "no current context");
  Simulator& s = sim();
  std::lock_guard lock(s.mutex);
  const SimDevice& d = s.devices[current_device];
  *free = d.capacity - d.used;
  *total = d.capacity;
  return CUDA_SUCCESS;
}
CUresult mem_alloc(CUdeviceptr* ptr, size_t bytes) {
  if (current_device < 0) return fail(CUDA_ERROR_INVALID_CONTEXT, "no current context");
  if (bytes == 0) return fail(CUDA_ERROR_INVALID_VALUE, "cuMemAlloc of 0 bytes");
  Simulator& s = sim();
  std::lock_guard lock(s.mutex);
  SimDevice& d = s.devices[current_device];
  const size_t counted = cudasim::counted_bytes(bytes);
  if (counted > d.capacity - d.used) {
    return fail(CUDA_ERROR_OUT_OF_MEMORY, "simulated device memory exhausted");
  }
  void* memory = cudasim::allocate_device_memory(bytes);
  if (!memory) return fail(CUDA_ERROR_OUT_OF_MEMORY, "host memory exhausted");
  d.used += counted;
  d.allocations.emplace(reinterpret_cast<uintptr_t>(memory), counted);
  *ptr = reinterpret_cast<CUdeviceptr>(memory);
  return CUDA_SUCCESS;
}
CUresult mem_free(CUdeviceptr ptr) {
  Simulator& s = sim();
  int owner = -1;
  {
    std::lock_guard lock(s.mutex);
    for (size_t i = 0; i < s.devices.size() && owner < 0; ++i) {
      if (s.devices[i].allocations.count(ptr)) owner = static_cast<int>(i);
    }
  }
  if (owner < 0) return fail(CUDA_ERROR_INVALID_VALUE, "cuMemFree of an unknown pointer");
  // Queued work may still use the block: freeing waits for the device, as the driver does.
  const int saved = current_device;
  current_device = owner;
  context_synchronize();
  current_device = saved;
  std::lock_guard lock(s.mutex);
  SimDevice& d = s.devices[owner];
  const size_t counted = d.allocations[ptr];
  d.used -= counted;
  d.allocations.erase(ptr);
  cudasim::free_device_memory(reinterpret_cast<void*>(ptr), counted);
  return CUDA_SUCCESS;
}
CUresult pointer_attribute(void* data, int attribute, CUdeviceptr ptr) {
  if (attribute != CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL) {
    return fail(CUDA_ERROR_INVALID_VALUE, "cuPointerGetAttribute: the simulator answers only "
                                          "CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL");
  }
  Simulator& s = sim();
  std::lock_guard lock(s.mutex);
  for (size_t i = 0; i < s.devices.size(); ++i) {
    if (in_allocation(s.devices[i].allocations, ptr, 1)) {
      *static_cast<int*>(data) = static_cast<int>(i);
      return CUDA_SUCCESS;
    }
  }
  return fail(CUDA_ERROR_INVALID_VALUE, "cuPointerGetAttribute: not a device pointer");
}
CUresult host_alloc(void** ptr, size_t bytes, unsigned) {
  const size_t rounded = (std::max<size_t>(bytes, 1) + 4095) / 4096 * 4096;
  void* memory = std::aligned_alloc(4096, rounded);
  if (!memory) return fail(CUDA_ERROR_OUT_OF_MEMORY, "host memory exhausted");
  Simulator& s = sim();
  std::lock_guard lock(s.mutex);
  s.pinned.emplace(reinterpret_cast<uintptr_t>(memory), rounded);
  *ptr = memory;
  return CUDA_SUCCESS;
}
CUresult free_host(void* ptr) {
  Simulator& s = sim();
  std::lock_guard lock(s.mutex);
  if (!s.pinned.erase(reinterpret_cast<uintptr_t>(ptr))) {
    return fail(CUDA_ERROR_INVALID_VALUE, "cuMemFreeHost of an unknown pointer");
  }
  std::free(ptr);
  return CUDA_SUCCESS;
}
CUresult host_device_pointer(CUdeviceptr* ptr, void* host, unsigned) {
  if (!is_pinned(host, 1)) return fail(CUDA_ERROR_INVALID_VALUE, "not page-locked memory");
  *ptr = reinterpret_cast<CUdeviceptr>(host);  // one address space, as with UVA
  return CUDA_SUCCESS;
}
CUresult copy_htod(CUdeviceptr dst, const void* src, size_t bytes, CUstream stream) {
  if (const CUresult r = check_range(dst, bytes, "cuMemcpyHtoDAsync")) return r;
  if (is_pinned(src, bytes)) return copy_async(reinterpret_cast<void*>(dst), src, bytes, stream);
  // From pageable memory the driver stages the data before returning, so the caller may
  // reuse its buffer at once; so does the simulator.
  auto staged = std::make_shared<std::vector<std::byte>>(
      static_cast<const std::byte*>(src), static_cast<const std::byte*>(src) + bytes);
  auto s = stream_of(stream);
  if (!s) return fail(CUDA_ERROR_INVALID_HANDLE, "unknown stream");
  enqueue(s, [=] { std::memcpy(reinterpret_cast<void*>(dst), staged->data(), bytes); });
  return CUDA_SUCCESS;
}
CUresult copy_dtoh(void* dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  if (const CUresult r = check_range(src, bytes, "cuMemcpyDtoHAsync")) return r;
  if (const CUresult r = copy_async(dst, reinterpret_cast<const void*>(src), bytes, stream)) {
    return r;
  }
  // Into pageable memory the copy is synchronous, as on a GPU.
  if (!is_pinned(dst, bytes)) return drain(*stream_of(stream));
  return CUDA_SUCCESS;
}
CUresult copy_dtod(CUdeviceptr dst, CUdeviceptr src, size_t bytes, CUstream stream) {
  if (const CUresult r = check_range(dst, bytes, "cuMemcpyDtoDAsync")) return r;
  if (const CUresult r = check_range(src, bytes, "cuMemcpyDtoDAsync")) return r;
  return copy_async(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), bytes,
                    stream);
}
CUresult copy_peer(CUdeviceptr dst, CUcontext, CUdeviceptr src, CUcontext, size_t bytes,
                   CUstream stream) {
  return copy_dtod(dst, src, bytes, stream);
}
CUresult memset_d8(CUdeviceptr dst, unsigned char value, size_t count, CUstream handle) {
  if (const CUresult r = check_range(dst, count, "cuMemsetD8Async")) return r;
  auto stream = stream_of(handle);
  if (!stream) return fail(CUDA_ERROR_INVALID_HANDLE, "unknown stream");
  enqueue(stream, [=] { std::memset(reinterpret_cast<void*>(dst), value, count); });
  return CUDA_SUCCESS;
}
CUresult stream_create(CUstream* handle, unsigned flags) {
  if (current_device < 0) return fail(CUDA_ERROR_INVALID_CONTEXT, "no current context");
  auto stream = Simulator::start_stream(current_device, !(flags & CU_STREAM_NON_BLOCKING), false);
  Simulator& s = sim();
  std::lock_guard lock(s.mutex);
  *handle = reinterpret_cast<CUstream>(stream.get());
  s.streams.emplace(*handle, stream);
  SimDevice& d = s.devices[current_device];
  std::erase_if(d.streams, [](const auto& weak) { return weak.expired(); });
  d.streams.push_back(stream);
  return CUDA_SUCCESS;
}
CUresult stream_destroy(CUstream handle) {
  std::shared_ptr<SimStream> stream;
  {
    Simulator& s = sim();
    std::lock_guard lock(s.mutex);
    auto it = s.streams.find(handle);
    if (it == s.streams.end()) return fail(CUDA_ERROR_INVALID_HANDLE, "unknown stream");
    stream = std::move(it->second);
    s.streams.erase(it);
  }
  Simulator::stop(*stream);  // runs what is queued, then ends the worker
  return CUDA_SUCCESS;
}
CUresult stream_synchronize(CUstream handle) {
  auto stream = stream_of(handle);
  if (!stream) return fail(CUDA_ERROR_INVALID_HANDLE, "unknown stream");
  return drain(*stream);
}
CUresult stream_query(CUstream handle) {
  auto stream = stream_of(handle);
  if (!stream) return fail(CUDA_ERROR_INVALID_HANDLE, "unknown stream");
  std::lock_guard lock(queues_mutex);
  return stream->completed >= stream->enqueued ? CUDA_SUCCESS : CUDA_ERROR_NOT_READY;
}

// Shared: a destroyed event whose record is still queued stays alive until it has run, as
// the driver allows.
std::shared_ptr<SimEvent> event_of(CUevent handle) {
  Simulator& s = sim();
  std::lock_guard lock(s.mutex);
  auto it = s.events.find(handle);
  return it == s.events.end() ? nullptr : it->second;
}
CUresult stream_wait_event(CUstream handle, CUevent event_handle, unsigned) {
  auto stream = stream_of(handle);
  std::shared_ptr<SimEvent> event = event_of(event_handle);
  if (!stream || !event) return fail(CUDA_ERROR_INVALID_HANDLE, "unknown stream or event");
  if (!event->stream) return CUDA_SUCCESS;  // never recorded: nothing to wait for
  std::shared_ptr<SimStream> source;
  uint64_t position;
  {
    std::lock_guard lock(queues_mutex);
    source = event->stream;
    position = event->position;
  }
  enqueue(stream, [] {}, {{source, position}});
  return CUDA_SUCCESS;
}
CUresult event_create(CUevent* handle, unsigned flags) {
  auto event = std::make_shared<SimEvent>();
  event->timing = !(flags & CU_EVENT_DISABLE_TIMING);
  Simulator& s = sim();
  std::lock_guard lock(s.mutex);
  *handle = reinterpret_cast<CUevent>(event.get());
  s.events.emplace(*handle, std::move(event));
  return CUDA_SUCCESS;
}
CUresult event_record(CUevent handle, CUstream stream_handle) {
  std::shared_ptr<SimEvent> event = event_of(handle);
  auto stream = stream_of(stream_handle);
  if (!event || !stream) return fail(CUDA_ERROR_INVALID_HANDLE, "unknown stream or event");
  const uint64_t position =
      enqueue(stream, [event] { event->time = std::chrono::steady_clock::now(); });
  std::lock_guard lock(queues_mutex);
  event->stream = stream;
  event->position = position;
  return CUDA_SUCCESS;
}
CUresult event_query(CUevent handle) {
  std::shared_ptr<SimEvent> event = event_of(handle);
  if (!event) return fail(CUDA_ERROR_INVALID_HANDLE, "unknown event");
  std::lock_guard lock(queues_mutex);
  return !event->stream || event->stream->completed >= event->position ? CUDA_SUCCESS
                                                                       : CUDA_ERROR_NOT_READY;
}
CUresult event_synchronize(CUevent handle) {
  std::shared_ptr<SimEvent> event = event_of(handle);
  if (!event) return fail(CUDA_ERROR_INVALID_HANDLE, "unknown event");
  ++host_waits;
  std::unique_lock lock(queues_mutex);
  if (!event->stream) return CUDA_SUCCESS;
  queues_changed.wait(lock, [&] { return event->stream->completed >= event->position; });
  return CUDA_SUCCESS;
}
CUresult event_elapsed(float* ms, CUevent start_handle, CUevent end_handle) {
  std::shared_ptr<SimEvent> start = event_of(start_handle);
  std::shared_ptr<SimEvent> end = event_of(end_handle);
  if (!start || !end) return fail(CUDA_ERROR_INVALID_HANDLE, "unknown event");
  if (!start->timing || !end->timing || !start->stream || !end->stream) {
    return fail(CUDA_ERROR_INVALID_HANDLE, "event without timing, or never recorded");
  }
  if (event_query(start_handle) || event_query(end_handle)) return CUDA_ERROR_NOT_READY;
  *ms = std::chrono::duration<float, std::milli>(end->time - start->time).count();
  return CUDA_SUCCESS;
}
CUresult event_destroy(CUevent handle) {
  Simulator& s = sim();
  std::lock_guard lock(s.mutex);
  return s.events.erase(handle) ? CUDA_SUCCESS
                                : fail(CUDA_ERROR_INVALID_HANDLE, "unknown event");
}

// A module's image is a translation unit made by module_source.h: CUDA C++ source with the
// prelude and the kernel descriptors, compiled once and cached on disk (host_module.h).
CUresult module_load(CUmodule* handle, const void* image) {
  try {
    const cudasim::HostModule& module =
        cudasim::load_host_module(std::string(static_cast<const char*>(image)));
    *handle = reinterpret_cast<CUmodule>(const_cast<cudasim::HostModule*>(&module));
  } catch (const std::exception& e) {
    return fail(CUDA_ERROR_INVALID_IMAGE, e.what());
  }
  return CUDA_SUCCESS;
}
CUresult module_function(CUfunction* function, CUmodule handle, const char* name) {
  const auto* module = reinterpret_cast<const cudasim::HostModule*>(handle);
  auto it = module->kernels.find(name);
  if (it == module->kernels.end()) {
    return fail(CUDA_ERROR_NOT_FOUND, std::string("no kernel named '") + name + "' in the module");
  }
  *function = reinterpret_cast<CUfunction>(const_cast<TsimKernel*>(it->second));
  return CUDA_SUCCESS;
}
// Launches queued from the module may still run, and modules are shared by source: the
// library stays loaded for the life of the process.
CUresult module_unload(CUmodule) { return CUDA_SUCCESS; }

// The arguments are copied at launch, as the driver does, so the caller's may change.
struct PackedArguments {
  std::vector<std::byte> bytes;
  std::vector<size_t> offsets;
};

// The blocks of `threads` threads and `shared_bytes` of dynamic shared memory a simulated
// multiprocessor holds at once: an sm_80's limits (2048 threads, 32 blocks, 164 KiB).
int blocks_per_multiprocessor(uint64_t threads, size_t shared_bytes) {
  uint64_t blocks = std::min<uint64_t>(32, 2048 / std::max<uint64_t>(threads, 1));
  if (shared_bytes > 0) blocks = std::min<uint64_t>(blocks, (164u << 10) / shared_bytes);
  return static_cast<int>(blocks);
}

CUresult occupancy(int* blocks, CUfunction, int block_size, size_t shared_bytes) {
  if (block_size <= 0 || block_size > 1024) {
    return fail(CUDA_ERROR_INVALID_VALUE, "block size " + std::to_string(block_size));
  }
  *blocks = blocks_per_multiprocessor(static_cast<uint64_t>(block_size), shared_bytes);
  return CUDA_SUCCESS;
}

CUresult launch_as(bool cooperative, CUfunction function, unsigned gx, unsigned gy, unsigned gz,
                   unsigned bx, unsigned by, unsigned bz, unsigned shared_bytes, CUstream handle,
                   void** params, void** extra) {
  const auto* kernel = reinterpret_cast<const TsimKernel*>(function);
  auto stream = stream_of(handle);
  if (!stream) return fail(CUDA_ERROR_INVALID_HANDLE, "unknown stream");
  if (extra) return fail(CUDA_ERROR_INVALID_VALUE, "launch arguments through `extra`");
  const uint64_t threads = uint64_t{bx} * by * bz;
  if (!gx || !gy || !gz || !bx || !by || !bz || threads > 1024 || bz > 64 || gy > 65535 ||
      gz > 65535) {
    return fail(CUDA_ERROR_INVALID_VALUE,
                "invalid launch shape: grid (" + std::to_string(gx) + ", " + std::to_string(gy) +
                    ", " + std::to_string(gz) + "), block (" + std::to_string(bx) + ", " +
                    std::to_string(by) + ", " + std::to_string(bz) + ")");
  }
  if (shared_bytes > (163u << 10)) {
    return fail(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "dynamic shared memory over 163 KiB");
  }
  const uint64_t most = uint64_t{static_cast<unsigned>(multiprocessors())} *
                        blocks_per_multiprocessor(threads, shared_bytes);
  if (cooperative && uint64_t{gx} * gy * gz > most) {
    return fail(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE,
                "a cooperative launch of " + std::to_string(uint64_t{gx} * gy * gz) +
                    " blocks; the device holds " + std::to_string(most) + " of this shape at once");
  }
  auto packed = std::make_shared<PackedArguments>();
  size_t size = 0;
  for (int i = 0; i < kernel->nparams; ++i) {
    const size_t align = std::max<size_t>(kernel->param_aligns[i], 1);
    size = (size + align - 1) / align * align;
    packed->offsets.push_back(size);
    size += kernel->param_sizes[i];
  }
  packed->bytes.resize(std::max<size_t>(size, 1) + 64);
  // Aligned for every parameter type: the storage is offset to a 64-byte boundary.
  const size_t base = (64 - reinterpret_cast<uintptr_t>(packed->bytes.data()) % 64) % 64;
  for (auto& offset : packed->offsets) offset += base;
  for (int i = 0; i < kernel->nparams; ++i) {
    std::memcpy(packed->bytes.data() + packed->offsets[i], params[i], kernel->param_sizes[i]);
  }
  const cudasim::LaunchShape shape{{gx, gy, gz}, {bx, by, bz}, shared_bytes};
  enqueue(stream, [kernel, shape, packed, cooperative] {
    std::vector<void*> args;
    for (size_t offset : packed->offsets) args.push_back(packed->bytes.data() + offset);
    cudasim::run_kernel(*kernel, shape, args.data(), cooperative);
  });
  return CUDA_SUCCESS;
}

CUresult launch(CUfunction function, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                unsigned by, unsigned bz, unsigned shared_bytes, CUstream handle,
                void** params, void** extra) {
  return launch_as(false, function, gx, gy, gz, bx, by, bz, shared_bytes, handle, params, extra);
}

CUresult launch_cooperative(CUfunction function, unsigned gx, unsigned gy, unsigned gz,
                            unsigned bx, unsigned by, unsigned bz, unsigned shared_bytes,
                            CUstream handle, void** params) {
  return launch_as(true, function, gx, gy, gz, bx, by, bz, shared_bytes, handle, params, nullptr);
}

const char* last_detail() { return error_detail.empty() ? nullptr : error_detail.c_str(); }

CUresult launch_host_func(CUstream handle, void (*fn)(void*), void* data) {
  auto stream = stream_of(handle);
  if (!stream) return fail(CUDA_ERROR_INVALID_HANDLE, "unknown stream");
  enqueue(stream, [fn, data] { fn(data); });
  return CUDA_SUCCESS;
}

}  // namespace

uint64_t simulated_host_waits() { return host_waits.load(); }

const DriverApi* simulated_driver() {
  static const DriverApi api = {
      "simulator", init, driver_version, error_string, error_name, device_count, device_get,
      device_name, device_attribute, device_total_mem, primary_context, set_current,
      context_synchronize, mem_info, mem_alloc, mem_free, host_alloc, free_host,
      host_device_pointer, copy_htod, copy_dtoh, copy_dtod, copy_peer, memset_d8,
      pointer_attribute, stream_create, stream_destroy, stream_synchronize, stream_query, stream_wait_event,
      event_create, event_record, event_query, event_synchronize, event_elapsed, event_destroy,
      module_load, module_function, module_unload, launch, launch_host_func,
      launch_cooperative, occupancy, last_detail, cudasim::checking_bounds()};
  return &api;
}

}  // namespace tessera::cuda
