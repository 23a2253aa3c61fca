// Advanced indexing: the key is split into a basic view and index arrays; the index
// arrays are broadcast together, checked and folded into one array of byte offsets
// (elementwise and reduction trees, so on any device), and the backend gathers or
// scatters along them. A boolean mask over the whole array is a compaction instead.

#include "tessera/indexing.h"

#include <algorithm>
#include <string>

#include "backend/backend.h"
#include "core/ufunc_resolve.h"
#include "tessera/errors.h"
#include "tessera/reduction.h"
#include "tessera/ufunc.h"

namespace tessera {
namespace {

Array int64_scalar(int64_t v, Device device) {
  Array a = Array::empty(Dims{}, DType::Int64, device);
  a.fill(Scalar(v));
  return a;
}

int64_t host_int(const Array& a) {
  int64_t v = 0;
  a.astype(DType::Int64).copy_to_host(&v);
  return v;
}

Array contiguous(const Array& a) { return a.is_c_contiguous() ? a : a.copy(Order::C); }

Array as_int64(const Array& a) { return a.dtype() == DType::Int64 ? a : a.astype(DType::Int64); }

// One advanced index: which dimension of the basic view it selects along, and for error
// messages, which dimension of the indexed array that is (-1 for a new axis).
struct Advanced {
  int view_dim;
  int array_dim;
  Array index;
};

struct Resolved {
  Array view;                  // the basic part of the key applied
  std::vector<Advanced> advanced;
  bool adjacent = true;        // the advanced items are next to each other in the key
};

Resolved resolve(const Array& a, const std::vector<KeyItem>& key, const char* api) {
  const std::string prefix = std::string("[") + api + "] ";
  const Device device = a.device();
  int consumed = 0;
  for (const KeyItem& item : key) {
    if (item.array) {
      consumed += item.array->dtype() == DType::Bool ? item.array->ndim() : 1;
    } else if (item.basic.kind == IndexItem::Integer || item.basic.kind == IndexItem::Slice) {
      ++consumed;
    }
  }
  Resolved r;
  std::vector<IndexItem> basics;
  const IndexItem whole = IndexItem::slice(std::nullopt, std::nullopt, 1);
  int view_dim = 0, array_dim = 0;
  int first = -1, last = -1, count = 0;
  auto mark = [&](int i) {
    if (first < 0) first = i;
    last = i;
    ++count;
  };
  for (int i = 0; i < static_cast<int>(key.size()); ++i) {
    const KeyItem& item = key[i];
    if (!item.array) {
      switch (item.basic.kind) {
        case IndexItem::Ellipsis: {
          const int span = std::max(0, a.ndim() - consumed);
          basics.push_back(item.basic);
          view_dim += span;
          array_dim += span;
          break;
        }
        case IndexItem::NewAxis:
          basics.push_back(item.basic);
          ++view_dim;
          break;
        case IndexItem::Slice:
          basics.push_back(item.basic);
          ++view_dim;
          ++array_dim;
          break;
        case IndexItem::Integer:  // beside index arrays, an integer is one too
          basics.push_back(whole);
          r.advanced.push_back({view_dim++, array_dim++, int64_scalar(item.basic.start, device)});
          mark(i);
          break;
      }
      continue;
    }
    const Array& index = *item.array;
    if (index.device() != device) {
      throw IndexError(prefix + "the index is on " + index.device().str() + ", the array on " +
                       device.str());
    }
    if (index.dtype() != DType::Bool) {
      if (!is_integer(index.dtype())) {
        throw IndexError(prefix + "arrays used as indices must be of integer (or boolean) type");
      }
      basics.push_back(whole);
      r.advanced.push_back({view_dim++, array_dim++, index});
      mark(i);
      continue;
    }
    if (index.size() == 0 && index.ndim() > 0) {
      // NumPy reads an empty boolean array as an empty integer index, unchecked.
      for (int k = 0; k < index.ndim(); ++k) {
        basics.push_back(whole);
        r.advanced.push_back({view_dim++, array_dim++, Array::empty(Dims{0}, DType::Int64, device)});
      }
      mark(i);
      continue;
    }
    if (index.ndim() == 0) {  // True selects a new axis of one, False of none
      basics.push_back(IndexItem::new_axis());
      bool keep = false;  // read through the device (the mask may be device memory)
      index.copy_to_host(&keep);
      Array positions = Array::empty(Dims{keep ? 1 : 0}, DType::Int64, device);
      if (keep) positions.fill(Scalar(int64_t{0}));
      r.advanced.push_back({view_dim++, -1, positions});
      mark(i);
      continue;
    }
    for (int k = 0; k < index.ndim(); ++k) {
      const int d = array_dim + k;
      if (d >= a.ndim()) break;  // too many indices: a.index reports it below
      if (a.shape()[d] != index.shape()[k]) {
        throw IndexError(prefix + "boolean index did not match indexed array along axis " +
                         std::to_string(d) + "; size of axis is " + std::to_string(a.shape()[d]) +
                         " but size of corresponding boolean axis is " +
                         std::to_string(index.shape()[k]));
      }
    }
    std::vector<Array> positions = nonzero(index);
    for (int k = 0; k < index.ndim(); ++k) {
      basics.push_back(whole);
      r.advanced.push_back({view_dim++, array_dim++, positions[k]});
    }
    mark(i);
  }
  r.view = a.index(basics);
  r.adjacent = last - first + 1 == count;
  return r;
}

// The index arrays broadcast together, checked against their dimensions and folded into
// byte offsets along the view; `shape` receives the broadcast shape.
Array byte_offsets(const Resolved& r, Dims& shape, const char* api) {
  const std::string prefix = std::string("[") + api + "] ";
  std::vector<Dims> shapes;
  for (const Advanced& adv : r.advanced) shapes.push_back(adv.index.shape());
  try {
    shape = broadcast_shapes(shapes, api);
  } catch (const ValueError&) {
    std::string text;
    for (const Dims& s : shapes) text += " " + s.str();
    throw IndexError(prefix + "shape mismatch: indexing arrays could not be broadcast together "
                     "with shapes" + text);
  }
  std::optional<Array> offsets;
  for (const Advanced& adv : r.advanced) {
    const int64_t n = r.view.shape()[adv.view_dim];
    const Operand size = Operand::weak_int(Scalar(n));
    const Array index = as_int64(adv.index);
    if (shape.product() > 0) {  // an empty result reads nothing, so NumPy checks nothing
      const Operand lo = Operand::weak_int(Scalar(-n));
      ReduceOptions all;
      Array bad = logical_or(less(index, lo), greater_equal(index, size));
      if (host_int(reduce(Ufunc::LogicalOr, bad, all, api)) != 0) {
        const int64_t at = host_int(argmax(bad));
        int64_t value = 0;
        index.reshape(Dims{index.size()}).index({IndexItem::integer(at)}).copy_to_host(&value);
        throw IndexError(prefix + "index " + std::to_string(value) + " is out of bounds for axis " +
                         std::to_string(std::max(adv.array_dim, 0)) + " with size " +
                         std::to_string(n));
      }
    }
    const Operand zero = Operand::weak_int(Scalar(int64_t{0}));
    Array wrapped = where(less(index, zero), add(index, size), index);
    Array term = multiply(wrapped, Operand::weak_int(Scalar(r.view.strides()[adv.view_dim])));
    offsets = offsets ? add(*offsets, term) : term;
  }
  return contiguous(offsets->broadcast_to(shape)).reshape(Dims{shape.product()});
}

// The view's dimensions other than the advanced ones, and how many of those lead the result.
struct BasicPart {
  Dims shape, strides;
  int npre = 0;
  int64_t offset = 0;

