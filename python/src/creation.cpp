// Entry points for array creation. The Python layer (tessera/_creation.py) resolves NumPy's
// argument conventions; these take resolved dtypes, shapes and values.

#include <algorithm>
#include <complex>
#include <memory>
#include <nanobind/stl/string.h>

#include <string>

#include "convert.h"
#include "ndarray.h"
#include "tessera/creation.h"
#include "tessera/errors.h"

namespace tessera::py {
namespace {

// The dtype a buffer-protocol format names ("<f8" style prefixes allowed).
DType dtype_from_format(const char* format, Py_ssize_t itemsize, const char* api) {
  std::string f = format ? format : "B";
  size_t i = 0;
  while (i < f.size() && (f[i] == '<' || f[i] == '=' || f[i] == '@' || f[i] == '|')) ++i;
  std::string code = f.substr(i);
  char kind = 0;
  if (code == "?") kind = 'b';
  else if (code.size() == 1 && std::string("bhilq").find(code[0]) != std::string::npos) kind = 'i';
  else if (code.size() == 1 && std::string("BHILQ").find(code[0]) != std::string::npos) kind = 'u';
  else if (code.size() == 1 && std::string("efd").find(code[0]) != std::string::npos) kind = 'f';
  else if (code == "Zf" || code == "Zd") kind = 'c';
  DType out;
  if (!kind || !dtype_from_kind(kind, static_cast<int>(itemsize), &out)) {
    throw TypeError(std::string("[") + api + "] unsupported buffer format '" + f + "'");
  }
  return out;
}

// Releases a Py_buffer with the GIL held, whichever thread drops the last reference.
struct HeldBuffer {
  Py_buffer view;
  ~HeldBuffer() {
    nb::gil_scoped_acquire gil;
    PyBuffer_Release(&view);
  }
};

// One value: a NumPy 0-d array (of the dtype it is to be read as), or a Python int (within
// int64), float, complex or bool, which casts from int64, float64, complex128 or bool as
// NumPy's weak scalars do.
Scalar scalar_from_host(nb::handle value, const char* api) {
  PyObject* o = value.ptr();
  if (PyBool_Check(o)) return Scalar(o == Py_True);
  if (PyFloat_CheckExact(o)) return Scalar(PyFloat_AS_DOUBLE(o));
  if (PyComplex_CheckExact(o)) {
    return Scalar(std::complex<double>(PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o)));
  }
  if (PyLong_CheckExact(o)) return Scalar(int64_t{to_int64(value, api, "value")});
  Array a = array_from_host(value, api);
  return Scalar(a.dtype(), a.data());
}

// A list or tuple of Python numbers, flat or nested into a rectangle ([1.0, 2.0], [[1, 2],
// [3, 4]]): the commonest argument of array() in users' code, read here in two passes
// (shape and kinds, then values) instead of through numpy.asarray and a copy.
class PythonNumbers {
 public:
  // False when `obj` is anything else (empty, ragged, other element types, ints beyond
  // int64): NumPy's reading applies then.
  bool read(nb::handle obj) {
    for (PyObject* o = obj.ptr(); PyList_CheckExact(o) || PyTuple_CheckExact(o);) {
      const Py_ssize_t n = PySequence_Fast_GET_SIZE(o);
      if (n == 0 || shape_.size() == kMaxDims) return false;
      shape_.push_back(n);
      o = PySequence_Fast_GET_ITEM(o, 0);
    }
    obj_ = obj.ptr();
    return !shape_.empty() && classify(obj_, 0);
  }

  // NumPy's dtype for the numbers: bool, int64, float64 or complex128.
  DType dtype() const {
    return complex_ ? DType::Complex128 : float_ ? DType::Float64 : int_ ? DType::Int64 : DType::Bool;
  }

  Array array() const {
    Array out = Array::empty(shape_, dtype(), Device::cpu());
    std::byte* p = out.data();
    fill(obj_, 0, p);
    return out;
  }

