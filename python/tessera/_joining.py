"""Joining, splitting and rearranging arrays: concatenate and the stack family, the split
family, tile, repeat, flips, roll, rot90, append, insert, delete, resize and trim_zeros,
with NumPy's rules. Results are written by device copies into slices of a new array; the
splits and flips are views, as in NumPy."""

import builtins
import itertools
import operator
import warnings

import numpy as np

from . import _core
from ._convert import axis_tuple, c_long, prefixed
from ._core import ndarray
from ._creation import arange, asarray, empty, operand, zeros
from ._elementwise import can_cast, result_type
from ._manipulation import (atleast_1d, atleast_2d, atleast_3d, broadcast_to, expand_dims,
                            moveaxis)


def _axis(api, axis, ndim):
    axis = c_long(axis, api, "axis")
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(f"[{api}] axis {axis} is out of bounds for array of "
                                      f"dimension {ndim}")
    return axis % ndim


def _int(api, value):
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"[{api}] '{type(value).__name__}' object cannot be interpreted as an "
                        "integer") from None


def _along(axis, index):
    """A key selecting `index` along `axis` and everything along the other axes."""
    return (slice(None),) * axis + (index,)


def _joined_dtype(api, arrays, dtype, casting):
    target = np.dtype(dtype) if dtype is not None else result_type(*arrays)
    for a in arrays:
        if not can_cast(a.dtype, target, casting):
            raise TypeError(f"[{api}] Cannot cast array data from {a.dtype!r} to {target!r} "
                            f"according to the rule '{casting}'")
    return target


def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """Joins arrays along an existing axis (None: flattened first)."""
    if isinstance(arrays, ndarray):
        arrays = list(arrays)
    arrays = [operand(a) for a in arrays]
    if not arrays:
        raise ValueError("[concatenate] need at least one array to concatenate")
    if out is not None and dtype is not None:
        raise TypeError("[concatenate] concatenate() only takes `out` or `dtype` as an argument, "
                        "but both were provided.")
    if axis is None:
        arrays = [a.ravel() for a in arrays]
        axis = 0
    first = arrays[0]
    if first.ndim == 0:
        raise ValueError("[concatenate] zero-dimensional arrays cannot be concatenated")
    axis = _axis("concatenate", axis, first.ndim)
    for i, a in enumerate(arrays[1:], 1):
        if a.device != first.device:  # as CuPy: no implicit copy between devices
            raise ValueError(f"[concatenate] arrays are on different devices: the array at "
                             f"index 0 is on {first.device}, the array at index {i} on "
                             f"{a.device}")
        if a.ndim != first.ndim:
            raise ValueError(f"[concatenate] all the input array dimensions except for the "
                             f"concatenation axis must match exactly, but the array at index 0 "
                             f"has {first.ndim} dimension(s) and the array at index {i} has "
                             f"{a.ndim} dimension(s)")
        for d in range(first.ndim):
            if d != axis and a.shape[d] != first.shape[d]:
                raise ValueError(f"[concatenate] all the input array dimensions except for the "
                                 f"concatenation axis must match exactly, but along dimension "
                                 f"{d}, the array at index 0 has size {first.shape[d]} and the "
                                 f"array at index {i} has size {a.shape[d]}")
    shape = list(first.shape)
    shape[axis] = builtins.sum(a.shape[axis] for a in arrays)
    if out is not None:
        if tuple(out.shape) != tuple(shape):
            raise ValueError(f"[concatenate] Output array is the wrong shape: {out.shape}, "
                             f"expected {tuple(shape)}")
        _joined_dtype("concatenate", arrays, out.dtype, casting)
        result = out
    else:
        result = empty(tuple(shape), dtype=_joined_dtype("concatenate", arrays, dtype, casting),
                       device=first.device)
    offset = 0
    for a in arrays:
        n = a.shape[axis]
        result[_along(axis, slice(offset, offset + n))] = a
        offset += n
    return result


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """Joins same-shaped arrays along a new axis."""
    arrays = [operand(a) for a in arrays]
    if not arrays:
        raise ValueError("[stack] need at least one array to stack")
    if builtins.any(a.shape != arrays[0].shape for a in arrays):
        raise ValueError("[stack] all input arrays must have the same shape")
    axis = _axis("stack", axis, arrays[0].ndim + 1)
    return concatenate([expand_dims(a, axis) for a in arrays], axis, out, dtype=dtype,
                       casting=casting)


