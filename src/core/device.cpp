#include "tessera/device.h"

#include <charconv>

#include "tessera/errors.h"
#include "tessera/stream.h"

namespace tessera {
namespace {

thread_local Device current = Device::cpu();
// By DeviceKind; a CUDA stream also names its device index.
thread_local Stream current_streams[2] = {Stream(Device::cpu()), Stream(Device::cuda(0))};

}  // namespace

std::string Device::str() const {
  return is_cpu() ? std::string("cpu") : "cuda:" + std::to_string(index);
}

Device parse_device(const std::string& spec, const char* api) {
  if (spec == "cpu") return Device::cpu();
  if (spec == "cuda") return Device::cuda(0);
  if (spec.rfind("cuda:", 0) == 0) {
    int index = -1;
    const char* first = spec.data() + 5;
    const char* last = spec.data() + spec.size();
    auto [end, ec] = std::from_chars(first, last, index);
    if (ec == std::errc() && end == last && first != last && index >= 0) {
      return Device::cuda(index);
    }
  }
  throw ValueError(std::string("[") + api + "] unknown device '" + spec +
                   "'; expected 'cpu', 'cuda' or 'cuda:N'");
}

Device current_device() { return current; }
void set_current_device(Device d) { current = d; }

Stream current_stream(Device device) {
  const Stream& s = current_streams[static_cast<int>(device.kind)];
  return s.device() == device ? s : Stream(device);
}

void set_current_stream(const Stream& stream) {
  current_streams[static_cast<int>(stream.device().kind)] = stream;
}

// CPU work completes inside each op, so there is never anything to wait for.
void Stream::synchronize() const {
  if (!device_.is_cpu()) {
    throw NotImplementedError("[Stream.synchronize] not supported on cuda devices yet");
  }
}

}  // namespace tessera
