#pragma once
// Buffer: one block of device memory, shared by every array that views it and returned
// to its allocator when the last one lets go. A buffer may also wrap memory owned by
// someone else (a NumPy array on the CPU), kept alive by `keepalive`.

#include <cstddef>
#include <cstdint>
#include <memory>

#include "tessera/device.h"

namespace tessera {

struct AllocatorStats {
  size_t used_bytes = 0;       // handed out and not yet freed
  size_t cached_bytes = 0;     // freed, kept for reuse
  size_t peak_used_bytes = 0;  // high-water mark of used_bytes
  size_t limit_cached_bytes = 0;
  uint64_t allocations = 0;  // allocate() calls
  uint64_t cache_hits = 0;   // of those, served from the cache
};

class Allocator {
 public:
  virtual ~Allocator() = default;
  // Returns at least `bytes` bytes aligned to 64; throws OutOfMemoryError on failure.
  virtual void* allocate(size_t bytes) = 0;
  virtual void deallocate(void* ptr, size_t bytes) noexcept = 0;
  virtual AllocatorStats stats() const = 0;
  // Returns every cached block to the system.
  virtual void release_cached() = 0;
};

class Buffer {
 public:
  // Allocates `bytes` on `device` from its allocator.
  static std::shared_ptr<Buffer> allocate(Device device, size_t bytes);
  // Wraps memory owned elsewhere; `keepalive` is released when the buffer dies.
  static std::shared_ptr<Buffer> wrap(Device device, void* data, size_t bytes,
                                      std::shared_ptr<void> keepalive);

  Buffer(Allocator* allocator, Device device, void* data, size_t bytes,
         std::shared_ptr<void> keepalive)
      : allocator_(allocator),
        device_(device),
        data_(data),
        bytes_(bytes),
        keepalive_(std::move(keepalive)) {}
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() {
    if (allocator_) allocator_->deallocate(data_, bytes_);
  }

  Device device() const { return device_; }
  std::byte* data() const { return static_cast<std::byte*>(data_); }
  size_t bytes() const { return bytes_; }

 private:
  Allocator* allocator_;  // null for wrapped memory
  Device device_;
  void* data_;
  size_t bytes_;
  std::shared_ptr<void> keepalive_;
};

}  // namespace tessera
