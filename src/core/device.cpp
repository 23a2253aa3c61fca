#include "tessera/device.h"

#include <charconv>
#include <cstdlib>

#include "backend/cuda/runtime.h"
#include "tessera/errors.h"
#include "tessera/stream.h"

namespace tessera {
namespace {

// What TESSERA_DEVICE names ("cpu", "cuda:1": the device of a process that serves one
// device, such as a Dask worker), else CUDA device 0 when one is usable (a GPU, or the
// simulator), else the CPU.
Device default_device() {
  static const Device device = [] {
    if (const char* spec = std::getenv("TESSERA_DEVICE"); spec && *spec) {
      return parse_device(spec, "TESSERA_DEVICE");
    }
    return cuda::device_count() > 0 ? Device::cuda(0) : Device::cpu();
  }();
  return device;
}

thread_local Device current = default_device();
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

// CPU work completes inside each op, so there is never anything to wait for there.
void Stream::synchronize() const {
  if (device_.is_cpu()) return;
  cuda::activate(device_.index, "Stream.synchronize");
  cuda::check(cuda::driver()->cuStreamSynchronize(cuda::stream_handle(*this)),
              "Stream.synchronize");
}

}  // namespace tessera
