#include "backend/cpu/strided_loop.h"

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "backend/cpu/parallel.h"

namespace tessera::cpu {

StridedLayout simplify_layout(const Dims& shape, const Dims* strides, int operands,
                              int order_by) {
  StridedLayout out;
  out.operands = operands;
  std::vector<int> axes;
  for (int i = 0; i < shape.size(); ++i) {
    if (shape[i] != 1) axes.push_back(i);
  }
  // Outermost first: largest stride first, original order among equals.
  std::stable_sort(axes.begin(), axes.end(), [&](int a, int b) {
    return std::llabs(strides[order_by][a]) > std::llabs(strides[order_by][b]);
  });
  for (int axis : axes) {
    int last = out.shape.size() - 1;
    bool mergeable = last >= 0;
    for (int k = 0; k < operands && mergeable; ++k) {
      mergeable = out.strides[k][last] == strides[k][axis] * shape[axis];
    }
    if (mergeable) {
      out.shape[last] *= shape[axis];
      for (int k = 0; k < operands; ++k) out.strides[k][last] = strides[k][axis];
    } else {
      out.shape.push_back(shape[axis]);
      for (int k = 0; k < operands; ++k) out.strides[k].push_back(strides[k][axis]);
    }
  }
  if (out.shape.empty()) {  // a single element
    out.shape.push_back(1);
    for (int k = 0; k < operands; ++k) out.strides[k].push_back(0);
  }
  return out;
}

void for_each_row(const StridedLayout& layout, std::byte* const* base, int64_t itemsize_hint,
                  const InnerLoop& inner) {
  const int nd = layout.shape.size();
  const int64_t row = layout.shape[nd - 1];
  int64_t rows = 1;
  for (int i = 0; i < nd - 1; ++i) rows *= layout.shape[i];
  if (rows == 0 || row == 0) return;

  // Split long single rows too, so one big contiguous copy still uses every core.
  constexpr int64_t kGrainBytes = 256 << 10;
  int64_t row_bytes = row * itemsize_hint;
  if (rows == 1 && row_bytes >= 2 * kGrainBytes) {
    parallel_for(row, std::max<int64_t>(1, kGrainBytes / itemsize_hint),
                 [&](int64_t begin, int64_t end) {
                   std::byte* ptrs[StridedLayout::kMaxOperands];
                   for (int k = 0; k < layout.operands; ++k) {
                     ptrs[k] = base[k] + begin * layout.strides[k][nd - 1];
                   }
                   inner(ptrs, end - begin);
                 });
    return;
  }
  int64_t grain = std::max<int64_t>(1, kGrainBytes / std::max<int64_t>(row_bytes, 1));
  parallel_for(rows, grain, [&](int64_t begin, int64_t end) {
    // Unravel `begin` into an index over the outer axes, then step it like an odometer.
    Dims index(nd - 1);
    int64_t rest = begin;
    for (int i = nd - 2; i >= 0; --i) {
      index[i] = rest % layout.shape[i];
      rest /= layout.shape[i];
    }
    std::byte* ptrs[StridedLayout::kMaxOperands];
    for (int k = 0; k < layout.operands; ++k) {
      ptrs[k] = base[k];
      for (int i = 0; i < nd - 1; ++i) ptrs[k] += index[i] * layout.strides[k][i];
    }
    for (int64_t r = begin; r < end; ++r) {
      inner(ptrs, row);
      for (int i = nd - 2; i >= 0; --i) {
        for (int k = 0; k < layout.operands; ++k) ptrs[k] += layout.strides[k][i];
        if (++index[i] < layout.shape[i]) break;
        for (int k = 0; k < layout.operands; ++k) {
          ptrs[k] -= layout.strides[k][i] * layout.shape[i];
        }
        index[i] = 0;
      }
    }
  });
}

}  // namespace tessera::cpu
