#include "backend/cuda/memory_pool.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <memory>
#include <vector>

#include "tessera/errors.h"

namespace tessera::cuda {
namespace {

// Beyond any device; rounding it up could overflow.
constexpr size_t kMaxRequest = std::numeric_limits<size_t>::max() / 4;

size_t round_up(size_t n, size_t unit) { return (n + unit - 1) / unit * unit; }

}  // namespace

// One piece of a segment: handed out, or cached in a free set.
struct MemoryPool::Block {
  std::byte* ptr = nullptr;
  size_t size = 0;
  bool small = false;
  bool allocated = false;
  uintptr_t stream = 0;  // the stream it was (last) allocated on
  uintptr_t event = 0;   // nonzero: recorded at free on `stream`; other streams wait for it
  uint64_t event_seq = 0;
  Block* prev = nullptr;  // neighbours within one segment
  Block* next = nullptr;
};

bool MemoryPool::BySize::operator()(const Block* a, const Block* b) const {
  if (a->size != b->size) return a->size < b->size;
  return std::less<>()(a->ptr, b->ptr);
}

bool MemoryPool::can_merge(const Block* a, const Block* b) {
  return a && b && !a->allocated && !b->allocated &&
         (a->event == 0 || b->event == 0 || a->stream == b->stream);
}

std::string format_bytes(size_t bytes) {
  static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  double value = static_cast<double>(bytes) / 1024;
  size_t unit = 0;
  while (value >= 1024 && unit + 1 < std::size(kUnits)) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.2f %s", value, kUnits[unit]);
  return text;
}

MemoryPool::MemoryPool(DeviceMemory& device, int device_index)
    : device_(device), device_index_(device_index), exact_(device.exact_allocations()) {
  const char* env = std::getenv("TESSERA_GPU_MEMORY_LIMIT");
  if (env && *env) limit_ = parse_limit(env, device_.device_total_bytes());
}

MemoryPool::~MemoryPool() {
  std::lock_guard lock(mutex_);
  try {
    release_cached_locked();
  } catch (...) {
    // A failing driver (a lost context) takes its memory with it.
  }
  std::vector<Block*> rest;
  for (auto& [ptr, block] : live_) rest.push_back(block);
  for (FreeSet* set : {&small_free_, &large_free_})
    rest.insert(rest.end(), set->begin(), set->end());
  for (Block* block : rest) delete block;
}

size_t MemoryPool::round_size(size_t bytes) { return round_up(std::max<size_t>(bytes, 1), kRound); }

void* MemoryPool::allocate(size_t bytes, uintptr_t stream) {
  std::function<void()> hook;
  {
    std::lock_guard lock(mutex_);
    ++allocations_;
    if (bytes > kMaxRequest) throw DeviceOutOfMemoryError(out_of_memory_message_locked(bytes));
    if (void* ptr = try_allocate_locked(request_size(bytes), stream)) return ptr;
    hook = gc_hook_;
  }
  if (hook) {
    hook();  // frees arrays, which calls deallocate: the lock must not be held
    std::lock_guard lock(mutex_);
    if (void* ptr = try_allocate_locked(request_size(bytes), stream)) return ptr;
  }
  std::lock_guard lock(mutex_);
  throw DeviceOutOfMemoryError(out_of_memory_message_locked(bytes));
}

void* MemoryPool::try_allocate_locked(size_t size, uintptr_t stream) {
  if (exact_) {  // a segment of its own, exactly the size asked: nothing to reuse or split
    Block* block = new_segment_locked(size);
    return block ? hand_out_locked(block, size, stream) : nullptr;
  }
  Block* block = find_cached_locked(size, stream);
  // Events completed since their blocks were freed may let neighbours merge into a fit.
  if (!block && clear_done_events_locked(free_set(size < kSmallSize))) {
    coalesce_locked(free_set(size < kSmallSize));
    block = find_cached_locked(size, stream);
  }
  if (block) {
    ++cache_hits_;
    return hand_out_locked(block, size, stream);
  }
  block = new_segment_locked(size);
  if (!block && release_cached_locked()) block = new_segment_locked(size);
  return block ? hand_out_locked(block, size, stream) : nullptr;
}

MemoryPool::Block* MemoryPool::find_cached_locked(size_t size, uintptr_t stream) {
  FreeSet& set = free_set(size < kSmallSize);
  Block key{.size = size};
  for (auto it = set.lower_bound(&key); it != set.end(); ++it) {
    Block* block = *it;
    if (block->event == 0 || block->stream == stream) return block;
    if (device_.event_done(block->event)) {
      device_.destroy_event(block->event);
      block->event = 0;
      return block;
    }
  }
  return nullptr;
}

MemoryPool::Block* MemoryPool::new_segment_locked(size_t size) {
  bool small = size < kSmallSize;
  size_t bytes = exact_ ? size : small ? kSegmentRound : round_up(size, kSegmentRound);
  if (limit_ && total_ + bytes > limit_) {
    if (total_ + size > limit_) return nullptr;
    bytes = size;  // room under the limit for the request, not for its rounding up
  }
  auto block = std::make_unique<Block>();
  void* ptr = device_.raw_allocate(bytes);
  if (!ptr) return nullptr;
  total_ += bytes;
  block->ptr = static_cast<std::byte*>(ptr);
  block->size = bytes;
  block->small = small;
  return block.release();
}

void* MemoryPool::hand_out_locked(Block* block, size_t size, uintptr_t stream) {
  FreeSet& set = free_set(block->small);
  set.erase(block);
  size_t rest = block->size - size;
  // A large remainder under 1 MiB is not worth a block of its own (PyTorch's rule).
  if (rest >= (block->small ? kRound : kSmallSize)) {
    auto* tail = new Block{.ptr = block->ptr + size,
                           .size = rest,
                           .small = block->small,
                           .stream = block->stream,
                           .event = block->event,
                           .event_seq = block->event_seq,
                           .prev = block,
                           .next = block->next};
    if (block->next) block->next->prev = tail;
    block->next = tail;
    block->size = size;
    block->event = 0;  // now the tail's: it still guards the tail for other streams
    set.insert(tail);
  } else if (block->event) {
    device_.destroy_event(block->event);
    block->event = 0;
  }
  block->allocated = true;
  block->stream = stream;
  live_.emplace(block->ptr, block);
  used_ += block->size;
  peak_used_ = std::max(peak_used_, used_);
  return block->ptr;
}

void MemoryPool::deallocate(void* ptr) {
  if (!ptr) return;
  std::unique_lock lock(mutex_);
  auto it = live_.find(ptr);
  if (it == live_.end()) {
    char text[32];
    std::snprintf(text, sizeof text, "%p", ptr);
    throw ValueError(std::string("[cuda] free of ") + text + ", which the memory pool of cuda:" +
                     std::to_string(device_index_) + " did not allocate");
  }
  Block* block = it->second;
  if (exact_) {
    live_.erase(it);
    used_ -= block->size;
    total_ -= block->size;
    // The driver's free waits for the device; it runs outside the lock, so that work
    // finishing meanwhile may free its own blocks.
    std::unique_ptr<Block> owned(block);
    lock.unlock();
    device_.raw_free(owned->ptr);
    return;
  }
  // Recorded under the lock, so that events of one stream are numbered in stream order.
  uintptr_t event = device_.record_event(block->stream);
  live_.erase(it);
  block->allocated = false;
  block->event = event;
  block->event_seq = ++event_seq_;
  used_ -= block->size;
  insert_free_locked(block);
}

void MemoryPool::insert_free_locked(Block* block) {
  FreeSet& set = free_set(block->small);
  if (can_merge(block->prev, block)) {
    set.erase(block->prev);
    block = block->prev;
    absorb_next_locked(block);
  }
  if (can_merge(block, block->next)) {
    set.erase(block->next);
    absorb_next_locked(block);
  }
  set.insert(block);
}

void MemoryPool::absorb_next_locked(Block* block) {
  Block* next = block->next;
  // Of two pending events on one stream the later completes last: it alone guards both.
  bool keep_next = block->event == 0 || (next->event != 0 && next->event_seq > block->event_seq);
  Block* keep = keep_next ? next : block;
  Block* drop = keep_next ? block : next;
  if (drop->event) device_.destroy_event(drop->event);
  block->stream = keep->stream;
  block->event = keep->event;
  block->event_seq = keep->event_seq;
  block->size += next->size;
  block->next = next->next;
  if (next->next) next->next->prev = block;
  delete next;
}

bool MemoryPool::clear_done_events_locked(FreeSet& set) {
  bool cleared = false;
  for (Block* block : set) {
    if (block->event && device_.event_done(block->event)) {
      device_.destroy_event(block->event);
      block->event = 0;
      cleared = true;
    }
  }
  return cleared;
}

void MemoryPool::coalesce_locked(FreeSet& set) {
  // Merging goes forward from the first free block of each run, so run starts survive.
  std::vector<Block*> starts;
  for (Block* block : set) {
    if (!block->prev || block->prev->allocated) starts.push_back(block);
  }
  for (Block* block : starts) {
    while (block->next && !block->next->allocated) {
      if (!can_merge(block, block->next)) {
        block = block->next;
        continue;
      }
      set.erase(block);
      set.erase(block->next);
      absorb_next_locked(block);
      set.insert(block);
    }
  }
}

bool MemoryPool::release_cached_locked() {
  std::vector<Block*> heads;
  for (FreeSet* set : {&small_free_, &large_free_}) {
    for (Block* block : *set) {
      if (!block->prev) heads.push_back(block);
    }
  }
  bool released = false;
  for (Block* head : heads) {
    bool in_use = false;
    for (Block* block = head; block; block = block->next) in_use |= block->allocated;
    if (in_use) continue;
    // Work queued before a block was freed may still touch it. Waiting with the lock held
    // stalls other threads, but only on this rare path.
    for (Block* block = head; block; block = block->next) {
      if (!block->event) continue;
      device_.synchronize_event(block->event);
      device_.destroy_event(block->event);
      block->event = 0;
    }
    device_.raw_free(head->ptr);
    for (Block* block = head; block;) {
      Block* next = block->next;
      free_set(block->small).erase(block);
      total_ -= block->size;
      delete block;
      block = next;
    }
    released = true;
  }
  return released;
}

void MemoryPool::retire_stream(uintptr_t stream) {
  std::lock_guard lock(mutex_);
  for (auto& [ptr, block] : live_) {
    if (block->stream == stream) block->stream = 0;
  }
  for (FreeSet* set : {&small_free_, &large_free_}) {
    for (Block* block : *set) {
      if (block->stream != stream) continue;
      block->stream = 0;
      if (block->event) device_.destroy_event(block->event);  // its work has finished
      block->event = 0;
    }
  }
}

std::string MemoryPool::out_of_memory_message_locked(size_t bytes) const {
  std::string message = "[cuda] out of memory allocating " + format_bytes(bytes) +
                        " on cuda:" + std::to_string(device_index_) + " (used " +
                        format_bytes(used_) + ", cached " + format_bytes(total_ - used_);
  if (limit_) message += ", limit " + format_bytes(limit_);
  return message + ")";
}

void MemoryPool::set_limit(size_t bytes) {
  std::lock_guard lock(mutex_);
  limit_ = bytes;
}

void MemoryPool::set_limit_fraction(double fraction) {
  if (!(fraction >= 0 && fraction <= 1)) {
    char text[64];
    std::snprintf(text, sizeof text, "%g", fraction);
    throw ValueError(std::string("[cuda] set_limit: fraction must be from 0 to 1, got ") + text);
  }
  auto total = static_cast<long double>(device_.device_total_bytes());
  set_limit(static_cast<size_t>(total * fraction));
}

size_t MemoryPool::parse_limit(std::string_view text, size_t device_total) {
  auto invalid = [&] {
    return ValueError(
        "[cuda] TESSERA_GPU_MEMORY_LIMIT must be a number of bytes or a percentage of device "
        "memory from 0% to 100% such as \"50%\", got \"" +
        std::string(text) + "\"");
  };
  bool percent = !text.empty() && text.back() == '%';
  std::string_view number = percent ? text.substr(0, text.size() - 1) : text;
  // from_chars alone would take "-1", "1e3" and "inf".
  bool plain = !number.empty() && std::all_of(number.begin(), number.end(), [&](char c) {
    return (c >= '0' && c <= '9') || (percent && c == '.');
  });
  if (!plain) throw invalid();
  const char* end = number.data() + number.size();
  if (!percent) {
    size_t bytes = 0;
    auto [stop, error] = std::from_chars(number.data(), end, bytes);
    if (error != std::errc() || stop != end) throw invalid();
    return bytes;
  }
  double value = 0;
  auto [stop, error] = std::from_chars(number.data(), end, value);
  if (error != std::errc() || stop != end || value > 100) throw invalid();
  return static_cast<size_t>(static_cast<long double>(device_total) * value / 100);
}

void MemoryPool::set_gc_hook(std::function<void()> hook) {
  std::lock_guard lock(mutex_);
  gc_hook_ = std::move(hook);
}

size_t MemoryPool::get_limit() const {
  std::lock_guard lock(mutex_);
  return limit_;
}

size_t MemoryPool::used_bytes() const {
  std::lock_guard lock(mutex_);
  return used_;
}

size_t MemoryPool::total_bytes() const {
  std::lock_guard lock(mutex_);
  return total_;
}

size_t MemoryPool::free_bytes() const {
  std::lock_guard lock(mutex_);
  return total_ - used_;
}

size_t MemoryPool::n_free_blocks() const {
  std::lock_guard lock(mutex_);
  return small_free_.size() + large_free_.size();
}

size_t MemoryPool::peak_used_bytes() const {
  std::lock_guard lock(mutex_);
  return peak_used_;
}

AllocatorStats MemoryPool::stats() const {
  std::lock_guard lock(mutex_);
  AllocatorStats stats;
  stats.used_bytes = used_;
  stats.cached_bytes = total_ - used_;
  stats.peak_used_bytes = peak_used_;
  stats.limit_cached_bytes = limit_;  // the limit on bytes held (used + cached); 0 = none
  stats.allocations = allocations_;
  stats.cache_hits = cache_hits_;
  return stats;
}

void MemoryPool::free_all_blocks() {
  std::lock_guard lock(mutex_);
  release_cached_locked();
}

PoolAllocator::PoolAllocator(MemoryPool& pool, std::function<uintptr_t()> current_stream)
    : pool_(pool), current_stream_(std::move(current_stream)) {}

void* PoolAllocator::allocate(size_t bytes) { return pool_.allocate(bytes, current_stream_()); }

void PoolAllocator::deallocate(void* ptr, size_t) noexcept {
  try {
    pool_.deallocate(ptr);
  } catch (...) {
    // Only a failing driver gets here (a buffer frees only what it allocated); leaking the
    // block beats terminating inside a destructor.
  }
}

AllocatorStats PoolAllocator::stats() const { return pool_.stats(); }

void PoolAllocator::release_cached() { pool_.free_all_blocks(); }

}  // namespace tessera::cuda
