"""The types of tessera's Python-kernel compiler, and Numba's rules for combining them.

Scalars are NumPy dtype names ("int64", "float32", ...); arrays carry a dtype, a number of
dimensions, a layout ("C", "F" or "A": any strides) and whether they are read-only, as
Numba's `Array` type does, because a compiled specialization depends on all four. The rules
below are Numba's (its typing is what users' code relies on), checked against Numba itself
by tests/python/test_jit_typing.py:

- integers widen to int64 in arithmetic (uint64 where both operands are unsigned);
- an integer meeting a float or complex takes NumPy's promotion of the two (float32 with
  int16 stays float32, with int32 it is float64);
- a variable assigned several types, or a value joining two branches, takes NumPy's
  promote_types of them (int8 and uint8 give int16, int64 and uint64 float64);
- integer literals are int64, float literals float64, `/` of integers float64.
"""

from dataclasses import dataclass

import numpy as np

INTEGERS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
FLOATS = ("float16", "float32", "float64")
COMPLEXES = ("complex64", "complex128")
SCALARS = ("bool",) + INTEGERS + FLOATS + COMPLEXES


@dataclass(frozen=True)
class ArrayType:
    dtype: str
    ndim: int
    layout: str = "A"  # "C", "F" or "A"
    readonly: bool = False

    def __str__(self):
        ro = ", readonly" if self.readonly else ""
        return f"array({self.dtype}, {self.ndim}d, {self.layout}{ro})"


@dataclass(frozen=True)
class TupleType:
    items: tuple

    def __str__(self):
        return "(" + ", ".join(str(t) for t in self.items) + ("," if len(self.items) == 1 else "") + ")"


NONE = "none"


def leaves(t):
    """The scalars and arrays of a type, depth first: itself unless it is a tuple (the order
    in which a call passes a tuple's items, and a result holds them)."""
    if isinstance(t, TupleType):
        for item in t.items:
            yield from leaves(item)
    else:
        yield t


def is_scalar(t):
    return isinstance(t, str) and t in SCALARS


def is_integer(t):
    return t in INTEGERS


def is_unsigned(t):
    return t in INTEGERS and t.startswith("u")


def is_float(t):
    return t in FLOATS


def is_complex(t):
    return t in COMPLEXES


def is_number(t):
    return is_scalar(t)


def kind(t):
    """'b', 'i', 'f' or 'c': the scalar's kind (unsigned integers are 'i' here)."""
    if t == "bool":
        return "b"
    if is_integer(t):
        return "i"
    return "f" if is_float(t) else "c"


def promote(a, b):
    """NumPy's promote_types of two scalar types: Numba's unification of values."""
    return np.promote_types(a, b).name


def unify(a, b):
    """The type a variable or a join takes from values of types a and b; None when they do
    not unify (Numba's TypingError)."""
    if a == b:
        return a
    if is_scalar(a) and is_scalar(b):
        return promote(a, b)
    if isinstance(a, TupleType) and isinstance(b, TupleType) and len(a.items) == len(b.items):
        items = tuple(unify(x, y) for x, y in zip(a.items, b.items))
        return None if None in items else TupleType(items)
    if isinstance(a, ArrayType) and isinstance(b, ArrayType):
        if a.dtype == b.dtype and a.ndim == b.ndim:
            return ArrayType(a.dtype, a.ndim, a.layout if a.layout == b.layout else "A",
                             a.readonly or b.readonly)
    return None


def integer_result(a, b):
    """Numba's integer arithmetic: int64, or uint64 when both operands are unsigned."""
    return "uint64" if is_unsigned(a) and is_unsigned(b) else "int64"


def arithmetic_result(a, b):
    """The type of a + b, a - b, a * b, a // b, a % b for scalars a, b (bool counts as an
    integer)."""
    if kind(a) in "bi" and kind(b) in "bi":
        return integer_result(a, b)
    return promote(a, b)


def true_divide_result(a, b):
    if kind(a) in "bi" and kind(b) in "bi":
        return "float64"
    return promote(a, b)


