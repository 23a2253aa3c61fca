"""Order statistics: median, quantile and percentile (every method NumPy has) and their
NaN-ignoring forms. The reduced axes are moved last and merged, the data sorted along
them on the device (NaN sorts last), and each quantile read by gathering the two
neighbouring order statistics and interpolating: NumPy's definitions, element for
element. NaN-ignoring forms count the non-NaN values of each slice, so every slice has its
own virtual index."""

import builtins

import numpy as np

from . import _core, _reduction
from ._convert import axis_tuple, c_long
from ._creation import asarray, operand
from ._creation import full
from ._elementwise import (add, ceil, clip, equal, floor, floor_divide,
                           greater_equal, isnan, less, logical_and, logical_not, multiply,
                           remainder, rint, subtract, where)
from ._joining import concatenate
from ._indexing import take_along_axis
from ._manipulation import broadcast_to, moveaxis

_METHODS = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation",
            "interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased",
            "normal_unbiased", "lower", "higher", "midpoint", "nearest")
_DISCRETE = ("inverted_cdf", "closest_observation", "lower", "higher", "nearest")


def _merged(a, axis, api):
    """a with the reduced axes moved last and merged into one; and the kept shape with
    keepdims ones where the reduced axes were."""
    if axis is None:
        return a.reshape(-1), (), (1,) * a.ndim
    axes = tuple(_reduction_axis(api, ax, a.ndim) for ax in axis_tuple(axis, api))
    if len(set(axes)) != len(axes):
        raise ValueError(f"[{api}] duplicate value in 'axis'")
    kept = [d for d in range(a.ndim) if d not in axes]
    moved = a.transpose(kept + list(axes))
    kept_shape = tuple(a.shape[d] for d in kept)
    keep = tuple(1 if d in axes else a.shape[d] for d in range(a.ndim))
    length = int(np.prod([a.shape[d] for d in axes], dtype=np.int64))
    return moved.reshape(kept_shape + (length,)), kept_shape, keep


def _reduction_axis(api, axis, ndim):
    axis = c_long(axis, api, "axis")
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(f"[{api}] axis {axis} is out of bounds for array of "
                                      f"dimension {ndim}")
    return axis % ndim


def _virtual_index(n, q, method):
    """NumPy's virtual index of quantile q among n sorted values (n: a Python int, or an
    array of q's dtype), computed in q's dtype as NumPy's is."""
    def alpha_beta(alpha, beta):
        return n * q + (alpha + q * (1 - alpha - beta)) - 1
    if method == "linear":
        return (n - 1) * q
    if method == "lower":
        return floor((n - 1) * q)
    if method == "higher":
        return ceil((n - 1) * q)
    if method == "nearest":
        return rint((n - 1) * q)
    if method == "midpoint":
        v = (n - 1) * q
        return 0.5 * (floor(v) + ceil(v))
    if method == "averaged_inverted_cdf":
        return n * q - 1
    if method == "interpolated_inverted_cdf":
        return alpha_beta(0, 1)
    if method == "hazen":
        return alpha_beta(0.5, 0.5)
    if method == "weibull":
        return alpha_beta(0, 0)
    if method == "median_unbiased":
        return alpha_beta(1 / 3.0, 1 / 3.0)
    if method == "normal_unbiased":
        return alpha_beta(3 / 8.0, 3 / 8.0)
    # inverted_cdf and closest_observation: to the boundaries, as NumPy's
    # _discret_interpolation_to_boundaries.
    index = n * q - 1 if method == "inverted_cdf" else n * q - 1 - 0.5
    previous = floor(index)
    gamma = subtract(index, previous)
    if method == "inverted_cdf":
        at_previous = equal(gamma, 0)
    else:
        at_previous = logical_and(equal(gamma, 0), equal(remainder(floor(index), 2), 1))
    chosen = where(at_previous, previous, add(previous, 1))
    return where(less(chosen, 0), 0, chosen)


def _gamma(virtual, previous, method):
    gamma = subtract(virtual, previous)
    if method == "averaged_inverted_cdf":
        return where(equal(gamma, 0), 0.5, 1.0).astype(virtual.dtype)
    if method == "midpoint":
        return where(equal(remainder(virtual, 1), 0), 0.0, 0.5).astype(virtual.dtype)
    return gamma


