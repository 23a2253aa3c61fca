#pragma once
// The simulator's device memory: host memory, laid out for bounds checking when asked.
//
// Normally an allocation is a 256-byte aligned heap block rounded to 256 bytes, as
// cuMemAlloc's granularity. With TESSERA_CUDA_SIM_CHECK=1 each allocation instead ends
// exactly where an inaccessible guard page begins, so a kernel's first access past the end
// of an array faults and the fault trap (fault_trap.h) reports it with block and thread ids;
// the start is aligned to the largest power of two up to 256 that divides the size, which
// keeps every element of an array of that size aligned. Freed allocations give their memory
// back but stay inaccessible while they are among the last 4096 freed, so a kernel given a
// stale pointer faults too. Accesses a little before the start of an allocation are not caught.

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace tessera::cudasim {

// TESSERA_CUDA_SIM_CHECK is set (to anything but "" or "0").
bool checking_bounds();

// What a device allocation of `bytes` (> 0) counts against the simulated device's capacity.
size_t counted_bytes(size_t bytes);
// Host memory standing for a device allocation of `bytes`; null when host memory is
// exhausted.
void* allocate_device_memory(size_t bytes);
// Frees memory from allocate_device_memory, given the bytes it counted.
void free_device_memory(void* ptr, size_t counted);

// What lies at `address`, for the report of a memory fault: which allocation of `live`
// (start -> size) it is near or in, whether it is in a freed one, or a null pointer.
std::string describe_device_address(const std::map<uintptr_t, size_t>& live, uintptr_t address);

}  // namespace tessera::cudasim
