// The CUDA device memory pool against a fake device: stream-ordered reuse, best fit,
// splitting and merging, the limit and TESSERA_GPU_MEMORY_LIMIT, out-of-memory recovery,
// statistics, use from two threads.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <random>
#include <set>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "backend/cuda/memory_pool.h"
#include "tessera/errors.h"

namespace tessera::cuda {
namespace {

constexpr size_t KiB = size_t{1} << 10;
constexpr size_t MiB = size_t{1} << 20;
constexpr size_t GiB = size_t{1} << 30;
constexpr uintptr_t S1 = 1, S2 = 2, S3 = 3;

std::byte* at(void* p, size_t offset) { return static_cast<std::byte*>(p) + offset; }

// A device of fixed capacity that counts its calls. Its events complete only when the test
// says so (or at once, with auto_done). Unbacked memory is made-up addresses that are 256
// but never 512 aligned, so the pool's own rounding is what keeps blocks aligned.
class FakeDevice final : public DeviceMemory {
 public:
  explicit FakeDevice(size_t capacity, bool backed = false, bool auto_done = false)
      : capacity_(capacity), backed_(backed), auto_done_(auto_done) {}
  ~FakeDevice() override {
    for (auto& [ptr, bytes] : sizes_) {
      if (backed_) std::free(ptr);
    }
  }

  void* raw_allocate(size_t bytes) override {
    std::lock_guard lock(mutex_);
    ++raw_allocs;
    if (in_use + bytes > capacity_) {
      ++failed_allocs;
      return nullptr;
    }
    void* ptr = backed_ ? std::aligned_alloc(256, (bytes + 255) / 256 * 256)
                        : reinterpret_cast<void*>(next_address_);
    next_address_ += (bytes + 511) / 512 * 512 + 512;
    sizes_[ptr] = bytes;
    in_use += bytes;
    return ptr;
  }
  void raw_free(void* ptr) override {
    std::lock_guard lock(mutex_);
    ++raw_frees;
    in_use -= sizes_.at(ptr);
    sizes_.erase(ptr);
    if (backed_) std::free(ptr);
  }
  size_t device_total_bytes() override { return capacity_; }
  uintptr_t record_event(uintptr_t stream) override {
    std::lock_guard lock(mutex_);
    last_event = ++events_recorded;
    last_event_stream = stream;
    live_events_.insert(last_event);
    if (!auto_done_) pending_.insert(last_event);
    return last_event;
  }
  bool event_done(uintptr_t event) override {
    std::lock_guard lock(mutex_);
    ++queries;
    misuse += !live_events_.count(event);
    return !pending_.count(event);
  }
  void synchronize_event(uintptr_t event) override {
    std::lock_guard lock(mutex_);
    ++syncs;
    misuse += !live_events_.count(event);
    pending_.erase(event);
  }
  void destroy_event(uintptr_t event) override {
    std::lock_guard lock(mutex_);
    misuse += !live_events_.erase(event);
    pending_.erase(event);
  }

  void complete(uintptr_t event) {
    std::lock_guard lock(mutex_);
    pending_.erase(event);
  }
  size_t live_events() {
    std::lock_guard lock(mutex_);
    return live_events_.size();
  }

  int raw_allocs = 0, failed_allocs = 0, raw_frees = 0, queries = 0, syncs = 0, misuse = 0;
  size_t in_use = 0;
  uintptr_t events_recorded = 0, last_event = 0, last_event_stream = 0;

