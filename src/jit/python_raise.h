#pragma once
// What the exception codes of code generated from Python functions mean (the codes of
// jit/python_runtime.h's pyjit::Raise, which that header, compiled only as text, cannot
// share with the engine): the exception each becomes and its message, for the jit call
// path (Python exceptions) and the evaluator running a vectorized function (C++ ones).

#include <string_view>

namespace tessera::jit {

// LinAlg: numpy.linalg.LinAlgError.
enum class RaiseKind { ZeroDivision, Value, Index, Memory, LinAlg, Unknown };

struct RaiseInfo {
  RaiseKind kind;
  std::string_view message;
};

inline RaiseInfo raise_info(int code) {
  switch (code) {
    case 1: return {RaiseKind::ZeroDivision, "division by zero"};
    case 2: return {RaiseKind::Value, "negative dimensions are not allowed"};
    case 3: return {RaiseKind::Memory, "out of memory"};
    case 4: return {RaiseKind::Memory, "more than 4096 arrays created in one call of a jit function"};
    case 5: return {RaiseKind::Value, "slice step cannot be zero"};
    case 6: return {RaiseKind::Value, "cannot assign slice from input of different shape"};
    case 7: return {RaiseKind::Value, "operands could not be broadcast together"};
    case 8: return {RaiseKind::Value, "zero-size array to reduction operation maximum which has no identity"};
    case 9: return {RaiseKind::Value, "zero-size array to reduction operation minimum which has no identity"};
    case 10: return {RaiseKind::Value, "attempt to get argmax of an empty sequence"};
    case 11: return {RaiseKind::Value, "attempt to get argmin of an empty sequence"};
    case 12: return {RaiseKind::Value, "empty range for randrange()"};
    case 13: return {RaiseKind::Value, "Maximum allowed size exceeded"};
    case 14: return {RaiseKind::Value, "total size of new array must be unchanged"};
    case 15: return {RaiseKind::Value, "can only specify one unknown dimension"};
    case 16: return {RaiseKind::Value, "matmul: Input operand 1 has a mismatch in its core dimension 0"};
    case 17: return {RaiseKind::Index, "boolean index did not match indexed array"};
    case 18: return {RaiseKind::Value, "all the input array dimensions except for the concatenation axis must match exactly"};
    case 19: return {RaiseKind::Value, "all input arrays must have the same shape"};
    case 20: return {RaiseKind::Index, "index out of bounds in an integer array index"};
    case 21: return {RaiseKind::Value, "shape mismatch: value array could not be broadcast to indexing result"};
    case 22: return {RaiseKind::LinAlg, "Matrix is singular to machine precision."};
    case 23: return {RaiseKind::LinAlg, "Matrix is not positive definite."};
    case 24: return {RaiseKind::LinAlg, "Last 2 dimensions of the array must be square."};
    case 25: return {RaiseKind::LinAlg, "Array must not contain infs or NaNs."};
    case 26: return {RaiseKind::LinAlg, "Incompatible array sizes, system is not dimensionally valid."};
    case 27: return {RaiseKind::LinAlg, "The factorization did not converge."};
    case 28: return {RaiseKind::Value, "eig() argument must not cause a domain change."};
    case 29: return {RaiseKind::Value, "Invalid norm order for matrices."};
    case 30: return {RaiseKind::Value, "array of sample points is empty"};
    case 31: return {RaiseKind::Value, "fp and xp are not of the same size."};
    case 32: return {RaiseKind::Value, "first argument of bincount must be non-negative"};
    case 33: return {RaiseKind::Value, "can only convert an array of size 1 to a Python scalar"};
    case 34: return {RaiseKind::Value, "bins must be monotonically increasing or decreasing"};
    case 35: return {RaiseKind::Value, "histogram(): `bins` should be a positive integer"};
    case 36: return {RaiseKind::Value, "histogram(): max must be larger than min in range parameter"};
    case 37: return {RaiseKind::Value, "histogram(): bins must increase monotonically"};
    case 38: return {RaiseKind::Value, "Percentiles must be in the range [0, 100]"};
    case 39: return {RaiseKind::Value, "Quantiles must be in the range [0, 1]"};
    case 40: return {RaiseKind::Value, "Incompatible dimensions for cross product\n(dimension must be 2 or 3)"};
    case 41: return {RaiseKind::Value, "Dimensions for both inputs must be 3: np.cross of 2-element vectors is not supported (Numba's cross2d computes it)"};
    case 42: return {RaiseKind::Value, "'a' cannot be empty"};
    case 43: return {RaiseKind::Value, "'v' cannot be empty"};
    default: return {RaiseKind::Unknown, "unknown exception code"};
  }
}

}  // namespace tessera::jit
