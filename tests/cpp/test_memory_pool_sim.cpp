// The device memory pool against the CUDA simulator: real (simulated) device memory, streams
// and events, with copies queued on the streams. Splitting and merging, fragmentation, the
// limit, out-of-memory recovery on a small device, stream-ordered reuse, and exact mode.
//
// The driver table is called directly with the device's context made current, rather than
// through driver(), which is chosen once per process from TESSERA_CUDA_SIM: under ctest each
// test is its own process with no simulator variables set.

#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "backend/cuda/driver.h"
#include "backend/cuda/memory_pool.h"
#include "backend/cudasim/sim_abi.h"
#include "tessera/errors.h"

namespace tessera::cuda {
namespace {

constexpr size_t KiB = size_t{1} << 10;
constexpr size_t MiB = size_t{1} << 20;

// A small device keeps the limit-by-fraction numbers and the out-of-memory ballast small.
// The capacity is read when the simulator starts, so it applies only if nothing in this
// process has started it yet; the tests read the capacity back instead of assuming it.
const DriverApi& sim() {
  static const DriverApi* api = [] {
    setenv("TESSERA_CUDA_SIM_MEMORY", std::to_string(64 * MiB).c_str(), /*overwrite=*/0);
    return simulated_driver();
  }();
  return *api;
}

void ok(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return;
  const char* detail = sim().last_error_detail();
  throw std::runtime_error(std::string(what) + " failed with " + std::to_string(r) +
                           (detail ? std::string(": ") + detail : ""));
}

// The simulator's context is per thread; every entry point makes it current first.
void activate() {
  CUcontext context = nullptr;
  ok(sim().cuDevicePrimaryCtxRetain(&context, 0), "cuDevicePrimaryCtxRetain");
  ok(sim().cuCtxSetCurrent(context), "cuCtxSetCurrent");
}

// DeviceMemory over the simulator's driver table, as driver_memory.cpp is over driver().
// It counts raw calls so that tests can tell cache hits from new segments.
class SimMemory final : public DeviceMemory {
 public:
  explicit SimMemory(bool exact = false) : exact_(exact) {}

  void* raw_allocate(size_t bytes) override {
    activate();
    CUdeviceptr ptr = 0;
    const CUresult r = sim().cuMemAlloc(&ptr, bytes);
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
      ++failed_allocs;
      return nullptr;
    }
    ok(r, "cuMemAlloc");
    raw_sizes.push_back(bytes);
    return reinterpret_cast<void*>(ptr);
  }
  void raw_free(void* ptr) override {
    activate();
    ok(sim().cuMemFree(reinterpret_cast<CUdeviceptr>(ptr)), "cuMemFree");
    ++raw_frees;
  }
  size_t device_total_bytes() override {
    size_t bytes = 0;
    ok(sim().cuDeviceTotalMem(&bytes, 0), "cuDeviceTotalMem");
    return bytes;
  }
  uintptr_t record_event(uintptr_t stream) override {
    activate();
    CUevent event = nullptr;
    ok(sim().cuEventCreate(&event, CU_EVENT_DISABLE_TIMING), "cuEventCreate");
    ok(sim().cuEventRecord(event, reinterpret_cast<CUstream>(stream)), "cuEventRecord");
    return reinterpret_cast<uintptr_t>(event);
  }
  bool event_done(uintptr_t event) override {
    const CUresult r = sim().cuEventQuery(as_event(event));
    if (r != CUDA_ERROR_NOT_READY) ok(r, "cuEventQuery");
    return r == CUDA_SUCCESS;
  }
  void synchronize_event(uintptr_t e) override {
    ok(sim().cuEventSynchronize(as_event(e)), "sync");
  }
  void destroy_event(uintptr_t e) override { ok(sim().cuEventDestroy(as_event(e)), "destroy"); }
  bool exact_allocations() override { return exact_; }

  std::vector<size_t> raw_sizes;  // of each successful raw allocation
  int failed_allocs = 0, raw_frees = 0;

