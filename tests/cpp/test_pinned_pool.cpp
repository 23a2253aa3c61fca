// The pinned host memory pool against a fake host: reuse of freed blocks by rounded size,
// out-of-memory recovery, use from two threads.

#include <gtest/gtest.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <random>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "backend/cuda/memory_pool.h"
#include "backend/cuda/pinned_pool.h"
#include "tessera/errors.h"

namespace tessera::cuda {
namespace {

constexpr size_t KiB = size_t{1} << 10;
constexpr size_t MiB = size_t{1} << 20;

// Host memory of fixed capacity that counts its calls.
class FakeHost final : public PinnedHost {
 public:
  explicit FakeHost(size_t capacity) : capacity_(capacity) {}
  ~FakeHost() override {
    for (auto& [ptr, bytes] : sizes_) std::free(ptr);
  }
  void* allocate(size_t bytes) override {
    std::lock_guard lock(mutex_);
    ++allocs;
    if (in_use + bytes > capacity_) return nullptr;
    void* ptr = std::malloc(bytes);
    sizes_[ptr] = bytes;
    in_use += bytes;
    return ptr;
  }
  void free(void* ptr) override {
    std::lock_guard lock(mutex_);
    ++frees;
    in_use -= sizes_.at(ptr);
    sizes_.erase(ptr);
    std::free(ptr);
  }
  int allocs = 0, frees = 0;
  size_t in_use = 0;

 private:
  std::mutex mutex_;
  size_t capacity_;
  std::unordered_map<void*, size_t> sizes_;
};

TEST(PinnedMemoryPool, ReusesFreedBlocksOfTheSameRoundedSize) {
  FakeHost host(MiB);
  PinnedMemoryPool pool(host);
  void* a = pool.allocate(1000);
  pool.deallocate(a);
  EXPECT_EQ(pool.n_free_blocks(), 1u);
  EXPECT_EQ(pool.allocate(600), a);  // 1024 bytes too
  void* c = pool.allocate(1025);
  EXPECT_NE(c, a);
  EXPECT_EQ(host.allocs, 2);
  EXPECT_EQ(pool.used_bytes(), 1024u + 1536u);
  EXPECT_EQ(pool.free_bytes(), 0u);
  pool.deallocate(a);
  pool.deallocate(c);
  EXPECT_EQ(pool.used_bytes(), 0u);
  EXPECT_EQ(pool.free_bytes(), 2560u);
  EXPECT_EQ(pool.n_free_blocks(), 2u);
  void* z = pool.allocate(0);
  EXPECT_EQ(host.allocs, 3);
  pool.free_all_blocks();
  EXPECT_EQ(host.frees, 2);
  EXPECT_EQ(pool.total_bytes(), 512u);
  EXPECT_EQ(pool.n_free_blocks(), 0u);
  int local = 0;
  EXPECT_THROW(pool.deallocate(&local), ValueError);
  pool.deallocate(z);
}

TEST(PinnedMemoryPool, OutOfMemoryFreesTheCacheThenFails) {
  FakeHost host(4 * KiB);
  PinnedMemoryPool pool(host);
  pool.deallocate(pool.allocate(3000));
  void* b = pool.allocate(2048);  // another size: the cached 3 KiB must go first
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(host.allocs, 3);
  EXPECT_EQ(host.frees, 1);
  try {
    pool.allocate(4 * KiB);
    FAIL();
  } catch (const OutOfMemoryError& e) {
    EXPECT_STREQ(
        e.what(),
        "[cuda] out of pinned host memory allocating 4.00 KiB (used 2.00 KiB, cached 0 B)");
  }
  EXPECT_EQ(host.allocs, 4);  // nothing cached, so no second try
}

TEST(PinnedMemoryPool, ConcurrentAllocateAndFreeFromTwoThreads) {
  FakeHost host(256 * MiB);
  PinnedMemoryPool pool(host);
  std::atomic<int> corrupt{0}, ready{0};
  auto work = [&](uint64_t seed) {
    for (++ready; ready < 2;) std::this_thread::yield();  // start together: contend
    std::mt19937 rng(static_cast<unsigned>(seed));
    std::vector<std::pair<uint64_t*, size_t>> live;  // each block holds its tag at both ends
    for (int it = 0; it < 200000; ++it) {
      if (live.size() == 8 || (!live.empty() && rng() % 2)) {
        size_t i = rng() % live.size();
        auto [words, n] = live[i];
        corrupt += words[0] != seed || words[n - 1] != seed;
        pool.deallocate(words);
        live.erase(live.begin() + static_cast<ptrdiff_t>(i));
        continue;
      }
      size_t bytes = 8 + rng() % 65536;
      auto* words = static_cast<uint64_t*>(pool.allocate(bytes));
      words[0] = words[bytes / 8 - 1] = seed;
      live.emplace_back(words, bytes / 8);
    }
    for (auto [words, n] : live) pool.deallocate(words);
  };
  std::thread t1(work, 1), t2(work, 2);
  t1.join();
  t2.join();
  EXPECT_EQ(corrupt, 0);
  EXPECT_EQ(pool.used_bytes(), 0u);
  EXPECT_EQ(pool.free_bytes(), host.in_use);
  EXPECT_EQ(pool.total_bytes(), host.in_use);
  pool.free_all_blocks();
  EXPECT_EQ(pool.n_free_blocks(), 0u);
  EXPECT_EQ(host.in_use, 0u);
}

}  // namespace
}  // namespace tessera::cuda
