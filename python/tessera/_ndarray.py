"""The parts of tessera.ndarray written in Python: transfers to the host, conversions to
Python scalars, printing, pickling and flags. Each goes through a host view of the data
(zero-copy on the CPU device)."""

import builtins

import numpy as np

from . import _core
from ._convert import fill_value, prefixed
from ._creation import _DL_CPU, _DL_CUDA

ndarray = _core.ndarray


class _HostView:
    """Presents a CPU array's memory to NumPy: read-only for tessera's own brief reads, so
    it is not handed out for writing (which would make every later expression on it run
    eagerly); `shared` for zero-copy conversions, which hand it out."""

    __slots__ = ("__array_interface__", "_owner")

    def __init__(self, a, shared=False):
        self.__array_interface__ = a.__array_interface__ if shared else a._host_interface()
        self._owner = a


def _host(a):
    """A read-only NumPy array with `a`'s data: a view for CPU arrays, a copy from other
    devices laid out as numpy.array would copy it (order='K')."""
    if a.device.kind == "cpu":
        return np.asarray(_HostView(a))
    return a.get(order="K")


def asnumpy(a, stream=None, order="C", out=None):
    """A NumPy array holding a copy of `a` (NumPy arrays and other objects pass through
    numpy.asarray)."""
    if isinstance(a, ndarray):
        return a.get(stream=stream, order=order, out=out)
    return np.asarray(a, order=order)


def get(self, stream=None, order="C", out=None, blocking=True):
    """Copies the array to host memory (always a copy, on every device, so that code that
    changes the result behaves the same on the CPU and on a GPU). A device array is copied
    on `stream` (the current stream when None) and the host waits for it."""
    if out is None and order not in ("C", "F", "A", "K", "c", "f", "a", "k"):
        raise ValueError(f"[get] order must be one of 'C', 'F', 'A', 'K', got {order!r}")
    if self.device.kind != "cpu" and out is None and self.size:
        c_order = order in ("C", "c") or (order in ("A", "a") and not (
            self.flags.f_contiguous and not self.flags.c_contiguous))
        if c_order or order in ("F", "f", "A", "a"):
            # Straight into the NumPy array returned, as CuPy's asnumpy: one transfer, no
            # host copy (a second pass over 8 MB of fresh pages costs as much as the transfer).
            result = np.empty(self.shape, self.dtype, order="C" if c_order else "F")
            with _on_stream(stream):
                (self if c_order else self.T)._download_into(result.ctypes.data)
            return result
    if self.device.kind == "cpu":
        view = _host(self)
    else:
        with _on_stream(stream):
            view = np.asarray(_HostView(self._to_device(_core.Device("cpu"))))
    if out is None:
        return np.array(view, order=order, copy=True)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"[get] out must be a numpy.ndarray, got {type(out).__name__}")
    if out.shape != self.shape or out.dtype != self.dtype:
        raise ValueError(f"[get] out has shape {out.shape} and dtype {out.dtype}; it must have "
                         f"shape {self.shape} and dtype {self.dtype}")
    np.copyto(out, view)
    return out


def set_from_host(self, arr, stream=None):
    """Copies the NumPy array `arr` (of this shape and dtype) into this array, on `stream`
    (the current stream when None), as CuPy's ndarray.set."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"[set] arr must be a numpy.ndarray, got {type(arr).__name__}")
    if arr.dtype != self.dtype:
        raise TypeError(f"[set] {arr.dtype} array cannot be set to {self.dtype} array")
    if arr.shape != self.shape:
        raise ValueError(f"[set] shape mismatch: {arr.shape} cannot be set to {self.shape}")
    with _on_stream(stream):
        from ._creation import asarray

        self[...] = asarray(np.ascontiguousarray(arr), device=self.device)


def copy_to_host(self, ary=None, stream=0):
    """Numba's DeviceNDArray.copy_to_host: a NumPy copy of the array (into `ary` when given,
    which is returned)."""
    return self.get(stream=None if isinstance(stream, int) and stream == 0 else stream, out=ary)


def copy_to_device(self, ary, stream=0):
    """Numba's DeviceNDArray.copy_to_device: copies the host array `ary` into this one."""
    self.set(np.asarray(ary), stream=None if isinstance(stream, int) and stream == 0 else stream)


