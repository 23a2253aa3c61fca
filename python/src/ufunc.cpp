// tessera.ufunc objects, the ndarray operators, and the promotion functions. Arguments are
// converted here once: Python numbers stay weak (NEP 50), NumPy scalars are typed scalars,
// and NumPy arrays and lists join the op on the device of its tessera arrays.

#include <nanobind/stl/string.h>

#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "convert.h"
#include "core/ufunc_resolve.h"
#include "kernels/loop_signature.h"
#include "ndarray.h"
#include "tessera/errors.h"
#include "tessera/ufunc.h"

namespace tessera::py {
namespace {

struct UfuncObject {
  Ufunc op;
};

std::string prefix(std::string_view api) { return "[" + std::string(api) + "] "; }

bool is_numpy_scalar(nb::handle obj) {
  static nb::object generic = numpy().attr("generic");
  return PyObject_IsInstance(obj.ptr(), generic.ptr()) == 1;
}

bool is_numpy_array(nb::handle obj) {
  static nb::object ndarray_type = numpy().attr("ndarray");
  return PyObject_IsInstance(obj.ptr(), ndarray_type.ptr()) == 1;
}

Operand python_int(nb::handle obj) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(obj.ptr(), &overflow);
  if (!overflow) return Operand::weak_int(Scalar(static_cast<int64_t>(v)));
  if (overflow > 0) {
    unsigned long long u = PyLong_AsUnsignedLongLong(obj.ptr());
    if (!PyErr_Occurred()) return Operand::weak_int(Scalar(static_cast<uint64_t>(u)));
    PyErr_Clear();
  }
  double d = PyLong_AsDouble(obj.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    d = overflow > 0 ? HUGE_VAL : -HUGE_VAL;
  }
  return Operand::weak_int(Scalar(d), /*huge=*/true);
}

// NumPy data joins an op on `device`: zero-copy on the CPU. Moving host data to a GPU
// behind the user's back hides a transfer, so there it is an error, as in CuPy.
Array host_array(nb::handle obj, Device device, std::string_view api) {
  if (!device.is_cpu()) {
    throw TypeError(prefix(api) + "Unsupported type " +
                    nb::cast<std::string>(nb::str(obj.type())) + ": NumPy data is not moved to " +
                    device.str() + " implicitly; convert it with tessera.asarray() first");
  }
  nb::object host;
  try {
    host = numpy().attr("asarray")(obj);
  } catch (nb::python_error& e) {
    if (!e.matches(PyExc_ValueError)) throw;
    throw ValueError(prefix(api) + e.what());
  }
  return array_from_host(host, std::string(api).c_str());
}

// NumPy data of a kind tessera has no dtype for (datetime, strings, objects) is refused,
// rather than read as the integers its buffer holds.
void require_numeric(nb::handle obj, std::string_view api) {
  nb::object dtype = obj.attr("dtype");
  const std::string kind = nb::cast<std::string>(dtype.attr("kind"));
  if (kind.size() != 1 || std::string_view("biufc").find(kind[0]) == std::string_view::npos) {
    throw TypeError(prefix(api) + "ufunc '" + std::string(api) + "' does not support inputs of " +
                    nb::cast<std::string>(nb::repr(dtype)));
  }
}

// Converts one input; nullopt when `obj` is of a type the op does not take.
std::optional<Operand> to_operand(nb::handle obj, Device device, std::string_view api) {
  if (is_ndarray(obj)) return Operand(unwrap(obj).array);
  if (PyBool_Check(obj.ptr())) return Operand::scalar(Scalar(obj.ptr() == Py_True));
  if (is_numpy_scalar(obj)) {
    require_numeric(obj, api);
    Array a = array_from_host(obj, std::string(api).c_str());
    return Operand::scalar(Scalar(a.dtype(), a.data()));
  }
  if (PyLong_Check(obj.ptr())) return python_int(obj);
  if (PyFloat_Check(obj.ptr())) return Operand::weak_float(PyFloat_AsDouble(obj.ptr()));
  if (PyComplex_Check(obj.ptr())) {
    return Operand::weak_complex({PyComplex_RealAsDouble(obj.ptr()),
                                  PyComplex_ImagAsDouble(obj.ptr())});
  }
  if (is_numpy_array(obj)) {
    require_numeric(obj, api);
    return Operand(host_array(obj, device, api));
  }
  if (PyList_Check(obj.ptr()) || PyTuple_Check(obj.ptr())) {
    return Operand(host_array(obj, device, api));
  }
  return std::nullopt;
}

// The device of an op: that of its first tessera array, else the current one.
Device op_device(std::initializer_list<nb::handle> objs) {
  for (nb::handle h : objs) {
    if (h.is_valid() && is_ndarray(h)) return unwrap(h).array.device();
  }
  return current_device();
}

Operand require_operand(nb::handle obj, Device device, std::string_view api) {
  std::optional<Operand> o = to_operand(obj, device, api);
  if (!o) {
    throw TypeError(prefix(api) + "unsupported operand type " +
                    nb::cast<std::string>(nb::str(obj.type())));
  }
  return *o;
}

// Runs the op with the GIL released when some array is worth it (worth_releasing_gil).
std::vector<Array> run(Ufunc op, std::span<const Operand> inputs, const UfuncOptions& opts) {
  const bool release = std::any_of(inputs.begin(), inputs.end(), [](const Operand& o) {
    return o.is_array() && worth_releasing_gil(o.array());
  });
  return without_gil_if(release, [&] { return apply_ufunc(op, inputs, opts); });
}

// The per-op latency path: `op` on tessera arrays alone, with no options. nullptr when the
// arguments are anything else, or when apply_ufunc_small declines.
// A Python float, complex or int (exactly: not a NumPy scalar, not a bool) as the weak
// operand it is under NEP 50; nullopt otherwise.
std::optional<Operand> python_number(nb::handle obj) {
  PyObject* o = obj.ptr();
  if (PyFloat_CheckExact(o)) return Operand::weak_float(PyFloat_AS_DOUBLE(o));
  if (PyLong_CheckExact(o)) return python_int(obj);
  if (PyComplex_CheckExact(o)) {
    return Operand::weak_complex({PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o)});
  }
  return std::nullopt;
}

