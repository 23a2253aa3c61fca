#pragma once
// The generic path of CUDA array operations until the code generator renders them as
// kernels: an operation's device arrays are copied to host memory, the CPU backend computes,
// and the arrays it wrote are copied back, all through the driver table on the current
// stream. It is slow, and it is correct on a GPU as on the simulator; it is the documented
// reason CUDA array operations compute on the host for now (docs/cuda.md).

#include <memory>
#include <utility>
#include <vector>

#include "expr/expr.h"
#include "tessera/array.h"

namespace tessera::cuda {

class Staging {
 public:
  explicit Staging(int device) : device_(device) {}

  // `a`'s twin in host memory: the same view of a host copy of its whole buffer (copied once
  // per buffer, so arrays sharing memory on the device share it on the host too).
  Array host(const Array& a);
  // The twin of an array the operation writes whole (every element, reading none): when
  // the view covers its whole buffer, the twin is not copied from the device at all.
  Array output(const Array& a);
  // `root` with every input read from its host twin.
  expr::NodePtr host(const expr::Node& root);
  // Copies `a`'s twin back over its device buffer.
  void write_back(const Array& a);

 private:
  expr::NodePtr host_node(const expr::Node& n,
                          std::vector<std::pair<const expr::Node*, expr::NodePtr>>& done);

  std::shared_ptr<Buffer> twin_of(const Buffer* device_buffer) const;

  int device_;
  std::vector<std::pair<const Buffer*, std::shared_ptr<Buffer>>> twins_;
};

}  // namespace tessera::cuda