 private:
  static CUevent as_event(uintptr_t event) { return reinterpret_cast<CUevent>(event); }
  bool exact_;
};

size_t device_free_bytes() {
  activate();
  size_t free = 0, total = 0;
  ok(sim().cuMemGetInfo(&free, &total), "cuMemGetInfo");
  return free;
}

struct Stream {
  CUstream handle = nullptr;
  // Non-blocking: no implicit ordering with the legacy default stream or with each other.
  Stream() {
    activate();
    ok(sim().cuStreamCreate(&handle, CU_STREAM_NON_BLOCKING), "cuStreamCreate");
  }
  ~Stream() { sim().cuStreamDestroy(handle); }
  uintptr_t id() const { return reinterpret_cast<uintptr_t>(handle); }
  void sync() const { ok(sim().cuStreamSynchronize(handle), "cuStreamSynchronize"); }
  bool idle() const { return sim().cuStreamQuery(handle) == CUDA_SUCCESS; }
};

// Work on a stream that is still running for as long as the test wants: a one-block kernel,
// launched through cuLaunchKernel like any other and run on the stream's worker, that waits
// until the gate opens. Everything queued behind it waits too, with no timing involved.
// Gates open when destroyed, so a failed assertion cannot leave a stream stuck; destruction
// waits until the kernel no longer touches the gate.
class Gate {
 public:
  explicit Gate(const Stream& stream) {
    static const size_t kSize = sizeof(Gate*);
    static const TsimKernel kHold{"hold_until_opened", &Gate::kernel, 1, &kSize, &kSize};
    Gate* self = this;
    void* params[] = {&self};
    auto function = reinterpret_cast<CUfunction>(const_cast<TsimKernel*>(&kHold));
    ok(sim().cuLaunchKernel(function, 1, 1, 1, 1, 1, 1, 0, stream.handle, params, nullptr),
       "cuLaunchKernel");
  }
  ~Gate() {
    open();
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return passed_; });
  }
  void open() {
    std::lock_guard lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }

 private:
  static void kernel(void* const* params) {
    Gate& gate = **static_cast<Gate* const*>(params[0]);
    std::unique_lock lock(gate.mutex_);
    gate.changed_.wait(lock, [&] { return gate.open_; });
    gate.passed_ = true;
    gate.changed_.notify_all();  // under the lock: the destructor cannot run before it ends
  }
  std::mutex mutex_;
  std::condition_variable changed_;
  bool open_ = false, passed_ = false;
};

void fill(void* ptr, unsigned char value, size_t bytes, const Stream& s) {
  ok(sim().cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(ptr), value, bytes, s.handle),
     "cuMemsetD8Async");
}
// Whether every byte is `value`, once the work queued on `s` before has run (a copy into
// pageable memory returns when it is done).
bool holds(const void* ptr, unsigned char value, size_t bytes, const Stream& s) {
  std::vector<unsigned char> out(bytes);
  ok(sim().cuMemcpyDtoHAsync(out.data(), reinterpret_cast<CUdeviceptr>(ptr), bytes, s.handle),
     "cuMemcpyDtoHAsync");
  return std::all_of(out.begin(), out.end(), [&](unsigned char b) { return b == value; });
}
std::byte* at(void* p, size_t offset) { return static_cast<std::byte*>(p) + offset; }
std::string oom_message(MemoryPool& pool, size_t bytes) {
  try {
    pool.allocate(bytes);
  } catch (const DeviceOutOfMemoryError& e) {
    return e.what();
  }
  return "no DeviceOutOfMemoryError";
}

// Three streams and a pool on the simulated device; locals of a test (gates above all) go
// before them.
class SimPool : public testing::Test {
 protected:
  Stream s, a, b;
  SimMemory dev;
  MemoryPool pool{dev};
};

