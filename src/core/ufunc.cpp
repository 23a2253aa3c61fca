// Applying a ufunc: check devices and shapes, resolve the loop, build the expression, and
// either return it pending or, with out=, evaluate it into the destination now.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>

#include "backend/backend.h"
#include "core/fp_events.h"
#include "core/keep_order.h"
#include "core/pending.h"
#include "core/ufunc_resolve.h"
#include "core/user_ufunc.h"
#include "tessera/errors.h"

namespace tessera {
namespace {

Dims result_strides(const Dims& shape, DType dtype, Order order,
                    const std::vector<Array>& inputs) {
  const int64_t isize = itemsize(dtype);
  const int nd = shape.size();
  if (order == Order::A) {
    bool all_f = !inputs.empty();
    for (const Array& a : inputs) all_f &= a.is_f_contiguous() && !a.is_c_contiguous();
    order = all_f ? Order::F : Order::C;
  }
  if (order == Order::C || order == Order::F || nd <= 1) {
    return contiguous_strides(shape, isize, order == Order::F ? Order::F : Order::C);
  }
  std::vector<const Dims*> strides;
  for (const Array& a : inputs) strides.push_back(&a.strides());
  std::vector<int> axes = keep_order_axes(nd, strides);
  Dims out(nd, 0);
  int64_t step = isize;
  for (int i = nd - 1; i >= 0; --i) {
    out[axes[i]] = step;
    step *= std::max<int64_t>(shape[axes[i]], 1);
  }
  return out;
}

struct Arg {
  expr::NodePtr node;
  std::optional<Array> source;  // the array whose pending tree was inlined, if any
};

// A scalar operand as the loop's dtype. A finite float too large for a float32 or float16
// loop becomes inf, which NumPy reports as an overflow in cast.
Scalar convert_scalar(const Scalar& v, DType as) {
  Scalar converted = v.cast(as);
  if (is_floating(as) && std::isfinite(v.to_double()) && std::isinf(converted.to_double())) {
    record_fp_errors("cast", fp_bit(FpError::Overflow), fp_modes());
  }
  return converted;
}

Arg make_arg(const Operand& o, DType as, const Dims& shape) {
  if (!o.is_array()) return {expr::constant(convert_scalar(o.value(), as)), std::nullopt};
  if (expr::NodePtr tree = pending_tree(o.array(), shape)) {
    return {expr::cast(tree, as), o.array()};
  }
  return {expr::input(o.array().broadcast_to(shape), as), std::nullopt};
}

// Keeps trees under the caps: the biggest inlined input is evaluated into its own buffer
// and read from there instead.
std::vector<expr::NodePtr> fit_caps(std::vector<Arg>& args, const Dims& shape) {
  for (;;) {
    int size = 1, depth = 1, inputs = 0;
    for (const Arg& a : args) {
      size += a.node->size;
      depth = std::max(depth, a.node->depth + 1);
      inputs += a.node->inputs;
    }
    if (size <= expr::kMaxNodes && depth <= expr::kMaxDepth && inputs <= expr::kMaxInputs) break;
    Arg* biggest = nullptr;
    for (Arg& a : args) {
      if (a.source && (!biggest || a.node->size > biggest->node->size)) biggest = &a;
    }
    if (!biggest) break;
    biggest->source->data();
    biggest->node = expr::input(biggest->source->broadcast_to(shape), biggest->node->dtype);
    biggest->source.reset();
  }
  std::vector<expr::NodePtr> nodes;
  for (const Arg& a : args) nodes.push_back(a.node);
  return nodes;
}

expr::NodePtr make_op(Ufunc op, int loop, int output, std::vector<Arg>& args,
                      const Dims& shape) {
  return expr::op(op, loop, output, fit_caps(args, shape));
}

void check_negative_powers(Ufunc op, const Operand& exponent, DType loop_dtype) {
  if (op != Ufunc::Power || !is_integer(loop_dtype) ||
      dtype_info(loop_dtype).category != DTypeKind::SignedInt) {
    return;
  }
  bool negative = false;
  if (exponent.is_array()) {
    const Array& e = exponent.array();
    if (e.dtype() == DType::Bool || dtype_info(e.dtype()).category == DTypeKind::UnsignedInt) {
      return;
    }
    std::vector<int64_t> host(e.size());
    e.astype(DType::Int64, Order::C).copy_to_host(host.data());
    negative = std::any_of(host.begin(), host.end(), [](int64_t v) { return v < 0; });
  } else {
    negative = exponent.value().cast(loop_dtype).to_int64() < 0;
  }
  if (negative) {
    throw ValueError(ufunc_prefix(op) + "Integers to negative integer powers are not allowed.");
  }
}

// One loop call over `shape`'s elements into a new C-contiguous array.
Array run_direct(Ufunc op, int loop, std::span<const void* const> in,
                 std::span<const bool> broadcast, const Dims& shape, Device device) {
  const DType dtype = ufunc_info(op).loops[loop].out[0];
  const int64_t size = shape.product();
  Array out(Buffer::allocate(device, size * itemsize(dtype)), dtype, shape,
            contiguous_strides(shape, itemsize(dtype), Order::C), 0);
  backend_for(device).run_loop(op, loop, in, broadcast, out.data(), size);
  report_fp_events();
  return out;
}

// The bytes from one row (the last axis) of `a` to the next, when its rows are contiguous
// and evenly spaced (a C-contiguous array, or a slice of one such as x[1:-1, :-2]); 0 when
// they are not.
int64_t row_stride(const Array& a) {
  const int nd = a.ndim();
  if (nd == 0) return 0;
  if (a.shape()[nd - 1] > 1 && a.strides()[nd - 1] != a.itemsize()) return 0;
  if (nd == 1) return a.shape()[0] * a.itemsize();
  // The outer axes must merge into one: each steps over the next one's whole extent.
  for (int d = 0; d < nd - 2; ++d) {
    if (a.shape()[d] > 1 && a.strides()[d] != a.strides()[d + 1] * a.shape()[d + 1]) return 0;
  }
  return a.strides()[nd - 2];
}

// The small-array path: materialized inputs of the loop's dtypes and one shape, each
// C-contiguous or made of evenly spaced contiguous rows (or scalars), no options. One loop
// call per row into a new array; no tree, no pending buffer.
std::optional<Array> try_direct(Ufunc op, int loop, std::span<const Operand> inputs,
                                const Dims& shape, Device device) {
  const LoopSignature& sig = ufunc_info(op).loops[loop];
  const int64_t size = shape.product();
  if (size == 0 || size >= lazy_min_elements()) return std::nullopt;
  const void* in[3];
  bool broadcast[3];
  int64_t row_strides[3] = {};
  bool contiguous = true;
  Scalar converted[3];
  for (size_t k = 0; k < inputs.size(); ++k) {
    const Operand& o = inputs[k];
    broadcast[k] = !o.is_array();
    if (broadcast[k]) {
      converted[k] = convert_scalar(o.value(), sig.in[k]);
      in[k] = converted[k].data();
      continue;
    }
    const Array& a = o.array();
    if (a.dtype() != sig.in[k] || a.buffer()->is_pending()) return std::nullopt;
    if (a.shape() != shape) {
      // One element of host memory, with no more axes than the result: a scalar.
      if (a.size() != 1 || a.ndim() > static_cast<int>(shape.size()) || !device.is_cpu()) {
        return std::nullopt;
      }
      broadcast[k] = true;
      in[k] = a.data();
      continue;
    }
    if (!a.is_c_contiguous()) {
      contiguous = false;
      row_strides[k] = row_stride(a);
      if (row_strides[k] == 0) return std::nullopt;
    } else if (shape.size() > 0) {
      row_strides[k] = shape.back() * a.itemsize();
    }
    in[k] = a.data();
  }
  if (contiguous) {
    return run_direct(op, loop, {in, inputs.size()}, {broadcast, inputs.size()}, shape, device);
  }
  std::optional<Array> out = backend_for(device).run_loop_rows(
      op, loop, {in, inputs.size()}, {broadcast, inputs.size()}, {row_strides, inputs.size()},
      shape);
  if (out) report_fp_events();
  return out;
}

// The loop NumPy runs for arrays of these dtypes (no scalars, no options), cached per op and
// dtypes, since then the answer depends on nothing else: kNoLoop where apply_ufunc must
// decide (it raises, or the op checks values, as integer power does).
constexpr int kNoLoop = -1;

// The loop resolve_loop picks for the operands `make()` builds, remembered in `entry` as
// loop + 2: zero means not yet resolved, 1 means kNoLoop.
template <typename MakeOperands>
int remembered_loop(std::atomic<int16_t>& entry, Ufunc op, MakeOperands make) {
  if (const int16_t known = entry.load(std::memory_order_relaxed)) return known - 2;
  int loop = kNoLoop;
  try {
    const std::vector<Operand> operands = make();
    const int resolved = resolve_loop(op, operands, {});
    const bool checks_values =
        op == Ufunc::Power && is_integer(ufunc_info(op).loops[resolved].in[1]);
    if (!checks_values) loop = resolved;
  } catch (const std::exception&) {
    // apply_ufunc raises it again, with the caller's arguments in hand.
  }
  entry.store(static_cast<int16_t>(loop + 2), std::memory_order_relaxed);
  return loop;
}

int cached_array_loop(Ufunc op, std::span<const Array* const> inputs) {
  static std::atomic<int16_t> cache[kNumUfuncs][kNumDTypes][kNumDTypes];
  const int first = static_cast<int>(inputs[0]->dtype());
  const int second = inputs.size() > 1 ? static_cast<int>(inputs[1]->dtype()) : 0;
  return remembered_loop(cache[static_cast<int>(op)][first][second], op, [&] {
    std::vector<Operand> operands;
    for (const Array* a : inputs) operands.emplace_back(*a);
    return operands;
  });
}

// The loop for an array of `dtype` and a Python number of `kind` (`scalar_first`: on the
// left), cached as cached_array_loop's; kNoLoop where apply_ufunc must decide.
int cached_number_loop(Ufunc op, DType dtype, Operand::Kind kind, bool scalar_first) {
  static std::atomic<int16_t> cache[kNumUfuncs][kNumDTypes][3][2];
  const int k = kind == Operand::Kind::WeakFloat ? 0 : kind == Operand::Kind::WeakComplex ? 1 : 2;
  return remembered_loop(cache[static_cast<int>(op)][static_cast<int>(dtype)][k][scalar_first], op,
                         [&] {
    const Operand number = k == 0   ? Operand::weak_float(1.0)
                           : k == 1 ? Operand::weak_complex({1.0, 0.0})
                                    : Operand::weak_int(Scalar(int64_t{1}));
    const Operand array(Array::empty(Dims{1}, dtype, Device::cpu()));
    return scalar_first ? std::vector<Operand>{number, array} : std::vector<Operand>{array, number};
  });
}

}  // namespace

std::optional<Array> apply_ufunc_small(Ufunc op, const Array& array, const Operand& number,
                                       bool scalar_first) {
  const UfuncInfo& info = ufunc_info(op);
  if (info.nout != 1 || info.nin != 2) return std::nullopt;
  const Operand::Kind kind = number.kind();
  const bool small_int = kind == Operand::Kind::WeakInt && !number.is_huge_int() &&
                         number.value().dtype() == DType::Int64 &&
                         number.value().to_int64() >= 0 && number.value().to_int64() <= 127;
  if (kind != Operand::Kind::WeakFloat && kind != Operand::Kind::WeakComplex && !small_int) {
    return std::nullopt;
  }
  const int64_t size = array.size();
  if (size == 0 || size >= lazy_min_elements() || array.buffer()->is_pending() ||
      !array.is_c_contiguous()) {
    return std::nullopt;
  }
  const int loop = cached_number_loop(op, array.dtype(), kind, scalar_first);
  if (loop == kNoLoop) return std::nullopt;
  const int a = scalar_first ? 1 : 0;
  if (array.dtype() != info.loops[loop].in[a]) return std::nullopt;  // the loop casts
  const Operand inputs[2] = {scalar_first ? number : Operand(array),
                             scalar_first ? Operand(array) : number};
  return try_direct(op, loop, inputs, array.shape(), array.device());
}

std::optional<Array> apply_ufunc_small(Ufunc op, std::span<const Array* const> inputs) {
  const UfuncInfo& info = ufunc_info(op);
  if (info.nout != 1 || static_cast<int>(inputs.size()) != info.nin || info.nin > 2) {
    return std::nullopt;
  }
  const Array& first = *inputs[0];
  const int64_t size = first.size();
  if (size == 0 || size >= lazy_min_elements()) return std::nullopt;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const Array& a = *inputs[k];
    if ((k > 0 && (a.shape() != first.shape() || a.device() != first.device())) ||
        a.buffer()->is_pending() || !a.is_c_contiguous()) {
      return std::nullopt;
    }
  }
  const int loop = cached_array_loop(op, inputs);
  if (loop == kNoLoop) return std::nullopt;
  const LoopSignature& sig = info.loops[loop];
  const void* in[2];
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (inputs[k]->dtype() != sig.in[k]) return std::nullopt;  // the loop casts: a tree does
    in[k] = inputs[k]->data();
  }
  const bool broadcast[2] = {false, false};
  return run_direct(op, loop, {in, inputs.size()}, {broadcast, inputs.size()}, first.shape(),
                    first.device());
}

