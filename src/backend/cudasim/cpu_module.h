#pragma once
// CUDA C++ run on the CPU device: the same translation unit and executor as the simulator's
// (host_module.h, executor.h), over host memory and without a simulated driver, so that a
// RawKernel or ElementwiseKernel written for a GPU runs on tessera's CPU arrays unchanged.
// A launch waits for its kernel: the CPU device has no streams.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "backend/cudasim/sim_abi.h"

namespace tessera::cudasim {

struct HostModule;

class CpuModule {
 public:
  CpuModule(std::string source, std::vector<std::string> options,
            std::vector<std::string> name_expressions);
  // The kernel `name` (a __global__ function or one of the name expressions); compiles the
  // module on first use. cuda::CompileError with the host compiler's log if it does not
  // compile; CudaRuntimeError naming `api` if there is no such kernel.
  const TsimKernel& kernel(const std::string& name, const char* api);
  const std::string& source() const { return source_; }

 private:
  std::string source_;
  std::vector<std::string> options_;
  std::vector<std::string> name_expressions_;
  std::atomic<const HostModule*> module_{nullptr};  // loaded on first use
};

// Runs `kernel` over grid x block threads with `params` (each pointing at an argument's
// value) on the CPU and returns when it has finished. A launch shape CUDA refuses is a
// ValueError, a failure inside the kernel (a trap, an illegal address, a barrier not all
// threads reach) a RuntimeError naming `api`. A `cooperative` launch (cooperative groups'
// grid.sync()) runs every block at once, each on an OS thread of its own, so it takes at
// most kCpuMaxCooperativeBlocks blocks (CudaRuntimeError beyond, as a GPU's
// CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE).
void launch_on_cpu(const TsimKernel& kernel, TsimDim3 grid, TsimDim3 block,
                   size_t shared_bytes, void* const* params, const char* api,
                   bool cooperative = false);

inline constexpr uint64_t kCpuMaxCooperativeBlocks = 1024;

// The most dynamic shared memory a CPU launch takes, as the simulator's devices (163 KiB).
inline constexpr size_t kCpuMaxDynamicShared = size_t{163} << 10;

}  // namespace tessera::cudasim
