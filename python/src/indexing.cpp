// Indexing (__getitem__ / __setitem__): basic keys make views, keys with integer or
// boolean arrays (or lists, or Python bools) go to the engine's advanced indexing.

#include <nanobind/stl/string.h>

#include <optional>

#include <algorithm>
#include <string>

#include "convert.h"
#include "ndarray.h"
#include "tessera/errors.h"
#include "tessera/indexing.h"

namespace tessera::py {
namespace {

// Re-raises the pending Python error with the same type, its message prefixed by the API.
[[noreturn]] void raise_prefixed(const char* api) {
  nb::python_error error;
  nb::object type = nb::borrow(error.type());
  std::string message = std::string("[") + api + "] " + nb::str(error.value()).c_str();
  error.restore();
  PyErr_Clear();
  PyErr_SetString(type.ptr(), message.c_str());
  throw nb::python_error();
}

int64_t integer_index(nb::handle item) {
  nb::object index = nb::steal(PyNumber_Index(item.ptr()));
  if (!index.is_valid()) raise_prefixed("getitem");
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow) {
    // NumPy: values that fit uint64 overflow its conversion; anything larger is no index.
    std::string text = nb::str(index).c_str();
    PyLong_AsUnsignedLongLong(index.ptr());
    bool fits_uint64 = !PyErr_Occurred();
    PyErr_Clear();
    if (!fits_uint64) throw IndexError("[getitem] index " + text + " is not a valid index");
    PyErr_SetString(PyExc_OverflowError, ("[getitem] index " + text + " does not fit in 64 bits").c_str());
    throw nb::python_error();
  }
  return v;
}

[[noreturn]] void invalid_index(nb::handle item) {
  throw IndexError(std::string("[getitem] only integers, slices (`:`), ellipsis (`...`), "
                               "numpy.newaxis (`None`) and integer or boolean arrays are valid "
                               "indices, got ") + nb::inst_name(item).c_str());
}

// Booleans, lists and integer or boolean arrays of any rank but 0 are NumPy's advanced
// indices; arrays of other kinds are no index at all.
bool is_advanced_index(nb::handle item) {
  PyObject* o = item.ptr();
  if (PyBool_Check(o) || PyList_Check(o)) return true;
  if (!nb::hasattr(item, "dtype")) return false;
  std::string kind = nb::cast<std::string>(item.attr("dtype").attr("kind"));
  if (kind == "b") return true;
  if (kind != "i" && kind != "u") invalid_index(item);
  return nb::hasattr(item, "ndim") && nb::cast<int>(item.attr("ndim")) != 0;
}

// An advanced index as an array on `device`: a Python bool as a 0-d bool array, lists
// through NumPy (an empty list is an empty integer index, as in NumPy).
Array index_array(nb::handle item, Device device) {
  if (PyBool_Check(item.ptr())) {
    Array a = Array::empty(Dims{}, DType::Bool, device);
    a.fill(Scalar(item.ptr() == Py_True));
    return a;
  }
  if (is_ndarray(item)) return unwrap(item).array;
  nb::object host;
  try {
    host = numpy().attr("asarray")(item);
  } catch (nb::python_error& e) {
    if (!e.matches(PyExc_ValueError)) throw;
    throw ValueError(std::string("[getitem] ") + e.what());
  }
  const std::string kind = nb::cast<std::string>(host.attr("dtype").attr("kind"));
  if (nb::cast<int64_t>(host.attr("size")) == 0 && kind != "b") {
    host = host.attr("astype")(numpy().attr("intp"));
  } else if (kind != "b" && kind != "i" && kind != "u") {
    throw IndexError("[getitem] arrays used as indices must be of integer (or boolean) type");
  }
  return array_from_host(host, "getitem").to_device(device);
}

void append_item(std::vector<KeyItem>& items, nb::handle item, Device device) {
  PyObject* o = item.ptr();
  if (PyLong_CheckExact(o)) {
    items.push_back(KeyItem::of(IndexItem::integer(integer_index(item))));
  } else if (PySlice_Check(o)) {
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(o, &start, &stop, &step) < 0) raise_prefixed("getitem");
    // PySlice_Unpack encodes omitted bounds as +-PY_SSIZE_T_MAX, which the engine clamps.
    items.push_back(KeyItem::of(IndexItem::slice(start, stop, step)));
  } else if (o == Py_None) {
    items.push_back(KeyItem::of(IndexItem::new_axis()));
  } else if (o == Py_Ellipsis) {
    items.push_back(KeyItem::of(IndexItem::ellipsis()));
  } else if (is_advanced_index(item)) {
    items.push_back(KeyItem::of(index_array(item, device)));
  } else if (PyIndex_Check(o)) {
    items.push_back(KeyItem::of(IndexItem::integer(integer_index(item))));
  } else {
    invalid_index(item);
  }
}