namespace {

// apply_ufunc, with the floating-point errors of what it computed still to report.
std::vector<Array> apply_ufunc_evaluated(Ufunc op, std::span<const Operand> inputs,
                                         const UfuncOptions& options) {
  const UfuncInfo& info = ufunc_info(op);
  if (static_cast<int>(inputs.size()) != info.nin) {
    throw TypeError(ufunc_prefix(op) + std::string(info.name) + "() takes " + std::to_string(info.nin) +
                    " input(s), got " + std::to_string(inputs.size()));
  }
  const bool any_out = std::any_of(options.out.begin(), options.out.end(),
                                   [](const auto& o) { return o.has_value(); });

  // Small arrays of one shape on one device, no options: straight to the loop. The loop
  // is resolved (and checked) once, here or below.
  std::optional<int> resolved;
  if (info.nout == 1 && !any_out && !options.where &&
      (options.order == Order::K || options.order == Order::C)) {
    // One shape: that of the arrays with the most axes. One-element arrays with no more
    // axes (a 0-d array, a mean kept as (1,)) join as scalars on the CPU, in try_direct.
    const Array* first = nullptr;
    for (const Operand& o : inputs) {
      if (!o.is_array()) continue;
      const Array& a = o.array();
      if (!first || a.ndim() > first->ndim() || (a.ndim() == first->ndim() && a.size() != 1)) {
        first = &a;
      }
    }
    bool uniform = true;
    for (const Operand& o : inputs) {
      if (!o.is_array()) continue;
      const Array& a = o.array();
      uniform &= a.device() == first->device() &&
                 (a.shape() == first->shape() || (a.size() == 1 && a.device().is_cpu()));
    }
    if (uniform) {
      const int loop = resolve_loop(op, inputs, options);
      if (info.nin == 2) check_negative_powers(op, inputs[1], info.loops[loop].in[1]);
      resolved = loop;
      const Dims shape = first ? first->shape() : Dims{};
      const Device dev = first ? first->device() : current_device();
      if (!out_of_range_comparison(op, inputs, loop)) {
        if (std::optional<Array> direct = try_direct(op, loop, inputs, shape, dev)) {
          return {std::move(*direct)};
        }
      }
    }
  }

  const std::string prefix = ufunc_prefix(op);
  std::vector<std::optional<Array>> outs = options.out;
  outs.resize(info.nout);

  // Devices: every array on one device.
  std::optional<Device> device;
  auto check_device = [&](const Array& a) {
    if (!device) device = a.device();
    if (a.device() != *device) {
      throw ValueError(prefix + "arrays are on different devices: " + device->str() + " and " +
                       a.device().str());
    }
  };
  std::vector<Array> arrays;
  std::vector<Dims> shapes;
  for (const Operand& o : inputs) {
    if (o.is_array()) {
      check_device(o.array());
      arrays.push_back(o.array());
      shapes.push_back(o.array().shape());
    }
  }
  if (options.where) {
    if (options.where->dtype() != DType::Bool) {
      throw TypeError(prefix + "Cannot cast array data from " + dtype_repr(options.where->dtype()) +
                      " to dtype('bool') according to the rule 'safe' (where= must be boolean)");
    }
    if (options.where->is_array()) {
      check_device(options.where->array());
      shapes.push_back(options.where->array().shape());
    }
  }
  for (const auto& out : outs) {
    if (out) {
      check_device(*out);
      shapes.push_back(out->shape());
    }
  }
  const Device dev = device.value_or(current_device());

  const int loop = resolved ? *resolved : resolve_loop(op, inputs, options);
  const LoopSignature& sig = info.loops[loop];
  const Dims shape = broadcast_shapes(shapes, info.name.data());
  for (const auto& out : outs) {
    if (out && out->shape() != shape) {
      throw ValueError(prefix + "non-broadcastable output operand with shape " +
                       out->shape().str() + " doesn't match the broadcast shape " + shape.str());
    }
  }
  for (int j = 0; j < info.nout; ++j) {
    if (outs[j] && !can_cast(sig.out[j], outs[j]->dtype(), options.casting)) {
      throw TypeError(prefix + "Cannot cast ufunc '" + std::string(info.name) + "' output from " +
                      dtype_repr(sig.out[j]) + " to " + dtype_repr(outs[j]->dtype()) +
                      " with casting rule '" + casting_name(options.casting) + "'");
    }
  }
  if (info.nin == 2 && !resolved) check_negative_powers(op, inputs[1], sig.in[1]);

  // The expression: one node per output. A result that will stay pending keeps where it
  // was asked for, for errors reported when it is computed.
  const bool given_out = std::any_of(outs.begin(), outs.end(), [](auto& o) { return o.has_value(); });
  const bool one_new_result = !given_out && !options.where && info.nout == 1;
  const bool stays_pending = one_new_result && shape.product() > 0 &&
                             shape.product() >= lazy_min_elements() && !fp_modes().acts_at_once();
  std::optional<PendingOriginScope> origin;
  if (stays_pending) origin.emplace();
  std::vector<expr::NodePtr> roots;
  if (std::optional<bool> same = out_of_range_comparison(op, inputs, loop)) {
    roots.push_back(expr::constant(Scalar(*same)));
  } else {
    std::vector<Arg> args;
    for (int k = 0; k < info.nin; ++k) args.push_back(make_arg(inputs[k], sig.in[k], shape));
    for (int j = 0; j < info.nout; ++j) roots.push_back(make_op(op, loop, j, args, shape));
  }

  if (one_new_result) {
    const int64_t size = shape.product();
    if (size == 0) return {Array::empty(shape, roots[0]->dtype, dev)};
    Dims strides = result_strides(shape, roots[0]->dtype, options.order, arrays);
    if (stays_pending) return {make_pending(roots[0], shape, strides, dev)};
    Array out(Buffer::allocate(dev, size * itemsize(roots[0]->dtype)), roots[0]->dtype, shape,
              strides, 0);
    backend_for(dev).eval_expr(*roots[0], {&out, 1});
    return {out};
  }

  // Evaluated now: into out= arrays, or new ones.
  std::vector<Array> results;
  for (int j = 0; j < info.nout; ++j) {
    if (outs[j]) {
      outs[j]->require_writeable(info.name.data());
      results.push_back(*outs[j]);
    } else {
      Dims strides = result_strides(shape, sig.out[j], options.order, arrays);
      auto buffer = Buffer::allocate(dev, shape.product() * itemsize(sig.out[j]));
      results.emplace_back(buffer, sig.out[j], shape, strides, 0);
    }
  }
  if (shape.product() == 0) return results;
  if (info.nout == 2) {
    const bool same_dtypes = results[0].dtype() == sig.out[0] && results[1].dtype() == sig.out[1];
    if (!options.where && same_dtypes) {
      evaluate_into(roots[0], results);
      return results;
    }
    // Two outputs with where= or conversions: each output from its own tree.
  }
  for (int j = 0; j < info.nout; ++j) {
    const Array& out = results[j];
    expr::NodePtr root = expr::cast(roots[j], out.dtype(), op);
    if (options.where) {
      Arg mask = make_arg(*options.where, DType::Bool, shape);
      root = expr::op(Ufunc::Where, where_loop(out.dtype()), 0,
                      {mask.node, root, expr::input(out, out.dtype())});
    }
    evaluate_into(root, {&out, 1});
  }
  return results;
}

}  // namespace

