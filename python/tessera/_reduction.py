"""Reductions: ufunc.reduce and NumPy's sum, prod, mean, var, std, min, max, ptp, any, all,
count_nonzero, argmax and argmin, with NumPy's axis/keepdims/dtype/out/initial/where.
Full reductions give 0-d arrays, as CuPy's do; a pending input is folded in the pass that
computes it, so ``(x * x).sum()`` reads x once."""

import builtins
import operator
import warnings

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from . import _core
from ._convert import axis_arg, c_long
from ._core import ndarray, ufunc
from ._creation import operand
from ._elementwise import not_equal, subtract


# NumPy's "argument not given": initial=None means something else (start from the first
# element even for ops with an identity).
_NoValue = object()


def _initial(initial):
    """(initial value or None, whether initial=None was written)."""
    if initial is _NoValue:
        return None, False
    return initial, initial is None


def _ufunc_reduce(self, array, axis=0, dtype=None, out=None, keepdims=False,
                  initial=_NoValue, where=True):
    """ufunc.reduce: folds `array` along `axis` (None: all, a tuple: several)."""
    initial, skip_identity = _initial(initial)
    array = operand(array)
    return _core._reduce(self.__name__, array, _axis_of(array, axis), dtype, out,
                         builtins.bool(keepdims), initial, where, f"{self.__name__}.reduce",
                         skip_identity)


def _accumulate_axis(api, a, axis):
    """accumulate's axis: one axis; None or a 1-tuple name it too, as in NumPy."""
    if a.ndim == 0:
        if isinstance(axis, int) and axis not in (0, -1):
            raise np.exceptions.AxisError(f"[{api}] axis {axis} is out of bounds for array "
                                          "of dimension 0")
        raise TypeError(f"[{api}] cannot accumulate on a scalar")
    if axis is None:
        if a.ndim != 1:
            raise ValueError(f"[{api}] accumulate does not allow multiple axes")
        return 0
    if isinstance(axis, tuple):
        if len(axis) != 1:
            raise ValueError(f"[{api}] accumulate does not allow multiple axes")
        axis = axis[0]
    return c_long(axis, api, "axis")


def _accumulate_dtype(dtype, out, a):
    """NumPy's accumulate loop reads the input and writes out=: without dtype=, it runs in
    the wider of the two."""
    if dtype is None and out is not None:
        target = out[0] if isinstance(out, tuple) else out
        if hasattr(target, "dtype"):
            return np.promote_types(a.dtype, target.dtype)
    return dtype


def _ufunc_accumulate(self, array, axis=0, dtype=None, out=None):
    """ufunc.accumulate: the running reduction along one axis, in order."""
    api = f"{self.__name__}.accumulate"
    array = operand(array)
    return _core._accumulate(self.__name__, array, _accumulate_axis(api, array, axis),
                             _accumulate_dtype(dtype, out, array), out, api)


def _ufunc_at(self, a, indices, b=_NoValue):
    """ufunc.at: a[indices] = op(a[indices], b) element by element, in place, so repeated
    indices apply repeatedly (np.add.at(counts, idx, 1) counts duplicates)."""
    _core._ufunc_at(self.__name__, a, indices, None if b is _NoValue else b, b is not _NoValue)


def _ufunc_reduceat(self, array, indices, axis=0, dtype=None, out=None):
    """ufunc.reduceat: reductions of the slices a[indices[i]:indices[i+1]] along `axis`
    (a[indices[i]] alone where indices[i] >= indices[i+1]; the last to the end). Each
    result starts as the slice's first element and takes the rest by ufunc.at, in order."""
    from ._creation import arange, asarray
    from ._indexing import take
    from ._joining import concatenate, repeat
    api = f"{self.__name__}.reduceat"
    if self.nin != 2 or self.nout != 1:
        raise ValueError(f"[{api}] reduceat only supported for binary functions")
    a = operand(array)
    if a.ndim == 0:
        raise TypeError(f"[{api}] cannot reduceat on a scalar")
    axis = _accumulate_axis(api, a, axis) % a.ndim
    n = a.shape[axis]
    idx = asarray(indices, device=a.device)
    if idx.dtype.kind not in "iu":
        if idx.size:
            raise TypeError(f"[{api}] Cannot cast array data from {idx.dtype!r} to "
                            "dtype('int64') according to the rule 'safe'")
        idx = idx.astype("int64")
    idx = idx.ravel().astype("int64")
    if idx.size and builtins.bool(((idx < 0) | (idx >= n)).any()):
        bad = int(idx[(idx < 0) | (idx >= n)][0])
        raise IndexError(f"[{api}] index {bad} out-of-bounds in {api} [0, {n})")
    # The dtype the reduction would run in, from a one-element reduce.
    acc = self.reduce(take(a, [0] if n else [], axis=axis), axis=axis, dtype=dtype).dtype \
        if n else np.dtype(dtype or a.dtype)
    result = take(a, idx, axis=axis).astype(acc)
    k = idx.size
    if k:
        ends = concatenate((idx[1:], asarray([n], dtype="int64", device=a.device)))
        lengths = ends - idx - 1
        lengths = (lengths > 0) * lengths
        total = int(lengths.sum())
        if total:
            segment = repeat(arange(k, device=a.device), lengths)
            starts = lengths.cumsum() - lengths
            position = idx[segment] + 1 + (arange(total, device=a.device) - starts[segment])
            key = (slice(None),) * axis + (segment,)
            _core._ufunc_at(self.__name__, result, key,
                            take(a, position, axis=axis).astype(acc), True)
    if out is not None:
        target = out[0] if isinstance(out, tuple) else out
        target[...] = result
        return target
    return result


