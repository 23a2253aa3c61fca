#pragma once
// Streams order work on a device. CPU work runs to completion inside each op, so a CPU
// stream is only an ordering token; CUDA streams wrap a driver stream handle.

#include <cstdint>

#include "tessera/device.h"

namespace tessera {

class Stream {
 public:
  // The default (null) stream of a device.
  explicit Stream(Device device = Device::cpu(), uintptr_t handle = 0)
      : device_(device), handle_(handle) {}

  Device device() const { return device_; }
  uintptr_t handle() const { return handle_; }  // 0 is the device's default stream
  bool is_default() const { return handle_ == 0; }
  void synchronize() const;
  friend bool operator==(const Stream&, const Stream&) = default;

 private:
  Device device_;
  uintptr_t handle_;
};

// The current stream of `device` on this thread (its default stream until one is set).
Stream current_stream(Device device);
void set_current_stream(const Stream& stream);

}  // namespace tessera
