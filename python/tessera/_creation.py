"""Array creation with NumPy's signatures and semantics (tessera.array, zeros, arange, ...)."""

import math
import os
import sys

import builtins

import numpy as np

from . import _core
from ._convert import (INT64_MAX, c_long, check_dtype, dimension, index, is_scalar, native,
                       prefixed, sample_count)
from ._convert import fill_value as _fill

ndarray = _core.ndarray


def _device_of(device, default):
    if device is None:
        return default
    return device if isinstance(device, _core.Device) else _core.Device(device)


# Python's own containers and numbers implement no array protocol: the checks for one (a
# failed attribute lookup raises and catches an AttributeError) are skipped for them.
_PLAIN_PYTHON = frozenset({list, tuple, float, int, bool, complex})
# A list or tuple of Python numbers becomes a new C-ordered array in these orders; C++
# reads it directly (_from_python_numbers), or declines and NumPy reads it.
_SEQUENCES = (list, tuple)
_MISSING = object()  # array()'s `obj` not given
_NEW_C_ORDERS = (None, "K", "A", "C", "k", "a", "c")


def _host_array(obj, dtype, order, api):
    """`obj` as a NumPy array (the object itself when it already is one that fits)."""
    try:
        if (
            type(obj) not in _PLAIN_PYTHON
            and not isinstance(obj, (np.ndarray, np.generic))
            and hasattr(obj, "__dlpack__")
            and not hasattr(obj, "__array__")
        ):
            host = np.from_dlpack(obj)
            return host if dtype is None else host.astype(dtype, copy=False)
        if dtype is not None:
            check_dtype(dtype, api)
        return np.asarray(obj, dtype=dtype, order=order)
    except (ValueError, TypeError, OverflowError) as error:
        raise prefixed(api, error) from None


def _from_tessera(a, dtype, order, device, copy, api):
    # An array on another CUDA device than the current one goes to the current one, as
    # CuPy's asarray moves it ("move the array to GPU 1").
    here = _core._current_device()
    dev = _device_of(device, here if a.device.kind == here.kind == "cuda" else a.device)
    needs_move = dev != a.device
    if needs_move and copy is False:
        raise ValueError(f"[{api}] Unable to avoid copy while moving an array from {a.device} to {dev}")
    moved = a._to_device(dev) if needs_move else a
    if needs_move and dev != here:
        # A cast copy lands on the current device (CuPy's rule for astype); this one is
        # asked for on `dev`.
        with dev:
            out = _core._astype(moved, dtype, order or "K", "unsafe", False)
    else:
        out = _core._astype(moved, dtype, order or "K", "unsafe", bool(copy) and not needs_move)
    if copy is False and out is not a:
        raise ValueError(f"[{api}] Unable to avoid copy while creating an array as requested.")
    return out


def _asarray(obj, dtype, order, device, copy, api):
    if order is not None and order not in ("C", "F", "A", "K", "c", "f", "a", "k"):
        raise ValueError(f"[{api}] order must be one of 'C', 'F', 'A', 'K', got {order!r}")
    if isinstance(obj, ndarray):
        return _from_tessera(obj, dtype, order, device, copy, api)
    if type(obj) not in _PLAIN_PYTHON and not isinstance(obj, (np.ndarray, np.generic)) \
            and hasattr(obj, "__cuda_array_interface__"):
        # Another library's device array: shared, not copied through the host.
        shared = _core._from_cuda_interface(obj, api)
        return _from_tessera(shared, dtype, order, device, copy, api)
    host = native(_host_array(obj, dtype, order, api), api)
    shares = host is obj
    dev = _device_of(device, _core._current_device())
    if copy is False and (not shares or dev.kind != "cpu"):
        raise ValueError(f"[{api}] Unable to avoid copy while creating an array as requested.")
    # Memory of the caller's NumPy array is shared (as numpy.asarray shares it); anything
    # NumPy had to build is copied into tessera's own memory.
    return _core._from_host(host, dev, not (shares and copy is not True), order)


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _called_function():
    """The name of the tessera function the user called: the outermost public function (or
    class, for a constructor) on the stack that is in the package.

    operand() serves some 180 call sites in helpers shared by many functions; naming the
    function the user called (stack, not concatenate; polyval, not a coefficient helper) is
    what the error message needs, and is looked up only when the error is raised."""
    frame, name = sys._getframe(1), "tessera"
    while frame is not None:
        code = frame.f_code
        if code.co_filename.startswith(_PACKAGE_DIR):
            owner, _, method = code.co_qualname.rpartition(".")
            if method == "__init__":
                name = owner.rpartition(".")[2]
            elif not method.startswith(("_", "<")):
                name = method
        frame = frame.f_back
    return name


