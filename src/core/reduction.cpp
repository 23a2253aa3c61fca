// ufunc.reduce and the statistics built on it: resolve the accumulator dtype and starting
// value as NumPy does, then hand the backend one tree to fold (see backend.h).

#include "tessera/reduction.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <complex>
#include <limits>

#include "backend/backend.h"
#include "core/fp_events.h"
#include "core/pending.h"
#include "core/ufunc_resolve.h"
#include "tessera/errors.h"

namespace tessera {
namespace {

std::optional<Scalar> identity(Ufunc op) {
  switch (op) {
    case Ufunc::Add:
    case Ufunc::BitwiseOr:
    case Ufunc::BitwiseXor:
    case Ufunc::Gcd:
    case Ufunc::Hypot: return Scalar(int64_t{0});
    case Ufunc::Multiply: return Scalar(int64_t{1});
    case Ufunc::BitwiseAnd: return Scalar(int64_t{-1});
    case Ufunc::LogicalAnd: return Scalar(true);
    case Ufunc::LogicalOr:
    case Ufunc::LogicalXor: return Scalar(false);
    case Ufunc::Logaddexp:
    case Ufunc::Logaddexp2: return Scalar(-std::numeric_limits<double>::infinity());
    default: return std::nullopt;
  }
}

// Ops without an identity that NumPy still lets reduce over several axes: op(x, x) == x, so
// any element, or a value every element beats, can start the fold.
bool idempotent(Ufunc op) {
  return op == Ufunc::Maximum || op == Ufunc::Minimum || op == Ufunc::Fmax || op == Ufunc::Fmin;
}

// A value that never wins against an element: the lowest value for maximum, the highest for
// minimum, NaN for fmax/fmin (which ignore NaN).
Scalar neutral(Ufunc op, DType dtype) {
  const double inf = std::numeric_limits<double>::infinity();
  const bool for_max = op == Ufunc::Maximum || op == Ufunc::Fmax;
  const bool nan_start = op == Ufunc::Fmax || op == Ufunc::Fmin;
  switch (dtype_info(dtype).category) {
    case DTypeKind::Bool: return Scalar(!for_max);
    case DTypeKind::Float:
      return Scalar(nan_start ? std::nan("") : for_max ? -inf : inf).cast(dtype);
    case DTypeKind::Complex: {
      const double v = nan_start ? std::nan("") : for_max ? -inf : inf;
      return Scalar(std::complex<double>(v, v)).cast(dtype);
    }
    case DTypeKind::SignedInt: {
      const int bits = 8 * itemsize(dtype);
      const int64_t high = bits == 64 ? std::numeric_limits<int64_t>::max()
                                      : (int64_t{1} << (bits - 1)) - 1;
      return Scalar(for_max ? -high - 1 : high).cast(dtype);
    }
    case DTypeKind::UnsignedInt:
      return Scalar(for_max ? uint64_t{0} : std::numeric_limits<uint64_t>::max()).cast(dtype);
  }
  __builtin_unreachable();
}

// A starting value that leaves every fold as if it began at its first element: -0.0 for
// floating add (x + -0.0 == x, even for x = -0.0), the identity where op(identity, x) == x
// exactly, the neutral value of max/min. None for hypot and gcd (hypot(0, -3) is 3, not
// -3) and for ops that are not reorderable.
std::optional<Scalar> exact_neutral(Ufunc op, DType dtype) {
  if (idempotent(op)) return neutral(op, dtype);
  switch (op) {
    case Ufunc::Add:
      if (is_floating(dtype) || is_complex(dtype)) return Scalar(-0.0).cast(dtype);
      return Scalar(int64_t{0});
    case Ufunc::Multiply:
    case Ufunc::BitwiseAnd:
    case Ufunc::BitwiseOr:
    case Ufunc::BitwiseXor:
    case Ufunc::LogicalAnd:
    case Ufunc::LogicalOr:
    case Ufunc::LogicalXor:
    case Ufunc::Logaddexp:
    case Ufunc::Logaddexp2: return identity(op);
    default: return std::nullopt;
  }
}

// The loop whose inputs and output are all one dtype, NumPy's reduction rule: dtype= when
// given; add/multiply widen bool and small integers to the default integer; logical ops
// reduce as bool; otherwise the loop op(a, a) resolves to, if it keeps its dtype.
int resolve_reduce_loop(Ufunc op, const Array& a, std::optional<DType> dtype, bool reorderable,
                        const std::string& prefix) {
  const UfuncInfo& info = ufunc_info(op);
  auto find = [&](DType t) -> std::optional<int> {
    for (size_t i = 0; i < info.loops.size(); ++i) {
      const LoopSignature& s = info.loops[i];
      if (s.in[0] == t && s.in[1] == t && s.out[0] == t) return static_cast<int>(i);
    }
    return std::nullopt;
  };
  auto no_loop = [&]() -> int {
    throw TypeError(prefix + "No loop matching the specified signature and casting was found "
                    "for ufunc " + std::string(info.name));
  };
  const DType in = a.dtype();
  std::optional<DType> wanted = dtype;
  const bool small_int = in == DType::Bool || (is_integer(in) && itemsize(in) < 8);
  if (!wanted && (op == Ufunc::Add || op == Ufunc::Multiply) && small_int) {
    wanted = dtype_info(in).category == DTypeKind::UnsignedInt ? DType::UInt64 : DType::Int64;
  }
  if (!wanted && (op == Ufunc::LogicalAnd || op == Ufunc::LogicalOr || op == Ufunc::LogicalXor)) {
    wanted = DType::Bool;
  }
  if (wanted) {
    if (std::optional<int> loop = find(*wanted)) return *loop;
    return no_loop();
  }
  const Operand operands[2] = {a, a};
  const int loop = resolve_loop(op, operands, {});
  const LoopSignature& s = info.loops[loop];
  // An ordered fold may read its values as another dtype (ldexp: acc = ldexp(acc, int)).
  if (s.in[0] != s.out[0] || (s.in[1] != s.in[0] && reorderable)) return no_loop();
  return loop;
}

// The loop of a reduction without dtype= depends only on the op and the input's dtype:
// remembered, as a loop search costs more than summing a small array.
int reduce_loop(Ufunc op, const Array& a, std::optional<DType> dtype, bool reorderable,
                const std::string& prefix) {
  if (dtype) return resolve_reduce_loop(op, a, dtype, reorderable, prefix);
  static std::atomic<int> found[kNumUfuncs][kNumDTypes][2] = {};  // loop + 1; 0: not yet
  std::atomic<int>& slot =
      found[static_cast<int>(op)][static_cast<int>(a.dtype())][reorderable ? 1 : 0];
  if (const int known = slot.load(std::memory_order_relaxed)) return known - 1;
  const int loop = resolve_reduce_loop(op, a, dtype, reorderable, prefix);
  slot.store(loop + 1, std::memory_order_relaxed);
  return loop;
}

// initial= as a scalar of any dtype: a number, or an array of one element.
std::optional<Scalar> initial_value(const ReduceOptions& o, const std::string& prefix) {
  if (!o.initial) return std::nullopt;
  if (!o.initial->is_array()) return o.initial->value();
  const Array& a = o.initial->array();
  if (a.size() != 1) {
    throw ValueError(prefix + "initial= must be a scalar, got an array of shape " +
                     a.shape().str());
  }
  Array host = a.to_device(Device::cpu()).copy(Order::C);
  return Scalar(a.dtype(), host.data());
}

// The tree that yields a's values as `dtype`: a pending a's own tree, fused.
expr::NodePtr values_tree(const Array& a, DType dtype) {
  if (expr::NodePtr tree = pending_tree(a, a.shape())) return expr::cast(tree, dtype);
  return expr::input(a, dtype);
}

struct ReducedAxes {
  std::vector<bool> reduced;
  int count = 0;
  Dims kept_shape;  // reduced axes as 1
  Dims out_shape;   // reduced axes dropped unless keepdims
  int64_t extent = 1;
};

ReducedAxes reduced_axes(const Array& a, const std::optional<std::vector<int64_t>>& axis,
                         bool keepdims, const std::string& api) {
  const int nd = a.ndim();
  ReducedAxes r;
  r.reduced.assign(nd, !axis.has_value());
  if (axis) {
    for (int64_t v : *axis) {
      const int ax = normalize_axis(v, nd, api.c_str());
      if (r.reduced[ax]) throw ValueError("[" + api + "] duplicate value in 'axis'");
      r.reduced[ax] = true;
    }
  }
  for (int i = 0; i < nd; ++i) {
    const int64_t n = a.shape()[i];
    if (r.reduced[i]) {
      ++r.count;
      r.extent *= n;
      r.kept_shape.push_back(1);
      if (keepdims) r.out_shape.push_back(1);
    } else {
      r.kept_shape.push_back(n);
      r.out_shape.push_back(n);
    }
  }
  return r;
}

void check_out(const Array& out, const Dims& shape, Device device, const std::string& api,
               std::string_view what) {
  const std::string prefix = "[" + api + "] ";
  if (out.device() != device) {
    throw ValueError(prefix + "out is on " + out.device().str() + ", the array on " +
                     device.str());
  }
  if (out.ndim() != shape.size()) {
    throw ValueError(prefix + "output parameter for reduction operation " + std::string(what) +
                     " has the wrong number of dimensions: Found " + std::to_string(out.ndim()) +
                     " but expected " + std::to_string(shape.size()));
  }
  if (out.shape() != shape) {
    throw ValueError(prefix + "output parameter for reduction operation " + std::string(what) +
                     " has shape " + out.shape().str() + ", expected " + shape.str());
  }
}

// The result in out= (cast unsafely, overlap-safe) or as it is.
Array deliver(const Array& result, const std::optional<Array>& out, const std::string& api) {
  if (!out) return result;
  Array target = *out;
  target.require_writeable(api.c_str());
  target.assign(result);
  return target;
}

expr::NodePtr mask_tree(const Operand& where, const Dims& shape, const std::string& api) {
  if (where.dtype() != DType::Bool) {
    throw TypeError("[" + api + "] Cannot cast array data from " + dtype_repr(where.dtype()) +
                    " to dtype('bool') according to the rule 'safe' (where= must be boolean)");
  }
  if (!where.is_array()) return expr::constant(where.value());
  const Array& mask = where.array();
  try {
    if (mask.shape() == shape) return values_tree(mask, DType::Bool);
    return expr::input(mask.broadcast_to(shape), DType::Bool);
  } catch (const ValueError&) {
    throw ValueError("[" + api + "] operands could not be broadcast together: where= of shape " +
                     mask.shape().str() + " and the array of shape " + shape.str());
  }
}

}  // namespace

Array reduce(Ufunc op, const Array& a, const ReduceOptions& o, const char* api_name) {
  const UfuncInfo& info = ufunc_info(op);
  const std::string api = api_name ? api_name : std::string(info.name) + ".reduce";
  const std::string prefix = "[" + api + "] ";
  const std::string name(info.name);
  if (info.nin != 2 || info.nout != 1) {
    throw ValueError(prefix + "reduce only supported for binary functions");
  }
  const ReducedAxes axes = reduced_axes(a, o.axis, o.keepdims, api);
  const bool reorderable = identity(op) || idempotent(op);
  int loop = reduce_loop(op, a, o.dtype, reorderable, prefix);
  if (!o.dtype && o.out) {
    // NumPy's loop reads the input and writes out=: it runs in the wider of the two.
    const DType wider = promote_types(info.loops[loop].out[0], o.out->dtype());
    if (wider != info.loops[loop].out[0]) {
      try {
        loop = reduce_loop(op, a, wider, reorderable, prefix);
      } catch (const TypeError&) {
        // No loop of that dtype (max of bools into ints, ...): keep the input's.
      }
    }
  }
  if (!reorderable && axes.count > 1) {
    throw ValueError(prefix + "reduction operation '" + name +
                     "' is not reorderable, so at most one axis may be specified");
  }
  const DType acc_dtype = info.loops[loop].out[0];
  const DType value_dtype = info.loops[loop].in[1];
  // initial=None asks NumPy to start from the first element even when op has an identity.
  const std::optional<Scalar> ident = o.skip_identity ? std::nullopt : identity(op);
  if (o.where && !o.initial && !ident) {
    throw ValueError(prefix + "reduction operation '" + name +
                     "' does not have an identity, so to use a where mask one has to specify "
                     "'initial'");
  }
  const std::optional<Scalar> initial = initial_value(o, prefix);
  const Device device = a.device();
  if (o.out) check_out(*o.out, axes.out_shape, device, api, name);
  if (o.where && o.where->is_array() && o.where->array().device() != device) {
    throw ValueError(prefix + "where= is on " + o.where->array().device().str() +
                     ", the array on " + device.str());
  }

  Array acc = Array::empty(axes.kept_shape, acc_dtype, device);
  auto finish = [&]() {
    Array result = o.keepdims ? acc : acc.reshape(axes.out_shape);
    return deliver(result, o.out, api);
  };
  if (acc.size() == 0) return finish();
  if (axes.extent == 0) {
    if (!initial && !ident) {
      throw ValueError(prefix + "zero-size array to reduction operation " + name +
                       " which has no identity");
    }
    acc.fill(initial ? initial->cast(acc_dtype) : ident->cast(acc_dtype));
    return finish();
  }
  // Where the fold starts: initial=, else the identity, else a value that changes nothing
  // (starting from the first element instead would need it cut out of the tree).
  std::optional<Scalar> start = initial ? initial : ident ? ident : exact_neutral(op, acc_dtype);
  if (!start && reorderable && axes.count > 1) start = identity(op);
  Array values = a;
  if (start) {
    acc.fill(start->cast(acc_dtype));
  } else if (axes.count == 0) {
    acc.assign(a);  // nothing to fold and nothing to start from: the values themselves
    return finish();
  } else {
    // No starting value (subtract, divide, ...): fold in order from the first element.
    const int axis = static_cast<int>(
        std::find(axes.reduced.begin(), axes.reduced.end(), true) - axes.reduced.begin());
    std::vector<IndexItem> first(axis, IndexItem::slice(std::nullopt, std::nullopt, 1));
    std::vector<IndexItem> rest = first;
    first.push_back(IndexItem::slice(0, 1, 1));
    rest.push_back(IndexItem::slice(1, std::nullopt, 1));
    acc.assign(a.index(first));
    values = a.index(rest);
    if (values.size() == 0) return finish();
  }
  expr::NodePtr root = values_tree(values, value_dtype);
  if (o.where) {
    root = expr::op(Ufunc::Where, where_loop(value_dtype), 0,
                    {mask_tree(*o.where, values.shape(), api), root,
                     expr::constant(start->cast(value_dtype))});
  }
  backend_for(device).reduce(*root, op, loop, !reorderable, acc.broadcast_to(values.shape()));
  report_fp_events();
  return finish();
}

Array accumulate(Ufunc op, const Array& a, int64_t axis, std::optional<DType> dtype,
                 const std::optional<Array>& out, const char* api_name) {
  const UfuncInfo& info = ufunc_info(op);
  const std::string api = api_name ? api_name : std::string(info.name) + ".accumulate";
  const std::string prefix = "[" + api + "] ";
  if (info.nin != 2 || info.nout != 1) {
    throw ValueError(prefix + "accumulate only supported for binary functions");
  }
  if (a.ndim() == 0) throw TypeError(prefix + "cannot accumulate on a scalar");
  const int ax = normalize_axis(axis, a.ndim(), api.c_str());
  const int loop = reduce_loop(op, a, dtype, /*reorderable=*/true, prefix);
  const DType acc_dtype = info.loops[loop].out[0];
  if (out) {
    if (out->device() != a.device()) {
      throw ValueError(prefix + "out is on " + out->device().str() + ", the array on " +
                       a.device().str());
    }
    if (out->shape() != a.shape()) {
      throw ValueError(prefix + "out has shape " + out->shape().str() + ", expected " +
                       a.shape().str());
    }
  }
  Array result = Array::empty(a.shape(), acc_dtype, a.device());
  if (a.shape()[ax] <= 1) {
    result.assign(a);
  } else if (result.size() > 0) {
    backend_for(a.device()).scan(*values_tree(a, acc_dtype), op, loop, ax, result);
    report_fp_events();
  }
  return deliver(result, out, api);
}

namespace {

// How many elements each reduction folds, at the keepdims shape: a float64 scalar, or with
// where= an int64 array (NumPy's _count_reduce_items).
Operand count_items(const Array& a, const ReduceOptions& o, const char* api) {
  if (!o.where || (!o.where->is_array() && o.where->value().cast(DType::Bool).get<bool>())) {
    const ReducedAxes axes = reduced_axes(a, o.axis, true, api);
    return Operand::scalar(Scalar(static_cast<double>(axes.extent)));
  }
  ReduceOptions count;
  count.axis = o.axis;
  count.keepdims = true;
  count.dtype = DType::Int64;
  if (!o.where->is_array()) {  // where=False: nothing is counted
    ReducedAxes axes = reduced_axes(a, o.axis, true, api);
    Array zeros = Array::empty(axes.kept_shape, DType::Int64, a.device());
    zeros.fill(Scalar(int64_t{0}));
    return zeros;
  }
  const Array& mask = o.where->array();
  try {
    return reduce(Ufunc::Add, mask.broadcast_to(a.shape()), count, api);
  } catch (const ValueError&) {
    throw ValueError(std::string("[") + api + "] operands could not be broadcast together: "
                     "where= of shape " + mask.shape().str() + " and the array of shape " +
                     a.shape().str());
  }
}

// A Python-level count (keepdims shape) seen at the shape of `ret`.
Operand count_like(const Operand& count, const Array& ret) {
  if (!count.is_array()) return count;
  return Operand(count.array().reshape(ret.shape()));
}

void divide_in_place(const Array& ret, const Operand& by) {
  UfuncOptions options;
  options.out = {ret};
  options.casting = Casting::Unsafe;
  const Operand args[2] = {ret, by};
  apply_ufunc(Ufunc::Divide, args, options);
}

std::optional<DType> float_for_integers(const Array& a, std::optional<DType> dtype) {
  if (dtype || !(a.dtype() == DType::Bool || is_integer(a.dtype()))) return dtype;
  return DType::Float64;
}

}  // namespace

Array mean(const Array& a, const ReduceOptions& o) {
  ReduceOptions sum = o;
  sum.dtype = float_for_integers(a, o.dtype);
  const bool half_result = !o.dtype && a.dtype() == DType::Float16;
  if (half_result) sum.dtype = DType::Float32;
  const Operand count = count_items(a, o, "mean");
  Array ret = reduce(Ufunc::Add, a, sum, "mean");
  divide_in_place(ret, count_like(count, ret));
  if (half_result && !o.out) return ret.astype(DType::Float16);
  return ret;
}

Array var(const Array& a, const ReduceOptions& o, double ddof, const std::optional<Array>& mean) {
  const std::optional<DType> dtype = float_for_integers(a, o.dtype);
  ReduceOptions mean_options;
  mean_options.axis = o.axis;
  mean_options.dtype = dtype;
  mean_options.keepdims = true;
  mean_options.where = o.where;
  const Operand count = count_items(a, o, "var");
  Array arrmean;
  if (mean) {
    arrmean = *mean;
  } else {
    arrmean = reduce(Ufunc::Add, a, mean_options, "var");
    divide_in_place(arrmean, count);
  }
  // The squared deviations stay pending, so the second sum reads `a` once more and nothing
  // else: two passes over memory in all.
  Array deviation = subtract(a, arrmean);
  Array squares;
  if (is_complex(deviation.dtype())) {
    const Array re = deviation.real(), im = deviation.imag();
    squares = add(multiply(re, re), multiply(im, im));
  } else {
    squares = multiply(deviation, deviation);
  }
  ReduceOptions sum = o;
  sum.dtype = dtype;
  Array ret = reduce(Ufunc::Add, squares, sum, "var");
  Operand dof = count.is_array()
                    ? Operand(maximum(subtract(count.array(), Operand::weak_float(ddof)),
                                      Operand::weak_int(Scalar(int64_t{0}))))
                    : Operand::scalar(Scalar(std::max(count.value().to_double() - ddof, 0.0)));
  divide_in_place(ret, count_like(dof, ret));
  return ret;
}

Array std_dev(const Array& a, const ReduceOptions& o, double ddof,
              const std::optional<Array>& mean) {
  Array ret = var(a, o, ddof, mean);
  UfuncOptions in_place;
  in_place.out = {ret};
  in_place.casting = Casting::Unsafe;
  const Operand arg[1] = {ret};
  apply_ufunc(Ufunc::Sqrt, arg, in_place);
  return ret;
}

namespace {

Array arg_extreme(bool max, const Array& a, std::optional<int64_t> axis, bool keepdims,
                  const std::optional<Array>& out) {
  const char* api = max ? "argmax" : "argmin";
  Array x = a;
  int ax = 0;
  if (axis && a.ndim() == 0 && (*axis == 0 || *axis == -1)) {
    axis.reset();  // NumPy lets a 0-d array take axis 0 or -1: its only element
    keepdims = false;
  }
  if (axis) {
    ax = normalize_axis(*axis, a.ndim(), api);
  } else if (a.ndim() != 1) {
    x = a.reshape(Dims{a.size()});
  }
  const int64_t n = x.shape()[ax];
  if (n == 0) {
    throw ValueError(std::string("[") + api + "] attempt to get " + api +
                     " of an empty sequence");
  }
  Dims kept_shape = x.shape();
  kept_shape[ax] = 1;
  Dims out_shape;
  if (!axis) {
    if (keepdims) {
      for (int i = 0; i < a.ndim(); ++i) out_shape.push_back(1);
    }
  } else {
    for (int i = 0; i < a.ndim(); ++i) {
      if (i != ax) out_shape.push_back(a.shape()[i]);
      else if (keepdims) out_shape.push_back(1);
    }
  }
  if (out) {
    check_out(*out, out_shape, a.device(), api, api);
    // NumPy's check, which reads backwards but is what it does: out's dtype must cast
    // safely to intp (so int8 passes, uint64 and float64 do not).
    if (!can_cast(out->dtype(), DType::Int64, Casting::Safe)) {
      throw TypeError(std::string("[") + api + "] Cannot cast out= of " +
                      dtype_repr(out->dtype()) + " to dtype('int64') according to the rule "
                      "'safe'");
    }
  }
  Array index = Array::empty(kept_shape, DType::Int64, a.device());
  if (n == 1 || index.size() == 0) {
    index.fill(Scalar(int64_t{0}));
  } else {
    backend_for(a.device()).arg_reduce(*values_tree(x, x.dtype()), max,
                                       index.broadcast_to(x.shape()));
    report_fp_events();
  }
  return deliver(index.reshape(out_shape), out, api);
}

}  // namespace

Array argmax(const Array& a, std::optional<int64_t> axis, bool keepdims,
             const std::optional<Array>& out) {
  return arg_extreme(true, a, axis, keepdims, out);
}

Array argmin(const Array& a, std::optional<int64_t> axis, bool keepdims,
             const std::optional<Array>& out) {
  return arg_extreme(false, a, axis, keepdims, out);
}

}  // namespace tessera
