#pragma once
// Elementwise operations with NumPy's ufunc semantics: NEP 50 type promotion, broadcasting,
// out=/where=/dtype=/casting=. Results are pending: an expression that is evaluated, fused
// with the rest of its tree, when its data is first needed (see docs/architecture.md).

#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "tessera/array.h"
#include "tessera/scalar.h"
#include "tessera/ufunc_list.h"

namespace tessera {

enum class Ufunc : uint16_t {
#define TS_UFUNC_ENUM(id, name, nin, nout, functor, loops) id,
  TESSERA_UFUNCS(TS_UFUNC_ENUM)
#undef TS_UFUNC_ENUM
};
inline constexpr int kNumUfuncs = 0
#define TS_UFUNC_COUNT(...) +1
    TESSERA_UFUNCS(TS_UFUNC_COUNT)
#undef TS_UFUNC_COUNT
    ;

// One inner-loop signature: the dtypes the loop reads and writes.
struct LoopSignature {
  DType in[3];
  DType out[2];
};

struct UfuncInfo {
  std::string_view name;
  int nin, nout;
  std::vector<LoopSignature> loops;
};
const UfuncInfo& ufunc_info(Ufunc op);
std::optional<Ufunc> find_ufunc(std::string_view name);

// NumPy's casting= levels, weakest first.
enum class Casting : uint8_t { No, Equiv, Safe, SameKind, Unsafe };

// One input of an elementwise op: an array, a typed scalar (a NumPy scalar: strong), or a
// Python number (weak under NEP 50: it takes the dtype of the arrays it meets).
class Operand {
 public:
  enum class Kind : uint8_t { Array, Scalar, WeakInt, WeakFloat, WeakComplex };

  Operand(Array a) : kind_(Kind::Array), array_(std::move(a)) {}  // NOLINT: implicit on purpose
  static Operand scalar(const Scalar& s) { return Operand(Kind::Scalar, s); }
  // A Python int: `s` holds an int64 or uint64 value; `huge` marks one that fits neither
  // (then s holds its float64 approximation, usable only by floating loops).
  static Operand weak_int(const Scalar& s, bool huge = false) {
    Operand o(Kind::WeakInt, s);
    o.huge_ = huge;
    return o;
  }
  static Operand weak_float(double v) { return Operand(Kind::WeakFloat, Scalar(v)); }
  static Operand weak_complex(std::complex<double> v) {
    return Operand(Kind::WeakComplex, Scalar(v));
  }

  Kind kind() const { return kind_; }
  bool is_array() const { return kind_ == Kind::Array; }
  bool is_weak() const { return kind_ != Kind::Array && kind_ != Kind::Scalar; }
  bool is_huge_int() const { return huge_; }
  const Array& array() const { return array_; }
  const Scalar& value() const { return scalar_; }
  // The dtype of an array or typed scalar; a weak scalar's default dtype (int64, float64,
  // complex128; uint64 for an int above int64's range).
  DType dtype() const;
  int ndim() const { return is_array() ? array_.ndim() : 0; }

 private:
  Operand(Kind k, const Scalar& s) : kind_(k), scalar_(s) {}
  Kind kind_;
  bool huge_ = false;
  Array array_;
  Scalar scalar_;
};

struct UfuncOptions {
  std::vector<std::optional<Array>> out;  // one per output, or empty
  std::optional<Operand> where;           // elements where false keep out's values
  Casting casting = Casting::SameKind;
  std::optional<DType> dtype;  // the output (and so the loop) dtype
  Order order = Order::K;
};

// Applies `op` to `inputs` (op's nin of them); returns its nout results (the `out` arrays
// when given). Errors are raised here, never deferred to evaluation.
std::vector<Array> apply_ufunc(Ufunc op, std::span<const Operand> inputs,
                               const UfuncOptions& options = {});
inline Array apply_ufunc1(Ufunc op, std::span<const Operand> inputs,
                          const UfuncOptions& options = {}) {
  return apply_ufunc(op, inputs, options)[0];
}

// The lean path of the per-op latency: `op` on arrays of one shape and device, C-contiguous,
// materialized and below lazy_min_elements(), with no options and no conversions, runs its
// loop straight into a new array. nullopt when any of that does not hold (or the op needs
// a check apply_ufunc makes); apply_ufunc then gives the same result.
std::optional<Array> apply_ufunc_small(Ufunc op, std::span<const Array* const> inputs);
// The same for a binary op of an array and a Python number (`t * 2.0`, `t > 1`): a float,
// a complex, or an int in [0, 127], which every dtype holds, so that the loop depends on
// the array's dtype and the number's kind alone. `scalar_first`: the number is the left
// operand.
std::optional<Array> apply_ufunc_small(Ufunc op, const Array& array, const Operand& number,
                                       bool scalar_first);

// where(cond, x, y): NumPy's three-argument where; cond is read as bool.
Array where(const Operand& cond, const Operand& x, const Operand& y);
// astype with NumPy's casting= check; shares `a` when `copy` is false and nothing changes.
Array astype(const Array& a, DType dtype, Casting casting, bool copy, Order order = Order::K);

// Promotion (NumPy 2, NEP 50).
DType promote_types(DType a, DType b);
bool can_cast(DType from, DType to, Casting casting);
// The dtype NumPy's result_type gives for these operands (weak scalars follow NEP 50).
DType result_type(std::span<const Operand> operands);

// Evaluates a pending array now (a no-op for materialized arrays).
void evaluate(const Array& a);
// Results with fewer elements are computed at once instead of pending (default 4096).
int64_t lazy_min_elements();
void set_lazy_min_elements(int64_t n);

// The C++ spelling of each ufunc: tessera::add(a, b), tessera::sin(x), tessera::divmod(a, b)
// (two outputs: a vector of two arrays).
#define TS_UFUNC_FN_1_1(id, name) \
  inline Array name(const Operand& x) { return apply_ufunc1(Ufunc::id, {{x}}); }
#define TS_UFUNC_FN_1_2(id, name) \
  inline std::vector<Array> name(const Operand& x) { return apply_ufunc(Ufunc::id, {{x}}); }
#define TS_UFUNC_FN_2_1(id, name)                           \
  inline Array name(const Operand& x, const Operand& y) {   \
    Operand in[2] = {x, y};                                 \
    return apply_ufunc1(Ufunc::id, in);                     \
  }
#define TS_UFUNC_FN_2_2(id, name)                                      \
  inline std::vector<Array> name(const Operand& x, const Operand& y) { \
    Operand in[2] = {x, y};                                            \
    return apply_ufunc(Ufunc::id, in);                                 \
  }
#define TS_UFUNC_FN_3_1(id, name)
#define TS_UFUNC_FN(id, name, nin, nout, functor, loops) TS_UFUNC_FN_##nin##_##nout(id, name)
TESSERA_UFUNCS(TS_UFUNC_FN)
#undef TS_UFUNC_FN
#undef TS_UFUNC_FN_1_1
#undef TS_UFUNC_FN_1_2
#undef TS_UFUNC_FN_2_1
#undef TS_UFUNC_FN_2_2
#undef TS_UFUNC_FN_3_1

}  // namespace tessera