class _on_stream:  # noqa: N801 - used as a context manager
    """Makes `stream` current for a copy (nothing when None)."""

    def __init__(self, stream):
        self.stream = stream

    def __enter__(self):
        if self.stream is not None:
            self.stream.__enter__()

    def __exit__(self, *exc):
        if self.stream is not None:
            self.stream.__exit__(*exc)


def __array__(self, dtype=None, copy=None):
    view = _host(self)
    if dtype is not None and np.dtype(dtype) != view.dtype:
        if copy is False:
            raise ValueError("[__array__] Unable to avoid copy while converting to dtype "
                             f"{np.dtype(dtype)}")
        return view.astype(dtype)
    if copy:
        return view.copy(order="K")
    if self.device.kind != "cpu":
        if copy is False:
            raise ValueError(f"[__array__] Unable to avoid copy: the array is on {self.device}")
        return view
    # Zero-copy: NumPy may write this memory from now on.
    return np.asarray(_HostView(self, shared=True))


def _scalar_conversion(name, convert):
    def method(self):
        try:
            return convert(_host(self))
        except (TypeError, ValueError, OverflowError) as error:
            raise prefixed(name, error) from None

    method.__name__ = f"__{name}__"
    return method


def __index__(self):
    if self.ndim != 0 or self.dtype.kind not in "biu" or self.dtype.kind == "b":
        raise TypeError("[__index__] only integer scalar arrays can be converted to a scalar index")
    return int(_host(self))


def item(self, *args):
    try:
        return _host(self).item(*args)
    except (IndexError, ValueError, TypeError) as error:
        raise prefixed("item", error) from None


def tolist(self):
    return _host(self).tolist()


def __iter__(self):
    if self.ndim == 0:
        raise TypeError("[iter] iteration over a 0-d array")
    return (self[i] for i in range(self.shape[0]))


def __repr__(self):
    return repr(_host(self))


def __str__(self):
    return str(_host(self))


def __format__(self, spec):
    return format(_host(self)[()] if self.ndim == 0 else _host(self), spec)


def _loading_device(kind):
    """Where an array saved from a device of `kind` loads (unpickled, or received by a Dask
    worker): a CPU array on the CPU, a CUDA array on the current CUDA device of the loading
    process or thread, as CuPy's arrays unpickle."""
    if kind == "cpu":
        return _core.Device("cpu")
    here = _core._current_device()
    return here if here.kind == "cuda" else _core.Device("cuda:0")


def _rebuild(host, device):
    """An unpickled array (`device`: where it was saved from)."""
    return _core._from_host(host, _loading_device(_core.Device(device).kind), True, "K")


def __reduce_ex__(self, protocol):
    # Like NumPy's pickles: protocol 5 keeps the memory layout; older protocols store
    # Fortran order for Fortran-contiguous arrays and C order otherwise (a broadcast array
    # is neither, though a device's host copy of it may be Fortran-contiguous).
    broadcast = any(s == 0 and n > 1 for s, n in zip(self.strides, self.shape))
    order = "C" if broadcast else "K" if protocol >= 5 else "A"
    return (_rebuild, (np.array(_host(self), order=order, copy=True), str(self.device)))


def _part_setter(part):
    """Setting .real/.imag converts the value as numpy.copyto(casting='unsafe') does."""

    def setter(self, value):
        if part == "imag" and self.dtype.kind != "c":
            raise TypeError("[imag] array does not have imaginary part to set")
        view = getattr(self, part)
        view[...] = value if isinstance(value, ndarray) else fill_value(value, view.dtype, part)

    return setter


