// Shape and stride arithmetic, with NumPy's rules and NumPy's error messages.

#include <string>

#include "tessera/array.h"
#include "tessera/errors.h"

namespace tessera {

std::string Dims::str() const {
  std::string s = "(";
  for (int i = 0; i < size_; ++i) {
    if (i) s += ", ";
    s += std::to_string((*this)[i]);
  }
  return s + (size_ == 1 ? ",)" : ")");
}

// NumPy's _array_fill_strides: a zero-length axis counts as length 1, so that the other
// strides stay meaningful.
Dims contiguous_strides(const Dims& shape, int64_t itemsize, Order order) {
  const int nd = shape.size();
  Dims strides(nd);
  int64_t step = itemsize;
  if (order == Order::F) {
    for (int i = 0; i < nd; ++i) {
      strides[i] = step;
      if (shape[i]) step *= shape[i];
    }
  } else {
    for (int i = nd - 1; i >= 0; --i) {
      strides[i] = step;
      if (shape[i]) step *= shape[i];
    }
  }
  return strides;
}

Dims broadcast_shapes(const std::vector<Dims>& shapes, const char* api) {
  int nd = 0;
  for (const Dims& s : shapes) nd = std::max(nd, s.size());
  Dims out(nd, 1);
  for (const Dims& s : shapes) {
    for (int i = 0; i < s.size(); ++i) {
      int64_t& o = out[nd - s.size() + i];
      int64_t d = s[i];
      if (d == o || d == 1) continue;
      if (o == 1) {
        o = d;
        continue;
      }
      std::string all;
      for (const Dims& t : shapes) {
        if (!all.empty()) all += ' ';
        all += t.str();
      }
      throw ValueError(std::string("[") + api +
                       "] shape mismatch: objects cannot be broadcast to a single shape; "
                       "shapes " + all + " are incompatible");
    }
  }
  return out;
}

int normalize_axis(int64_t axis, int ndim, const char* api) {
  if (axis < -ndim || axis >= ndim) {
    throw AxisError(std::string("[") + api + "] axis " + std::to_string(axis) +
                    " is out of bounds for array of dimension " + std::to_string(ndim));
  }
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

int64_t checked_size(const Dims& shape, int64_t itemsize, const char* api) {
  if (shape.size() > kMaxDims) {
    throw ValueError(std::string("[") + api +
                     "] maximum supported dimension for an ndarray is currently " +
                     std::to_string(kMaxDims) + ", found " + std::to_string(shape.size()));
  }
  int64_t nbytes = itemsize, size = 1;
  bool empty = false;
  for (int64_t d : shape) {
    if (d < 0) {
      throw ValueError(std::string("[") + api + "] negative dimensions are not allowed, got " +
                       shape.str());
    }
    if (d == 0) {
      empty = true;
      continue;
    }
    if (__builtin_mul_overflow(nbytes, d, &nbytes)) {
      throw ValueError(std::string("[") + api + "] array is too big; shape " + shape.str() +
                       " times the item size " + std::to_string(itemsize) +
                       " is larger than the maximum possible size");
    }
    size *= d;
  }
  return empty ? 0 : size;
}

}  // namespace tessera
