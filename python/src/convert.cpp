#include "convert.h"

#include <nanobind/stl/string.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <complex>
#include <cstring>

#include "tessera/errors.h"

namespace tessera::py {
namespace {

std::string prefix(const char* api) { return std::string("[") + api + "] "; }

struct DTypeCache {
  std::array<nb::object, kNumDTypes> dtypes;  // numpy.dtype instances by DType
  nb::object dtype_class;                     // numpy.dtype
  // What dtype= arguments already resolved to (float, np.float32, "int64", dtype
  // instances ...): numpy.dtype() and the checks of its result cost a microsecond, a
  // dictionary lookup tens of nanoseconds. Bounded: spellings are few, the cap is a guard.
  nb::dict resolved;
};

constexpr size_t kMaxResolvedDTypes = 512;

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
  if (PyObject* hit = PyDict_GetItemWithError(c.resolved.ptr(), obj.ptr())) {
    return static_cast<DType>(PyLong_AsLong(hit));
  }
  PyErr_Clear();  // an unhashable argument: resolved below, not remembered
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
    if (c.resolved.size() < kMaxResolvedDTypes && PyObject_Hash(obj.ptr()) != -1) {
      c.resolved[obj] = static_cast<int>(out);
    }
    PyErr_Clear();
    return out;
  }
  std::string name = nb::cast<std::string>(nb::str(dt));
  throw TypeError(prefix(api) + "unsupported dtype " + name +
                  (native ? "" : " (non-native byte order)") +
                  "; tessera supports bool, int8-64, uint8-64, float16/32/64, complex64/128");
}

nb::object python_number(DType dtype, const void* p) {
  switch (dtype) {
    case DType::Bool: return nb::bool_(*static_cast<const bool*>(p));
    case DType::Int8: return nb::int_(*static_cast<const int8_t*>(p));
    case DType::Int16: return nb::int_(*static_cast<const int16_t*>(p));
    case DType::Int32: return nb::int_(*static_cast<const int32_t*>(p));
    case DType::Int64: return nb::int_(*static_cast<const int64_t*>(p));
    case DType::UInt8: return nb::int_(*static_cast<const uint8_t*>(p));
    case DType::UInt16: return nb::int_(*static_cast<const uint16_t*>(p));
    case DType::UInt32: return nb::int_(*static_cast<const uint32_t*>(p));
    case DType::UInt64: return nb::int_(*static_cast<const uint64_t*>(p));
    case DType::Float32: return nb::float_(*static_cast<const float*>(p));
    case DType::Float64: return nb::float_(*static_cast<const double*>(p));
    case DType::Complex64: {
      const auto z = *static_cast<const std::complex<float>*>(p);
      return nb::steal(PyComplex_FromDoubles(z.real(), z.imag()));
    }
    case DType::Complex128: {
      const auto z = *static_cast<const std::complex<double>*>(p);
      return nb::steal(PyComplex_FromDoubles(z.real(), z.imag()));
    }
    default: return nb::float_(Scalar(dtype, p).to_double());  // float16
  }
}

std::optional<Scalar> exact_python_scalar(nb::handle value, DType dtype) {
  PyObject* o = value.ptr();
  if (PyBool_Check(o)) {
    // True and False are 1 and 0 in every dtype.
    return Scalar(o == Py_True).cast(dtype);
  }
  if (PyFloat_CheckExact(o)) {
    const double v = PyFloat_AS_DOUBLE(o);
    if (dtype == DType::Float64 || dtype == DType::Complex128) return Scalar(v).cast(dtype);
    // Narrower floats round; past their range NumPy warns of the overflow.
    if ((dtype == DType::Float32 || dtype == DType::Complex64) &&
        (std::isnan(v) || std::fabs(v) < 3.4028234663852886e38)) {
      return Scalar(v).cast(dtype);
    }
    return std::nullopt;
  }
  if (PyLong_CheckExact(o)) {
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || (v == -1 && PyErr_Occurred())) {
      PyErr_Clear();
      return std::nullopt;
    }
    const Scalar s{int64_t{v}};
    switch (dtype) {
      case DType::Int64: case DType::Float64: case DType::Complex128: return s.cast(dtype);
      case DType::Int32: if (v >= INT32_MIN && v <= INT32_MAX) return s.cast(dtype); break;
      case DType::Int16: if (v >= INT16_MIN && v <= INT16_MAX) return s.cast(dtype); break;
      case DType::Int8: if (v >= INT8_MIN && v <= INT8_MAX) return s.cast(dtype); break;
      case DType::UInt64: if (v >= 0) return s.cast(dtype); break;
      case DType::UInt32: if (v >= 0 && v <= UINT32_MAX) return s.cast(dtype); break;
      case DType::UInt16: if (v >= 0 && v <= UINT16_MAX) return s.cast(dtype); break;
      case DType::UInt8: if (v >= 0 && v <= UINT8_MAX) return s.cast(dtype); break;
      default: break;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

Dims to_shape(nb::handle obj, const char* api) {
  Dims dims;
  if (PyTuple_CheckExact(obj.ptr())) {  // the common spelling, read without an iterator
    const Py_ssize_t n = PyTuple_GET_SIZE(obj.ptr());
    for (Py_ssize_t i = 0; i < n; ++i) {
      dims.push_back(to_int64(PyTuple_GET_ITEM(obj.ptr(), i), api, "shape"));
    }
    return dims;
  }
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
  if (PyLong_CheckExact(obj.ptr())) {  // a Python int (not a bool): no __index__ call
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
    if (!overflow) return v;
  }
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
  if (PyUnicode_Check(obj.ptr()) && PyUnicode_GET_LENGTH(obj.ptr()) == 1) {
    const Py_UCS4 u = PyUnicode_READ_CHAR(obj.ptr(), 0);
    const char c = u < 128 ? static_cast<char>(std::toupper(static_cast<int>(u))) : '\0';
    if (c && std::strchr(allowed, c)) return static_cast<Order>(c);
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
