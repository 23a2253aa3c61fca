#include "backend/cudasim/worker_pool.h"

#include <pthread.h>

#include <algorithm>
#include <new>
#include <thread>

namespace tessera::cudasim {

WorkerPool::WorkerPool(unsigned size) : size_(size) {
  for (unsigned i = 0; i < size; ++i) {
    std::thread worker([this] { work(); });
    pthread_setname_np(worker.native_handle(), "tessera-cudasim");
    worker.detach();  // the pool lives as long as the process
  }
}

void WorkerPool::run(SharedJob& job) {
  const bool shared = job.pieces_ > 1;
  if (shared) {
    std::lock_guard lock(mutex_);
    queue_.push_back(&job);
  }
  for (uint64_t i = 1; shared && i < std::min<uint64_t>(job.pieces_, size_ + 1); ++i) {
    work_ready_.notify_one();
  }
  job.take_part();
  if (shared) {
    std::unique_lock lock(mutex_);
    forget(job);
    worker_left_.wait(lock, [&] { return job.workers_ == 0; });
  }
}

void WorkerPool::forget(SharedJob& job) {
  const auto it = std::find(queue_.begin(), queue_.end(), &job);
  if (it != queue_.end()) queue_.erase(it);
}

void WorkerPool::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    work_ready_.wait(lock, [&] { return !queue_.empty(); });
    SharedJob& job = *queue_.front();
    ++job.workers_;
    lock.unlock();
    job.take_part();
    lock.lock();
    forget(job);  // its pieces are all taken
    if (--job.workers_ == 0) worker_left_.notify_all();
  }
}

namespace {

// A child made by fork() has none of the parent's threads: it makes its own pool (the
// parent's copy is left alone, never destroyed).
std::mutex pool_mutex;
WorkerPool* pool_instance = nullptr;

}  // namespace

WorkerPool& worker_pool() {
  std::lock_guard lock(pool_mutex);
  if (!pool_instance) {
    static const int registered = pthread_atfork(nullptr, nullptr, [] {
      new (&pool_mutex) std::mutex;
      pool_instance = nullptr;
    });
    static_cast<void>(registered);
    pool_instance = new WorkerPool(std::max(2u, std::thread::hardware_concurrency()) - 1);
  }
  return *pool_instance;
}

}  // namespace tessera::cudasim
