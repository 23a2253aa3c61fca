// tessera.ndarray: attributes, views and copies. Data-moving calls release the GIL.

#include "ndarray.h"

#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <string>

#include "convert.h"
#include "tessera/errors.h"

namespace tessera::py {
namespace {

// `shared`: the memory is handed to outside code for as long as it likes, so it may be
// written behind tessera's back (see Buffer::mark_exported). Otherwise a read-only view
// for tessera's own short-lived reads (printing, tolist, item).
nb::dict array_interface(const NdArray& self, bool shared) {
  const Array& a = self.array;
  if (!a.device().is_cpu()) {
    throw nb::attribute_error("[__array_interface__] only CPU arrays expose host memory; use "
                              ".get() to copy a device array to the host");
  }
  if (shared) a.buffer()->mark_exported();
  nb::dict d;
  d["shape"] = to_tuple(a.shape());
  d["typestr"] = typestr(a.dtype());
  d["data"] = nb::make_tuple(reinterpret_cast<uintptr_t>(a.data()), !shared || !a.writeable());
  d["strides"] = to_tuple(a.strides());
  d["version"] = 3;
  return d;
}

// A result that may be a view of `self` (reshape, ravel) or a new array.
nb::object wrap_view_or_new(nb::handle self, Array out) {
  bool shares = out.buffer() == unwrap(self).array.buffer();
  return shares ? wrap_view(std::move(out), self) : wrap(std::move(out));
}

// reshape(*shape) takes reshape(2, 3), reshape((2, 3)) and reshape(shape=(2, 3)).
Dims shape_from_args(nb::args args, nb::handle fallback, const char* api) {
  if (args.size() == 1) return to_shape(args[0], api);
  if (args.size() == 0) {
    if (fallback.is_valid() && !fallback.is_none()) return to_shape(fallback, api);
    throw TypeError(std::string("[") + api + "] needs a shape");
  }
  return to_shape(args, api);
}

nb::object reshape(nb::handle self, nb::args args, nb::kwargs kwargs) {
  nb::handle shape_kw, order_kw = nb::none(), copy_kw = nb::none();
  for (auto [key, value] : kwargs) {
    std::string k = nb::cast<std::string>(key);
    if (k == "shape") shape_kw = value;
    else if (k == "order") order_kw = value;
    else if (k == "copy") copy_kw = value;
    else throw TypeError("[reshape] got an unexpected keyword argument '" + k + "'");
  }
  if (args.size() && shape_kw.is_valid()) {
    throw TypeError("[reshape] got the shape both by position and by keyword");
  }
  const Array& a = unwrap(self).array;
  Dims shape = shape_from_args(args, shape_kw, "reshape");
  Order order = to_order(order_kw, Order::C, "CFA", "reshape");
  const std::optional<bool> copy = to_copy(copy_kw, "reshape");
  if (copy && *copy) {
    return wrap(without_gil([&] { return a.copy(order).reshape(shape, order); }));
  }
  Array out = a.reshape(shape, order);
  if (copy && out.buffer() != a.buffer()) {
    throw ValueError("[reshape] Unable to avoid creating a copy while reshaping.");
  }
  return wrap_view_or_new(self, std::move(out));
}

nb::object transpose(nb::handle self, nb::args args) {
  const Array& a = unwrap(self).array;
  if (args.size() == 0 || (args.size() == 1 && args[0].is_none())) {
    return wrap_view(a.transpose(), self);
  }
  std::vector<int> axes = to_axes(args.size() == 1 ? nb::handle(args[0]) : nb::handle(args),
                                  "transpose");
  return wrap_view(a.transpose(axes), self);
}

}  // namespace

namespace {
// tessera.ndarray's type object: a direct type check is the cheapest test on the hot path.
PyTypeObject* ndarray_type = nullptr;

// A new tessera.ndarray built in place: nb::cast would look the C++ type up in nanobind's
// type map and move a temporary, which costs as much as the rest of making a small view.
nb::object new_ndarray(Array a, nb::object base) {
  nb::object o = nb::inst_alloc(reinterpret_cast<PyObject*>(ndarray_type));
  new (nb::inst_ptr<NdArray>(o)) NdArray{std::move(a), std::move(base)};
  nb::inst_mark_ready(o);
  return o;
}
}  // namespace

nb::object wrap(Array a) { return new_ndarray(std::move(a), nb::none()); }

nb::object wrap_view(Array a, nb::handle parent) {
  const NdArray& p = unwrap(parent);
  nb::object base = p.base.is_none() ? nb::borrow(parent) : p.base;
  return new_ndarray(std::move(a), std::move(base));
}

bool is_ndarray(nb::handle obj) { return PyObject_TypeCheck(obj.ptr(), ndarray_type); }

NdArray* as_ndarray(nb::handle obj) {
  return is_ndarray(obj) && nb::inst_ready(obj) ? nb::inst_ptr<NdArray>(obj) : nullptr;
}

Array on_current_cuda_device(const Array& a) {
  const Device here = current_device();
  if (a.device().is_cpu() || here.is_cpu() || here == a.device()) return a;
  return a.to_device(here);
}

NdArray& unwrap(nb::handle obj) {
  NdArray* p = as_ndarray(obj);
  if (!p) {
    throw TypeError(std::string("expected a tessera.ndarray, got ") + nb::inst_name(obj).c_str());
  }
  return *p;
}

namespace {

// An array over device memory that a tessera.cuda.MemoryPointer points at (CuPy's
// ndarray(shape, dtype, memptr=)); the pointer keeps the memory alive.
Array array_over_memory(nb::handle memptr, const Dims& shape, DType dtype, Order order) {
  const auto ptr = nb::cast<uintptr_t>(memptr.attr("ptr"));
  nb::handle mem = memptr.attr("mem");
  const auto available = nb::cast<int64_t>(mem.attr("size")) -
                         static_cast<int64_t>(ptr - nb::cast<uintptr_t>(mem.attr("ptr")));
  const int64_t needed = checked_size(shape, itemsize(dtype), "ndarray") * itemsize(dtype);
  if (needed > available) {
    throw ValueError("[ndarray] shape " + shape.str() + " of " + std::string(dtype_name(dtype)) +
                     " needs " + std::to_string(needed) + " bytes; the memory has " +
                     std::to_string(available));
  }
  auto buffer = Buffer::wrap(Device::cuda(nb::cast<int>(memptr.attr("device_id"))),
                             reinterpret_cast<void*>(ptr), static_cast<size_t>(available),
                             keep_alive(memptr));
  return Array(std::move(buffer), dtype, shape,
               contiguous_strides(shape, itemsize(dtype), order == Order::F ? Order::F : Order::C),
               0);
}

// The element of a one-element CPU array as a Python number (computed first when pending),
// or a null object where the Python implementation answers: other devices and sizes, and
// the errors, keep one implementation there.
nb::object cpu_element(const Array& a) {
  if (a.size() != 1 || !a.device().is_cpu()) return {};
  const std::byte* p =
      a.buffer()->is_pending() ? without_gil([&] { return a.data(); }) : a.data();
  return python_number(a.dtype(), p);
}

// tessera._ndarray's implementation of method `name`, for what the fast paths here leave
// (looked up each time: a static Python object would outlive the interpreter).
nb::object python_method(const char* name) {
  return nb::module_::import_("tessera._ndarray").attr(name);
}

// A conversion to a Python scalar (float(a), int(a), ...): NumPy converts 0-d arrays (and
// bool() any one-element array); `kinds` are the dtype kinds converted here directly, by
// `convert` applied to the element.
// `name` is the method's name on the type: float, int and bool reach the general form
// through the type's slots (ndarray_slots.cpp), which call `_general<method>`.
template <typename Convert>
void def_scalar_conversion(nb::class_<NdArray>& cls, const char* name, const char* method,
                           const char* kinds, bool any_ndim, Convert convert) {
  cls.def(name, [method, kinds, any_ndim, convert](nb::handle self) -> nb::object {
    const Array& a = unwrap(self).array;
    if ((any_ndim || a.ndim() == 0) && std::strchr(kinds, dtype_info(a.dtype()).kind)) {
      if (nb::object v = cpu_element(a); v.is_valid()) return convert(v);
    }
    return python_method((std::string("_slow") + method).c_str())(self);
  });
}

}  // namespace

void bind_ndarray(nb::module_& m) {
  // Pooled: a freed ndarray's object is parked and reused, still registered with nanobind,
  // so the views and results of a loop of small operations skip the allocation and the
  // instance-map insertion and removal that making each one would cost.
  nb::class_<NdArray> cls(m, "ndarray",
                          "An n-dimensional array on a device (the CPU or a CUDA GPU), with "
                          "NumPy's semantics.",
                          nb::pooled(), nb::type_slots(ndarray_slots()));
  cls.attr("__module__") = "tessera";
  ndarray_type = reinterpret_cast<PyTypeObject*>(cls.ptr());

  cls.def("__init__",
          [](NdArray* self, nb::handle shape, nb::handle dtype, nb::handle order,
             nb::handle device, nb::handle memptr) {
            const Dims dims = to_shape(shape, "ndarray");
            const DType dt = to_dtype(dtype, DType::Float64, "ndarray");
            const Order o = to_order(order, Order::C, "CF", "ndarray");
            if (memptr.is_none()) {
              new (self) NdArray{Array::empty(dims, dt, to_device(device, "ndarray"), o),
                                 nb::none()};
              return;
            }
            new (self) NdArray{array_over_memory(memptr, dims, dt, o), nb::none()};
          },
          nb::arg("shape"), nb::arg("dtype").none() = nb::none(), nb::arg("order").none() = "C",
          nb::kw_only(), nb::arg("device").none() = nb::none(),
          nb::arg("memptr").none() = nb::none());

  // shape, dtype, ndim, size and T are the type's own getters (ndarray_slots.cpp); this is
  // the general form of `a.shape = value` they call.
  cls.def("_general_set_shape", [](NdArray& s, nb::handle value) {
    Dims shape = to_shape(value, "shape");
    Array resized = s.array.reshape(shape, Order::C);
    if (resized.buffer() != s.array.buffer()) {
      throw nb::attribute_error("[shape] incompatible shape for in-place modification; use "
                                ".reshape() to make a copy with the desired shape");
    }
    s.array = std::move(resized);
  });
  cls.def_prop_ro("nbytes", [](const NdArray& s) { return s.array.nbytes(); });
  cls.def_prop_ro("itemsize", [](const NdArray& s) { return s.array.itemsize(); });
  cls.def_prop_ro("strides", [](const NdArray& s) { return to_tuple(s.array.strides()); });
  cls.def_prop_ro("device", [](const NdArray& s) { return s.array.device(); });
  cls.def_prop_ro("base", [](const NdArray& s) { return s.base; });
  cls.def_prop_ro("mT", [](nb::handle s) {
    const Array& a = unwrap(s).array;
    if (a.ndim() < 2) throw ValueError("[mT] matrix transpose needs at least 2 dimensions");
    return wrap_view(a.swapaxes(-1, -2), s);
  });
  // A real array's real part is the array itself, as NumPy's (`x.real is x`).
  cls.def_prop_ro("real", [](nb::handle s) -> nb::object {
    const Array& a = unwrap(s).array;
    return is_complex(a.dtype()) ? wrap_view(a.real(), s) : nb::borrow(s);
  });
  cls.def_prop_ro("imag", [](nb::handle s) {
    const Array& a = unwrap(s).array;
    return is_complex(a.dtype()) ? wrap_view(a.imag(), s) : wrap(a.imag());
  });
  cls.def_prop_rw(
      "_writeable", [](const NdArray& s) { return s.array.writeable(); },
      [](NdArray& s, bool w) { s.array.set_writeable(w); });
  cls.def_prop_ro("_c_contiguous", [](const NdArray& s) { return s.array.is_c_contiguous(); });
  cls.def_prop_ro("_f_contiguous", [](const NdArray& s) { return s.array.is_f_contiguous(); });
  cls.def_prop_ro("__array_interface__", [](const NdArray& s) { return array_interface(s, true); });
  cls.def("_host_interface", [](const NdArray& s) { return array_interface(s, false); });
  cls.def_prop_ro("data_ptr", [](const NdArray& s) {
    s.array.buffer()->mark_exported();
    return reinterpret_cast<uintptr_t>(s.array.data());
  }, "Address of the first element (a device pointer for device arrays).");

  cls.def("_evaluate", [](const NdArray& s) { without_gil([&] { return s.array.data(); }); },
          "Computes a pending (lazy) array now.");
  cls.def_prop_ro("_pending", [](const NdArray& s) { return s.array.buffer()->is_pending(); },
                  "Whether the array's values are an expression not yet computed (for tests "
                  "of fusion: reading the property computes nothing).");
  cls.def("_general_item", [](nb::handle self, nb::args args) -> nb::object {
    if (args.size() == 0) {
      if (nb::object v = cpu_element(unwrap(self).array); v.is_valid()) return v;
    }
    return python_method("_slow_item")(self, *args);
  });
  def_scalar_conversion(cls, "_general__float__", "__float__", "biuf", false,
                        [](nb::object v) { return nb::steal(PyNumber_Float(v.ptr())); });
  def_scalar_conversion(cls, "_general__int__", "__int__", "biu", false,
                        [](nb::object v) { return nb::steal(PyNumber_Long(v.ptr())); });
  def_scalar_conversion(cls, "__complex__", "__complex__", "biufc", false, [](nb::object v) {
    return nb::steal(PyComplex_FromCComplex(
        PyComplex_Check(v.ptr()) ? PyComplex_AsCComplex(v.ptr())
                                 : Py_complex{PyFloat_AsDouble(v.ptr()), 0.0}));
  });
  def_scalar_conversion(cls, "_general__bool__", "__bool__", "biufc", true, [](nb::object v) {
    return nb::bool_(PyObject_IsTrue(v.ptr()) == 1);
  });
  // t.reshape(shape) and t.reshape(m, n) first: nanobind matches these without building
  // the *args tuple and **kwargs dict of the general form.
  cls.def("reshape", [](nb::handle self, nb::handle shape) {
    const Array& a = unwrap(self).array;
    return wrap_view_or_new(self, a.reshape(to_shape(shape, "reshape")));
  }, nb::arg("shape").none());
  cls.def("reshape", [](nb::handle self, nb::handle rows, nb::handle columns) {
    const Array& a = unwrap(self).array;
    return wrap_view_or_new(
        self, a.reshape(Dims{to_int64(rows, "reshape", "shape"), to_int64(columns, "reshape", "shape")}));
  });
  cls.def("reshape", &reshape);
  cls.def("transpose", &transpose);
  cls.def("swapaxes", [](nb::handle s, nb::handle a, nb::handle b) {
    return wrap_view(unwrap(s).array.swapaxes(
                         static_cast<int>(to_int64(a, "swapaxes", "axis1")),
                         static_cast<int>(to_int64(b, "swapaxes", "axis2"))),
                     s);
  }, nb::arg("axis1").none(), nb::arg("axis2").none());  // None reaches to_int64's TypeError
  cls.def("squeeze", [](nb::handle s, nb::handle axis) {
    const Array& a = unwrap(s).array;
    return wrap_view(axis.is_none() ? a.squeeze() : a.squeeze(to_axes(axis, "squeeze")), s);
  }, nb::arg("axis").none() = nb::none());
  cls.def("ravel", [](nb::handle s, nb::handle order) {
    const Array& a = unwrap(s).array;
    Order o = to_order(order, Order::C, "CFAK", "ravel");
    return wrap_view_or_new(s, without_gil([&] { return a.ravel(o); }));
  }, nb::arg("order").none() = "C");
  cls.def("flatten", [](const NdArray& s, nb::handle order) {
    Order o = to_order(order, Order::C, "CFAK", "flatten");
    return wrap(without_gil([&] { return s.array.flatten(o); }));
  }, nb::arg("order").none() = "C");
  cls.def("copy", [](const NdArray& s, nb::handle order) {
    Order o = to_order(order, Order::C, "CFAK", "copy");
    return wrap(without_gil_if(worth_releasing_gil(s.array), [&] {
      const Array here = on_current_cuda_device(s.array);
      // A copy from another device is new already: only the order may still ask for one.
      return here.device() == s.array.device()
                 ? here.copy(o)
                 : astype(here, here.dtype(), Casting::Unsafe, /*copy=*/false, o);
    }));
  }, nb::arg("order").none() = "C");
  // The array's values, packed in C order, written to host memory at `address` (which
  // must hold nbytes): asnumpy's transfer straight into the NumPy array it returns.
  cls.def("_download_into", [](nb::handle s, uintptr_t address) {
    const Array& a = unwrap(s).array;
    without_gil([&] { a.copy_to_host(reinterpret_cast<void*>(address)); });
  });
  cls.def("_to_device", [](nb::handle s, nb::handle device) {
    const Array& a = unwrap(s).array;
    Device d = to_device(device, "to_device");
    if (d == a.device()) return nb::borrow(s);
    return wrap(without_gil([&] { return a.to_device(d); }));
  }, nb::arg("device").none());
  cls.def("_expand_dims", [](nb::handle s, nb::handle axis) {
    return wrap_view(unwrap(s).array.expand_dims(to_axes(axis, "expand_dims")), s);
  });
  cls.def("_moveaxis", [](nb::handle s, nb::handle src, nb::handle dst) {
    return wrap_view(unwrap(s).array.moveaxis(to_axes(src, "moveaxis"), to_axes(dst, "moveaxis")),
                     s);
  });
  // numpy.lib.stride_tricks.as_strided: any shape and strides over the array's memory,
  // which NumPy does not check; here a view reaching outside the buffer is a ValueError,
  // so that no read or write can leave it.
  cls.def("_as_strided", [](nb::handle s, nb::handle shape_obj, nb::handle strides_obj) {
    const Array& a = unwrap(s).array;
    const Dims shape = to_shape(shape_obj, "as_strided");
    const Dims strides = to_shape(strides_obj, "as_strided");
    if (shape.size() != strides.size()) {
      throw ValueError("[as_strided] shape and strides must have the same length, got " +
                       std::to_string(shape.size()) + " and " + std::to_string(strides.size()));
    }
    int64_t lo = a.offset(), hi = a.offset();
    bool empty = false;
    for (int d = 0; d < shape.size(); ++d) {
      if (shape[d] < 0) throw ValueError("[as_strided] negative dimensions are not allowed");
      empty |= shape[d] == 0;
      const int64_t span = shape[d] > 0 ? (shape[d] - 1) * strides[d] : 0;
      (span < 0 ? lo : hi) += span;
    }
    if (!empty && (lo < 0 || hi + a.itemsize() > static_cast<int64_t>(a.buffer()->bytes()))) {
      throw ValueError("[as_strided] shape " + shape.str() + " with strides " + strides.str() +
                       " reaches outside the array's memory (" +
                       std::to_string(a.buffer()->bytes()) + " bytes)");
    }
    return wrap_view(a.as_strided(shape, strides, a.offset()), s);
  });
  // ndarray.view(dtype): the same bytes read as another dtype. A different item size
  // rescales the last axis, which must then be contiguous, as NumPy's.
  cls.def("_view_as", [](nb::handle s, nb::handle dtype_obj) {
    const Array& a = unwrap(s).array;
    const DType to = to_dtype(dtype_obj, a.dtype(), "view");
    const int64_t from_size = a.itemsize(), to_size = itemsize(to);
    Dims shape = a.shape(), strides = a.strides();
    if (from_size != to_size) {
      if (a.ndim() == 0) {
        throw ValueError("[view] Changing the dtype of a 0d array is only supported if the "
                         "itemsize is unchanged");
      }
      const int last = a.ndim() - 1;
      // An empty array has no layout to keep (NumPy's check skips it too).
      if (shape[last] != 1 && a.size() != 0 && strides[last] != from_size) {
        throw ValueError("[view] To change to a dtype of a different size, the last axis must "
                         "be contiguous");
      }
      const int64_t bytes = shape[last] * from_size;
      if (to_size < from_size && from_size % to_size != 0) {
        throw ValueError("[view] When changing to a smaller dtype, its size must be a divisor "
                         "of the size of original dtype");
      }
      if (bytes % to_size != 0) {
        throw ValueError("[view] When changing to a larger dtype, its size must be a divisor "
                         "of the total size in bytes of the last axis of the array.");
      }
      shape[last] = bytes / to_size;
      strides[last] = to_size;
    }
    Array view(a.buffer(), to, shape, strides, a.offset());
    view.set_writeable(a.writeable());
    return wrap_view(std::move(view), s);
  });
  cls.def("_broadcast_to", [](nb::handle s, nb::handle shape) {
    return wrap_view(unwrap(s).array.broadcast_to(to_shape(shape, "broadcast_to")), s);
  });
  // The diagonal (offset, axis1, axis2) as a read-only view: its axis is the last.
  cls.def("_diagonal", [](nb::handle s, int64_t offset, int64_t axis1, int64_t axis2) {
    const Array& a = unwrap(s).array;
    if (a.ndim() < 2) {
      throw ValueError("[diagonal] diag requires an array of at least two dimensions");
    }
    const int a1 = normalize_axis(axis1, a.ndim(), "diagonal");
    const int a2 = normalize_axis(axis2, a.ndim(), "diagonal");
    if (a1 == a2) throw ValueError("[diagonal] axis1 and axis2 cannot be the same");
    Dims shape, strides;
    for (int d = 0; d < a.ndim(); ++d) {
      if (d == a1 || d == a2) continue;
      shape.push_back(a.shape()[d]);
      strides.push_back(a.strides()[d]);
    }
    const int64_t n1 = a.shape()[a1], n2 = a.shape()[a2];
    const int64_t s1 = a.strides()[a1], s2 = a.strides()[a2];
    const int64_t length = std::max<int64_t>(
        0, offset >= 0 ? std::min(n1, n2 - offset) : std::min(n1 + offset, n2));
    int64_t start = a.offset();
    if (length > 0) start += offset >= 0 ? offset * s2 : -offset * s1;
    shape.push_back(length);
    strides.push_back(s1 + s2);
    Array view = a.as_strided(shape, strides, start);
    view.set_writeable(false);
    return wrap_view(std::move(view), s);
  });

  bind_indexing(cls);
  bind_ufuncs(m, cls);
  bind_cuda_exchange(m, cls);
  bind_reductions(m);
  bind_reduction_methods(cls);
  bind_sorting(m);
  bind_linalg(m);
  bind_fft(m);
  bind_random(m);
  bind_index_functions(m);
  find_slot_fallbacks(cls);
}

}  // namespace tessera::py
