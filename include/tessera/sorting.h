#pragma once
// Sorting with NumPy's order: NaN last, complex lexicographic.

#include <optional>

#include "tessera/array.h"

namespace tessera {

// A sorted copy along `axis` (none: of the flattened array). `stable` keeps equal elements
// in their original order (kind='stable'/'mergesort').
Array sort(const Array& a, std::optional<int64_t> axis = -1, bool stable = false);
// ndarray.sort: sorts `a` itself along `axis`.
void sort_in_place(const Array& a, int64_t axis = -1, bool stable = false);
// The indices that sort `a` along `axis` (none: flattened); always stable, so it is what
// every kind NumPy accepts may return.
Array argsort(const Array& a, std::optional<int64_t> axis = -1);

// Where each of `values` goes in the 1-d `sorted` (NumPy's searchsorted): int64 indices of
// values' shape. `sorter` (optional) are indices that sort `sorted`.
Array searchsorted(const Array& sorted, const Array& values, bool right = false,
                   const std::optional<Array>& sorter = std::nullopt);

}  // namespace tessera