def refuse_host_data(x):
    """TypeError when `x` is NumPy data (not a tessera array, not a scalar) and the current
    device shares no memory with the host: copying it there would be a host-to-device
    transfer the user did not ask for (the ufuncs and CuPy refuse it alike)."""
    device = _core._current_device()
    if device.kind != "cpu" and not isinstance(x, ndarray) and not is_scalar(x):
        raise TypeError(f"[{_called_function()}] Unsupported type {type(x)}: NumPy data is not "
                        f"moved to {device} implicitly; convert it with tessera.asarray() first")


def operand(x):
    """An operand of a tessera function as a tessera array: tessera arrays as they are,
    scalars as 0-d arrays, NumPy data (arrays, lists, array-likes) copied in on the CPU and
    refused on other devices (refuse_host_data). Parameters that are host values by nature
    (indices, counts, quantiles, bin edges) are converted with asarray instead."""
    if isinstance(x, ndarray):
        return x
    refuse_host_data(x)
    return asarray(x)


def asarray(a, dtype=None, order=None, *, device=None, copy=None):
    """Converts `a` to a tessera array, sharing memory with it where possible."""
    if type(a) in _SEQUENCES and dtype is None and copy is not False and order in _NEW_C_ORDERS:
        out = _core._from_python_numbers(a, device)
        if out is not None:
            return out
    return _asarray(a, dtype, order, device, copy, "asarray")


def array_general(obj=_MISSING, dtype=None, *, copy=True, order="K", ndmin=0, device=None):
    """A tessera array from `obj`, copied unless copy=None (copy=False forbids copying):
    every call of tessera.array but array(list of numbers), which _core.array makes
    itself."""
    if obj is _MISSING:
        raise TypeError("[array] missing the required argument 'obj' (pos 0)")
    if type(obj) in _SEQUENCES and dtype is None and copy is not False and ndmin == 0 \
            and order in _NEW_C_ORDERS:
        out = _core._from_python_numbers(obj, device)
        if out is not None:
            return out
    out = _asarray(obj, dtype, order, device, copy, "array")
    ndmin = index(ndmin, "array", "ndmin")
    if out.ndim < ndmin:
        out = out.reshape((1,) * (ndmin - out.ndim) + out.shape)
    return out


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None):
    return _asarray(a, dtype, order, device, copy, "asanyarray")


def ascontiguousarray(a, dtype=None, *, device=None):
    out = _asarray(a, dtype, "C", device, None, "ascontiguousarray")
    return out.reshape(1) if out.ndim == 0 else out


def asfortranarray(a, dtype=None, *, device=None):
    out = _asarray(a, dtype, "F", device, None, "asfortranarray")
    return out.reshape(1) if out.ndim == 0 else out


def copy(a, order="K", *, device=None):
    """A copy of `a` (numpy.copy keeps the memory layout by default: order='K')."""
    return _asarray(a, None, order, device, True, "copy")


def from_dlpack(x, /, *, device=None, copy=None):
    """An array sharing memory with a DLPack producer (copied when `copy` or moved)."""
    if isinstance(x, ndarray):
        return _from_tessera(x, None, None, device, copy, "from_dlpack")
    if _dlpack_device_type(x) == _DL_CUDA:
        return _from_tessera(_cuda_dlpack(x), None, None, device, copy, "from_dlpack")
    try:
        host = np.from_dlpack(x)
    except (BufferError, TypeError, RuntimeError, AttributeError) as error:
        raise prefixed("from_dlpack", error) from None
    return _asarray(host, None, None, device, copy, "from_dlpack")


_DL_CPU, _DL_CUDA = 1, 2  # DLPack's device types (DLDeviceType)


def _dlpack_device_type(x):
    try:
        return int(x.__dlpack_device__()[0])
    except (AttributeError, TypeError, ValueError, IndexError):
        return None


def _cuda_dlpack(x):
    """A tessera array sharing the CUDA memory of a DLPack producer: the producer is asked
    for a capsule ordered before the current stream of its device (DLPack's stream
    handshake: the consumer names its stream, the producer makes it wait)."""
    index = int(x.__dlpack_device__()[1])
    if not _core._cuda.is_available() or not 0 <= index < _core._cuda.device_count():
        raise BufferError(f"[from_dlpack] the array is on cuda:{index}, which this machine "
                          "does not have")
    stream = _core._cuda._Stream.current(index).ptr or 1  # 1: the legacy default stream
    try:
        capsule = x.__dlpack__(stream=stream, max_version=(1, 0))
    except TypeError:  # a producer older than DLPack 1.0 (no max_version)
        capsule = x.__dlpack__(stream=stream)
    return _core._dlpack_import(capsule, x, "from_dlpack")


