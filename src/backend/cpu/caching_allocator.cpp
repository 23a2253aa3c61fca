#include "backend/cpu/caching_allocator.h"

#include <sys/mman.h>

#include <bit>
#include <cstdlib>
#include <limits>
#include <string>

#include "tessera/errors.h"

namespace tessera {
namespace {

constexpr size_t kAlignment = 64;
constexpr size_t kHugePageHint = size_t{4} << 20;

void* system_allocate(size_t bytes) {
  void* p = nullptr;
  if (posix_memalign(&p, kAlignment, bytes) != 0) return nullptr;
  // Large arrays are streamed through; huge pages cut TLB misses and fault cost.
  if (bytes >= kHugePageHint) madvise(p, bytes, MADV_HUGEPAGE);
  return p;
}

}  // namespace

CachingHostAllocator::CachingHostAllocator(size_t cache_limit) {
  stats_.limit_cached_bytes = cache_limit;
}

CachingHostAllocator::~CachingHostAllocator() { release_cached(); }

size_t CachingHostAllocator::size_class(size_t bytes) {
  if (bytes > (std::numeric_limits<size_t>::max() >> 2)) return bytes;  // allocate() refuses these
  if (bytes <= 512) return bytes <= kAlignment ? kAlignment : (bytes + 63) / 64 * 64;
  // Four classes per power of two: at most 25% slack, few distinct sizes to match.
  size_t top = std::bit_floor(bytes - 1);
  size_t quarter = top / 4;
  return (bytes + quarter - 1) / quarter * quarter;
}

void* CachingHostAllocator::allocate(size_t bytes) {
  if (bytes > (std::numeric_limits<size_t>::max() >> 2)) {
    throw OutOfMemoryError("[allocate] cannot allocate " + std::to_string(bytes) + " bytes on cpu");
  }
  size_t cls = size_class(bytes);
  {
    std::lock_guard lock(mutex_);
    ++stats_.allocations;
    auto it = free_blocks_.find(cls);
    if (it != free_blocks_.end() && !it->second.empty()) {
      void* p = it->second.back();
      it->second.pop_back();
      ++stats_.cache_hits;
      stats_.cached_bytes -= cls;
      stats_.used_bytes += cls;
      stats_.peak_used_bytes = std::max(stats_.peak_used_bytes, stats_.used_bytes);
      return p;
    }
  }
  void* p = system_allocate(cls);
  if (!p) {
    release_cached();
    p = system_allocate(cls);
  }
  std::lock_guard lock(mutex_);
  if (!p) {
    throw OutOfMemoryError("[allocate] out of memory allocating " + std::to_string(bytes) +
                           " bytes on cpu (" + std::to_string(stats_.used_bytes) +
                           " bytes in use)");
  }
  stats_.used_bytes += cls;
  stats_.peak_used_bytes = std::max(stats_.peak_used_bytes, stats_.used_bytes);
  return p;
}

void CachingHostAllocator::deallocate(void* ptr, size_t bytes) noexcept {
  size_t cls = size_class(bytes);
  std::lock_guard lock(mutex_);
  stats_.used_bytes -= cls;
  if (stats_.cached_bytes + cls > stats_.limit_cached_bytes) release_cached_locked();
  if (cls > stats_.limit_cached_bytes) {
    std::free(ptr);
    return;
  }
  try {
    free_blocks_[cls].push_back(ptr);
    stats_.cached_bytes += cls;
  } catch (...) {
    std::free(ptr);  // no memory to remember the block: give it back instead
  }
}

AllocatorStats CachingHostAllocator::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void CachingHostAllocator::release_cached() {
  std::lock_guard lock(mutex_);
  release_cached_locked();
}

void CachingHostAllocator::release_cached_locked() {
  for (auto& [cls, blocks] : free_blocks_) {
    for (void* p : blocks) std::free(p);
  }
  free_blocks_.clear();
  stats_.cached_bytes = 0;
}

}  // namespace tessera
