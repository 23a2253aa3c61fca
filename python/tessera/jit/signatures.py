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


_TYPE = re.compile(r"^\s*(\w+)\s*(?:\[([^\]]*)\])?\s*$")


def _split_arguments(text):
    """The comma-separated items of `text`, commas inside brackets kept."""
    parts, depth, current = [], 0, ""
    for c in text:
        depth += c == "["
        depth -= c == "]"
        if c == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += c
    if current.strip():
        parts.append(current)
    return parts


def parse_type(text, where):
    """A type of a Numba signature: a scalar name, or an array `float64[:, ::1]` (its
    layout C when the last dimension is `::1`, F when the first of several is, else any)."""
    from .types import ArrayType  # noqa: PLC0415
    if hasattr(text, "dtype") and hasattr(text, "ndim"):  # a Numba array type
        layout = getattr(text, "layout", "A")
        return ArrayType(scalar_type(str(text.dtype), where), text.ndim, layout if layout in "CF" else "A",
                         not getattr(text, "mutable", True))
    if not isinstance(text, str):
        return scalar_type(str(text), where)
    match = _TYPE.match(text)
    if match is None:
        raise TypeError(f"[{where}] cannot read the type {text.strip()!r}")
    dtype = scalar_type(match.group(1), where)
    if match.group(2) is None:
        return dtype
    dims = [d.replace(" ", "") for d in match.group(2).split(",")]
    if any(d not in (":", "::1") for d in dims):
        raise TypeError(f"[{where}] cannot read the array type {text.strip()!r}: dimensions are "
                        "':' or '::1'")
    if dims[-1] == "::1" and all(d == ":" for d in dims[:-1]):
        layout = "C"
    elif len(dims) > 1 and dims[0] == "::1" and all(d == ":" for d in dims[1:]):
        layout = "F"
    elif all(d == ":" for d in dims):
        layout = "A"
    else:
        raise TypeError(f"[{where}] cannot read the array type {text.strip()!r}")
    return ArrayType(dtype, len(dims), layout)


def parse_signature(signature, where):
    """(argument types, return type or None) of a full Numba signature: "float64(float64[:],
    int64)", "void(float32[:, ::1])", "(float64[:],)", or Numba's Signature object."""
    if hasattr(signature, "args") and hasattr(signature, "return_type"):
        ret = signature.return_type
        return (tuple(parse_type(a, where) for a in signature.args),
                None if ret is None or str(ret) in ("none", "void") else parse_type(ret, where))
    if not isinstance(signature, str) or "(" not in signature or not signature.rstrip().endswith(")"):
        raise TypeError(f"[{where}] a signature looks like 'float64(float64[:], int64)', got "
                        f"{signature!r}")
    head, _, rest = signature.partition("(")
    args = tuple(parse_type(a, where) for a in _split_arguments(rest.rstrip()[:-1]))
    head = head.strip()
    return args, None if head in ("", "void", "none") else parse_type(head, where)
