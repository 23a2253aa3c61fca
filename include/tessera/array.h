#pragma once
// Array: an n-dimensional view (dtype, shape, byte strides, byte offset) of a shared
// Buffer on one device. Strides may be negative or zero; views share the buffer.

#include <memory>
#include <optional>
#include <vector>

#include "tessera/buffer.h"
#include "tessera/device.h"
#include "tessera/dims.h"
#include "tessera/dtype.h"
#include "tessera/scalar.h"

namespace tessera {

enum class Order : char { C = 'C', F = 'F', A = 'A', K = 'K' };

// One item of a basic index: an integer, a slice, a new axis, or an ellipsis.
struct IndexItem {
  enum Kind : uint8_t { Integer, Slice, NewAxis, Ellipsis } kind = Integer;
  int64_t start = 0;  // the integer, or the slice start
  std::optional<int64_t> slice_start, slice_stop;
  int64_t step = 1;

  static IndexItem integer(int64_t i) { return {Integer, i, {}, {}, 1}; }
  static IndexItem slice(std::optional<int64_t> start, std::optional<int64_t> stop,
                         int64_t step) {
    return {Slice, 0, start, stop, step};
  }
  static IndexItem new_axis() { return {NewAxis, 0, {}, {}, 1}; }
  static IndexItem ellipsis() { return {Ellipsis, 0, {}, {}, 1}; }
};

class Array {
 public:
  // An array with no buffer; only assignable.
  Array() = default;
  // A view of `buffer`; checks that the view stays inside it.
  Array(std::shared_ptr<Buffer> buffer, DType dtype, Dims shape, Dims strides, int64_t offset);

  // Uninitialized array; `order` is C or F. Shape errors name `api`.
  static Array empty(const Dims& shape, DType dtype, Device device, Order order = Order::C,
                     const char* api = "empty");
  // Uninitialized array shaped like `like`, laid out as `order` (K keeps like's stride order).
  static Array empty_like(const Array& like, DType dtype, Order order = Order::K);
  // A view of memory owned elsewhere (a NumPy array, another library's device array) whose
  // first element is at `first`; `keepalive` is held until the memory's last user lets go.
  // Its buffer spans the lowest to the highest address the strides reach.
  static Array over_memory(Device device, void* first, DType dtype, Dims shape, Dims strides,
                           std::shared_ptr<void> keepalive);

  DType dtype() const { return dtype_; }
  const Dims& shape() const { return shape_; }
  const Dims& strides() const { return strides_; }
  int64_t offset() const { return offset_; }
  int ndim() const { return shape_.size(); }
  int64_t size() const { return shape_.product(); }
  int64_t itemsize() const { return tessera::itemsize(dtype_); }
  int64_t nbytes() const { return size() * itemsize(); }
  Device device() const { return buffer_->device(); }
  const std::shared_ptr<Buffer>& buffer() const { return buffer_; }
  bool valid() const { return buffer_ != nullptr; }
  // Address of element 0 (a device pointer on devices other than the CPU).
  std::byte* data() const { return buffer_->data() + offset_; }

  bool is_c_contiguous() const;
  bool is_f_contiguous() const;
  bool writeable() const { return writeable_; }
  void set_writeable(bool w) { writeable_ = w; }

  // Views. Each returns an array sharing this buffer.
  Array as_strided(Dims shape, Dims strides, int64_t offset_bytes) const;
  Array transpose() const;  // reverses the axes
  Array transpose(const std::vector<int>& axes) const;
  Array swapaxes(int a, int b) const;
  Array moveaxis(const std::vector<int>& source, const std::vector<int>& destination) const;
  Array expand_dims(const std::vector<int>& axes) const;
  Array squeeze() const;
  Array squeeze(const std::vector<int>& axes) const;
  Array broadcast_to(const Dims& shape) const;
  Array index(const std::vector<IndexItem>& items) const;
  Array diagonal_view(int64_t k) const;  // the k-th diagonal of a 2-d array
  Array real() const;
  Array imag() const;  // complex only; real arrays have no imaginary view

  // May copy: a view when the strides allow, a copy otherwise (NumPy's rule).
  Array reshape(const Dims& shape, Order order = Order::C) const;
  // Always a view; nullopt when the strides do not allow one.
  std::optional<Array> reshape_view(const Dims& shape, Order order) const;
  Array ravel(Order order = Order::C) const;
  // Always a copy, in the element order ravel(order) reads.
  Array flatten(Order order = Order::C) const;

  // New buffers.
  Array copy(Order order = Order::K) const;
  Array astype(DType dtype, Order order = Order::K) const;
  Array to_device(Device device) const;

  // Writes. `src` is broadcast to this shape and cast to this dtype; overlap is safe.
  void assign(const Array& src);
  // Computes `src`, a pending elementwise expression of this shape and dtype, straight into
  // this array's memory instead of into its own (a[1:-1] = expr then copies nothing).
  // False, with nothing done, where that cannot be: src is not such an expression, or one
  // of its inputs shares memory with this array. src stays pending: for an expression that
  // nothing else will read (the caller knows).
  bool assign_expression(const Array& src);
  void fill(const Scalar& value);

  // Copies to/from host memory laid out contiguously in C order.
  void copy_to_host(void* dst) const;
  void copy_from_host(const void* src);

 // Checks that this array may be written (ValueError naming `api` if read-only) and
  // evaluates the pending expressions that read its memory: call before every write.
  void require_writeable(const char* api) const;

 private:

  std::shared_ptr<Buffer> buffer_;
  DType dtype_ = DType::Float64;
  Dims shape_;
  Dims strides_;
  int64_t offset_ = 0;
  bool writeable_ = true;
};

// Shapes and strides.
Dims contiguous_strides(const Dims& shape, int64_t itemsize, Order order);
Dims broadcast_shapes(const std::vector<Dims>& shapes, const char* api);
// Validates an axis against `ndim` and makes it non-negative; AxisError naming `api` if bad.
int normalize_axis(int64_t axis, int ndim, const char* api);
// The element count of `shape`; ValueError for negative dimensions or an overflowing size.
int64_t checked_size(const Dims& shape, int64_t itemsize, const char* api);

}  // namespace tessera
