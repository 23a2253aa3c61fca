// tessera.ndarray's protocol slots for `a[key]`, `a[key] = value`, len(), float(), int() and
// bool(), its getters shape, dtype, ndim, size and T, and its item() method, written against
// Python's C API.
//
// Why not nanobind methods: a dunder method bound with cls.def reaches its code through
// Python's generic slot wrapper (a method lookup on the type) and then nanobind's overload
// dispatch, which together cost as much as len(t), float(u) or t[1] themselves (issue 23's
// latency table); a nanobind property adds a call of its getter function the same way. Each slot here takes the common case at once: a plain basic key, an
// element store of a Python number, a one-element CPU array whose value is computed. For
// everything else it calls the general method, bound under a private name, whose nanobind
// call translates the engine's exceptions into NumPy's; a fast path that throws leaves the
// call to the general method too, which raises the error (no fast path changes anything
// before it can no longer fail).

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <optional>
#include <vector>

#include "convert.h"
#include "ndarray.h"

namespace tessera::py {
namespace {

// The general methods, borrowed from the type's dictionary (which keeps them alive).
PyObject* general_getitem = nullptr;
PyObject* general_setitem = nullptr;
PyObject* general_float = nullptr;
PyObject* general_int = nullptr;
PyObject* general_bool = nullptr;
PyObject* general_item = nullptr;
PyObject* general_set_shape = nullptr;

PyObject* call_general(PyObject* method, PyObject* const* args, size_t n) {
  return PyObject_Vectorcall(method, args, n, nullptr);
}

PyObject* subscript(PyObject* self, PyObject* key) noexcept {
  if (NdArray* s = as_ndarray(self)) {
    try {
      std::vector<IndexItem> items;
      if (plain_basic_key(key, items)) {
        return wrap_view(s->array.index(items), self).release().ptr();
      }
    } catch (...) {
      PyErr_Clear();
    }
  }
  PyObject* args[] = {self, key};
  return call_general(general_getitem, args, 2);
}

// `t[i, j] = 1.0` (store_exact_element) with a plain key: the general method's first case,
// without its nanobind call.
bool store_element(PyObject* self, PyObject* key, PyObject* value) {
  NdArray* s = as_ndarray(self);
  std::vector<IndexItem> items;
  return s && plain_basic_key(key, items) && store_exact_element(s->array, items, value);
}

int ass_subscript(PyObject* self, PyObject* key, PyObject* value) noexcept {
  if (!value) {
    PyErr_SetString(PyExc_ValueError, "[delitem] cannot delete array elements");
    return -1;
  }
  try {
    if (store_element(self, key, value)) return 0;
  } catch (...) {
    PyErr_Clear();
  }
  PyObject* args[] = {self, key, value};
  PyObject* result = call_general(general_setitem, args, 3);
  if (!result) return -1;
  Py_DECREF(result);
  return 0;
}

Py_ssize_t length(PyObject* self) noexcept {
  NdArray* s = as_ndarray(self);
  if (!s) {
    PyErr_SetString(PyExc_TypeError, "[len] the tessera.ndarray is not initialized");
    return -1;
  }
  if (s->array.ndim() == 0) {
    PyErr_SetString(PyExc_TypeError, "[len] len() of unsized object (a 0-d array)");
    return -1;
  }
  return static_cast<Py_ssize_t>(s->array.shape()[0]);
}

// The element of a computed one-element CPU array as a Python number, when its dtype kind
// is one of `kinds` (and the array is 0-d unless `any_ndim`); null otherwise. The general
// methods handle the rest, computing pending arrays and raising NumPy's errors.
PyObject* element_number(PyObject* self, const char* kinds, bool any_ndim) noexcept {
  NdArray* s = as_ndarray(self);
  if (!s) return nullptr;
  const Array& a = s->array;
  if (a.size() != 1 || (!any_ndim && a.ndim() != 0) || !a.device().is_cpu() ||
      a.buffer()->is_pending() || !std::strchr(kinds, dtype_info(a.dtype()).kind)) {
    return nullptr;
  }
  try {
    return python_number(a.dtype(), a.data()).release().ptr();
  } catch (...) {
    PyErr_Clear();
    return nullptr;
  }
}

// float(a) and int(a): `convert` of the element, or the general method.
PyObject* to_number(PyObject* self, const char* kinds, PyObject* (*convert)(PyObject*),
                    PyObject* general) noexcept {
  if (PyObject* v = element_number(self, kinds, false)) {
    PyObject* result = convert(v);
    Py_DECREF(v);
    return result;
  }
  return call_general(general, &self, 1);
}

PyObject* to_float(PyObject* self) noexcept {
  return to_number(self, "biuf", PyNumber_Float, general_float);
}

PyObject* to_int(PyObject* self) noexcept { return to_number(self, "biu", PyNumber_Long, general_int); }

int to_bool(PyObject* self) noexcept {
  PyObject* v = element_number(self, "biufc", true);
  if (!v) v = call_general(general_bool, &self, 1);
  if (!v) return -1;
  const int truth = PyObject_IsTrue(v);
  Py_DECREF(v);
  return truth;
}

// A getter's value, with the engine's rare errors (memory) as Python errors: getters have
// no general method to hand them to.
template <typename Get>
PyObject* get(PyObject* self, Get get_value) noexcept {
  NdArray* s = as_ndarray(self);
  if (!s) {
    PyErr_SetString(PyExc_TypeError, "the tessera.ndarray is not initialized");
    return nullptr;
  }
  try {
    return get_value(*s).release().ptr();
  } catch (nb::python_error& e) {
    e.restore();
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
  return nullptr;
}

PyObject* get_shape(PyObject* self, void*) noexcept {
  return get(self, [](NdArray& s) { return nb::object(to_tuple(s.array.shape())); });
}

PyObject* get_dtype(PyObject* self, void*) noexcept {
  return get(self, [](NdArray& s) { return to_numpy_dtype(s.array.dtype()); });
}

PyObject* get_ndim(PyObject* self, void*) noexcept {
  return get(self, [](NdArray& s) { return nb::object(nb::int_(s.array.ndim())); });
}

PyObject* get_size(PyObject* self, void*) noexcept {
  return get(self, [](NdArray& s) { return nb::object(nb::int_(s.array.size())); });
}

PyObject* get_transpose(PyObject* self, void*) noexcept {
  return get(self, [self](NdArray& s) { return wrap_view(s.array.transpose(), self); });
}

int set_shape(PyObject* self, PyObject* value, void*) noexcept {
  if (!value) {
    PyErr_SetString(PyExc_AttributeError, "[shape] cannot delete the shape of an array");
    return -1;
  }
  PyObject* args[] = {self, value};
  PyObject* result = call_general(general_set_shape, args, 2);
  if (!result) return -1;
  Py_DECREF(result);
  return 0;
}

PyGetSetDef getters[] = {
    {"shape", &get_shape, &set_shape, "The array's dimensions (assignable where no copy is needed).",
     nullptr},
    {"dtype", &get_dtype, nullptr, "The type of the elements, as a numpy.dtype.", nullptr},
    {"ndim", &get_ndim, nullptr, "The number of dimensions.", nullptr},
    {"size", &get_size, nullptr, "The number of elements.", nullptr},
    {"T", &get_transpose, nullptr, "The transposed array (a view).", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

// a.item(): the element of a computed one-element CPU array at once; the general method
// takes the arguments (a.item(3), a.item(1, 2)) and the other arrays.
PyObject* item(PyObject* self, PyObject* const* args, Py_ssize_t nargs) noexcept {
  if (nargs == 0) {
    if (PyObject* v = element_number(self, "biufc", true)) return v;
  }
  std::vector<PyObject*> call(static_cast<size_t>(nargs) + 1);
  call[0] = self;
  std::copy(args, args + nargs, call.begin() + 1);
  return call_general(general_item, call.data(), call.size());
}

PyMethodDef methods[] = {
    {"item", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&item)), METH_FASTCALL,
     "The element of a one-element array (or the one at the given index) as a Python "
     "number."},
    {nullptr, nullptr, 0, nullptr},
};

PyType_Slot slots[] = {
    {Py_mp_subscript, reinterpret_cast<void*>(&subscript)},
    {Py_mp_ass_subscript, reinterpret_cast<void*>(&ass_subscript)},
    {Py_mp_length, reinterpret_cast<void*>(&length)},
    {Py_sq_length, reinterpret_cast<void*>(&length)},
    {Py_nb_float, reinterpret_cast<void*>(&to_float)},
    {Py_nb_int, reinterpret_cast<void*>(&to_int)},
    {Py_nb_bool, reinterpret_cast<void*>(&to_bool)},
    {Py_tp_getset, getters},
    {Py_tp_methods, methods},
    {0, nullptr},
};

PyObject* borrowed_method(nb::class_<NdArray>& cls, const char* name) {
  PyObject* dict = reinterpret_cast<PyTypeObject*>(cls.ptr())->tp_dict;
  PyObject* method = PyDict_GetItemString(dict, name);
  if (!method) throw std::logic_error(std::string("tessera.ndarray has no method ") + name);
  return method;
}

}  // namespace

PyType_Slot* ndarray_slots() { return slots; }

void find_slot_fallbacks(nb::class_<NdArray>& cls) {
  general_getitem = borrowed_method(cls, "_general_getitem");
  general_setitem = borrowed_method(cls, "_general_setitem");
  general_float = borrowed_method(cls, "_general__float__");
  general_int = borrowed_method(cls, "_general__int__");
  general_bool = borrowed_method(cls, "_general__bool__");
  general_item = borrowed_method(cls, "_general_item");
  general_set_shape = borrowed_method(cls, "_general_set_shape");
}

}  // namespace tessera::py
