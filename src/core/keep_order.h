#pragma once
// NumPy's order='K': the axis order its iterator picks from the operands' strides (for an
// allocated output, a copy, a flattening).

#include <vector>

#include "tessera/dims.h"

namespace tessera {

// NumPy's iterator orders axes by the operands' strides: an axis moves inward past another
// when the operands that have an opinion (non-zero strides in both) say so, and C order
// wins conflicts; a zero stride (a broadcast axis) constrains nothing. Returns the axes,
// outermost first.
std::vector<int> keep_order_axes(int nd, const std::vector<const Dims*>& strides);

}  // namespace tessera
