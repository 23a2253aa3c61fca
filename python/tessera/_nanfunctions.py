"""NaN-ignoring reductions and scans (NumPy's nanfunctions): NaN is replaced by the
operation's neutral value in a fused select, so nansum(x) still reads x once. Integer and
boolean input has no NaN and goes straight to the plain function."""

import builtins

import numpy as np

from . import _core, _reduction
from ._convert import axis_arg, c_long
from ._creation import operand
from ._elementwise import isnan, logical_not, subtract
from ._elementwise import where as _select  # `where` is also an argument name here


def _inexact(a):
    return a.dtype.kind in "fc"


def _replace_nan(a, value):
    """(a with NaN replaced by value, the NaN mask), or (a, None) for non-inexact a."""
    a = operand(a)
    if not _inexact(a):
        return a, None
    mask = isnan(a)
    return _select(mask, value, a), mask


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_reduction._NoValue,
           where=True):
    """Sum treating NaN as zero."""
    axis = axis_arg(axis, "nansum")
    a, _ = _replace_nan(a, 0)
    return _reduction.sum(a, axis, dtype, out, keepdims, initial, where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_reduction._NoValue,
            where=True):
    """Product treating NaN as one."""
    axis = axis_arg(axis, "nanprod")
    a, _ = _replace_nan(a, 1)
    return _reduction.prod(a, axis, dtype, out, keepdims, initial, where)


def nancumsum(a, axis=None, dtype=None, out=None):
    """Running sum treating NaN as zero."""
    axis = None if axis is None else c_long(axis, "nancumsum", "axis")
    a, _ = _replace_nan(a, 0)
    return _reduction.cumsum(a, axis, dtype, out)


def nancumprod(a, axis=None, dtype=None, out=None):
    """Running product treating NaN as one."""
    axis = None if axis is None else c_long(axis, "nancumprod", "axis")
    a, _ = _replace_nan(a, 1)
    return _reduction.cumprod(a, axis, dtype, out)


def _fold_ignoring_nan(op, plain, api, a, axis, out, keepdims, initial, where):
    a = operand(a)
    axis = axis_arg(axis, api)
    if not _inexact(a):
        return plain(a, axis, out, keepdims, initial, where)
    # fmax/fmin skip NaN, and give NaN only where a slice is all NaN, as NumPy's nanmax.
    result = _reduction._folding(op, api, a, axis, None, out, keepdims, initial, where)
    if result.size and builtins.bool(isnan(result).any()):
        _reduction._warn("All-NaN slice encountered", depth=2)
    return result


def nanmax(a, axis=None, out=None, keepdims=False, initial=_reduction._NoValue, where=True):
    """Largest element ignoring NaN (NaN for an all-NaN slice)."""
    return _fold_ignoring_nan("fmax", _reduction.max, "nanmax", a, axis, out, keepdims,
                              initial, where)


def nanmin(a, axis=None, out=None, keepdims=False, initial=_reduction._NoValue, where=True):
    """Smallest element ignoring NaN (NaN for an all-NaN slice)."""
    return _fold_ignoring_nan("fmin", _reduction.min, "nanmin", a, axis, out, keepdims,
                              initial, where)


def _nan_arg(api, fill, plain, a, axis, out, keepdims):
    a = operand(a)
    if not _inexact(a):
        return plain(a, axis, out, keepdims=keepdims)
    replaced, mask = _replace_nan(a, fill)
    if a.size and builtins.bool(_reduction.all(mask, axis=axis).any()):
        raise ValueError(f"[{api}] All-NaN slice encountered")
    return plain(replaced, axis, out, keepdims=keepdims)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """Index of the largest element ignoring NaN; ValueError for an all-NaN slice."""
    axis = None if axis is None else c_long(axis, "nanargmax", "axis")
    return _nan_arg("nanargmax", -np.inf, _reduction.argmax, a, axis, out, keepdims)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    """Index of the smallest element ignoring NaN; ValueError for an all-NaN slice."""
    axis = None if axis is None else c_long(axis, "nanargmin", "axis")
    return _nan_arg("nanargmin", np.inf, _reduction.argmin, a, axis, out, keepdims)


def _check_inexact(api, dtype, out):
    if dtype is not None and np.dtype(dtype).kind not in "fc":
        raise TypeError(f"[{api}] If a is inexact, then dtype must be inexact")
    if out is not None and out.dtype.kind not in "fc":
        raise TypeError(f"[{api}] If a is inexact, then out must be inexact")


def _divide_in_place(total, count, out):
    target = total if out is None else out
    return _core._ufuncs["divide"](total, count, out=target, casting="unsafe")


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Mean of the non-NaN elements (NaN for an all-NaN slice)."""
    axis = axis_arg(axis, "nanmean")
    arr, mask = _replace_nan(a, 0)
    if mask is None:
        return _reduction.mean(arr, axis, dtype, out, keepdims, where=where)
    _check_inexact("nanmean", dtype, out)
    count = _reduction.sum(logical_not(mask), axis, "int64", None, keepdims, where=where)
    total = _reduction.sum(arr, axis, dtype, out, keepdims, where=where)
    if count.size and builtins.bool((count == 0).any()):
        _reduction._warn("Mean of empty slice")
    return _divide_in_place(total, count, out)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
           mean=None, correction=None):
    """Variance of the non-NaN elements, by NumPy's nanvar formula."""
    axis = axis_arg(axis, "nanvar")
    ddof = _reduction._ddof("nanvar", ddof, correction)
    arr, mask = _replace_nan(a, 0)
    if mask is None:
        return _reduction.var(arr, axis, dtype, out, ddof, keepdims, where=where, mean=mean)
    _check_inexact("nanvar", dtype, out)
    count = _reduction.sum(logical_not(mask), axis, "int64", None, True, where=where)
    if mean is not None:
        average = operand(mean)
    else:
        average = _reduction.sum(arr, axis, dtype, None, True, where=where)
        average = _divide_in_place(average, count, None)
    deviation = subtract(arr, average).astype(arr.dtype, copy=False)
    deviation = _select(mask, 0, deviation)
    if arr.dtype.kind == "c":
        squares = deviation.real * deviation.real + deviation.imag * deviation.imag
    else:
        squares = deviation * deviation
    result = _reduction.sum(squares, axis, dtype, out, keepdims, where=where)
    if result.ndim < count.ndim:
        count = count.reshape(result.shape)
    dof = subtract(count, ddof)
    result = _divide_in_place(result, dof, out)
    bad = dof <= 0
    if builtins.bool(bad.any()):
        _reduction._warn("Degrees of freedom <= 0 for slice.")
        _core._ufuncs["_where"](bad, np.nan, result, out=result, casting="unsafe")
    return result


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
           mean=None, correction=None):
    """Standard deviation of the non-NaN elements."""
    axis = axis_arg(axis, "nanstd")
    result = nanvar(a, axis, dtype, out, ddof, keepdims, where=where, mean=mean,
                    correction=correction)
    return _core._ufuncs["sqrt"](result, out=result)
