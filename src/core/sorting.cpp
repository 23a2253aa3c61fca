// Sorting: the array is copied (or, for ndarray.sort, written in place) and the backend
// sorts it along its last axis, the requested axis moved there as a view.

#include "tessera/sorting.h"

#include "backend/backend.h"
#include "tessera/errors.h"
#include "tessera/indexing.h"
#include "tessera/ufunc.h"

namespace tessera {
namespace {

// `a` flattened when axis is none, and the axis made non-negative.
std::pair<Array, int> sort_axis(const Array& a, std::optional<int64_t> axis, const char* api) {
  if (!axis) return {a.reshape(Dims{a.size()}), 0};
  return {a, normalize_axis(*axis, a.ndim(), api)};
}

Array last_axis_view(const Array& a, int axis) {
  return a.moveaxis({axis}, {a.ndim() - 1});
}

}  // namespace

Array sort(const Array& a, std::optional<int64_t> axis, bool stable) {
  auto [x, ax] = sort_axis(a, axis, "sort");
  Array result = x.copy(Order::C);
  if (result.size() > 1) backend_for(a.device()).sort(last_axis_view(result, ax), stable);
  return result;
}

void sort_in_place(const Array& a, int64_t axis, bool stable) {
  const int ax = normalize_axis(axis, a.ndim(), "sort");
  a.require_writeable("sort");
  if (a.size() > 1) backend_for(a.device()).sort(last_axis_view(a, ax), stable);
}

Array argsort(const Array& a, std::optional<int64_t> axis) {
  auto [x, ax] = sort_axis(a, axis, "argsort");
  Array index = Array::empty(x.shape(), DType::Int64, a.device());
  if (index.size() == 0) return index;
  x.data();  // a pending array is computed before its values are ranked
  backend_for(a.device()).argsort(last_axis_view(x, ax), last_axis_view(index, ax));
  return index;
}

Array searchsorted(const Array& sorted, const Array& values, bool right,
                   const std::optional<Array>& sorter) {
  if (sorted.ndim() != 1) {
    throw ValueError("[searchsorted] object too deep for desired array: a must be 1-d, got " +
                     std::to_string(sorted.ndim()) + "-d");
  }
  Array a = sorted;
  if (sorter) {
    if (sorter->shape() != sorted.shape()) {
      throw ValueError("[searchsorted] sorter.size must equal a.size");
    }
    if (!is_integer(sorter->dtype())) {
      throw TypeError("[searchsorted] sorter must only contain integers");
    }
    a = getitem(sorted, {KeyItem::of(*sorter)});
  }
  // NumPy compares in the common dtype of the two.
  const Operand both[2] = {a, values};
  const DType common = result_type(both);
  const Array keys = a.astype(common, Order::C);
  const Array probe = values.astype(common, Order::C);
  Array out = Array::empty(values.shape(), DType::Int64, values.device());
  if (out.size() > 0) {
    backend_for(values.device()).searchsorted(keys, probe, right, out);
  }
  return out;
}

}  // namespace tessera
