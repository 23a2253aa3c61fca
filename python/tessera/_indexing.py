"""Index functions: take/put and their along-axis forms, choose, compress, extract, place,
putmask, nonzero, argwhere, flatnonzero, select, searchsorted, indices, ix_,
unravel_index, ravel_multi_index and the diagonal/triangle index helpers. They are built
on advanced indexing and elementwise trees, so they run on the array's device."""

import builtins
import math
import operator

import numpy as np

from . import _core
from ._convert import c_long, index, is_scalar, prefixed, range_length
from ._core import ndarray
from ._creation import arange, asarray, empty, ones, operand, zeros
from ._manipulation import broadcast_shapes, broadcast_to
from ._elementwise import (add, can_cast, clip, equal, floor_divide,
                           greater_equal, less, logical_or, multiply, remainder, result_type,
                           where)


def _axis(api, axis, ndim):
    axis = c_long(axis, api, "axis")
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(f"[{api}] axis {axis} is out of bounds for array of "
                                      f"dimension {ndim}")
    return axis % ndim


def _along(axis, index):
    return (slice(None),) * axis + (index,)


def _index_array(api, indices, device, floats=False, bools=False):
    """Indices as an integer array. `floats`: NumPy's take/put truncate float indices given
    as Python numbers or lists, but not float arrays; the other functions refuse floats (an
    empty list is float to NumPy, so refused too)."""
    is_array = isinstance(indices, (ndarray, np.ndarray))
    if not is_array and not isinstance(indices, np.generic):
        # Python ints past int64: NumPy's index conversion refuses them (OverflowError); as
        # an array they would be uint64, float64 (mixed with small ints) or object.
        try:
            kind = np.asarray(indices).dtype.kind
            if kind in "uO" or (floats and kind == "f"):
                np.asarray(indices, dtype=np.int64)
        except OverflowError as error:
            raise prefixed(api, error) from None
        except (TypeError, ValueError):
            pass  # refused or converted below, as before
    idx = asarray(indices, device=device)
    if idx.dtype.kind in "iu":
        return idx
    if bools and idx.dtype.kind == "b":
        return idx.astype("int64")
    if floats and idx.dtype.kind == "f" and not is_array:
        return idx.astype("int64")
    if idx.size == 0 and floats:
        return idx.astype("int64")
    raise TypeError(f"[{api}] Cannot cast array data from {idx.dtype!r} to dtype('int64') "
                    "according to the rule 'safe'")


def _apply_mode(api, idx, n, mode):
    """Indices under NumPy's out-of-bounds modes: 'raise' checks (in indexing), 'wrap'
    takes them modulo n, 'clip' clamps them to [0, n - 1]."""
    if mode == "raise":
        return idx
    if mode == "wrap":
        return remainder(idx, n) if n else idx
    if mode == "clip":
        return clip(idx, 0, builtins.max(n - 1, 0))
    raise ValueError(f"[{api}] clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")


def take(a, indices, axis=None, out=None, mode="raise"):
    """Elements of `a` at `indices` along `axis` (None: of the flattened array)."""
    a = operand(a)
    if axis is None:
        a, axis = a.ravel(), 0
    if a.ndim == 0:  # NumPy takes from a 0-d array as from its 1-d form, along 0 or -1
        _axis("take", axis, 1)
        a, axis = a.reshape(1), 0
    axis = _axis("take", axis, a.ndim)
    n = a.shape[axis]
    idx = _apply_mode("take", _index_array("take", indices, a.device, floats=True), n, mode)
    if idx.ndim == 0:
        result = a[_along(axis, builtins.int(idx))]
    else:
        result = a[_along(axis, idx)]
    if out is not None:
        if not can_cast(out.dtype, a.dtype, "safe"):
            raise TypeError(f"[take] Cannot cast array data from {out.dtype!r} to {a.dtype!r} "
                            "according to the rule 'safe'")
        if out.shape != result.shape:
            raise ValueError(f"[take] output array does not match result of ndarray.take: "
                             f"{out.shape} vs {result.shape}")
        out[...] = result
        return out
    return result


