#include "core/ufunc_resolve.h"

#include <atomic>
#include <cmath>
#include <limits>

#include "core/promotion.h"
#include "tessera/errors.h"

namespace tessera {
namespace {

bool is_comparison(Ufunc op) {
  return op == Ufunc::Equal || op == Ufunc::NotEqual || op == Ufunc::Less ||
         op == Ufunc::LessEqual || op == Ufunc::Greater || op == Ufunc::GreaterEqual;
}

bool bool_or_int(DType t) { return t == DType::Bool || is_integer(t); }

// -1 below the range of integer dtype `t`, +1 above, 0 inside.
int range_position(const Operand& o, DType t) {
  const Scalar& v = o.value();
  if (o.is_huge_int()) return v.to_double() < 0 ? -1 : 1;
  const bool is_unsigned = v.dtype() == DType::UInt64;
  const uint64_t u = v.get<uint64_t>();
  const int64_t i = v.get<int64_t>();
  auto limits = [](auto x) {
    using T = decltype(x);
    return std::pair<int64_t, uint64_t>{std::numeric_limits<T>::min(),
                                        std::numeric_limits<T>::max()};
  };
  std::pair<int64_t, uint64_t> lim;
  switch (t) {
    case DType::Int8: lim = limits(int8_t{}); break;
    case DType::Int16: lim = limits(int16_t{}); break;
    case DType::Int32: lim = limits(int32_t{}); break;
    case DType::Int64: lim = limits(int64_t{}); break;
    case DType::UInt8: lim = limits(uint8_t{}); break;
    case DType::UInt16: lim = limits(uint16_t{}); break;
    case DType::UInt32: lim = limits(uint32_t{}); break;
    case DType::UInt64: lim = limits(uint64_t{}); break;
    default: return 0;
  }
  if (is_unsigned) return u > lim.second ? 1 : 0;
  if (i < lim.first) return -1;
  return i >= 0 && static_cast<uint64_t>(i) > lim.second ? 1 : 0;
}

long double python_int_value(const Operand& o) {
  const Scalar& v = o.value();
  if (o.is_huge_int()) return v.to_double();
  return v.dtype() == DType::UInt64 ? static_cast<long double>(v.get<uint64_t>())
                                    : static_cast<long double>(v.get<int64_t>());
}

std::string python_int_text(const Operand& o) {
  const Scalar& v = o.value();
  if (o.is_huge_int()) return std::to_string(v.to_double());
  return v.dtype() == DType::UInt64 ? std::to_string(v.get<uint64_t>())
                                    : std::to_string(v.get<int64_t>());
}

// The loop chosen for (ufunc, input dtypes), or -1 while unknown.
struct LoopMemo {
  std::atomic<int16_t> loop[kNumUfuncs][kNumDTypes][kNumDTypes];
  LoopMemo() {
    for (auto& per_op : loop)
      for (auto& row : per_op)
        for (auto& entry : row) entry.store(-1);
  }
};

LoopMemo& loop_memo() {
  static LoopMemo memo;
  return memo;
}

[[noreturn]] void no_loop(Ufunc op) {
  throw TypeError(ufunc_prefix(op) + "ufunc '" + std::string(ufunc_info(op).name) +
                  "' not supported for the input types, and the inputs could not be safely "
                  "coerced to any supported types according to the casting rule ''safe''");
}

}  // namespace

std::string ufunc_prefix(Ufunc op) { return "[" + std::string(ufunc_info(op).name) + "] "; }

std::string dtype_repr(DType t) { return "dtype('" + std::string(dtype_name(t)) + "')"; }

const char* casting_name(Casting c) {
  switch (c) {
    case Casting::No: return "no";
    case Casting::Equiv: return "equiv";
    case Casting::Safe: return "safe";
    case Casting::SameKind: return "same_kind";
    case Casting::Unsafe: return "unsafe";
  }
  return "?";
}

int resolve_loop(Ufunc op, std::span<const Operand> inputs, const UfuncOptions& options) {
  const UfuncInfo& info = ufunc_info(op);
  const std::optional<DType> strong = strong_dtype(inputs);
  DType dtypes[3] = {};
  bool beyond_int64[3] = {};
  bool all_bool = true, all_int = true;
  for (int k = 0; k < info.nin; ++k) {
    const Operand& in = inputs[k];
    if (in.kind() == Operand::Kind::WeakInt && (!strong || *strong == DType::Bool)) {
      // A Python int that becomes an array of its own: int64, or uint64 above int64's
      // range when it is alone; beyond that NumPy makes an object array, whose loop calls
      // the int's own method (TypeError for sin, exp, sqrt ...: int has none). tessera has
      // no object dtype, so every such call is that TypeError.
      if (info.nin == 1 && in.is_huge_int()) {
        throw TypeError(ufunc_prefix(op) + "loop of ufunc does not support argument 0 of type "
                        "int which has no callable " + std::string(info.name) + " method (a "
                        "Python int beyond int64 and uint64 needs NumPy's object dtype, which "
                        "tessera does not have)");
      }
      // Next to others NumPy picks the loop as if every Python int were int64; one that is
      // not reaches a float loop as a float, and an integer loop not at all (checked below).
      beyond_int64[k] = in.is_huge_int() || (in.value().dtype() == DType::UInt64 &&
                                             (strong || info.nin > 1));
      dtypes[k] = beyond_int64[k] ? DType::Int64 : in.value().dtype();
    } else {
      dtypes[k] = in.is_weak() ? weak_scalar_dtype(in.kind(), strong) : in.dtype();
    }
    all_bool &= dtypes[k] == DType::Bool;
    all_int &= bool_or_int(dtypes[k]);
  }
  if (all_bool && !options.dtype && op == Ufunc::Subtract) {
    throw TypeError(ufunc_prefix(op) +
                    "numpy boolean subtract, the `-` operator, is not supported, use the "
                    "bitwise_xor, the `^` operator, or the logical_xor function instead.");
  }
  if (all_bool && !options.dtype && op == Ufunc::Negative) {
    throw TypeError(ufunc_prefix(op) +
                    "The numpy boolean negative, the `-` operator, is not supported, use the "
                    "`~` operator or the logical_not function instead.");
  }
  // These run only on the promoted input dtype itself (NumPy's uniform-operation
  // resolver): bool finds no loop rather than being cast to int8.
  if (all_bool && !options.dtype &&
      (op == Ufunc::Positive || op == Ufunc::Sign || op == Ufunc::Gcd || op == Ufunc::Lcm)) {
    throw TypeError(ufunc_prefix(op) + "ufunc '" + std::string(info.name) +
                    "' did not contain a loop with signature matching types (bool) -> None");
  }
  // ldexp's loops mix types, and NumPy matches Python ints against them by kind: as a
  // mantissa an int fits the smallest float, as an exponent the int32 loops (its value is
  // checked against int32 below).
  if (op == Ufunc::Ldexp && strong && *strong != DType::Bool) {
    if (inputs[0].kind() == Operand::Kind::WeakInt && is_integer(*strong)) {
      dtypes[0] = DType::Float16;
    }
    if (inputs[1].kind() == Operand::Kind::WeakInt) dtypes[1] = DType::Int32;
  }
  // Logical ops read Python numbers by truthiness: the bool loop, whatever the other dtype.
  const bool logical = op == Ufunc::LogicalAnd || op == Ufunc::LogicalOr || op == Ufunc::LogicalXor;
  if (logical && !options.dtype) {
    bool any_weak = false;
    for (int k = 0; k < info.nin; ++k) {
      any_weak |= inputs[k].is_weak();
      // NumPy converts the Python int itself, as int64, whatever the other operand is.
      if (inputs[k].kind() == Operand::Kind::WeakInt &&
          (inputs[k].is_huge_int() || inputs[k].value().dtype() == DType::UInt64)) {
        throw OverflowError(ufunc_prefix(op) + "Python int too large to convert to C long");
      }
    }
    if (any_weak) return 0;
  }
  // True division of integers computes in float64, whatever their size.
  if (all_int && op == Ufunc::Divide && !options.dtype) {
    for (int k = 0; k < info.nin; ++k) dtypes[k] = DType::Float64;
  }

  // dtype= fixes the output dtype: the first such loop the inputs reach safely; failing
  // that, the first such loop, if its inputs pass the casting= rule.
  const Casting input_casting = std::min(options.casting, Casting::Safe);
  auto inputs_fit = [&](const LoopSignature& loop, Casting casting) {
    for (int k = 0; k < info.nin; ++k) {
      if (!can_cast(dtypes[k], loop.in[k], casting)) return false;
    }
    return true;
  };
  // The common case (no dtype=, safe input casting, at most two inputs) is remembered.
  std::atomic<int16_t>* memo = nullptr;
  if (!options.dtype && input_casting == Casting::Safe && info.nin <= 2) {
    memo = &loop_memo().loop[static_cast<int>(op)][static_cast<int>(dtypes[0])]
                       [static_cast<int>(info.nin == 2 ? dtypes[1] : DType::Bool)];
  }
  int chosen = memo ? memo->load(std::memory_order_relaxed) : -1;
  for (size_t i = 0; i < info.loops.size() && chosen < 0; ++i) {
    const LoopSignature& loop = info.loops[i];
    if (options.dtype && loop.out[0] != *options.dtype) continue;
    if (inputs_fit(loop, input_casting)) chosen = static_cast<int>(i);
  }
  if (memo && chosen >= 0) memo->store(static_cast<int16_t>(chosen), std::memory_order_relaxed);
  if (chosen < 0 && options.dtype) {
    for (size_t i = 0; i < info.loops.size() && chosen < 0; ++i) {
      if (info.loops[i].out[0] == *options.dtype) chosen = static_cast<int>(i);
    }
    if (chosen < 0) {
      throw TypeError(ufunc_prefix(op) + "No loop matching the specified signature and "
                      "casting was found for ufunc " + std::string(info.name));
    }
    for (int k = 0; k < info.nin; ++k) {
      if (!can_cast(dtypes[k], info.loops[chosen].in[k], options.casting)) {
        throw TypeError(ufunc_prefix(op) + "Cannot cast ufunc '" + std::string(info.name) +
                        "' input " + std::to_string(k) + " from " + dtype_repr(dtypes[k]) +
                        " to " + dtype_repr(info.loops[chosen].in[k]) + " with casting rule '" +
                        casting_name(options.casting) + "'");
      }
    }
  }
  if (chosen < 0) no_loop(op);

  // A Python int must fit the integer dtype it becomes (comparisons excepted, see below),
  // and a float one. Comparing two Python ints compares their values (NumPy's comparison
  // loops take Python ints of any size); next to an array, one beyond int64 cannot convert.
  bool all_weak_ints = true;
  for (int k = 0; k < info.nin; ++k) all_weak_ints &= inputs[k].kind() == Operand::Kind::WeakInt;
  for (int k = 0; k < info.nin; ++k) {
    if (beyond_int64[k] && is_integer(info.loops[chosen].in[k]) &&
        !(is_comparison(op) && all_weak_ints)) {
      throw OverflowError(ufunc_prefix(op) + "Python int too large to convert to C long");
    }
  }
  for (int k = 0; k < info.nin; ++k) {
    const DType t = info.loops[chosen].in[k];
    if (inputs[k].is_huge_int() && !is_integer(t) && !std::isfinite(inputs[k].value().to_double())) {
      throw OverflowError(ufunc_prefix(op) + "int too large to convert to float");
    }
  }
  if (!is_comparison(op)) {
    for (int k = 0; k < info.nin; ++k) {
      const DType t = info.loops[chosen].in[k];
      if (inputs[k].kind() == Operand::Kind::WeakInt && is_integer(t) &&
          range_position(inputs[k], t) != 0) {
        throw OverflowError(ufunc_prefix(op) + "Python integer " + python_int_text(inputs[k]) +
                            " out of bounds for " + std::string(dtype_name(t)));
      }
    }
  }
  return chosen;
}

std::optional<bool> out_of_range_comparison(Ufunc op, std::span<const Operand> inputs,
                                            int loop) {
  if (!is_comparison(op)) return std::nullopt;
  const LoopSignature& sig = ufunc_info(op).loops[loop];
  if (inputs[0].kind() == Operand::Kind::WeakInt && inputs[1].kind() == Operand::Kind::WeakInt &&
      (range_position(inputs[0], sig.in[0]) != 0 || range_position(inputs[1], sig.in[1]) != 0)) {
    // Two Python ints, one beyond the loop's range: compare the values themselves. long
    // double holds every int64 and uint64 exactly; an int beyond both is held as the
    // nearest double, so two such ints closer than a double's spacing compare equal.
    const long double x = python_int_value(inputs[0]), y = python_int_value(inputs[1]);
    switch (op) {
      case Ufunc::Equal: return x == y;
      case Ufunc::NotEqual: return x != y;
      case Ufunc::Less: return x < y;
      case Ufunc::LessEqual: return x <= y;
      case Ufunc::Greater: return x > y;
      case Ufunc::GreaterEqual: return x >= y;
      default: break;
    }
  }
  for (int k = 0; k < 2; ++k) {
    if (inputs[k].kind() != Operand::Kind::WeakInt || !is_integer(sig.in[k])) continue;
    const int pos = range_position(inputs[k], sig.in[k]);
    if (pos == 0) continue;
    // Written as "array OP scalar"; a scalar on the left flips the direction.
    const bool scalar_above = k == 1 ? pos > 0 : pos < 0;
    switch (op) {
      case Ufunc::Equal: return false;
      case Ufunc::NotEqual: return true;
      case Ufunc::Less:
      case Ufunc::LessEqual: return scalar_above;
      case Ufunc::Greater:
      case Ufunc::GreaterEqual: return !scalar_above;
      default: break;
    }
  }
  return std::nullopt;
}

int where_loop(DType dtype) {
  const auto& loops = ufunc_info(Ufunc::Where).loops;
  for (size_t i = 0; i < loops.size(); ++i) {
    if (loops[i].out[0] == dtype) return static_cast<int>(i);
  }
  throw std::logic_error("where: no loop for dtype");
}

}  // namespace tessera
