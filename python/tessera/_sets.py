"""unique and its array-API forms, lexsort, the set operations of 1-d arrays (isin,
intersect1d, setdiff1d, setxor1d, union1d) and ediff1d: sorting, a mask of where sorted
values change, binary searches and gathers, all on the array's device."""

import collections
import operator

import numpy as np

from . import _core
from ._convert import axis_tuple
from ._creation import arange, asarray, empty, full, operand
from ._elementwise import (can_cast, equal, greater_equal, isnan, less, logical_and,
                           logical_not, logical_or, minimum, not_equal, result_type, subtract)
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


def _unique_axis(axis, ndim):
    """unique's axis, checked as NumPy's unique checks it: by moveaxis(ar, axis, 0) first,
    which takes any iterable of axes (axis={} is none) and refuses a number of them other
    than one; an iterable of one axis gets past it, to fail as a list index later."""
    axes = axis_tuple(axis, "unique")
    for ax in axes:
        if not -ndim <= ax < ndim:
            raise np.exceptions.AxisError(f"[unique] axis {ax} is out of bounds for array of "
                                          f"dimension {ndim}")
    if len({ax % ndim for ax in axes}) != len(axes):
        raise ValueError("[unique] repeated axis in `source` argument")
    if len(axes) != 1:
        raise ValueError("[unique] `source` and `destination` arguments must have the same "
                         "number of elements")
    try:
        operator.index(axis)
    except TypeError:
        raise TypeError(f"[unique] list indices must be integers or slices, not "
                        f"{type(axis).__name__}") from None
    return axes[0] % ndim


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *,
           equal_nan=True, sorted=True):
    """The sorted unique values, and optionally where each first occurs, how to rebuild
    the input from them, and how often each occurs."""
    ar = operand(ar)
    if axis is None:
        result = _unique_flat(ar.ravel(), return_index, return_inverse, return_counts,
                              equal_nan, ar.shape)
    else:
        result = _unique_rows(ar, _unique_axis(axis, ar.ndim), return_index, return_inverse,
                              return_counts)
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


# ------------------------------------------------------------------ set operations


def _isin_flat(ar1, ar2, invert):
    """Whether each of the 1-d ar1 is in the 1-d ar2 (or not, with invert): a binary search
    of each element in the sorted ar2, then an equality test where it lands. O((n + m) log m),
    and NaN is in nothing, as with NumPy's comparisons."""
    n = ar1.shape[0]
    kinds = {ar1.dtype.kind, ar2.dtype.kind}
    negative = None
    if kinds == {"i", "u"} and result_type(ar1, ar2).kind == "f":
        # uint64 with a signed integer: NumPy promotes to float64, which rounds; compare
        # exactly instead (as NumPy's table method does): a negative value is in no uint64.
        if ar1.dtype.kind == "u":
            ar2 = ar2[greater_equal(ar2, 0)].astype(ar1.dtype)
        else:
            negative = less(ar1, 0)
            ar1 = ar1.astype(ar2.dtype)
    if n == 0 or ar2.shape[0] == 0:
        return full((n,), bool(invert), dtype=bool, device=ar1.device)
    dtype = result_type(ar1, ar2)
    values = ar1.astype(dtype, copy=False)
    table = _core._sort(ar2.astype(dtype, copy=False), -1, False)
    slot = minimum(_core._searchsorted(table, values, False, None), table.shape[0] - 1)
    found = equal(table[slot], values)
    if negative is not None:
        found = logical_and(found, logical_not(negative))
    return logical_not(found) if invert else found



