#pragma once
// Runs a simulated kernel launch on the CPU: the blocks of the grid in parallel on worker
// threads, the threads of each block as fibers (Boost.Context) that switch at barriers and
// warp operations. A block's threads are resumed in order, so a kernel without barriers
// runs each thread to completion, one after the other, at the cost of a function call.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "backend/cudasim/sim_abi.h"

namespace tessera::cudasim {

// A launch that failed inside the kernel: a barrier that not every thread of a block
// reached, a warp operation whose lanes never met, an assert or trap, an out-of-bounds
// access in debug mode. The message names the block and thread ids.
class KernelError : public std::runtime_error {
 public:
  explicit KernelError(const std::string& message, bool illegal_address = false)
      : std::runtime_error(message), illegal_address_(illegal_address) {}
  // A memory fault (CUDA_ERROR_ILLEGAL_ADDRESS), rather than any other failure.
  bool illegal_address() const { return illegal_address_; }

 private:
  bool illegal_address_;
};

struct LaunchShape {
  TsimDim3 grid, block;
  size_t dynamic_shared_bytes = 0;
};

// The runtime table a module is bound to (tsim_bind). Its functions serve the kernel code of
// a running launch only.
const TsimRuntime* runtime_table();

// Runs `kernel` over `shape` with `params` (each pointing at an argument value) and returns
// when every block has finished; throws KernelError, or std::invalid_argument for a shape
// CUDA refuses (an empty grid or block, more than 1024 threads a block). Launches may run
// concurrently (one per simulated stream); each uses the shared worker pool, and the
// calling thread runs blocks too. A `cooperative` launch runs every block at once, each on
// an OS thread of its own, so that its threads can meet at grid.sync() (the caller limits
// its blocks to what a device holds at once, as CUDA does).
void run_kernel(const TsimKernel& kernel, const LaunchShape& shape, void* const* params,
                bool cooperative = false);

// The fault trap's view (fault_trap.h): the top of the fiber stack the calling OS thread
// runs kernel code on, or null when it is not running kernel code. Safe in a signal handler.
void* running_kernel_stack_top();
// Whether `address` lies in the guard page below the stack of the running fiber: the CUDA
// thread's stack overflowed.
bool in_running_stack_guard(uintptr_t address);
// Ends the calling CUDA thread, and its launch, with a memory-fault error; called on the
// faulting thread's fiber.
[[noreturn]] void fail_running_thread_illegal_address(const std::string& message);

}  // namespace tessera::cudasim
