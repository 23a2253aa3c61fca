"""Arrays read from host data NumPy parses: buffers, files, strings, iterators and text
tables (frombuffer, fromfile, fromstring, fromiter, loadtxt, genfromtxt). NumPy reads them
on the host, as it does for every library built on it; the result is then copied to the
device asked for (device=, else the current one), where tessera's own work starts."""

import numpy as np

from ._convert import prefixed
from ._creation import asarray

__all__ = ["frombuffer", "fromfile", "fromiter", "fromstring", "genfromtxt", "loadtxt"]


def _read(api, reader, args, kwargs, device):
    try:
        host = reader(*args, **kwargs)
    except (ValueError, TypeError) as error:
        if type(error) not in (ValueError, TypeError):
            raise  # NumPy's more specific errors (UnicodeDecodeError ...) as they are
        raise prefixed(api, error) from None
    return asarray(host, device=device)


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, device=None):
    """An array from the bytes of `buffer` (a copy: a device array cannot share host
    memory)."""
    return _read("frombuffer", np.frombuffer, (buffer, dtype, count, offset), {}, device)


def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, device=None):
    return _read("fromfile", np.fromfile, (file, dtype, count, sep, offset), {}, device)


def fromstring(string, dtype=float, count=-1, *, sep, device=None):
    return _read("fromstring", np.fromstring, (string, dtype, count), {"sep": sep}, device)


def fromiter(iter, dtype, count=-1, *, device=None):  # noqa: A002  (NumPy's parameter name)
    return _read("fromiter", np.fromiter, (iter, dtype, count), {}, device)


def loadtxt(fname, dtype=float, *args, device=None, **kwargs):
    return _read("loadtxt", np.loadtxt, (fname, dtype, *args), kwargs, device)


def genfromtxt(fname, dtype=float, *args, device=None, **kwargs):
    return _read("genfromtxt", np.genfromtxt, (fname, dtype, *args), kwargs, device)
