"""Products and numerical calculus: outer, kron, cross, correlate, convolve, cov,
corrcoef, interp, gradient and trapezoid. Sums of products are written as a broadcast
product folded by a reduction: the product stays a pending tree, so nothing of the
broadcast size is ever stored."""

import builtins
import operator

import numpy as np

from . import _core, _reduction
from ._convert import axis_tuple, c_long
from ._creation import arange, asarray, empty, operand, zeros
from ._elementwise import (add, clip, conjugate, divide, equal, isnan, multiply,
                           subtract, where)
from ._joining import concatenate, stack
from ._manipulation import moveaxis
from ._statistics import diff


def outer(a, b, out=None):
    """a[i] * b[j] for the flattened a and b."""
    a, b = operand(a).ravel(), operand(b).ravel()
    return multiply(a.reshape(-1, 1), b.reshape(1, -1), out=out)


def kron(a, b):
    """The Kronecker product: blocks a[i, j] * b."""
    a, b = operand(a), operand(b)
    nd = builtins.max(a.ndim, b.ndim)
    a = a.reshape((1,) * (nd - a.ndim) + a.shape)
    b = b.reshape((1,) * (nd - b.ndim) + b.shape)
    # Interleave the axes: (a0, b0, a1, b1, ...), then merge each pair.
    left = a.reshape(tuple(x for n in a.shape for x in (n, 1)))
    right = b.reshape(tuple(x for n in b.shape for x in (1, n)))
    product = multiply(left, right)
    return product.reshape(tuple(m * n for m, n in zip(a.shape, b.shape)))


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 2- or 3-vectors along the given axes."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a = moveaxis(operand(a), axisa, -1)
    b = moveaxis(operand(b), axisb, -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("[cross] incompatible dimensions for cross product\n(dimension must "
                         "be 2 or 3)")
    a0, a1 = a[..., 0], a[..., 1]
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        # Both 2-vectors: the z component alone (NumPy 2 deprecates, but still returns it).
        return a0 * b[..., 1] - a1 * b[..., 0]
    b0, b1 = b[..., 0], b[..., 1]
    a2 = a[..., 2] if a.shape[-1] == 3 else None
    b2 = b[..., 2] if b.shape[-1] == 3 else None
    if a2 is None:
        parts = [a1 * b2, -(a0 * b2), a0 * b1 - a1 * b0]
    elif b2 is None:
        parts = [-(a2 * b1), a2 * b0, a0 * b1 - a1 * b0]
    else:
        parts = [a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0]
    result = stack(parts, axis=-1)
    return moveaxis(result, -1, axisc)


def _sliding(a, count, m):
    """The (count, m) windows a[k:k + m] of the 1-d a, gathered."""
    index = (np.arange(count).reshape(-1, 1) + np.arange(m).reshape(1, -1))
    return a[asarray(index, device=a.device)]


def correlate(a, v, mode="valid"):
    """Cross-correlation of two 1-d sequences: c[k] = sum_n a[n + k] * conj(v[n])."""
    a, v = operand(a), operand(v)
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("[correlate] object too deep for desired array")
    if a.size == 0:
        raise ValueError("[correlate] a cannot be empty")
    if v.size == 0:
        raise ValueError("[correlate] v cannot be empty")
    if mode not in ("valid", "same", "full"):
        raise ValueError(f"[correlate] mode must be one of 'valid', 'same', or 'full' "
                         f"(got {mode!r})")
    swapped = v.size > a.size
    if swapped:
        a, v = v, a
    m = v.size
    pad = {"valid": 0, "same": m // 2, "full": m - 1}[mode]
    right = {"valid": 0, "same": m - 1 - m // 2, "full": m - 1}[mode]
    dtype = np.result_type(a.dtype, v.dtype)
    padded = concatenate([zeros(pad, dtype=dtype, device=a.device), a.astype(dtype),
                          zeros(right, dtype=dtype, device=a.device)])
    windows = _sliding(padded, padded.size - m + 1, m)
    kernel = conjugate(v) if v.dtype.kind == "c" else v
    result = multiply(windows, kernel.reshape(1, -1)).sum(axis=1, dtype=dtype)
    if swapped:
        # correlate(v, a) is the reversed conjugate of correlate(a, v), made contiguous
        # as NumPy's.
        result = result[::-1]
        result = conjugate(result) if result.dtype.kind == "c" else result.copy()
    return result


def convolve(a, v, mode="full"):
    """Discrete linear convolution of two 1-d sequences."""
    a, v = operand(a).reshape(-1) if np.ndim(a) == 0 else operand(a), \
        operand(v).reshape(-1) if np.ndim(v) == 0 else operand(v)
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("[convolve] object too deep for desired array")
    if v.size == 0:
        raise ValueError("[convolve] v cannot be empty")
    if a.size == 0:
        raise ValueError("[convolve] a cannot be empty")
    if v.size > a.size:
        a, v = v, a
    kernel = v[::-1]
    if kernel.dtype.kind == "c":
        kernel = conjugate(kernel)
    return correlate(a, kernel, mode)


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *,
        dtype=None):
    """Covariance matrix of the variables (rows, or columns when rowvar is false), by
    NumPy's formula; one variable gives a 0-d result (NumPy squeezes)."""
    if ddof is not None and ddof != int(ddof):
        raise ValueError("[cov] ddof must be integer")
    m = operand(m)
    if m.ndim > 2:
        raise ValueError("[cov] m has more than 2 dimensions")
    if y is not None:
        y = operand(y)
        if y.ndim > 2:
            raise ValueError("[cov] y has more than 2 dimensions")
    if dtype is None:
        dtype = np.result_type(m.dtype, np.float64) if y is None else \
            np.result_type(m.dtype, y.dtype, np.float64)
    X = (m.reshape(1, -1) if m.ndim < 2 else m).astype(dtype)
    if not rowvar and m.ndim != 1:
        X = X.T
    if X.shape[0] == 0:
        # NumPy returns np.array([]).reshape(0, 0) here: float64 whatever the dtype.
        return zeros((0, 0), dtype=np.float64, device=m.device)
    if y is not None:
        Y = (y.reshape(1, -1) if y.ndim < 2 else y).astype(dtype)
        if not rowvar and Y.shape[0] != 1:
            Y = Y.T
        X = concatenate((X, Y), axis=0)
    if ddof is None:
        ddof = 0 if bias else 1
    w = None
    if fweights is not None:
        fw = operand(fweights).astype("float64")
        if builtins.bool((fw != fw.round()).any()):
            raise TypeError("[cov] fweights must be integer")
        if fw.ndim > 1:
            raise RuntimeError("[cov] cannot handle multidimensional fweights")
        if fw.shape[0] != X.shape[1]:
            raise RuntimeError("[cov] incompatible numbers of samples and fweights")
        if builtins.bool((fw < 0).any()):
            raise ValueError("[cov] fweights cannot be negative")
        w = fw
    if aweights is not None:
        aw = operand(aweights).astype("float64")
        if aw.ndim > 1:
            raise RuntimeError("[cov] cannot handle multidimensional aweights")
        if aw.shape[0] != X.shape[1]:
            raise RuntimeError("[cov] incompatible numbers of samples and aweights")
        if builtins.bool((aw < 0).any()):
            raise ValueError("[cov] aweights cannot be negative")
        w = aw if w is None else w * aw
    if w is None:
        avg = X.mean(axis=1)
        fact = X.shape[1] - ddof
    else:
        w_sum = float(w.sum())
        avg = (X * w).sum(axis=1) / w_sum
        if ddof == 0:
            fact = w_sum
        elif aweights is None:
            fact = w_sum - ddof
        else:
            fact = w_sum - ddof * float((w * aw).sum()) / w_sum
    if fact <= 0:
        _reduction._warn("Degrees of freedom <= 0 for slice")
        fact = 0.0
    centered = X - avg.reshape(-1, 1)
    weighted = centered if w is None else centered * w
    # c[i, j] = sum_k centered[i, k] * conj(weighted[j, k]): a fused product and sum.
    other = conjugate(weighted) if weighted.dtype.kind == "c" else weighted
    c = multiply(centered.reshape(centered.shape[0], 1, -1),
                 other.reshape(1, other.shape[0], -1)).sum(axis=-1)
    # Scaled by 1 / fact as NumPy scales it (the same roundings; with no degrees of freedom,
    # its divide-by-zero and invalid-multiply warnings), in c's own dtype.
    c = multiply(c, divide(1, asarray(float(fact), device=c.device)), out=c)
    return c.reshape(()) if c.size == 1 else c


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """Pearson correlation coefficients: cov scaled by the standard deviations, clipped
    to [-1, 1] as NumPy does."""
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:  # one variable: 1, or NaN where its variance is not a number or zero
        return c / c
    d = c[_diagonal_index(c.shape[0])]
    stddev = d.real ** 0.5 if d.dtype.kind == "c" else d ** 0.5
    c = c / stddev.reshape(-1, 1)
    c = c / stddev.reshape(1, -1)
    if c.dtype.kind == "c":
        return clip(c.real, -1, 1) + 1j * clip(c.imag, -1, 1)
    return clip(c, -1, 1)


def _diagonal_index(n):
    i = arange(n)
    return (i, i)


def interp(x, xp, fp, left=None, right=None, period=None):
    """Piecewise-linear interpolation of the points (xp, fp) at x, as NumPy computes it."""
    x = operand(x)
    xp = operand(xp)
    fp = operand(fp)
    if x.dtype.kind == "c" or xp.dtype.kind == "c":
        raise TypeError("[interp] Cannot cast array data from dtype('complex128') to "
                        "dtype('float64') according to the rule 'safe'")
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("[interp] object too deep for desired array")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("[interp] fp and xp are not of the same length.")
    if xp.shape[0] == 0:
        raise ValueError("[interp] array of sample points is empty")
    complex_fp = fp.dtype.kind == "c"
    fp = fp.astype("complex128" if complex_fp else "float64")
    x = x.astype("float64")
    xp = xp.astype("float64")
    if period is not None:
        if period == 0:
            raise ValueError("[interp] period must be a non-zero value")
        period = builtins.abs(period)
        left = right = None
        x = x % period
        xp = xp % period
        order = _core._argsort(xp, -1)
        xp, fp = xp[order], fp[order]
        xp = concatenate((xp[-1:] - period, xp, xp[:1] + period))
        fp = concatenate((fp[-1:], fp, fp[:1]))
    n = xp.shape[0]
    left_value = fp[0] if left is None else asarray(left, dtype=fp.dtype)
    right_value = fp[-1] if right is None else asarray(right, dtype=fp.dtype)
    if n == 1:
        result = where(x < xp[0], left_value, where(x > xp[0], right_value, fp[0]))
        return result.astype(fp.dtype, copy=False)
    j = _core._searchsorted(xp, x, True, None) - 1
    j = where(j < 0, 0, where(j > n - 2, n - 2, j))
    if not complex_fp:
        return _interp_segments(x, xp, j, fp, left_value, right_value)
    # NumPy interpolates a complex fp's real and imaginary parts each as a real fp: complex
    # arithmetic would turn an infinite part into nan in the other (inf * 0j).
    out = empty(x.shape, dtype=fp.dtype)
    out.real = _interp_segments(x, xp, j, fp.real, left_value.real, right_value.real)
    out.imag = _interp_segments(x, xp, j, fp.imag, left_value.imag, right_value.imag)
    return out


def _interp_segments(x, xp, j, fp, left_value, right_value):
    """interp's values of a real fp at x, whose segments (index of the left point) are j."""
    x0, x1 = xp[j], xp[j + 1]
    y0, y1 = fp[j], fp[j + 1]
    slope = divide(subtract(y1, y0), subtract(x1, x0))
    value = add(multiply(slope, subtract(x, x0)), y0)
    # NumPy's fallbacks for an infinite slope: from the right point, then the flat value.
    again = add(multiply(slope, subtract(x, x1)), y1)
    value = where(isnan(value), again, value)
    value = where(isnan(value) & equal(y0, y1), y0, value)
    value = where(equal(x, x0), y0, value)  # on a sample point: its value, exactly
    value = where(equal(x, xp[-1]), fp[-1], value)
    value = where(x < xp[0], left_value, value)
    value = where(x > xp[-1], right_value, value)
    return value.astype(fp.dtype, copy=False)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """Integral of y along `axis` by the trapezoidal rule (spacing x or dx)."""
    y = operand(y)
    try:
        axis = c_long(axis, "trapezoid", "axis")
    except OverflowError:
        # NumPy's error: it slices with the axis (an index-sized integer).
        raise IndexError(f"[trapezoid] cannot fit 'int' into an index-sized integer (axis "
                         f"{axis})") from None
    nd = y.ndim
    if nd == 0:
        raise IndexError("[trapezoid] too many indices for array: array is 0-dimensional, "
                         "but 1 were indexed")
    head = (slice(None),) * (axis % nd)
    upper = y[head + (slice(1, None),)]
    lower = y[head + (slice(None, -1),)]
    if x is None:
        if not isinstance(dx, _core.ndarray):
            try:
                kind = np.asarray(dx).dtype.kind
            except (TypeError, ValueError):
                kind = "O"
            if kind not in "biufc":
                # NumPy's own message, from its dx * (...) (the binding's would name __rmul__).
                raise TypeError(f"[trapezoid] unsupported operand type(s) for *: "
                                f"'{type(dx).__name__}' and 'float' (dx must be a number or an "
                                "array of numbers)")
        d = dx
    else:
        x = operand(x)
        if x.ndim == 1:
            d = diff(x)
            shape = [1] * nd
            shape[axis] = d.shape[0]
            d = d.reshape(tuple(shape))
        else:
            d = diff(x, axis=axis)
    return (d * (upper + lower) / 2.0).sum(axis=axis)


def gradient(f, *varargs, axis=None, edge_order=1):
    """Second-order central differences inside, first- or second-order one-sided ones at
    the ends, for uniform or coordinate spacings (NumPy's formulas)."""
    f = operand(f)
    if f.dtype == bool:
        raise TypeError("[gradient] numpy boolean subtract, the `-` operator, is not "
                        "supported, use the bitwise_xor, the `^` operator, or the "
                        "logical_xor function instead.")
    nd = f.ndim
    axes = tuple(range(nd)) if axis is None else axis_tuple(axis, "gradient")
    for a in axes:
        if not -nd <= a < nd:
            raise np.exceptions.AxisError(f"[gradient] axis {a} is out of bounds for array "
                                          f"of dimension {nd}")
    axes = tuple(a % nd for a in axes)
    if len(set(axes)) != len(axes):
        raise ValueError("[gradient] duplicate value in 'axis'")
    n = len(axes)
    if len(varargs) == 0:
        spacing = [1.0] * n
    elif len(varargs) == 1 and np.ndim(varargs[0]) == 0:
        spacing = [varargs[0]] * n
    elif len(varargs) == n:
        spacing = list(varargs)
    else:
        raise TypeError("[gradient] invalid number of arguments")
    if edge_order > 2:
        raise ValueError("[gradient] 'edge_order' greater than 2 not supported")
    otype = f.dtype if f.dtype.kind in "fc" else np.dtype("float64")
    values = f.astype(otype)
    outputs = []
    for ax, h in zip(axes, spacing):
        length = f.shape[ax]
        if length < edge_order + 1:
            raise ValueError("[gradient] Shape of array too small to calculate a numerical "
                             "gradient, at least (edge_order + 1) elements are required.")
        out = zeros(f.shape, dtype=otype, device=f.device)

        def at(s):
            return (slice(None),) * ax + (s,)
        uniform = np.ndim(h) == 0
        if not uniform:
            h = operand(h).astype("float64")
            if h.ndim != 1 or h.shape[0] != length:
                raise ValueError("[gradient] when 1d, distances must match the length of the "
                                 "corresponding dimension")
            dx = h[1:] - h[:-1]
            if builtins.bool((dx == dx[0]).all()):
                h, uniform = float(dx[0]), True
        shape = [1] * nd
        shape[ax] = -1
        if uniform:
            out[at(slice(1, -1))] = (values[at(slice(2, None))] - values[at(slice(None, -2))]) \
                / (2.0 * h)
        else:
            dx1 = dx[:-1].reshape(tuple(shape))
            dx2 = dx[1:].reshape(tuple(shape))
            a = -dx2 / (dx1 * (dx1 + dx2))
            b = (dx2 - dx1) / (dx1 * dx2)
            c = dx1 / (dx2 * (dx1 + dx2))
            out[at(slice(1, -1))] = a * values[at(slice(None, -2))] + \
                b * values[at(slice(1, -1))] + c * values[at(slice(2, None))]
        if edge_order == 1:
            d0 = h if uniform else dx[0]
            dn = h if uniform else dx[-1]
            out[at(slice(0, 1))] = (values[at(slice(1, 2))] - values[at(slice(0, 1))]) / d0
            out[at(slice(-1, None))] = (values[at(slice(-1, None))] -
                                        values[at(slice(-2, -1))]) / dn
        else:
            if uniform:
                a, b, c = -1.5 / h, 2.0 / h, -0.5 / h
            else:
                dx1, dx2 = dx[0], dx[1]
                a = -(2.0 * dx1 + dx2) / (dx1 * (dx1 + dx2))
                b = (dx1 + dx2) / (dx1 * dx2)
                c = -dx1 / (dx2 * (dx1 + dx2))
            out[at(slice(0, 1))] = a * values[at(slice(0, 1))] + b * values[at(slice(1, 2))] + \
                c * values[at(slice(2, 3))]
            if uniform:
                a, b, c = 0.5 / h, -2.0 / h, 1.5 / h
            else:
                dx1, dx2 = dx[-2], dx[-1]
                a = dx2 / (dx1 * (dx1 + dx2))
                b = -(dx2 + dx1) / (dx1 * dx2)
                c = (2.0 * dx2 + dx1) / (dx2 * (dx1 + dx2))
            out[at(slice(-1, None))] = a * values[at(slice(-3, -2))] + \
                b * values[at(slice(-2, -1))] + c * values[at(slice(-1, None))]
        outputs.append(out)
    return outputs[0] if n == 1 else tuple(outputs)
