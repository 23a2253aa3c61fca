// reshape and ravel: a view whenever the strides allow one, as NumPy decides it.

#include <algorithm>
#include <numeric>
#include <string>

#include "core/keep_order.h"
#include "tessera/array.h"
#include "tessera/errors.h"

namespace tessera {
namespace {

// Replaces one -1 by the length that makes the sizes agree.
Dims resolve_unknown(const Dims& shape, int64_t size) {
  Dims out = shape;
  int unknown = -1;
  int64_t known = 1;
  for (int i = 0; i < out.size(); ++i) {
    if (out[i] < 0) {  // NumPy takes any negative length as the unknown one
      if (unknown >= 0) throw ValueError("[reshape] can only specify one unknown dimension");
      unknown = i;
    } else {
      known *= out[i];
    }
  }
  if (unknown >= 0) {
    if (known == 0 || size % known != 0) {
      throw ValueError("[reshape] cannot reshape array of size " + std::to_string(size) +
                       " into shape " + shape.str());
    }
    out[unknown] = size / known;
  }
  return out;
}

}  // namespace

// NumPy's _attempt_nocopy_reshape: match runs of old axes to runs of new axes with equal
// products; each old run must be contiguous in the requested order.
std::optional<Array> Array::reshape_view(const Dims& new_shape, Order order) const {
  if (size() == 0 || (order == Order::C ? is_c_contiguous() : is_f_contiguous())) {
    return as_strided(new_shape, contiguous_strides(new_shape, itemsize(), order), offset_);
  }
  Dims old_dims, old_strides;
  for (int i = 0; i < ndim(); ++i) {
    if (shape_[i] != 1) {
      old_dims.push_back(shape_[i]);
      old_strides.push_back(strides_[i]);
    }
  }
  const bool f = order == Order::F;
  const int old_nd = old_dims.size(), new_nd = new_shape.size();
  Dims new_strides(new_nd);
  int oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < new_nd && oi < old_nd) {
    int64_t np = new_shape[ni], op = old_dims[oi];
    while (np != op) {
      if (np < op) np *= new_shape[nj++];
      else op *= old_dims[oj++];
    }
    for (int ok = oi; ok < oj - 1; ++ok) {
      if (f ? old_strides[ok + 1] != old_dims[ok] * old_strides[ok]
            : old_strides[ok] != old_dims[ok + 1] * old_strides[ok + 1]) {
        return std::nullopt;
      }
    }
    if (f) {
      new_strides[ni] = old_strides[oi];
      for (int nk = ni + 1; nk < nj; ++nk) new_strides[nk] = new_strides[nk - 1] * new_shape[nk - 1];
    } else {
      new_strides[nj - 1] = old_strides[oj - 1];
      for (int nk = nj - 1; nk > ni; --nk) new_strides[nk - 1] = new_strides[nk] * new_shape[nk];
    }
    ni = nj++;
    oi = oj++;
  }
  int64_t last = ni >= 1 ? new_strides[ni - 1] : itemsize();
  if (f && ni >= 1) last *= new_shape[ni - 1];
  for (int nk = ni; nk < new_nd; ++nk) new_strides[nk] = last;
  return as_strided(new_shape, std::move(new_strides), offset_);
}

Array Array::reshape(const Dims& shape, Order order) const {
  Dims target = resolve_unknown(shape, size());
  checked_size(target, itemsize(), "reshape");
  if (target.product() != size()) {
    throw ValueError("[reshape] cannot reshape array of size " + std::to_string(size()) +
                     " into shape " + shape.str());
  }
  if (order == Order::A) order = is_f_contiguous() && !is_c_contiguous() ? Order::F : Order::C;
  if (order != Order::C && order != Order::F) {
    throw ValueError("[reshape] order must be one of 'C', 'F', 'A', got 'K'");
  }
  if (target == shape_) return *this;
  if (auto view = reshape_view(target, order)) return *view;
  return copy(order).reshape_view(target, order).value();
}

Array Array::ravel(Order order) const {
  if (order == Order::K) {
    if (is_c_contiguous()) order = Order::C;
    else if (is_f_contiguous()) order = Order::F;
  } else if (order == Order::A) {
    order = is_f_contiguous() && !is_c_contiguous() ? Order::F : Order::C;
  }
  const Dims flat{size()};
  if (order == Order::C && is_c_contiguous()) return *reshape_view(flat, Order::C);
  if (order == Order::F && is_f_contiguous()) return *reshape_view(flat, Order::F);
  if (order == Order::K) {
    // A flat view exists when the axes, by decreasing stride, tile memory contiguously.
    std::vector<std::pair<int64_t, int64_t>> axes;  // (|stride|, length) of non-unit axes
    for (int i = 0; i < ndim(); ++i) {
      if (shape_[i] != 1) axes.emplace_back(strides_[i], shape_[i]);
    }
    std::stable_sort(axes.begin(), axes.end(),
                     [](auto a, auto b) { return std::llabs(a.first) > std::llabs(b.first); });
    int64_t expected = itemsize();
    bool packed = true;
    for (auto it = axes.rbegin(); it != axes.rend() && packed; ++it) {
      packed = it->first == expected;
      expected *= it->second;
    }
    if (packed) return as_strided(flat, Dims{itemsize()}, offset_);
  }
  return flatten(order);
}

Array Array::flatten(Order order) const {
  if (order == Order::A) order = is_f_contiguous() && !is_c_contiguous() ? Order::F : Order::C;
  const Dims flat{size()};
  if (order == Order::K) {
    return transpose(keep_order_axes(ndim(), {&strides_})).copy(Order::C).reshape_view(flat, Order::C).value();
  }
  return copy(order).reshape_view(flat, order).value();
}

}  // namespace tessera