 private:
  std::mutex mutex_;
  size_t capacity_;
  bool backed_, auto_done_;
  uintptr_t next_address_ = 0x7f0000000100;
  std::unordered_map<void*, size_t> sizes_;
  std::set<uintptr_t> live_events_, pending_;
};

TEST(MemoryPool, RoundsTo512AndServesZeroBytesAsAUniqueBlock) {
  EXPECT_EQ(MemoryPool::round_size(0), 512u);
  EXPECT_EQ(MemoryPool::round_size(1), 512u);
  EXPECT_EQ(MemoryPool::round_size(512), 512u);
  EXPECT_EQ(MemoryPool::round_size(513), 1024u);
  EXPECT_EQ(MemoryPool::round_size(MiB + 1), MiB + 512);
  FakeDevice dev(64 * MiB);
  MemoryPool pool(dev);
  void* a = pool.allocate(0);
  void* b = pool.allocate(0);
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(b, at(a, 512));  // both carved from one small segment
  EXPECT_EQ(pool.used_bytes(), 1024u);
  EXPECT_EQ(pool.total_bytes(), 2 * MiB);
  EXPECT_EQ(dev.raw_allocs, 1);
  pool.deallocate(a);
  pool.deallocate(b);
  EXPECT_EQ(pool.used_bytes(), 0u);
  EXPECT_EQ(pool.n_free_blocks(), 1u);
}

TEST(MemoryPool, FreedBlockIsReusedOnItsStreamWithoutARawAllocation) {
  FakeDevice dev(64 * MiB);
  MemoryPool pool(dev);
  void* p = pool.allocate(3000, S1);
  pool.deallocate(p);
  EXPECT_EQ(dev.events_recorded, 1u);
  EXPECT_EQ(dev.last_event_stream, S1);
  void* q = pool.allocate(2600, S1);  // the same 3072-byte class; the event is still pending
  EXPECT_EQ(q, p);
  EXPECT_EQ(dev.raw_allocs, 1);
  EXPECT_EQ(dev.queries, 0);  // its own stream need not ask
  EXPECT_EQ(pool.stats().allocations, 2u);
  EXPECT_EQ(pool.stats().cache_hits, 1u);
  EXPECT_EQ(dev.misuse, 0);
}

TEST(MemoryPool, OtherStreamsWaitForTheFreeEvent) {
  FakeDevice dev(64 * MiB);
  MemoryPool pool(dev);
  void* p1 = pool.allocate(2 * MiB, S1);
  pool.deallocate(p1);
  uintptr_t e1 = dev.last_event;
  void* p2 = pool.allocate(2 * MiB, S2);
  EXPECT_NE(p2, p1);
  EXPECT_EQ(dev.raw_allocs, 2);
  pool.deallocate(p2);
  dev.complete(e1);
  EXPECT_EQ(pool.allocate(2 * MiB, S3), p1);
  EXPECT_EQ(dev.raw_allocs, 2);
  void* p4 = pool.allocate(2 * MiB, S3);  // p2's event is pending
  EXPECT_NE(p4, p2);
  EXPECT_EQ(dev.raw_allocs, 3);
  EXPECT_EQ(dev.live_events(), 1u);  // p2's; p1's was destroyed once seen done
  EXPECT_EQ(dev.misuse, 0);
}

TEST(MemoryPool, NeighboursFreedOnTwoStreamsMergeOnceAnEventCompletes) {
  FakeDevice dev(64 * MiB);
  MemoryPool pool(dev);
  void* a = pool.allocate(MiB, S1);  // a 2 MiB segment, split
  void* b = pool.allocate(MiB, S2);  // its untouched second half
  EXPECT_EQ(b, at(a, MiB));
  pool.deallocate(a);
  uintptr_t e1 = dev.last_event;
  pool.deallocate(b);
  EXPECT_EQ(pool.n_free_blocks(), 2u);  // each guards work on its own stream
  void* c = pool.allocate(2 * MiB, S3);
  EXPECT_NE(c, a);
  EXPECT_EQ(dev.raw_allocs, 2);
  dev.complete(e1);
  EXPECT_EQ(pool.allocate(2 * MiB, S2), a);  // merged, guarded by b's event: S2 may use it
  EXPECT_EQ(dev.raw_allocs, 2);
  EXPECT_EQ(pool.n_free_blocks(), 0u);
  EXPECT_EQ(dev.misuse, 0);
}

TEST(MemoryPool, BestFitAmongCachedBlocks) {
  FakeDevice dev(64 * MiB);
  MemoryPool pool(dev);
  void* p4 = pool.allocate(4 * MiB, S1);
  void* p8 = pool.allocate(8 * MiB, S1);
  void* p6 = pool.allocate(6 * MiB, S1);
  for (void* p : {p4, p8, p6}) pool.deallocate(p);
  EXPECT_EQ(pool.allocate(5 * MiB + 512 * KiB, S1), p6);  // 0.5 MiB left: not split
  EXPECT_EQ(pool.used_bytes(), 6 * MiB);
  EXPECT_EQ(pool.allocate(3 * MiB, S1), p4);  // 1 MiB left: split
  EXPECT_EQ(pool.used_bytes(), 9 * MiB);
  EXPECT_EQ(pool.n_free_blocks(), 2u);
  EXPECT_EQ(pool.free_bytes(), 9 * MiB);
  EXPECT_EQ(dev.raw_allocs, 3);
}

TEST(MemoryPool, SplitsASegmentAndMergesNeighboursOnFree) {
  FakeDevice dev(64 * MiB);
  MemoryPool pool(dev);
  void* a = pool.allocate(MiB, S1);
  EXPECT_EQ(pool.n_free_blocks(), 1u);
  EXPECT_EQ(pool.free_bytes(), MiB);
  void* b = pool.allocate(MiB, S1);
  EXPECT_EQ(b, at(a, MiB));
  EXPECT_EQ(dev.raw_allocs, 1);
  pool.deallocate(a);
  uintptr_t e1 = dev.last_event;
  pool.deallocate(b);
  EXPECT_EQ(pool.n_free_blocks(), 1u);
  EXPECT_EQ(pool.free_bytes(), 2 * MiB);
  EXPECT_EQ(dev.live_events(), 1u);  // the later event alone guards the merged block
  dev.complete(e1);
  pool.deallocate(pool.allocate(2 * MiB, S2));  // b's work may still run: not the merged block
  EXPECT_EQ(dev.raw_allocs, 2);
  pool.free_all_blocks();
  EXPECT_EQ(dev.raw_frees, 2);
  EXPECT_EQ(dev.syncs, 2);
  EXPECT_EQ(pool.total_bytes(), 0u);
  EXPECT_EQ(dev.live_events(), 0u);
  EXPECT_EQ(dev.misuse, 0);
}

TEST(MemoryPool, FragmentedSegmentMergesBackAndIsReturned) {
  FakeDevice dev(64 * MiB);
  MemoryPool pool(dev);
  pool.deallocate(pool.allocate(8 * MiB, S1));
  std::vector<void*> p;
  for (int i = 0; i < 8; ++i) p.push_back(pool.allocate(MiB, S1));
  for (int i = 0; i < 8; ++i) EXPECT_EQ(p[i], at(p[0], i * MiB));
  for (int i = 0; i < 8; i += 2) pool.deallocate(p[i]);
  EXPECT_EQ(pool.n_free_blocks(), 4u);
  void* q = pool.allocate(2 * MiB, S1);  // fits no 1 MiB hole
  EXPECT_EQ(dev.raw_allocs, 2);
  pool.deallocate(q);
  for (int i = 1; i < 8; i += 2) pool.deallocate(p[i]);
  EXPECT_EQ(pool.n_free_blocks(), 2u);
  EXPECT_EQ(pool.free_bytes(), 10 * MiB);
  EXPECT_EQ(pool.allocate(8 * MiB, S1), p[0]);  // one block again
  pool.deallocate(p[0]);
  pool.free_all_blocks();
  EXPECT_EQ(dev.raw_frees, 2);
  EXPECT_EQ(pool.total_bytes(), 0u);
  EXPECT_EQ(pool.n_free_blocks(), 0u);
  EXPECT_EQ(dev.in_use, 0u);
  EXPECT_EQ(dev.live_events(), 0u);
}

TEST(MemoryPool, BlocksAre256ByteAlignedAndDisjoint) {
  FakeDevice dev(256 * MiB);
  MemoryPool pool(dev);
  std::vector<size_t> sizes = {0,    1,      255,     257, 511,     513,        1000,
                               4097, 100000, MiB - 1, MiB, MiB + 1, 3 * MiB + 7};
  std::vector<std::pair<uintptr_t, uintptr_t>> spans;
  for (size_t i = 0; i < sizes.size(); ++i) {
    auto p = reinterpret_cast<uintptr_t>(pool.allocate(sizes[i], i % 2 ? S1 : S2));
    EXPECT_EQ(p % MemoryPool::kAlignment, 0u) << sizes[i];
    spans.emplace_back(p, p + MemoryPool::round_size(sizes[i]));
  }
  std::sort(spans.begin(), spans.end());
  for (size_t i = 1; i < spans.size(); ++i) EXPECT_LE(spans[i - 1].second, spans[i].first);
}

TEST(MemoryPool, LimitBySizeReleasesCacheThenFails) {
  FakeDevice dev(64 * MiB);
  MemoryPool pool(dev);
  pool.set_limit(4 * MiB);
  EXPECT_EQ(pool.get_limit(), 4 * MiB);
  void* a = pool.allocate(3 * MiB, S1);  // a 4 MiB segment
  EXPECT_THROW(pool.allocate(2 * MiB, S1), OutOfMemoryError);
  EXPECT_EQ(dev.raw_allocs, 1);  // the limit refused it before the device was asked
  pool.set_limit(0);
  void* b = pool.allocate(2 * MiB, S1);
  EXPECT_EQ(pool.total_bytes(), 6 * MiB);
  pool.deallocate(a);
  pool.deallocate(b);
  pool.set_limit(5 * MiB);
  pool.allocate(5 * MiB, S2);  // both cached segments go back; 5 MiB, not 6, fits the limit
  EXPECT_EQ(dev.raw_frees, 2);
  EXPECT_EQ(dev.syncs, 2);
  EXPECT_EQ(dev.raw_allocs, 3);
  EXPECT_EQ(pool.total_bytes(), 5 * MiB);
  EXPECT_EQ(pool.used_bytes(), 5 * MiB);
}

TEST(MemoryPool, LimitByFraction) {
  FakeDevice dev(8 * MiB);
  MemoryPool pool(dev);
  pool.set_limit_fraction(0.5);
  EXPECT_EQ(pool.get_limit(), 4 * MiB);
  pool.set_limit_fraction(0.25);
  EXPECT_EQ(pool.get_limit(), 2 * MiB);
  pool.allocate(MiB, S1);
  EXPECT_THROW(pool.allocate(2 * MiB, S1), OutOfMemoryError);
  EXPECT_THROW(pool.set_limit_fraction(1.5), ValueError);
  EXPECT_THROW(pool.set_limit_fraction(-0.1), ValueError);
  EXPECT_THROW(pool.set_limit_fraction(std::numeric_limits<double>::quiet_NaN()), ValueError);
  EXPECT_EQ(pool.get_limit(), 2 * MiB);
  pool.set_limit_fraction(0);
  EXPECT_EQ(pool.get_limit(), 0u);
  pool.allocate(2 * MiB, S1);
}

TEST(MemoryPool, ParsesTheLimitVariable) {
  EXPECT_EQ(MemoryPool::parse_limit("1048576", GiB), MiB);
  EXPECT_EQ(MemoryPool::parse_limit("0", GiB), 0u);
  EXPECT_EQ(MemoryPool::parse_limit("50%", 8 * GiB), 4 * GiB);
  EXPECT_EQ(MemoryPool::parse_limit("12.5%", 8 * GiB), GiB);
  EXPECT_EQ(MemoryPool::parse_limit("100%", 8 * GiB), 8 * GiB);
  for (const char* bad : {"", "abc", "-5", "+5", "1e9", "10GB", "50 %", " 50%", "150%", "%", ".%",
                          "1.5", "-1%", "99999999999999999999999"}) {
    EXPECT_THROW(MemoryPool::parse_limit(bad, GiB), ValueError) << bad;
  }
  try {
    MemoryPool::parse_limit("lots", GiB);
    FAIL();
  } catch (const ValueError& e) {
    EXPECT_STREQ(e.what(),
                 "[cuda] TESSERA_GPU_MEMORY_LIMIT must be a number of bytes or a percentage of "
                 "device memory from 0% to 100% such as \"50%\", got \"lots\"");
  }
}

// Sets TESSERA_GPU_MEMORY_LIMIT for one scope.
struct LimitVariable {
  explicit LimitVariable(const char* value) { setenv("TESSERA_GPU_MEMORY_LIMIT", value, 1); }
  ~LimitVariable() { unsetenv("TESSERA_GPU_MEMORY_LIMIT"); }
};

TEST(MemoryPool, ReadsTheLimitVariableAtCreation) {
  FakeDevice dev(8 * MiB);
  {
    LimitVariable env("25%");
    EXPECT_EQ(MemoryPool(dev).get_limit(), 2 * MiB);
  }
  {
    LimitVariable env("3145728");
    EXPECT_EQ(MemoryPool(dev).get_limit(), 3 * MiB);
  }
  {
    LimitVariable env("");
    EXPECT_EQ(MemoryPool(dev).get_limit(), 0u);
  }
  {
    LimitVariable env("lots");
    EXPECT_THROW(MemoryPool{dev}, ValueError);
  }
  EXPECT_EQ(MemoryPool(dev).get_limit(), 0u);
}

TEST(MemoryPool, OutOfMemoryReleasesCachedBlocksAndRetries) {
  FakeDevice dev(8 * MiB);
  MemoryPool pool(dev);
  int gc_calls = 0;
  pool.set_gc_hook([&] { ++gc_calls; });
  pool.deallocate(pool.allocate(6 * MiB, S1));
  void* b = pool.allocate(4 * MiB, S2);  // the cached 6 MiB still guards S1's work
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(dev.raw_allocs, 3);
  EXPECT_EQ(dev.failed_allocs, 1);
  EXPECT_EQ(dev.syncs, 1);
  EXPECT_EQ(dev.raw_frees, 1);
  EXPECT_EQ(gc_calls, 0);
  EXPECT_EQ(pool.total_bytes(), 4 * MiB);
  EXPECT_EQ(pool.used_bytes(), 4 * MiB);
  EXPECT_EQ(dev.live_events(), 0u);
}

TEST(MemoryPool, GarbageCollectionHookFreesAndTheRetrySucceeds) {
  FakeDevice dev(8 * MiB);
  MemoryPool pool(dev);
  void* a = pool.allocate(6 * MiB, S1);
  int gc_calls = 0;
  pool.set_gc_hook([&] {
    ++gc_calls;
    pool.deallocate(a);  // as the last reference to an array dying in gc.collect()
  });
  EXPECT_EQ(pool.allocate(4 * MiB, S1), a);
  EXPECT_EQ(gc_calls, 1);
  EXPECT_EQ(dev.raw_allocs, 2);  // nothing was cached to release, so no second try
  EXPECT_EQ(pool.used_bytes(), 4 * MiB);
  EXPECT_EQ(pool.total_bytes(), 6 * MiB);
}

TEST(MemoryPool, FinalFailureSaysWhatWasAskedUsedAndCached) {
  FakeDevice dev(8 * GiB);
  MemoryPool pool(dev);
  pool.set_limit(4 * GiB);
  pool.deallocate(pool.allocate(3 * GiB + 512 * MiB, S1));
  pool.allocate(3 * GiB, S1);  // leaves 512 MiB cached in a segment in use
  int gc_calls = 0;
  pool.set_gc_hook([&] { ++gc_calls; });
  try {
    pool.allocate(3 * GiB / 2, S1);
    FAIL();
  } catch (const OutOfMemoryError& e) {
    EXPECT_STREQ(e.what(),
                 "[cuda] out of memory allocating 1.50 GiB on cuda:0 (used 3.00 GiB, cached "
                 "512.00 MiB, limit 4.00 GiB)");
  }
  EXPECT_EQ(gc_calls, 1);
  EXPECT_EQ(dev.raw_allocs, 1);
  EXPECT_EQ(pool.used_bytes(), 3 * GiB);

  FakeDevice small(8 * MiB);
  MemoryPool pool2(small, 2);
  try {
    pool2.allocate(10 * MiB);
    FAIL();
  } catch (const OutOfMemoryError& e) {
    EXPECT_STREQ(e.what(),
                 "[cuda] out of memory allocating 10.00 MiB on cuda:2 (used 0 B, cached 0 B)");
  }
  EXPECT_THROW(pool2.allocate(std::numeric_limits<size_t>::max()), OutOfMemoryError);
  EXPECT_EQ(small.raw_allocs, 1);
}

TEST(MemoryPool, StatisticsAreExactAfterASequence) {
  FakeDevice dev(64 * MiB);
  MemoryPool pool(dev);
  void* a = pool.allocate(100, S1);
  EXPECT_EQ(pool.used_bytes(), 512u);
  EXPECT_EQ(pool.free_bytes(), 2 * MiB - 512);
  void* b = pool.allocate(3 * MiB, S1);
  EXPECT_EQ(pool.total_bytes(), 6 * MiB);
  EXPECT_EQ(pool.n_free_blocks(), 2u);
  pool.deallocate(b);
  EXPECT_EQ(pool.used_bytes(), 512u);
  EXPECT_EQ(pool.n_free_blocks(), 2u);
  EXPECT_EQ(pool.peak_used_bytes(), 3 * MiB + 512);
  void* c = pool.allocate(4 * MiB, S1);
  EXPECT_EQ(pool.used_bytes(), 4 * MiB + 512);
  EXPECT_EQ(pool.n_free_blocks(), 1u);
  pool.deallocate(a);
  pool.deallocate(c);
  AllocatorStats s = pool.stats();
  EXPECT_EQ(s.used_bytes, 0u);
  EXPECT_EQ(s.cached_bytes, 6 * MiB);
  EXPECT_EQ(s.peak_used_bytes, 4 * MiB + 512);
  EXPECT_EQ(s.allocations, 3u);
  EXPECT_EQ(s.cache_hits, 1u);
  EXPECT_EQ(pool.n_free_blocks(), 2u);
  pool.free_all_blocks();
  EXPECT_EQ(pool.total_bytes(), 0u);
  EXPECT_EQ(pool.n_free_blocks(), 0u);
  EXPECT_EQ(dev.raw_frees, 2);
}

TEST(MemoryPool, ConcurrentAllocateAndFreeFromTwoThreads) {
  FakeDevice dev(512 * MiB, /*backed=*/true, /*auto_done=*/true);
  MemoryPool pool(dev);
  constexpr int kIterations = 20000;
  std::atomic<int> corrupt{0}, ready{0};
  auto work = [&](uintptr_t stream) {
    for (++ready; ready < 2;) std::this_thread::yield();  // start together: contend
    struct Live {
      uint64_t* words;
      size_t n;
      uint64_t tag;
    };
    std::mt19937 rng(static_cast<unsigned>(stream));
    std::vector<Live> live;
    auto release = [&](size_t i) {
      // A block that overlapped another would have had its tags overwritten.
      corrupt += live[i].words[0] != live[i].tag || live[i].words[live[i].n - 1] != live[i].tag;
      pool.deallocate(live[i].words);
      live.erase(live.begin() + static_cast<ptrdiff_t>(i));
    };
    for (int it = 0; it < kIterations; ++it) {
      if (live.size() == 12) release(rng() % live.size());
      size_t bytes = rng() % 4 ? 8 + rng() % 200000 : MiB + rng() % (3 * MiB);
      auto* words = static_cast<uint64_t*>(pool.allocate(bytes, stream));
      uint64_t tag = (uint64_t{stream} << 32) | static_cast<uint64_t>(it);
      words[0] = words[bytes / 8 - 1] = tag;
      live.push_back({words, bytes / 8, tag});
    }
    while (!live.empty()) release(live.size() - 1);
  };
  std::thread t1(work, S1), t2(work, S2);
  t1.join();
  t2.join();
  EXPECT_EQ(corrupt, 0);
  EXPECT_EQ(pool.used_bytes(), 0u);
  EXPECT_EQ(pool.stats().allocations, 2u * kIterations);
  pool.free_all_blocks();
  EXPECT_EQ(pool.total_bytes(), 0u);
  EXPECT_EQ(dev.in_use, 0u);
  EXPECT_EQ(dev.live_events(), 0u);
  EXPECT_EQ(dev.misuse, 0);
}

TEST(MemoryPool, ForeignPointersAreRefused) {
  FakeDevice dev(64 * MiB);
  MemoryPool pool(dev);
  int local = 0;
  EXPECT_THROW(pool.deallocate(&local), ValueError);
  pool.deallocate(nullptr);
  void* p = pool.allocate(10);
  pool.deallocate(p);
  EXPECT_THROW(pool.deallocate(p), ValueError);  // twice
  EXPECT_EQ(dev.events_recorded, 1u);
}

TEST(MemoryPool, DestructionReturnsCachedSegmentsOnly) {
  FakeDevice dev(64 * MiB);
  {
    MemoryPool pool(dev);
    pool.deallocate(pool.allocate(2 * MiB, S1));
    pool.allocate(2 * MiB, S2);
  }
  EXPECT_EQ(dev.raw_frees, 1);
  EXPECT_EQ(dev.in_use, 2 * MiB);
  EXPECT_EQ(dev.live_events(), 0u);
}

TEST(PoolAllocator, AllocatesOnTheCurrentStream) {
  FakeDevice dev(64 * MiB);
  MemoryPool pool(dev);
  uintptr_t current = 7;
  PoolAllocator alloc(pool, [&] { return current; });
  void* p = alloc.allocate(2 * MiB);
  alloc.deallocate(p, 2 * MiB);
  EXPECT_EQ(dev.last_event_stream, 7u);
  current = 8;
  void* q = alloc.allocate(2 * MiB);
  EXPECT_NE(q, p);
  current = 7;
  EXPECT_EQ(alloc.allocate(2 * MiB), p);
  AllocatorStats s = alloc.stats();
  EXPECT_EQ(s.used_bytes, 4 * MiB);
  EXPECT_EQ(s.allocations, 3u);
  EXPECT_EQ(s.cache_hits, 1u);
  int local = 0;
  alloc.deallocate(&local, 4);  // swallowed: deallocate is noexcept
  alloc.deallocate(p, 2 * MiB);
  alloc.deallocate(q, 2 * MiB);
  alloc.release_cached();
  EXPECT_EQ(dev.raw_frees, 2);
  EXPECT_EQ(alloc.stats().cached_bytes, 0u);
}

}  // namespace
}  // namespace tessera::cuda
