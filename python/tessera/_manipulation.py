"""Shape manipulation that makes views: NumPy's function forms of the ndarray methods, and
the functions that only exist as functions (moveaxis, broadcast_to, atleast_1d, ...)."""

import operator

import numpy as np

from . import _core
from ._creation import asarray

ndarray = _core.ndarray


def reshape(a, /, shape=None, order="C", *, copy=None):
    if shape is None:
        raise TypeError("[reshape] missing the shape")
    return asarray(a).reshape(shape, order=order, copy=copy)


def ravel(a, order="C"):
    return asarray(a).ravel(order)


def transpose(a, axes=None):
    a = asarray(a)
    return a.transpose() if axes is None else a.transpose(axes)


def matrix_transpose(x, /):
    return asarray(x).mT


def permute_dims(a, axes=None):
    return transpose(a, axes)


def swapaxes(a, axis1, axis2):
    return asarray(a).swapaxes(axis1, axis2)


def _axis_list(axis):
    return [operator.index(axis)] if not isinstance(axis, (tuple, list)) else list(axis)


def moveaxis(a, source, destination):
    return asarray(a)._moveaxis(_axis_list(source), _axis_list(destination))


def expand_dims(a, axis):
    return asarray(a)._expand_dims(_axis_list(axis))


def squeeze(a, axis=None):
    return asarray(a).squeeze(axis)


def broadcast_shapes(*shapes):
    return np.broadcast_shapes(*shapes)


def broadcast_to(array, shape):
    """A read-only view of `array` broadcast to `shape`."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    out = asarray(array)._broadcast_to(shape)
    out._writeable = False
    return out


def broadcast_arrays(*args):
    """Views of the arguments broadcast against each other (writeable, as in NumPy 2)."""
    arrays = [asarray(a) for a in args]
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


def _atleast(arrays, ndim, place):
    out = []
    for a in arrays:
        a = asarray(a)
        if a.ndim < ndim:
            a = a.reshape(place(a.shape))
        out.append(a)
    return out[0] if len(out) == 1 else tuple(out)  # NumPy: one array alone, else a tuple


def atleast_1d(*arys):
    return _atleast(arys, 1, lambda s: (1,) if not s else s)


def atleast_2d(*arys):
    return _atleast(arys, 2, lambda s: (1, 1) if not s else (1,) + s)


def atleast_3d(*arys):
    def place(s):
        if len(s) == 0:
            return (1, 1, 1)
        if len(s) == 1:
            return (1, s[0], 1)
        return s + (1,)

    return _atleast(arys, 3, place)


def shape(a):
    return asarray(a).shape


def ndim(a):
    return asarray(a).ndim


def size(a, axis=None):
    a = asarray(a)
    return a.size if axis is None else a.shape[axis]
