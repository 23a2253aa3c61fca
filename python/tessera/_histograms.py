"""Counting: bincount, digitize, histogram, histogram_bin_edges, histogram2d and
histogramdd, with NumPy's bin rules. Bin indices come from searchsorted against the edges
(NumPy's own route for explicit edges, and equal to its arithmetic for uniform bins);
counts and weights accumulate with add.at, so everything runs on the array's device."""

import builtins
import math
import operator

import numpy as np

from . import _core, _reduction
from ._convert import sample_count
from ._creation import asarray, linspace, operand, zeros
from ._elementwise import (add, equal, greater_equal, less, less_equal,
                           logical_and, subtract, where)
from ._quantiles import percentile


def bincount(x, weights=None, minlength=0):
    """How often each non-negative integer occurs in x (or the sum of its weights)."""
    x = operand(x)
    if x.ndim != 1:
        raise ValueError("[bincount] object too deep for desired array" if x.ndim > 1 else
                         "[bincount] object of too small depth for desired array")
    if x.dtype.kind not in "iub":
        raise TypeError(f"[bincount] Cannot cast array data from {x.dtype!r} to "
                        "dtype('int64') according to the rule 'safe'")
    x = x.astype("int64", copy=False)  # booleans count as 0 and 1, not as a mask
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("[bincount] 'minlength' must not be negative")
    if x.size and builtins.bool((x < 0).any()):
        raise ValueError("[bincount] 'list' argument must have no negative elements")
    length = builtins.max(int(x.max()) + 1 if x.size else 0, minlength)
    if weights is not None:
        weights = operand(weights)
        if weights.dtype.kind == "c":
            raise TypeError(f"[bincount] Cannot cast array data from {weights.dtype!r} to "
                            "dtype('float64') according to the rule 'safe'")
    if x.size == 0:
        return zeros(length, dtype="int64", device=x.device)  # NumPy's, weights or not
    if weights is None:
        counts = zeros(length, dtype="int64", device=x.device)
        _core._ufunc_at("add", counts, x, 1, True)
        return counts
    if weights.shape != x.shape:
        raise ValueError("[bincount] The weights and list don't have the same length.")
    sums = zeros(length, dtype="float64", device=x.device)
    _core._ufunc_at("add", sums, x, weights.astype("float64", copy=False), True)
    return sums


def _monotonic(bins):
    """1 increasing, -1 decreasing, 0 neither: NumPy's check_array_monotonic on the bins
    as float64, where a comparison with NaN is false (so [0, 1.5, nan] rises and
    [nan, 1, 0] falls, as in NumPy). Bin edges are few; they are checked on the host."""
    b = np.asarray(bins.get(), dtype=np.float64)
    if b.size == 0:
        return 1
    repeats = np.flatnonzero(b[1:] != b[0])
    if repeats.size == 0:
        return 1
    i = int(repeats[0]) + 1  # the first edge that differs from the first one
    before, after = b[i - 1:-1], b[i:]
    if b[0] < b[i]:
        return 0 if np.any(before[1:] > after[1:]) else 1
    return 0 if np.any(before[1:] < after[1:]) else -1


