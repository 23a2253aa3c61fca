// Operations that move data: copies, casts, assignment, fills and transfers.

#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

#include "backend/backend.h"
#include "core/fp_events.h"
#include "core/overlap.h"
#include "core/pending.h"
#include "tessera/array.h"
#include "tessera/errors.h"

namespace tessera {
namespace {

// `a`'s axes from the largest stride to the smallest: its memory order.
std::vector<int> memory_order(const Array& a) {
  std::vector<int> axes(a.ndim());
  std::iota(axes.begin(), axes.end(), 0);
  std::stable_sort(axes.begin(), axes.end(),
                   [&](int x, int y) { return a.strides()[x] > a.strides()[y]; });
  return axes;
}

// Copies between devices go through host memory, keeping the source's layout (order='K'):
// the axes are put in memory order, that C-contiguous view moves, and the result is viewed
// back in the source's axis order. Only a source with gaps or negative strides is first
// copied densely on its own device.
Array transfer(const Array& src, Device to) {
  std::vector<int> axes = memory_order(src);
  Array in_memory_order = src.transpose(axes);
  if (!in_memory_order.is_c_contiguous()) {
    const Array dense = src.copy(Order::K);
    axes = memory_order(dense);
    in_memory_order = dense.transpose(axes);
    if (!in_memory_order.is_c_contiguous()) in_memory_order = in_memory_order.copy(Order::C);
  }
  Array out = Array::empty(in_memory_order.shape(), src.dtype(), to);
  if (src.device().kind == to.kind) {
    backend_for(to).copy_from_peer(in_memory_order, out);  // device to device
  } else if (to.is_cpu()) {
    // Straight into the new host array (both are C-contiguous): a staging buffer would
    // cost one more pass over fresh host pages, as much as the transfer itself.
    backend_for(src.device()).download(in_memory_order, out.data());
  } else {  // from the host
    backend_for(to).upload(in_memory_order.data(), out);
  }
  // A C- or Fortran-ordered source keeps its strides exactly: on a length-1 axis the view
  // below would have a C stride where NumPy's order='F' arrays have the Fortran one.
  for (Order order : {Order::C, Order::F}) {
    if (src.strides() == contiguous_strides(src.shape(), src.itemsize(), order)) {
      return Array(out.buffer(), src.dtype(), src.shape(), src.strides(), 0);
    }
  }
  std::vector<int> back(axes.size());
  for (size_t i = 0; i < axes.size(); ++i) back[axes[i]] = static_cast<int>(i);
  return out.transpose(back);
}

}  // namespace

// Below this size host copies and fills are done in place by the caller's thread.
constexpr int64_t kDirectCopyBytes = 64 << 10;

Array Array::copy(Order order) const { return astype(dtype_, order); }

Array Array::astype(DType dtype, Order order) const {
  Array out = empty_like(*this, dtype, order);
  if (dtype == dtype_ && device().is_cpu() && nbytes() <= kDirectCopyBytes &&
      out.strides() == strides_ && (is_c_contiguous() || is_f_contiguous())) {
    // A small contiguous copy in the same layout (t.copy()): one memcpy, where the
    // backend's copy would simplify layouts and run a strided loop.
    std::memcpy(out.data(), data(), nbytes());
    return out;
  }
  backend_for(device()).copy(*this, out);
  report_fp_events();  // a conversion's invalid values, overflows and underflows
  return out;
}

Array Array::to_device(Device device) const {
  return device == this->device() ? *this : transfer(*this, device);
}

void Array::assign(const Array& src) {
  require_writeable("setitem");
  if (src.device() != device()) {
    throw ValueError("[setitem] the value is on " + src.device().str() +
                     " but the array is on " + device().str());
  }
  // NumPy drops leading length-1 axes of a source with more dimensions than the target.
  Array from = src;
  while (from.ndim() > ndim() && from.shape()[0] == 1) from = from.squeeze({0});
  try {
    from = from.broadcast_to(shape_);
  } catch (const ValueError&) {
    throw ValueError("[setitem] could not broadcast input array from shape " +
                     src.shape().str() + " into shape " + shape_.str());
  }
  if (may_overlap(from, *this)) from = from.copy();
  backend_for(device()).copy(from, *this);
  report_fp_events();
}

bool Array::assign_expression(const Array& src) {
  if (src.dtype() != dtype_ || src.shape() != shape_ || src.device() != device() ||
      !src.buffer()->is_pending()) {
    return false;
  }
  const expr::NodePtr root = pending_tree(src, shape_);
  if (!root) return false;
  for (const expr::Node* in : expr::collect_inputs(*root)) {
    if (may_overlap(in->input, *this)) return false;
  }
  require_writeable("setitem");
  backend_for(device()).eval_expr(*root, {this, 1});
  report_fp_events();
  return true;
}

void Array::fill(const Scalar& value) {
  require_writeable("fill");
  Scalar v = value.cast(dtype_);
  // A small contiguous block of host memory (`t[0] = 1.0`, zeros(3)): stored here, where
  // the backend's copy would build a 0-d source and a strided loop around a few elements
  // (its threads pay off only on large arrays).
  if (device().is_cpu() && nbytes() <= kDirectCopyBytes &&
      (size() == 1 || is_c_contiguous() || is_f_contiguous())) {
    std::byte* out = data();
    const int64_t n = size(), width = itemsize();
    for (int64_t i = 0; i < n; ++i) std::memcpy(out + i * width, v.data(), width);
    return;
  }
  auto host = Buffer::wrap(Device::cpu(), const_cast<void*>(v.data()), itemsize(), nullptr);
  Array scalar(std::move(host), dtype_, Dims{}, Dims{}, 0);
  backend_for(device()).copy(scalar.to_device(device()).broadcast_to(shape_), *this);
}

void Array::copy_to_host(void* dst) const { backend_for(device()).download(*this, dst); }

void Array::copy_from_host(const void* src) {
  require_writeable("copy_from_host");
  backend_for(device()).upload(src, *this);
}

}  // namespace tessera
