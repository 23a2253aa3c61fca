#include "backend/cudasim/executor.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <boost/context/detail/fcontext.hpp>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "backend/cudasim/fault_trap.h"
#include "backend/cudasim/fiber_stacks.h"
#include "backend/cudasim/worker_pool.h"

namespace tessera::cudasim {
namespace {

// Boost.Context's bare contexts: a fiber that is abandoned after an error is simply never
// resumed again (its stack goes back to the pool), where a boost::context::fiber would be
// unwound through the kernel's frames by an exception.
namespace fc = boost::context::detail;

constexpr unsigned kWarpSize = 32;
constexpr uint64_t kMaxBlockThreads = 1024;

// Appended piece by piece: GCC 12 warns wrongly about "(" + std::string (its bug 105329).
std::string dim_text(TsimDim3 d) {
  std::string text(1, '(');
  text.append(std::to_string(d.x)).append(",").append(std::to_string(d.y)).append(",");
  return text.append(std::to_string(d.z)).append(")");
}
bool same(TsimDim3 a, TsimDim3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }
TsimDim3 unflatten(uint64_t i, TsimDim3 shape) {
  return {static_cast<unsigned>(i % shape.x), static_cast<unsigned>(i / shape.x % shape.y),
          static_cast<unsigned>(i / shape.x / shape.y)};
}

// One launch, shared by the OS threads that run its blocks.
struct Launch final : SharedJob {
  Launch(const TsimKernel& k, const LaunchShape& s, void* const* p, uint64_t b, bool c)
      : SharedJob(b), kernel(k), shape(s), params(p), blocks(b), cooperative(c) {}

  void take_part() override;  // runs blocks until none is left

  // The first error ends the launch; the others are consequences. Blocks waiting at the
  // grid barrier wake to end too.
  void fail(std::string message, bool fault = false) {
    {
      std::lock_guard lock(error_mutex);
      if (failed.load(std::memory_order_relaxed)) return;
      error = std::move(message);
      illegal_address = fault;
      failed.store(true);
    }
    { std::lock_guard lock(grid_mutex); }
    grid_changed.notify_all();
  }

  // A cooperative launch's grid barrier: a block whose threads have all reached grid.sync()
  // waits until every block's have. False when the launch failed meanwhile (a block ended
  // without reaching it, or a thread failed).
  bool wait_grid() {
    std::unique_lock lock(grid_mutex);
    const uint64_t generation = grid_generation;
    if (++grid_arrived == blocks) {
      grid_arrived = 0;
      ++grid_generation;
      lock.unlock();
      grid_changed.notify_all();
      return true;
    }
    if (blocks_ended > 0) {
      const std::string text = grid_deadlock();
      lock.unlock();
      fail(text);
      return false;
    }
    grid_changed.wait(lock, [&] { return grid_generation != generation || failed.load(); });
    return grid_generation != generation;
  }

  // A block of a cooperative launch ended: blocks waiting at the grid barrier never will
  // see it arrive (a GPU would hang).
  void block_ended() {
    std::unique_lock lock(grid_mutex);
    ++blocks_ended;
    if (grid_arrived == 0) return;
    const std::string text = grid_deadlock();
    lock.unlock();
    fail(text);
  }

  std::string grid_deadlock() const {
    return "[cuda sim] kernel " + std::string(kernel.name) + ": grid.sync() reached by " +
           std::to_string(grid_arrived) + " of " + std::to_string(blocks) + " blocks; " +
           std::to_string(blocks_ended) + " ended without reaching it";
  }