ufunc.reduce = _ufunc_reduce
ufunc.reduceat = _ufunc_reduceat
ufunc.accumulate = _ufunc_accumulate
ufunc.at = _ufunc_at


def _axis_of(a, axis):
    """NumPy lets a 0-d array reduce along the int axis 0 or -1: over nothing."""
    if a.ndim == 0 and not isinstance(axis, tuple) and axis is not None:
        try:
            if operator.index(axis) in (0, -1):
                return ()
        except TypeError:
            pass
    return axis


def _folding(op, api, a, axis, dtype, out, keepdims, initial, where):
    if isinstance(out, tuple):
        raise TypeError(f"[{api}] return arrays must be of ArrayType")
    initial, skip_identity = _initial(initial)
    a = operand(a)
    axis = axis_arg(axis, api)
    return _core._reduce(op, a, _axis_of(a, axis), dtype, out, builtins.bool(keepdims), initial,
                         where, api, skip_identity)


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue, where=True):
    """Sum of elements (pairwise: error grows as log n); bool and small integers sum as
    int64 (uint64 for unsigned), as in NumPy."""
    return _folding("add", "sum", a, axis, dtype, out, keepdims, initial, where)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue, where=True):
    """Product of elements; bool and small integers multiply as int64/uint64."""
    return _folding("multiply", "prod", a, axis, dtype, out, keepdims, initial, where)


