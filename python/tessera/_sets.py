"""unique and its array-API forms, and lexsort: sorting, a mask of where sorted values
change, and gathers, all on the array's device (NumPy's algorithm)."""

import collections
import operator

import numpy as np

from . import _core
from ._creation import arange, asarray, empty, operand
from ._elementwise import isnan, logical_or, not_equal
from ._joining import concatenate
from ._manipulation import moveaxis


def lexsort(keys, axis=-1):
    """Indices that sort by the last key, then the one before, ...: stable argsorts from the
    first key to the last."""
    if isinstance(keys, tuple) or isinstance(keys, list):
        keys = [operand(k) for k in keys]
    else:
        keys = operand(keys)
        if keys.ndim == 0:
            raise TypeError("[lexsort] need sequence of keys with len > 0 in lexsort")
        keys = [keys[i] for i in range(keys.shape[0])]
    if not keys:
        raise TypeError("[lexsort] need sequence of keys with len > 0 in lexsort")
    shape = keys[0].shape
    if any(k.shape != shape for k in keys):
        raise ValueError("[lexsort] all keys need to be the same shape")
    if len(shape) == 0:
        return asarray(0)
    from ._indexing import take_along_axis
    order = _core._argsort(keys[0], axis)
    for key in keys[1:]:
        order = take_along_axis(order, _core._argsort(take_along_axis(key, order, axis), axis),
                                axis)
    return order


UniqueAllResult = collections.namedtuple("UniqueAllResult",
                                         ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = collections.namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = collections.namedtuple("UniqueInverseResult",
                                             ["values", "inverse_indices"])


def _unique_flat(ar, return_index, return_inverse, return_counts, equal_nan, shape):
    """NumPy's _unique1d: sort (stably when positions are asked for), mark where the value
    changes, and gather."""
    need_order = return_index or return_inverse
    if need_order:
        order = _core._argsort(ar, -1)
        aux = ar[order]
    else:
        order = None
        aux = _core._sort(ar, -1, False)
    n = aux.shape[0]
    mask = empty((n,), dtype=bool, device=ar.device)
    if n:
        mask[:1] = True
        mask[1:] = not_equal(aux[1:], aux[:-1])
        if equal_nan and aux.dtype.kind in "fc" and bool(isnan(aux[-1])):
            # NaNs sort last; they all count as one value.
            first_nan = int(_core._flatnonzero(isnan(aux))[0])
            mask[first_nan + 1:] = False
    positions = _core._flatnonzero(mask)
    return [aux[positions], *_unique_extras(mask, positions, order, shape, return_index,
                                            return_inverse, return_counts)]


def _unique_extras(mask, positions, order, shape, return_index, return_inverse,
                   return_counts):
    """unique's optional results from the sorted values' change mask: first occurrences,
    the inverse (of `shape`) and the counts."""
    n = mask.shape[0]
    extras = []
    if return_index:
        extras.append(order[positions])
    if return_inverse:
        rank = mask.astype("int64").cumsum() - 1
        inverse = empty((n,), dtype="int64", device=mask.device)
        inverse[order] = rank
        extras.append(inverse.reshape(shape))
    if return_counts:
        ends = concatenate((positions, asarray([n], dtype="int64", device=mask.device)))
        extras.append(ends[1:] - ends[:-1])
    return extras


def _unique_rows(ar, axis, return_index, return_inverse, return_counts):
    """unique along an axis: the slices along it, ordered lexicographically."""
    moved = moveaxis(ar, axis, 0)
    rows = moved.reshape(moved.shape[0], int(np.prod(moved.shape[1:], dtype=np.int64)))
    n, width = rows.shape
    if width == 0:
        order = arange(n, device=ar.device)
    else:
        order = lexsort([rows[:, j] for j in range(width - 1, -1, -1)])
    sorted_rows = rows[order]
    mask = empty((n,), dtype=bool, device=ar.device)
    if n:
        mask[:1] = True
        if width:
            mask[1:] = logical_or.reduce(not_equal(sorted_rows[1:], sorted_rows[:-1]), axis=1)
        else:
            mask[1:] = False
    positions = _core._flatnonzero(mask)
    values = moveaxis(sorted_rows[positions].reshape((positions.size,) + moved.shape[1:]), 0,
                      axis)
    return [values, *_unique_extras(mask, positions, order, (n,), return_index,
                                    return_inverse, return_counts)]


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True):
    """The sorted unique values, and optionally where each first occurs, how to rebuild
    the input from them, and how often each occurs."""
    ar = operand(ar)
    if axis is None:
        result = _unique_flat(ar.ravel(), return_index, return_inverse, return_counts,
                              equal_nan, ar.shape)
    else:
        try:
            axis = operator.index(axis)
        except TypeError:
            raise TypeError(f"[unique] '{type(axis).__name__}' object cannot be interpreted "
                            "as an integer") from None
        if not -ar.ndim <= axis < ar.ndim:
            raise np.exceptions.AxisError(f"[unique] axis {axis} is out of bounds for array "
                                          f"of dimension {ar.ndim}")
        result = _unique_rows(ar, axis % ar.ndim, return_index, return_inverse, return_counts)
    return result[0] if len(result) == 1 else tuple(result)


def unique_values(x):
    """The unique values (array API): NaNs are each their own value."""
    return unique(x, equal_nan=False)


def unique_counts(x):
    """(values, counts) (array API)."""
    return UniqueCountsResult(*unique(x, return_counts=True, equal_nan=False))


def unique_inverse(x):
    """(values, inverse_indices of x's shape) (array API)."""
    return UniqueInverseResult(*unique(x, return_inverse=True, equal_nan=False))


def unique_all(x):
    """(values, indices, inverse_indices, counts) (array API)."""
    return UniqueAllResult(*unique(x, return_index=True, return_inverse=True,
                                   return_counts=True, equal_nan=False))
