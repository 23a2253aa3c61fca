#pragma once
// The device memory pool, one per device: stream-ordered caching as CuPy's MemoryPool and
// PyTorch's caching allocator do it. Asking the driver for memory is slow and synchronizes
// the device, so freed blocks are kept and handed out again.
//
// Requests are rounded to 512 bytes. Small requests (< 1 MiB) are carved from 2 MiB
// segments, large ones from segments rounded to 2 MiB; the two never share a segment, so
// small blocks do not fragment large ones. A cached block is chosen best-fit and split when
// the rest is worth keeping; freed neighbours within one segment merge back.
//
// Stream order: a freed block may still be read or written by work queued on the stream it
// was allocated on. That stream may reuse it at once (its later work runs after); any other
// stream only once an event recorded on that stream at free time has completed.
//
// A zero-byte request is served as a 512-byte block: a valid, unique pointer that is freed
// like any other. (With a DeviceMemory that wants exact allocations, see there.)

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

#include "tessera/buffer.h"

namespace tessera::cuda {

// What the pool needs from one device. Streams and events are opaque handles (0 = the
// device's default stream). Calls may throw on driver errors.
class DeviceMemory {
 public:
  virtual ~DeviceMemory() = default;
  // Memory aligned to 256 bytes (cudaMalloc's guarantee; the simulator's bounds-checking
  // mode aligns to the largest power of two up to 256 dividing `bytes`), or nullptr when
  // out of memory.
  virtual void* raw_allocate(size_t bytes) = 0;
  virtual void raw_free(void* ptr) = 0;
  // For set_limit_fraction and percentages in TESSERA_GPU_MEMORY_LIMIT.
  virtual size_t device_total_bytes() = 0;
  // An event recorded on `stream` now; never 0.
  virtual uintptr_t record_event(uintptr_t stream) = 0;
  virtual bool event_done(uintptr_t event) = 0;
  virtual void synchronize_event(uintptr_t event) = 0;
  virtual void destroy_event(uintptr_t event) = 0;
  // Whether each block must be its own raw allocation of exactly the size asked, freed at
  // once (a driver that checks accesses against allocation bounds): the pool then caches
  // nothing, and keeps only its accounting, limit and out-of-memory handling.
  virtual bool exact_allocations() { return false; }
};

// "1.50 GiB", "512.00 MiB", "100 B": sizes in error messages.
std::string format_bytes(size_t bytes);

class MemoryPool {
 public:
  static constexpr size_t kAlignment = 256;
  static constexpr size_t kRound = 512;
  static constexpr size_t kSmallSize = size_t{1} << 20;     // below this a request is small
  static constexpr size_t kSegmentRound = size_t{2} << 20;  // segments are multiples of this

  // Reads TESSERA_GPU_MEMORY_LIMIT (throws ValueError when malformed). `device` must
  // outlive the pool.
  explicit MemoryPool(DeviceMemory& device, int device_index = 0);
  // Returns the cached segments; segments still in use are left to the driver's teardown,
  // since freeing them under a live array would be worse than the leak.
  ~MemoryPool();
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  // At least `bytes` bytes, 256-byte aligned (in exact mode, aligned as the device's own
  // allocations are), for use on `stream`. Throws OutOfMemoryError
  // after releasing the cache and running the garbage-collection hook have not helped.
  void* allocate(size_t bytes, uintptr_t stream = 0);
  // Frees a pointer from allocate(); nullptr is ignored, any other pointer the pool did
  // not hand out is a ValueError.
  void deallocate(void* ptr);

  // The most bytes the pool may hold from the device (used + cached); 0 = no limit.
  void set_limit(size_t bytes);
  // The limit as a fraction in [0, 1] of the device's memory; 0 = no limit.
  void set_limit_fraction(double fraction);
  size_t get_limit() const;
  // Run when the device is out of memory, without the pool's lock held, before the last
  // retry: the Python layer sets one that runs gc.collect(), whose frees may be enough.
  void set_gc_hook(std::function<void()> hook);

  size_t used_bytes() const;   // handed out and not freed
  size_t total_bytes() const;  // held from the device: used + cached
  size_t free_bytes() const;   // cached
  size_t n_free_blocks() const;
  size_t peak_used_bytes() const;
  AllocatorStats stats() const;
  // Returns every segment with no block in use to the device, after synchronizing the
  // events of its blocks.
  void free_all_blocks();
  // `stream` is about to be destroyed and its queued work has finished: its blocks, in use
  // or cached, belong to the default stream from now on (a block freed later records its
  // event there, and a new stream that reuses the handle's value inherits nothing).
  void retire_stream(uintptr_t stream);

  // The size a request of `bytes` is served with.
  static size_t round_size(size_t bytes);
  // TESSERA_GPU_MEMORY_LIMIT: bytes as an integer ("1073741824") or a percentage of
  // `device_total` ("50%", "12.5%"). Throws ValueError for anything else.
  static size_t parse_limit(std::string_view text, size_t device_total);

 private:
  struct Block;
  struct BySize {
    bool operator()(const Block* a, const Block* b) const;
  };
  using FreeSet = std::set<Block*, BySize>;

  FreeSet& free_set(bool small) { return small ? small_free_ : large_free_; }
  // Free neighbours merge unless each still guards work queued on a different stream.
  static bool can_merge(const Block* a, const Block* b);
  void* try_allocate_locked(size_t size, uintptr_t stream);
  Block* find_cached_locked(size_t size, uintptr_t stream);
  Block* new_segment_locked(size_t size);
  void* hand_out_locked(Block* block, size_t size, uintptr_t stream);
  bool clear_done_events_locked(FreeSet& set);
  void coalesce_locked(FreeSet& set);
  void insert_free_locked(Block* block);
  void absorb_next_locked(Block* block);
  bool release_cached_locked();
  std::string out_of_memory_message_locked(size_t bytes) const;

  size_t request_size(size_t bytes) const {
    return exact_ ? std::max<size_t>(bytes, 1) : round_size(bytes);
  }

  DeviceMemory& device_;
  int device_index_;
  bool exact_;
  mutable std::mutex mutex_;
  FreeSet small_free_;
  FreeSet large_free_;
  std::unordered_map<void*, Block*> live_;
  std::function<void()> gc_hook_;
  size_t limit_ = 0;
  size_t used_ = 0;
  size_t total_ = 0;
  size_t peak_used_ = 0;
  uint64_t allocations_ = 0;
  uint64_t cache_hits_ = 0;
  uint64_t event_seq_ = 0;  // orders the events of one stream, to keep the later on merges
};

// tessera::Allocator over a pool: what a Buffer on a CUDA device allocates from. Each
// request goes to the stream `current_stream` names at the time.
class PoolAllocator final : public Allocator {
 public:
  PoolAllocator(MemoryPool& pool, std::function<uintptr_t()> current_stream);

  void* allocate(size_t bytes) override;
  void deallocate(void* ptr, size_t bytes) noexcept override;
  AllocatorStats stats() const override;
  void release_cached() override;

 private:
  MemoryPool& pool_;
  std::function<uintptr_t()> current_stream_;
};

}  // namespace tessera::cuda
