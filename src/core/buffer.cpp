#include "tessera/buffer.h"

#include <algorithm>

#include "backend/backend.h"
#include "core/fp_events.h"

namespace tessera {

Buffer::Buffer(Allocator* allocator, Device device, void* data, size_t bytes,
               std::shared_ptr<void> keepalive)
    : allocator_(allocator),
      device_(device),
      data_(data),
      bytes_(bytes),
      keepalive_(std::move(keepalive)) {}

Buffer::~Buffer() {
  if (allocator_ && data_) allocator_->deallocate(data_, bytes_);
}

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
  auto buffer = std::make_shared<Buffer>(nullptr, device, data, bytes, std::move(keepalive));
  buffer->exported_ = true;
  return buffer;
}

std::shared_ptr<Buffer> Buffer::pending(Device device, size_t bytes,
                                        std::shared_ptr<PendingWork> work) {
  auto buffer = std::make_shared<Buffer>(&backend_for(device).allocator(), device, nullptr,
                                         bytes, nullptr);
  buffer->work_ = std::move(work);
  buffer->pending_ = true;
  return buffer;
}

std::shared_ptr<PendingWork> Buffer::pending_work() const {
  std::lock_guard lock(mutex_);
  return pending_ && !evaluating_ ? work_ : nullptr;
}

void Buffer::materialize() const {
  {
    std::lock_guard lock(mutex_);
    // The evaluator writes through data() of the very buffer it is filling.
    if (!pending_ || evaluating_) return;
    Buffer* self = const_cast<Buffer*>(this);
    data_ = allocator_->allocate(bytes_);
    evaluating_ = true;
    try {
      work_->run(self->shared_from_this());
    } catch (...) {
      evaluating_ = false;
      allocator_->deallocate(data_, bytes_);
      data_ = nullptr;
      throw;
    }
    evaluating_ = false;
    work_.reset();  // drops the expression and with it the inputs it kept alive
    pending_.store(false, std::memory_order_release);
  }
  // The computed values stand; the handler may warn, raise or read this very buffer.
  report_fp_events();
}

void Buffer::add_reader(const std::shared_ptr<Buffer>& reader) {
  std::lock_guard lock(mutex_);
  std::erase_if(readers_, [](const std::weak_ptr<Buffer>& w) { return w.expired(); });
  readers_.push_back(reader);
}

void Buffer::before_write() {
  std::vector<std::weak_ptr<Buffer>> readers;
  {
    std::lock_guard lock(mutex_);
    readers.swap(readers_);
  }
  for (const auto& weak : readers) {
    if (auto reader = weak.lock()) reader->data();
  }
  data();  // a pending buffer being written is computed first
}

void Buffer::mark_exported() {
  before_write();
  exported_ = true;
}

}  // namespace tessera
