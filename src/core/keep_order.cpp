#include "core/keep_order.h"

#include <algorithm>
#include <cstdlib>

namespace tessera {

std::vector<int> keep_order_axes(int nd, const std::vector<const Dims*>& strides) {
  // perm[0] is the innermost axis, as in NumPy's iterator.
  std::vector<int> perm(nd);
  for (int i = 0; i < nd; ++i) perm[i] = nd - 1 - i;
  for (int i0 = 1; i0 < nd; ++i0) {
    const int ax_i = perm[i0];
    int insert_at = i0;
    for (int j0 = i0 - 1; j0 >= 0; --j0) {
      const int ax_j = perm[j0];
      bool ambiguous = true, swap = false;
      for (const Dims* s : strides) {
        const int64_t outer = (*s)[ax_i], inner = (*s)[ax_j];
        if (outer == 0 || inner == 0) continue;
        if (std::llabs(inner) <= std::llabs(outer)) {
          swap = false;
        } else if (ambiguous) {
          swap = true;
        }
        ambiguous = false;
      }
      if (ambiguous) continue;
      if (!swap) break;
      insert_at = j0;
    }
    if (insert_at != i0) {
      std::rotate(perm.begin() + insert_at, perm.begin() + i0, perm.begin() + i0 + 1);
    }
  }
  std::reverse(perm.begin(), perm.end());
  return perm;
}

}  // namespace tessera