class flatiter:
    """NumPy's `a.flat`: the array read and written as 1-d in C order, whatever its
    layout; an iterator over its elements too. Positions and values stay on the array's
    device."""

    def __init__(self, base):
        self.base = base
        self.index = 0

    @property
    def coords(self):
        return tuple(int(c) for c in np.unravel_index(self.index, self.base.shape))

    def __len__(self):
        return self.base.size

    def __iter__(self):
        return self

    def __next__(self):
        if self.index >= self.base.size:
            raise StopIteration
        value = self[self.index]
        self.index += 1
        return value

    def __getitem__(self, key):
        return self.base.reshape(-1)[key]

    def __setitem__(self, key, value):
        """Values repeated as needed to fill the selected positions, as NumPy's flatiter."""
        from ._creation import arange, asarray
        from ._indexing import unravel_index

        base = self.base
        positions = arange(base.size, device=base.device)[key].reshape(-1)
        values = asarray(value, device=base.device).astype(base.dtype, copy=False).reshape(-1)
        if positions.size == 0 or values.size == 0:
            return
        if values.size != positions.size:
            values = values[arange(positions.size, device=base.device) % values.size]
        base[unravel_index(positions, base.shape)] = values

    def copy(self):
        return self.base.flatten()


def view(self, dtype=None, type=None):  # noqa: A002  (NumPy's parameter name)
    """A new array object over the same data; with a dtype, the same bytes read as that
    dtype (a different item size rescales the last axis, which must be contiguous)."""
    if isinstance(dtype, builtins.type) and issubclass(dtype, (ndarray, np.ndarray)):
        dtype, type = None, dtype
    if type is not None and type is not ndarray:
        raise TypeError(f"[view] tessera has no array subclasses; type must be "
                        f"tessera.ndarray, got {type!r}")
    return self._view_as(self.dtype if dtype is None else dtype)



def _set_flat(self, value):
    flatiter(self)[...] = value


def __copy__(self):
    return self.copy(order="K")


def __deepcopy__(self, memo):
    return self.copy(order="K")


def __dask_tokenize__(self):
    """Dask's token of the array, never through a host copy: a CPU array's is its contents'
    (hashed in place, as Dask hashes NumPy arrays); a device array's is its identity and
    layout (hashing device memory would need a pass over it, or a copy)."""
    if self.device.kind == "cpu":
        from dask.base import normalize_token
        return ("tessera.ndarray", normalize_token(_host(self)))
    return ("tessera.ndarray", str(self.device), self.dtype.str, self.shape, self.strides,
            id(self))


def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
    """A DLPack capsule of this array: its own memory unless `copy` (or `dl_device` is the
    host, (1, 0), for a CUDA array: a copy there). For a CUDA array `stream` is the
    consumer's stream (None: the legacy default stream, -1: none), which is made to wait
    for this array's pending work through an event."""
    if dl_device is not None:
        dl_device = tuple(dl_device)
    if self.device.kind == "cpu":
        kwargs = {"copy": copy, "dl_device": dl_device}
        if max_version is not None:
            kwargs["max_version"] = max_version
        return np.asarray(self).__dlpack__(**kwargs)
    if dl_device == (_DL_CPU, 0):
        if copy is False:
            raise BufferError(f"[__dlpack__] the array is on {self.device}: giving it to the "
                              "host takes a copy, and copy=False forbids one")
        host_kwargs = {} if max_version is None else {"max_version": max_version}
        return self.get().__dlpack__(**host_kwargs)
    if dl_device not in (None, (_DL_CUDA, self.device.id)):
        raise BufferError(f"[__dlpack__] cannot export an array of {self.device} to DLPack "
                          f"device {dl_device}; allowed: {(_DL_CUDA, self.device.id)} or "
                          f"{(_DL_CPU, 0)}")
    source = self.copy() if copy else self
    versioned = max_version is not None and tuple(max_version)[0] >= 1
    return _core._dlpack_export(source, stream, versioned)


def __dlpack_device__(self):
    return (1, 0) if self.device.kind == "cpu" else (2, self.device.id)