std::vector<KeyItem> parse_key(nb::handle key, Device device) {
  std::vector<KeyItem> items;
  if (PyTuple_Check(key.ptr())) {
    for (nb::handle item : nb::borrow<nb::tuple>(key)) append_item(items, item, device);
  } else {
    append_item(items, key, device);
  }
  return items;
}

// One part of a plain basic key (ndarray.h), read without the general parse and its
// per-item array slots.
bool plain_basic_item(PyObject* o, std::vector<IndexItem>& items) {
  if (PyLong_CheckExact(o)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow) return false;
    items.push_back(IndexItem::integer(v));
  } else if (PySlice_Check(o)) {
    Py_ssize_t start, stop, step;
    if (PySlice_Unpack(o, &start, &stop, &step) < 0) {
      PyErr_Clear();  // the general parse raises it, prefixed
      return false;
    }
    items.push_back(IndexItem::slice(start, stop, step));
  } else if (o == Py_None) {
    items.push_back(IndexItem::new_axis());
  } else if (o == Py_Ellipsis) {
    items.push_back(IndexItem::ellipsis());
  } else {
    return false;
  }
  return true;
}

}  // namespace

bool plain_basic_key(nb::handle key, std::vector<IndexItem>& items) {
  PyObject* k = key.ptr();
  if (!PyTuple_Check(k)) return plain_basic_item(k, items);
  const Py_ssize_t n = PyTuple_GET_SIZE(k);
  items.reserve(n);
  for (Py_ssize_t i = 0; i < n; ++i) {
    if (!plain_basic_item(PyTuple_GET_ITEM(k, i), items)) return false;
  }
  return true;
}

bool store_exact_element(const Array& a, const std::vector<IndexItem>& items, nb::handle value) {
  if (static_cast<int>(items.size()) != a.ndim()) return false;
  for (const IndexItem& item : items) {
    if (item.kind != IndexItem::Integer) return false;
  }
  Array target = a.index(items);
  if (!target.writeable()) return false;
  std::optional<Scalar> v = exact_python_scalar(value, target.dtype());
  if (!v) return false;
  target.fill(*v);
  return true;
}

namespace {

bool is_basic(const std::vector<KeyItem>& key) {
  return std::none_of(key.begin(), key.end(), [](const KeyItem& k) { return k.array; });
}

std::vector<IndexItem> basic_items(const std::vector<KeyItem>& key) {
  std::vector<IndexItem> items;
  for (const KeyItem& k : key) items.push_back(k.basic);
  return items;
}

nb::module_& convert_module() {
  static nb::module_* m = new nb::module_(nb::module_::import_("tessera._convert"));
  return *m;
}

// The value of an assignment as an array on `target`'s device. `element`: the key selects
// one element by integers, where NumPy converts the value as a single item. Arrays keep their dtype (the
// copy casts them); Python scalars and sequences are converted by NumPy's rules for the
// target dtype, so 300 into int8 raises OverflowError exactly as NumPy does.
Array value_array(nb::handle value, const Array& target, const char* api, bool element,
                  bool advanced = false) {
  if (is_ndarray(value)) return unwrap(value).array;
  // An advanced result may have more dimensions than the target: the engine checks them.
  const int max_ndim = advanced ? kMaxDims : target.ndim();
  nb::object host = convert_module().attr("host_value")(
      value, to_numpy_dtype(target.dtype()), max_ndim, api, element, advanced);
  return array_from_host(host, api).to_device(target.device());
}

}  // namespace

