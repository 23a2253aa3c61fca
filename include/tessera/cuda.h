#pragma once
// CUDA devices from C++: what exists, streams, events, user kernels and pinned memory. The
// same calls run on a GPU (libcuda, loaded at run time) and on the CUDA simulator
// (TESSERA_CUDA_SIM=1), which runs CUDA code on the CPU. Without either, is_available() is
// false and every other call throws CudaRuntimeError saying so.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tessera/stream.h"

namespace tessera::cuda {

bool is_available();
bool is_simulated();  // the devices are the simulator's
int device_count();

struct DeviceProperties {
  std::string name;
  int major = 0, minor = 0;  // compute capability
  size_t total_memory = 0;
  int multiprocessors = 0;
};
DeviceProperties device_properties(int device);
// CuPy's names ("MaxThreadsPerBlock", "ComputeCapabilityMajor", ...) to values.
std::map<std::string, int> device_attributes(int device);
std::pair<size_t, size_t> mem_info(int device);  // free and total bytes
void synchronize_device(int device);

Stream create_stream(int device, bool non_blocking);
void destroy_stream(const Stream& stream);
bool stream_done(const Stream& stream);  // all work queued on it has finished

class Event {
 public:
  Event(int device, bool timing = true, bool blocking = false);
  ~Event();
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;

  void record(const Stream& stream);
  bool done() const;
  void synchronize() const;
  int device() const { return device_; }
  uintptr_t handle() const { return handle_; }

 private:
  int device_;
  uintptr_t handle_;
};
// Milliseconds between two recorded events (meaningless on the simulator).
float elapsed_ms(const Event& start, const Event& end);
// Work queued on `stream` after this call waits for `event`.
void wait_event(const Stream& stream, const Event& event);
// Work queued on `waiter` after this call waits for the work queued so far on `producer`, a
// stream of the same device, through an event: the host does not wait. Either may be
// another library's stream (a Stream over its driver handle; 1 and 2 are the driver's
// legacy and per-thread default streams).
void stream_wait(const Stream& waiter, const Stream& producer);

// The CUDA device whose memory `ptr` points into; -1 when it is no device's (host memory),
// or when there is no CUDA.
int pointer_device(uintptr_t ptr);

// A module of user kernels compiled from CUDA C++: NVRTC for GPUs (sm_XX of the device),
// the host compiler for the simulator (which also checks the source with NVRTC when it is
// installed, so that what runs here compiles for GPUs). Compile errors throw
// tessera::cuda::CompileError carrying the compiler's log. tessera's own generated kernels
// skip that check on the simulator (`nvrtc_check` false): a test compiles every kernel the
// generator can emit with NVRTC and ptxas, once, instead of each run paying for it.
class Module {
 public:
  Module(std::string source, std::vector<std::string> options,
         std::vector<std::string> name_expressions, bool nvrtc_check = true);
  ~Module();
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;
  // The kernel named `name` (extern "C") or by one of the name expressions, loaded on
  // `device`; a handle for launch().
  uintptr_t function(const std::string& name, int device, const char* api);
  const std::string& source() const { return source_; }

 private:
  struct Loaded;
  std::string source_;
  std::vector<std::string> options_;
  std::vector<std::string> name_expressions_;
  bool nvrtc_check_;
  std::vector<std::unique_ptr<Loaded>> loaded_;  // per device
};

// The device address of page-locked host memory allocated mapped (mapped_array).
uintptr_t host_device_pointer(uintptr_t host);

struct LaunchDims {
  unsigned x = 1, y = 1, z = 1;
};
// Queues `function` on `stream`; params[i] points at the i-th argument's value. A
// `cooperative` launch runs all its blocks at once, so that they can synchronize with each
// other (cooperative groups' grid.sync()); it takes at most max_cooperative_blocks blocks.
void launch(uintptr_t function, LaunchDims grid, LaunchDims block, size_t shared_bytes,
            const Stream& stream, std::vector<void*>& params, const char* api,
            bool cooperative = false);
// The most blocks of `block_threads` threads and `shared_bytes` of dynamic shared memory a
// cooperative launch of `function` may have on `device`: what its multiprocessors hold at
// once.
int max_cooperative_blocks(uintptr_t function, int device, unsigned block_threads,
                           size_t shared_bytes);

}  // namespace tessera::cuda
