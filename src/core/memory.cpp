#include "tessera/memory.h"

#include "backend/backend.h"

namespace tessera {

AllocatorStats memory_stats(Device device) { return backend_for(device).allocator().stats(); }

void release_cached_memory(Device device) { backend_for(device).allocator().release_cached(); }

}  // namespace tessera
