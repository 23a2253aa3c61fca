"""CUDA devices (CuPy's ``cupy.cuda`` API): devices, streams, events, memory pools, pinned
memory. Works with a GPU (libcuda is loaded at run time) and, under TESSERA_CUDA_SIM=1, with
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

__all__ = [
    "CUDARuntimeError", "Device", "Event", "Memory", "MemoryPointer", "MemoryPool",
    "OutOfMemoryError", "PinnedMemoryPointer", "PinnedMemoryPool", "Stream", "alloc",
    "alloc_pinned_memory", "compiler", "get_current_stream", "get_default_memory_pool",
    "get_default_pinned_memory_pool", "get_device_id", "get_elapsed_time", "is_available",
    "mapped_array", "pinned_array", "runtime",
]


def is_available():
    """Whether a CUDA device can be used: a GPU with its driver, or the simulator."""
    return _core._cuda.is_available()