class Flags:
    """ndarray.flags: a live view of an array's memory layout flags, as NumPy's."""

    __slots__ = ("_array",)
    _NAMES = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "CONTIGUOUS": "c_contiguous",
              "F_CONTIGUOUS": "f_contiguous", "F": "f_contiguous", "FORTRAN": "f_contiguous",
              "OWNDATA": "owndata", "O": "owndata", "WRITEABLE": "writeable", "W": "writeable",
              "ALIGNED": "aligned", "A": "aligned", "WRITEBACKIFCOPY": "writebackifcopy",
              "X": "writebackifcopy", "FNC": "fnc", "FORC": "forc", "BEHAVED": "behaved",
              "B": "behaved", "CARRAY": "carray", "CA": "carray", "FARRAY": "farray",
              "FA": "farray"}

    def __init__(self, array):
        self._array = array

    @property
    def c_contiguous(self):
        return self._array._c_contiguous

    @property
    def f_contiguous(self):
        return self._array._f_contiguous

    @property
    def contiguous(self):
        return self.c_contiguous

    @property
    def fortran(self):
        return self.f_contiguous

    @property
    def fnc(self):
        return self.f_contiguous and not self.c_contiguous

    @property
    def forc(self):
        return self.f_contiguous or self.c_contiguous

    @property
    def behaved(self):
        return self.aligned and self.writeable

    @property
    def carray(self):
        return self.behaved and self.c_contiguous

    @property
    def farray(self):
        # NumPy tests "any of ALIGNED, WRITEABLE, F_CONTIGUOUS" and not C-contiguous.
        return (self.aligned or self.writeable or self.f_contiguous) and not self.c_contiguous

    @property
    def owndata(self):
        return self._array.base is None

    @property
    def aligned(self):
        return True

    @property
    def writebackifcopy(self):
        return False

    @property
    def writeable(self):
        return self._array._writeable

    @writeable.setter
    def writeable(self, value):
        base = self._array.base
        if value and base is not None and not base.flags.writeable:
            raise ValueError("[flags] cannot set WRITEABLE flag to True of this array: its base "
                             "is read-only")
        self._array._writeable = bool(value)

    def __getitem__(self, key):
        try:
            return getattr(self, self._NAMES[key])
        except (KeyError, TypeError):
            raise KeyError(f"[flags] unknown flag {key!r}") from None

    def __setitem__(self, key, value):
        if self._NAMES.get(key) != "writeable":
            raise KeyError(f"[flags] only WRITEABLE can be set, not {key!r}")
        self.writeable = value

    def __repr__(self):
        names = ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED",
                 "WRITEBACKIFCOPY")
        return "\n".join(f"  {n} : {self[n]}" for n in names) + "\n"


# What the methods bound in C++ (python/src/ndarray.cpp) leave to Python: a CPU array's
# element converts there; other devices, positions and errors come here.
_slow_item = item
_slow__float__ = _scalar_conversion("float", float)
_slow__int__ = _scalar_conversion("int", int)
_slow__complex__ = _scalar_conversion("complex", complex)
_slow__bool__ = _scalar_conversion("bool", bool)


def _install():
    methods = {
        "get": get, "set": set_from_host, "copy_to_host": copy_to_host,
        "copy_to_device": copy_to_device, "__array__": __array__, "__index__": __index__,
        "tolist": tolist, "__iter__": __iter__, "__repr__": __repr__, "__str__": __str__,
        "__format__": __format__, "__reduce_ex__": __reduce_ex__, "__copy__": __copy__,
        "__deepcopy__": __deepcopy__, "__dlpack__": __dlpack__,
        "__dlpack_device__": __dlpack_device__, "__dask_tokenize__": __dask_tokenize__,
        "flags": property(Flags),
        "flat": property(flatiter, _set_flat),
        "view": view,
        "real": property(ndarray.real.fget, _part_setter("real")),
        "imag": property(ndarray.imag.fget, _part_setter("imag")),
        "__array_priority__": 100,
    }
    for name, value in methods.items():
        setattr(ndarray, name, value)


_install()
