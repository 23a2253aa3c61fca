#pragma once
// Non-temporal stores for results too big for the caches. A regular store first reads its
// cache line from memory (the "read for ownership"), so writing a result costs twice its
// size in traffic, and a program of several steps waits for those reads in its last step
// instead of overlapping them with the others. Streaming stores skip the read and go to
// memory through write-combining buffers. Below the last-level cache size they would
// evict a result that the next operation is about to read, so they are used only above.

#include <cstddef>
#include <cstdint>

namespace tessera::cpu {

// Results of at least this many bytes are written with streaming stores: three quarters
// of the last-level cache (as glibc's memcpy decides), at most 24 MiB.
int64_t streaming_store_min_bytes();

// Copies `bytes` from `src` (any alignment) to `dst` with streaming stores where `dst` is
// aligned, regular stores for the unaligned head and the tail.
void stream_store(const std::byte* src, std::byte* dst, int64_t bytes);

// Orders this thread's streaming stores before its later stores (an sfence): call before
// the thread hands its results over.
void stream_store_fence();

}  // namespace tessera::cpu
