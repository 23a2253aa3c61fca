"""Logarithmically spaced ranges: logspace and geomspace, built on linspace as NumPy
builds them, so that values, dtypes and shapes follow numpy's."""

import numpy as np

from . import _core
from ._convert import check_dtype, is_scalar
from ._creation import asarray, linspace
from ._elementwise import equal, log10, power, sign
from ._manipulation import broadcast_shapes, expand_dims, moveaxis
from ._reduction import any as _any

__all__ = ["logspace", "geomspace"]


def _reprefixed(api, error):
    """`error` (raised by a helper that named itself) as raised by `api`."""
    message = str(error)
    while message.startswith("[") and "] " in message:
        message = message.partition("] ")[2]
    return type(error)(f"[{api}] {message}")


def _endpoint(x, device):
    return x if isinstance(x, _core.ndarray) and device is None else asarray(x, device=device)


def _logspace(start, stop, num, endpoint, base, dtype, axis, device, api):
    if not isinstance(base, (float, int)) and np.ndim(base):
        # An array base is broadcast with the endpoints (it may change what axis means).
        start, stop, base = (_endpoint(x, device) for x in (start, stop, base))
        try:
            ndmax = len(broadcast_shapes(start.shape, stop.shape, base.shape))
            start, stop, base = (x.reshape((1,) * (ndmax - x.ndim) + x.shape)
                                 for x in (start, stop, base))
            base = expand_dims(base, axis)
        except ValueError as error:
            raise _reprefixed(api, error) from None
    try:
        y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis, device=device)
    except (ValueError, TypeError, IndexError) as error:
        raise _reprefixed(api, error) from None
    if is_scalar(base) or isinstance(base, _core.ndarray):
        out = power(base, y)
    else:
        out = power(_endpoint(base, y.device), y)
    return out if dtype is None else out.astype(check_dtype(dtype, api), copy=False)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0, *,
             device=None):
    """`num` samples base ** linspace(start, stop), as numpy.logspace."""
    return _logspace(start, stop, num, endpoint, base, dtype, axis, device, "logspace")


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0, *, device=None):
    """`num` samples of the geometric progression from start to stop, as numpy.geomspace
    (negative and complex endpoints included)."""
    start, stop = _endpoint(start, device), _endpoint(stop, device)
    if bool(_any(equal(start, 0))) or bool(_any(equal(stop, 0))):
        raise ValueError("[geomspace] Geometric sequence cannot include zero")
    try:
        num_float = float(num)
    except (TypeError, ValueError) as error:
        raise _reprefixed("geomspace", error) from None
    requested = np.float64 if dtype is None else check_dtype(dtype, "geomspace")
    dt = check_dtype(np.result_type(start.dtype, stop.dtype, num_float, requested), "geomspace")
    dtype = dt if dtype is None else requested
    start, stop = start.astype(dt, copy=True), stop.astype(dt, copy=True)
    # Rotate start onto the positive real axis, space the logarithms, rotate back: negative
    # and complex endpoints then give NumPy's values (no stray real or imaginary parts).
    out_sign = sign(start)
    start = start / out_sign
    stop = stop / out_sign
    result = _logspace(log10(start), log10(stop), num, endpoint, 10.0, dt, 0, start.device,
                       "geomspace")
    # Exact endpoints: 10 ** log10(x) need not be x.
    if num > 0:
        result[0] = start
        if num > 1 and endpoint:
            result[-1] = stop
    result = result * out_sign
    if axis != 0:
        try:
            result = moveaxis(result, 0, axis)
        except (ValueError, TypeError) as error:
            raise _reprefixed("geomspace", error) from None
    return result.astype(dtype, copy=False)