def power_result(a, b):
    """a ** b: integers as arithmetic, a float raised to an integer keeps the float's type."""
    if kind(a) == "f" and kind(b) in "bi":
        return a
    return arithmetic_result(a, b)


def bitwise_result(a, b):
    """a & b, a | b, a ^ b of integers or bools (bools give a bool)."""
    if a == "bool" and b == "bool":
        return "bool"
    return integer_result(a, b)


def shift_result(a, b):
    """a << b, a >> b: the left operand's signedness, at 64 bits."""
    return "uint64" if is_unsigned(a) else "int64"


def negate_result(a):
    """-a and +a: integers widen (keeping an unsigned one unsigned), bool becomes int64."""
    if a == "bool":
        return "int64"
    if is_integer(a):
        return "uint64" if is_unsigned(a) else "int64"
    return a


def invert_result(a):
    """~a: bool stays bool, integers widen as -a."""
    return "bool" if a == "bool" else negate_result(a)


def abs_result(a):
    """abs(a): the same type, a complex's magnitude as its float; abs(bool) is int8."""
    if a == "bool":
        return "int8"
    if is_complex(a):
        return "float32" if a == "complex64" else "float64"
    return a


def float_result(a):
    """A math-module function of one argument: float32 stays float32, integers give
    float64."""
    return a if a in ("float32", "float64") else "float64"


def literal_type(value):
    """The type of a Python literal, as Numba types it."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int64" if -(2 ** 63) <= value < 2 ** 63 else "uint64"
    if isinstance(value, float):
        return "float64"
    if isinstance(value, complex):
        return "complex128"
    return None


def typeof(value):
    """The type of an argument value at a call (NumPy scalars, Python numbers, arrays and
    objects exposing __array_interface__ / __cuda_array_interface__, tuples)."""
    if isinstance(value, (bool, np.bool_)):
        return "bool"
    if isinstance(value, np.generic):
        return value.dtype.name
    if isinstance(value, (int, float, complex)):
        return literal_type(value)
    if type(value) is tuple:  # noqa: E721 (a namedtuple is not a plain tuple)
        items = tuple(typeof(v) for v in value)
        return None if None in items else TupleType(items)
    dtype = getattr(value, "dtype", None)
    shape = getattr(value, "shape", None)
    if dtype is not None and shape is not None:
        if not np.dtype(dtype).isnative or np.dtype(dtype).name not in SCALARS:
            return None  # another byte order, strings, records: no specialization takes them
        flags = getattr(value, "flags", None)
        if flags is not None and flags["C_CONTIGUOUS"]:
            layout = "C"
        elif flags is not None and flags["F_CONTIGUOUS"]:
            layout = "F"
        else:
            layout = "A"
        readonly = flags is not None and not flags["WRITEABLE"]
        return ArrayType(np.dtype(dtype).name, len(shape), layout, readonly)
    return None


# NumPy's type characters of the dtypes a ufunc loop of a compiled function may use.
_LOOP_CHARS = {np.dtype(t).char: t for t in SCALARS if t != "float16"}


def ufunc_loop(ufunc, arg_types):
    """(input types, output type) of NumPy ufunc `ufunc` on scalars of `arg_types`, as
    Numba resolves it (arrays by their dtypes): NumPy's rule, the first loop each argument
    casts to safely, skipping half-precision loops (Numba has none); None when no loop takes
    them. Where integers meet floats or complex numbers, Numba lets any integer cast to any
    float, so `np.power(float32, int32)` and `float32_array * int64_array` stay float32."""
    mixed = any(is_integer(t) for t in arg_types) and any(kind(t) in "fc" for t in arg_types)
    for signature in ufunc.types:
        ins, outs = signature.split("->")
        if any(c not in _LOOP_CHARS for c in ins + outs):
            continue
        loop_ins = [_LOOP_CHARS[c] for c in ins]
        if all(np.can_cast(a, b, "safe") or (mixed and is_integer(a) and kind(b) in "fc")
               for a, b in zip(arg_types, loop_ins)):
            return loop_ins, _LOOP_CHARS[outs]
    return None
