#include "backend/cpu/parallel.h"

#include <algorithm>
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

// Workers sleep on a generation counter; each job is split into `parts` numbered slices
// that the workers and the caller claim until none is left.
class Pool {
 public:
  explicit Pool(int threads) { resize(threads); }
  ~Pool() { stop(); }

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  void resize(int threads) {
    stop();
    stopping_ = false;
    for (int i = 1; i < threads; ++i) workers_.emplace_back([this] { work(); });
  }

  void run(int parts, const std::function<void(int)>& task) {
    std::unique_lock lock(run_mutex_);  // one job at a time; nested calls run inline
    {
      std::lock_guard guard(mutex_);
      task_ = &task;
      parts_ = parts;
      next_ = 0;
      pending_ = parts;
      error_ = nullptr;
      ++generation_;
    }
    wake_.notify_all();
    drain();
    std::unique_lock guard(mutex_);
    done_.wait(guard, [this] { return pending_ == 0; });
    task_ = nullptr;
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void stop() {
    {
      std::lock_guard guard(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (auto& t : workers_) t.join();
    workers_.clear();
  }

  void work() {
    uint64_t seen = 0;
    for (;;) {
      {
        std::unique_lock guard(mutex_);
        wake_.wait(guard, [&] { return stopping_ || generation_ != seen; });
        if (stopping_) return;
        seen = generation_;
      }
      drain();
    }
  }

  void drain() {
    for (;;) {
      int part;
      const std::function<void(int)>* task;
      {
        std::lock_guard guard(mutex_);
        if (!task_ || next_ >= parts_) return;
        part = next_++;
        task = task_;
      }
      try {
        (*task)(part);
      } catch (...) {
        std::lock_guard guard(mutex_);
        if (!error_) error_ = std::current_exception();
      }
      std::lock_guard guard(mutex_);
      if (--pending_ == 0) done_.notify_all();
    }
  }

  std::vector<std::thread> workers_;
  std::mutex run_mutex_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void(int)>* task_ = nullptr;
  int parts_ = 0, next_ = 0, pending_ = 0;
  uint64_t generation_ = 0;
  bool stopping_ = false;
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
