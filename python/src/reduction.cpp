// Reductions: ufunc.reduce and NumPy's mean/var/std/argmax/argmin. The Python layer
// (tessera/_reduction.py) spells NumPy's signatures; arguments arrive here already
// positional, with `a` a tessera array.

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include "convert.h"
#include "ndarray.h"
#include "tessera/errors.h"
#include "tessera/reduction.h"

namespace tessera::py {
namespace {

std::optional<Array> to_out(nb::handle out, const std::string& api) {
  if (out.is_none()) return std::nullopt;
  nb::handle target = out;
  if (nb::isinstance<nb::tuple>(out)) {
    nb::tuple t = nb::borrow<nb::tuple>(out);
    if (t.size() != 1) {
      throw ValueError("[" + api + "] The 'out' tuple must have exactly one entry, got " +
                       std::to_string(t.size()));
    }
    target = t[0];
    if (target.is_none()) return std::nullopt;
  }
  if (!is_ndarray(target)) {
    throw TypeError("[" + api + "] out= must be a tessera.ndarray, got " +
                    nb::cast<std::string>(nb::str(target.type())));
  }
  return unwrap(target).array;
}

ReduceOptions to_options(const Array& a, nb::handle axis, nb::handle dtype, nb::handle out,
                         bool keepdims, nb::handle initial, nb::handle where,
                         const std::string& api, bool skip_identity = false) {
  ReduceOptions o;
  if (!axis.is_none()) {
    std::vector<int64_t> axes;
    for (int ax : to_axes(axis, api.c_str())) axes.push_back(ax);
    o.axis = std::move(axes);
  }
  if (!dtype.is_none()) o.dtype = to_dtype(dtype, DType::Float64, api.c_str());
  o.out = to_out(out, api);
  o.keepdims = keepdims;
  o.skip_identity = skip_identity;
  if (initial.is_valid() && !initial.is_none()) {
    o.initial = to_operand_or_raise(initial, a.device(), api);
  }
  if (where.is_valid() && !(PyBool_Check(where.ptr()) && where.ptr() == Py_True)) {
    o.where = where_mask_operand(where, a.device(), api);
  }
  return o;
}

nb::object result(Array r, const ReduceOptions& o, nb::handle out) {
  if (!o.out) return wrap(std::move(r));
  return nb::isinstance<nb::tuple>(out) ? nb::borrow(nb::borrow<nb::tuple>(out)[0])
                                        : nb::borrow(out);
}

// tessera._reduction's function `name`, with NumPy's signature, for the calls with
// arguments (looked up each time: a static Python object would outlive the interpreter).
nb::object reduction_function(const char* name) {
  return nb::module_::import_("tessera._reduction").attr(name);
}

// Defines method `name` twice: with no arguments, `compute(array)` (nanobind matches this
// first, without building the *args tuple and **kwargs dict); with arguments, or where
// `compute` gives nothing, tessera._reduction's function of that name, which reads NumPy's
// signature.
template <typename Compute>
void def_reduction_method(nb::class_<NdArray>& cls, const char* name, Compute compute) {
  cls.def(name, [name, compute](nb::handle self) -> nb::object {
    const Array& a = unwrap(self).array;
    std::optional<Array> r = without_gil_if(worth_releasing_gil(a), [&] { return compute(a); });
    return r ? wrap(std::move(*r)) : reduction_function(name)(self);
  }, "The function of the same name in tessera (NumPy's ndarray method).");
  cls.def(name, [name](nb::handle self, nb::args args, nb::kwargs kwargs) {
    return reduction_function(name)(self, *args, **kwargs);
  });
}

}  // namespace

void bind_reduction_methods(nb::class_<NdArray>& cls) {
  // t.sum(), t.argmax() ... without arguments: the calls a loop over small arrays makes.
  struct Folding {
    const char* name;
    Ufunc op;
  };
  static constexpr Folding foldings[] = {
      {"sum", Ufunc::Add},          {"prod", Ufunc::Multiply}, {"max", Ufunc::Maximum},
      {"min", Ufunc::Minimum},      {"any", Ufunc::LogicalOr}, {"all", Ufunc::LogicalAnd}};
  for (const Folding& f : foldings) {
    def_reduction_method(cls, f.name, [f](const Array& a) -> std::optional<Array> {
      return reduce(f.op, a, ReduceOptions{}, f.name);
    });
  }
  // mean, var and std of a non-empty array (an empty one warns, in tessera._reduction).
  def_reduction_method(cls, "mean", [](const Array& a) -> std::optional<Array> {
    if (a.size() == 0) return std::nullopt;
    return mean(a);
  });
  def_reduction_method(cls, "var", [](const Array& a) -> std::optional<Array> {
    if (a.size() == 0) return std::nullopt;
    return var(a);
  });
  def_reduction_method(cls, "std", [](const Array& a) -> std::optional<Array> {
    if (a.size() == 0) return std::nullopt;
    return std_dev(a);
  });
  def_reduction_method(cls, "argmax", [](const Array& a) -> std::optional<Array> {
    return argmax(a, std::nullopt, false, std::nullopt);
  });
  def_reduction_method(cls, "argmin", [](const Array& a) -> std::optional<Array> {
    return argmin(a, std::nullopt, false, std::nullopt);
  });
}

void bind_reductions(nb::module_& m) {
  // initial: None for no starting value; skip_identity: initial=None was written, which
  // NumPy reads as "start from the first element" even for ops with an identity.
  m.def("_reduce", [](const std::string& name, nb::handle array, nb::handle axis,
                      nb::handle dtype, nb::handle out, bool keepdims, nb::handle initial,
                      nb::handle where, const std::string& api, bool skip_identity) {
    const Array& a = unwrap(array).array;
    std::optional<Ufunc> op = find_ufunc(name);
    if (!op) throw ValueError("[" + api + "] no ufunc named " + name);
    ReduceOptions o =
        to_options(a, axis, dtype, out, keepdims, initial, where, api, skip_identity);
    Array r = without_gil([&] { return reduce(*op, a, o, api.c_str()); });
    return result(std::move(r), o, out);
  }, nb::arg("name"), nb::arg("a"), nb::arg("axis").none(), nb::arg("dtype").none(),
     nb::arg("out").none(), nb::arg("keepdims"), nb::arg("initial").none(),
     nb::arg("where").none(), nb::arg("api"), nb::arg("skip_identity") = false);
  // axis: one axis, already resolved from NumPy's forms by tessera/_reduction.py.
  m.def("_accumulate", [](const std::string& name, nb::handle array, int64_t ax,
                          nb::handle dtype, nb::handle out, const std::string& api) {
    const Array& a = unwrap(array).array;
    std::optional<Ufunc> op = find_ufunc(name);
    if (!op) throw ValueError("[" + api + "] no ufunc named " + name);
    std::optional<DType> dt;
    if (!dtype.is_none()) dt = to_dtype(dtype, DType::Float64, api.c_str());
    std::optional<Array> target = to_out(out, api);
    Array r = without_gil([&] { return accumulate(*op, a, ax, dt, target, api.c_str()); });
    ReduceOptions o;
    o.out = target;
    return result(std::move(r), o, out);
  }, nb::arg("name"), nb::arg("a"), nb::arg("axis"), nb::arg("dtype").none(),
     nb::arg("out").none(), nb::arg("api"));
  m.def("_mean", [](nb::handle array, nb::handle axis, nb::handle dtype, nb::handle out,
                    bool keepdims, nb::handle where) {
    const Array& a = unwrap(array).array;
    ReduceOptions o = to_options(a, axis, dtype, out, keepdims, nb::handle(), where, "mean");
    Array r = without_gil([&] { return mean(a, o); });
    return result(std::move(r), o, out);
  }, nb::arg("a"), nb::arg("axis").none(), nb::arg("dtype").none(), nb::arg("out").none(),
     nb::arg("keepdims"), nb::arg("where").none());
  m.def("_var", [](nb::handle array, nb::handle axis, nb::handle dtype, nb::handle out,
                   double ddof, bool keepdims, nb::handle where, bool root, nb::handle mean) {
    const std::string api = root ? "std" : "var";
    const Array& a = unwrap(array).array;
    ReduceOptions o = to_options(a, axis, dtype, out, keepdims, nb::handle(), where, api);
    std::optional<Array> given;
    if (!mean.is_none()) given = unwrap(mean).array;
    Array r = without_gil(
        [&] { return root ? std_dev(a, o, ddof, given) : var(a, o, ddof, given); });
    return result(std::move(r), o, out);
  }, nb::arg("a"), nb::arg("axis").none(), nb::arg("dtype").none(), nb::arg("out").none(),
     nb::arg("ddof"), nb::arg("keepdims"), nb::arg("where").none(), nb::arg("root"),
     nb::arg("mean").none());
  m.def("_argextreme", [](nb::handle array, nb::handle axis, nb::handle out, bool keepdims,
                          bool max) {
    const std::string api = max ? "argmax" : "argmin";
    const Array& a = unwrap(array).array;
    std::optional<int64_t> ax;
    if (!axis.is_none()) ax = to_int64(axis, api.c_str(), "axis");
    std::optional<Array> target = to_out(out, api);
    Array r = without_gil([&] {
      return max ? argmax(a, ax, keepdims, target) : argmin(a, ax, keepdims, target);
    });
    ReduceOptions o;
    o.out = target;
    return result(std::move(r), o, out);
  }, nb::arg("a"), nb::arg("axis").none(), nb::arg("out").none(), nb::arg("keepdims"),
     nb::arg("max"));
}

}  // namespace tessera::py
