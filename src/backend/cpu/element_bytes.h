#pragma once
// Elements moved as raw bytes: copies, gathers and fills that never look at the values
// need only the element's size, not its dtype.

#include <cstddef>
#include <cstdint>

namespace tessera::cpu {

struct Bytes16 {
  std::byte bytes[16];
};

// Calls f(E{}) with E a trivially copyable type of `size` bytes (1, 2, 4, 8 or 16).
template <typename F>
void visit_element_size(int64_t size, F&& f) {
  switch (size) {
    case 1: f(uint8_t{}); break;
    case 2: f(uint16_t{}); break;
    case 4: f(uint32_t{}); break;
    case 8: f(uint64_t{}); break;
    default: f(Bytes16{}); break;
  }
}

}  // namespace tessera::cpu