 private:
  bool classify(PyObject* o, int depth) {
    if (depth == shape_.size()) {
      if (PyFloat_CheckExact(o)) {
        float_ = true;
      } else if (PyLong_CheckExact(o)) {
        int overflow = 0;
        PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) return false;
        int_ = true;
      } else if (PyComplex_CheckExact(o)) {
        complex_ = true;
      } else if (!PyBool_Check(o)) {
        return false;
      }
      return true;
    }
    if ((!PyList_CheckExact(o) && !PyTuple_CheckExact(o)) ||
        PySequence_Fast_GET_SIZE(o) != shape_[depth]) {
      return false;
    }
    for (Py_ssize_t i = 0; i < shape_[depth]; ++i) {
      if (!classify(PySequence_Fast_GET_ITEM(o, i), depth + 1)) return false;
    }
    return true;
  }

  void fill(PyObject* o, int depth, std::byte*& p) const {
    if (depth < shape_.size()) {
      for (Py_ssize_t i = 0; i < shape_[depth]; ++i) fill(PySequence_Fast_GET_ITEM(o, i), depth + 1, p);
      return;
    }
    const DType t = dtype();
    if (t == DType::Bool) {
      *reinterpret_cast<bool*>(p) = o == Py_True;
    } else if (t == DType::Int64) {
      *reinterpret_cast<int64_t*>(p) = PyLong_AsLongLong(o);  // True and False too
    } else if (t == DType::Float64) {
      *reinterpret_cast<double*>(p) = PyFloat_Check(o) ? PyFloat_AS_DOUBLE(o) : PyLong_AsDouble(o);
    } else {
      const Py_complex c = PyComplex_AsCComplex(o);
      *reinterpret_cast<std::complex<double>*>(p) = {c.real, c.imag};
    }
    p += itemsize(t);
  }

  Dims shape_;
  PyObject* obj_ = nullptr;
  bool int_ = false, float_ = false, complex_ = false;
};

// A new array on `device` (None: the current one) of the Python numbers in the lists or
// tuples `obj`; a null object where `obj` holds anything else.
nb::object from_python_numbers(nb::handle obj, nb::handle device) {
  PythonNumbers numbers;
  if (!numbers.read(obj)) return {};
  const Device d = to_device(device, "array");
  Array host = numbers.array();
  return wrap(d.is_cpu() ? std::move(host) : without_gil([&] { return host.to_device(d); }));
}

// tessera._creation's general form of a creation function whose common call is bound here
// (looked up each time: a static Python object would outlive the interpreter).
nb::object creation_general(const char* name) {
  return nb::module_::import_("tessera._creation").attr(name);
}

// The overload of `name` taking every call its common-call overload leaves, which
// _creation's `general` answers.
void def_general_form(nb::module_& m, const char* name, const char* general) {
  m.def(name, [general](nb::args args, nb::kwargs kwargs) {
    return creation_general(general)(*args, **kwargs);
  });
}

}  // namespace

Array array_from_host(nb::handle obj, const char* api) {
  auto held = std::make_shared<HeldBuffer>();
  if (PyObject_GetBuffer(obj.ptr(), &held->view, PyBUF_RECORDS_RO) != 0) {
    throw nb::python_error();
  }
  const Py_buffer& v = held->view;
  DType dtype = dtype_from_format(v.format, v.itemsize, api);
  Dims shape(v.shape, v.shape + v.ndim);
  Dims strides = v.strides ? Dims(v.strides, v.strides + v.ndim)
                           : contiguous_strides(shape, v.itemsize, Order::C);
  // The buffer protocol makes up strides for empty arrays, and NumPy's rewrites those of
  // length-1 axes in contiguous ones; keep the object's own, which order='K' copies and
  // empty_like follow as NumPy's do.
  const bool unit_axis = std::find(shape.begin(), shape.end(), 1) != shape.end();
  if ((shape.product() == 0 || unit_axis) && nb::hasattr(obj, "strides")) {
    strides = to_shape(obj.attr("strides"), api);
  }
  const bool readonly = v.readonly;
  Array a = Array::over_memory(Device::cpu(), v.buf, dtype, std::move(shape), std::move(strides),
                               held);
  a.set_writeable(!readonly);
  return a;
}