def put(a, ind, v, mode="raise"):
    """a.flat[ind] = v, v repeated as needed."""
    if not isinstance(a, ndarray):
        raise TypeError(f"[put] argument 1 must be tessera.ndarray, not {type(a).__name__}")
    idx = _apply_mode("put", _index_array("put", ind, a.device, floats=True).ravel(), a.size,
                      mode)
    # Values convert as NumPy converts them to a's dtype: 300 into int8 raises.
    values = v.astype(a.dtype) if isinstance(v, ndarray) else asarray(v, dtype=a.dtype,
                                                                       device=a.device)
    values = values.ravel()
    if idx.size == 0 or values.size == 0:
        return
    if values.size != idx.size:
        values = values[arange(idx.size) % values.size]
    if a.flags.c_contiguous:
        a.reshape(-1)[idx] = values
        return
    if builtins.bool(logical_or(less(idx, -a.size), greater_equal(idx, a.size)).any()):
        bad = idx[logical_or(less(idx, -a.size), greater_equal(idx, a.size))][0]
        raise IndexError(f"[put] index {builtins.int(bad)} is out of bounds for axis 0 with "
                         f"size {a.size}")
    a[unravel_index(where(less(idx, 0), add(idx, a.size), idx), a.shape)] = values


def _along_axis_key(api, arr, indices, axis):
    if indices.dtype.kind not in "iu":
        raise IndexError(f"[{api}] `indices` must be an integer array")
    if axis is None:
        if indices.ndim != 1:
            raise ValueError(f"[{api}] when axis=None, `indices` must have a single dimension.")
        return arr.ravel(), (indices,)
    axis = _axis(api, axis, arr.ndim)
    if indices.ndim != arr.ndim:
        raise ValueError(f"[{api}] `indices` and `arr` must have the same number of dimensions")
    key = []
    for d, n in enumerate(arr.shape):
        if d == axis:
            key.append(indices)
        else:
            shape = [1] * arr.ndim
            shape[d] = n
            key.append(arange(n, device=arr.device).reshape(tuple(shape)))
    return arr, tuple(key)


def take_along_axis(arr, indices, axis=-1):
    """arr[..., indices[i, j], ...]: values picked along `axis` by matching index arrays."""
    arr = operand(arr)
    indices = asarray(indices, device=arr.device)  # index arrays are taken from the host
    source, key = _along_axis_key("take_along_axis", arr, indices, axis)
    return source[key]


def put_along_axis(arr, indices, values, axis):
    """The inverse of take_along_axis, in place."""
    arr = operand(arr)
    indices = asarray(indices, device=arr.device)  # index arrays are taken from the host
    source, key = _along_axis_key("put_along_axis", arr, indices, axis)
    source[key] = values


def choose(a, choices, out=None, mode="raise"):
    """choices[a[i]][i] for every i, all broadcast together."""
    a = _index_array("choose", a, None)
    choices = [operand(c) for c in choices]
    if not choices:
        raise ValueError("[choose] 0-length sequence.")
    n = len(choices)
    if mode == "raise" and a.size and builtins.bool(
            logical_or(less(a, 0), greater_equal(a, n)).any()):
        raise ValueError("[choose] invalid entry in choice array")
    a = _apply_mode("choose", a, n, mode)
    shape = broadcast_shapes(a.shape, *(c.shape for c in choices))
    result = broadcast_to(choices[-1], shape)
    for k in range(n - 2, -1, -1):
        result = where(equal(a, k), choices[k], result)
    if out is not None:
        out[...] = result
        return out
    return result.astype(result_type(*choices), copy=False)


def compress(condition, a, axis=None, out=None):
    """The slices of `a` along `axis` where `condition` (1-d) is true."""
    a = operand(a)
    cond = asarray(condition, device=a.device)
    if cond.ndim != 1:
        raise ValueError("[compress] condition must be a 1-d array")
    if axis is None:
        a, axis = a.ravel(), 0
    axis = _axis("compress", axis, a.ndim)
    picked = _core._flatnonzero(cond)
    if picked.size and builtins.int(picked[-1]) >= a.shape[axis]:
        raise IndexError(f"[compress] index {builtins.int(picked[-1])} is out of bounds for "
                         f"axis {axis} with size {a.shape[axis]}")
    result = a[_along(axis, picked)]
    if out is not None:
        out[...] = result
        return out
    return result


def extract(condition, arr):
    """The elements of arr where condition (same size) is non-zero, flattened."""
    arr = operand(arr)
    return arr.ravel()[_core._flatnonzero(asarray(condition, device=arr.device).ravel())]


