"""Elementwise functions: the ufunc objects, and the functions NumPy builds from ufuncs
(where, clip, isclose, round, ...), with NumPy's promotion (NEP 50) and results."""

import builtins
import contextlib

import numpy as np

from . import _core
from ._convert import index
from ._core import ndarray, ufunc
from ._creation import operand, refuse_host_data
from ._ndarray import asnumpy

# Every ufunc, by NumPy's name; aliases are the same objects, as in NumPy (NumPy 2 adds the
# array API's names). Names starting with "_" are internal loops (_where, _clip).
_UFUNCS = {name: u for name, u in _core._ufuncs.items() if not name.startswith("_")}
_ALIASES = {"mod": "remainder", "true_divide": "divide", "conj": "conjugate",
            "bitwise_not": "invert", "abs": "absolute",
            "acos": "arccos", "acosh": "arccosh", "asin": "arcsin", "asinh": "arcsinh",
            "atan": "arctan", "atan2": "arctan2", "atanh": "arctanh", "pow": "power",
            "bitwise_invert": "invert", "bitwise_left_shift": "left_shift",
            "bitwise_right_shift": "right_shift"}
# The internal 3-input ufuncs: where's select (also NumPy's copyto(dst, value, where=mask):
# same_kind casting into out=dst) and NumPy's clip loop (numpy._core.umath.clip).
_where_ufunc = _core._ufuncs["_where"]
_clip_ufunc = _core._ufuncs["_clip"]
_IDENTITIES = {"add": 0, "multiply": 1, "logaddexp": -np.inf, "logaddexp2": -np.inf,
               "hypot": 0, "logical_and": True, "logical_or": False, "logical_xor": False,
               "bitwise_and": -1, "bitwise_or": 0, "bitwise_xor": 0, "gcd": 0}

globals().update(_UFUNCS)
globals().update({alias: _UFUNCS[name] for alias, name in _ALIASES.items()})


def _identity(self):
    return _IDENTITIES.get(self.__name__)


def _outer(self, *args, **kwargs):
    """op(a[i, j, ...], b[k, l, ...]) for every pair of elements, as NumPy's ufunc.outer."""
    if self.nin != 2:
        raise ValueError(f"[{self.__name__}.outer] outer product only supported for binary "
                         "functions")
    if len(args) != 2:
        raise TypeError(f"[{self.__name__}.outer] exactly two arguments expected")
    a, b = args
    a = a if isinstance(a, ndarray) else _core._from_host(np.asarray(a), None, False, "K")
    b = b if isinstance(b, ndarray) else _core._from_host(np.asarray(b), None, False, "K")
    return self(a.reshape(a.shape + (1,) * b.ndim), b, **kwargs)


ufunc.identity = property(_identity)
ufunc.outer = _outer


@contextlib.contextmanager
def _named(api):
    """Errors of the ufuncs a function is built from, in that function's name: NumPy's
    message ("Cannot cast ufunc 'minimum' output ...") prefixed "[clip]", not "[minimum]"."""
    try:
        yield
    except (TypeError, ValueError, OverflowError) as error:
        message = str(error)
        if message.startswith("[") and "] " in message:
            message = message.split("] ", 1)[1]
        raise type(error)(f"[{api}] {message}") from None


def where(condition, x=None, y=None, /):
    """Elements of x where condition is true, else of y (NEP 50 promotion of x and y)."""
    if x is None and y is None:
        return _core._nonzero(operand(condition))
    if x is None or y is None:
        raise ValueError("[where] either both or neither of x and y should be given")
    return _core._where(condition, x, y)


_NO_VALUE = object()