TEST_F(SimPool, SplitsSegmentsAndMergesFreedNeighbours) {
  void* p1 = pool.allocate(1000, s.id());
  void* p2 = pool.allocate(3000, s.id());
  void* p3 = pool.allocate(512, s.id());
  EXPECT_EQ(p2, at(p1, 1024));  // each rounded to 512 and carved from one 2 MiB segment
  EXPECT_EQ(p3, at(p2, 3072));
  EXPECT_EQ(dev.raw_sizes, std::vector<size_t>{2 * MiB});
  EXPECT_EQ(pool.used_bytes(), 4608u);
  EXPECT_EQ(pool.free_bytes(), 2 * MiB - 4608);
  // Distinct bytes through each block: they are real, disjoint device memory.
  fill(p1, 0xA1, 1024, s);
  fill(p2, 0xB2, 3072, s);
  fill(p3, 0xC3, 512, s);
  EXPECT_TRUE(holds(p1, 0xA1, 1024, s) && holds(p2, 0xB2, 3072, s) && holds(p3, 0xC3, 512, s));

  pool.deallocate(p2);
  EXPECT_EQ(pool.n_free_blocks(), 2u);  // the hole and the segment's tail
  pool.deallocate(p1);
  EXPECT_EQ(pool.n_free_blocks(), 2u);         // p1 merged into the hole
  EXPECT_EQ(pool.allocate(4096, s.id()), p1);  // the merged space, an exact fit
  pool.deallocate(p3);
  EXPECT_EQ(pool.n_free_blocks(), 1u);  // p3 merged into the tail
  pool.deallocate(p1);
  EXPECT_EQ(pool.n_free_blocks(), 1u);  // the whole segment again
  EXPECT_EQ(pool.free_bytes(), 2 * MiB);
  EXPECT_EQ(pool.allocate(MiB - 512, s.id()), p1);
  pool.deallocate(p1);

  // Large blocks: a 1 MiB remainder is split off, a smaller one stays with the block.
  void* big = pool.allocate(3 * MiB, s.id());
  EXPECT_EQ(pool.allocate(MiB, s.id()), at(big, 3 * MiB));
  void* whole = pool.allocate(3 * MiB + 512 * KiB, s.id());
  EXPECT_EQ(dev.raw_sizes, (std::vector<size_t>{2 * MiB, 4 * MiB, 4 * MiB}));
  EXPECT_EQ(pool.used_bytes(), 8 * MiB);
  EXPECT_EQ(pool.total_bytes(), 10 * MiB);
  pool.deallocate(big);
  pool.deallocate(at(big, 3 * MiB));
  pool.deallocate(whole);
  pool.free_all_blocks();
  EXPECT_EQ(pool.total_bytes(), 0u);
  EXPECT_EQ(dev.raw_frees, 3);
}

TEST_F(SimPool, FragmentedSegmentServesARequestOnceMergedAndIsReturned) {
  const size_t before = device_free_bytes();
  std::vector<void*> blocks;
  for (int i = 0; i < 32; ++i) blocks.push_back(pool.allocate(64 * KiB, s.id()));
  for (int i = 0; i < 32; ++i) ASSERT_EQ(blocks[i], at(blocks[0], i * 64 * KiB));
  EXPECT_EQ(pool.total_bytes(), 2 * MiB);  // exactly one full segment
  for (int i = 0; i < 32; i += 2) pool.deallocate(blocks[i]);
  EXPECT_EQ(pool.n_free_blocks(), 16u);
  EXPECT_EQ(pool.free_bytes(), MiB);

  // Half the segment is free, but in 64 KiB holes: 128 KiB needs a new segment.
  void* other = pool.allocate(128 * KiB, s.id());
  const uintptr_t offset = reinterpret_cast<uintptr_t>(other) -  // wraps below the segment
                           reinterpret_cast<uintptr_t>(blocks[0]);
  EXPECT_GE(offset, 2 * MiB);
  EXPECT_EQ(pool.total_bytes(), 4 * MiB);
  pool.deallocate(other);

  // Freeing the odd blocks before 15 joins blocks 0..14 into one 960 KiB run.
  for (int i = 1; i < 15; i += 2) pool.deallocate(blocks[i]);
  EXPECT_EQ(pool.n_free_blocks(), 1u + 8u + 1u);  // the run, 8 holes, the other segment
  EXPECT_EQ(pool.allocate(960 * KiB, s.id()), blocks[0]);
  EXPECT_EQ(dev.raw_sizes.size(), 2u);
  pool.deallocate(blocks[0]);
  for (int i = 15; i < 32; i += 2) pool.deallocate(blocks[i]);
  EXPECT_EQ(pool.n_free_blocks(), 2u);
  pool.free_all_blocks();
  EXPECT_EQ(pool.total_bytes(), 0u);
  EXPECT_EQ(dev.raw_frees, 2);
  EXPECT_EQ(device_free_bytes(), before);
}

TEST_F(SimPool, LimitCountsHeldBytesAndItsFailureSaysAskedUsedAndCached) {
  pool.set_limit(5 * MiB + 512 * KiB);
  void* p1 = pool.allocate(3 * MiB, s.id());  // a 4 MiB segment, its last 1 MiB cached
  // A 2 MiB segment would pass the limit; one of exactly the request does not.
  void* p2 = pool.allocate(MiB + 512 * KiB, s.id());
  EXPECT_EQ(dev.raw_sizes, (std::vector<size_t>{4 * MiB, MiB + 512 * KiB}));
  EXPECT_EQ(pool.total_bytes(), pool.get_limit());
  EXPECT_EQ(oom_message(pool, 512 * KiB),
            "[cuda] out of memory allocating 512.00 KiB on cuda:0 (used 4.50 MiB, cached 1.00 "
            "MiB, limit 5.50 MiB)");
  EXPECT_EQ(dev.failed_allocs, 0);  // the limit refused it before the device was asked
  pool.deallocate(p1);
  pool.deallocate(p2);

  // By fraction of the device: a request that fits the device but not the limit fails
  // after the cache is given back.
  pool.set_limit_fraction(0.125);
  const size_t limit = pool.get_limit();
  EXPECT_EQ(limit, dev.device_total_bytes() / 8);
  ASSERT_GE(limit, 4 * MiB);
  ASSERT_LT(limit + 2 * MiB, device_free_bytes());
  void* p3 = pool.allocate(limit / (2 * MiB) * (2 * MiB), s.id());
  EXPECT_THROW(pool.allocate(2 * MiB, s.id()), DeviceOutOfMemoryError);
  pool.deallocate(p3);
  EXPECT_THROW(pool.allocate(limit + 2 * MiB, s.id()), DeviceOutOfMemoryError);
  EXPECT_EQ(pool.total_bytes(), 0u);  // the cached segment went back in the attempt
  EXPECT_THROW(pool.set_limit_fraction(1.5), ValueError);
}

