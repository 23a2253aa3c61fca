"""tessera.fft: numpy.fft on tessera arrays. Transforms run in the backend's FFT library
(FFTW3 on the CPU, threaded, plans cached); n=/s= padding and truncation, axes and norm=
are NumPy's, applied here. Single precision stays single precision, as in NumPy 2."""

import math
import numbers
import operator
import warnings

import numpy as np

from .. import _core
from .._convert import INT64_MAX, INT64_MIN
from .._creation import arange, operand, zeros
from .._elementwise import conjugate, multiply
from .._joining import _axis, concatenate, roll

__all__ = [
    "fft", "fft2", "fftfreq", "fftn", "fftshift", "hfft", "ifft", "ifft2", "ifftn", "ifftshift",
    "ihfft", "irfft", "irfft2", "irfftn", "rfft", "rfft2", "rfftfreq", "rfftn",
]

_SWAPPED = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


def _norm(norm):
    if norm is None:
        return "backward"
    if norm not in _SWAPPED:
        raise ValueError(f'[fft] Invalid norm value {norm}; should be "backward","ortho" or '
                         '"forward".')
    return norm


def _scaled(x, n, norm, forward):
    """The unnormalized transform x scaled as `norm` asks, for a transform of n points."""
    if norm == "ortho":
        return multiply(x, 1.0 / math.sqrt(n)) if n else x
    if (norm == "forward") == forward:
        return multiply(x, 1.0 / n) if n else x
    return x


def _points(api, n):
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"[{api}] n must be an integer, got {n!r}") from None
    if n < 1:
        raise ValueError(f"[{api}] Invalid number of FFT data points ({n}) specified.")
    return n


def _resized(a, axis, n):
    """a truncated or zero-padded to length n along axis."""
    m = a.shape[axis]
    if m == n:
        return a
    index = [slice(None)] * a.ndim
    if m > n:
        index[axis] = slice(0, n)
        return a[tuple(index)]
    shape = list(a.shape)
    shape[axis] = n
    padded = zeros(tuple(shape), dtype=a.dtype)
    index[axis] = slice(0, m)
    padded[tuple(index)] = a
    return padded


def _finish(result, out, api="fft"):
    """The result, or out holding it: out must have its shape, and take its dtype under
    same_kind casting, as NumPy's ufunc-style out= requires."""
    if out is None:
        return result
    if out.shape != result.shape:
        raise ValueError(f"[{api}] out has wrong shape {out.shape}; the result has shape "
                         f"{result.shape}")
    if not np.can_cast(result.dtype, out.dtype, "same_kind"):
        raise TypeError(f"[{api}] Cannot cast the result from {result.dtype} to out's "
                        f"{out.dtype} with casting rule 'same_kind'")
    out[...] = result
    return out


def _one_axis(api, a, n, axis, real_output=False):
    a = operand(a)
    if a.ndim == 0:
        raise np.exceptions.AxisError(f"[{api}] a 0-d array has no axis {axis} to transform")
    axis = _axis(api, axis, a.ndim)
    if n is None:
        n = 2 * (a.shape[axis] - 1) if real_output else a.shape[axis]
    return a, _points(api, n), axis


def fft(a, n=None, axis=-1, norm=None, out=None):
    """The one-dimensional discrete Fourier transform."""
    norm = _norm(norm)
    a, n, axis = _one_axis("fft", a, n, axis)
    result = _core._fft_c2c(_resized(a, axis, n), [axis], True)
    return _finish(_scaled(result, n, norm, True), out)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """The one-dimensional inverse discrete Fourier transform."""
    norm = _norm(norm)
    a, n, axis = _one_axis("ifft", a, n, axis)
    result = _core._fft_c2c(_resized(a, axis, n), [axis], False)
    return _finish(_scaled(result, n, norm, False), out)


def _real_input(api, a):
    if a.dtype.kind == "c":
        raise TypeError(f"[{api}] the input must be real, got {a.dtype}")
    return a


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """The transform of real input: the n//2+1 non-negative frequencies."""
    norm = _norm(norm)
    a, n, axis = _one_axis("rfft", a, n, axis)
    result = _core._fft_r2c(_resized(_real_input("rfft", a), axis, n), [axis])
    return _finish(_scaled(result, n, norm, True), out)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse of rfft: n real values (default 2*(m-1)) from m non-negative
    frequencies."""
    norm = _norm(norm)
    a, n, axis = _one_axis("irfft", a, n, axis, real_output=True)
    result = _core._fft_c2r(_resized(a, axis, n // 2 + 1), [axis], n)
    return _finish(_half_kept(a, _scaled(result, n, norm, False)), out, "irfft")


def _half_kept(a, result):
    """float16 input gives float16 real output, as NumPy's inverse real transforms do."""
    return result.astype(np.float16) if a.dtype == np.float16 else result


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """The transform of a Hermitian-symmetric signal given by its first half: real."""
    norm = _norm(norm)
    a = operand(a)
    return irfft(conjugate(a), n, axis, _SWAPPED[norm], out)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """The inverse of hfft: the first half of a Hermitian-symmetric spectrum."""
    norm = _norm(norm)
    result = conjugate(rfft(a, n, axis, _SWAPPED[norm]))
    return _finish(result, out)


