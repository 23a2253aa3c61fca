#pragma once
// Array creation, with NumPy's semantics. The Python layer resolves NumPy's argument
// conventions (default dtypes, Python scalars) and calls these.

#include "tessera/array.h"

namespace tessera {

Array zeros(const Dims& shape, DType dtype, Device device, Order order = Order::C);
Array ones(const Dims& shape, DType dtype, Device device, Order order = Order::C);
Array full(const Dims& shape, const Scalar& value, DType dtype, Device device,
           Order order = Order::C, const char* api = "full");

// `length` values: first, second, then second + (second - first) * k as NumPy's fill
// computes them; `first` and `second` are converted to `dtype` first.
Array arange(int64_t length, const Scalar& first, const Scalar& second, DType dtype,
             Device device);

struct LinspaceArgs {
  Scalar start, stop, step, delta;  // of the computation dtype
  int64_t num = 50;
  int64_t div = 0;          // num - 1 with endpoint, else num
  bool step_is_zero = false;  // NumPy then divides before multiplying (denormal steps)
  bool endpoint = true;
};
// Values computed in `args.start.dtype()` (inexact), then converted to `dtype` (floored
// first when `dtype` is an integer type), as numpy.linspace does.
Array linspace(const LinspaceArgs& args, DType dtype, Device device);

// Ones on the k-th diagonal of an n x m matrix, zeros elsewhere.
Array eye(int64_t n, int64_t m, int64_t k, DType dtype, Device device, Order order = Order::C);

}  // namespace tessera
