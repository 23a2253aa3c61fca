"""tessera.cuda.Device: a CUDA device as object and context manager (CuPy's API)."""

from .. import _core


class Device:
    """A CUDA device. ``with Device(1):`` makes it the current device: arrays created
    inside land there, and kernels launch there."""

    def __init__(self, device=None):
        if device is None:
            current = _core._current_device()
            device = current.id if current.kind == "cuda" else 0
        elif isinstance(device, Device):
            device = device.id
        elif isinstance(device, _core.Device):
            if device.kind != "cuda":
                raise ValueError(f"[Device] {device} is not a CUDA device")
            device = device.id
        index = int(device)
        _core._cuda.check_device(index)  # CUDARuntimeError: no such device, or none at all
        self.id = index
        self._device = _core.Device(f"cuda:{index}")
        self._entered = []

    def use(self):
        """Makes this the current device (until changed again)."""
        _core._set_current_device(self._device)

    def __enter__(self):
        self._entered.append(self._device.__enter__())
        return self

    def __exit__(self, *exc):
        self._entered.pop().__exit__(*exc)

    def synchronize(self):
        """Waits until all work queued on the device has finished."""
        _core._cuda.synchronize_device(self.id)

    @property
    def compute_capability(self):
        """As CuPy gives it: "80" for compute capability 8.0."""
        p = _core._cuda.device_properties(self.id)
        return f"{p['major']}{p['minor']}"

    @property
    def mem_info(self):
        """(free, total) bytes."""
        return tuple(_core._cuda.mem_info(self.id))

    @property
    def attributes(self):
        return dict(_core._cuda.device_attributes(self.id))

    @property
    def name(self):
        return _core._cuda.device_properties(self.id)["name"]

    def __eq__(self, other):
        if isinstance(other, Device):
            return self.id == other.id
        if isinstance(other, _core.Device):
            return other == self._device
        return NotImplemented

    def __hash__(self):
        return hash(self._device)

    def __int__(self):
        return self.id

    __index__ = __int__

    def __repr__(self):
        return f"<CUDA Device {self.id}>"


def get_device_id():
    """The index of the current CUDA device."""
    current = _core._current_device()
    return current.id if current.kind == "cuda" else 0
