"""Reductions: ufunc.reduce and NumPy's sum, prod, mean, var, std, min, max, ptp, any, all,
count_nonzero, argmax and argmin, with NumPy's axis/keepdims/dtype/out/initial/where.
Full reductions give 0-d arrays, as CuPy's do; a pending input is folded in the pass that
computes it, so ``(x * x).sum()`` reads x once."""

import builtins

from . import _core
from ._core import ndarray, ufunc
from ._elementwise import _asarray, maximum, minimum, not_equal, subtract


def _ufunc_reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=None,
                  where=True):
    """ufunc.reduce: folds `array` along `axis` (None: all, a tuple: several)."""
    return _core._reduce(self.__name__, _asarray(array), axis, dtype, out,
                         builtins.bool(keepdims), initial, where, f"{self.__name__}.reduce")


ufunc.reduce = _ufunc_reduce


def _folding(op, api, a, axis, dtype, out, keepdims, initial, where):
    return _core._reduce(op, _asarray(a), axis, dtype, out, builtins.bool(keepdims), initial,
                         where, api)


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Sum of elements (pairwise: error grows as log n); bool and small integers sum as
    int64 (uint64 for unsigned), as in NumPy."""
    return _folding("add", "sum", a, axis, dtype, out, keepdims, initial, where)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Product of elements; bool and small integers multiply as int64/uint64."""
    return _folding("multiply", "prod", a, axis, dtype, out, keepdims, initial, where)


def max(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Largest element; NaN propagates. Empty input needs `initial`."""
    return _folding("maximum", "max", a, axis, None, out, keepdims, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Smallest element; NaN propagates. Empty input needs `initial`."""
    return _folding("minimum", "min", a, axis, None, out, keepdims, initial, where)


amax, amin = max, min


def any(a, axis=None, out=None, keepdims=False, *, where=True):
    """Whether any element is true."""
    return _folding("logical_or", "any", a, axis, None, out, keepdims, None, where)


def all(a, axis=None, out=None, keepdims=False, *, where=True):
    """Whether every element is true."""
    return _folding("logical_and", "all", a, axis, None, out, keepdims, None, where)


def ptp(a, axis=None, out=None, keepdims=False):
    """Range of values (max - min)."""
    a = _asarray(a)
    return subtract(max(a, axis, None, keepdims), min(a, axis, None, keepdims), out=out)


def count_nonzero(a, axis=None, *, keepdims=False):
    """Number of non-zero elements (an int64 array; 0-d for a full count, as in CuPy)."""
    a = _asarray(a)
    return _core._reduce("add", not_equal(a, 0), axis, "int64", None, builtins.bool(keepdims),
                         None, True, "count_nonzero")


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Arithmetic mean: float64 for integer input; float16 is summed in float32."""
    return _core._mean(_asarray(a), axis, dtype, out, builtins.bool(keepdims), where)


def _ddof(api, ddof, correction, mean):
    if mean is not None:
        raise NotImplementedError(f"[{api}] the mean= argument is not supported yet")
    if correction is not None:
        if ddof != 0:
            raise ValueError(f"[{api}] ddof and correction can't be provided simultaneously.")
        return float(correction)
    return float(ddof)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    """Variance, mean(|x - x.mean()|**2) * n / (n - ddof), in two passes over x."""
    ddof = _ddof("var", ddof, correction, mean)
    return _core._var(_asarray(a), axis, dtype, out, ddof, builtins.bool(keepdims), where, False)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    """Standard deviation: the square root of var."""
    ddof = _ddof("std", ddof, correction, mean)
    return _core._var(_asarray(a), axis, dtype, out, ddof, builtins.bool(keepdims), where, True)


def argmax(a, axis=None, out=None, *, keepdims=False):
    """Index of the first largest element (of the flattened array when axis is None)."""
    return _core._argextreme(_asarray(a), axis, out, builtins.bool(keepdims), True)


def argmin(a, axis=None, out=None, *, keepdims=False):
    """Index of the first smallest element (of the flattened array when axis is None)."""
    return _core._argextreme(_asarray(a), axis, out, builtins.bool(keepdims), False)


def _install():
    def method(function, name):
        def bound(self, *args, **kwargs):
            return function(self, *args, **kwargs)
        bound.__name__ = name
        bound.__doc__ = function.__doc__
        return bound

    for name, function in {"sum": sum, "prod": prod, "max": max, "min": min, "any": any,
                           "all": all, "mean": mean, "var": var, "std": std,
                           "argmax": argmax, "argmin": argmin}.items():
        setattr(ndarray, name, method(function, name))


_install()
