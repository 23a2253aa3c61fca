#pragma once
// The OS threads that run the blocks of simulated launches, shared by all launches: the
// launching thread takes part too, so a launch of one block never waits for a worker, and
// with the workers a launch keeps every core busy.

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>

namespace tessera::cudasim {

// Work that several OS threads share: each calls take_part(), which returns when nothing
// is left for it to take.
class SharedJob {
 public:
  explicit SharedJob(uint64_t pieces) : pieces_(pieces) {}
  virtual ~SharedJob() = default;
  virtual void take_part() = 0;

 private:
  friend class WorkerPool;
  const uint64_t pieces_;  // no more threads than pieces are woken
  int workers_ = 0;        // pool threads inside take_part (under the pool's mutex)
};

class WorkerPool {
 public:
  explicit WorkerPool(unsigned size);
  // Runs `job` on the calling thread and on idle workers; returns once every thread that
  // took part has left it.
  void run(SharedJob& job);

 private:
  void forget(SharedJob& job);
  void work();

  std::mutex mutex_;
  std::condition_variable work_ready_, worker_left_;
  std::deque<SharedJob*> queue_;
  const unsigned size_;
};

// The process's pool, made on first use (a child made by fork() makes its own).
WorkerPool& worker_pool();

}  // namespace tessera::cudasim
