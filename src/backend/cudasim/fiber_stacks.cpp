#include "backend/cudasim/fiber_stacks.h"

#include <sys/mman.h>
#include <unistd.h>

#include <new>

namespace tessera::cudasim {
namespace {

size_t page_size() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

}  // namespace

StackPool::~StackPool() {
  for (void* base : mapped_) munmap(base, kStackBytes + page_size());
}

void* StackPool::acquire() {
  if (free_.empty()) grow();
  void* top = free_.back();
  free_.pop_back();
  return top;
}

void StackPool::grow() {
  mapped_.reserve(mapped_.size() + 1);
  free_.reserve(mapped_.size() + 1);
  void* base = mmap(nullptr, kStackBytes + page_size(), PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (base == MAP_FAILED) throw std::bad_alloc();
  mprotect(base, page_size(), PROT_NONE);
  const size_t color = mapped_.size() % kStackColors * 64;
  mapped_.push_back(base);
  free_.push_back(static_cast<char*>(base) + page_size() + kStackBytes - color);
}

bool in_stack_guard(const void* top, uintptr_t address) {
  if (!top) return false;
  // The stack's lowest byte is kStackBytes below its uncoloured top, which is at most
  // kStackColors * 64 bytes above `top`.
  const uintptr_t lowest_max = reinterpret_cast<uintptr_t>(top) + kStackColors * 64 - kStackBytes;
  return address < lowest_max && address + page_size() + kStackColors * 64 >= lowest_max;
}

}  // namespace tessera::cudasim