def _shape_and_axes(api, a, s, axes):
    """NumPy's s= and axes= rules: axes default to all (or the last len(s)), s to the
    lengths of the axes; -1 (or, deprecated, None) in s means the whole axis."""
    if s is not None:
        try:
            s = list(s)
        except TypeError:
            raise TypeError(f"[{api}] s must be a sequence of integers") from None
        if axes is None:
            warnings.warn(f"[{api}] `axes` should not be `None` if `s` is not `None` (deprecated "
                          "in NumPy 2.0)", DeprecationWarning, stacklevel=4)
        if any(v is None for v in s):
            warnings.warn(f"[{api}] Passing an array containing `None` values to `s` is "
                          "deprecated in NumPy 2.0", DeprecationWarning, stacklevel=4)
    if axes is None:
        if s is None:
            axes = list(range(a.ndim))
        else:
            if len(s) > a.ndim:
                raise np.exceptions.AxisError(f"[{api}] s has {len(s)} entries for an array "
                                              f"of dimension {a.ndim}")
            axes = list(range(a.ndim - len(s), a.ndim))
    else:
        try:
            axes = [operator.index(x) for x in axes]
        except TypeError:
            raise TypeError(f"[{api}] axes must be a sequence of integers") from None
    if s is not None and len(s) != len(axes):
        raise ValueError(f"[{api}] Shape and axes have different lengths.")
    axes = [_axis(api, x, a.ndim) for x in axes]
    if s is None:
        s = [a.shape[x] for x in axes]
    s = [a.shape[x] if v is None or v == -1 else _points(api, v) for v, x in zip(s, axes)]
    return s, axes


def _out_for_nd(api, a, s, axes, out):
    """NumPy applies out= to each axis' transform in turn, so it refuses it when s changes
    an axis' length."""
    if out is not None and any(a.shape[x] != n for n, x in zip(s, axes)):
        raise ValueError(f"[{api}] out= cannot be combined with an s that changes the shape")


def _complex_nd(api, a, s, axes, norm, out, forward):
    norm = _norm(norm)
    a = operand(a)
    s, axes = _shape_and_axes(api, a, s, axes)
    if not axes:
        return _finish(a.copy(), out, api)  # nothing to transform: NumPy returns the input
    _out_for_nd(api, a, s, axes, out)
    if len(set(axes)) < len(axes):
        # A repeated axis is transformed once per mention, last first, as NumPy does.
        one = fft if forward else ifft
        for n, x in reversed(list(zip(s, axes))):
            a = one(a, n, x, norm)
        return _finish(a, out, api)
    for n, x in zip(s, axes):
        a = _resized(a, x, n)
    result = _core._fft_c2c(a, axes, forward)
    return _finish(_scaled(result, math.prod(s), norm, forward), out, api)


def fftn(a, s=None, axes=None, norm=None, out=None):
    """The N-dimensional discrete Fourier transform over `axes`."""
    return _complex_nd("fftn", a, s, axes, norm, out, True)


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """The N-dimensional inverse discrete Fourier transform over `axes`."""
    return _complex_nd("ifftn", a, s, axes, norm, out, False)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The two-dimensional discrete Fourier transform."""
    return _complex_nd("fft2", a, s, axes, norm, out, True)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The two-dimensional inverse discrete Fourier transform."""
    return _complex_nd("ifft2", a, s, axes, norm, out, False)