std::vector<Array> apply_ufunc(Ufunc op, std::span<const Operand> inputs,
                               const UfuncOptions& options) {
  std::vector<Array> results = apply_ufunc_evaluated(op, inputs, options);
  report_fp_events();
  return results;
}

Array where(const Operand& cond, const Operand& x, const Operand& y) {
  Operand values[2] = {x, y};
  const DType dtype = result_type(values);
  std::vector<Dims> shapes;
  std::optional<Device> device;
  std::vector<Array> arrays;
  for (const Operand* o : {&cond, &x, &y}) {
    if (!o->is_array()) continue;
    if (device && o->array().device() != *device) {
      throw ValueError("[where] arrays are on different devices: " + device->str() + " and " +
                       o->array().device().str());
    }
    device = o->array().device();
    shapes.push_back(o->array().shape());
    arrays.push_back(o->array());
  }
  const Dims shape = broadcast_shapes(shapes, "where");
  const Device dev = device.value_or(current_device());
  if (shape.product() == 0) return Array::empty(shape, dtype, dev);
  const int loop = where_loop(dtype);
  // A small where(t > 1, t, 0) of arrays of the loop's dtypes: its loop, at once.
  if (shape.product() < lazy_min_elements()) {
    const Operand inputs[3] = {cond, x, y};
    if (std::optional<Array> direct = try_direct(Ufunc::Where, loop, inputs, shape, dev)) {
      return std::move(*direct);
    }
  }
  // Casting to bool is truthiness, as NumPy reads a non-bool condition.
  PendingOriginScope origin;
  std::vector<Arg> args = {make_arg(cond, DType::Bool, shape), make_arg(x, dtype, shape),
                           make_arg(y, dtype, shape)};
  expr::NodePtr root = make_op(Ufunc::Where, loop, 0, args, shape);
  return make_pending(root, shape, result_strides(shape, dtype, Order::K, arrays), dev);
}

