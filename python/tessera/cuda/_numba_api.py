"""Numba's CUDA host API (numba.cuda): moving arrays to and from the device, streams, events,
device queries. Device arrays are tessera arrays on the current CUDA device, so everything
tessera does with arrays works on them; `copy_to_host` is one of their methods."""

import numpy as np

from .. import _core
from ._device import Device, get_device_id
from ._stream import Event, Stream


def _device_name():
    return f"cuda:{get_device_id()}"


def _on(stream):
    """The stream a transfer runs on (None: the current one)."""
    return None if stream is None or (isinstance(stream, int) and stream == 0) else stream


def to_device(obj, stream=0, copy=True, to=None):
    """A copy of the host array `obj` on the current device (into the device array `to` when
    given, which is returned)."""
    from .._creation import asarray  # noqa: PLC0415 (tessera imports this package)
    host = np.asarray(obj)
    if to is not None:
        to.set(np.ascontiguousarray(host).astype(to.dtype, copy=False), stream=_on(stream))
        return to
    if _on(stream) is None:
        return asarray(host, device=_device_name())
    with stream:
        return asarray(host, device=f"cuda:{stream.device_id}")


def device_array(shape, dtype=np.float64, strides=None, order="C", stream=0):
    """An uninitialized array on the current device."""
    from .._creation import empty  # noqa: PLC0415
    if strides is not None:
        raise NotImplementedError("[device_array] strides= is not supported: give order='C' or 'F'")
    return empty(shape, dtype=dtype, order=order, device=_device_name())


def device_array_like(ary, stream=0):
    """An uninitialized device array of `ary`'s shape, dtype and layout (C or Fortran)."""
    order = "F" if ary.flags["F_CONTIGUOUS"] and not ary.flags["C_CONTIGUOUS"] else "C"
    return device_array(ary.shape, ary.dtype, order=order, stream=stream)


def synchronize():
    """Waits until every stream of the current device has finished its work."""
    Device().synchronize()


def stream():
    """A new stream on the current device."""
    return Stream()


def default_stream():
    """The current device's default (null) stream."""
    return Stream(null=True)


def event(timing=True):
    """A new event (recording its time when `timing`)."""
    return Event(disable_timing=not timing)


def detect():
    """Prints the CUDA devices found and whether they are supported; True when there is
    one."""
    count = _core._cuda.device_count() if _core._cuda.is_available() else 0
    print(f"Found {count} CUDA devices")
    for i in range(count):
        p = _core._cuda.device_properties(i)
        print(f"id {i}    {p['name']!r:>40}    [SUPPORTED]")
        print(f"{'Compute Capability:':>40} {p['major']}.{p['minor']}")
    print(f"Summary:\n\t{count}/{count} devices are supported")
    return count > 0