def digitize(x, bins, right=False):
    """Index of the bin each x falls in (bins increasing or decreasing)."""
    x = operand(x)
    bins = operand(bins)
    if x.dtype.kind == "c":
        raise TypeError("[digitize] x may not be complex")
    if bins.ndim != 1:
        raise ValueError("[digitize] object too deep for desired array" if bins.ndim > 1 else
                         "[digitize] object of too small depth for desired array")
    mono = _monotonic(bins)
    if mono == 0:
        raise ValueError("[digitize] bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"
    if mono == -1:
        flipped = bins[::-1]
        return bins.shape[0] - _core._searchsorted(flipped, x, side == "right", None)
    return _core._searchsorted(bins, x, not right, None)


_BIN_RULES = ("auto", "fd", "doane", "scott", "stone", "rice", "sturges", "sqrt")


def _range_of(a, range_, api):
    if range_ is not None:
        first, last = range_
        if first > last:
            raise ValueError(f"[{api}] max must be larger than min in range parameter.")
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"[{api}] supplied range of [{first}, {last}] is not finite")
    elif a.size == 0:
        first, last = 0, 1
    else:
        # NumPy scalars of a's dtype, as NumPy's a.min(): the edges are computed in it.
        first, last = a.min().get()[()], a.max().get()[()]
        if not (np.isfinite(first) and np.isfinite(last)):
            raise ValueError(f"[{api}] autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first, last = first - 0.5, last + 0.5
    return first, last


def _ptp(x):
    return float(x.max()) - float(x.min())


def _bin_width(rule, x, stone_range=None):
    """NumPy's estimators of the bin width from the data x (0: fall back to one bin);
    stone's candidate histograms span `stone_range`."""
    n = x.size
    if rule == "sqrt":
        return _ptp(x) / np.sqrt(n)
    if rule == "sturges":
        return _ptp(x) / (np.log2(n) + 1.0)
    if rule == "rice":
        return _ptp(x) / (2.0 * n ** (1.0 / 3))
    if rule == "scott":
        return (24.0 * np.pi ** 0.5 / n) ** (1.0 / 3.0) * float(_reduction.std(x))
    if rule == "fd":
        q75, q25 = (float(v) for v in percentile(x, [75, 25]))
        return 2.0 * (q75 - q25) * n ** (-1.0 / 3.0)
    if rule == "doane":
        if n <= 2:
            return 0.0
        sg1 = np.sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)))
        sigma = float(_reduction.std(x))
        if sigma <= 0:
            return 0.0
        mean = float(_reduction.mean(x))
        g1 = float(_reduction.mean(((x - mean) / sigma) ** 3))
        return _ptp(x) / (1.0 + np.log2(n) + np.log2(1.0 + np.absolute(g1) / sg1))
    if rule == "stone":
        # Stone's rule: the bin count (1 .. max(100, sqrt n)) minimizing the estimated
        # integrated squared error, each candidate counted by a histogram of its own.
        spread = _ptp(x)
        if n <= 1 or spread == 0:
            return 0.0

        def risk(nbins):
            p = histogram(x, bins=nbins, range=stone_range)[0] / n
            return (2 - (n + 1) * float((p * p).sum())) / (spread / nbins)
        upper = builtins.max(100, int(np.sqrt(n)))
        return spread / builtins.min(builtins.range(1, upper + 1), key=risk)
    if rule == "auto":
        # Freedman-Diaconis, kept from giving more bins than twice sqrt's, and Sturges.
        fd = builtins.max(_bin_width("fd", x), _bin_width("sqrt", x) / 2)
        return builtins.min(fd, _bin_width("sturges", x))
    raise ValueError(f"[histogram] {rule!r} is not a valid estimator for `bins`")


def _edges(a, bins, range_, weights, api):
    """The bin edges (NumPy's _get_bin_edges)."""
    if isinstance(bins, str):
        if bins not in _BIN_RULES:
            raise ValueError(f"[{api}] {bins!r} is not a valid estimator for `bins`")
        if weights is not None:
            raise TypeError(f"[{api}] Automated estimation of the number of bins is not "
                            "supported for weighted data")
        first, last = _range_of(a, range_, api)
        data = a
        if range_ is not None:
            keep = logical_and(greater_equal(a, first), less_equal(a, last))
            if not builtins.bool(keep.all()):
                data = a[keep]
        if data.size == 0:
            count = 1
        else:
            width = _bin_width(bins, data, (first, last))
            if width and a.dtype.kind in "iu" and width < 1:
                width = 1  # integer data: no bin narrower than one
            count = int(np.ceil((last - first) / width)) if width else 1
        return _uniform_edges(a, first, last, count)
    if np.ndim(bins) == 0:
        try:
            count = operator.index(bins)
        except TypeError:
            raise TypeError(f"[{api}] `bins` must be an integer, a string, or an array") from None
        if count < 1:
            raise ValueError(f"[{api}] `bins` must be positive, when an integer")
        sample_count(count + 1, api, "bins + 1 (the number of edges)")
        first, last = _range_of(a, range_, api)
        return _uniform_edges(a, first, last, count)
    # Bin edges are a parameter, like index arrays: taken from the host on any device.
    edges = asarray(bins, device=a.device)
    if edges.ndim != 1:
        raise ValueError(f"[{api}] `bins` must be 1d, when an array")
    if edges.size > 1 and builtins.bool(less(edges[1:], edges[:-1]).any()):
        raise ValueError(f"[{api}] `bins` must increase monotonically, when an array")
    return edges


def _uniform_edges(a, first, last, count):
    # NumPy's bin_type: the edges' Python numbers are weak, so float32 data keeps float32.
    dtype = np.result_type(first, last, a.dtype)
    if dtype.kind in "iub":
        dtype = np.result_type(dtype, float)
    return linspace(first, last, count + 1, endpoint=True, dtype=dtype, device=a.device)


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """The edges histogram() would use."""
    a = operand(a).ravel()
    return _edges(a, bins, range, weights, "histogram_bin_edges")


