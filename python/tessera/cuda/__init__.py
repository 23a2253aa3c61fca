"""CUDA devices (CuPy's ``cupy.cuda`` API): devices, streams, events, memory pools, pinned
memory; and Numba's ``numba.cuda`` API: kernels written in Python (``jit``, with the
kernel-side names ``grid``, ``threadIdx``, ``shared.array``, ``atomic.add`` ...),
``to_device``, ``device_array``, ``synchronize``. Works with a GPU (libcuda is loaded at run time) and, under TESSERA_CUDA_SIM=1, with
the CUDA simulator, which runs CUDA code on the CPU (slowly; its timings mean nothing).
Without either, is_available() is False and Device(0) raises CUDARuntimeError."""

from .. import _core
from . import compiler, runtime
from ._device import Device, get_device_id
from ._errors import CUDARuntimeError, OutOfMemoryError
from ._memory import (
    Memory,
    MemoryPointer,
    MemoryPool,
    PinnedMemoryPointer,
    PinnedMemoryPool,
    alloc,
    alloc_pinned_memory,
    get_default_memory_pool,
    get_default_pinned_memory_pool,
    mapped_array,
    pinned_array,
)
from ._stream import Event, Stream, get_current_stream, get_elapsed_time
from ._kernel_api import *  # noqa: F403 (Numba's kernel-side names)
from ._kernel_api import __all__ as _kernel_names
from ._numba_api import (
    default_stream,
    detect,
    device_array,
    device_array_like,
    event,
    stream,
    synchronize,
    to_device,
)
from ..jit.cuda_dispatcher import NumbaPerformanceWarning, declare_device, jit

# Kernels compiled by tessera.cuda.jit find Numba's `cuda` names through this module.
_tessera_cuda_name = ""

__all__ = [
    "CUDARuntimeError", "Device", "Event", "Memory", "MemoryPointer", "MemoryPool",
    "OutOfMemoryError", "PinnedMemoryPointer", "PinnedMemoryPool", "Stream", "alloc",
    "alloc_pinned_memory", "compiler", "get_current_stream", "get_default_memory_pool",
    "get_default_pinned_memory_pool", "get_device_id", "get_elapsed_time", "is_available",
    "mapped_array", "pinned_array", "runtime",
    "NumbaPerformanceWarning", "default_stream", "detect", "device_array", "device_array_like",
    "declare_device", "event", "jit", "stream", "synchronize", "to_device", *_kernel_names,
]


def is_available():
    """Whether a CUDA device can be used: a GPU with its driver, or the simulator."""
    return _core._cuda.is_available()
