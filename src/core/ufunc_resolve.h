#pragma once
// Type resolution for ufuncs: which inner loop runs, as NumPy 2 chooses it.

#include <optional>
#include <span>
#include <string>

#include "tessera/ufunc.h"

namespace tessera {

std::string ufunc_prefix(Ufunc op);  // "[add] "
std::string dtype_repr(DType t);     // "dtype('float64')"
const char* casting_name(Casting c);

// The loop NumPy would run for `inputs` (NEP 50 weak scalars, dtype=, casting=). Raises
// TypeError when there is none; OverflowError for a Python int its loop dtype cannot hold.
int resolve_loop(Ufunc op, std::span<const Operand> inputs, const UfuncOptions& options);

// NumPy 2 compares arrays with Python ints outside their dtype's range without converting:
// the answer is the same for every element. This gives it, or nothing when the scalars fit.
std::optional<bool> out_of_range_comparison(Ufunc op, std::span<const Operand> inputs,
                                            int loop);

// The loop of the internal select ufunc (_where) whose values are of `dtype`.
int where_loop(DType dtype);

}  // namespace tessera
