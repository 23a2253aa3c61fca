"""NumPy's index tricks: mgrid and ogrid (grids from slice notation) and r_ and c_
(concatenation from slice notation), made on the current device."""

import math

import numpy as np

from ._core import ndarray
from ._creation import arange, array, linspace
from ._elementwise import result_type
from ._indexing import indices
from ._joining import concatenate, stack

__all__ = ["c_", "mgrid", "ogrid", "r_"]

_SCALARS = (bool, int, float, complex, np.generic)


def _bounds(item):
    start = 0 if item.start is None else item.start
    step = 1 if item.step is None else item.step
    return start, item.stop, step


def _slice_values(item):
    """A slice's values: arange(start, stop, step), or for a complex step n linspace's n
    points from start to stop, stop included (NumPy's r_ and 1-d mgrid)."""
    start, stop, step = _bounds(item)
    if isinstance(step, (complex, np.complexfloating)):
        return linspace(start, stop, num=int(abs(step)))
    return arange(start, stop, step)


class _Grid:
    """mgrid (dense: one array per sliced axis, stacked) and ogrid (open: broadcastable
    1-d arrays)."""

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        if isinstance(key, slice):
            return self._one(key)
        key = tuple(key)
        sizes, numbers = [], [0]
        for item in key:
            if not isinstance(item, slice):
                raise TypeError(f"[{self._name}] takes slices, got {type(item).__name__}")
            start, stop, step = _bounds(item)
            if isinstance(step, (complex, np.complexfloating)):
                step = abs(step)
                sizes.append(int(step))
            else:
                sizes.append(int(math.ceil((stop - start) / step)))
            numbers += [start, stop, step]
        dtype = np.result_type(*numbers)
        if self.sparse:
            grids = [arange(n, dtype=dtype) for n in sizes]
        else:
            grids = list(indices(sizes, dtype=dtype))
        for k, item in enumerate(key):
            start, stop, step = _bounds(item)
            if isinstance(step, (complex, np.complexfloating)):
                points = int(abs(step))
                step = 1 if points == 1 else (stop - start) / float(points - 1)
            grids[k] = grids[k] * step + start
        if self.sparse:
            return tuple(g.reshape((1,) * k + (-1,) + (1,) * (len(key) - k - 1))
                         for k, g in enumerate(grids))
        return stack(grids)

    def _one(self, item):
        start, stop, step = _bounds(item)
        if isinstance(step, (complex, np.complexfloating)):
            length = int(abs(step))
            spacing = 1 if length == 1 else (stop - start) / float(length - 1)
            dtype = np.result_type(start, stop, abs(step))
            return arange(0, length, 1, dtype=dtype) * spacing + start
        return arange(start, stop, step)

    @property
    def _name(self):
        return "ogrid" if self.sparse else "mgrid"

    def __len__(self):
        return 0


class _Concatenator:
    """r_ (along the first axis, 1-d at least) and c_ (along the last, 2-d at least, 1-d
    arrays as columns). A first string entry "axis", "axis,ndmin" or "axis,ndmin,trans1d"
    changes them, as NumPy's; its matrix directives 'r' and 'c' need numpy.matrix, which
    tessera has no counterpart of."""

    def __init__(self, name, axis, ndmin, trans1d):
        self.name, self.axis, self.ndmin, self.trans1d = name, axis, ndmin, trans1d

    def __getitem__(self, key):
        if isinstance(key, str):
            raise ValueError(f"[{self.name}] the matrix form (a string alone) needs "
                             "numpy.matrix, which tessera does not have")
        key = key if isinstance(key, tuple) else (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        objs, kinds = [], []
        for k, item in enumerate(key):
            if isinstance(item, str):
                if k != 0:
                    raise ValueError(f"[{self.name}] special directives must be the first entry.")
                axis, ndmin, trans1d = self._directive(item, ndmin, trans1d)
                continue
            if isinstance(item, slice):
                obj = _slice_values(item)
                if ndmin > 1:
                    obj = array(obj, copy=None, ndmin=ndmin)
                    if trans1d != -1:
                        obj = obj.swapaxes(-1, trans1d)
                kinds.append(obj.dtype)
            elif isinstance(item, _SCALARS):
                obj = item
                kinds.append(item)
            else:
                item_ndim = item.ndim if isinstance(item, ndarray) else np.ndim(item)
                obj = array(item, copy=None, ndmin=ndmin)
                if trans1d != -1 and item_ndim < ndmin:
                    k2 = ndmin - item_ndim
                    k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
                    order = list(range(ndmin))
                    obj = obj.transpose(order[:k1] + order[k2:] + order[k1:k2])
                kinds.append(obj.dtype)
            objs.append(obj)
        if kinds:
            dtype = result_type(*kinds)
            objs = [array(o, copy=None, ndmin=ndmin, dtype=dtype) for o in objs]
        return concatenate(tuple(objs), axis=axis)

    def _directive(self, item, ndmin, trans1d):
        if item in ("r", "c"):
            raise ValueError(f"[{self.name}] the matrix directive {item!r} needs numpy.matrix, "
                             "which tessera does not have")
        parts = item.split(",")
        try:
            if len(parts) == 1:
                return int(item), ndmin, trans1d
            # NumPy reads "axis,ndmin" and a third "trans1d"; entries past three are ignored.
            axis, ndmin = int(parts[0]), int(parts[1])
            if len(parts) == 3:
                trans1d = int(parts[2])
        except ValueError:
            raise ValueError(f"[{self.name}] unknown special directive {item!r}") from None
        return axis, ndmin, trans1d

    def __len__(self):
        return 0


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)
r_ = _Concatenator("r_", axis=0, ndmin=1, trans1d=-1)
c_ = _Concatenator("c_", axis=-1, ndmin=2, trans1d=0)
