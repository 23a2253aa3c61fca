#pragma once
// Conversions between Python objects and engine types, with NumPy's rules and errors.

#include <nanobind/nanobind.h>

#include <memory>
#include <optional>
#include <string>

#include "tessera/array.h"
#include "tessera/scalar.h"
#include "tessera/ufunc.h"

namespace tessera::py {

namespace nb = nanobind;

// The numpy module, imported once.
nb::module_& numpy();

// dtype= arguments: anything numpy.dtype() accepts; None gives `fallback`. Unsupported
// dtypes (strings, objects, float128, non-native byte order) raise TypeError naming `api`.
DType to_dtype(nb::handle obj, DType fallback, const char* api);
// The numpy.dtype object for a dtype (tessera's dtypes ARE NumPy's).
nb::object to_numpy_dtype(DType dtype);

// shape= arguments: an int or a sequence of ints.
Dims to_shape(nb::handle obj, const char* api);
nb::tuple to_tuple(const Dims& dims);

// order= arguments: 'C', 'F', 'A', 'K' (or None = `fallback`); `allowed` lists the valid ones.
Order to_order(nb::handle obj, Order fallback, const char* allowed, const char* api);

// device= arguments: None (the current device), a Device, or "cpu" / "cuda:N".
Device to_device(nb::handle obj, const char* api);

// casting= arguments: 'no', 'equiv', 'safe', 'same_kind' or 'unsafe'.
Casting to_casting(nb::handle obj, std::string_view api);

// Axis arguments: an int or a sequence of ints.
std::vector<int> to_axes(nb::handle obj, const char* api);

// copy= as NumPy 2 takes it: None (copy only if needed), else a truth value; strings are
// NumPy's ValueError.
std::optional<bool> to_copy(nb::handle obj, const char* api);

// NumPy's ComplexWarning where a cast from `from` to `to` drops imaginary parts (complex to
// a real or integer dtype; bool only tests for non-zero). Raises what the warnings filter
// makes of it.
void warn_complex_cast(DType from, DType to);

// The array interfaces' typestr of a dtype ("<f8", "|b1"): tessera's data is little-endian.
std::string typestr(DType dtype);

// Keeps `owner` alive for as long as an engine buffer uses memory it owns (released with
// the GIL taken).
std::shared_ptr<void> keep_alive(nb::handle owner);

// The Python number NumPy's item() gives for one element of `dtype` at `p`: bool, int,
// float (float16 too) or complex.
nb::object python_number(DType dtype, const void* p);

// A Python bool, int, float or complex (exactly those types) converted to one element of
// `dtype` as NumPy's element assignment converts it, when that conversion is exact or an
// ordinary rounding; nullopt where NumPy would warn or raise (overflow, NaN into an
// integer, ...) or the value is anything else, so the general path decides.
std::optional<Scalar> exact_python_scalar(nb::handle value, DType dtype);

// Python's own message for "x cannot be interpreted as an integer" style conversions.
int64_t to_int64(nb::handle obj, const char* api, const char* what);

}  // namespace tessera::py