def _lerp(a, b, t):
    """NumPy's _lerp: a + (b - a) t, computed from b's side where t >= 0.5 (monotone)."""
    diff = subtract(b, a)
    low = add(a, multiply(diff, t))
    high = subtract(b, multiply(diff, subtract(1, t)))
    return where(greater_equal(t, 0.5), high, low).astype(low.dtype, copy=False)


def _at(sorted_, index):
    """sorted_[..., index[..., k]] for every k (index: kept shape + (m,) or (m,))."""
    index = index.astype("int64")
    if index.ndim == 1:
        return sorted_[..., index]
    return take_along_axis(sorted_, index, axis=-1)


def _quantile_sorted(s, count, q, method, discrete_dtype):
    """Quantiles q (1-d) of each slice of s (sorted along its last axis, NaN last) with
    `count` valid values (an int, or an int64 array of the kept shape)."""
    n = s.shape[-1]
    qv = asarray(q)
    # Per-slice counts join the arithmetic in q's dtype, as NumPy's per-slice Python ints do.
    counts = count if isinstance(count, int) else \
        count.reshape(count.shape + (1,)).astype(qv.dtype)
    virtual = _virtual_index(counts, qv, method)
    last = subtract(counts, 1)
    if method in _DISCRETE:
        index = clip(virtual, 0, None)
        index = where(greater_equal(index, last), last, index)
        index = where(less(index, 0), 0, index)
        return _at(s, index).astype(discrete_dtype, copy=False)
    previous = floor(virtual)
    following = add(previous, 1)
    above = greater_equal(virtual, last)
    previous = where(above, last, previous)
    following = where(above, last, following)
    below = less(virtual, 0)
    previous = where(below, 0, previous)
    following = where(below, 0, following)
    # An empty slice (count 0) has index -1: NumPy reads the last element there.
    previous = where(less(previous, 0), n - 1 if n else 0, previous)
    following = where(less(following, 0), n - 1 if n else 0, following)
    gamma = _gamma(virtual, floor(virtual), method)
    return _lerp(_at(s, previous), _at(s, following), gamma)


def _valid_weights(api, weights, a, axis):
    """weights broadcast to a's shape, checked as NumPy's _weights_are_valid."""
    w = operand(weights)
    if w.shape != a.shape:
        if axis is None:
            raise TypeError(f"[{api}] Axis must be specified when shapes of a and weights "
                            "differ.")
        if w.ndim != 1:
            raise TypeError(f"[{api}] 1D weights expected when shapes of a and weights differ.")
        axes = (axis,) if np.ndim(axis) == 0 else tuple(axis)
        if len(axes) != 1:
            raise ValueError(f"[{api}] Shape of weights must be consistent with shape of a "
                             "along specified axis.")
        ax = _reduction_axis(api, axes[0], a.ndim)
        if w.shape[0] != a.shape[ax]:
            raise ValueError(f"[{api}] Length of weights not compatible with specified axis.")
        shape = [1] * a.ndim
        shape[ax] = w.shape[0]
        w = broadcast_to(w.reshape(tuple(shape)), a.shape)
    if builtins.bool((w < 0).any()):
        raise ValueError(f"[{api}] Weights must be non-negative.")
    return w


def _weighted_quantile(s_order, s, w_merged, q, ignore_nan):
    """NumPy's weighted inverted_cdf: the first sorted value whose cumulative weight
    reaches q of the slice's total (s sorted by s_order along the last axis)."""
    w = take_along_axis(w_merged, s_order, axis=-1)
    if ignore_nan:
        w = where(isnan(s), 0, w)
    cdf = _reduction.cumsum(w, -1, dtype="float64")
    total = cdf[..., -1:]
    cdf = cdf / total
    bad = isnan(cdf[..., -1])
    if not ignore_nan and builtins.bool(bad.any()):
        raise ValueError("[quantile] Weights included NaN, inf or were all zero.")
    qv = asarray(q)
    if qv.dtype.kind == "f":
        cdf = cdf.astype(qv.dtype)
    if builtins.bool(equal(cdf[..., 0], 0).any()):
        cdf = where(equal(cdf, 0), -1, cdf)  # skip leading zero weights, as NumPy does
    below = less(cdf.reshape(cdf.shape[:-1] + (1, cdf.shape[-1])), qv.reshape(-1, 1))
    index = _reduction.sum(below, -1)
    index = where(greater_equal(index, s.shape[-1]), s.shape[-1] - 1, index)
    result = take_along_axis(s, index, axis=-1)
    if ignore_nan:
        result = where(bad.reshape(bad.shape + (1,)), np.nan, result)
    return result