def place(arr, mask, vals):
    """arr[mask] = vals, with vals repeated to the number of selected elements."""
    if not isinstance(arr, ndarray):
        raise TypeError(f"[place] argument 1 must be tessera.ndarray, not {type(arr).__name__}")
    mask = asarray(mask, device=arr.device).astype(bool, copy=False)
    if mask.size != arr.size:
        raise ValueError("[place] mask and data must be the same size")
    positions = _core._flatnonzero(mask.ravel())
    values = asarray(vals, dtype=arr.dtype, device=arr.device).ravel()
    if positions.size == 0:
        return
    if values.size == 0:
        raise ValueError("[place] Cannot insert from an empty array!")
    arr[unravel_index(positions, arr.shape)] = values[arange(positions.size) % values.size]


def putmask(a, mask, values):
    """a.flat[i] = values.flat[i % values.size] wherever mask.flat[i], in place."""
    if not isinstance(a, ndarray):
        raise TypeError(f"[putmask] argument a must be a tessera.ndarray, got "
                        f"{type(a).__name__}")
    mask = asarray(mask, device=a.device)
    if mask.size != a.size:
        raise ValueError("[putmask] mask and data must be the same size")
    mask = mask.reshape(a.shape)
    if isinstance(values, (ndarray, np.ndarray)) and not can_cast(values.dtype, a.dtype, "safe"):
        # Arrays of values are cast safely; Python scalars go in as NumPy's do.
        raise TypeError(f"[putmask] Cannot cast array data from {values.dtype!r} to "
                        f"{a.dtype!r} according to the rule 'safe'")
    values = asarray(values, device=a.device).ravel()
    if values.size == 0:
        return
    if values.size != a.size:
        values = values[arange(a.size) % values.size]
    _core._ufuncs["_where"](mask.astype(bool), values.reshape(a.shape).astype(a.dtype), a,
                            out=a, casting="unsafe")


def copyto(dst, src, casting="same_kind", where=True):
    """dst[...] = src (broadcast), checked against `casting` as NumPy does (Python scalars
    by NEP 50: by the value's kind, not its Python type's width), only where `where` holds."""
    if not isinstance(dst, ndarray):
        raise TypeError(f"[copyto] argument 1 must be tessera.ndarray, not {type(dst).__name__}")
    scalar = is_scalar(src) and not isinstance(src, (ndarray, np.ndarray, np.generic))
    from_dtype = result_type(src, dst.dtype) if scalar else operand(src).dtype
    if not can_cast(from_dtype, dst.dtype, casting):
        what = "scalar" if scalar else "array data"
        raise TypeError(f"[copyto] Cannot cast {what} from {np.dtype(from_dtype)!r} to "
                        f"{dst.dtype!r} according to the rule '{casting}'")
    if where is True:
        dst[...] = src
        return
    mask = broadcast_to(asarray(where, device=dst.device).astype(bool, copy=False), dst.shape)
    values = broadcast_to(asarray(src, device=dst.device), dst.shape)
    _core._ufuncs["_where"](mask, values, dst, out=dst, casting="unsafe")


def fill_diagonal(a, val, wrap=False):
    """a's main diagonal set to val (repeated as needed), in place; for a tall matrix, wrap
    continues it below the first square as NumPy's flat stride does."""
    if not isinstance(a, ndarray):
        raise TypeError(f"[fill_diagonal] argument 1 must be tessera.ndarray, not "
                        f"{type(a).__name__}")
    if a.ndim < 2:
        raise ValueError("[fill_diagonal] array must be at least 2-d")
    if a.ndim == 2:
        step = a.shape[1] + 1
        end = a.size if wrap else builtins.min(a.size, a.shape[1] * a.shape[1])
    else:
        if builtins.any(n != a.shape[0] for n in a.shape):
            raise ValueError("[fill_diagonal] All dimensions of input must be of equal length")
        step = 1 + builtins.sum(int(np.prod(a.shape[:i + 1])) for i in range(a.ndim - 1))
        end = a.size
    positions = arange(0, end, step, device=a.device)
    values = asarray(val, device=a.device).astype(a.dtype, copy=False).ravel()
    if positions.size == 0 or values.size == 0:
        return
    a[unravel_index(positions, a.shape)] = values[arange(positions.size, device=a.device) %
                                                  values.size]


def mask_indices(n, mask_func, k=0):
    """The indices where mask_func(ones((n, n)), k) is non-zero (triu, tril, ...)."""
    return nonzero(mask_func(ones((n, n), dtype=int), k) != 0)


def nonzero(a):
    """Indices of the non-zero elements, one int64 array per dimension."""
    return _core._nonzero(operand(a))


def flatnonzero(a):
    """Indices of the non-zero elements of the flattened array."""
    return _core._flatnonzero(operand(a).ravel())


