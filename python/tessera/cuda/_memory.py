"""Device and pinned memory (CuPy's API): the pools, raw memory pointers, and NumPy arrays in
page-locked host memory."""

import numpy as np

from .. import _core
from ._device import get_device_id


class MemoryPool:
    """The stream-ordered caching pool of device memory (one per device; each method acts on
    the current device). Freed blocks are reused at once on their stream, on other streams
    once the work queued before the free has finished."""

    def used_bytes(self):
        """Bytes handed out to live arrays."""
        return _core._cuda.pool_used_bytes(get_device_id())

    def total_bytes(self):
        """Bytes held from the device: used and cached."""
        return _core._cuda.pool_total_bytes(get_device_id())

    def free_bytes(self):
        """Bytes cached in freed blocks, ready for reuse."""
        return _core._cuda.pool_free_bytes(get_device_id())

    def n_free_blocks(self):
        return _core._cuda.pool_n_free_blocks(get_device_id())

    def free_all_blocks(self, stream=None):
        """Returns every cached block to the device."""
        _core._cuda.pool_free_all_blocks(get_device_id())

    def set_limit(self, size=None, fraction=None):
        """Caps the bytes the pool may hold from the device: `size` bytes or a `fraction` of
        the device's memory; 0 removes the limit (TESSERA_GPU_MEMORY_LIMIT sets the initial
        one, in bytes or as a percentage)."""
        if size is not None and fraction is not None:
            raise ValueError("[set_limit] give size or fraction, not both")
        if fraction is not None:
            if not 0 <= fraction <= 1:
                raise ValueError(f"[set_limit] fraction must be in [0, 1], got {fraction}")
            _core._cuda.pool_set_limit_fraction(get_device_id(), float(fraction))
        else:
            size = 0 if size is None else int(size)
            if size < 0:
                raise ValueError(f"[set_limit] size must be >= 0, got {size}")
            _core._cuda.pool_set_limit(get_device_id(), size)

    def get_limit(self):
        return _core._cuda.pool_get_limit(get_device_id())

    def __repr__(self):
        return (f"<MemoryPool cuda:{get_device_id()}: used {self.used_bytes()}, "
                f"cached {self.free_bytes()}>")


class PinnedMemoryPool:
    """The cache of page-locked host memory behind alloc_pinned_memory and pinned_array."""

    def used_bytes(self):
        return _core._cuda.pinned_used_bytes()

    def total_bytes(self):
        return _core._cuda.pinned_total_bytes()

    def free_bytes(self):
        return _core._cuda.pinned_free_bytes()

    def n_free_blocks(self):
        return _core._cuda.pinned_n_free_blocks()

    def free_all_blocks(self):
        _core._cuda.pinned_free_all_blocks()


_memory_pool = MemoryPool()
_pinned_pool = PinnedMemoryPool()


def get_default_memory_pool():
    return _memory_pool


def get_default_pinned_memory_pool():
    return _pinned_pool


PinnedMemoryPointer = _core._cuda.PinnedMemoryPointer
alloc_pinned_memory = _core._cuda.alloc_pinned_memory


def _host_array(buffer_owner, shape, dtype, order):
    dtype = np.dtype(dtype)
    shape = (shape,) if np.isscalar(shape) else tuple(shape)
    count = int(np.prod(shape, dtype=np.int64))
    flat = np.frombuffer(buffer_owner, dtype=dtype, count=count)
    return flat.reshape(shape, order=order)


def pinned_array(shape, dtype=float, order="C"):
    """An uninitialized NumPy array in page-locked host memory: copies between it and a
    device run asynchronously (CuPy's cupyx.empty_pinned)."""
    dtype = np.dtype(dtype)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    return _host_array(alloc_pinned_memory(nbytes), shape, dtype, order)


class MappedArray(np.ndarray):
    """Numba's MappedNDArray: a NumPy array in page-locked host memory that is also mapped
    into a CUDA device's address space, so kernels read and write it directly (no copy): it
    exposes `__cuda_array_interface__` (what cuda.jit kernels take), and `device_array`, the
    same memory as a tessera array on the device (what RawKernel takes). After a kernel
    writes it, synchronize before reading it on the host."""

    def __array_finalize__(self, obj):
        self._mapping = getattr(obj, "_mapping", None)

    @property
    def device_array(self):
        """This memory as a tessera array on the device it is mapped into."""
        if self._mapping is None:
            raise ValueError("[mapped_array] this array is not mapped memory")
        mapping, base = self._mapping
        offset = self.__array_interface__["data"][0] - base
        pointer = MemoryPointer(mapping, offset)
        if self.flags.c_contiguous or self.flags.f_contiguous:
            return _core.ndarray(self.shape, self.dtype, memptr=pointer,
                                 order="C" if self.flags.c_contiguous else "F")
        raise NotImplementedError("[mapped_array] device_array of a non-contiguous view: use "
                                  "__cuda_array_interface__ (cuda.jit kernels take it)")

    @property
    def __cuda_array_interface__(self):
        if self._mapping is None:
            raise AttributeError("__cuda_array_interface__")
        mapping, base = self._mapping
        offset = self.__array_interface__["data"][0] - base
        return {"shape": self.shape, "typestr": self.dtype.str, "version": 3,
                "strides": None if self.flags.c_contiguous else self.strides,
                "data": (mapping.ptr + offset, not self.flags.writeable), "stream": None}

    def copy_to_host(self, ary=None, stream=0):
        if ary is None:
            return np.array(self)
        ary[...] = self
        return ary


def mapped_array(shape, dtype=np.float64, strides=None, order="C", stream=0, portable=False,
                 wc=False):
    """Numba's cuda.mapped_array: an uninitialized array in page-locked host memory mapped
    into the current CUDA device's address space (a MappedArray: a NumPy array kernels read
    and write directly)."""
    if strides is not None:
        raise NotImplementedError("[mapped_array] strides= is not supported: give order='C' or 'F'")
    dtype = np.dtype(dtype)
    shape = (shape,) if np.isscalar(shape) else tuple(shape)
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    host = alloc_pinned_memory(nbytes)
    mapping = _MappedMemory(host)
    array = _host_array(host, shape, dtype, order).view(MappedArray)
    array._mapping = (mapping, array.__array_interface__["data"][0])
    return array


class MemoryPointer:
    """A pointer into device memory owned by `mem` (CuPy's cupy.cuda.MemoryPointer)."""

    def __init__(self, mem, offset=0):
        self.mem = mem
        self.ptr = mem.ptr + offset
        self.device_id = mem.device_id
        self._offset = offset

    @property
    def device(self):
        from ._device import Device

        return Device(self.device_id)

    def __int__(self):
        return self.ptr

    def __add__(self, offset):
        return MemoryPointer(self.mem, self._offset + int(offset))

    def __repr__(self):
        return f"<MemoryPointer {self.ptr:#x} on cuda:{self.device_id}>"


class _MappedMemory:
    """Pinned host memory seen from the current device (kept alive by its pointers)."""

    def __init__(self, host):
        self.size = host.size
        self.device_id = get_device_id()
        self.ptr = _core._cuda.host_device_pointer(host.ptr)
        self._host = host


class Memory:
    """A block of device memory from the current device's pool."""

    def __init__(self, size):
        from .. import empty

        self.size = int(size)
        self.device_id = get_device_id()
        self._array = empty(max(self.size, 1), dtype=np.uint8,
                            device=_core.Device(f"cuda:{self.device_id}"))
        self.ptr = self._array.data_ptr


def alloc(size):
    """`size` bytes of device memory from the current device's pool."""
    return MemoryPointer(Memory(size))

