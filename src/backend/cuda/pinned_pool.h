#pragma once
// Page-locked host memory, cached as CuPy's PinnedMemoryPool does: copies between the host
// and a device run asynchronously only from pinned memory, and pinning (cudaHostAlloc) is
// slow, so freed blocks are kept and reused for requests of the same rounded size.
// Requests are rounded to 512 bytes; a zero-byte request gets a unique 512-byte block.
//
// Keeping a block alive until an asynchronous copy from it has finished is the copy's
// business, not the pool's: the pool hands a freed block out again at once.

#include <cstddef>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace tessera::cuda {

// Where pinned memory comes from (cudaHostAlloc / cudaFreeHost, or plain memory in the
// simulator). Calls may throw on driver errors.
class PinnedHost {
 public:
  virtual ~PinnedHost() = default;
  // nullptr when out of memory.
  virtual void* allocate(size_t bytes) = 0;
  virtual void free(void* ptr) = 0;
};

class PinnedMemoryPool {
 public:
  // `host` must outlive the pool.
  explicit PinnedMemoryPool(PinnedHost& host);
  // Frees the cached blocks; blocks still in use are left to the driver's teardown.
  ~PinnedMemoryPool();
  PinnedMemoryPool(const PinnedMemoryPool&) = delete;
  PinnedMemoryPool& operator=(const PinnedMemoryPool&) = delete;

  // Throws OutOfMemoryError when the host refuses even after the cache is freed.
  void* allocate(size_t bytes);
  // nullptr is ignored; a pointer the pool did not hand out is a ValueError.
  void deallocate(void* ptr);

  size_t used_bytes() const;
  size_t total_bytes() const;  // used + cached
  size_t free_bytes() const;   // cached
  size_t n_free_blocks() const;
  void free_all_blocks();

 private:
  // Frees every cached block; false when there was none.
  bool release_cache();

  PinnedHost& host_;
  mutable std::mutex mutex_;
  std::unordered_map<size_t, std::vector<void*>> free_;  // by rounded size
  std::unordered_map<void*, size_t> live_;
  size_t used_ = 0;
  size_t cached_ = 0;
  size_t n_free_ = 0;
};

}  // namespace tessera::cuda