nb::object call_small(Ufunc op, std::initializer_list<nb::handle> args) {
  const Array* arrays[2];
  size_t n = 0;
  int number_at = -1;  // `t * 2.0`, `1 - t`: one operand a Python number
  int position = 0;
  for (nb::handle h : args) {
    if (NdArray* a = as_ndarray(h)) {
      arrays[n++] = &a->array;
    } else if (args.size() == 2 && number_at < 0) {
      number_at = position;
    } else {
      return {};
    }
    ++position;
  }
  if (number_at >= 0) {
    std::optional<Operand> number = python_number(args.begin()[number_at]);
    if (!number) return {};
    std::optional<Array> r = apply_ufunc_small(op, *arrays[0], *number, number_at == 0);
    return r ? wrap(std::move(*r)) : nb::object();
  }
  std::optional<Array> r = apply_ufunc_small(op, {arrays, n});
  return r ? wrap(std::move(*r)) : nb::object();
}

nb::object call_ufunc(const UfuncObject& self, nb::args args, nb::kwargs kwargs) {
  const UfuncInfo& info = ufunc_info(self.op);
  const std::string_view name = info.name;
  const size_t nargs = args.size();
  if (nargs < static_cast<size_t>(info.nin) || nargs > static_cast<size_t>(info.nin + info.nout)) {
    throw TypeError(prefix(name) + std::string(name) + "() takes from " +
                    std::to_string(info.nin) + " to " + std::to_string(info.nin + info.nout) +
                    " positional arguments but " + std::to_string(nargs) + " were given");
  }
  UfuncOptions opts;
  std::vector<nb::object> out_objects(info.nout);
  for (size_t i = info.nin; i < nargs; ++i) out_objects[i - info.nin] = nb::borrow(args[i]);
  nb::handle where;
  for (auto [key, value] : kwargs) {
    const std::string k = nb::cast<std::string>(key);
    if (k == "out") {
      if (nargs > static_cast<size_t>(info.nin)) {
        throw TypeError(prefix(name) + "cannot specify 'out' as both a positional and keyword "
                        "argument");
      }
      if (nb::isinstance<nb::tuple>(value)) {
        nb::tuple t = nb::borrow<nb::tuple>(value);
        if (t.size() != static_cast<size_t>(info.nout)) {
          throw ValueError(prefix(name) + "The 'out' tuple must have exactly " +
                           std::to_string(info.nout) + " entries: one per ufunc output");
        }
        for (int j = 0; j < info.nout; ++j) out_objects[j] = nb::borrow(t[j]);
      } else if (info.nout == 1) {
        out_objects[0] = nb::borrow(value);
      } else {
        throw TypeError(prefix(name) + "'out' must be a tuple of arrays for a ufunc with " +
                        std::to_string(info.nout) + " outputs");
      }
    } else if (k == "where") {
      where = value;
    } else if (k == "casting") {
      opts.casting = to_casting(value, name);
    } else if (k == "dtype") {
      if (!value.is_none()) opts.dtype = to_dtype(value, DType::Float64, std::string(name).c_str());
    } else if (k == "order") {
      if (!value.is_none() && !nb::isinstance<nb::str>(value)) {
        throw TypeError(prefix(name) + "order must be a string ('C', 'F', 'A' or 'K') or None, "
                        "got " + nb::cast<std::string>(nb::repr(value)));
      }
      opts.order = to_order(value, Order::K, "CFAK", std::string(name).c_str());
    } else if (k == "subok") {
      continue;
    } else if (k == "signature") {
      if (!value.is_none()) {
        throw NotImplementedError(prefix(name) + "signature= is not supported; use dtype=");
      }
    } else {
      throw TypeError(prefix(name) + std::string(name) + "() got an unexpected keyword argument '" +
                      k + "'");
    }
  }
  Device device = op_device({args.size() ? args[0] : nb::handle(),
                             args.size() > 1 ? args[1] : nb::handle(),
                             args.size() > 2 ? args[2] : nb::handle()});
  std::vector<Operand> inputs;
  for (int k = 0; k < info.nin; ++k) inputs.push_back(require_operand(args[k], device, name));
  bool any_out = false;
  for (int j = 0; j < info.nout; ++j) {
    nb::handle o = out_objects[j];
    if (!o.is_valid() || o.is_none()) {
      opts.out.emplace_back();
      continue;
    }
    if (!is_ndarray(o)) {
      throw TypeError(prefix(name) + "return arrays must be of ArrayType (tessera.ndarray), got " +
                      nb::cast<std::string>(nb::str(o.type())));
    }
    opts.out.emplace_back(unwrap(o).array);
    any_out = true;
  }
  if (where.is_valid() && !(PyBool_Check(where.ptr()) && where.ptr() == Py_True)) {
    opts.where = where_mask_operand(where, device, name);
  }
  if (any_out) {
    // Complex results cast into real outputs (casting='unsafe'): NumPy's ComplexWarning,
    // before anything is written.
    const LoopSignature& sig = info.loops[resolve_loop(self.op, inputs, opts)];
    for (int j = 0; j < info.nout; ++j) {
      if (opts.out[j]) warn_complex_cast(sig.out[j], opts.out[j]->dtype());
    }
  }
  std::vector<Array> results = run(self.op, inputs, opts);
  auto result = [&](int j) -> nb::object {
    if (any_out && out_objects[j].is_valid() && !out_objects[j].is_none()) return out_objects[j];
    return wrap(std::move(results[j]));
  };
  if (info.nout == 1) return result(0);
  return nb::make_tuple(result(0), result(1));
}