def _c_order(result):
    """The quantiles in C order, as NumPy returns them (q's axes moved to the front)."""
    return result if result.flags.c_contiguous else result.copy(order="C")


def _quantile(api, a, q, axis, out, keepdims, method, ignore_nan, weights=None):
    a = operand(a)
    if a.dtype.kind == "c":
        raise TypeError(f"[{api}] a must be an array of real numbers")
    if method not in _METHODS:
        raise ValueError(f"[{api}] {method!r} is not a valid method. Use one of: {_METHODS}")
    if weights is not None:
        if method != "inverted_cdf":
            raise ValueError(f"[{api}] Only method 'inverted_cdf' supports weights. Got: "
                             f"{method}.")
        weights = _valid_weights(api, weights, a, axis)
    q_host = np.asarray(q.get() if hasattr(q, "get") else q)
    if isinstance(q, (int, float)) and a.dtype.kind == "f":
        q_host = q_host.astype(a.dtype)
    elif q_host.dtype.kind not in "f":
        q_host = q_host.astype(np.float64)
    if not np.all((q_host >= 0) & (q_host <= 1)):
        raise ValueError(f"[{api}] Quantiles must be in the range [0, 1]")
    merged, kept_shape, keep = _merged(a, axis, api)
    if q_host.ndim > 2:
        # NumPy computes up to 2-d q (its message says 1-d) and refuses more.
        raise ValueError(f"[{api}] q must be a scalar or 1d; got a {q_host.ndim}-d q of "
                         f"shape {q_host.shape}")
    out_shape = q_host.shape + (keep if keepdims else kept_shape)
    if merged.shape[-1] == 0 and ignore_nan:
        # No values at all: NumPy's nan forms give NaN (with a warning).
        result = full(out_shape, np.nan, dtype=np.result_type(q_host.dtype, a.dtype, 1.0))
        if out is not None:
            out[...] = result
            return out
        return result
    if weights is not None:
        order = _core._argsort(merged, -1)
        s = take_along_axis(merged, order, axis=-1)
        w_merged = _merged(weights, axis, api)[0]
        result = _weighted_quantile(order, s, w_merged, q_host.reshape(-1), ignore_nan)
        if a.dtype.kind == "f" and not ignore_nan and s.shape[-1]:
            tail = s[..., -1:]
            result = where(isnan(tail), tail, result)
        result = _c_order(moveaxis(result, -1, 0).reshape(out_shape))
        if out is not None:
            out[...] = result
            return out
        return result
    s = _core._sort(merged, -1, False)
    inexact = a.dtype.kind == "f"
    if ignore_nan and inexact:
        count = _reduction.sum(logical_not(isnan(s)), -1, "int64")
        if count.size and builtins.bool((count == 0).any()):
            _reduction._warn("All-NaN slice encountered", depth=2)
    else:
        count = s.shape[-1]
    discrete_dtype = a.dtype
    result = _quantile_sorted(s, count, q_host.reshape(-1), method, discrete_dtype)
    if inexact and not ignore_nan and s.shape[-1]:
        # A slice holding NaN has it last after sorting; its quantiles are that NaN.
        tail = s[..., -1:]
        result = where(isnan(tail), tail, result)
    # result: kept + (q.size,) -> q.shape + kept (+ keepdims ones).
    result = _c_order(moveaxis(result, -1, 0).reshape(out_shape))
    if out is not None:
        out[...] = result
        return out
    return result


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
             keepdims=False, *, weights=None, interpolation=None):
    """The q-th quantiles (q in [0, 1]) along the axes, by any of NumPy's methods."""
    method = interpolation or method
    return _quantile("quantile", a, q, axis, out, keepdims, method, False, weights)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False, *, weights=None, interpolation=None):
    """The q-th percentiles (q in [0, 100])."""
    q = _percent(q, operand(a), "percentile")
    return _quantile("percentile", a, q, axis, out, keepdims, interpolation or method, False,
                     weights)