// Leaves the device `keep` bytes free, whatever its capacity and whatever else holds memory.
struct Ballast {
  CUdeviceptr ptr = 0;
  explicit Ballast(size_t keep) {
    const size_t free = device_free_bytes();
    if (free < keep) throw std::runtime_error("the simulated device has too little memory");
    if (free > keep) ok(sim().cuMemAlloc(&ptr, free - keep), "cuMemAlloc");
  }
  ~Ballast() {
    if (ptr) sim().cuMemFree(ptr);
  }
};

TEST_F(SimPool, OutOfMemoryReleasesTheCacheThenRunsTheGcHookBeforeFailing) {
  Ballast ballast(8 * MiB);
  std::vector<void*> cached;
  for (int i = 0; i < 3; ++i) cached.push_back(pool.allocate(2 * MiB, s.id()));
  for (void* p : cached) pool.deallocate(p);
  EXPECT_EQ(pool.free_bytes(), 6 * MiB);

  // Three separate 2 MiB segments cannot serve 4 MiB, and the device has 2 MiB left: the
  // cache goes back to the device, and the retry gets the memory.
  int hook_runs = 0;
  std::vector<void*> garbage;  // what the "collector" frees
  pool.set_gc_hook([&] {
    ++hook_runs;
    for (void* p : garbage) pool.deallocate(p);
    garbage.clear();
  });
  void* x = pool.allocate(4 * MiB, s.id());
  EXPECT_EQ(dev.failed_allocs, 1);
  EXPECT_EQ(dev.raw_frees, 3);
  EXPECT_EQ(hook_runs, 0);
  EXPECT_EQ(pool.total_bytes(), 4 * MiB);

  // Nothing cached: the hook frees x, whose block serves the retry at once.
  void* y = pool.allocate(2 * MiB, s.id());
  garbage.push_back(x);
  EXPECT_EQ(pool.allocate(4 * MiB, s.id()), x);
  EXPECT_EQ(hook_runs, 1);

  // More than the device has: the hook runs (y goes to the cache, then back to the device)
  // before the error, which names the request and what the pool still holds.
  garbage.push_back(y);
  EXPECT_EQ(oom_message(pool, 16 * MiB),
            "[cuda] out of memory allocating 16.00 MiB on cuda:0 (used 4.00 MiB, cached 0 B)");
  EXPECT_EQ(hook_runs, 2);
  EXPECT_EQ(pool.total_bytes(), 4 * MiB);
  pool.deallocate(x);
}

TEST_F(SimPool, FreedBlockIsReusedAtOnceOnItsStreamAndElsewhereOnlyAfterItsEvent) {
  const size_t n = 2 * MiB;  // a segment of its own, never split
  CUdeviceptr out = 0;
  ok(sim().cuMemAlloc(&out, n), "cuMemAlloc");
  void* p = pool.allocate(n, a.id());
  fill(p, 0x11, n, a);
  Gate gate(a);
  // Queued behind the gate: reads p after p is freed, as a kernel of a dropped array would.
  ok(sim().cuMemcpyDtoDAsync(out, reinterpret_cast<CUdeviceptr>(p), n, a.handle), "copy");
  pool.deallocate(p);
  ASSERT_FALSE(a.idle());

  // Stream b may not have p while the read is pending: it gets a new segment, and its
  // write lands there.
  void* q = pool.allocate(n, b.id());
  EXPECT_NE(q, p);
  EXPECT_EQ(pool.total_bytes(), 2 * n);
  fill(q, 0xEE, n, b);
  b.sync();

  // Stream a may: its later work runs after the read.
  EXPECT_EQ(pool.allocate(n, a.id()), p);
  fill(p, 0x77, n, a);
  pool.deallocate(p);  // the new event, behind the fill, guards p now
  void* t = pool.allocate(n, b.id());
  EXPECT_NE(t, p);
  EXPECT_EQ(pool.total_bytes(), 3 * n);
  EXPECT_FALSE(a.idle());

  gate.open();
  a.sync();
  EXPECT_EQ(pool.allocate(n, b.id()), p);  // the event has completed
  EXPECT_EQ(pool.total_bytes(), 3 * n);
  EXPECT_TRUE(holds(reinterpret_cast<void*>(out), 0x11, n, a));  // not clobbered
  EXPECT_TRUE(holds(p, 0x77, n, b));
  EXPECT_TRUE(holds(q, 0xEE, n, b));
  for (void* block : {p, q, t}) pool.deallocate(block);
  ok(sim().cuMemFree(out), "cuMemFree");
}

