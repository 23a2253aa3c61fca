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

}  // namespace tessera