// A binary operator: NotImplemented for operand types it does not know, so Python can try
// the other side.
nb::object binary(Ufunc op, nb::handle a, nb::handle b) {
  if (nb::object r = call_small(op, {a, b}); r.is_valid()) return r;
  Device device = op_device({a, b});
  std::optional<Operand> x = to_operand(a, device, ufunc_info(op).name);
  std::optional<Operand> y = to_operand(b, device, ufunc_info(op).name);
  if (!x || !y) return nb::borrow(Py_NotImplemented);
  const Operand operands[2] = {std::move(*x), std::move(*y)};
  std::vector<Array> r = run(op, operands, {});
  if (r.size() == 2) return nb::make_tuple(wrap(std::move(r[0])), wrap(std::move(r[1])));
  return wrap(std::move(r[0]));
}

nb::object inplace(Ufunc op, nb::handle self, nb::handle other) {
  // An object that opts out of ufuncs cannot be the operand of an in-place op (NumPy's
  // rule): falling back to its reflected operator would rebind the name, not write.
  if (nb::hasattr(other, "__array_ufunc__") && other.attr("__array_ufunc__").is_none()) {
    throw TypeError(prefix(ufunc_info(op).name) + "operand '" +
                    nb::cast<std::string>(nb::str(other.type().attr("__name__"))) +
                    "' does not support ufuncs (__array_ufunc__=None)");
  }
  Device device = op_device({self});
  std::optional<Operand> y = to_operand(other, device, ufunc_info(op).name);
  if (!y) return nb::borrow(Py_NotImplemented);
  UfuncOptions opts;
  opts.out.emplace_back(unwrap(self).array);
  const Operand operands[2] = {Operand(unwrap(self).array), std::move(*y)};
  run(op, operands, opts);
  return nb::borrow(self);
}