TEST_F(SimPool, NeighboursFreedOnTwoStreamsMergeOnceAnEventCompletes) {
  Stream& c = s;
  void* x = pool.allocate(4 * MiB, a.id());
  pool.deallocate(x);
  a.sync();  // x's free event is done: any stream may take its pieces
  void* left = pool.allocate(2 * MiB, a.id());
  void* right = pool.allocate(2 * MiB, b.id());
  ASSERT_EQ(left, x);
  ASSERT_EQ(right, at(x, 2 * MiB));
  Gate gate_a(a), gate_b(b);
  pool.deallocate(left);
  pool.deallocate(right);
  // Each half guards pending work of a different stream: they stay apart.
  EXPECT_EQ(pool.n_free_blocks(), 2u);

  gate_a.open();
  a.sync();
  // One event done is enough to merge; the merged block keeps b's pending event, so
  // stream c still cannot have it and gets a new segment.
  void* y = pool.allocate(4 * MiB, c.id());
  EXPECT_NE(y, x);
  EXPECT_EQ(pool.n_free_blocks(), 1u);
  EXPECT_EQ(pool.total_bytes(), 8 * MiB);

  gate_b.open();
  b.sync();
  EXPECT_EQ(pool.allocate(4 * MiB, c.id()), x);
  EXPECT_EQ(dev.raw_sizes.size(), 2u);
  pool.deallocate(x);
  pool.deallocate(y);
}

TEST(SimExactPool, GivesEachBlockItsOwnAllocationOfTheSizeAsked) {
  Stream s;
  SimMemory dev(/*exact=*/true);
  MemoryPool pool(dev);
  const size_t before = device_free_bytes();
  void* p1 = pool.allocate(1000, s.id());
  void* p2 = pool.allocate(0, s.id());  // one byte: a valid, unique pointer
  void* p3 = pool.allocate(3 * MiB + 1, s.id());
  EXPECT_EQ(dev.raw_sizes, (std::vector<size_t>{1000, 1, 3 * MiB + 1}));
  EXPECT_EQ(pool.used_bytes(), 3 * MiB + 1002);
  EXPECT_EQ(pool.total_bytes(), 3 * MiB + 1002);
  EXPECT_EQ(pool.free_bytes(), 0u);
  EXPECT_LE(device_free_bytes(), before - (3 * MiB + 1002));
  fill(p1, 0x42, 1000, s);  // the whole block, and the simulator checks its bounds
  EXPECT_TRUE(holds(p1, 0x42, 1000, s));

  pool.deallocate(p1);  // back to the device at once, nothing cached
  EXPECT_EQ(dev.raw_frees, 1);
  EXPECT_EQ(pool.total_bytes(), 3 * MiB + 2);
  EXPECT_EQ(pool.n_free_blocks(), 0u);
  void* p4 = pool.allocate(1000, s.id());
  EXPECT_EQ(dev.raw_sizes.size(), 4u);  // a new raw allocation, never a cache hit
  EXPECT_EQ(pool.stats().cache_hits, 0u);

  pool.set_limit(pool.total_bytes() + 100);
  EXPECT_THROW(pool.allocate(101, s.id()), DeviceOutOfMemoryError);
  void* p5 = pool.allocate(100, s.id());
  EXPECT_EQ(pool.total_bytes(), pool.get_limit());
  for (void* p : {p2, p3, p4, p5}) pool.deallocate(p);
  EXPECT_EQ(pool.total_bytes(), 0u);
  EXPECT_EQ(dev.raw_frees, 5);
  EXPECT_EQ(device_free_bytes(), before);
}

}  // namespace
}  // namespace tessera::cuda