def vstack(tup, *, dtype=None, casting="same_kind"):
    """Stacks rows: 1-d arrays become rows of a 2-d result."""
    return concatenate([atleast_2d(a) for a in tup], 0, dtype=dtype, casting=casting)


def row_stack(tup, *, dtype=None, casting="same_kind"):
    """vstack under its deprecated NumPy name, with NumPy's DeprecationWarning."""
    warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.",
                  DeprecationWarning, stacklevel=2)
    return vstack(tup, dtype=dtype, casting=casting)


def hstack(tup, *, dtype=None, casting="same_kind"):
    """Stacks columns: along axis 1, or axis 0 for 1-d arrays."""
    arrays = [atleast_1d(a) for a in tup]
    axis = 0 if arrays and arrays[0].ndim == 1 else 1
    return concatenate(arrays, axis, dtype=dtype, casting=casting)


def dstack(tup):
    """Stacks along the third axis."""
    return concatenate([atleast_3d(a) for a in tup], 2)


def column_stack(tup):
    """1-d arrays as columns of a 2-d array; 2-d arrays as they are."""
    arrays = []
    for a in tup:
        a = operand(a)
        arrays.append(a.reshape(-1, 1) if a.ndim < 2 else a)
    return concatenate(arrays, 1)


def array_split(ary, indices_or_sections, axis=0):
    """Views of `ary` cut along `axis` into sections (sizes differing by at most one) or at
    the given indices."""
    return _array_split("array_split", operand(ary), indices_or_sections, axis)


def _array_split(api, ary, indices_or_sections, axis):
    """array_split, its errors named `api` (split's, as NumPy's split calls array_split)."""
    if ary.ndim == 0:
        # NumPy's error for a 0-d array (it reads ary.shape[axis]).
        raise IndexError(f"[{api}] tuple index out of range: a 0-d array has no axis to split")
    axis = _axis(api, axis, ary.ndim)
    n = ary.shape[axis]
    try:
        sections = operator.index(indices_or_sections)
    except TypeError:
        if np.ndim(indices_or_sections) == 0:
            # A number of sections that is not an integer: NumPy takes int() of it.
            try:
                sections = builtins.int(indices_or_sections)
            except (TypeError, ValueError) as error:
                raise TypeError(f"[{api}] indices_or_sections must be an integer or a "
                                f"sequence of integers: {error}") from None
        else:
            sections = None
            bounds = [0, *[_int(api, i) for i in indices_or_sections], n]
    if sections is not None:
        if sections <= 0:
            raise ValueError(f"[{api}] number sections must be larger than 0.")
        size, extra = divmod(n, sections)
        bounds = [0]
        for s in range(sections):
            bounds.append(bounds[-1] + size + (1 if s < extra else 0))
    return [ary[_along(axis, slice(lo, hi))] for lo, hi in zip(bounds[:-1], bounds[1:])]


def split(ary, indices_or_sections, axis=0):
    """array_split, requiring equal sections when a number is given."""
    ary = operand(ary)
    if ary.ndim == 0:
        raise IndexError("[split] tuple index out of range: a 0-d array has no axis to split")
    if np.ndim(indices_or_sections) == 0:
        # A number of sections (NumPy's test, N % sections, lets 2.0 through, not 1.5).
        n = ary.shape[_axis("split", axis, ary.ndim)]
        try:
            uneven = n % indices_or_sections
        except TypeError as error:
            raise TypeError(f"[split] indices_or_sections must be an integer or a sequence of "
                            f"integers: {error}") from None
        except ZeroDivisionError as error:  # NumPy's, for split(a, 0)
            raise prefixed("split", error) from None
        if uneven:
            raise ValueError("[split] array split does not result in an equal division")
    return _array_split("split", ary, indices_or_sections, axis)


