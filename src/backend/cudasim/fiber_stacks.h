#pragma once
// The stacks the fibers of simulated CUDA threads run on.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessera::cudasim {

// A CUDA thread's stack: room for large local arrays; only the pages touched take memory.
constexpr size_t kStackBytes = 256 * 1024;
// Distinct offsets of the stack tops, a cache line apart.
constexpr size_t kStackColors = 64;
// What a fiber may use below the top it is given.
constexpr size_t kUsableStackBytes = kStackBytes - kStackColors * 64;

// The fiber stacks of one OS thread, mapped when first needed and reused by every block the
// thread runs. A guard page below each turns an overflow into a fault, not a corruption;
// the tops are staggered so that the hot frames of many fibers do not share cache sets.
class StackPool {
 public:
  StackPool() = default;
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;
  ~StackPool();

  void* acquire();  // the top of a free stack
  void release(void* top) { free_.push_back(top); }

 private:
  void grow();

  std::vector<void*> free_, mapped_;
};

// Whether `address` lies in the guard page below the stack whose top is `top`.
bool in_stack_guard(const void* top, uintptr_t address);

}  // namespace tessera::cudasim
