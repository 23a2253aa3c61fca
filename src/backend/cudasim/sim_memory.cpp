#include "backend/cudasim/sim_memory.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <iterator>
#include <mutex>

namespace tessera::cudasim {
namespace {

constexpr size_t kGranularity = 256;       // cuMemAlloc's alignment and rounding
constexpr size_t kQuarantineEntries = 4096;  // well under Linux's 65530 mappings a process
constexpr uintptr_t kNearBytes = uintptr_t{1} << 20;  // "past the end of" reaches this far

size_t page_size() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}
size_t round_up(size_t n, size_t unit) { return (n + unit - 1) / unit * unit; }

// A checked allocation's mapping: its data pages, then the guard page. `counted` is the
// exact size, and the data ends at the guard page.
struct Mapping {
  char* base;
  size_t length;
};
Mapping mapping_of(void* ptr, size_t counted) {
  char* guard = static_cast<char*>(ptr) + counted;
  const size_t data = round_up(counted, page_size());
  return {guard - data, data + page_size()};
}

// Freed checked allocations, oldest first: inaccessible, their memory given back.
struct Quarantine {
  std::mutex mutex;
  std::deque<std::pair<uintptr_t, size_t>> freed;  // start, bytes
  std::deque<Mapping> mappings;
};
Quarantine& quarantine() {
  static Quarantine* q = new Quarantine;  // kernels may fault during exit
  return *q;
}

std::string hex(uintptr_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%zx", static_cast<size_t>(value));
  return text;
}
std::string allocation_text(uintptr_t start, size_t bytes) {
  return "a " + std::to_string(bytes) + "-byte allocation at " + hex(start);
}

}  // namespace

bool checking_bounds() {
  static const bool on = [] {
    const char* text = std::getenv("TESSERA_CUDA_SIM_CHECK");
    return text && *text && std::strcmp(text, "0") != 0;
  }();
  return on;
}

size_t counted_bytes(size_t bytes) {
  return checking_bounds() ? bytes : round_up(bytes, kGranularity);
}

void* allocate_device_memory(size_t bytes) {
  if (!checking_bounds()) return std::aligned_alloc(kGranularity, counted_bytes(bytes));
  const Mapping m = mapping_of(nullptr, bytes);
  void* base = mmap(nullptr, m.length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) return nullptr;
  char* guard = static_cast<char*>(base) + (m.length - page_size());
  if (mprotect(guard, page_size(), PROT_NONE) != 0) {
    munmap(base, m.length);
    return nullptr;
  }
  return guard - bytes;
}

void free_device_memory(void* ptr, size_t counted) {
  if (!checking_bounds()) return std::free(ptr);
  const Mapping m = mapping_of(ptr, counted);
  madvise(m.base, m.length, MADV_DONTNEED);
  mprotect(m.base, m.length, PROT_NONE);
  Quarantine& q = quarantine();
  std::lock_guard lock(q.mutex);
  q.freed.emplace_back(reinterpret_cast<uintptr_t>(ptr), counted);
  q.mappings.push_back(m);
  if (q.mappings.size() > kQuarantineEntries) {
    munmap(q.mappings.front().base, q.mappings.front().length);
    q.mappings.pop_front();
    q.freed.pop_front();
  }
}

std::string describe_device_address(const std::map<uintptr_t, size_t>& live, uintptr_t address) {
  auto above = live.upper_bound(address);
  if (above != live.begin()) {
    const auto& [start, bytes] = *std::prev(above);
    if (address < start + bytes) {
      return "inside " + allocation_text(start, bytes) + ", at offset " +
             std::to_string(address - start);
    }
    if (address - (start + bytes) < kNearBytes) {
      return std::to_string(address - (start + bytes)) + " bytes past the end of " +
             allocation_text(start, bytes);
    }
  }
  {
    Quarantine& q = quarantine();
    std::lock_guard lock(q.mutex);
    for (auto it = q.freed.rbegin(); it != q.freed.rend(); ++it) {
      if (address >= it->first && address - it->first < it->second) {
        return "inside " + allocation_text(it->first, it->second) +
               " that was freed, at offset " + std::to_string(address - it->first);
      }
    }
  }
  if (above != live.end() && above->first - address < kNearBytes) {
    return std::to_string(above->first - address) + " bytes before the start of " +
           allocation_text(above->first, above->second);
  }
  if (address < page_size()) return "a null pointer";
  return "not in or near any device allocation";
}

}  // namespace tessera::cudasim
