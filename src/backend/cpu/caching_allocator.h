#pragma once
// Host memory for CPU arrays: 64-byte aligned blocks in size classes, freed blocks kept
// for reuse (a fresh large block costs a page fault per 4 KiB on first touch, a reused one
// does not), with a cap on what the cache may hold.

#include <cstddef>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "tessera/buffer.h"

namespace tessera {

class CachingHostAllocator final : public Allocator {
 public:
  // `cache_limit` caps the bytes held in freed blocks.
  explicit CachingHostAllocator(size_t cache_limit);
  ~CachingHostAllocator() override;

  void* allocate(size_t bytes) override;
  void deallocate(void* ptr, size_t bytes) noexcept override;
  AllocatorStats stats() const override;
  void release_cached() override;

  // The block size a request of `bytes` is served with.
  static size_t size_class(size_t bytes);

 private:
  void release_cached_locked();

  mutable std::mutex mutex_;
  std::unordered_map<size_t, std::vector<void*>> free_blocks_;  // by size class
  AllocatorStats stats_;
};

}  // namespace tessera
