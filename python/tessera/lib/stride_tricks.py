"""numpy.lib.stride_tricks: views made from explicit strides. as_strided checks what NumPy
does not: a view that would reach outside the array's memory is a ValueError, since a GPU
or the CPU would otherwise read or write past the buffer."""

import operator

import numpy as np

from .._core import ndarray
from .._creation import operand

__all__ = ["as_strided", "sliding_window_view"]


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """A view of x with the given shape and strides (in bytes), read-only unless
    `writeable` (and x is)."""
    x = operand(x)
    shape = x.shape if shape is None else tuple(operator.index(n) for n in shape)
    strides = x.strides if strides is None else tuple(operator.index(s) for s in strides)
    view = x._as_strided(shape, strides)
    if not writeable:
        view._writeable = False
    return view


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """Every window of `window_shape` over the given axes (all of them by default), as a
    view whose trailing axes run over each window: read-only unless `writeable`."""
    x = operand(x)
    window_shape = (tuple(operator.index(n) for n in window_shape)
                    if np.iterable(window_shape) else (operator.index(window_shape),))
    if any(n < 0 for n in window_shape):
        raise ValueError("[sliding_window_view] `window_shape` cannot contain negative values")
    if axis is None:
        axis = tuple(range(x.ndim))
        if len(window_shape) != len(axis):
            raise ValueError(
                f"[sliding_window_view] Since axis is `None`, must provide window_shape for "
                f"all dimensions of `x`; got {len(window_shape)} window_shape elements and "
                f"`x.ndim` is {x.ndim}.")
    else:
        axes = axis if np.iterable(axis) else (axis,)
        try:
            axis = tuple(np.lib.array_utils.normalize_axis_index(operator.index(a), x.ndim)
                         for a in axes)
        except np.exceptions.AxisError as error:
            raise np.exceptions.AxisError(f"[sliding_window_view] {error}") from None
        if len(window_shape) != len(axis):
            raise ValueError(
                f"[sliding_window_view] Must provide matching length window_shape and axis; "
                f"got {len(window_shape)} window_shape elements and {len(axis)} axes "
                f"elements.")
    shape = list(x.shape)
    for ax, n in zip(axis, window_shape):
        if shape[ax] < n:
            raise ValueError("[sliding_window_view] window shape cannot be larger than input "
                             "array shape")
        shape[ax] -= n - 1
    strides = x.strides + tuple(x.strides[ax] for ax in axis)
    return as_strided(x, tuple(shape) + window_shape, strides, writeable=writeable)