Array apply_user_function(const expr::UserFunctionPtr& f, std::span<const Operand> inputs) {
  const std::string name = "[" + f->name + "] ";
  if (inputs.size() != f->in.size()) {
    throw TypeError(name + "takes " + std::to_string(f->in.size()) + " arguments, " +
                    std::to_string(inputs.size()) + " given");
  }
  std::vector<Dims> shapes;
  std::vector<Array> arrays;
  std::optional<Device> device;
  for (const Operand& o : inputs) {
    if (!o.is_array()) continue;
    if (device && o.array().device() != *device) {
      throw ValueError(name + "operands on different devices: " + device->str() + " and " +
                       o.array().device().str());
    }
    device = o.array().device();
    shapes.push_back(o.array().shape());
    arrays.push_back(o.array());
  }
  if (!device) throw TypeError(name + "needs at least one array operand to run lazily");
  const Dims shape = broadcast_shapes(shapes, f->name.c_str());
  if (shape.product() == 0) return Array::empty(shape, f->out, *device);
  PendingOriginScope origin;
  std::vector<Arg> args;
  for (size_t k = 0; k < inputs.size(); ++k) args.push_back(make_arg(inputs[k], f->in[k], shape));
  expr::NodePtr root = expr::user(f, fit_caps(args, shape));
  return make_pending(root, shape, result_strides(shape, f->out, Order::K, arrays), *device);
}

Array astype(const Array& a, DType dtype, Casting casting, bool copy, Order order) {
  if (!can_cast(a.dtype(), dtype, casting)) {
    throw TypeError("[astype] Cannot cast array data from " + dtype_repr(a.dtype()) + " to " +
                    dtype_repr(dtype) + " according to the rule '" + casting_name(casting) + "'");
  }
  const bool layout_ok = order == Order::K || order == Order::A ||
                         (order == Order::C ? a.is_c_contiguous() : a.is_f_contiguous());
  if (!copy && dtype == a.dtype() && layout_ok) return a;
  return a.astype(dtype, order);
}

void evaluate(const Array& a) { a.data(); }

namespace {
// Below this many elements a result is computed at once: fusing saves memory traffic,
// which small arrays do not have, and a pending tree costs more than the work.
std::atomic<int64_t> lazy_min = 4096;
}  // namespace

int64_t lazy_min_elements() { return lazy_min.load(std::memory_order_relaxed); }
void set_lazy_min_elements(int64_t n) { lazy_min.store(n, std::memory_order_relaxed); }

}  // namespace tessera
