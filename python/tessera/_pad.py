"""pad, every mode NumPy has, by NumPy's algorithm (numpy/lib/_arraypad_impl.py): the
array is copied into the middle of a new one and each axis's pad areas are filled from
slices of it, on the device. Reflections and wraps larger than the array repeat."""

import itertools

import numpy as np

from . import _reduction
from ._creation import empty, linspace, operand
from ._manipulation import moveaxis
from ._quantiles import median

_ALLOWED = {"empty": [], "edge": [], "wrap": [], "constant": ["constant_values"],
            "linear_ramp": ["end_values"], "maximum": ["stat_length"],
            "mean": ["stat_length"], "median": ["stat_length"], "minimum": ["stat_length"],
            "reflect": ["reflect_type"], "symmetric": ["reflect_type"]}


def _at(axis, s):
    return (slice(None),) * axis + (s,)


def _as_pairs(x, ndim, as_index=False):
    """((before, after),) * ndim from a number, a pair, or per-axis pairs."""
    if x is None:
        return ((None, None),) * ndim
    x = np.array(x.get() if hasattr(x, "get") else x)
    if as_index:
        x = np.round(x).astype(np.intp, copy=False)
    if x.ndim < 3:
        if x.size == 1:
            x = x.ravel()
            if as_index and x < 0:
                raise ValueError("[pad] index can't contain negative values")
            return ((x[0], x[0]),) * ndim
        if x.size == 2 and x.shape != (2, 1):
            x = x.ravel()
            if as_index and (x[0] < 0 or x[1] < 0):
                raise ValueError("[pad] index can't contain negative values")
            return ((x[0], x[1]),) * ndim
    if as_index and x.min() < 0:
        raise ValueError("[pad] index can't contain negative values")
    return np.broadcast_to(x, (ndim, 2)).tolist()


def _set_pad_area(padded, axis, widths, values):
    padded[_at(axis, slice(None, widths[0]))] = values[0]
    padded[_at(axis, slice(padded.shape[axis] - widths[1], None))] = values[1]


def _edges(padded, axis, widths):
    left = widths[0]
    right = padded.shape[axis] - widths[1]
    return padded[_at(axis, slice(left, left + 1))], padded[_at(axis, slice(right - 1, right))]


def _linear_ramps(padded, axis, widths, end_values):
    ramps = []
    for end, edge, width in zip(end_values, _edges(padded, axis, widths), widths):
        ramps.append(linspace(end, edge.squeeze(axis), width, endpoint=False, dtype=padded.dtype,
                              axis=axis))
    return ramps[0], ramps[1][_at(axis, slice(None, None, -1))]


def _stats(padded, axis, widths, lengths, stat):
    left_index = widths[0]
    right_index = padded.shape[axis] - widths[1]
    longest = right_index - left_index
    left_length, right_length = lengths
    if left_length is None or longest < left_length:
        left_length = longest
    if right_length is None or longest < right_length:
        right_length = longest
    if (left_length == 0 or right_length == 0) and stat in ("maximum", "minimum"):
        raise ValueError("[pad] stat_length of 0 yields no value for padding")

    def of(chunk):
        value = {"maximum": lambda c: _reduction.max(c, axis=axis, keepdims=True),
                 "minimum": lambda c: _reduction.min(c, axis=axis, keepdims=True),
                 "mean": lambda c: _reduction.mean(c, axis=axis, keepdims=True),
                 "median": lambda c: median(c, axis=axis, keepdims=True)}[stat](chunk)
        if padded.dtype.kind in "iu" and value.dtype.kind in "fc":
            value = value.round()
        return value
    left = of(padded[_at(axis, slice(left_index, left_index + left_length))])
    if left_length == right_length == longest:
        return left, left
    right = of(padded[_at(axis, slice(right_index - right_length, right_index))])
    return left, right


def _set_reflect_both(padded, axis, widths, method, period, include_edge):
    left_pad, right_pad = widths
    old_length = padded.shape[axis] - right_pad - left_pad
    if include_edge:
        old_length = old_length // period * period
        edge_offset = 1
    else:
        old_length = (old_length - 1) // (period - 1) * (period - 1) + 1
        edge_offset = 0
        old_length -= 1
    if left_pad > 0:
        chunk_length = min(old_length, left_pad)
        stop = left_pad - edge_offset
        start = stop + chunk_length
        chunk = padded[_at(axis, slice(start, stop, -1))]
        if method == "odd":
            chunk = 2 * padded[_at(axis, slice(left_pad, left_pad + 1))] - chunk
        padded[_at(axis, slice(left_pad - chunk_length, left_pad))] = chunk
        left_pad -= chunk_length
    if right_pad > 0:
        chunk_length = min(old_length, right_pad)
        start = -right_pad + edge_offset - 2
        stop = start - chunk_length
        chunk = padded[_at(axis, slice(start, stop, -1))]
        if method == "odd":
            chunk = 2 * padded[_at(axis, slice(-right_pad - 1, -right_pad))] - chunk
        start = padded.shape[axis] - right_pad
        padded[_at(axis, slice(start, start + chunk_length))] = chunk
        right_pad -= chunk_length
    return left_pad, right_pad


