#include "convert.h"

#include <nanobind/stl/string.h>

#include <algorithm>
#include <array>
#include <climits>

#include "tessera/errors.h"

namespace tessera::py {
namespace {

std::string prefix(const char* api) { return std::string("[") + api + "] "; }

struct DTypeCache {
  std::array<nb::object, kNumDTypes> dtypes;  // numpy.dtype instances by DType
  nb::object dtype_class;                     // numpy.dtype
};

DTypeCache& cache() {
  static DTypeCache* c = [] {
    auto* c = new DTypeCache;  // lives as long as the interpreter: never destroyed
    c->dtype_class = numpy().attr("dtype");
    for (int i = 0; i < kNumDTypes; ++i) {
      c->dtypes[i] = c->dtype_class(std::string(dtype_name(static_cast<DType>(i))));
    }
    return c;
  }();
  return *c;
}

}  // namespace

nb::module_& numpy() {
  static nb::module_* np = new nb::module_(nb::module_::import_("numpy"));
  return *np;
}

nb::object to_numpy_dtype(DType dtype) { return cache().dtypes[static_cast<int>(dtype)]; }

DType to_dtype(nb::handle obj, DType fallback, const char* api) {
  if (obj.is_none()) return fallback;
  DTypeCache& c = cache();
  for (int i = 0; i < kNumDTypes; ++i) {
    if (obj.is(c.dtypes[i])) return static_cast<DType>(i);
  }
  nb::object dt;
  try {
    dt = c.dtype_class(obj);
  } catch (nb::python_error& e) {
    throw TypeError(prefix(api) + "data type " + nb::repr(obj).c_str() +
                    " not understood; dtype= takes anything numpy.dtype() accepts");
  }
  std::string kind = nb::cast<std::string>(dt.attr("kind"));
  int size = nb::cast<int>(dt.attr("itemsize"));
  std::string order = nb::cast<std::string>(dt.attr("byteorder"));
  DType out;
  bool native = order == "=" || order == "|" || (order == "<");
  if (kind.size() == 1 && native && !nb::cast<bool>(dt.attr("hasobject")) &&
      dt.attr("fields").is_none() && dt.attr("subdtype").is_none() &&
      dtype_from_kind(kind[0], size, &out)) {
    return out;
  }
  std::string name = nb::cast<std::string>(nb::str(dt));
  throw TypeError(prefix(api) + "unsupported dtype " + name +
                  (native ? "" : " (non-native byte order)") +
                  "; tessera supports bool, int8-64, uint8-64, float16/32/64, complex64/128");
}

Dims to_shape(nb::handle obj, const char* api) {
  Dims dims;
  if (PyIndex_Check(obj.ptr())) {
    dims.push_back(to_int64(obj, api, "shape"));
    return dims;
  }
  if (!PySequence_Check(obj.ptr())) {
    throw TypeError(prefix(api) + "'" + nb::inst_name(obj).c_str() +
                    "' object cannot be interpreted as an integer; shape takes an int or a "
                    "sequence of ints");
  }
  for (nb::handle item : nb::iter(obj)) dims.push_back(to_int64(item, api, "shape"));
  return dims;
}

nb::tuple to_tuple(const Dims& dims) {
  PyObject* t = PyTuple_New(dims.size());
  if (!t) throw nb::python_error();
  for (int i = 0; i < dims.size(); ++i) PyTuple_SET_ITEM(t, i, PyLong_FromLongLong(dims[i]));
  return nb::steal<nb::tuple>(t);
}

int64_t to_int64(nb::handle obj, const char* api, const char* what) {
  if (PyBool_Check(obj.ptr()) || !PyIndex_Check(obj.ptr())) {
    throw TypeError(prefix(api) + "'" + nb::inst_name(obj).c_str() +
                    "' object cannot be interpreted as an integer (" + what + ")");
  }
  nb::object index = nb::steal(PyNumber_Index(obj.ptr()));
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
  if (overflow) {
    throw ValueError(prefix(api) + std::string(what) + " value " +
                     nb::str(index).c_str() + " does not fit in 64 bits");
  }
  return v;
}

Order to_order(nb::handle obj, Order fallback, const char* allowed, const char* api) {
  if (obj.is_none()) return fallback;
  if (nb::isinstance<nb::str>(obj)) {
    std::string s = nb::cast<std::string>(obj);
    if (s.size() == 1) {
      char c = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
      if (std::string(allowed).find(c) != std::string::npos) return static_cast<Order>(c);
    }
  }
  throw ValueError(prefix(api) + "order must be one of " + allowed + ", got " +
                   nb::repr(obj).c_str());
}

Device to_device(nb::handle obj, const char* api) {
  if (obj.is_none()) return current_device();
  if (nb::isinstance<Device>(obj)) return nb::cast<Device>(obj);
  if (nb::isinstance<nb::str>(obj)) return parse_device(nb::cast<std::string>(obj), api);
  throw TypeError(prefix(api) + "device must be a tessera.Device or a string such as 'cpu' or "
                  "'cuda:0', got " + nb::inst_name(obj).c_str());
}

std::vector<int> to_axes(nb::handle obj, const char* api) {
  // Axes past int's range are still out of bounds, and must stay so.
  auto axis = [&](nb::handle h) {
    return static_cast<int>(std::clamp<int64_t>(to_int64(h, api, "axis"), INT_MIN, INT_MAX));
  };
  std::vector<int> axes;
  if (PyIndex_Check(obj.ptr())) {
    axes.push_back(axis(obj));
    return axes;
  }
  // A tuple of axes, as NumPy takes (a list too, as tessera's own layer passes them); not
  // any iterable: axis={} or a string is NumPy's TypeError.
  if (!nb::isinstance<nb::tuple>(obj) && !nb::isinstance<nb::list>(obj)) {
    throw TypeError(std::string("[") + api + "] '" + nb::inst_name(obj).c_str() +
                    "' object cannot be interpreted as an integer");
  }
  for (nb::handle item : nb::iter(obj)) axes.push_back(axis(item));
  return axes;
}

Casting to_casting(nb::handle obj, std::string_view api) {
  const std::string prefix = "[" + std::string(api) + "] ";
  if (!nb::isinstance<nb::str>(obj)) {
    throw TypeError(prefix + "casting must be a string: 'no', 'equiv', 'safe', 'same_kind', "
                    "or 'unsafe' (got " + nb::cast<std::string>(nb::repr(obj)) + ")");
  }
  const std::string s = nb::cast<std::string>(obj);
  if (s == "no") return Casting::No;
  if (s == "equiv") return Casting::Equiv;
  if (s == "safe") return Casting::Safe;
  if (s == "same_kind") return Casting::SameKind;
  if (s == "unsafe") return Casting::Unsafe;
  throw ValueError(prefix + "casting must be one of 'no', 'equiv', 'safe', 'same_kind', or "
                   "'unsafe' (got " + nb::cast<std::string>(nb::repr(obj)) + ")");
}

std::optional<bool> to_copy(nb::handle obj, const char* api) {
  if (obj.is_none()) return std::nullopt;
  if (nb::isinstance<nb::str>(obj)) {
    throw ValueError(std::string("[") + api + "] strings are not allowed for 'copy' keyword. "
                     "Use True/False/None instead.");
  }
  const int truth = PyObject_IsTrue(obj.ptr());
  if (truth < 0) throw nb::python_error();
  return truth != 0;
}

void warn_complex_cast(DType from, DType to) {
  if (!is_complex(from) || is_complex(to) || to == DType::Bool) return;
  static nb::object* category =
      new nb::object(nb::module_::import_("numpy.exceptions").attr("ComplexWarning"));
  if (PyErr_WarnEx(category->ptr(), "Casting complex values to real discards the imaginary part",
                   1) < 0) {
    throw nb::python_error();
  }
}

std::string typestr(DType dtype) {
  const DTypeInfo& info = dtype_info(dtype);
  return std::string(info.itemsize == 1 ? "|" : "<") + info.kind + std::to_string(info.itemsize);
}

std::shared_ptr<void> keep_alive(nb::handle owner) {
  return std::shared_ptr<void>(nb::borrow(owner).release().ptr(), [](void* p) {
    nb::gil_scoped_acquire gil;
    Py_DECREF(static_cast<PyObject*>(p));
  });
}

}  // namespace tessera::py
