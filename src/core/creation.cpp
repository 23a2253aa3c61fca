#include "tessera/creation.h"

#include <unistd.h>

#include <string>

#include "backend/backend.h"
#include "core/pending.h"
#include "tessera/errors.h"
#include "tessera/ufunc.h"

namespace tessera {

Array zeros(const Dims& shape, DType dtype, Device device, Order order) {
  return full(shape, Scalar(int64_t{0}), dtype, device, order, "zeros");
}

Array ones(const Dims& shape, DType dtype, Device device, Order order) {
  return full(shape, Scalar(int64_t{1}), dtype, device, order, "ones");
}

Array full(const Dims& shape, const Scalar& value, DType dtype, Device device, Order order,
           const char* api) {
  const int64_t isize = itemsize(dtype);
  const int64_t size = checked_size(shape, isize, api);
  // A large constant array is pending, as NumPy's zeros is calloc's untouched pages: its
  // memory is filled when first read or written, and `full(...) + x` fuses the constant.
  // A size no memory could hold is allocated now, so MemoryError comes from the call.
  static const int64_t physical_bytes =
      static_cast<int64_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
  if (size > 0 && size >= lazy_min_elements() && device.is_cpu() &&
      size <= physical_bytes / isize) {
    const Dims strides = contiguous_strides(shape, isize, order == Order::F ? Order::F : Order::C);
    return make_pending(expr::constant(value.cast(dtype)), shape, strides, device);
  }
  Array out = Array::empty(shape, dtype, device, order, api);
  out.fill(value);
  return out;
}

Array arange(int64_t length, const Scalar& first, const Scalar& second, DType dtype,
             Device device) {
  if (dtype == DType::Bool && length > 2) {
    throw TypeError("[arange] is only supported for booleans when the result has at most "
                    "length 2, got length " + std::to_string(length));
  }
  Array out = Array::empty(Dims{std::max<int64_t>(length, 0)}, dtype, device);
  if (length > 0) backend_for(device).arange(out, first.cast(dtype), second.cast(dtype));
  return out;
}

Array linspace(const LinspaceArgs& args, DType dtype, Device device) {
  if (args.num < 0) {
    throw ValueError("[linspace] Number of samples, " + std::to_string(args.num) +
                     ", must be non-negative.");
  }
  const DType compute = args.start.dtype();
  if (!is_floating(compute) && !is_complex(compute)) {
    throw TypeError("[linspace] computes in an inexact dtype, not " +
                    std::string(dtype_name(compute)));
  }
  LinspaceSpec spec;
  spec.start = args.start;
  spec.stop = args.stop.cast(compute);
  spec.step = args.step.cast(compute);
  spec.delta = args.delta.cast(compute);
  spec.div = args.div;
  spec.divide_first = args.div > 0 && args.step_is_zero;
  spec.set_last = args.endpoint && args.num > 1;
  spec.floor = is_integer(dtype);
  Array values = Array::empty(Dims{args.num}, compute, device);
  if (args.num > 0) backend_for(device).linspace(values, spec);
  return dtype == compute ? values : values.astype(dtype, Order::C);
}

Array eye(int64_t n, int64_t m, int64_t k, DType dtype, Device device, Order order) {
  Array out = zeros(Dims{n, m}, dtype, device, order);
  Array diagonal = out.diagonal_view(k);
  if (diagonal.size() > 0) diagonal.fill(Scalar(int64_t{1}));
  return out;
}

}  // namespace tessera
