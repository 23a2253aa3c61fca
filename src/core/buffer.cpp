#include "tessera/buffer.h"

#include "backend/backend.h"

namespace tessera {

std::shared_ptr<Buffer> Buffer::allocate(Device device, size_t bytes) {
  Allocator& allocator = backend_for(device).allocator();
  void* data = allocator.allocate(bytes);
  try {
    return std::make_shared<Buffer>(&allocator, device, data, bytes, nullptr);
  } catch (...) {
    allocator.deallocate(data, bytes);
    throw;
  }
}

std::shared_ptr<Buffer> Buffer::wrap(Device device, void* data, size_t bytes,
                                     std::shared_ptr<void> keepalive) {
  return std::make_shared<Buffer>(nullptr, device, data, bytes, std::move(keepalive));
}

}  // namespace tessera
