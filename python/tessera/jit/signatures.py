"""Numba's signatures of scalar functions, for `vectorize(['float32(float32, float32)'])`:
the text form with Numba's type names and aliases, or Numba's own Signature objects
(`numba.float32(numba.float32, numba.float32)`)."""

import re

import numpy as np

# Numba's names of the scalar types, aliases included.
SCALAR_NAMES = {
    "bool": "bool", "bool_": "bool", "boolean": "bool", "b1": "bool",
    "int8": "int8", "i1": "int8", "byte": "int8",
    "int16": "int16", "i2": "int16",
    "int32": "int32", "i4": "int32", "intc": "int32",
    "int64": "int64", "i8": "int64", "intp": "int64", "int_": "int64", "long_": "int64",
    "uint8": "uint8", "u1": "uint8", "uint16": "uint16", "u2": "uint16",
    "uint32": "uint32", "u4": "uint32", "uintc": "uint32",
    "uint64": "uint64", "u8": "uint64", "uintp": "uint64",
    "float16": "float16", "f2": "float16",
    "float32": "float32", "f4": "float32", "float64": "float64", "f8": "float64",
    "double": "float64", "float_": "float64",
    "complex64": "complex64", "c8": "complex64", "complex128": "complex128",
    "c16": "complex128", "complex_": "complex128",
}

_SIGNATURE = re.compile(r"^\s*(\w+)\s*\((.*)\)\s*$")


def scalar_type(name, where):
    t = SCALAR_NAMES.get(name.strip())
    if t is None:
        raise TypeError(f"[{where}] '{name.strip()}' is not a scalar type Numba names (int32, "
                        "float64, f8, complex128, ...)")
    return t


def parse_scalar_signature(signature, where):
    """(input types, output type) of a scalar signature: "float32(float32, int64)", or a
    Numba Signature object."""
    if hasattr(signature, "args") and hasattr(signature, "return_type"):  # Numba's object
        return (tuple(scalar_type(str(a), where) for a in signature.args),
                scalar_type(str(signature.return_type), where))
    if not isinstance(signature, str):
        raise TypeError(f"[{where}] a signature is a string like 'float64(float64, float64)', "
                        f"got {type(signature).__name__}")
    match = _SIGNATURE.match(signature)
    if match is None:
        raise TypeError(f"[{where}] cannot read the signature {signature!r}: write it as "
                        "'float64(float64, float64)'")
    out = scalar_type(match.group(1), where)
    inputs = [part for part in match.group(2).split(",") if part.strip()]
    return tuple(scalar_type(p, where) for p in inputs), out


def type_char(t):
    """NumPy's type character of scalar type `t` (as ufunc.types lists loops)."""
    return np.dtype(t).char
