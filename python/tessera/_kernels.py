"""User kernels from CUDA C++ source (CuPy's RawKernel and RawModule). On a GPU the source
is compiled by NVRTC for the device's architecture; on the simulator it is checked by NVRTC
(when installed) and compiled by the host compiler; with CPU arrays (tessera's or NumPy's) it
runs on the CPU, compiled by the host compiler and run by the simulator's executor over host
memory, so a program written for a GPU runs unchanged without one. Compiled kernels are
cached in memory and on disk (TESSERA_CACHE_DIR)."""

import numpy as np

from . import _core
from .cuda._device import get_device_id


def _launch_device(args, stream):
    """Where a launch runs: the stream's device; else the first array argument's (a NumPy
    array is host memory: the CPU); else the current device when it is a CUDA one, the
    current CUDA device when CUDA is available, the CPU otherwise."""
    if stream is not None:
        return "cuda", stream.device_id
    for arg in args:
        device = getattr(arg, "device", None)
        if isinstance(device, _core.Device):
            return device.kind, device.id
        if isinstance(arg, np.ndarray):
            return "cpu", 0
    current = _core._current_device()
    if current.kind == "cuda" or _core._cuda.is_available():
        return "cuda", get_device_id()
    return "cpu", 0


def _options(options, api):
    if isinstance(options, str):
        return [options]
    options = list(options)
    for option in options:
        if not isinstance(option, str):
            raise TypeError(f"[{api}] options must be strings, got {type(option).__name__}")
    return options


def _check_backend(backend, api):
    if backend != "nvrtc":
        raise ValueError(f"[{api}] backend must be 'nvrtc', got {backend!r}")


class RawModule:
    """A module of kernels compiled from CUDA C++ `code`. Kernels that are templates (or
    not extern "C") are named by `name_expressions` ("scale<float>"), then fetched with
    get_function(expression). The toolkit's headers are on NVRTC's include path (as CuPy
    puts them); enable_cooperative_groups=True launches the kernels cooperatively."""

    def __init__(self, code=None, path=None, options=(), backend="nvrtc",
                 translate_cucomplex=False, *, enable_cooperative_groups=False,
                 name_expressions=None, jitify=False):
        _check_backend(backend, "RawModule")
        if (code is None) == (path is None):
            raise TypeError("[RawModule] give exactly one of code and path")
        if path is not None:
            with open(path) as f:
                code = f.read()
        if not isinstance(code, str):
            raise TypeError(f"[RawModule] code must be a str, got {type(code).__name__}")
        self.code = code
        self.options = tuple(_options(options, "RawModule"))
        self.name_expressions = tuple(name_expressions or ())
        self.enable_cooperative_groups = bool(enable_cooperative_groups)
        self._module = _core._cuda._Module(code, list(self.options), list(self.name_expressions))
        self._cpu_module = None
        self._functions = {}

    def get_function(self, name):
        """The kernel `name` (an extern "C" name or one of the name expressions)."""
        return RawKernel._from_module(self, name)

    def compile(self, log_stream=None):
        """Compiles the module now for the current device (it is compiled on first use
        otherwise)."""
        for name in self.name_expressions:
            self._handle(name, get_device_id())

    def _handle(self, name, device):
        key = (name, device)
        if key not in self._functions:
            self._functions[key] = self._module.function(name, device)
        return self._functions[key]

    def _cpu_handle(self, name):
        """The kernel compiled for the CPU device (the host compiler, the simulator's
        runtime over host memory)."""
        key = (name, "cpu")
        if key not in self._functions:
            if self._cpu_module is None:
                self._cpu_module = _core._cuda._CpuModule(self.code, list(self.options),
                                                          list(self.name_expressions))
            self._functions[key] = self._cpu_module.function(name)
        return self._functions[key]


class RawKernel:
    """A kernel `name` compiled from CUDA C++ `code` (extern "C", or a name expression).
    Launch it as ``kernel(grid, block, args, shared_mem=0, stream=None)``: args are tessera
    arrays (passed as device pointers), NumPy scalars (passed in their dtype) and Python
    scalars (as int64, float64, complex128 or bool, as CuPy passes them)."""

    def __init__(self, code, name, options=(), backend="nvrtc", translate_cucomplex=False,
                 *, enable_cooperative_groups=False, jitify=False):
        _check_backend(backend, "RawKernel")
        if not isinstance(name, str):
            raise TypeError(f"[RawKernel] name must be a str, got {type(name).__name__}")
        self.name = name
        self.code = code
        self.options = tuple(_options(options, "RawKernel"))
        self._owner = RawModule(code=code, options=self.options,
                                enable_cooperative_groups=enable_cooperative_groups)

    @classmethod
    def _from_module(cls, module, name):
        self = cls.__new__(cls)
        self.name = name
        self.code = module.code
        self.options = module.options
        self._owner = module
        return self

    def compile(self, log_stream=None):
        self._owner._handle(self.name, get_device_id())

    def __call__(self, grid, block, args, *, shared_mem=0, stream=None):
        if not isinstance(args, tuple | list):
            raise TypeError(f"[RawKernel] args must be a tuple, got {type(args).__name__}")
        kind, device = _launch_device(args, stream)
        # A module made with enable_cooperative_groups launches cooperatively (CuPy's rule):
        # all its blocks at once, so that cooperative_groups::this_grid().sync() can meet.
        cooperative = self._owner.enable_cooperative_groups
        if kind == "cpu":
            _core._cuda.launch_cpu(self._owner._cpu_handle(self.name), grid, block, args,
                                   int(shared_mem), cooperative)
            return
        handle = self._owner._handle(self.name, device)
        _core._cuda.launch(handle, device, grid, block, args, int(shared_mem),
                           None if stream is None else stream._stream, cooperative)

    def __repr__(self):
        return f"<RawKernel {self.name}>"