void bind_index_functions(nb::module_& m) {
  m.def("_nonzero", [](nb::handle a) {
    const Array& x = unwrap(a).array;
    std::vector<Array> parts = without_gil([&] { return nonzero(x); });
    nb::list out;
    for (Array& p : parts) out.append(wrap(std::move(p)));
    return nb::tuple(out);
  });
  m.def("_ufunc_at", [](const std::string& name, nb::handle a, nb::handle key, nb::handle b,
                        bool has_b) {
    if (!is_ndarray(a)) {
      throw TypeError("[" + name + ".at] first operand must be a tessera.ndarray, got " +
                      nb::inst_name(a).c_str());
    }
    const Array& x = unwrap(a).array;
    std::optional<Ufunc> op = find_ufunc(name);
    if (!op) throw ValueError("[" + name + ".at] no ufunc named " + name);
    const std::vector<KeyItem> parsed = parse_key(key, x.device());
    std::optional<Operand> value;
    if (has_b) value = to_operand_or_raise(b, x.device(), name + ".at");
    without_gil([&] {
      ufunc_at(*op, x, parsed, value);
      return 0;
    });
  }, nb::arg("name"), nb::arg("a"), nb::arg("key").none(), nb::arg("b").none(),
     nb::arg("has_b"));
  m.def("_flatnonzero", [](nb::handle a) {
    const Array& x = unwrap(a).array;
    return wrap(without_gil([&] { return flatnonzero(x); }));
  });
}

void bind_indexing(nb::class_<NdArray>& cls) {
  // The general forms of `a[key]` and `a[key] = value`, which the type's slots
  // (ndarray_slots.cpp) call for what their fast paths leave.
  cls.def("_general_getitem", [](nb::handle self, nb::handle key) {
    const Array& a = unwrap(self).array;
    if (std::vector<IndexItem> items; plain_basic_key(key, items)) {
      return wrap_view(a.index(items), self);
    }
    const std::vector<KeyItem> parsed = parse_key(key, a.device());
    if (is_basic(parsed)) return wrap_view(a.index(basic_items(parsed)), self);
    return wrap(without_gil([&] { return getitem(a, parsed); }));
  }, nb::arg("key").none());
  cls.def("_general_setitem", [](nb::handle self, nb::handle key, nb::handle value) {
    const Array& a = unwrap(self).array;
    std::vector<IndexItem> items;
    std::vector<KeyItem> parsed;
    if (!plain_basic_key(key, items)) {
      items.clear();
      parsed = parse_key(key, a.device());
    }
    if (!parsed.empty() && !is_basic(parsed)) {
      if (!a.writeable()) throw ValueError("[setitem] assignment destination is read-only");
      Array src = value_array(value, a, "setitem", /*element=*/false, /*advanced=*/true);
      warn_complex_cast(src.dtype(), a.dtype());
      without_gil([&] {
        setitem(a, parsed, src);
        return 0;
      });
      return;
    }
    if (!parsed.empty()) items = basic_items(parsed);
    if (store_exact_element(a, items, value)) return;
    const bool element =
        static_cast<int>(items.size()) == a.ndim() &&
        std::all_of(items.begin(), items.end(),
                    [](const IndexItem& i) { return i.kind == IndexItem::Integer; });
    Array target = a.index(items);
    // `a[1:-1] = expr` with a temporary pending expression (no other reference to it can
    // read it later): computed straight into the target.
    if (Py_REFCNT(value.ptr()) == 1 && is_ndarray(value) &&
        without_gil([&] { return target.assign_expression(unwrap(value).array); })) {
      return;
    }
    Array src = value_array(value, target, "setitem", element);
    warn_complex_cast(src.dtype(), target.dtype());
    without_gil([&] {
      target.assign(src);
      return 0;
    });
  }, nb::arg("key").none(), nb::arg("value").none());
  cls.def("fill", [](nb::handle self, nb::handle value) {
    Array& a = unwrap(self).array;
    if (!a.writeable()) throw ValueError("[fill] assignment destination is read-only");
    Array src = value_array(value, a, "fill", /*element=*/true);
    if (src.size() != 1) throw ValueError("[fill] needs a scalar value");
    without_gil([&] {
      a.assign(src.reshape(Dims{}));
      return 0;
    });
  }, nb::arg("value").none());
}

}  // namespace tessera::py
