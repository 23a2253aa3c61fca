#include "backend/cuda/staging.h"

#include "backend/cuda/runtime.h"
#include "tessera/stream.h"

namespace tessera::cuda {

std::shared_ptr<Buffer> Staging::twin_of(const Buffer* device_buffer) const {
  for (const auto& [buffer, host] : twins_) {
    if (buffer == device_buffer) return host;
  }
  return nullptr;
}

Array Staging::host(const Array& a) {
  if (!a.valid() || a.device().is_cpu()) return a;
  std::shared_ptr<Buffer> twin = twin_of(a.buffer().get());
  if (!twin) {
    const std::byte* data = a.buffer()->data();  // computes a pending buffer first
    twin = Buffer::allocate(Device::cpu(), a.buffer()->bytes());
    if (a.buffer()->bytes() > 0) {
      activate(device_, "cuda");
      const Stream stream = current_stream(Device::cuda(device_));
      check(driver()->cuMemcpyDtoHAsync(twin->data(), reinterpret_cast<CUdeviceptr>(data),
                                        a.buffer()->bytes(), stream_handle(stream)),
            "cuda");
      check(driver()->cuStreamSynchronize(stream_handle(stream)), "cuda");
    }
    twins_.emplace_back(a.buffer().get(), twin);
  }
  return Array(twin, a.dtype(), a.shape(), a.strides(), a.offset());
}

Array Staging::output(const Array& a) {
  const bool whole_buffer = a.valid() && !a.device().is_cpu() && a.offset() == 0 &&
                            static_cast<size_t>(a.nbytes()) == a.buffer()->bytes() &&
                            (a.is_c_contiguous() || a.is_f_contiguous());
  if (whole_buffer && !twin_of(a.buffer().get())) {
    twins_.emplace_back(a.buffer().get(), Buffer::allocate(Device::cpu(), a.buffer()->bytes()));
  }
  return host(a);
}

expr::NodePtr Staging::host(const expr::Node& root) {
  std::vector<std::pair<const expr::Node*, expr::NodePtr>> done;
  return host_node(root, done);
}

expr::NodePtr Staging::host_node(const expr::Node& n,
                                 std::vector<std::pair<const expr::Node*, expr::NodePtr>>& done) {
  for (const auto& [from, to] : done) {
    if (from == &n) return to;
  }
  auto copy = std::make_shared<expr::Node>(n);
  if (n.kind == expr::Node::Kind::Input) copy->input = host(n.input);
  for (expr::NodePtr& arg : copy->args) arg = host_node(*arg, done);
  done.emplace_back(&n, copy);
  return copy;
}

void Staging::write_back(const Array& a) {
  if (!a.valid() || a.device().is_cpu() || a.buffer()->bytes() == 0) return;
  const Array twin = host(a);
  activate(device_, "cuda");
  const Stream stream = current_stream(Device::cuda(device_));
  check(driver()->cuMemcpyHtoDAsync(reinterpret_cast<CUdeviceptr>(a.buffer()->data()),
                                    twin.buffer()->data(), a.buffer()->bytes(),
                                    stream_handle(stream)),
        "cuda");
}

}  // namespace tessera::cuda
