#include "backend/cuda/pinned_pool.h"

#include <cstdio>
#include <limits>
#include <string>

#include "backend/cuda/memory_pool.h"
#include "tessera/errors.h"

namespace tessera::cuda {

PinnedMemoryPool::PinnedMemoryPool(PinnedHost& host) : host_(host) {}

PinnedMemoryPool::~PinnedMemoryPool() {
  try {
    release_cache();
  } catch (...) {
    // A failing driver (a lost context) takes its memory with it.
  }
}

void* PinnedMemoryPool::allocate(size_t bytes) {
  // Beyond any host; rounding it up could overflow.
  if (bytes <= std::numeric_limits<size_t>::max() / 4) {
    size_t size = MemoryPool::round_size(bytes);
    {
      std::lock_guard lock(mutex_);
      auto it = free_.find(size);
      if (it != free_.end() && !it->second.empty()) {
        void* ptr = it->second.back();
        live_.emplace(ptr, size);
        it->second.pop_back();
        --n_free_;
        cached_ -= size;
        used_ += size;
        return ptr;
      }
    }
    // Pinning is slow: other threads keep using the cache meanwhile.
    void* ptr = host_.allocate(size);
    if (!ptr && release_cache()) ptr = host_.allocate(size);
    if (ptr) {
      std::lock_guard lock(mutex_);
      try {
        live_.emplace(ptr, size);
      } catch (...) {
        host_.free(ptr);
        throw;
      }
      used_ += size;
      return ptr;
    }
  }
  std::lock_guard lock(mutex_);
  throw DeviceOutOfMemoryError("[cuda] out of pinned host memory allocating " + format_bytes(bytes) +
                         " (used " + format_bytes(used_) + ", cached " + format_bytes(cached_) +
                         ")");
}

void PinnedMemoryPool::deallocate(void* ptr) {
  if (!ptr) return;
  std::lock_guard lock(mutex_);
  auto it = live_.find(ptr);
  if (it == live_.end()) {
    char text[32];
    std::snprintf(text, sizeof text, "%p", ptr);
    throw ValueError(std::string("[cuda] free of ") + text +
                     ", which the pinned memory pool did not allocate");
  }
  size_t size = it->second;
  free_[size].push_back(ptr);
  live_.erase(it);
  used_ -= size;
  cached_ += size;
  ++n_free_;
}

size_t PinnedMemoryPool::used_bytes() const {
  std::lock_guard lock(mutex_);
  return used_;
}

size_t PinnedMemoryPool::total_bytes() const {
  std::lock_guard lock(mutex_);
  return used_ + cached_;
}

size_t PinnedMemoryPool::free_bytes() const {
  std::lock_guard lock(mutex_);
  return cached_;
}

size_t PinnedMemoryPool::n_free_blocks() const {
  std::lock_guard lock(mutex_);
  return n_free_;
}

void PinnedMemoryPool::free_all_blocks() { release_cache(); }

bool PinnedMemoryPool::release_cache() {
  decltype(free_) cache;
  {
    std::lock_guard lock(mutex_);
    cache.swap(free_);
    cached_ = 0;
    n_free_ = 0;
  }
  // Unpinning is slow too: done without the lock.
  bool released = false;
  for (auto& [size, blocks] : cache) {
    for (void* ptr : blocks) host_.free(ptr);
    released |= !blocks.empty();
  }
  return released;
}

}  // namespace tessera::cuda