  // The view of the source those dimensions make (only for a non-empty result: a view of
  // an empty array may not point inside its buffer).
  Array view(const Array& of) const { return of.as_strided(shape, strides, offset); }
};

BasicPart basic_part(const Resolved& r) {
  BasicPart b;
  b.offset = r.view.offset();
  const int first = r.advanced.front().view_dim;
  for (int d = 0; d < r.view.ndim(); ++d) {
    const bool advanced = std::any_of(r.advanced.begin(), r.advanced.end(),
                                      [&](const Advanced& adv) { return adv.view_dim == d; });
    if (advanced) continue;
    b.shape.push_back(r.view.shape()[d]);
    b.strides.push_back(r.view.strides()[d]);
    if (r.adjacent && d < first) ++b.npre;
  }
  return b;
}

Dims result_shape(const BasicPart& basic, const Dims& broadcast) {
  Dims shape;
  for (int d = 0; d < basic.npre; ++d) shape.push_back(basic.shape[d]);
  for (int d = 0; d < broadcast.size(); ++d) shape.push_back(broadcast[d]);
  for (int d = basic.npre; d < basic.shape.size(); ++d) shape.push_back(basic.shape[d]);
  return shape;
}

bool is_whole_mask(const Array& a, const std::vector<KeyItem>& key) {
  return key.size() == 1 && key[0].array && key[0].array->dtype() == DType::Bool &&
         key[0].array->ndim() > 0 && key[0].array->shape() == a.shape();
}

// The number of true elements of a C-contiguous bool mask.
int64_t count_true(const Array& mask) { return backend_for(mask.device()).count_true(mask); }

std::vector<IndexItem> basic_items(const std::vector<KeyItem>& key) {
  std::vector<IndexItem> items;
  for (const KeyItem& k : key) items.push_back(k.basic);
  return items;
}

bool all_basic(const std::vector<KeyItem>& key) {
  return std::none_of(key.begin(), key.end(), [](const KeyItem& k) { return k.array; });
}

}  // namespace

Array getitem(const Array& a, const std::vector<KeyItem>& key) {
  if (all_basic(key)) return a.index(basic_items(key));
  if (is_whole_mask(a, key)) {
    const Array mask = contiguous(*key[0].array);
    Array out = Array::empty(Dims{count_true(mask)}, a.dtype(), a.device());
    if (out.size() > 0) backend_for(a.device()).compress(contiguous(a), mask, out);
    return out;
  }
  const Resolved r = resolve(a, key, "getitem");
  const BasicPart basic_one = basic_part(r);
  const Dims one_shape = result_shape(basic_one, r.advanced.front().index.shape());
  if (r.advanced.size() == 1 && one_shape.product() > 0) {
    // One index array (x[idx], take): checked and gathered in a single pass.
    const Advanced& adv = r.advanced.front();
    const BasicPart& basic = basic_one;
    const Array index = contiguous(as_int64(adv.index));
    Array out = Array::empty(one_shape, a.dtype(), a.device());
    const int64_t extent = r.view.shape()[adv.view_dim];
    if (extent == 0) {  // every index is out of bounds (and the source has no memory)
      int64_t first = 0;
      index.reshape(Dims{index.size()}).index({IndexItem::integer(0)}).copy_to_host(&first);
      throw IndexError("[getitem] index " + std::to_string(first) + " is out of bounds for axis " +
                       std::to_string(std::max(adv.array_dim, 0)) + " with size 0");
    }
    std::optional<int64_t> bad = backend_for(a.device()).gather_index(
        basic.view(r.view), basic.npre, index.reshape(Dims{index.size()}), extent,
        r.view.strides()[adv.view_dim], out);
    if (bad) {
      throw IndexError("[getitem] index " + std::to_string(*bad) + " is out of bounds for axis " +
                       std::to_string(std::max(adv.array_dim, 0)) + " with size " +
                       std::to_string(extent));
    }
    return out;
  }
  Dims broadcast;
  const Array offsets = byte_offsets(r, broadcast, "getitem");
  const BasicPart basic = basic_part(r);
  Array out = Array::empty(result_shape(basic, broadcast), a.dtype(), a.device());
  if (out.size() > 0) {
    backend_for(a.device()).gather(basic.view(r.view), basic.npre, offsets, out);
  }
  return out;
}

// NumPy drops a value's leading dimensions of length one that the target lacks.
Array without_leading_ones(const Array& value, int ndim) {
  Array v = value;
  while (v.ndim() > ndim && v.shape()[0] == 1) v = v.squeeze({0});
  return v;
}

void setitem(const Array& a, const std::vector<KeyItem>& key, const Array& value) {
  if (all_basic(key)) {
    Array target = a.index(basic_items(key));
    target.assign(value);
    return;
  }
  a.require_writeable("setitem");
  if (is_whole_mask(a, key)) {
    const Array& mask = *key[0].array;
    if (value.ndim() >= 2) {
      throw TypeError("[setitem] NumPy boolean array indexing assignment requires a 0 or "
                      "1-dimensional input, input has " + std::to_string(value.ndim()) +
                      " dimensions");
    }
    if (value.size() == 1) {
      // One value for every selected element: a select, fused and in place.
      const Operand args[3] = {mask, value.reshape(Dims{}).astype(a.dtype()), a};
      UfuncOptions options;
      options.out = {a};
      options.casting = Casting::Unsafe;
      apply_ufunc(Ufunc::Where, args, options);
      return;
    }
    const int64_t count = count_true(contiguous(mask));
    if (value.size() != count) {
      throw ValueError("[setitem] NumPy boolean array indexing assignment cannot assign " +
                       std::to_string(value.size()) + " input values to the " +
                       std::to_string(count) + " output values where the mask is true");
    }
  }
  const Resolved r = resolve(a, key, "setitem");
  std::vector<Dims> shapes;
  for (const Advanced& adv : r.advanced) shapes.push_back(adv.index.shape());
  Dims broadcast;
  try {
    broadcast = broadcast_shapes(shapes, "setitem");
  } catch (const ValueError&) {
    broadcast = Dims{};  // byte_offsets reports it as NumPy does
  }
  const BasicPart basic = basic_part(r);
  const Dims shape = result_shape(basic, broadcast);
  // The value is checked before the indices, as NumPy does.
  Array values;
  try {
    values = without_leading_ones(value, shape.size()).broadcast_to(shape);
  } catch (const ValueError&) {
    throw ValueError("[setitem] shape mismatch: value array of shape " + value.shape().str() +
                     " could not be broadcast to indexing result of shape " + shape.str());
  }
  const Array offsets = byte_offsets(r, broadcast, "setitem");
  values = values.astype(a.dtype(), Order::C);
  if (values.size() > 0) {
    backend_for(a.device()).scatter(basic.view(r.view), basic.npre, offsets, values);
  }
}

void ufunc_at(Ufunc op, const Array& a, const std::vector<KeyItem>& key,
              const std::optional<Operand>& b) {
  const UfuncInfo& info = ufunc_info(op);
  const std::string api = std::string(info.name) + ".at";
  if (info.nout != 1 || info.nin > 2) {
    throw ValueError("[" + api + "] only ufuncs with one output and one or two inputs are "
                     "supported");
  }
  if (info.nin == 2 && !b) {
    throw ValueError("[" + api + "] second operand needed for ufunc");
  }
  if (info.nin == 1 && b) {
    throw ValueError("[" + api + "] second operand provided when ufunc is unary");
  }
  a.require_writeable(api.c_str());
  if (all_basic(key)) {
    // Without index arrays no element repeats: one in-place ufunc call on the view.
    Array view = a.index(basic_items(key));
    std::vector<Operand> inputs = {Operand(view)};
    if (b) inputs.push_back(*b);
    UfuncOptions options;
    options.out = {view};
    options.casting = Casting::Unsafe;
    apply_ufunc(op, inputs, options);
    return;
  }
  std::vector<Operand> inputs = {Operand(a)};
  if (b) inputs.push_back(*b);
  const int loop = resolve_loop(op, inputs, {});
  const LoopSignature& sig = info.loops[loop];
  const Resolved r = resolve(a, key, api.c_str());
  Dims broadcast;
  const Array offsets = byte_offsets(r, broadcast, api.c_str());
  const BasicPart basic = basic_part(r);
  const Dims shape = result_shape(basic, broadcast);
  Array values;
  if (b) {
    Array given = b->is_array() ? b->array() : Array::empty(Dims{}, sig.in[1], a.device());
    if (!b->is_array()) given.fill(b->value().cast(sig.in[1]));
    try {
      values = without_leading_ones(given, shape.size()).broadcast_to(shape);
    } catch (const ValueError&) {
      throw ValueError("[" + api + "] operands could not be broadcast together: values of "
                       "shape " + given.shape().str() + " and the indexed shape " + shape.str());
    }
    values = values.astype(sig.in[1], Order::C);
  }
  if (shape.product() > 0) {
    backend_for(a.device()).scatter_apply(basic.view(r.view), basic.npre, offsets, values, op,
                                          loop);
  }
}

Array flatnonzero(const Array& a) {
  const Array mask = contiguous(not_equal(a, Operand::weak_int(Scalar(int64_t{0}))));
  Array out = Array::empty(Dims{count_true(mask)}, DType::Int64, a.device());
  if (out.size() > 0) backend_for(a.device()).flat_nonzero(mask, out);
  return out;
}

std::vector<Array> nonzero(const Array& a) {
  if (a.ndim() == 0) {
    throw ValueError("[nonzero] Calling nonzero on 0d arrays is not allowed. Use "
                     "np.atleast_1d(scalar).nonzero() instead. If the context of this error "
                     "is of the form `arr[nonzero(cond)]`, just use `arr[cond]`.");
  }
  const Array flat = flatnonzero(a);
  std::vector<Array> out;
  int64_t step = 1;
  std::vector<int64_t> steps(a.ndim());
  for (int d = a.ndim() - 1; d >= 0; --d) {
    steps[d] = step;
    step *= a.shape()[d];
  }
  for (int d = 0; d < a.ndim(); ++d) {
    Array index = floor_divide(flat, Operand::weak_int(Scalar(steps[d])));
    if (d > 0) index = remainder(index, Operand::weak_int(Scalar(a.shape()[d])));
    evaluate(index);
    out.push_back(index);
  }
  return out;
}

}  // namespace tessera