def argwhere(a):
    """Indices of the non-zero elements as rows: shape (count, ndim)."""
    a = operand(a)
    if a.ndim == 0:
        count = builtins.int(builtins.bool(a))
        return zeros((count, 0), dtype="int64", device=a.device)
    parts = _core._nonzero(a)
    out = empty((parts[0].size, a.ndim), dtype="int64", device=a.device)
    for d, p in enumerate(parts):
        out[:, d] = p
    return out


def select(condlist, choicelist, default=0):
    """choicelist[k] where condlist[k] first holds, else default (one fused select)."""
    if len(condlist) != len(choicelist):
        raise ValueError("[select] list of cases must be same length as list of conditions")
    if len(choicelist) == 0:
        raise ValueError("[select] select with an empty condition list is not possible")
    choices = [operand(c) for c in choicelist]
    conds = []
    for i, c in enumerate(condlist):
        c = operand(c)
        if c.dtype != bool:
            raise TypeError(f"[select] invalid entry {i} in condlist: should be boolean ndarray")
        conds.append(c)
    if not is_scalar(default):  # a scalar default stays weak in the promotion
        default = operand(default)
    dtype = result_type(*choices, default)
    result = asarray(default, dtype=dtype)
    for cond, choice in zip(reversed(conds), reversed(choices)):
        result = where(cond, choice, result)
    return result.astype(dtype, copy=False)


def searchsorted(a, v, side="left", sorter=None):
    """Where each of v goes in the sorted 1-d a to keep it sorted."""
    if side not in ("left", "right"):
        raise ValueError(f"[searchsorted] side must be 'left' or 'right' (got {side!r})")
    a = operand(a)
    values = operand(v)
    order = None if sorter is None else asarray(sorter, device=a.device)
    if order is not None and order.ndim != 1:
        raise TypeError(f"[searchsorted] sorter must be 1-d, got {order.ndim}-d")
    return _core._searchsorted(a, values, side == "right", order)


def indices(dimensions, dtype=int, sparse=False):
    """Grids of indices: out[k][i0, i1, ...] = ik."""
    dimensions = tuple(dimensions)
    nd = len(dimensions)
    grids = []
    for k, n in enumerate(dimensions):
        shape = [1] * nd
        shape[k] = n
        grids.append(arange(n, dtype=dtype).reshape(tuple(shape)))
    if sparse:
        return tuple(grids)
    out = empty((nd,) + dimensions, dtype=dtype)
    for k, g in enumerate(grids):
        out[k] = g
    return out


def ix_(*args):
    """Open meshes from 1-d sequences (boolean ones as their non-zero positions)."""
    out = []
    nd = len(args)
    for k, seq in enumerate(args):
        seq = asarray(seq)
        if seq.ndim != 1:
            raise ValueError("[ix_] Cross index must be 1 dimensional")
        if seq.size == 0 and seq.dtype.kind not in "iub":
            seq = seq.astype("int64")
        if seq.dtype == bool:
            seq = _core._flatnonzero(seq)
        shape = [1] * nd
        shape[k] = seq.size
        out.append(seq.reshape(tuple(shape)))
    return tuple(out)


def _dims(api, dims):
    dims = (dims,) if np.ndim(dims) == 0 else tuple(dims)
    try:
        return tuple(operator.index(d) for d in dims)
    except TypeError as error:
        raise TypeError(f"[{api}] {error}") from None


def _element_steps(shape, order):
    """How far apart in the flat index neighbours along each axis are (C or F order)."""
    steps = []
    step = 1
    for n in (reversed(shape) if order == "C" else shape):
        steps.append(step)
        step *= n
    return steps[::-1] if order == "C" else steps


def _c_or_f(api, order):
    """NumPy's order for flat indices: 'C' (also None) or 'F', in either case."""
    if order is None:
        return "C"
    if isinstance(order, str) and order.upper() in ("C", "F"):
        return order.upper()
    raise ValueError(f"[{api}] only 'C' or 'F' order is permitted")


