#include "backend/cpu/parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace tessera::cpu {
namespace {

int default_threads() {
  if (const char* env = std::getenv("TESSERA_NUM_THREADS")) {
    int n = std::atoi(env);
    if (n > 0) return n;
  }
  return std::max(1u, std::thread::hardware_concurrency());
}

// Workers wait on a generation counter; each job is split into `parts` numbered slices
// that the workers and the caller claim until none is left.
//
// Waiting polls before it sleeps. A program's array operations come back to back (a
// solver's loop: a few microseconds of Python between them), and a worker woken from a
// condition variable takes tens of microseconds to run again: as long as the work of a
// mid-size operation (10^5 elements) on one core. So a worker polls for the next job for a
// short while (kSpin) before it sleeps, and the caller polls for the job's end likewise;
// OpenMP runtimes and OpenBLAS wait the same way. After the first microseconds the poll
// yields the core between looks: where more threads are runnable than there are cores
// (several processes, each with its pool) a waiting thread then costs the others little,
// and where a core is free the yield returns at once.
class Pool {
 public:
  explicit Pool(int threads) { resize(threads); }
  ~Pool() { stop(); }

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  void resize(int threads) {
    stop();
    stopping_.store(false);
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
  }

  void run(int parts, const std::function<void(int)>& task) {
    std::unique_lock lock(run_mutex_);  // one job at a time; nested calls run inline
    error_ = nullptr;
    task_.store(&task, std::memory_order_relaxed);
    parts_.store(parts, std::memory_order_relaxed);
    pending_.store(parts, std::memory_order_relaxed);
    next_.store(0, std::memory_order_release);  // publishes the job to drain()
    {
      std::lock_guard guard(mutex_);  // a worker about to sleep sees the new generation
      generation_.fetch_add(1, std::memory_order_release);
    }
    if (sleepers_.load(std::memory_order_relaxed) > 0) wake_.notify_all();
    drain();
    if (!spin_until([this] { return pending_.load(std::memory_order_acquire) == 0; })) {
      std::unique_lock guard(mutex_);
      done_.wait(guard, [this] { return pending_.load(std::memory_order_acquire) == 0; });
    }
    if (error_) std::rethrow_exception(error_);
  }

 private:
  // How long a waiting thread polls before it sleeps, and for how much of that it keeps
  // its core.
  static constexpr std::chrono::microseconds kSpin{100};
  static constexpr std::chrono::microseconds kBusy{5};

  // Polls `ready` for up to kSpin; whether it became true.
  template <typename Ready>
  static bool spin_until(Ready ready) {
    const auto start = std::chrono::steady_clock::now();
    for (;;) {
      for (int i = 0; i < 64; ++i) {
        if (ready()) return true;
        cpu_relax();
      }
      const auto waited = std::chrono::steady_clock::now() - start;
      if (waited > kSpin) return ready();
      if (waited > kBusy) std::this_thread::yield();
    }
  }

  static void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }

  void stop() {
    {
      std::lock_guard guard(mutex_);
      stopping_.store(true);
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
    workers_.clear();
  }

  void work() {
    uint64_t seen = generation_.load(std::memory_order_acquire);
    for (;;) {
      auto next_job = [&] {
        return stopping_.load(std::memory_order_relaxed) ||
               generation_.load(std::memory_order_acquire) != seen;
      };
      if (!spin_until(next_job)) {
        std::unique_lock guard(mutex_);
        sleepers_.fetch_add(1, std::memory_order_relaxed);
        wake_.wait(guard, next_job);
        sleepers_.fetch_sub(1, std::memory_order_relaxed);
      }
      if (stopping_.load()) return;
      seen = generation_.load(std::memory_order_acquire);
      drain();
    }
  }

  void drain() {
    for (;;) {
      const int part = next_.fetch_add(1, std::memory_order_acquire);
      if (part >= parts_.load(std::memory_order_relaxed)) return;
      try {
        (*task_.load(std::memory_order_relaxed))(part);
      } catch (...) {
        std::lock_guard guard(mutex_);
        if (!error_) error_ = std::current_exception();
      }
      if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        std::lock_guard guard(mutex_);  // the caller may be between its check and its sleep
        done_.notify_all();
      }
    }
  }

  std::vector<std::thread> workers_;
  std::mutex run_mutex_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::atomic<const std::function<void(int)>*> task_{nullptr};
  std::atomic<int> parts_{0}, next_{0}, pending_{0}, sleepers_{0};
  std::atomic<uint64_t> generation_{0};
  std::atomic<bool> stopping_{false};
  std::exception_ptr error_;
};

Pool& pool() {
  static Pool p(default_threads());
  return p;
}

thread_local bool inside_parallel = false;

}  // namespace

int num_threads() { return pool().size(); }

void set_num_threads(int n) { pool().resize(std::max(1, n)); }

void parallel_for(int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& body) {
  if (n <= 0) return;
  int64_t max_parts = std::max<int64_t>(1, n / std::max<int64_t>(grain, 1));
  int parts = static_cast<int>(std::min<int64_t>(max_parts, num_threads()));
  if (parts <= 1 || inside_parallel) {
    body(0, n);
    return;
  }
  pool().run(parts, [&](int part) {
    struct Mark {
      Mark() { inside_parallel = true; }
      ~Mark() { inside_parallel = false; }
    } mark;
    body(n * part / parts, n * (part + 1) / parts);
  });
}

}  // namespace tessera::cpu
