"""Weighted averages and differences: average and diff, as NumPy defines them."""

import builtins
import operator

import numpy as np

from . import _reduction
from ._convert import axis_arg, c_long
from ._creation import asarray, operand
from ._elementwise import multiply, not_equal, result_type, subtract
from ._joining import concatenate
from ._manipulation import broadcast_to


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """The (weighted) mean along the axes; with returned, also the sum of the weights."""
    a = operand(a)
    if isinstance(axis, tuple) or np.ndim(axis) == 0:
        axis = axis_arg(axis, "average")
    if weights is None:
        avg = _reduction.mean(a, axis, keepdims=keepdims)
        scale = avg.dtype.type(a.size / builtins.max(avg.size, 1))
        scale = asarray(scale)
    else:
        w = operand(weights)
        if a.dtype.kind in "biu":
            dtype = result_type(a.dtype, w.dtype, "f8")
        else:
            dtype = result_type(a.dtype, w.dtype)
        if a.shape != w.shape:
            if axis is None:
                raise TypeError("[average] Axis must be specified when shapes of a and weights "
                                "differ.")
            axes = (axis,) if np.ndim(axis) == 0 else tuple(axis)
            axes = tuple(operator.index(ax) % a.ndim for ax in axes)
            if w.shape != tuple(a.shape[ax] for ax in axes):
                raise ValueError("[average] Shape of weights must be consistent with shape of a "
                                 "along specified axis.")
            w = w.transpose(tuple(int(i) for i in np.argsort(axes))).reshape(
                tuple(s if d in axes else 1 for d, s in enumerate(a.shape)))
        scale = _reduction.sum(w, axis, dtype, keepdims=keepdims)
        if builtins.bool((scale == 0.0).any()):
            raise ZeroDivisionError("[average] Weights sum to zero, can't be normalized")
        avg = _reduction.sum(multiply(a, w, dtype=dtype), axis, keepdims=keepdims) / scale
    if returned:
        if scale.shape != avg.shape:
            scale = broadcast_to(scale, avg.shape).copy()
        return avg, scale
    return avg


def diff(a, n=1, axis=-1, prepend=np._NoValue, append=np._NoValue):
    """The n-th discrete difference along `axis` (booleans: not_equal, as NumPy)."""
    if n == 0:
        return operand(a)
    if n < 0:
        raise ValueError(f"[diff] order must be non-negative but got {n!r}")
    a = operand(a)
    if a.ndim == 0:
        raise ValueError("[diff] diff requires input that is at least one dimensional")
    axis = c_long(axis, "diff", "axis")
    if not -a.ndim <= axis < a.ndim:
        raise np.exceptions.AxisError(f"[diff] axis {axis} is out of bounds for array of "
                                      f"dimension {a.ndim}")
    axis %= a.ndim
    parts = []
    for extra in (prepend, append):
        if extra is np._NoValue:
            parts.append(None)
            continue
        extra = operand(extra)
        if extra.ndim == 0:
            shape = list(a.shape)
            shape[axis] = 1
            extra = broadcast_to(extra, tuple(shape))
        parts.append(extra)
    if parts[0] is not None or parts[1] is not None:
        a = concatenate([p for p in (parts[0], a, parts[1]) if p is not None], axis)
    head = (slice(None),) * axis
    for _ in range(n):
        later, earlier = a[head + (slice(1, None),)], a[head + (slice(None, -1),)]
        a = not_equal(later, earlier) if a.dtype == bool else subtract(later, earlier)
    return a
