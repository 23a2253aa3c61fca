// The CPU's caching host allocator: alignment, size classes, reuse of freed blocks, the
// statistics it keeps, the cap on cached bytes, and use from several threads at once.

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "backend/cpu/caching_allocator.h"
#include "tessera/tessera.h"

namespace tessera {
namespace {

constexpr size_t kBig = size_t{1} << 30;  // a cache limit nothing here reaches

bool aligned64(const void* p) { return reinterpret_cast<uintptr_t>(p) % 64 == 0; }

TEST(CachingHostAllocator, BlocksAre64ByteAlignedForManySizes) {
  CachingHostAllocator alloc(kBig);
  std::vector<size_t> sizes = {0,    1,    2,    3,     7,     8,     31,      63,
                               64,   65,   100,  127,   128,   129,   255,     511,
                               512,  513,  640,  641,   1000,  1023,  1024,    1025,
                               4095, 4096, 4097, 12345, 65535, 65537, 1 << 20, (1 << 22) + 3};
  std::vector<std::pair<void*, size_t>> live;
  for (size_t n : sizes) {
    void* p = alloc.allocate(n);
    ASSERT_NE(p, nullptr) << n;
    EXPECT_TRUE(aligned64(p)) << n;
    if (n) std::memset(p, 0xA5, n);  // the whole request is usable
    live.emplace_back(p, n);
  }
  // Distinct live blocks never overlap.
  std::vector<std::pair<uintptr_t, uintptr_t>> spans;
  for (auto [p, n] : live) {
    uintptr_t b = reinterpret_cast<uintptr_t>(p);
    spans.emplace_back(b, b + std::max<size_t>(n, 1));
  }
  std::sort(spans.begin(), spans.end());
  for (size_t i = 1; i < spans.size(); ++i) EXPECT_LE(spans[i - 1].second, spans[i].first);
  for (auto [p, n] : live) alloc.deallocate(p, n);
  // Cached blocks handed out again stay aligned.
  for (size_t n : sizes) {
    void* p = alloc.allocate(n);
    EXPECT_TRUE(aligned64(p)) << n;
    alloc.deallocate(p, n);
  }
  EXPECT_EQ(alloc.stats().used_bytes, 0u);
}

TEST(CachingHostAllocator, SizeClassIsMonotonicWithBoundedSlack) {
  size_t prev = 0;
  for (size_t n = 0; n <= (size_t{1} << 17); ++n) {
    const size_t c = CachingHostAllocator::size_class(n);
    ASSERT_GE(c, n) << n;
    ASSERT_GE(c, prev) << n;  // never smaller for a larger request
    ASSERT_GT(c, 0u) << n;
    if (n > 512) {
      ASSERT_LE(c * 4, n * 5) << n;  // at most 25% above the request
    } else {
      // Small requests round up to a whole cache line, at least one.
      ASSERT_LE(c, std::max<size_t>(64, (n + 63) / 64 * 64)) << n;
    }
    // A class serves itself: freeing with either size finds the same class.
    ASSERT_EQ(CachingHostAllocator::size_class(c), c) << n;
    prev = c;
  }
  for (int shift = 17; shift < 48; ++shift) {
    for (size_t n : {(size_t{1} << shift) - 1, size_t{1} << shift, (size_t{1} << shift) + 1,
                     (size_t{3} << shift) + 12345}) {
      const size_t c = CachingHostAllocator::size_class(n);
      EXPECT_GE(c, n) << n;
      EXPECT_LE(c / 4 * 4, n / 4 * 5 + 4) << n;
      EXPECT_EQ(CachingHostAllocator::size_class(c), c) << n;
    }
  }
  // Few distinct classes: at most four per power of two above 512.
  std::vector<size_t> classes;
  for (size_t n = 513; n <= 4096; ++n) classes.push_back(CachingHostAllocator::size_class(n));
  classes.erase(std::unique(classes.begin(), classes.end()), classes.end());
  EXPECT_LE(classes.size(), 12u);
  EXPECT_EQ(CachingHostAllocator::size_class(0), CachingHostAllocator::size_class(1));
}

// Requests near the top of size_t must not wrap around to a small class.
TEST(CachingHostAllocator, SizeClassNeverWrapsForHugeRequests) {
  const size_t top = std::numeric_limits<size_t>::max();
  for (size_t n : {top, top - 1, top - 4096, (top >> 1) + 1, (top >> 2) * 3 + 1, top >> 1}) {
    EXPECT_GE(CachingHostAllocator::size_class(n), n) << n;
  }
}

TEST(CachingHostAllocator, ImpossibleRequestsThrowOutOfMemory) {
  CachingHostAllocator alloc(kBig);
  const size_t top = std::numeric_limits<size_t>::max();
  for (size_t n : {size_t{1} << 62, top - 100, top}) {
    try {
      void* p = alloc.allocate(n);
      ADD_FAILURE() << "allocate(" << n << ") returned a block instead of throwing";
      alloc.deallocate(p, n);
    } catch (const OutOfMemoryError&) {
    }
  }
  EXPECT_EQ(alloc.stats().used_bytes, 0u);
}

TEST(CachingHostAllocator, FreedBlocksAreReused) {
  CachingHostAllocator alloc(kBig);
  void* p = alloc.allocate(1000);
  EXPECT_EQ(alloc.stats().cache_hits, 0u);
  alloc.deallocate(p, 1000);
  void* q = alloc.allocate(1000);
  EXPECT_EQ(q, p);
  EXPECT_EQ(alloc.stats().cache_hits, 1u);
  alloc.deallocate(q, 1000);
  // Another request of the same class gets the block too.
  const size_t same = CachingHostAllocator::size_class(1000);
  void* r = alloc.allocate(same);
  EXPECT_EQ(r, p);
  EXPECT_EQ(alloc.stats().cache_hits, 2u);
  // A request of another class does not.
  void* s = alloc.allocate(same + 1);
  EXPECT_NE(s, p);
  EXPECT_EQ(alloc.stats().cache_hits, 2u);
  EXPECT_EQ(alloc.stats().allocations, 4u);
  alloc.deallocate(s, same + 1);
  alloc.deallocate(r, same);
  // Two live blocks of one class are distinct; both come back from the cache.
  void* a = alloc.allocate(same);
  void* b = alloc.allocate(same);
  EXPECT_NE(a, b);
  EXPECT_EQ(alloc.stats().cache_hits, 3u);
  alloc.deallocate(a, same);
  alloc.deallocate(b, same);
  void* c = alloc.allocate(same);
  void* d = alloc.allocate(same);
  EXPECT_TRUE((c == a && d == b) || (c == b && d == a));
  EXPECT_EQ(alloc.stats().cache_hits, 5u);
  alloc.deallocate(c, same);
  alloc.deallocate(d, same);
}

TEST(CachingHostAllocator, StatsBookkeeping) {
  CachingHostAllocator alloc(kBig);
  AllocatorStats s = alloc.stats();
  EXPECT_EQ(s.used_bytes, 0u);
  EXPECT_EQ(s.cached_bytes, 0u);
  EXPECT_EQ(s.peak_used_bytes, 0u);
  EXPECT_EQ(s.allocations, 0u);
  EXPECT_EQ(s.cache_hits, 0u);
  EXPECT_EQ(s.limit_cached_bytes, kBig);

  // Sizes that are their own size class, so requested and served bytes agree.
  void* a = alloc.allocate(4096);
  s = alloc.stats();
  EXPECT_EQ(s.used_bytes, 4096u);
  EXPECT_EQ(s.peak_used_bytes, 4096u);
  EXPECT_EQ(s.allocations, 1u);
  alloc.deallocate(a, 4096);
  s = alloc.stats();
  EXPECT_EQ(s.used_bytes, 0u);
  EXPECT_EQ(s.cached_bytes, 4096u);
  EXPECT_EQ(s.peak_used_bytes, 4096u);
  void* b = alloc.allocate(1024);
  s = alloc.stats();
  EXPECT_EQ(s.used_bytes, 1024u);
  EXPECT_EQ(s.cached_bytes, 4096u);
  EXPECT_EQ(s.peak_used_bytes, 4096u);
  void* c = alloc.allocate(4096);  // from the cache, and a new high-water mark
  s = alloc.stats();
  EXPECT_EQ(s.used_bytes, 5120u);
  EXPECT_EQ(s.cached_bytes, 0u);
  EXPECT_EQ(s.cache_hits, 1u);
  EXPECT_EQ(s.peak_used_bytes, 5120u);
  void* d = alloc.allocate(8192);
  s = alloc.stats();
  EXPECT_EQ(s.used_bytes, 13312u);
  EXPECT_EQ(s.peak_used_bytes, 13312u);
  alloc.deallocate(b, 1024);
  alloc.deallocate(c, 4096);
  alloc.deallocate(d, 8192);
  s = alloc.stats();
  EXPECT_EQ(s.used_bytes, 0u);
  EXPECT_EQ(s.cached_bytes, 13312u);
  EXPECT_EQ(s.peak_used_bytes, 13312u);  // a high-water mark
  EXPECT_EQ(s.allocations, 4u);
  EXPECT_EQ(s.cache_hits, 1u);

  // used_bytes counts whole blocks: freeing returns exactly what allocating took.
  void* e = alloc.allocate(777);
  const size_t used = alloc.stats().used_bytes;
  EXPECT_GE(used, 777u);
  EXPECT_EQ(used, CachingHostAllocator::size_class(777));
  alloc.deallocate(e, 777);
  EXPECT_EQ(alloc.stats().used_bytes, 0u);
}

TEST(CachingHostAllocator, CacheLimitIsRespected) {
  const size_t limit = 8192;
  CachingHostAllocator alloc(limit);
  EXPECT_EQ(alloc.stats().limit_cached_bytes, limit);
  std::vector<void*> blocks;
  for (int i = 0; i < 4; ++i) blocks.push_back(alloc.allocate(4096));
  for (void* p : blocks) {
    alloc.deallocate(p, 4096);
    EXPECT_LE(alloc.stats().cached_bytes, limit);
  }
  EXPECT_EQ(alloc.stats().used_bytes, 0u);
  // At most two 4 KiB blocks fit under the limit, so at most two come back from the cache.
  const uint64_t hits_before = alloc.stats().cache_hits;
  std::vector<void*> again;
  for (int i = 0; i < 4; ++i) again.push_back(alloc.allocate(4096));
  EXPECT_LE(alloc.stats().cache_hits - hits_before, 2u);
  EXPECT_GE(alloc.stats().cache_hits - hits_before, 1u);  // the cache is not useless
  for (void* p : again) alloc.deallocate(p, 4096);
  EXPECT_LE(alloc.stats().cached_bytes, limit);

  // A block bigger than the whole limit is freed, never cached.
  alloc.release_cached();
  void* huge = alloc.allocate(4 * limit);
  alloc.deallocate(huge, 4 * limit);
  EXPECT_LE(alloc.stats().cached_bytes, limit);
  const uint64_t hits = alloc.stats().cache_hits;
  void* huge2 = alloc.allocate(4 * limit);
  EXPECT_EQ(alloc.stats().cache_hits, hits);
  alloc.deallocate(huge2, 4 * limit);

  // Mixed sizes: the cap holds after every free.
  std::mt19937 rng(7);
  std::vector<std::pair<void*, size_t>> live;
  for (int i = 0; i < 2000; ++i) {
    if (live.size() < 6 && (live.empty() || rng() % 2)) {
      size_t n = 1 + rng() % 6000;
      live.emplace_back(alloc.allocate(n), n);
    } else {
      size_t k = rng() % live.size();
      alloc.deallocate(live[k].first, live[k].second);
      live.erase(live.begin() + static_cast<long>(k));
      ASSERT_LE(alloc.stats().cached_bytes, limit);
    }
  }
  for (auto [p, n] : live) alloc.deallocate(p, n);
  EXPECT_LE(alloc.stats().cached_bytes, limit);
  EXPECT_EQ(alloc.stats().used_bytes, 0u);
}

TEST(CachingHostAllocator, ZeroLimitCachesNothing) {
  CachingHostAllocator alloc(0);
  void* p = alloc.allocate(64);
  alloc.deallocate(p, 64);
  EXPECT_EQ(alloc.stats().cached_bytes, 0u);
  void* q = alloc.allocate(64);
  EXPECT_EQ(alloc.stats().cache_hits, 0u);
  alloc.deallocate(q, 64);
  EXPECT_EQ(alloc.stats().cached_bytes, 0u);
}

TEST(CachingHostAllocator, ReleaseCachedEmptiesTheCache) {
  CachingHostAllocator alloc(kBig);
  std::vector<void*> blocks;
  for (size_t n : {64, 1024, 4096, 4096, 100000}) blocks.push_back(alloc.allocate(n));
  void* keep = alloc.allocate(2048);
  size_t i = 0;
  for (size_t n : {64, 1024, 4096, 4096, 100000}) alloc.deallocate(blocks[i++], n);
  EXPECT_GT(alloc.stats().cached_bytes, 0u);
  alloc.release_cached();
  AllocatorStats s = alloc.stats();
  EXPECT_EQ(s.cached_bytes, 0u);
  EXPECT_EQ(s.used_bytes, 2048u);  // live blocks are untouched
  const uint64_t hits = s.cache_hits;
  for (size_t n : {64, 1024, 4096, 100000}) {
    void* p = alloc.allocate(n);
    EXPECT_EQ(alloc.stats().cache_hits, hits) << n;  // nothing left to hit
    alloc.deallocate(p, n);
  }
  alloc.deallocate(keep, 2048);
  alloc.release_cached();
  EXPECT_EQ(alloc.stats().cached_bytes, 0u);
  EXPECT_EQ(alloc.stats().used_bytes, 0u);
}

TEST(CachingHostAllocator, ConcurrentUseKeepsStatsConsistent) {
  const size_t limit = size_t{1} << 20;
  CachingHostAllocator alloc(limit);
  constexpr int kThreads = 4, kIterations = 4000;
  std::atomic<int> corrupted{0};
  auto worker = [&](int id) {
    std::mt19937 rng(1234 + id);
    std::vector<std::pair<unsigned char*, size_t>> live;
    auto release = [&](size_t k) {
      auto [p, n] = live[k];
      // The block was ours alone while we held it.
      for (size_t j = 0; j < n; ++j) {
        if (p[j] != static_cast<unsigned char>(id + 1)) {
          ++corrupted;
          break;
        }
      }
      alloc.deallocate(p, n);
      live.erase(live.begin() + static_cast<long>(k));
    };
    for (int i = 0; i < kIterations; ++i) {
      if (live.size() < 8 && (live.empty() || rng() % 3 != 0)) {
        static const size_t sizes[] = {1, 64, 100, 1000, 4096, 5000, 65536};
        size_t n = sizes[rng() % 7];
        auto* p = static_cast<unsigned char*>(alloc.allocate(n));
        if (!aligned64(p)) ++corrupted;
        std::memset(p, id + 1, n);
        live.emplace_back(p, n);
      } else {
        release(rng() % live.size());
      }
    }
    while (!live.empty()) release(live.size() - 1);
  };
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back(worker, t);
  for (auto& t : threads) t.join();

  EXPECT_EQ(corrupted.load(), 0);
  AllocatorStats s = alloc.stats();
  EXPECT_EQ(s.used_bytes, 0u);
  EXPECT_LE(s.cached_bytes, limit);
  EXPECT_LE(s.cache_hits, s.allocations);
  EXPECT_GT(s.cache_hits, 0u);
  EXPECT_GE(s.peak_used_bytes, CachingHostAllocator::size_class(65536));
  EXPECT_LE(s.peak_used_bytes, size_t{kThreads} * 8 * CachingHostAllocator::size_class(65536));
  // Every allocate() was counted once.
  uint64_t expected_allocations = 0;
  for (int id = 0; id < kThreads; ++id) {
    std::mt19937 rng(1234 + id);
    size_t live = 0;
    for (int i = 0; i < kIterations; ++i) {
      if (live < 8 && (live == 0 || rng() % 3 != 0)) {
        rng();
        ++live;
        ++expected_allocations;
      } else {
        rng();
        --live;
      }
    }
  }
  EXPECT_EQ(s.allocations, expected_allocations);
  alloc.release_cached();
  EXPECT_EQ(alloc.stats().cached_bytes, 0u);
}

// The allocator behind CPU arrays: an array holds its block until its last view is gone.
TEST(CpuMemoryStats, ArraysHoldTheirBlocksUntilTheLastViewDies) {
  const size_t before = memory_stats(Device::cpu()).used_bytes;
  {
    Array a = Array::empty({1000}, DType::Float64, Device::cpu());
    EXPECT_GE(memory_stats(Device::cpu()).used_bytes, before + 8000);
    Array view = a.index({IndexItem::slice(10, 20, 1)});
    a = Array();
    EXPECT_GE(memory_stats(Device::cpu()).used_bytes, before + 8000);
    EXPECT_EQ(view.size(), 10);
  }
  EXPECT_EQ(memory_stats(Device::cpu()).used_bytes, before);
  release_cached_memory(Device::cpu());
  EXPECT_EQ(memory_stats(Device::cpu()).cached_bytes, 0u);
}

}  // namespace
}  // namespace tessera