nb::object unary(Ufunc op, nb::handle a) {
  if (nb::object r = call_small(op, {a}); r.is_valid()) return r;
  const Operand operand[1] = {Operand(unwrap(a).array)};
  return wrap(std::move(run(op, operand, {})[0]));
}

// NumPy's `**` on a float or complex array with exponent 2, -1 or 0.5 runs square,
// reciprocal or sqrt instead of power: the same results, much faster.
Ufunc power_operator(nb::handle base, nb::handle exponent) {
  if (!is_ndarray(base)) return Ufunc::Power;
  const DType t = unwrap(base).array.dtype();
  if (!is_floating(t) && !is_complex(t)) return Ufunc::Power;
  if (PyLong_CheckExact(exponent.ptr())) {
    int overflow = 0;
    const long long e = PyLong_AsLongLongAndOverflow(exponent.ptr(), &overflow);
    if (!overflow && e == 2) return Ufunc::Square;
    if (!overflow && e == -1) return Ufunc::Reciprocal;
  } else if (PyFloat_CheckExact(exponent.ptr()) && PyFloat_AsDouble(exponent.ptr()) == 0.5) {
    return Ufunc::Sqrt;
  }
  return Ufunc::Power;
}

nb::object power(nb::handle base, nb::handle exponent, bool in_place) {
  const Ufunc op = power_operator(base, exponent);
  if (op == Ufunc::Power) {
    return in_place ? inplace(op, base, exponent) : binary(op, base, exponent);
  }
  UfuncOptions opts;
  if (in_place) opts.out.emplace_back(unwrap(base).array);
  const Operand operand[1] = {Operand(unwrap(base).array)};
  std::vector<Array> r = run(op, operand, opts);
  return in_place ? nb::borrow(base) : wrap(std::move(r[0]));
}

void bind_operators(nb::class_<NdArray>& cls) {
#define TS_BINARY(py, op)                                                                   \
  cls.def("__" py "__", [](nb::handle a, nb::handle b) { return binary(Ufunc::op, a, b); }); \
  cls.def("__r" py "__", [](nb::handle a, nb::handle b) { return binary(Ufunc::op, b, a); }); \
  cls.def("__i" py "__", [](nb::handle a, nb::handle b) { return inplace(Ufunc::op, a, b); });
  TS_BINARY("add", Add)
  TS_BINARY("sub", Subtract)
  TS_BINARY("mul", Multiply)
  TS_BINARY("truediv", Divide)
  TS_BINARY("floordiv", FloorDivide)
  TS_BINARY("mod", Remainder)
  TS_BINARY("lshift", LeftShift)
  TS_BINARY("rshift", RightShift)
  TS_BINARY("and", BitwiseAnd)
  TS_BINARY("or", BitwiseOr)
  TS_BINARY("xor", BitwiseXor)
#undef TS_BINARY
  cls.def("__pow__", [](nb::handle a, nb::handle b, nb::handle mod) {
    if (!mod.is_none()) return nb::borrow(Py_NotImplemented);
    return power(a, b, false);
  }, nb::arg("other"), nb::arg("mod").none() = nb::none());
  cls.def("__rpow__", [](nb::handle a, nb::handle b, nb::handle mod) {
    if (!mod.is_none()) return nb::borrow(Py_NotImplemented);
    return binary(Ufunc::Power, b, a);
  }, nb::arg("other"), nb::arg("mod").none() = nb::none());
  cls.def("__ipow__", [](nb::handle a, nb::handle b) { return power(a, b, true); });
  cls.def("__divmod__", [](nb::handle a, nb::handle b) { return binary(Ufunc::Divmod, a, b); });
  cls.def("__rdivmod__", [](nb::handle a, nb::handle b) { return binary(Ufunc::Divmod, b, a); });
#define TS_COMPARE(py, op) \
  cls.def("__" py "__", [](nb::handle a, nb::handle b) { return binary(Ufunc::op, a, b); });
  TS_COMPARE("eq", Equal)
  TS_COMPARE("ne", NotEqual)
  TS_COMPARE("lt", Less)
  TS_COMPARE("le", LessEqual)
  TS_COMPARE("gt", Greater)
  TS_COMPARE("ge", GreaterEqual)
#undef TS_COMPARE
  cls.def("__neg__", [](nb::handle a) { return unary(Ufunc::Negative, a); });
  cls.def("__pos__", [](nb::handle a) { return unary(Ufunc::Positive, a); });
  cls.def("__abs__", [](nb::handle a) { return unary(Ufunc::Absolute, a); });
  cls.def("__invert__", [](nb::handle a) { return unary(Ufunc::Invert, a); });
  // Arrays compare elementwise, so they are unhashable, as NumPy's.
  cls.attr("__hash__") = nb::none();
}

}  // namespace

