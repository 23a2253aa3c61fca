// Basic indexing: integers, slices, new axes and an ellipsis make a view.

#include <string>

#include "tessera/array.h"
#include "tessera/errors.h"

namespace tessera {
namespace {

// Python's slice.indices + PySlice_AdjustIndices: (start, length) of a slice over `n`.
std::pair<int64_t, int64_t> resolve_slice(const IndexItem& s, int64_t n) {
  const int64_t step = s.step;
  if (step == 0) throw ValueError("[getitem] slice step cannot be zero");
  int64_t start, stop;
  if (step > 0) {
    start = s.slice_start.value_or(0);
    stop = s.slice_stop.value_or(n);
    if (start < 0) start = std::max<int64_t>(start + n, 0);
    if (stop < 0) stop = std::max<int64_t>(stop + n, 0);
    start = std::min(start, n);
    stop = std::min(stop, n);
    return {start, stop > start ? (stop - start - 1) / step + 1 : 0};
  }
  start = s.slice_start.value_or(n - 1);
  stop = s.slice_stop.value_or(-n - 1);
  if (start < 0) start = std::max<int64_t>(start + n, -1);
  if (stop < 0) stop = std::max<int64_t>(stop + n, -1);
  start = std::min(start, n - 1);
  stop = std::min(stop, n - 1);
  return {start, start > stop ? (start - stop - 1) / (-step) + 1 : 0};
}

}  // namespace

Array Array::index(const std::vector<IndexItem>& items) const {
  int consumed = 0, ellipses = 0;
  for (const IndexItem& it : items) {
    if (it.kind == IndexItem::Integer || it.kind == IndexItem::Slice) ++consumed;
    if (it.kind == IndexItem::Ellipsis) ++ellipses;
  }
  if (ellipses > 1) throw IndexError("[getitem] an index can only have a single ellipsis ('...')");
  if (consumed > ndim()) {
    throw IndexError("[getitem] too many indices for array: array is " + std::to_string(ndim()) +
                     "-dimensional, but " + std::to_string(consumed) + " were indexed");
  }
  Dims shape, strides;
  int64_t offset = offset_;
  bool empty_result = false;
  int axis = 0;
  auto take_whole_axes = [&](int count) {
    for (int i = 0; i < count; ++i, ++axis) {
      shape.push_back(shape_[axis]);
      strides.push_back(strides_[axis]);
    }
  };
  for (const IndexItem& it : items) {
    switch (it.kind) {
      case IndexItem::Ellipsis:
        take_whole_axes(ndim() - consumed);
        break;
      case IndexItem::NewAxis:
        shape.push_back(1);
        strides.push_back(0);
        break;
      case IndexItem::Integer: {
        const int64_t n = shape_[axis];
        if (it.start < -n || it.start >= n) {
          throw IndexError("[getitem] index " + std::to_string(it.start) +
                           " is out of bounds for axis " + std::to_string(axis) +
                           " with size " + std::to_string(n));
        }
        offset += (it.start < 0 ? it.start + n : it.start) * strides_[axis];
        ++axis;
        break;
      }
      case IndexItem::Slice: {
        auto [start, length] = resolve_slice(it, shape_[axis]);
        if (length > 0) offset += start * strides_[axis];
        empty_result |= length == 0;
        shape.push_back(length);
        strides.push_back(strides_[axis] * it.step);
        ++axis;
        break;
      }
    }
  }
  if (ellipses == 0) take_whole_axes(ndim() - axis);
  if (shape.size() > kMaxDims) {
    throw IndexError("[getitem] number of dimensions must be within [0, " +
                     std::to_string(kMaxDims) + "], the index makes " + std::to_string(shape.size()));
  }
  // An empty view must not point past the buffer; where it points does not matter.
  return as_strided(std::move(shape), std::move(strides), empty_result ? offset_ : offset);
}

}  // namespace tessera