def max(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
    """Largest element; NaN propagates. Empty input needs `initial`."""
    return _folding("maximum", "max", a, axis, None, out, keepdims, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
    """Smallest element; NaN propagates. Empty input needs `initial`."""
    return _folding("minimum", "min", a, axis, None, out, keepdims, initial, where)


amax, amin = max, min


def any(a, axis=None, out=None, keepdims=False, *, where=True):
    """Whether any element is true."""
    return _folding("logical_or", "any", a, axis, None, out, keepdims, _NoValue, where)


def all(a, axis=None, out=None, keepdims=False, *, where=True):
    """Whether every element is true."""
    return _folding("logical_and", "all", a, axis, None, out, keepdims, _NoValue, where)


def ptp(a, axis=None, out=None, keepdims=False):
    """Range of values (max - min)."""
    a = operand(a)
    axis = axis_arg(axis, "ptp")
    return subtract(max(a, axis, None, keepdims), min(a, axis, None, keepdims), out=out)


def count_nonzero(a, axis=None, *, keepdims=False):
    """Number of non-zero elements (an int64 array; 0-d for a full count, as in CuPy)."""
    a = operand(a)
    axis = axis_arg(axis, "count_nonzero")
    # A bool array is counted as it is: the sum of its bytes, a SIMD count.
    mask = a if a.dtype == np.bool_ else not_equal(a, 0)
    return _core._reduce("add", mask, _axis_of(a, axis), "int64", None, builtins.bool(keepdims),
                         None, True, "count_nonzero")


def _scan(op, api, a, axis, dtype, out):
    a = operand(a)
    if axis is None or a.ndim == 0:
        a = a.ravel()
        axis = 0 if axis is None else axis
    axis = c_long(axis, api, "axis")
    return _core._accumulate(op, a, axis, _accumulate_dtype(dtype, out, a), out, api)


def cumsum(a, axis=None, dtype=None, out=None):
    """Running sum along `axis` (of the flattened array when None), in order."""
    return _scan("add", "cumsum", a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    """Running product along `axis` (of the flattened array when None), in order."""
    return _scan("multiply", "cumprod", a, axis, dtype, out)


def _cumulative(op, api, x, axis, dtype, out, include_initial):
    x = operand(x)
    if x.ndim == 0:
        x = x.ravel()
    if isinstance(axis, tuple) and len(axis) == 1:
        axis = axis[0]
    if axis is None:
        if x.ndim > 1:
            raise ValueError(f"[{api}] axis must be specified for arrays with more than one "
                             "dimension")
        axis = 0
    axis = c_long(axis, api, "axis")
    if out is not None and not isinstance(out, ndarray):
        raise TypeError(f"[{api}] out must be a tessera.ndarray, got {type(out).__name__}")
    identity = 0 if op == "add" else 1
    before = (slice(None),) * (axis % x.ndim)
    if out is not None and include_initial:
        # The running values into out's slots after the first, the identity into the first,
        # as NumPy's cumulative functions write them.
        expected = list(x.shape)
        expected[axis % x.ndim] += 1
        if out.shape != tuple(expected):
            raise ValueError(f"[{api}] out has shape {out.shape}; include_initial needs "
                             f"{tuple(expected)}")
        _core._accumulate(op, x, axis, dtype, out[before + (slice(1, None),)], api)
        out[before + (0,)] = identity
        return out
    result = _core._accumulate(op, x, axis, dtype, out, api)
    if not include_initial:
        return result
    from ._creation import empty
    shape = list(result.shape)
    shape[axis % x.ndim] += 1
    joined = empty(tuple(shape), dtype=result.dtype)
    joined[before + (slice(0, 1),)] = identity
    joined[before + (slice(1, None),)] = result
    return joined


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """The array API's cumsum: axis required for n-d input; include_initial prepends 0."""
    return _cumulative("add", "cumulative_sum", x, axis, dtype, out, include_initial)


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """The array API's cumprod: axis required for n-d input; include_initial prepends 1."""
    return _cumulative("multiply", "cumulative_prod", x, axis, dtype, out, include_initial)


def _fewest(a, axis):
    """The number of elements each slice of a reduction over `axis` holds (where= aside)."""
    if axis is None:
        return a.size
    axes = (axis,) if not isinstance(axis, tuple) else axis
    count = 1
    for ax in axes:
        count *= a.shape[operator.index(ax)] if a.ndim else 1
    return count


def _warn(message, depth=1):
    """NumPy's RuntimeWarnings of its statistics functions, attributed to the user's line:
    `depth` is how many tessera frames lie between the public function and this call."""
    warnings.warn(message, RuntimeWarning, stacklevel=2 + depth)


def _reduces_nothing(a, axis):
    """Whether the slices a reduction over `axis` takes are empty (NumPy's count of items
    is 0); False for an invalid axis, which the reduction itself reports."""
    if a.size:
        return False
    try:
        axes = normalize_axis_tuple(range(a.ndim) if axis is None else axis, a.ndim)
    except (TypeError, ValueError):
        return False
    return builtins.any(a.shape[ax] == 0 for ax in axes)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Arithmetic mean: float64 for integer input; float16 is summed in float32."""
    a = operand(a)
    axis = axis_arg(axis, "mean")
    # Warned before the division, as NumPy does: its NaN results' own "invalid value"
    # warning comes second.
    if where is True and _reduces_nothing(a, axis):
        _warn("Mean of empty slice")
    return _core._mean(a, axis, dtype, out, builtins.bool(keepdims), where)


def _real_number(api, what, value):
    """ddof= or correction= as a float: TypeError for what is not a real number (a string
    included, which float() would parse), as NumPy's arithmetic with it raises."""
    try:
        if isinstance(value, (str, bytes)):
            raise TypeError
        return float(value)
    except (TypeError, ValueError):
        raise TypeError(f"[{api}] {what} must be a real number, got "
                        f"{type(value).__name__} {value!r}") from None


def _ddof(api, ddof, correction):
    if correction is not None:
        if ddof != 0:
            raise ValueError(f"[{api}] ddof and correction can't be provided simultaneously.")
        return _real_number(api, "correction", correction)
    return _real_number(api, "ddof", ddof)


def _variance(api, a, axis, dtype, out, ddof, keepdims, where, mean, correction, root):
    ddof = _ddof(api, ddof, correction)
    a = operand(a)
    axis = axis_arg(axis, api)
    result = _core._var(a, axis, dtype, out, ddof, builtins.bool(keepdims), where, root,
                        None if mean is None else operand(mean))
    if where is True and ddof >= _fewest(a, axis) and result.size:
        _warn("Degrees of freedom <= 0 for slice", depth=2)
    return result


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    """Variance, mean(|x - x.mean()|**2) * n / (n - ddof), in two passes over x (one when
    mean= gives the mean, of the keepdims shape)."""
    return _variance("var", a, axis, dtype, out, ddof, keepdims, where, mean, correction, False)


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
        correction=None):
    """Standard deviation: the square root of var."""
    return _variance("std", a, axis, dtype, out, ddof, keepdims, where, mean, correction, True)


def argmax(a, axis=None, out=None, *, keepdims=False):
    """Index of the first largest element (of the flattened array when axis is None)."""
    if isinstance(out, tuple):
        raise TypeError("[argmax] return arrays must be of ArrayType")
    axis = None if axis is None else c_long(axis, "argmax", "axis")
    return _core._argextreme(operand(a), axis, out, builtins.bool(keepdims), True)


def argmin(a, axis=None, out=None, *, keepdims=False):
    """Index of the first smallest element (of the flattened array when axis is None)."""
    if isinstance(out, tuple):
        raise TypeError("[argmin] return arrays must be of ArrayType")
    axis = None if axis is None else c_long(axis, "argmin", "axis")
    return _core._argextreme(operand(a), axis, out, builtins.bool(keepdims), False)


def _install():
    # sum, prod, max, min, any, all, argmax, argmin, mean, var and std are methods of the
    # C++ class, which calls these functions when given arguments.
    def method(function, name):
        def bound(self, *args, **kwargs):
            return function(self, *args, **kwargs)
        bound.__name__ = name
        bound.__doc__ = function.__doc__
        return bound

    for name, function in {"cumsum": cumsum, "cumprod": cumprod}.items():
        setattr(ndarray, name, method(function, name))


_install()
