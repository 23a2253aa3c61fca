#pragma once
// The memory pool behind each device's arrays.

#include "tessera/buffer.h"
#include "tessera/device.h"

namespace tessera {

AllocatorStats memory_stats(Device device);
// Returns the cached (freed, kept for reuse) blocks of `device` to the system.
void release_cached_memory(Device device);

}  // namespace tessera