def fromfunction(function, shape, *, dtype=float, device=None, **kwargs):
    """function(*coordinates, **kwargs), each coordinate array of `shape` and `dtype`
    holding its axis' index, as NumPy calls it: on tessera arrays, on `device`."""
    from ._indexing import indices
    if device is None:
        return function(*indices(shape, dtype=dtype), **kwargs)
    with _device_of(device, None):
        return function(*indices(shape, dtype=dtype), **kwargs)


empty = _core.empty
zeros = _core.zeros
arange = _core.arange
array = _core.array
ones = _core.ones


_PYTHON_SCALAR_DTYPES = {float: np.float64, int: np.int64, bool: np.bool_, complex: np.complex128}


def full(shape, fill_value, dtype=None, order="C", *, device=None):
    if isinstance(fill_value, ndarray):
        out = empty(shape, fill_value.dtype if dtype is None else dtype, order, device=device)
        out[...] = fill_value
        return out
    if dtype is None and type(fill_value) in _PYTHON_SCALAR_DTYPES:
        # A Python number: NumPy's default dtype for it (int64 within its range).
        default = _PYTHON_SCALAR_DTYPES[type(fill_value)]
        if default is not np.int64 or -INT64_MAX - 1 <= fill_value <= INT64_MAX:
            return _core._full(shape, fill_value, default, _device_of(device, None), order,
                               "full")
    if dtype is None:
        value = native(_host_array(fill_value, None, None, "full"), "full")
        dtype = value.dtype
    else:
        value = _fill(fill_value, check_dtype(dtype, "full"), "full")
    if value.ndim == 0:
        return _core._full(shape, value, dtype, _device_of(device, None), order, "full")
    out = empty(shape, dtype, order, device=device)
    out[...] = value
    return out


def _like(a, dtype, order, shape, device, api):
    proto = a if isinstance(a, ndarray) else asarray(a)
    dtype = proto.dtype if dtype is None else dtype
    dev = _device_of(device, proto.device)
    if shape is not None or dev != proto.device:
        shape = proto.shape if shape is None else shape
        same_rank = len((shape,) if isinstance(shape, int) else shape) == proto.ndim
        keeps_f = proto.flags.f_contiguous and not proto.flags.c_contiguous
        layout = "F" if order == "F" or (order in ("A", "K") and same_rank and keeps_f) else "C"
        return empty(shape, dtype, layout, device=dev)
    return _core._empty_like(proto, dtype, order)


def empty_like(prototype, dtype=None, order="K", subok=True, shape=None, *, device=None):
    return _like(prototype, dtype, order, shape, device, "empty_like")


def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    out = _like(a, dtype, order, shape, device, "zeros_like")
    out.fill(0)
    return out


def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    out = _like(a, dtype, order, shape, device, "ones_like")
    out.fill(1)
    return out


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    out = _like(a, dtype, order, shape, device, "full_like")
    out[...] = fill_value if isinstance(fill_value, ndarray) else _fill(fill_value, out.dtype, "full_like")
    return out


def _arange_length(start, stop, step):
    try:
        span = (stop - start) / step
    except ZeroDivisionError:
        raise ZeroDivisionError("[arange] division by zero: step must not be 0") from None
    except TypeError as error:  # not numbers ("a")
        raise prefixed("arange", error) from None
    parts = (span.real, span.imag) if isinstance(span, complex) else (span,)
    try:
        return min(math.ceil(p) for p in parts)
    except ValueError:
        raise ValueError(f"[arange] cannot compute length from {start}, {stop}, {step}") from None
    except OverflowError:
        raise ValueError("[arange] Maximum allowed size exceeded") from None