Operand to_operand_or_raise(nb::handle obj, Device device, std::string_view api) {
  return require_operand(obj, device, api);
}

Operand where_mask_operand(nb::handle obj, Device device, std::string_view api) {
  if (is_ndarray(obj) || is_numpy_array(obj)) return require_operand(obj, device, api);
  nb::object mask = numpy().attr("asarray")(obj, nb::arg("dtype") = to_numpy_dtype(DType::Bool));
  // A scalar's truth is a scalar operand, usable on any device; a list is host data.
  if (nb::cast<int>(mask.attr("ndim")) == 0) {
    return Operand::scalar(Scalar(PyObject_IsTrue(mask.ptr()) == 1));
  }
  return require_operand(mask, device, api);
}

namespace {

// ndarray.astype, and asarray's cast: `self` as `dtype`, copied unless copy is false and
// nothing changes.
nb::object astype_call(nb::handle self, nb::handle dtype, nb::handle order, nb::handle casting,
                       bool copy) {
  const Array& a = unwrap(self).array;
  DType dt = to_dtype(dtype, a.dtype(), "astype");
  Order o = to_order(order, Order::K, "CFAK", "astype");
  // A copy is made on the current device, as copy() (CuPy's astype does the same).
  const Array from = copy || dt != a.dtype() ? on_current_cuda_device(a) : a;
  const bool moved = from.device() != a.device();
  Array out = astype(from, dt, to_casting(casting, "astype"), copy && !moved, o);
  warn_complex_cast(a.dtype(), dt);
  if (out.buffer() == a.buffer()) return nb::borrow(self);
  return wrap(std::move(out));
}

}  // namespace