def hsplit(ary, indices_or_sections):
    ary = operand(ary)
    if ary.ndim == 0:
        raise ValueError("[hsplit] hsplit only works on arrays of 1 or more dimensions")
    return split(ary, indices_or_sections, 1 if ary.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    ary = operand(ary)
    if ary.ndim < 2:
        raise ValueError("[vsplit] vsplit only works on arrays of 2 or more dimensions")
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    ary = operand(ary)
    if ary.ndim < 3:
        raise ValueError("[dsplit] dsplit only works on arrays of 3 or more dimensions")
    return split(ary, indices_or_sections, 2)


def tile(A, reps):
    """A repeated `reps` times along each axis: one copy out of a broadcast view."""
    A = operand(A)
    reps = (reps,) if np.ndim(reps) == 0 else tuple(reps)
    reps = tuple(_int("tile", r) for r in reps)
    nd = builtins.max(A.ndim, len(reps))
    shape = (1,) * (nd - A.ndim) + A.shape
    reps = (1,) * (nd - len(reps)) + reps
    # Axis of length n, r times: viewed as (1, n), broadcast to (r, n), merged to r * n.
    pairs = [(1, n) for n in shape]
    view = A.reshape(tuple(x for p in pairs for x in p))
    tiled = broadcast_to(view, tuple(x for r, n in zip(reps, shape) for x in (r, n)))
    result = tiled.reshape(tuple(n * r for n, r in zip(shape, reps)))
    # With every rep 1 that reshape is still a (read-only) view; tile gives a new array.
    return result.copy() if builtins.all(r == 1 for r in reps) else result


def repeat(a, repeats, axis=None):
    """Each element repeated `repeats` times (a number, or one count per element)."""
    a = operand(a)
    if axis is None or a.ndim == 0:
        a = a.ravel()
        axis = 0 if axis is None else axis
    axis = _axis("repeat", axis, a.ndim)
    n = a.shape[axis]
    counts = asarray(repeats)
    # NumPy's cast of the counts: Python floats truncate; float arrays and uint64 (not
    # safely int64) do not.
    if counts.dtype.kind == "f" and not isinstance(repeats, (ndarray, np.ndarray)):
        counts = counts.astype("int64")
    if counts.dtype.kind not in "iub" or counts.dtype == np.uint64:
        raise TypeError(f"[repeat] Cannot cast array data from {counts.dtype!r} to "
                        "dtype('int64') according to the rule 'safe'")
    if counts.ndim == 0 or counts.shape == (1,):
        r = int(counts.reshape(()))
        if r < 0:
            raise ValueError("[repeat] negative dimensions are not allowed")
        index = arange(n * r) // r if r else arange(0)
    else:
        if counts.shape != (n,):
            raise ValueError(f"[repeat] operands could not be broadcast together with shape "
                             f"({n},) ({counts.shape[0]},)")
        if bool((counts < 0).any()):
            raise ValueError("[repeat] repeats may not contain negative values.")
        ends = counts.astype("int64").cumsum()
        total = int(ends[-1]) if n else 0
        index = _core._searchsorted(ends, arange(total), True, None)
    return a[_along(axis, index)]


def flip(m, axis=None):
    """A view with the order of elements reversed along `axis` (None: all axes)."""
    m = operand(m)
    if axis is None:
        return m[(slice(None, None, -1),) * m.ndim]
    axes = [_axis("flip", ax, m.ndim) for ax in axis_tuple(axis, "flip")]
    if len(set(axes)) != len(axes):
        raise ValueError("[flip] repeated axis")
    key = [slice(None)] * m.ndim
    for ax in axes:
        key[ax] = slice(None, None, -1)
    return m[tuple(key)]


def fliplr(m):
    m = operand(m)
    if m.ndim < 2:
        raise ValueError("[fliplr] Input must be >= 2-d.")
    return m[:, ::-1]


def flipud(m):
    m = operand(m)
    if m.ndim < 1:
        raise ValueError("[flipud] Input must be >= 1-d.")
    return m[::-1]


def roll(a, shift, axis=None):
    """Elements shifted cyclically along `axis` (None: of the flattened array)."""
    a = operand(a)
    if axis is None:
        return roll(a.ravel(), shift, 0).reshape(a.shape)
    axes = (axis,) if np.ndim(axis) == 0 else tuple(axis)
    shifts = (shift,) * len(axes) if np.ndim(shift) == 0 else tuple(shift)
    if len(shifts) != len(axes):
        if len(axes) == 1:
            axes = axes * len(shifts)
        elif len(shifts) == 1:
            shifts = shifts * len(axes)
        else:
            raise ValueError("[roll] 'shift' and 'axis' should be scalars or 1D sequences")
    total = {}
    for s, ax in zip(shifts, axes):
        ax = _axis("roll", ax, a.ndim)
        total[ax] = total.get(ax, 0) + operator.index(s)
    result = empty(a.shape, dtype=a.dtype, device=a.device)
    # Every combination of the two pieces per rolled axis is one slice copy.
    pieces = [[(slice(None), slice(None))] for _ in range(a.ndim)]
    for ax, s in total.items():
        n = a.shape[ax]
        s = s % n if n else 0
        pieces[ax] = [(slice(0, n - s), slice(s, n)), (slice(n - s, n), slice(0, s))]
    for combo in itertools.product(*pieces):
        result[tuple(c[1] for c in combo)] = a[tuple(c[0] for c in combo)]
    return result


def rot90(m, k=1, axes=(0, 1)):
    """A view rotated by 90 degrees k times in the plane of `axes`."""
    m = operand(m)
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("[rot90] len(axes) must be 2.")
    if axes[0] == axes[1] or builtins.abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("[rot90] Axes must be different.")
    if not (-m.ndim <= axes[0] < m.ndim and -m.ndim <= axes[1] < m.ndim):
        raise ValueError(f"[rot90] Axes={axes} out of range for array of ndim={m.ndim}.")
    k %= 4
    if k == 0:
        return m[...]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    order = list(range(m.ndim))
    order[axes[0]], order[axes[1]] = order[axes[1]], order[axes[0]]
    if k == 1:
        return flip(m, axes[1]).transpose(order)
    return flip(m.transpose(order), axes[1])


def append(arr, values, axis=None):
    """arr and values joined (flattened when axis is None)."""
    arr = operand(arr)
    values = operand(values)
    if axis is None:
        return concatenate((arr.ravel(), values.ravel()), 0)
    return concatenate((arr, values), c_long(axis, "append", "axis"))


def _host_index(obj):
    """An index spec (ints, lists, arrays) on the host: it only steers which slices move."""
    return np.array(obj.get() if isinstance(obj, ndarray) else obj)


def delete(arr, obj, axis=None):
    """A copy without the elements at `obj` (indices, a slice or a mask) along `axis`."""
    arr = operand(arr)
    if axis is None:
        arr, axis = arr.ravel(), 0
    axis = _axis("delete", axis, arr.ndim)
    n = arr.shape[axis]
    keep = np.ones(n, dtype=bool)
    if isinstance(obj, slice):
        keep[obj] = False
    else:
        index = _host_index(obj)
        if index.dtype == bool:
            if index.shape != (n,):
                raise ValueError(f"[delete] boolean array argument obj to delete must be one "
                                 f"dimensional and match the axis length of {n}")
            keep = ~index
        else:
            if index.size == 0 and not isinstance(obj, (np.ndarray, ndarray)):
                index = index.astype(np.intp)
            if index.dtype.kind not in "iu":
                raise IndexError("[delete] arrays used as indices must be of integer (or "
                                 "boolean) type")
            bad = (index < -n) | (index >= n)
            if bad.any():
                raise IndexError(f"[delete] index {index[bad].flat[0]} is out of bounds for "
                                 f"axis {axis} with size {n}")
            keep[index] = False
    return arr[_along(axis, asarray(np.flatnonzero(keep), device=arr.device))]


def insert(arr, obj, values, axis=None):
    """A copy with `values` inserted before the positions `obj` along `axis` (NumPy's
    rules: one position takes a block of values, several take one each)."""
    arr = operand(arr)
    if axis is None:
        arr, axis = arr.ravel(), 0
    axis = _axis("insert", axis, arr.ndim)
    n = arr.shape[axis]
    if isinstance(obj, slice):
        index = np.arange(*obj.indices(n), dtype=np.intp)
    else:
        index = _host_index(obj)
        if index.ndim > 1:
            raise ValueError("[insert] index array argument obj to insert must be one "
                             "dimensional or scalar")
        if index.dtype == bool:
            index = np.flatnonzero(index)
        elif index.dtype.kind not in "iu" and index.size == 1:
            raise TypeError("[insert] slice indices must be integers or None or have an "
                            "__index__ method")
        elif index.dtype.kind not in "iu" and index.size:
            raise IndexError("[insert] arrays used as indices must be of integer (or boolean) "
                             "type")
    shape = list(arr.shape)
    if index.size == 1:
        at = int(index.item())
        if not -n <= at <= n:
            raise IndexError(f"[insert] index {at} is out of bounds for axis {axis} with size "
                             f"{n}")
        at += n if at < 0 else 0
        values = asarray(values, dtype=arr.dtype, device=arr.device)
        values = values.reshape((1,) * (arr.ndim - values.ndim) + values.shape)
        if index.ndim == 0:
            # a[:, 0] = v broadcasts differently from a[:, 0:1] = v; NumPy inserts the latter.
            values = moveaxis(values, 0, axis)
        count = values.shape[axis]
        shape[axis] += count
        new = empty(tuple(shape), dtype=arr.dtype, device=arr.device)
        new[_along(axis, slice(None, at))] = arr[_along(axis, slice(None, at))]
        new[_along(axis, slice(at, at + count))] = values
        new[_along(axis, slice(at + count, None))] = arr[_along(axis, slice(at, None))]
        return new
    if index.size == 0 and not isinstance(obj, (np.ndarray, ndarray)):
        index = index.astype(np.intp)
    if index.dtype.kind not in "iu":
        raise IndexError("[insert] arrays used as indices must be of integer (or boolean) type")
    bad = (index < -n) | (index > n)
    if bad.any():
        raise IndexError(f"[insert] index {index[bad][0]} is out of bounds for axis {axis} "
                         f"with size {n}")
    index = np.where(index < 0, index + n, index).astype(np.intp)
    count = len(index)
    order = index.argsort(kind="stable")
    index[order] += np.arange(count)
    shape[axis] += count
    old = np.ones(shape[axis], dtype=bool)
    old[index] = False
    new = empty(tuple(shape), dtype=arr.dtype, device=arr.device)
    new[_along(axis, asarray(index, device=arr.device))] = values
    new[_along(axis, asarray(np.flatnonzero(old), device=arr.device))] = arr
    return new


def resize(a, new_shape):
    """A new array of `new_shape` filled with a's elements, repeated cyclically."""
    a = operand(a)
    new_shape = (new_shape,) if isinstance(new_shape, int) else tuple(new_shape)
    if builtins.any(s < 0 for s in new_shape):
        raise ValueError("[resize] all elements of `new_shape` must be non-negative")
    total = int(np.prod(new_shape, dtype=np.int64))
    if a.size == 0 or total == 0:
        return zeros(new_shape, dtype=a.dtype, device=a.device)
    flat = a.ravel()
    return flat[arange(total) % a.size].reshape(new_shape)


def trim_zeros(filt, trim="fb", axis=None):
    """filt without its leading ('f') and/or trailing ('b') zeros: along `axis` (an int or
    a tuple), or the bounding box of the non-zeros along every axis when None. A list
    comes back a list, as NumPy slices the object it was given."""
    t = operand(filt)
    trim = trim.lower()
    if trim not in ("fb", "bf", "f", "b"):
        raise ValueError(f"[trim_zeros] unexpected character(s) in `trim`: {trim!r}")
    positions = _core._nonzero(t) if t.ndim else ()
    if not positions or positions[0].size == 0:
        start = stop = [0] * t.ndim  # all zero: every trimmed axis becomes empty
    else:
        start = [int(p.min()) for p in positions]
        stop = [int(p.max()) + 1 for p in positions]
        if "f" not in trim:
            start = [None] * t.ndim
        if "b" not in trim:
            stop = [None] * t.ndim
    if t.ndim == 1:
        return filt[slice(start[0], stop[0])]
    if axis is None:
        axes = range(t.ndim)
    else:
        axes = [_axis("trim_zeros", ax, t.ndim)
                for ax in ((axis,) if np.ndim(axis) == 0 else axis)]
    key = tuple(slice(start[d], stop[d]) if d in axes else slice(None) for d in range(t.ndim))
    return t[key]


ndarray.repeat = lambda self, repeats, axis=None: repeat(self, repeats, axis)