def clip(a, min=_NO_VALUE, max=_NO_VALUE, out=None, *, a_min=_NO_VALUE, a_max=_NO_VALUE,
         **kwargs):
    """Limits values to [min, max] (NumPy's clip loop: a NaN value or bound gives NaN,
    complex values compare lexicographically); None or an omitted bound leaves a side open.

    The bounds are named as the array API standard names them, so clip(x, 0) clips below
    only (NumPy raises there). NumPy's keywords a_min/a_max keep NumPy's rules: one bound
    per side, and both sides given once either keyword is used."""
    if a_min is not _NO_VALUE or a_max is not _NO_VALUE:
        for keyword, bound, standard in (("a_min", a_min, min), ("a_max", a_max, max)):
            if bound is not _NO_VALUE and standard is not _NO_VALUE:
                raise TypeError(f"[clip] clip() got multiple values for argument {keyword!r}")
        if max is not _NO_VALUE:
            raise ValueError("[clip] Passing `min` or `max` keyword argument when `a_min` and "
                             "`a_max` are provided is forbidden.")
        min = a_min if a_min is not _NO_VALUE else min  # clip(x, lo, a_max=hi)
        if min is _NO_VALUE:
            raise TypeError("[clip] clip() missing 1 required positional argument: 'a_min'")
        if a_max is _NO_VALUE:
            raise TypeError("[clip] clip() missing 1 required positional argument: 'a_max'")
        max = a_max
    return _clip(a, None if min is _NO_VALUE else min, None if max is _NO_VALUE else max,
                 out, **kwargs)


def _clip(a, lo, hi, out, **kwargs):
    """ndarray.clip, as NumPy's _methods._clip: one bound None is maximum or minimum, both
    None is positive (a copy, or an error for bool, as in NumPy)."""
    with _named("clip"):
        a = operand(a)
        # NEP 50 gives no value-based promotion: a Python int beyond the dtype's range
        # would not convert, so NumPy drops the bound it cannot reach anyway.
        if a.dtype.kind in "iu":
            info = np.iinfo(a.dtype)
            if type(lo) is int and lo <= info.min:
                lo = None
            if type(hi) is int and hi >= info.max:
                hi = None
        if lo is None and hi is None:
            return positive(a, out=out, **kwargs)
        if lo is None:
            return minimum(a, hi, out=out, **kwargs)
        if hi is None:
            return maximum(a, lo, out=out, **kwargs)
        try:
            return _clip_ufunc(a, lo, hi, out=out, **kwargs)
        except (TypeError, ValueError, OverflowError) as error:
            # NumPy's clip ufunc is called clip; ours is the internal _clip.
            raise type(error)(str(error).replace("_clip", "clip")) from None


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN -> nan, +inf -> posinf (default: the largest finite value), -inf -> neginf; the
    real and imaginary parts of complex values separately. copy=False works in place."""
    with _named("nan_to_num"):
        if not isinstance(x, ndarray):
            x = operand(x)  # a new array already
        elif copy:
            x = x.copy(order="K")
        if x.dtype.kind not in "fc":
            return x
        finfo = np.finfo(x.real.dtype)
        posinf = finfo.max if posinf is None else posinf
        neginf = finfo.min if neginf is None else neginf
        for part in (x.real, x.imag) if x.dtype.kind == "c" else (x,):
            # All three masks before any replacement (nan=inf is not then replaced by
            # posinf); each replacement as NumPy's copyto(part, value, where=mask): the
            # value cast to the dtype under same_kind (1e6 is inf in float16).
            masks = isnan(part), isposinf(part), isneginf(part)
            for value, mask in zip((nan, posinf, neginf), masks):
                _where_ufunc(mask, value, part, out=part)
        return x


def isposinf(x, out=None):
    return logical_and(isinf(x), logical_not(signbit(x)), out=out)


def isneginf(x, out=None):
    return logical_and(isinf(x), signbit(x), out=out)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """|a - b| <= atol + rtol * |b| elementwise, with NumPy's handling of inf and NaN."""
    with _named("isclose"):
        # Python scalars stay weak; everything else (tolerances too) is an array.
        x, y, atol, rtol = (v if isinstance(v, (int, float, complex)) else operand(v)
                            for v in (a, b, atol, rtol))
        # An inexact y: |MIN_INT| would overflow, and unsigned differences would wrap.
        if isinstance(y, ndarray):
            y = y.astype(result_type(y, 1.0), copy=False)
        elif isinstance(y, int):
            y = float(y)
        result = (less_equal(absolute(x - y), atol + rtol * absolute(y)) & isfinite(y)
                  | equal(x, y))
        if equal_nan:
            result = result | (isnan(x) & isnan(y))
        return result


def _all(t):
    return builtins.bool(logical_and.reduce(t, axis=None))


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """True when isclose holds for every element."""
    with _named("allclose"):
        return _all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def array_equal(a1, a2, equal_nan=False):
    """True when both have the same shape and elements (NaN equal to NaN if asked)."""
    refuse_host_data(a1)  # before NumPy's rule: anything it cannot convert is unequal
    refuse_host_data(a2)
    try:
        a1, a2 = operand(a1), operand(a2)
    except Exception:
        return False
    if a1.shape != a2.shape:
        return False
    if not equal_nan or a1.dtype.kind not in "fc" and a2.dtype.kind not in "fc":
        return _all(equal(a1, a2))
    return _all(equal(a1, a2) | (isnan(a1) & isnan(a2)))