def arange_general(start=None, stop=None, step=None, dtype=None, *, device=None):
    """Evenly spaced values in [start, stop), with NumPy's length rule and values: every
    call of tessera.arange but arange(n), which _core.arange makes itself."""
    if start is None and stop is None:
        raise TypeError("[arange] needs at least a stop value")
    if stop is None:
        start, stop = 0, start
    elif start is None:
        start = 0
    if step is None:
        step = 1
    for name, v in (("start", start), ("stop", stop), ("step", step)):
        if not is_scalar(v) and not (isinstance(v, (np.ndarray, ndarray)) and v.ndim == 0):
            raise TypeError(f"[arange] {name} must be a real or complex number, got "
                            f"{type(v).__name__}")
    start, stop, step = (v.item() if isinstance(v, ndarray) else v for v in (start, stop, step))
    # The length first: a range past int64 elements is NumPy's ValueError whatever the dtype
    # (a Python int stop past int64 would otherwise be refused as an object dtype).
    # NumPy checks the length against intp before it clamps a negative one to 0, so a
    # range that runs far enough backwards is the same ValueError.
    length = _arange_length(start, stop, step)
    if not -INT64_MAX - 1 <= length <= INT64_MAX:
        raise ValueError(f"[arange] Maximum allowed size exceeded ({length} elements; at most "
                         f"{INT64_MAX})")
    length = max(length, 0)
    if dtype is None:
        dtype = np.result_type(np.intp, *(np.asarray(v).dtype for v in (start, stop, step)))
    dtype = check_dtype(dtype, "arange")
    values = np.empty(2, dtype)
    try:
        values[0] = start
        values[1] = start + step if length > 1 else start
    except (OverflowError, ValueError, TypeError) as error:
        raise prefixed("arange", error) from None
    return _core._arange(length, values[:1], values[1:], dtype, _device_of(device, None))


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *,
             device=None):
    """`num` evenly spaced samples over [start, stop], computed as numpy.linspace does."""
    num = sample_count(num, "linspace", "num")
    if num < 0:
        raise ValueError(f"[linspace] Number of samples, {num}, must be non-negative.")
    if not (is_scalar(start) and is_scalar(stop)):
        return _linspace_arrays(start, stop, num, endpoint, retstep, dtype, axis, device)
    c_long(axis, "linspace", "axis")
    if axis not in (0, -1):
        raise np.exceptions.AxisError(f"[linspace] axis {axis} is out of bounds for array of "
                                      "dimension 1")
    dt = np.result_type(start, stop)
    if dt.kind not in "fc":
        dt = np.result_type(dt, 1.0)
    dt = check_dtype(dt, "linspace")
    div = (num - 1) if endpoint else num
    delta = np.subtract(stop, start, dtype=dt.type)
    if div > 0:
        step = delta / div
        step_is_zero = bool(step == 0)
        factor = step
    else:
        step, step_is_zero, factor = np.nan, False, delta
    out = _core._linspace(
        np.asarray(start, dt), np.asarray(stop, dt), np.asarray(factor, dt), np.asarray(delta, dt),
        num, div, step_is_zero, bool(endpoint), dt if dtype is None else check_dtype(dtype, "linspace"),
        _device_of(device, None),
    )
    return (out, step) if retstep else out


def _linspace_arrays(start, stop, num, endpoint, retstep, dtype, axis, device):
    """linspace with array-valued endpoints: samples along a new axis, computed with
    elementwise ops in the order numpy.linspace uses, so results match it bit for bit."""
    from . import _elementwise as ew
    from ._manipulation import moveaxis

    dev = _device_of(device, None)
    # Python numbers stay weak (NEP 50), as NumPy's array converter keeps them.
    start, stop = (x if isinstance(x, _core.ndarray) or is_scalar(x) else asarray(x, device=dev)
                   for x in (start, stop))
    dt = ew.result_type(start, stop)
    dt = check_dtype(dt if dt.kind in "fc" else ew.result_type(dt, 1.0), "linspace")
    integer_dtype = dtype is not None and np.issubdtype(dtype, np.integer)
    out_dtype = dt if dtype is None else check_dtype(dtype, "linspace")
    div = (num - 1) if endpoint else num
    delta = ew.subtract(stop, start, dtype=dt)
    y = arange(0, num, dtype=dt, device=dev).reshape((-1,) + (1,) * delta.ndim)
    if div > 0:
        step = delta / div
        if bool(np.any(ew.asnumpy(step == 0))):
            y = (y / div) * delta
        else:
            y = y * step
    else:
        step = np.nan
        y = y * delta
    y = y + start
    if endpoint and num > 1:
        y[-1, ...] = stop
    try:
        if axis != 0:
            y = moveaxis(y, 0, axis)
    except np.exceptions.AxisError as error:
        raise prefixed("linspace", error) from None
    if integer_dtype:
        ew.floor(y, out=y)
    y = y.astype(out_dtype, copy=False)
    return (y, step) if retstep else y


def _eye(api, N, M, k, dtype, order, device):
    N = dimension(N, api, "N")
    M = N if M is None else dimension(M, api, "M")
    # A diagonal past the matrix's edge (any Python int, as NumPy takes) leaves it zero.
    k = builtins.max(-N - 1, builtins.min(index(k, api, "k"), M + 1))
    return _core._eye(N, M, k, dtype, _device_of(device, None), order)


def eye(N, M=None, k=0, dtype=float, order="C", *, device=None):
    return _eye("eye", N, M, k, dtype, order, device)


def identity(n, dtype=None, *, device=None):
    return _eye("identity", n, None, 0, float if dtype is None else dtype, "C", device)