  const TsimKernel& kernel;
  const LaunchShape shape;
  void* const* const params;
  const uint64_t blocks;
  const bool cooperative;
  std::mutex grid_mutex;
  std::condition_variable grid_changed;
  uint64_t grid_arrived = 0, blocks_ended = 0, grid_generation = 0;
  std::atomic<uint64_t> next_block{0};
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  std::string error;
  bool illegal_address = false;
};

enum class State : uint8_t {
  kFresh,
  kRunning,
  kReady,
  kAtBarrier,
  kAtGridBarrier,
  kAtWarp,
  kAtActiveMask,
  kExited,
  kFailed
};

struct SimThread {
  TsimThreadPlace place;
  fc::fcontext_t context;  // where it is suspended
  void* stack;             // the top of the stack its fiber runs on, while it has one
  State state;
  int barrier_count;  // what its __syncthreads returns
  unsigned mask;      // the mask of the warp operation it waits in; what __activemask returns
};

// A warp operation some lanes have reached: it completes when every lane of the mask has.
struct WarpRound {
  unsigned mask, arrived;
  uint64_t values[kWarpSize];
  uint64_t* outputs[kWarpSize];
};

// Runs blocks on the calling OS thread, one at a time, each thread of a block as a fiber.
// Threads are resumed in order; a fiber whose thread exits goes on with the next thread not
// yet started, so a block without barriers runs all its threads on one fiber.
class BlockRunner {
 public:
  void run(Launch& launch, uint64_t block);

  // The runtime's services, called on the running thread's fiber.
  const TsimThreadPlace* place() const { return &current_->place; }
  int sync_block(int predicate);
  void sync_grid();
  int warp_exchange(unsigned mask, uint64_t value, uint64_t* gathered);
  unsigned active_mask();
  void* dynamic_shared() const { return current_->place.dynamic_shared; }
  [[noreturn]] void fail(const char* message, bool illegal_address = false);

 private:
  static void fiber_main(fc::transfer_t from);
  void setup(Launch& launch, uint64_t block);
  SimThread& take_fresh();
  State state_of(unsigned i) const { return i < next_fresh_ ? threads_[i].state : State::kFresh; }
  void start(SimThread& t);
  void switch_to(SimThread& t);
  void suspend(State state);
  unsigned rank(const SimThread& t) const { return static_cast<unsigned>(&t - threads_.data()); }
  unsigned lanes_of(unsigned warp) const {
    const unsigned n = n_ - warp * kWarpSize;
    return n >= kWarpSize ? ~0u : (1u << n) - 1;
  }
  void settle_active_masks();
  void abandon();
  std::string threads_text(const std::function<bool(unsigned)>& selected) const;
  std::string deadlock_report() const;

