"""Shape manipulation that makes views: NumPy's function forms of the ndarray methods, and
the functions that only exist as functions (moveaxis, broadcast_to, atleast_1d, ...)."""

import numpy as np

from . import _core
from ._convert import axis_arg, c_long, index, prefixed
from ._creation import operand

ndarray = _core.ndarray


def reshape(a, /, shape=None, order="C", *, copy=None):
    if shape is None:
        raise TypeError("[reshape] missing the shape")
    return operand(a).reshape(shape, order=order, copy=copy)


def ravel(a, order="C"):
    return operand(a).ravel(order)


def transpose(a, axes=None):
    a = operand(a)
    return a.transpose() if axes is None else a.transpose(axes)


def matrix_transpose(x, /):
    return operand(x).mT


def permute_dims(a, axes=None):
    return transpose(a, axes)


def swapaxes(a, axis1, axis2):
    # Checked here for the engine's int64 arguments: TypeError, OverflowError past int64.
    return operand(a).swapaxes(c_long(axis1, "swapaxes", "axis1"),
                               c_long(axis2, "swapaxes", "axis2"))


def _axis_list(axis, api):
    axes = axis if isinstance(axis, (tuple, list)) else [axis]
    return [c_long(a, api, "axis") for a in axes]


def moveaxis(a, source, destination):
    return operand(a)._moveaxis(_axis_list(source, "moveaxis"), _axis_list(destination, "moveaxis"))


def rollaxis(a, axis, start=0):
    """A view with `axis` moved to before position `start` (NumPy's older moveaxis)."""
    a = operand(a)
    n = a.ndim
    axis = index(axis, "rollaxis", "axis must be an integer")
    start = index(start, "rollaxis", "start must be an integer")
    if not -n <= axis < n:
        raise np.exceptions.AxisError(
            f"[rollaxis] axis {axis} is out of bounds for array of dimension {n}")
    axis %= n
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise np.exceptions.AxisError(f"[rollaxis] 'start' arg requires {-n} <= start < {n + 1}")
    if axis < start:
        start -= 1
    axes = [i for i in range(n) if i != axis]
    axes.insert(start, axis)
    return a.transpose(axes)


def expand_dims(a, axis):
    return operand(a)._expand_dims(_axis_list(axis, "expand_dims"))


def squeeze(a, axis=None):
    return operand(a).squeeze(axis_arg(axis, "squeeze"))


def broadcast_shapes(*shapes):
    try:
        return np.broadcast_shapes(*shapes)
    except (ValueError, TypeError) as error:
        raise prefixed("broadcast_shapes", error) from None


def broadcast_to(array, shape):
    """A read-only view of `array` broadcast to `shape`."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    out = operand(array)._broadcast_to(shape)
    out._writeable = False
    return out


def broadcast_arrays(*args):
    """Views of the arguments broadcast against each other (writeable, as in NumPy 2)."""
    arrays = [operand(a) for a in args]
    try:
        shape = np.broadcast_shapes(*(a.shape for a in arrays))
    except ValueError as error:
        raise ValueError(f"[broadcast_arrays] {error}") from None
    out = []
    for a in arrays:
        if a.shape == shape:
            out.append(a)
        else:
            out.append(a._broadcast_to(shape))
    return tuple(out)


def _atleast(arrays, ndim, raise_rank):
    out = []
    for a in arrays:
        a = operand(a)
        out.append(raise_rank(a) if a.ndim < ndim else a)
    return out[0] if len(out) == 1 else tuple(out)  # NumPy: one array alone, else a tuple


# As NumPy: 0-d arrays are reshaped, others gain axes by indexing (stride 0 for new axes).
def atleast_1d(*arys):
    return _atleast(arys, 1, lambda a: a.reshape(1))


def atleast_2d(*arys):
    return _atleast(arys, 2, lambda a: a.reshape(1, 1) if a.ndim == 0 else a[None, :])


def atleast_3d(*arys):
    def raise_rank(a):
        if a.ndim == 0:
            return a.reshape(1, 1, 1)
        return a[None, :, None] if a.ndim == 1 else a[:, :, None]

    return _atleast(arys, 3, raise_rank)


# The shape of NumPy data is read on the host: no copy, on any device.
def shape(a):
    return a.shape if isinstance(a, ndarray) else np.shape(a)


def ndim(a):
    return a.ndim if isinstance(a, ndarray) else np.ndim(a)


def size(a, axis=None):
    a = a if isinstance(a, ndarray) else np.asarray(a)
    return a.size if axis is None else a.shape[axis]