def _set_wrap_both(padded, axis, widths, original_period):
    left_pad, right_pad = widths
    period = padded.shape[axis] - right_pad - left_pad
    period = period // original_period * original_period
    new_left = new_right = 0
    if left_pad > 0:
        end = left_pad + period
        chunk = padded[_at(axis, slice(end - min(period, left_pad), end))]
        if left_pad > period:
            area = _at(axis, slice(left_pad - period, left_pad))
            new_left = left_pad - period
        else:
            area = _at(axis, slice(None, left_pad))
        padded[area] = chunk
    if right_pad > 0:
        start = -right_pad - period
        chunk = padded[_at(axis, slice(start, start + min(period, right_pad)))]
        if right_pad > period:
            area = _at(axis, slice(-right_pad, -right_pad + period))
            new_right = right_pad - period
        else:
            area = _at(axis, slice(-right_pad, None))
        padded[area] = chunk
    return new_left, new_right


def pad(array, pad_width, mode="constant", **kwargs):
    """array padded by pad_width ((before, after) per axis) in the given mode."""
    array = operand(array)
    widths_host = np.asarray(pad_width.get() if hasattr(pad_width, "get") else pad_width)
    if widths_host.dtype.kind not in "iu":
        raise TypeError("[pad] `pad_width` must be of integral type.")
    widths = _as_pairs(widths_host, array.ndim, as_index=True)
    order = "F" if array.flags.f_contiguous and not array.flags.c_contiguous else "C"
    shape = tuple(int(a) + n + int(b) for n, (a, b) in zip(array.shape, widths))
    original = tuple(slice(int(a), int(a) + n) for n, (a, _) in zip(array.shape, widths))
    if callable(mode):
        padded = empty(shape, dtype=array.dtype, order=order, device=array.device)
        padded[...] = 0
        padded[original] = array
        for axis in range(padded.ndim):
            view = moveaxis(padded, axis, -1)
            for index in itertools.product(*(range(n) for n in view.shape[:-1])):
                mode(view[index + (Ellipsis,)], widths[axis], axis, kwargs)
        return padded
    if mode not in _ALLOWED:
        raise ValueError(f"[pad] mode '{mode}' is not supported")
    unsupported = set(kwargs) - set(_ALLOWED[mode])
    if unsupported:
        raise ValueError(f"[pad] unsupported keyword arguments for mode '{mode}': "
                         f"{unsupported}")
    padded = empty(shape, dtype=array.dtype, order=order, device=array.device)
    padded[original] = array

    def roi(axis):
        return padded[(slice(None),) * (axis + 1) + original[axis + 1:]]
    axes = range(padded.ndim)
    if mode == "constant":
        values = _as_pairs(kwargs.get("constant_values", 0), padded.ndim)
        for axis, w, v in zip(axes, widths, values):
            _set_pad_area(roi(axis), axis, w, v)
    elif mode == "empty":
        pass
    elif array.size == 0:
        for axis, w in zip(axes, widths):
            if array.shape[axis] == 0 and any(w):
                raise ValueError(f"[pad] can't extend empty axis {axis} using modes other than "
                                 "'constant' or 'empty'")
    elif mode == "edge":
        for axis, w in zip(axes, widths):
            r = roi(axis)
            _set_pad_area(r, axis, w, _edges(r, axis, w))
    elif mode == "linear_ramp":
        ends = _as_pairs(kwargs.get("end_values", 0), padded.ndim)
        for axis, w, e in zip(axes, widths, ends):
            r = roi(axis)
            _set_pad_area(r, axis, w, _linear_ramps(r, axis, w, e))
    elif mode in ("maximum", "minimum", "mean", "median"):
        lengths = _as_pairs(kwargs.get("stat_length"), padded.ndim, as_index=True)
        for axis, w, length in zip(axes, widths, lengths):
            r = roi(axis)
            _set_pad_area(r, axis, w, _stats(r, axis, w, length, mode))
    elif mode in ("reflect", "symmetric"):
        method = kwargs.get("reflect_type", "even")
        include_edge = mode == "symmetric"
        for axis, (left, right) in zip(axes, widths):
            if array.shape[axis] == 1 and (left > 0 or right > 0):
                # A single element reflects into itself: NumPy's legacy edge padding.
                _set_pad_area(padded, axis, (left, right), _edges(padded, axis, (left, right)))
                continue
            r = roi(axis)
            while left > 0 or right > 0:
                left, right = _set_reflect_both(r, axis, (left, right), method,
                                                array.shape[axis], include_edge)
    elif mode == "wrap":
        for axis, (left, right) in zip(axes, widths):
            r = roi(axis)
            period = padded.shape[axis] - right - left
            while left > 0 or right > 0:
                left, right = _set_wrap_both(r, axis, (left, right), period)
    return padded