  Launch* launch_ = nullptr;
  TsimDim3 block_idx_{};
  unsigned n_ = 0;
  std::vector<SimThread> threads_;
  std::vector<std::vector<WarpRound>> warps_;  // the open rounds of each warp
  unsigned next_fresh_ = 0, ready_ = 0, exited_ = 0, at_active_mask_ = 0;
  unsigned barrier_arrived_ = 0, grid_arrived_ = 0;
  int barrier_count_ = 0;
  SimThread* current_ = nullptr;
  fc::fcontext_t scheduler_ = nullptr;
  std::vector<std::max_align_t> shared_;  // dynamic shared memory, 16-byte aligned
  StackPool stacks_;
};

// The calling OS thread's runner, and the one whose block it is running (the runtime's
// functions reach it without the guard of a thread_local object).
BlockRunner& runner() {
  thread_local BlockRunner r;
  ensure_fault_stack();
  return r;
}
thread_local BlockRunner* active_runner = nullptr;
// The stack top of the fiber this OS thread is running kernel code on, null outside kernel
// code; read by the fault trap's signal handler, hence static TLS (no lazy allocation).
thread_local void* kernel_stack_top __attribute__((tls_model("initial-exec"))) = nullptr;

void BlockRunner::setup(Launch& launch, uint64_t block) {
  active_runner = this;
  launch_ = &launch;
  const LaunchShape& shape = launch.shape;
  const TsimDim3 b = shape.block;
  block_idx_ = unflatten(block, shape.grid);
  const size_t units =
      (shape.dynamic_shared_bytes + sizeof(std::max_align_t) - 1) / sizeof(std::max_align_t);
  if (shared_.size() < std::max<size_t>(units, 1)) shared_.resize(std::max<size_t>(units, 1));
  // The threads' own places change only with the launch's shape; the rest of a thread's
  // state is set when it starts (the threads past next_fresh_ have not).
  if (threads_.empty() || !same(threads_[0].place.block_dim, b) ||
      !same(threads_[0].place.grid_dim, shape.grid)) {
    n_ = b.x * b.y * b.z;
    threads_.resize(n_);
    unsigned i = 0;
    for (unsigned z = 0; z < b.z; ++z) {
      for (unsigned y = 0; y < b.y; ++y) {
        for (unsigned x = 0; x < b.x; ++x) {
          threads_[i++].place = {{x, y, z}, {}, b, shape.grid, nullptr};
        }
      }
    }
  }
  warps_.resize((n_ + kWarpSize - 1) / kWarpSize);
  for (auto& rounds : warps_) rounds.clear();
  next_fresh_ = ready_ = exited_ = at_active_mask_ = barrier_arrived_ = grid_arrived_ = 0;
  barrier_count_ = 0;
}

SimThread& BlockRunner::take_fresh() {
  SimThread& t = threads_[next_fresh_++];
  t.place.block_idx = block_idx_;
  t.place.dynamic_shared = shared_.data();
  t.state = State::kRunning;
  return t;
}

void BlockRunner::run(Launch& launch, uint64_t block) {
  setup(launch, block);
  try {
    for (;;) {
      while (ready_ > 0 || next_fresh_ < n_) {
        for (unsigned i = 0; i < n_ && exited_ < n_; ++i) {
          if (launch.failed.load(std::memory_order_relaxed)) return abandon();
          SimThread& t = threads_[i];
          if (i == next_fresh_) {
            start(take_fresh());
          } else if (t.state == State::kReady) {
            --ready_;
            switch_to(t);
          }
        }
        if (launch.failed.load(std::memory_order_relaxed)) return abandon();
        settle_active_masks();
      }
      // Every thread that has not exited waits at grid.sync(): the block has arrived (as
      // on a GPU, where threads that returned early, past the end of the data, take no
      // part). This OS thread waits for the other blocks, then releases the block's threads.
      if (grid_arrived_ == 0 || grid_arrived_ != n_ - exited_) break;
      grid_arrived_ = 0;
      if (!launch.wait_grid()) return abandon();
      for (SimThread& t : threads_) {
        if (t.state == State::kAtGridBarrier) {
          t.state = State::kReady;
          ++ready_;
        }
      }
    }
  } catch (const std::bad_alloc&) {
    launch.fail("[cuda sim] kernel " + std::string(launch.kernel.name) +
                ": out of memory for the threads of block " + dim_text(block_idx_));
    return abandon();
  }
  if (exited_ < n_) {
    launch.fail(deadlock_report());
    abandon();
  }
}

void BlockRunner::start(SimThread& t) {
  t.stack = stacks_.acquire();
  t.context = fc::make_fcontext(t.stack, kUsableStackBytes, &fiber_main);
  switch_to(t);
}

// Runs `t` until its fiber suspends or ends; the thread then current is the one that
// suspended (a fiber may have moved on to later threads).
void BlockRunner::switch_to(SimThread& t) {
  t.state = State::kRunning;
  current_ = &t;
  kernel_stack_top = t.stack;
  const fc::transfer_t back = fc::jump_fcontext(t.context, &t);
  kernel_stack_top = nullptr;
  if (back.data) {
    stacks_.release(back.data);
  } else {
    current_->context = back.fctx;
  }
}

void BlockRunner::suspend(State state) {
  current_->state = state;
  scheduler_ = fc::jump_fcontext(scheduler_, nullptr).fctx;
}

void BlockRunner::fiber_main(fc::transfer_t from) {
  BlockRunner& r = *active_runner;
  r.scheduler_ = from.fctx;
  SimThread* t = static_cast<SimThread*>(from.data);
  void* const stack = t->stack;
  while (t) {
    // Reported outside the handler, which a failed fiber would never leave.
    char thrown[256] = "";
    try {
      r.launch_->kernel.launch(r.launch_->params);
    } catch (const std::exception& e) {
      std::snprintf(thrown, sizeof thrown, "the kernel threw an exception: %s", e.what());
    } catch (...) {
      std::snprintf(thrown, sizeof thrown, "the kernel threw an exception");
    }
    if (thrown[0]) r.fail(thrown);
    t->state = State::kExited;
    t->stack = nullptr;
    ++r.exited_;
    t = nullptr;
    if (r.next_fresh_ < r.n_ && !r.launch_->failed.load(std::memory_order_relaxed)) {
      t = &r.take_fresh();
      t->stack = stack;
      r.current_ = t;
    }
  }
  fc::jump_fcontext(r.scheduler_, stack);
  std::abort();  // an ended fiber is never resumed
}

int BlockRunner::sync_block(int predicate) {
  SimThread& t = *current_;
  ++barrier_arrived_;
  barrier_count_ += predicate != 0;
  if (barrier_arrived_ < n_) {
    suspend(State::kAtBarrier);
    return t.barrier_count;
  }
  // The last thread to arrive releases everyone, itself included: all go on in order.
  const int count = barrier_count_;
  barrier_arrived_ = 0;
  barrier_count_ = 0;
  t.state = State::kAtBarrier;
  for (SimThread& other : threads_) {
    if (other.state == State::kAtBarrier) {
      other.state = State::kReady;
      other.barrier_count = count;
      ++ready_;
    }
  }
  suspend(State::kReady);
  return count;
}

// The thread waits at the grid barrier; the scheduler (run) completes the block's arrival
// once every thread that has not exited waits there.
void BlockRunner::sync_grid() {
  if (!launch_->cooperative) {
    fail("grid.sync() in a launch that is not cooperative (cuLaunchCooperativeKernel)");
  }
  ++grid_arrived_;
  suspend(State::kAtGridBarrier);
}

int BlockRunner::warp_exchange(unsigned mask, uint64_t value, uint64_t* gathered) {
  SimThread& t = *current_;
  const unsigned warp = rank(t) / kWarpSize, lane = rank(t) % kWarpSize, bit = 1u << lane;
  mask = (mask | bit) & lanes_of(warp);
  std::vector<WarpRound>& rounds = warps_[warp];
  auto round = std::find_if(rounds.begin(), rounds.end(), [&](const WarpRound& r) {
    return r.mask == mask && !(r.arrived & bit);
  });
  if (round == rounds.end()) {
    round = rounds.insert(rounds.end(), WarpRound{mask, 0, {}, {}});
  }
  round->values[lane] = value;
  round->outputs[lane] = gathered;
  round->arrived |= bit;
  if (round->arrived != mask) {
    t.mask = mask;
    suspend(State::kAtWarp);
    return static_cast<int>(lane);
  }
  // The last lane to arrive hands every lane the values (before any of them can run on and
  // meet again) and releases them all, itself included: they go on in order.
  for (unsigned l = 0; l < kWarpSize; ++l) {
    if (!(mask >> l & 1)) continue;
    if (round->outputs[l]) std::memcpy(round->outputs[l], round->values, sizeof round->values);
    threads_[warp * kWarpSize + l].state = State::kReady;
    ++ready_;
  }
  *round = rounds.back();
  rounds.pop_back();
  suspend(State::kReady);
  return static_cast<int>(lane);
}

// __activemask: the lanes that call it together, which on a GPU are the converged ones.
// Here a lane waits there until every other lane of its warp has exited or waits too
// (there, at a barrier or in a warp operation); the lanes that wait there are the mask.
unsigned BlockRunner::active_mask() {
  ++at_active_mask_;
  suspend(State::kAtActiveMask);
  return current_->mask;
}

void BlockRunner::settle_active_masks() {
  for (unsigned first = 0; at_active_mask_ > 0 && first < n_; first += kWarpSize) {
    const unsigned last = std::min(first + kWarpSize, n_);
    unsigned mask = 0;
    bool settled = true;
    for (unsigned i = first; i < last; ++i) {
      const State s = state_of(i);
      settled = settled && s != State::kFresh && s != State::kReady;
      if (s == State::kAtActiveMask) mask |= 1u << (i - first);
    }
    if (!settled || mask == 0) continue;
    for (unsigned i = first; i < last; ++i) {
      if (threads_[i].state != State::kAtActiveMask) continue;
      threads_[i].state = State::kReady;
      threads_[i].mask = mask;
      ++ready_;
      --at_active_mask_;
    }
  }
}

void BlockRunner::fail(const char* message, bool illegal_address) {
  launch_->fail("[cuda sim] kernel " + std::string(launch_->kernel.name) + ", block " +
                    dim_text(block_idx_) + ", thread " + dim_text(current_->place.thread_idx) +
                    ": " + message,
                illegal_address);
  suspend(State::kFailed);
  std::abort();  // a failed thread is never resumed
}

// The block's fibers are dropped where they stand, not unwound: their stacks belong to the
// pool, and unwinding would run the kernel's code again after its failure.
void BlockRunner::abandon() {
  for (SimThread& t : threads_) {
    if (t.stack) stacks_.release(t.stack);
    t.stack = nullptr;
  }
}

// "(0,0,0)..(31,0,0), (40,0,0)": the selected threads as runs of consecutive ranks.
std::string BlockRunner::threads_text(const std::function<bool(unsigned)>& selected) const {
  constexpr int kMaxRuns = 8;
  std::string text;
  int runs = 0;
  unsigned unlisted = 0;
  for (unsigned i = 0; i < n_; ++i) {
    if (!selected(i) || (i > 0 && selected(i - 1))) continue;
    unsigned last = i;
    while (last + 1 < n_ && selected(last + 1)) ++last;
    if (++runs > kMaxRuns) {
      unlisted += last - i + 1;
      continue;
    }
    if (!text.empty()) text += ", ";
    text += dim_text(threads_[i].place.thread_idx);
    if (last > i) text += ".." + dim_text(threads_[last].place.thread_idx);
  }
  if (unlisted) text += " and " + std::to_string(unlisted) + " more";
  return text;
}

// Why the block can go no further: a barrier or a warp operation some threads never reach.
std::string BlockRunner::deadlock_report() const {
  const auto in = [this](State s) {
    return [this, s](unsigned i) { return threads_[i].state == s; };
  };
  const auto any = [this](State s) {
    return std::any_of(threads_.begin(), threads_.end(),
                       [s](const SimThread& t) { return t.state == s; });
  };
  std::string text = "[cuda sim] kernel " + std::string(launch_->kernel.name) + ": ";
  std::vector<std::string> missing;
  if (any(State::kAtGridBarrier)) {
    text += "grid.sync() in block " + dim_text(block_idx_) + ": reached by threads " +
            threads_text(in(State::kAtGridBarrier));
    if (any(State::kAtBarrier)) {
      missing.push_back(threads_text(in(State::kAtBarrier)) + ", which wait at __syncthreads");
    }
    if (any(State::kAtWarp)) {
      missing.push_back(threads_text(in(State::kAtWarp)) + ", which wait in a warp operation");
    }
  } else if (any(State::kAtBarrier)) {
    text += "__syncthreads in block " + dim_text(block_idx_) + ": reached by threads " +
            threads_text(in(State::kAtBarrier));
    if (any(State::kExited)) missing.push_back(threads_text(in(State::kExited)) + ", which exited");
    if (any(State::kAtWarp)) {
      missing.push_back(threads_text(in(State::kAtWarp)) + ", which wait in a warp operation");
    }
  } else {
    const auto open = std::find_if(warps_.begin(), warps_.end(),
                                   [](const std::vector<WarpRound>& r) { return !r.empty(); });
    if (open == warps_.end()) return text + "block " + dim_text(block_idx_) + " cannot go on";
    const unsigned warp = static_cast<unsigned>(open - warps_.begin());
    const WarpRound& round = open->front();
    const unsigned first = warp * kWarpSize;
    const auto lanes = [&](unsigned bits, auto state_test) {
      return [=, this](unsigned i) {
        return i >= first && i - first < kWarpSize && (bits >> (i - first) & 1) &&
               state_test(threads_[i]);
      };
    };
    const auto all = [](const SimThread&) { return true; };
    const auto state_is = [](State s) { return [s](const SimThread& t) { return t.state == s; }; };
    char mask[16];
    std::snprintf(mask, sizeof mask, "0x%08x", round.mask);
    text += "warp operation (mask " + std::string(mask) + ") in block " + dim_text(block_idx_) +
            ", warp " + std::to_string(warp) + ": reached by threads " +
            threads_text(lanes(round.arrived, all));
    const unsigned absent = round.mask & ~round.arrived;
    const std::pair<State, const char*> reasons[] = {
        {State::kExited, ", which exited"},
        {State::kAtBarrier, ", which wait at __syncthreads"},
        {State::kAtWarp, ", which wait in another warp operation"}};
    for (const auto& [state, why] : reasons) {
      const std::string who = threads_text(lanes(absent, state_is(state)));
      if (!who.empty()) missing.push_back(who + why);
    }
  }
  for (size_t i = 0; i < missing.size(); ++i) {
    text += (i == 0 ? ", not by " : "; not by ") + missing[i];
  }
  return text;
}

void Launch::take_part() {
  BlockRunner& r = runner();
  while (!failed.load(std::memory_order_relaxed)) {
    const uint64_t block = next_block.fetch_add(1, std::memory_order_relaxed);
    if (block >= blocks) break;
    r.run(*this, block);
  }
}

std::mutex print_mutex;

const TsimRuntime kRuntime = {
    [] { return active_runner->place(); },
    [](int predicate) { return active_runner->sync_block(predicate); },
    [](unsigned mask) { active_runner->warp_exchange(mask, 0, nullptr); },
    [](unsigned mask, uint64_t value, uint64_t* gathered) {
      return active_runner->warp_exchange(mask, value, gathered);
    },
    [] { return active_runner->active_mask(); },
    [] { return active_runner->dynamic_shared(); },
    [](const char* message) { active_runner->fail(message); },
    [](const char* text) {
      std::lock_guard lock(print_mutex);
      std::fputs(text, stdout);
      std::fflush(stdout);
      return static_cast<int>(std::strlen(text));
    },
    [] { active_runner->sync_grid(); },
    [](double nu, double x) { return std::cyl_bessel_i(nu, x); },
};

}  // namespace

const TsimRuntime* runtime_table() { return &kRuntime; }

void run_kernel(const TsimKernel& kernel, const LaunchShape& shape, void* const* params,
                bool cooperative) {
  const uint64_t threads = uint64_t{shape.block.x} * shape.block.y * shape.block.z;
  const uint64_t blocks = uint64_t{shape.grid.x} * shape.grid.y * shape.grid.z;
  if (threads == 0 || threads > kMaxBlockThreads || blocks == 0) {
    throw std::invalid_argument("[cuda sim] kernel " + std::string(kernel.name) +
                                ": invalid launch of grid " + dim_text(shape.grid) + ", block " +
                                dim_text(shape.block));
  }
  keep_fault_trap_in_front();
  Launch launch(kernel, shape, params, blocks, cooperative);
  if (cooperative) {
    // Every block at once, the calling thread running block 0.
    const auto run_block = [&launch](uint64_t block) {
      runner().run(launch, block);
      launch.block_ended();
    };
    std::vector<std::thread> others;
    others.reserve(blocks - 1);
    for (uint64_t block = 1; block < blocks; ++block) others.emplace_back(run_block, block);
    run_block(0);
    for (std::thread& t : others) t.join();
  } else {
    worker_pool().run(launch);
  }
  if (launch.failed.load()) throw KernelError(launch.error, launch.illegal_address);
}

void* running_kernel_stack_top() { return kernel_stack_top; }

bool in_running_stack_guard(uintptr_t address) { return in_stack_guard(kernel_stack_top, address); }

void fail_running_thread_illegal_address(const std::string& message) {
  active_runner->fail(message.c_str(), /*illegal_address=*/true);
}

}  // namespace tessera::cudasim