void bind_ufuncs(nb::module_& m, nb::class_<NdArray>& array_class) {
  // dynamic_attr: __name__ is a per-instance attribute, as on NumPy's ufuncs (a property
  // named __name__ cannot be installed on a class).
  nb::class_<UfuncObject> cls(m, "ufunc", nb::dynamic_attr(),
                              "A function applied elementwise, as NumPy's ufunc.");
  cls.attr("__module__") = "tessera";
  // One and two positional arrays first: nanobind matches these without building the
  // *args tuple and **kwargs dict, which would cost more than the op on a small array.
  cls.def("__call__", [](const UfuncObject& self, nb::handle a) {
    if (nb::object r = call_small(self.op, {a}); r.is_valid()) return r;
    return call_ufunc(self, nb::borrow<nb::args>(nb::make_tuple(a)), nb::kwargs());
  });
  cls.def("__call__", [](const UfuncObject& self, nb::handle a, nb::handle b) {
    if (nb::object r = call_small(self.op, {a, b}); r.is_valid()) return r;
    return call_ufunc(self, nb::borrow<nb::args>(nb::make_tuple(a, b)), nb::kwargs());
  });
  cls.def("__call__", &call_ufunc);
  cls.def_prop_ro("nin", [](const UfuncObject& u) { return ufunc_info(u.op).nin; });
  cls.def_prop_ro("nout", [](const UfuncObject& u) { return ufunc_info(u.op).nout; });
  cls.def_prop_ro("nargs", [](const UfuncObject& u) {
    return ufunc_info(u.op).nin + ufunc_info(u.op).nout;
  });
  cls.def_prop_ro("ntypes", [](const UfuncObject& u) { return ufunc_info(u.op).loops.size(); });
  cls.def_prop_ro("types", [](const UfuncObject& u) {
    const UfuncInfo& info = ufunc_info(u.op);
    nb::list types;
    for (const LoopSignature& l : info.loops) {
      std::string s;
      for (int k = 0; k < info.nin; ++k) s += kernels::code_of_dtype(l.in[k]);
      s += "->";
      for (int j = 0; j < info.nout; ++j) s += kernels::code_of_dtype(l.out[j]);
      types.append(s);
    }
    return types;
  });
  cls.def_prop_ro("signature", [](const UfuncObject&) { return nb::none(); });
  cls.def("__repr__", [](const UfuncObject& u) {
    return "<ufunc '" + std::string(ufunc_info(u.op).name) + "'>";
  });

  nb::dict ufuncs;
  for (int i = 0; i < kNumUfuncs; ++i) {
    const Ufunc op = static_cast<Ufunc>(i);
    nb::str name(ufunc_info(op).name.data(), ufunc_info(op).name.size());
    nb::object u = nb::cast(UfuncObject{op});
    u.attr("__name__") = name;
    ufuncs[name] = u;
  }
  m.attr("_ufuncs") = ufuncs;

  bind_operators(array_class);

  m.def("_lazy_min_elements", &lazy_min_elements);
  m.def("_set_lazy_min_elements", &set_lazy_min_elements,
        "Results below this many elements are computed at once rather than pending.");
  m.def("_where", [](nb::handle cond, nb::handle x, nb::handle y) {
    Device device = op_device({cond, x, y});
    Operand c = require_operand(cond, device, "where");
    Operand a = require_operand(x, device, "where");
    Operand b = require_operand(y, device, "where");
    return wrap(where(c, a, b));
  });
  m.def("_result_type", [](nb::args args) {
    std::vector<Operand> ops;
    for (nb::handle h : args) {
      if (is_ndarray(h)) {
        ops.emplace_back(unwrap(h).array);
      } else if (PyBool_Check(h.ptr())) {
        ops.push_back(Operand::scalar(Scalar(false)));
      } else if (PyLong_Check(h.ptr()) && !PyBool_Check(h.ptr())) {
        ops.push_back(python_int(h));
      } else if (PyFloat_Check(h.ptr()) && !is_numpy_scalar(h)) {
        ops.push_back(Operand::weak_float(0.0));
      } else if (PyComplex_Check(h.ptr()) && !is_numpy_scalar(h)) {
        ops.push_back(Operand::weak_complex({}));
      } else {
        ops.push_back(Operand::scalar(Scalar(false).cast(to_dtype(h, DType::Float64, "result_type"))));
      }
    }
    return to_numpy_dtype(result_type(ops));
  });
  m.def("_can_cast", [](nb::handle from, nb::handle to, nb::handle casting) {
    return can_cast(to_dtype(from, DType::Float64, "can_cast"), to_dtype(to, DType::Float64, "can_cast"),
                    to_casting(casting, "can_cast"));
  }, nb::arg("from_").none(), nb::arg("to").none(), nb::arg("casting"));
  m.def("_promote_types", [](nb::handle a, nb::handle b) {
    return to_numpy_dtype(promote_types(to_dtype(a, DType::Float64, "promote_types"),
                                        to_dtype(b, DType::Float64, "promote_types")));
  }, nb::arg("type1").none(), nb::arg("type2").none());
  array_class.def("astype", [](nb::handle self, nb::handle dtype, nb::handle order,
                               nb::handle casting, nb::handle, nb::handle copy) {
    const Array& a = unwrap(self).array;
    const int truth = PyObject_IsTrue(copy.ptr());
    if (truth < 0) throw nb::python_error();
    // order='A' asks for a contiguous result: a copy unless the array is one already.
    const bool any_order = PyUnicode_Check(order.ptr()) && PyUnicode_GET_LENGTH(order.ptr()) == 1 &&
                           (PyUnicode_READ_CHAR(order.ptr(), 0) == 'A' ||
                            PyUnicode_READ_CHAR(order.ptr(), 0) == 'a');
    const bool must_copy = any_order && !a.is_c_contiguous() && !a.is_f_contiguous();
    // dtype=None is NumPy's default dtype, float64, as numpy.dtype(None) reads it.
    return astype_call(self, dtype.is_none() ? to_numpy_dtype(DType::Float64) : nb::borrow(dtype),
                       order, casting, truth || must_copy);
  }, nb::arg("dtype").none(), nb::arg("order").none() = "K", nb::arg("casting").none() = "unsafe",
     nb::arg("subok").none() = true, nb::arg("copy").none() = true,
     "A copy of the array cast to `dtype` (no copy when copy=False and nothing changes); "
     "`casting` is checked as NumPy does.");
  m.def("_astype", &astype_call, nb::arg("self"), nb::arg("dtype").none(),
        nb::arg("order").none(), nb::arg("casting").none(), nb::arg("copy"));
}

}  // namespace tessera::py
