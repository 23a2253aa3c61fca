// Array construction, layout queries, and the views that only rearrange axes.

#include "tessera/array.h"

#include <algorithm>
#include <numeric>
#include <string>

#include "tessera/errors.h"

namespace tessera {
namespace {

std::string api_prefix(const char* api) { return std::string("[") + api + "] "; }

// Axes normalized against `ndim`, each at most once; errors name `api`.
std::vector<int> normalize_axes(const std::vector<int>& axes, int ndim, const char* api,
                                const char* what = "axis") {
  std::vector<int> out;
  std::vector<bool> seen(ndim, false);
  for (int a : axes) {
    int n = normalize_axis(a, ndim, api);
    if (seen[n]) throw ValueError(api_prefix(api) + "repeated " + what);
    seen[n] = true;
    out.push_back(n);
  }
  return out;
}

}  // namespace

Array::Array(std::shared_ptr<Buffer> buffer, DType dtype, Dims shape, Dims strides,
             int64_t offset)
    : buffer_(std::move(buffer)),
      dtype_(dtype),
      shape_(std::move(shape)),
      strides_(std::move(strides)),
      offset_(offset) {
  if (shape_.size() != strides_.size()) {
    throw ValueError("[ndarray] shape " + shape_.str() + " and strides " + strides_.str() +
                     " differ in length");
  }
  if (size() == 0) return;
  int64_t lo = offset_, hi = offset_ + itemsize();
  bool overflow = false;
  for (int i = 0; i < ndim(); ++i) {
    int64_t span;
    overflow |= __builtin_mul_overflow(shape_[i] - 1, strides_[i], &span);
    overflow |= __builtin_add_overflow(span < 0 ? lo : hi, span, span < 0 ? &lo : &hi);
  }
  if (overflow || lo < 0 || hi > static_cast<int64_t>(buffer_->bytes())) {
    throw ValueError("[ndarray] strides " + strides_.str() + " and offset " +
                     std::to_string(offset_) + " reach outside the buffer of " +
                     std::to_string(buffer_->bytes()) + " bytes");
  }
}

Array Array::over_memory(Device device, void* first, DType dtype, Dims shape, Dims strides,
                         std::shared_ptr<void> keepalive) {
  int64_t lo = 0, hi = tessera::itemsize(dtype);
  for (size_t i = 0; i < shape.size() && i < strides.size(); ++i) {
    const int64_t span = shape[i] > 0 ? (shape[i] - 1) * strides[i] : 0;
    (span < 0 ? lo : hi) += span;
  }
  auto buffer = Buffer::wrap(device, static_cast<std::byte*>(first) + lo,
                             static_cast<size_t>(hi - lo), std::move(keepalive));
  return Array(std::move(buffer), dtype, std::move(shape), std::move(strides), -lo);
}

Array Array::empty(const Dims& shape, DType dtype, Device device, Order order,
                   const char* api) {
  const int64_t isize = tessera::itemsize(dtype);
  const int64_t size = checked_size(shape, isize, api);
  auto buffer = Buffer::allocate(device, static_cast<size_t>(std::max<int64_t>(size * isize, 1)));
  // NumPy 2.4 gives freshly made empty arrays all-zero strides.
  Dims strides = size == 0 ? Dims(shape.size(), 0)
                           : contiguous_strides(shape, isize, order == Order::F ? Order::F : Order::C);
  return Array(std::move(buffer), dtype, shape, std::move(strides), 0);
}

Array Array::empty_like(const Array& like, DType dtype, Order order) {
  if (order == Order::A) {
    order = like.is_f_contiguous() && !like.is_c_contiguous() ? Order::F : Order::C;
  }
  if (order == Order::K) {
    if (like.is_c_contiguous()) order = Order::C;
    else if (like.is_f_contiguous()) order = Order::F;
  }
  if (order != Order::K) return empty(like.shape(), dtype, like.device(), order);
  // Keep the source's axis order: NumPy's PyArray_CreateSortedStridePerm, a stable sort
  // by decreasing absolute stride (broadcast axes, stride 0, go innermost).
  const int nd = like.ndim();
  std::vector<int> perm(nd);
  std::iota(perm.begin(), perm.end(), 0);
  std::stable_sort(perm.begin(), perm.end(), [&](int a, int b) {
    return std::llabs(like.strides()[a]) > std::llabs(like.strides()[b]);
  });
  Dims permuted(nd);
  for (int i = 0; i < nd; ++i) permuted[i] = like.shape()[perm[i]];
  const int64_t isize = tessera::itemsize(dtype);
  Dims packed = contiguous_strides(permuted, isize, Order::C);
  Dims strides(nd);
  for (int i = 0; i < nd; ++i) strides[perm[i]] = packed[i];
  auto buffer = Buffer::allocate(like.device(), static_cast<size_t>(like.size() * isize));
  return Array(std::move(buffer), dtype, like.shape(), std::move(strides), 0);
}

// NumPy's rule: axes of length 1 may have any stride; empty arrays are contiguous.
bool Array::is_c_contiguous() const {
  if (size() == 0) return true;
  int64_t expected = itemsize();
  for (int i = ndim() - 1; i >= 0; --i) {
    if (shape_[i] == 1) continue;
    if (strides_[i] != expected) return false;
    expected *= shape_[i];
  }
  return true;
}

bool Array::is_f_contiguous() const {
  if (size() == 0) return true;
  int64_t expected = itemsize();
  for (int i = 0; i < ndim(); ++i) {
    if (shape_[i] == 1) continue;
    if (strides_[i] != expected) return false;
    expected *= shape_[i];
  }
  return true;
}

Array Array::as_strided(Dims shape, Dims strides, int64_t offset_bytes) const {
  Array out(buffer_, dtype_, std::move(shape), std::move(strides), offset_bytes);
  out.writeable_ = writeable_;
  return out;
}

Array Array::transpose() const {
  Dims shape(ndim()), strides(ndim());
  for (int i = 0; i < ndim(); ++i) {
    shape[i] = shape_[ndim() - 1 - i];
    strides[i] = strides_[ndim() - 1 - i];
  }
  return as_strided(std::move(shape), std::move(strides), offset_);
}

Array Array::transpose(const std::vector<int>& axes) const {
  if (static_cast<int>(axes.size()) != ndim()) {
    throw ValueError("[transpose] axes don't match array: got " + std::to_string(axes.size()) +
                     " axes for an array of dimension " + std::to_string(ndim()));
  }
  std::vector<int> perm = normalize_axes(axes, ndim(), "transpose", "axis in transpose");
  Dims shape(ndim()), strides(ndim());
  for (int i = 0; i < ndim(); ++i) {
    shape[i] = shape_[perm[i]];
    strides[i] = strides_[perm[i]];
  }
  return as_strided(std::move(shape), std::move(strides), offset_);
}

Array Array::swapaxes(int a, int b) const {
  int x = normalize_axis(a, ndim(), "swapaxes"), y = normalize_axis(b, ndim(), "swapaxes");
  Dims shape = shape_, strides = strides_;
  std::swap(shape[x], shape[y]);
  std::swap(strides[x], strides[y]);
  return as_strided(std::move(shape), std::move(strides), offset_);
}

Array Array::moveaxis(const std::vector<int>& source, const std::vector<int>& destination) const {
  std::vector<int> src = normalize_axes(source, ndim(), "moveaxis", "axis in `source` argument");
  std::vector<int> dst =
      normalize_axes(destination, ndim(), "moveaxis", "axis in `destination` argument");
  if (src.size() != dst.size()) {
    throw ValueError(
        "[moveaxis] `source` and `destination` arguments must have the same number of "
        "elements");
  }
  std::vector<int> order;
  for (int i = 0; i < ndim(); ++i) {
    if (std::find(src.begin(), src.end(), i) == src.end()) order.push_back(i);
  }
  std::vector<std::pair<int, int>> moves;
  for (size_t i = 0; i < src.size(); ++i) moves.emplace_back(dst[i], src[i]);
  std::sort(moves.begin(), moves.end());
  for (auto [d, s] : moves) order.insert(order.begin() + d, s);
  return transpose(order);
}

Array Array::expand_dims(const std::vector<int>& axes) const {
  const int out_nd = ndim() + static_cast<int>(axes.size());
  std::vector<int> positions = normalize_axes(axes, out_nd, "expand_dims");
  std::vector<bool> inserted(out_nd, false);
  for (int p : positions) inserted[p] = true;
  Dims shape;
  int src = 0;
  for (int i = 0; i < out_nd; ++i) shape.push_back(inserted[i] ? 1 : shape_[src++]);
  checked_size(shape, itemsize(), "expand_dims");
  // NumPy's expand_dims is a reshape, and takes the strides a reshape gives.
  return *reshape_view(shape, Order::C);
}

Array Array::squeeze() const {
  Dims shape, strides;
  for (int i = 0; i < ndim(); ++i) {
    if (shape_[i] == 1) continue;
    shape.push_back(shape_[i]);
    strides.push_back(strides_[i]);
  }
  return as_strided(std::move(shape), std::move(strides), offset_);
}

Array Array::squeeze(const std::vector<int>& axes) const {
  // NumPy's legacy rule: a 0-d array accepts axis 0 or -1 and stays as it is.
  if (ndim() == 0 && std::all_of(axes.begin(), axes.end(), [](int a) { return a == 0 || a == -1; })) {
    return *this;
  }
  std::vector<int> drop = normalize_axes(axes, ndim(), "squeeze");
  for (int a : drop) {
    if (shape_[a] != 1) {
      throw ValueError("[squeeze] cannot select an axis to squeeze out which has size not "
                       "equal to one: axis " + std::to_string(a) + " has size " +
                       std::to_string(shape_[a]));
    }
  }
  Dims shape, strides;
  for (int i = 0; i < ndim(); ++i) {
    if (std::find(drop.begin(), drop.end(), i) != drop.end()) continue;
    shape.push_back(shape_[i]);
    strides.push_back(strides_[i]);
  }
  return as_strided(std::move(shape), std::move(strides), offset_);
}

Array Array::broadcast_to(const Dims& shape) const {
  const int nd = shape.size();
  for (int64_t d : shape) {
    if (d < 0) {
      throw ValueError("[broadcast_to] all elements of broadcast shape must be non-negative, "
                       "got " + shape.str());
    }
  }
  checked_size(shape, itemsize(), "broadcast_to");
  bool ok = nd >= ndim();
  Dims strides(nd, 0);
  for (int i = 0; i < nd && ok; ++i) {
    if (shape[i] < 0) {
      throw ValueError("[broadcast_to] all elements of broadcast shape must be non-negative, "
                       "got " + shape.str());
    }
    // NumPy gives every length-1 source axis stride 0, even where the target is 1 too.
    int src = i - (nd - ndim());
    if (src < 0 || shape_[src] == 1) continue;
    if (shape_[src] == shape[i]) {
      strides[i] = strides_[src];
    } else {
      ok = false;
    }
  }
  if (!ok) {
    throw ValueError("[broadcast_to] could not broadcast array of shape " + shape_.str() +
                     " to shape " + shape.str());
  }
  return as_strided(shape, std::move(strides), offset_);
}

Array Array::diagonal_view(int64_t k) const {
  if (ndim() != 2) {
    throw ValueError("[diagonal] needs a 2-d array, got " + std::to_string(ndim()) + "-d");
  }
  const int64_t rows = shape_[0], cols = shape_[1];
  int64_t len = k >= 0 ? std::min(rows, cols - k) : std::min(rows + k, cols);
  len = std::max<int64_t>(len, 0);
  int64_t offset = offset_;
  if (len > 0) offset += k >= 0 ? k * strides_[1] : -k * strides_[0];
  return as_strided(Dims{len}, Dims{strides_[0] + strides_[1]}, offset);
}

Array Array::real() const {
  if (!tessera::is_complex(dtype_)) return *this;
  Array out = *this;
  out.dtype_ = real_dtype(dtype_);
  return out;
}

Array Array::imag() const {
  if (!tessera::is_complex(dtype_)) {
    // NumPy: the imaginary part of a real array is a read-only array of zeros.
    Array zeros = empty(shape_, dtype_, device());
    zeros.fill(Scalar(int64_t{0}));
    zeros.writeable_ = false;
    return zeros;
  }
  Array out = *this;
  out.dtype_ = real_dtype(dtype_);
  out.offset_ += out.itemsize();
  return out;
}

void Array::require_writeable(const char* api) const {
  if (!writeable_) throw ValueError(api_prefix(api) + "assignment destination is read-only");
  buffer_->before_write();
}

}  // namespace tessera
