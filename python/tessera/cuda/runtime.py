"""CuPy's ``cupy.cuda.runtime`` functions that programs use to ask about devices."""

from .. import _core
from ._device import Device
from ._device import get_device_id as getDevice  # noqa: N812 - CuPy's name
from ._errors import CUDARuntimeError

__all__ = ["CUDARuntimeError", "getDeviceCount", "getDevice", "setDevice", "deviceSynchronize",
           "memGetInfo", "is_simulated"]


def getDeviceCount():  # noqa: N802 - CuPy's name
    """CUDA devices found: GPUs, or the simulator's devices under TESSERA_CUDA_SIM=1."""
    return _core._cuda.device_count()


def setDevice(device):  # noqa: N802
    Device(device).use()


def deviceSynchronize():  # noqa: N802
    _core._cuda.synchronize_device(getDevice())


def memGetInfo():  # noqa: N802
    """(free, total) bytes of the current device."""
    return tuple(_core._cuda.mem_info(getDevice()))


def is_simulated():
    """Whether the CUDA devices are the simulator's (TESSERA_CUDA_SIM=1)."""
    return _core._cuda.is_simulated()