def _real_nd_axes(api, a, s, axes):
    s, axes = _shape_and_axes(api, a, s, axes)
    if not axes:
        raise IndexError(f"[{api}] at least one axis must be transformed")
    return s, axes


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """The N-dimensional transform of real input: the last axis keeps n//2+1 values."""
    norm = _norm(norm)
    a = operand(a)
    s, axes = _real_nd_axes("rfftn", a, s, axes)
    _real_input("rfftn", a)
    _out_for_nd("rfftn", a, s, axes, out)
    if len(set(axes)) < len(axes):
        a = rfft(a, s[-1], axes[-1], norm)
        for n, x in reversed(list(zip(s[:-1], axes[:-1]))):
            a = fft(a, n, x, norm)
        return _finish(a, out, "rfftn")
    for n, x in zip(s, axes):
        a = _resized(a, x, n)
    result = _core._fft_r2c(a, axes)
    return _finish(_scaled(result, math.prod(s), norm, True), out, "rfftn")


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """The inverse of rfftn: real output of lengths s (the last default 2*(m-1))."""
    norm = _norm(norm)
    a = operand(a)
    s, axes = _real_nd_axes("irfftn", a, s0 := s, axes)
    given = s0 is not None and s0[-1] not in (None, -1)
    if not given:
        s[-1] = _points("irfftn", 2 * (a.shape[axes[-1]] - 1))
    if len(set(axes)) < len(axes):
        for n, x in zip(s[:-1], axes[:-1]):
            a = ifft(a, n, x, norm)
        return _finish(_half_kept(a, irfft(a, s[-1], axes[-1], norm)), out, "irfftn")
    half = a
    for n, x in zip(s[:-1], axes[:-1]):
        half = _resized(half, x, n)
    half = _resized(half, axes[-1], s[-1] // 2 + 1)
    result = _scaled(_core._fft_c2r(half, axes, s[-1]), math.prod(s), norm, False)
    # NumPy keeps float16 only for one axis (more go through a complex64 transform first).
    return _finish(_half_kept(a, result) if len(axes) == 1 else result, out, "irfftn")


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The two-dimensional transform of real input."""
    return rfftn(a, s, axes, norm, out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """The inverse of rfft2."""
    return irfftn(a, s, axes, norm, out)


def _frequency_count(api, n, d):
    if not isinstance(n, numbers.Integral) or isinstance(n, bool):
        raise ValueError(f"[{api}] n should be an integer, got {n!r}")
    n = int(n)
    if not INT64_MIN <= n <= INT64_MAX:
        raise ValueError(f"[{api}] n={n}: Maximum allowed dimension exceeded (at most "
                         f"{INT64_MAX})")
    if n < 0 and api == "fftfreq":  # rfftfreq's n // 2 + 1 frequencies are then none
        raise ValueError(f"[{api}] n must be non-negative, got {n}")
    if n == 0 or d == 0:
        raise ZeroDivisionError(f"[{api}] float division by zero (n={n}, d={d})")
    return n


def fftfreq(n, d=1.0, device=None, *, dtype=None):
    """The sample frequencies of an n-point transform with sample spacing d, as `dtype` (a
    real floating dtype, float64 by default: the array API standard's keyword)."""
    dtype = _frequency_dtype("fftfreq", dtype)
    n = _frequency_count("fftfreq", n, d)
    positive = arange(0, (n - 1) // 2 + 1, dtype=np.int64, device=device)
    negative = arange(-(n // 2), 0, dtype=np.int64, device=device)
    return multiply(concatenate((positive, negative)), 1.0 / (n * d), dtype=dtype)


def rfftfreq(n, d=1.0, device=None, *, dtype=None):
    """The non-negative sample frequencies of an n-point real transform, as `dtype`."""
    dtype = _frequency_dtype("rfftfreq", dtype)
    n = _frequency_count("rfftfreq", n, d)
    return multiply(arange(0, n // 2 + 1, dtype=np.int64, device=device), 1.0 / (n * d),
                    dtype=dtype)


def _frequency_dtype(api, dtype):
    if dtype is None:
        return np.dtype(np.float64)
    try:
        dtype = np.dtype(dtype)
    except TypeError as error:
        raise TypeError(f"[{api}] {error}") from None
    if dtype.kind != "f":
        raise ValueError(f"[{api}] dtype must be a real floating dtype, got {dtype}")
    return dtype


def _shifts(api, x, axes, sign):
    if x.ndim == 0:
        raise ValueError(f"[{api}] a 0-d array has no axis to shift")
    if axes is None:
        axes = tuple(range(x.ndim))
    elif isinstance(axes, numbers.Integral):
        axes = _axis(api, axes, x.ndim)
        return sign * (x.shape[axes] // 2), axes
    axes = tuple(_axis(api, ax, x.ndim) for ax in axes)
    return tuple(sign * (x.shape[ax] // 2) for ax in axes), axes


def fftshift(x, axes=None):
    """The zero frequency moved to the centre."""
    x = operand(x)
    shift, axes = _shifts("fftshift", x, axes, 1)
    return roll(x, shift, axes)


def ifftshift(x, axes=None):
    """The inverse of fftshift."""
    x = operand(x)
    shift, axes = _shifts("ifftshift", x, axes, -1)
    return roll(x, shift, axes)