def array_equiv(a1, a2):
    """True when the two broadcast to one shape and are equal there."""
    refuse_host_data(a1)  # before NumPy's rule: anything it cannot convert is unequal
    refuse_host_data(a2)
    try:
        a1, a2 = operand(a1), operand(a2)
        np.broadcast_shapes(a1.shape, a2.shape)
    except Exception:
        return False
    return _all(equal(a1, a2))


def round(a, decimals=0, out=None):  # noqa: A001  (NumPy's name)
    """Rounds half to even at `decimals` decimal places (negative: left of the point), as
    NumPy's PyArray_Round: scale, rint, scale back, so not always the nearest decimal."""
    decimals = index(decimals, "round", "decimals")
    # NumPy takes decimals as a C int.
    if decimals > 2**31 - 1:
        raise OverflowError("[round] signed integer is greater than maximum")
    if decimals < -2**31:
        raise OverflowError("[round] signed integer is less than minimum")
    with _named("round"):
        a = operand(a)
        if out is not None and not isinstance(out, ndarray):
            raise TypeError("output must be an array")
        if out is not None and out.size != a.size:
            raise ValueError("invalid output shape")
        return _round(a, decimals, out)


around = round


def _power_of_ten(n):
    """10.0**n as NumPy's round computes it: exact up to 1e8, then C-double products by 10
    (inf rather than OverflowError past 1e308)."""
    if n < 9:
        return float(f"1e{n}")
    f = 1e9
    for _ in range(n - 9):
        f *= 10.0
        if f == np.inf:
            break
    return f


def _round(a, decimals, out):
    if a.dtype.kind == "c":
        # The real and imaginary parts separately, into a copy of a (or out).
        result = a.copy(order="K") if out is None else out
        result.real = _round(a.real, decimals, None)
        result.imag = _round(a.imag, decimals, None)
        return result
    is_integer = a.dtype.kind in "iu"  # not bool: bool rounds as a float (rint: float16)
    if decimals >= 0 and is_integer:
        if out is None:
            return a.copy(order="K")
        return positive(a, out=out)  # NumPy assigns with same_kind casting
    if decimals == 0:
        return rint(a, out=out)
    scale, unscale = (multiply, true_divide) if decimals > 0 else (true_divide, multiply)
    # A weak Python float: a float16 array scales in float16, an integer one in float64.
    f = _power_of_ten(builtins.abs(decimals))
    to_integer = out is None and is_integer
    if out is None:
        from ._creation import empty
        fortran = a.flags.f_contiguous and not a.flags.c_contiguous
        out = empty(a.shape, np.float64 if to_integer else a.dtype,
                    order="F" if fortran else "C")
    scale(a, f, out=out)
    rint(out, out=out)
    unscale(out, f, out=out)
    if to_integer:
        return out.astype(a.dtype, order="F" if fortran else "C")
    return out


def fix(x, out=None):
    """Rounds toward zero (NumPy 2: trunc, so integers stay integers)."""
    with _named("fix"):
        return trunc(x, out=out)


def real(val):
    return operand(val).real


def imag(val):
    return operand(val).imag


def angle(z, deg=False):
    """The counterclockwise angle from the positive real axis, in radians (or degrees)."""
    z = operand(z)
    if z.dtype.kind == "c":
        a = arctan2(z.imag, z.real)
    else:
        a = arctan2(0, z)
    return multiply(a, 180 / np.pi, out=a) if deg else a


# -------------------------------------------------------------------------- promotion


def _promotion_operand(x):
    """What result_type looks at: tessera arrays and Python numbers as they are, NumPy
    arrays and scalars by their dtype (both are strong under NEP 50)."""
    if isinstance(x, (ndarray, builtins.bool, int, float, complex)) and not isinstance(x, np.generic):
        return x
    if isinstance(x, (np.ndarray, np.generic)):
        return x.dtype
    return x


def result_type(*arrays_and_dtypes):
    """The dtype NumPy's result_type gives: NEP 50 for Python scalars."""
    if not arrays_and_dtypes:
        raise ValueError("[result_type] at least one array or dtype is required")
    return _core._result_type(*(_promotion_operand(x) for x in arrays_and_dtypes))


