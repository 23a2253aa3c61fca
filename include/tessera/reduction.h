#pragma once
// Reductions with NumPy's semantics: ufunc.reduce for every binary ufunc, and the
// statistics built on it. A pending input is folded in the same pass that computes it.

#include <optional>
#include <vector>

#include "tessera/array.h"
#include "tessera/ufunc.h"

namespace tessera {

struct ReduceOptions {
  std::optional<std::vector<int64_t>> axis;  // none: every axis; may be negative
  std::optional<DType> dtype;                // the loop (accumulator) dtype
  std::optional<Array> out;                  // of the result's shape; cast unsafely
  bool keepdims = false;
  std::optional<Operand> initial;  // the starting value of every reduction
  bool skip_identity = false;      // initial=None: start from the first element
  std::optional<Operand> where;    // elements where false are left out
};

// op.reduce(a, ...): a full reduction gives a 0-d array. `api` names the caller in errors.
Array reduce(Ufunc op, const Array& a, const ReduceOptions& options = {},
             const char* api = nullptr);

// op.accumulate(a, axis): the running reduction along one axis, same shape as `a`, in
// the dtype op.reduce would use. `api` names the caller in errors (cumsum, cumprod, ...).
Array accumulate(Ufunc op, const Array& a, int64_t axis = 0, std::optional<DType> dtype = {},
                 const std::optional<Array>& out = std::nullopt, const char* api = nullptr);

// NumPy's mean, var and std (ddof = delta degrees of freedom): float64 for integer
// input, computed in float32 for float16 as NumPy does.
Array mean(const Array& a, const ReduceOptions& options = {});
// `mean`, when given, is used as the mean (of the keepdims shape), as NumPy's mean=.
Array var(const Array& a, const ReduceOptions& options = {}, double ddof = 0,
          const std::optional<Array>& mean = std::nullopt);
Array std_dev(const Array& a, const ReduceOptions& options = {}, double ddof = 0,
              const std::optional<Array>& mean = std::nullopt);

// Indices of the largest / smallest values along `axis` (none: of the flattened array);
// the first occurrence wins and NaN counts as the extreme, as in NumPy.
Array argmax(const Array& a, std::optional<int64_t> axis = std::nullopt, bool keepdims = false,
             const std::optional<Array>& out = std::nullopt);
Array argmin(const Array& a, std::optional<int64_t> axis = std::nullopt, bool keepdims = false,
             const std::optional<Array>& out = std::nullopt);

}  // namespace tessera
