#pragma once
// Exceptions of the engine. Each maps to the Python exception NumPy raises for the same
// mistake; messages start with the API name in brackets: "[reshape] cannot reshape ...".

#include <stdexcept>
#include <string>

namespace tessera {

struct ValueError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
// numpy.linalg.LinAlgError (a ValueError in Python): a singular or not positive definite
// matrix, a factorization that did not converge, or a matrix of the wrong shape.
struct LinAlgError : ValueError {
  using ValueError::ValueError;
};
struct TypeError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};
struct IndexError : std::out_of_range {
  using std::out_of_range::out_of_range;
};
// numpy.exceptions.AxisError (a ValueError and an IndexError in Python).
struct AxisError : std::out_of_range {
  using std::out_of_range::out_of_range;
};
struct NotImplementedError : std::logic_error {
  using std::logic_error::logic_error;
};
// A value that does not fit the dtype it must become (a Python int for a uint8 op).
struct OverflowError : std::overflow_error {
  using std::overflow_error::overflow_error;
};
// A floating-point error an op raised under FpMode::Raise (numpy's errstate 'raise').
struct FloatingPointError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A CUDA driver call that failed, or no CUDA device; tessera.cuda.CUDARuntimeError (a
// RuntimeError) in Python.
struct CudaRuntimeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Allocation failure; a MemoryError in Python.
struct OutOfMemoryError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A CUDA device's memory (or page-locked host memory) exhausted:
// tessera.cuda.OutOfMemoryError (a MemoryError) in Python.
struct DeviceOutOfMemoryError : OutOfMemoryError {
  using OutOfMemoryError::OutOfMemoryError;
};

}  // namespace tessera