def _bin_index(values, edges):
    """Bin of each value: [e_i, e_i+1), the last bin closed; -1 outside."""
    nbins = edges.shape[0] - 1
    index = subtract(_core._searchsorted(edges, values, True, None), 1)
    on_last_edge = equal(values, edges[-1])
    index = where(on_last_edge, nbins - 1, index)
    inside = logical_and(greater_equal(index, 0), less(index, nbins))
    return where(inside, index, -1)


def histogram(a, bins=10, range=None, density=None, weights=None):
    """(counts, edges) of a's values (flattened) over the bins."""
    a = operand(a).ravel()
    if weights is not None:
        weights = operand(weights).ravel()
        if weights.shape != a.shape:
            raise ValueError("[histogram] weights should have the same shape as a.")
    edges = _edges(a, bins, range, weights, "histogram")
    nbins = edges.shape[0] - 1
    index = _bin_index(a, edges)
    inside = greater_equal(index, 0)
    kept = index[inside]
    if weights is None:
        counts = bincount(kept, minlength=nbins)[:nbins] if kept.size else \
            zeros(nbins, dtype="int64", device=a.device)
    else:
        counts = zeros(nbins, dtype=weights.dtype, device=a.device)
        if kept.size:
            _core._ufunc_at("add", counts, kept, weights[inside], True)
    if density:
        widths = subtract(edges[1:], edges[:-1]).astype("float64")  # NumPy's float widths
        return counts / widths / counts.sum(), edges
    return counts, edges


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """Counts of the D-dimensional points of `sample` (N, D) over a grid of bins."""
    if isinstance(sample, (list, tuple)) and np.ndim(sample[0]) != 0:
        sample = _core_stack_columns(sample)  # NumPy: atleast_2d(sample).T
    sample = operand(sample)
    if sample.ndim == 1:
        sample = sample.reshape(-1, 1)
    n, d = sample.shape
    try:
        if len(bins) != d:
            raise ValueError("[histogramdd] The dimension of bins must be equal to the "
                             "dimension of the sample x.")
        bins_per_dim = list(bins)
    except TypeError:
        bins_per_dim = [bins] * d
    ranges = range if range is not None else [None] * d
    if len(ranges) != d:
        raise ValueError("[histogramdd] range argument must have one entry per dimension")
    edges = [_edges(sample[:, i], bins_per_dim[i], ranges[i], None, "histogramdd")
             for i in builtins.range(d)]
    sizes = [e.shape[0] - 1 for e in edges]
    flat = None
    inside = None
    stride = 1
    for i in builtins.range(d - 1, -1, -1):
        index = _bin_index(sample[:, i], edges[i])
        ok = greater_equal(index, 0)
        inside = ok if inside is None else logical_and(inside, ok)
        term = index * stride
        flat = term if flat is None else add(flat, term)
        stride *= sizes[i]
    total = builtins.max(math.prod(sizes), 0)
    if weights is None:
        counts = zeros(total, dtype="float64", device=sample.device)
        if n:
            _core._ufunc_at("add", counts, flat[inside], 1.0, True)
    else:
        weights = operand(weights)
        counts = zeros(total, dtype="float64", device=sample.device)
        if n:
            _core._ufunc_at("add", counts, flat[inside], weights[inside].astype("float64"), True)
    hist = counts.reshape(tuple(sizes))
    if density:
        volume = None
        for i, e in enumerate(edges):
            widths = subtract(e[1:], e[:-1])
            shape = [1] * d
            shape[i] = widths.shape[0]
            widths = widths.reshape(tuple(shape))
            volume = widths if volume is None else volume * widths
        hist = hist / volume / hist.sum()
    return hist, edges


def _core_stack_columns(columns):
    from ._joining import stack
    return stack([operand(c).ravel() for c in columns], axis=1)


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """(counts, x edges, y edges) of the points (x[i], y[i])."""
    x, y = operand(x), operand(y)
    if x.shape != y.shape:
        raise ValueError("[histogram2d] x and y must have the same length")
    try:
        count = len(bins)
    except TypeError:
        count = 1
    if count not in (1, 2) or isinstance(bins, str):
        bins = [bins, bins]  # one edge array (or rule) shared by both axes
    try:
        hist, edges = histogramdd(_core_stack_columns([x, y]), bins, range, density, weights)
    except (ValueError, TypeError, IndexError) as error:
        # histogramdd's argument errors, as raised by the function the caller called.
        message = str(error)
        if not message.startswith("[histogramdd] "):
            raise
        raise type(error)("[histogram2d] " + message.partition("] ")[2]) from None
    return hist, edges[0], edges[1]