def promote_types(type1, type2):
    """The smallest dtype both can be cast to safely."""
    # NumPy's converter refuses None here (np.dtype(None) would be float64).
    if type1 is None or type2 is None:
        raise TypeError("[promote_types] did not understand one of the types")
    return _core._promote_types(type1, type2)


def can_cast(from_, to, casting="safe"):
    """Whether NumPy's casting rule `casting` allows from_ -> to."""
    if isinstance(from_, (builtins.bool, int, float, complex)) and not isinstance(from_, np.generic):
        raise TypeError("[can_cast] can_cast() does not support Python ints, floats, and "
                        "complex because the result used to depend on the value.\nThis change "
                        "was part of adopting NEP 50, we may explicitly allow them again in the "
                        "future.")
    if not isinstance(casting, str):
        raise TypeError(f"[can_cast] casting must be str, not {type(casting).__name__}")
    if isinstance(from_, (ndarray, np.ndarray, np.generic)):
        from_ = from_.dtype
    return _core._can_cast(from_, to, casting)


def min_scalar_type(a, /):
    """The smallest dtype that holds the value of a scalar or 0-d array (an array's own
    dtype otherwise)."""
    if isinstance(a, ndarray):
        a = asnumpy(a) if a.ndim == 0 else np.empty(0, a.dtype)
    return np.min_scalar_type(a)


def common_type(*arrays):
    """A float or complex dtype every array can be converted to: integers count as float64."""
    is_complex, precision = False, 0
    for a in arrays:
        kind = a.dtype.kind
        if kind == "c":
            is_complex = True
            precision = builtins.max(precision, a.dtype.itemsize // 2)
        elif kind == "f":
            precision = builtins.max(precision, a.dtype.itemsize)
        elif kind in "iu":  # bool is no integer to NumPy here: non-numeric
            precision = builtins.max(precision, 8)
        else:
            raise TypeError("[common_type] can't get common type for non-numeric array")
    if is_complex:
        return {2: np.complex64, 4: np.complex64, 8: np.complex128}[builtins.max(precision, 4)]
    return {0: np.float16, 2: np.float16, 4: np.float32, 8: np.float64}[precision]


# ------------------------------------------------------------------ ndarray methods


# NumPy's generalized ufuncs (matmul, vecdot, ...), registered by the modules that define
# them, so that numpy.matmul(t, t) runs tessera's.
_GUFUNCS = {}


# NumPy hands a NumPy scalar on the left of a comparison (np.float32(2.5) < t) to
# __array_ufunc__ as a 0-d NumPy array (numpy/numpy#12142); it is taken back as the scalar
# it was, which a CUDA device accepts (CuPy does the same, cupy/cupy#1727). Both are strong
# in NEP 50, so nothing changes on the CPU.
_COMPARISONS = frozenset(["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"])


def __array_ufunc__(self, numpy_ufunc, method, *inputs, **kwargs):
    """NumPy's ufuncs called on tessera arrays run as tessera's ufunc of the same name."""
    mine = _UFUNCS.get(numpy_ufunc.__name__)
    if mine is None:
        gufunc = _GUFUNCS.get(numpy_ufunc.__name__)
        return gufunc(*inputs, **kwargs) if gufunc and method == "__call__" else NotImplemented
    if numpy_ufunc.__name__ in _COMPARISONS:
        inputs = tuple(x[()] if isinstance(x, np.ndarray) and x.ndim == 0 else x
                       for x in inputs)
    if method == "__call__":
        return mine(*inputs, **kwargs)
    return getattr(mine, method)(*inputs, **kwargs)


def _conjugate_method(self):
    """ndarray.conj(): as NumPy's method, a non-complex array is returned itself (the
    conjugate ufunc still makes a new array)."""
    return conjugate(self) if self.dtype.kind == "c" else self


def _install():
    methods = {
        "__array_ufunc__": __array_ufunc__,
        "clip": lambda self, min=None, max=None, out=None, **kwargs: _clip(
            self, min, max, out, **kwargs),
        "round": lambda self, decimals=0, out=None: round(self, decimals, out),
        "conj": _conjugate_method,
        "conjugate": _conjugate_method,
    }
    for name, value in methods.items():
        setattr(ndarray, name, value)


_install()
