#pragma once
// Memory faults in simulated kernels become kernel errors. A kernel that reads or writes
// where it must not (past the end of an array, through a stale or null pointer, beyond its
// stack) would crash the process; instead the fault ends the CUDA thread, and its launch
// fails with CUDA_ERROR_ILLEGAL_ADDRESS and a message naming the block, the thread, the
// address and what lies there. Faults outside kernel code go to the handler that was there
// before (Python's faulthandler, or the default crash).
//
// The signal handler only moves the faulting fiber to a function that reports; the report
// is written in ordinary code, on the fiber's own stack, which the failed thread never
// resumes.

#include <cstdint>
#include <functional>
#include <string>

namespace tessera::cudasim {

// What lies at a faulting address, e.g. "12 bytes past the end of a 4000-byte allocation
// at 0x7f..."; given by the simulated driver, which knows device memory.
using AddressDescriber = std::function<std::string(uintptr_t address)>;

// Installs the handlers for SIGSEGV and SIGBUS (once; later calls only replace the
// describer). Called when the simulated driver starts.
void install_fault_trap(AddressDescriber describe);

// Handlers installed after the trap (Python's faulthandler.enable(), for one) would see
// kernel faults first and lose their address: each launch puts the trap back in front,
// passing other faults on to them.
void keep_fault_trap_in_front();

// Gives the calling OS thread a signal stack of its own, so that a fiber whose stack
// overflowed can still be reported; called by each thread before it runs kernel code.
void ensure_fault_stack();

}  // namespace tessera::cudasim
