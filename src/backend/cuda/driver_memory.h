#pragma once
// The memory pools' view of one CUDA device, and each device's pool: raw allocations and
// stream-ordered events through the driver table.

#include "backend/cuda/memory_pool.h"
#include "backend/cuda/pinned_pool.h"

namespace tessera::cuda {

// The pool of `device` (created on first use); CudaRuntimeError for a device that does
// not exist.
MemoryPool& device_pool(int device);
// The allocator Buffers on `device` use: the pool, on the device's current stream.
Allocator& device_allocator(int device);
// The process's page-locked host memory pool.
PinnedMemoryPool& pinned_pool();

}  // namespace tessera::cuda