def unravel_index(indices, shape, order="C"):
    """Flat indices as a tuple of coordinate arrays for `shape`."""
    shape = _dims("unravel_index", shape)
    order = _c_or_f("unravel_index", order)
    if math.prod(shape) > np.iinfo(np.int64).max:
        raise ValueError("[unravel_index] dimensions are too large; arrays and shapes with a "
                         "total size greater than 'intp' are not supported.")
    idx = _index_array("unravel_index", indices, None, bools=True)
    size = builtins.int(np.prod(shape, dtype=np.int64))
    outside = logical_or(less(idx, 0), greater_equal(idx, size))
    if idx.size and builtins.bool(outside.any()):
        bad = idx.ravel()[outside.ravel()][0]
        raise ValueError(f"[unravel_index] index {builtins.int(bad)} is out of bounds for array "
                         f"with size {size}")
    out = []
    for n, s in zip(shape, _element_steps(shape, order)):
        out.append(remainder(floor_divide(idx, s), n) if n else floor_divide(idx, 1))
    return tuple(o.astype("int64", copy=False) for o in out)


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """Coordinate arrays as flat indices into an array of shape `dims`."""
    dims = _dims("ravel_multi_index", dims)
    order = _c_or_f("ravel_multi_index", order)
    if math.prod(dims) > np.iinfo(np.int64).max:
        raise ValueError("[ravel_multi_index] invalid dims: array size defined by dims is larger "
                         "than the maximum possible size.")
    if len(multi_index) != len(dims):
        raise ValueError(f"[ravel_multi_index] parameter multi_index must be a sequence of "
                         f"length {len(dims)}")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    total = None
    for coord, n, s, m in zip(multi_index, dims, _element_steps(dims, order), modes):
        c = _index_array("ravel_multi_index", coord, None, bools=True)
        if m == "raise" and c.size and builtins.bool(
                logical_or(less(c, 0), greater_equal(c, n)).any()):
            raise ValueError("[ravel_multi_index] invalid entry in coordinates array")
        c = _apply_mode("ravel_multi_index", c, n, m)
        term = multiply(c.astype("int64"), s)
        total = term if total is None else add(total, term)
    return total


def diag_indices(n, ndim=2):
    """Indices of the main diagonal of an (n, n, ...) array."""
    idx = arange(range_length(n, "diag_indices", "n"))
    return (idx,) * ndim


def _shape_only(arr):
    """What the *_indices_from functions read of `arr`: its shape, on the host for NumPy data."""
    return arr if isinstance(arr, ndarray) else np.broadcast_to(False, np.shape(arr))


def diag_indices_from(arr):
    arr = _shape_only(arr)
    if arr.ndim < 2:
        raise ValueError("[diag_indices_from] input array must be at least 2-d")
    if builtins.any(s != arr.shape[0] for s in arr.shape):
        raise ValueError("[diag_indices_from] All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


def _triangle(n, k, m, lower, api):
    n = range_length(n, api, "n")
    m = n if m is None else range_length(m, api, "m")
    # A diagonal past the edge (any Python int, as NumPy takes) selects all or nothing.
    k = builtins.max(-n - 1, builtins.min(index(k, api, "k"), m + 1))
    rows = arange(n).reshape(n, 1)
    cols = arange(m).reshape(1, m)
    mask = greater_equal(add(rows, k), cols) if lower else greater_equal(cols, add(rows, k))
    return _core._nonzero(mask)


def tril_indices(n, k=0, m=None):
    """Indices of the lower triangle (diagonal k and below) of an (n, m) array."""
    return _triangle(n, k, m, True, "tril_indices")


def triu_indices(n, k=0, m=None):
    """Indices of the upper triangle (diagonal k and above) of an (n, m) array."""
    return _triangle(n, k, m, False, "triu_indices")


def tril_indices_from(arr, k=0):
    arr = _shape_only(arr)
    if arr.ndim != 2:
        raise ValueError("[tril_indices_from] input array must be 2-d")
    return tril_indices(arr.shape[-2], k, arr.shape[-1])


def triu_indices_from(arr, k=0):
    arr = _shape_only(arr)
    if arr.ndim != 2:
        raise ValueError("[triu_indices_from] input array must be 2-d")
    return triu_indices(arr.shape[-2], k, arr.shape[-1])


def _install():
    ndarray.nonzero = lambda self: nonzero(self)
    ndarray.take = lambda self, indices, axis=None, out=None, mode="raise": take(
        self, indices, axis, out, mode)
    ndarray.put = lambda self, indices, values, mode="raise": put(self, indices, values, mode)
    ndarray.compress = lambda self, condition, axis=None, out=None: compress(
        condition, self, axis, out)
    ndarray.choose = lambda self, choices, out=None, mode="raise": choose(self, choices, out, mode)
    ndarray.searchsorted = lambda self, v, side="left", sorter=None: searchsorted(
        self, v, side, sorter)


_install()
