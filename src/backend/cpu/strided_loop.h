#pragma once
// Walking n-d strided operands: axes ordered so the innermost has the smallest stride of
// the destination, adjacent axes merged when every operand's strides allow, and the outer
// index space split over threads.

#include <cstdint>
#include <functional>

#include "tessera/array.h"

namespace tessera::cpu {

// The iteration space of k operands over one shape, simplified.
struct StridedLayout {
  static constexpr int kMaxOperands = 16;
  Dims shape;                    // simplified: size-1 axes dropped, mergeable axes merged
  Dims strides[kMaxOperands];    // bytes, per operand, matching `shape`
  int operands = 0;
};

// `strides[order_by]` decides the axis order (by convention the destination's, operand 0;
// reductions order by what they read).
StridedLayout simplify_layout(const Dims& shape, const Dims* strides, int operands,
                              int order_by = 0);

// Calls inner(ptrs, n) for each innermost row, ptrs[k] pointing at operand k's first
// element of the row; rows are spread over threads when there is enough work.
using InnerLoop = std::function<void(std::byte* const* ptrs, int64_t n)>;
void for_each_row(const StridedLayout& layout, std::byte* const* base, int64_t itemsize_hint,
                  const InnerLoop& inner);

}  // namespace tessera::cpu