def _check_isin_kind(ar1, ar2, kind):
    """NumPy's checks of isin's kind: None, 'sort' or 'table' (integers or booleans only, of
    a range that ar2's dtype holds). Every kind computes the same result here."""
    if kind not in {None, "sort", "table"}:
        raise ValueError(f"[isin] Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    if kind != "table":
        return
    if not all(a.dtype.kind in "uib" for a in (ar1, ar2)):
        raise ValueError("[isin] The 'table' method is only supported for boolean or integer "
                         "arrays. Please select 'sort' or None for kind.")
    if ar2.size == 0:
        return
    dtype = np.dtype(np.uint8) if ar2.dtype.kind == "b" else ar2.dtype
    span = int(ar2.max()) - int(ar2.min())
    if span > np.iinfo(dtype).max:
        raise RuntimeError("[isin] You have specified kind='table', but the range of values in "
                           "`ar2` or `ar1` exceed the maximum integer of the datatype. Please "
                           "set `kind` to None or 'sort'.")


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """Whether each element is one of test_elements (flattened), as a boolean array of
    element's shape; invert=True gives the opposite. assume_unique and kind change nothing
    in the result (a binary search in the sorted test_elements serves every case)."""
    element = operand(element)
    test = operand(test_elements).ravel()
    _check_isin_kind(element, test, kind)
    return _isin_flat(element.ravel(), test, invert).reshape(element.shape)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted values in both ar1 and ar2, and optionally where each first occurs in the
    flattened ar1 and ar2."""
    ar1, ar2 = operand(ar1), operand(ar2)
    if not assume_unique:
        if return_indices:
            ar1, ind1 = unique(ar1, return_index=True)
            ar2, ind2 = unique(ar2, return_index=True)
        else:
            ar1, ar2 = unique(ar1), unique(ar2)
    else:
        ar1, ar2 = ar1.ravel(), ar2.ravel()
    aux = concatenate((ar1, ar2))
    if return_indices:
        order = _core._argsort(aux, -1)  # stable: ar1's value comes before ar2's
        aux = aux[order]
    else:
        aux = _core._sort(aux, -1, False)
    same = _core._flatnonzero(equal(aux[1:], aux[:-1]))
    values = aux[same]
    if not return_indices:
        return values
    ar1_indices = order[same]
    ar2_indices = order[same + 1] - ar1.size
    if not assume_unique:
        ar1_indices, ar2_indices = ind1[ar1_indices], ind2[ar2_indices]
    return values, ar1_indices, ar2_indices


def setxor1d(ar1, ar2, assume_unique=False):
    """The sorted values in exactly one of ar1 and ar2."""
    ar1, ar2 = operand(ar1), operand(ar2)
    if not assume_unique:
        ar1, ar2 = unique(ar1), unique(ar2)
    aux = concatenate((ar1.ravel(), ar2.ravel()))
    n = aux.shape[0]
    if n == 0:
        return aux
    aux = _core._sort(aux, -1, False)
    # flag[i]: aux[i] differs from aux[i - 1] (true at both ends); a value is kept where it
    # differs from both neighbours.
    flag = empty((n + 1,), dtype=bool, device=aux.device)
    flag[:1] = True
    flag[n:] = True
    flag[1:n] = not_equal(aux[1:], aux[:-1])
    return aux[_core._flatnonzero(logical_and(flag[1:], flag[:-1]))]


def union1d(ar1, ar2):
    """The sorted values in either ar1 or ar2."""
    ar1, ar2 = operand(ar1), operand(ar2)
    return unique(concatenate((ar1.ravel(), ar2.ravel())))


def setdiff1d(ar1, ar2, assume_unique=False):
    """The values of ar1 not in ar2: sorted and unique unless assume_unique (then in ar1's
    order)."""
    ar1, ar2 = operand(ar1), operand(ar2)
    if assume_unique:
        ar1, ar2 = ar1.ravel(), ar2.ravel()
    else:
        ar1, ar2 = unique(ar1), unique(ar2)
    return ar1[_core._flatnonzero(_isin_flat(ar1, ar2, True))]


def _ediff1d_padding(values, dtype, device, name):
    """to_begin or to_end of ediff1d, flattened, after NumPy's same_kind check."""
    if values is None:
        return None
    values = values if isinstance(values, _core.ndarray) else asarray(values, device=device)
    if not can_cast(values.dtype, dtype, "same_kind"):
        raise TypeError(f"[ediff1d] dtype of `{name}` must be compatible with input `ary` "
                        "under the `same_kind` rule.")
    return values.ravel().astype(dtype)


def ediff1d(ary, to_end=None, to_begin=None):
    """The differences of consecutive elements of the flattened ary, in ary's dtype, with
    to_begin before and to_end after them."""
    ary = operand(ary).ravel()
    begin = _ediff1d_padding(to_begin, ary.dtype, ary.device, "to_begin")
    end = _ediff1d_padding(to_end, ary.dtype, ary.device, "to_end")
    diff = subtract(ary[1:], ary[:-1])
    if begin is None and end is None:
        return diff
    parts = [p for p in (begin, diff.astype(ary.dtype, copy=False), end) if p is not None]
    return concatenate(parts)
