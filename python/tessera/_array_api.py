"""The names the Python array API standard (2024.12) adds to NumPy's: the inspection
namespace, the functions NumPy spells differently, and finfo/iinfo with the standard's
Python-number fields. tessera's own namespace is the standard's namespace, as NumPy 2's is:
``x.__array_namespace__()`` is the ``tessera`` module."""

import numbers
import sys

import numpy as np

from . import _core
from ._convert import prefixed

__array_api_version__ = "2024.12"

# The versions a caller may ask for through __array_namespace__(api_version=...): the
# namespace is a superset of each earlier one (what changed between them only added names).
_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")

_ARRAY_API_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
                     "uint64", "float32", "float64", "complex64", "complex128")


def _numpy_info(api, numpy_info, x):
    """NumPy's finfo or iinfo of the dtype `x` names: a dtype, a scalar type, or an array
    (tessera's or not); NumPy's errors name tessera's function."""
    try:
        return numpy_info(np.dtype(x.dtype if hasattr(x, "dtype") and not isinstance(x, type)
                                   else x))
    except (TypeError, ValueError) as error:
        raise prefixed(api, error) from None


def astype(x, dtype, /, *, copy=True, device=None):
    """The array cast to `dtype` (on `device` when given); copy=False returns `x` itself
    when neither the dtype nor the device changes."""
    from ._creation import asarray
    if not isinstance(x, _core.ndarray):
        raise TypeError(f"[astype] expected a tessera array, got {type(x).__name__}")
    if device is None:
        return x.astype(dtype, copy=copy)
    # One move and one cast, not a cast copy first: asarray casts where it lands.
    return asarray(x, dtype=dtype, device=device, copy=True if copy else None)


def concat(arrays, /, *, axis=0):
    """The arrays joined along `axis` (None: flattened first), NumPy's concatenate."""
    from ._joining import concatenate
    return concatenate(arrays, axis=axis)


def unstack(x, /, *, axis=0):
    """The views of `x` along `axis`, as a tuple (the inverse of stack)."""
    from ._manipulation import moveaxis
    if not isinstance(x, _core.ndarray):
        raise TypeError(f"[unstack] expected a tessera array, got {type(x).__name__}")
    if x.ndim == 0:
        raise ValueError("[unstack] a 0-d array has no axis to unstack")
    if not isinstance(axis, numbers.Integral) or not -x.ndim <= axis < x.ndim:
        raise np.exceptions.AxisError(
            f"[unstack] axis {axis!r} is out of bounds for array of dimension {x.ndim}")
    return tuple(moveaxis(x, axis, 0))


def isdtype(dtype, kind):
    """Whether `dtype` is of `kind`: a dtype, a kind name of the standard ('bool', 'signed
    integer', 'unsigned integer', 'integral', 'real floating', 'complex floating',
    'numeric'), or a tuple of these. tessera's dtypes are NumPy's, so NumPy's isdtype
    decides; its errors name tessera's function."""
    try:
        return np.isdtype(dtype, kind)
    except (TypeError, ValueError) as error:
        raise prefixed("isdtype", error) from None


class finfo:
    """Machine limits of a floating dtype (NumPy's finfo; the fields the standard names are
    Python numbers, as the standard asks, where NumPy's are NumPy scalars)."""

    _FLOATS = ("eps", "epsneg", "max", "min", "resolution", "smallest_normal",
               "smallest_subnormal", "tiny")
    _INTS = ("bits", "iexp", "machep", "maxexp", "minexp", "negep", "nexp", "nmant",
             "precision")

    def __init__(self, type):  # noqa: A002  (the standard's parameter name)
        info = _numpy_info("finfo", np.finfo, type)
        self.dtype = info.dtype
        for name in self._FLOATS:
            setattr(self, name, float(getattr(info, name)))
        for name in self._INTS:
            setattr(self, name, int(getattr(info, name)))

    def __repr__(self):
        return (f"finfo(resolution={self.resolution!r}, min={self.min!r}, max={self.max!r}, "
                f"dtype={self.dtype})")


class iinfo:
    """Machine limits of an integer dtype (NumPy's iinfo; also takes a tessera array)."""

    def __init__(self, type):  # noqa: A002  (the standard's parameter name)
        info = _numpy_info("iinfo", np.iinfo, type)
        self.dtype, self.kind = info.dtype, info.kind
        self.bits, self.min, self.max = int(info.bits), int(info.min), int(info.max)

    def __repr__(self):
        return f"iinfo(min={self.min}, max={self.max}, dtype={self.dtype})"


class _Info:
    """What ``tessera.__array_namespace_info__()`` returns: the devices, dtypes and
    capabilities of this namespace (the standard's inspection API)."""

    __module__ = "tessera"

    def capabilities(self):
        return {"boolean indexing": True, "data-dependent shapes": True,
                "max dimensions": 64}

    def default_device(self):
        return _core._current_device()

    def devices(self):
        from . import cuda
        found = [_core.Device("cpu")]
        if cuda.is_available():
            found += [_core.Device(f"cuda:{i}") for i in range(cuda.runtime.getDeviceCount())]
        return found

    def default_dtypes(self, *, device=None):
        self._check_device(device)
        return {"real floating": np.dtype(np.float64), "complex floating":
                np.dtype(np.complex128), "integral": np.dtype(np.intp),
                "indexing": np.dtype(np.intp)}

    def dtypes(self, *, device=None, kind=None):
        """The standard's dtypes (every device holds all of them), by name; `kind` as in
        isdtype."""
        self._check_device(device)
        every = {name: np.dtype(name) for name in _ARRAY_API_DTYPES}
        if kind is None:
            return every
        return {name: dt for name, dt in every.items() if isdtype(dt, kind)}

    def _check_device(self, device):
        if device is not None and not isinstance(device, _core.Device):
            raise TypeError(f"[__array_namespace_info__] device must be a tessera.Device or "
                            f"None, got {type(device).__name__}")


def __array_namespace_info__():
    """The inspection namespace of the array API standard."""
    return _Info()


def __array_namespace__(self, /, *, api_version=None):
    """The array API namespace of tessera arrays: the tessera module."""
    if api_version is not None and api_version not in _API_VERSIONS:
        raise ValueError(f"[__array_namespace__] unsupported api_version {api_version!r}; "
                         f"allowed: None, {', '.join(map(repr, _API_VERSIONS))}")
    return sys.modules["tessera"]


def to_device(self, device, /, *, stream=None):
    """This array on `device` (itself when it is there already); the copy runs on `stream`
    (a tessera.cuda.Stream, or None for the current one)."""
    from ._ndarray import _on_stream
    if not isinstance(device, _core.Device):
        if not isinstance(device, str):
            raise TypeError(f"[to_device] device must be a tessera.Device or a string such "
                            f"as 'cpu' or 'cuda:0', got {type(device).__name__}")
        device = _core.Device(device)
    if stream is not None and not hasattr(stream, "__enter__"):
        raise TypeError(f"[to_device] stream must be a tessera.cuda.Stream or None, got "
                        f"{type(stream).__name__}")
    if device == self.device:
        return self
    with _on_stream(stream):
        return self._to_device(device)


_core.ndarray.__array_namespace__ = __array_namespace__
_core.ndarray.to_device = to_device
