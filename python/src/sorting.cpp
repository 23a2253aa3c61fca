// Sorting: sort, argsort and ndarray.sort. The Python layer (tessera/_sorting.py) checks
// NumPy's kind/order/stable arguments; `a` arrives as a tessera array.

#include <nanobind/stl/optional.h>

#include "convert.h"
#include "ndarray.h"
#include "tessera/sorting.h"

namespace tessera::py {
namespace {

std::optional<int64_t> to_axis(nb::handle axis, const char* api) {
  if (axis.is_none()) return std::nullopt;
  return to_int64(axis, api, "axis");
}

}  // namespace

void bind_sorting(nb::module_& m) {
  m.def("_sort", [](nb::handle a, nb::handle axis, bool stable) {
    const Array& x = unwrap(a).array;
    std::optional<int64_t> ax = to_axis(axis, "sort");
    return wrap(without_gil([&] { return sort(x, ax, stable); }));
  }, nb::arg("a"), nb::arg("axis").none(), nb::arg("stable"));
  m.def("_sort_in_place", [](nb::handle a, nb::handle axis, bool stable) {
    const Array& x = unwrap(a).array;
    const int64_t ax = to_int64(axis, "sort", "axis");
    without_gil([&] { sort_in_place(x, ax, stable); });
  }, nb::arg("a"), nb::arg("axis"), nb::arg("stable"));
  m.def("_argsort", [](nb::handle a, nb::handle axis) {
    const Array& x = unwrap(a).array;
    std::optional<int64_t> ax = to_axis(axis, "argsort");
    return wrap(without_gil([&] { return argsort(x, ax); }));
  }, nb::arg("a"), nb::arg("axis").none());
  m.def("_searchsorted", [](nb::handle a, nb::handle v, bool right, nb::handle sorter) {
    const Array& sorted = unwrap(a).array;
    const Array& values = unwrap(v).array;
    std::optional<Array> order;
    if (!sorter.is_none()) order = unwrap(sorter).array;
    return wrap(without_gil([&] { return searchsorted(sorted, values, right, order); }));
  }, nb::arg("a"), nb::arg("v"), nb::arg("right"), nb::arg("sorter").none());
}

}  // namespace tessera::py