void bind_creation(nb::module_& m) {
  m.def("_from_host", [](nb::handle obj, nb::handle device, bool copy, nb::handle order) {
    Device d = to_device(device, "asarray");
    Order o = to_order(order, Order::K, "CFAK", "asarray");
    Array host = array_from_host(obj, "asarray");
    if (d.is_cpu() && !copy) return nb::cast(NdArray{std::move(host), nb::borrow(obj)});
    return wrap(without_gil([&] { return host.copy(o).to_device(d); }));
  }, nb::arg("obj"), nb::arg("device").none(), nb::arg("copy"), nb::arg("order").none());
  m.def("_from_python_numbers", [](nb::handle obj, nb::handle device) -> nb::object {
    nb::object out = from_python_numbers(obj, device);
    return out.is_valid() ? out : nb::none();
  }, nb::arg("obj"), nb::arg("device").none());
  // empty, zeros and ones with NumPy's signatures, bound directly: a Python function in
  // front of them cost as much as making a small array.
  m.def("empty", [](nb::handle shape, nb::handle dtype, nb::handle order, nb::handle device) {
    return wrap(Array::empty(to_shape(shape, "empty"), to_dtype(dtype, DType::Float64, "empty"),
                             to_device(device, "empty"), to_order(order, Order::C, "CF", "empty")));
  }, nb::arg("shape").none(), nb::arg("dtype").none() = nb::none(), nb::arg("order").none() = "C",
     nb::kw_only(), nb::arg("device").none() = nb::none(),
     "A new array of the given shape and dtype (float64 by default), its values not set.");
  for (const auto& [name, value] : {std::pair{"zeros", 0}, std::pair{"ones", 1}}) {
    m.def(name, [name, value](nb::handle shape, nb::handle dtype, nb::handle order,
                              nb::handle device) {
      const Dims s = to_shape(shape, name);
      const DType dt = to_dtype(dtype, DType::Float64, name);
      const Device d = to_device(device, name);
      const Order o = to_order(order, Order::C, "CF", name);
      // No GIL release: a small array is filled in less time than that takes, and a large
      // one is a pending constant, filled when first used.
      return wrap(full(s, Scalar(int64_t{value}), dt, d, o, name));
    }, nb::arg("shape").none(), nb::arg("dtype").none() = nb::none(), nb::arg("order").none() = "C",
       nb::kw_only(), nb::arg("device").none() = nb::none(),
       value ? "A new array of the given shape and dtype (float64 by default), filled with ones."
             : "A new array of the given shape and dtype (float64 by default), filled with zeros.");
  }
  m.def("_empty_like", [](nb::handle proto, nb::handle dtype, nb::handle order) {
    const Array& p = unwrap(proto).array;
    return wrap(Array::empty_like(p, to_dtype(dtype, p.dtype(), "empty_like"),
                                  to_order(order, Order::K, "CFAK", "empty_like")));
  }, nb::arg("prototype"), nb::arg("dtype").none(), nb::arg("order").none());
  m.def("_full", [](nb::handle shape, nb::handle value, nb::handle dtype, nb::handle device,
                    nb::handle order, const std::string& api) {
    const char* name = api.c_str();
    Dims s = to_shape(shape, name);
    DType dt = to_dtype(dtype, DType::Float64, name);
    Device d = to_device(device, name);
    Order o = to_order(order, Order::C, "CF", name);
    Scalar v = scalar_from_host(value, name);
    return wrap(without_gil([&] { return full(s, v, dt, d, o, name); }));
  }, nb::arg("shape").none(), nb::arg("value"), nb::arg("dtype").none(), nb::arg("device").none(),
     nb::arg("order").none(), nb::arg("api"));
  // array(list) of Python numbers, the common call, bound directly (a Python function in
  // front of it cost as much as reading a short list); every other call is
  // _creation.array_general's.
  m.def("array", [](nb::handle obj) -> nb::object {
    if (PyList_CheckExact(obj.ptr()) || PyTuple_CheckExact(obj.ptr())) {
      if (nb::object out = from_python_numbers(obj, nb::none()); out.is_valid()) return out;
    }
    return creation_general("array_general")(obj);
  }, nb::arg("obj").none(),
     "A tessera array from `obj` (NumPy's array: dtype=, copy=, order=, ndmin=, and device=), "
     "copied unless copy=None (copy=False forbids copying).");
  def_general_form(m, "array", "array_general");
  // arange(n), the common call, bound directly (a Python function in front of it cost as
  // much as making a small range); every other call is _creation.arange_general's.
  m.def("arange", [](nb::handle stop) -> nb::object {
    if (PyLong_CheckExact(stop.ptr())) {
      int overflow = 0;
      const long long n = PyLong_AsLongLongAndOverflow(stop.ptr(), &overflow);
      if (!overflow && n >= 0) {
        const Device d = to_device(nb::none(), "arange");
        const auto make = [&] {
          return arange(n, Scalar(int64_t{0}), Scalar(int64_t{1}), DType::Int64, d);
        };
        return wrap(n >= (int64_t{1} << 15) || !d.is_cpu() ? without_gil(make) : make());
      }
    }
    return creation_general("arange_general")(stop);
  }, nb::arg("stop").none(),
     "Evenly spaced values in [start, stop), with NumPy's length rule and values: "
     "arange(stop), arange(start, stop[, step]), dtype= and device= as NumPy's and CuPy's.");
  def_general_form(m, "arange", "arange_general");
  m.def("_arange", [](int64_t length, nb::handle first, nb::handle second, nb::handle dtype,
                      nb::handle device) {
    DType dt = to_dtype(dtype, DType::Int64, "arange");
    Device d = to_device(device, "arange");
    Scalar a = scalar_from_host(first, "arange"), b = scalar_from_host(second, "arange");
    return wrap(without_gil([&] { return arange(length, a, b, dt, d); }));
  }, nb::arg("length"), nb::arg("first"), nb::arg("second"), nb::arg("dtype").none(),
     nb::arg("device").none());
  m.def("_linspace", [](nb::handle start, nb::handle stop, nb::handle step, nb::handle delta,
                        int64_t num, int64_t div, bool step_is_zero, bool endpoint,
                        nb::handle dtype, nb::handle device) {
    LinspaceArgs args;
    args.start = scalar_from_host(start, "linspace");
    args.stop = scalar_from_host(stop, "linspace");
    args.step = scalar_from_host(step, "linspace");
    args.delta = scalar_from_host(delta, "linspace");
    args.num = num;
    args.div = div;
    args.step_is_zero = step_is_zero;
    args.endpoint = endpoint;
    DType dt = to_dtype(dtype, args.start.dtype(), "linspace");
    Device d = to_device(device, "linspace");
    return wrap(without_gil([&] { return linspace(args, dt, d); }));
  }, nb::arg("start"), nb::arg("stop"), nb::arg("step"), nb::arg("delta"), nb::arg("num"),
     nb::arg("div"), nb::arg("step_is_zero"), nb::arg("endpoint"), nb::arg("dtype").none(),
     nb::arg("device").none());
  m.def("_eye", [](int64_t n, int64_t cols, int64_t k, nb::handle dtype, nb::handle device,
                   nb::handle order) {
    DType dt = to_dtype(dtype, DType::Float64, "eye");
    Device d = to_device(device, "eye");
    Order o = to_order(order, Order::C, "CF", "eye");
    return wrap(without_gil([&] { return eye(n, cols, k, dt, d, o); }));
  }, nb::arg("n"), nb::arg("m"), nb::arg("k"), nb::arg("dtype").none(), nb::arg("device").none(),
     nb::arg("order").none());
}

}  // namespace tessera::py