def _percent(q, a, api):
    q_host = np.asarray(q.get() if hasattr(q, "get") else q)
    if not np.all((q_host >= 0) & (q_host <= 100)):
        raise ValueError(f"[{api}] Percentiles must be in the range [0, 100]")
    if isinstance(q, (int, float)) and a.dtype.kind == "f":
        return np.true_divide(np.asarray(q, dtype=a.dtype), a.dtype.type(100))
    return np.true_divide(q_host, 100)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                keepdims=False, *, weights=None, interpolation=None):
    """quantile ignoring NaN (NaN for an all-NaN slice)."""
    return _quantile("nanquantile", a, q, axis, out, keepdims, interpolation or method, True,
                     weights)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=False, *, weights=None, interpolation=None):
    """percentile ignoring NaN."""
    q = _percent(q, operand(a), "nanpercentile")
    return _quantile("nanpercentile", a, q, axis, out, keepdims, interpolation or method, True,
                     weights)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The middle value (mean of the two middle values) along the axes; NaN propagates."""
    a = operand(a)
    merged, kept_shape, keep = _merged(a, axis, "median")
    n = merged.shape[-1]
    if 0 in kept_shape and isinstance(axis, tuple) and len(axis) > 1:
        # NumPy's reshape of an empty array to (kept..., -1) fails, so median raises.
        raise ValueError(f"[median] cannot reshape array of size 0 into shape "
                         f"{kept_shape + (-1,)}")
    if merged.size == 0:
        dtype = _reduction.mean(merged[..., :0] if n else merged, -1).dtype
        result = full(keep if keepdims else kept_shape, np.nan, dtype=dtype)
        if out is not None:
            out[...] = result
            return out
        return result
    s = _core._sort(merged, -1, False)
    middle = s[..., (n - 1) // 2: n // 2 + 1] if n else s
    result = _reduction.mean(middle, -1)
    if a.dtype.kind in "fc" and n:
        tail = s[..., -1]
        result = where(isnan(tail), tail, result).astype(result.dtype, copy=False)
    result = result.reshape(keep if keepdims else kept_shape)
    if out is not None:
        out[...] = result
        return out
    return result


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """median ignoring NaN (NaN for an all-NaN slice): the mean of each slice's middle
    non-NaN value(s), as NumPy's."""
    a = operand(a)
    if a.size == 0:  # NumPy answers an empty input with nanmean's NaNs
        from ._nanfunctions import nanmean
        return nanmean(a, axis, out=out, keepdims=keepdims)
    if a.dtype.kind not in "fc":
        return median(a, axis, out, overwrite_input, keepdims)
    merged, kept_shape, keep = _merged(a, axis, "nanmedian")
    shape = keep if keepdims else kept_shape
    if merged.shape[-1] == 0:
        result = full(shape, np.nan, dtype=_reduction.mean(a[..., :0]).dtype)
    else:
        s = _core._sort(merged, -1, False)
        count = _reduction.sum(logical_not(isnan(s)), -1, "int64").reshape(kept_shape + (1,))
        if builtins.bool((count == 0).any()):
            _reduction._warn("All-NaN slice encountered")
        low = where(less(count, 1), 0, floor_divide(subtract(count, 1), 2))
        high = where(less(count, 1), 0, floor_divide(count, 2))
        middle = concatenate((take_along_axis(s, low, axis=-1),
                              take_along_axis(s, high, axis=-1)), axis=-1)
        result = _reduction.mean(middle, -1)
        dtype = result.dtype
        # An all-NaN slice: its first sorted value is NaN, and so is the result.
        result = where(equal(count.reshape(kept_shape), 0), s[..., 0], result)
        result = result.astype(dtype, copy=False)
        result = result.reshape(shape)
    if out is not None:
        out[...] = result
        return out
    return result
