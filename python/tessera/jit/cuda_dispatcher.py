"""`tessera.cuda.jit`: CUDA kernels and device functions written in Python, as Numba's
`@cuda.jit`. The same front end as `tessera.jit` types the function for its arguments (with
Numba's `cuda` module available, cuda_intrinsics.py); the CUDA renderer makes the module a
CUDA C++ kernel, which NVRTC compiles for the GPU (or the simulator runs on the CPU), cached
in memory and on disk like every kernel.

A kernel is launched as Numba's are: `kernel[griddim, blockdim](args)`, optionally with a
stream and a number of bytes of dynamic shared memory. Arguments are tessera arrays on the
kernel's device (passed as they are), objects exposing `__cuda_array_interface__`, NumPy
arrays (copied to the device before the launch and back after it, with Numba's performance
warning), and numbers.
"""

import numbers
import warnings

import numpy as np

from .. import _core
from . import ir
from . import types as T
from .dispatcher import CompiledFunction, takes
from .signatures import parse_scalar_signature, parse_signature
from .frontend import TypingError


class NumbaPerformanceWarning(UserWarning):
    """Numba's warning for a launch that copies host arrays to the device and back."""


MISSING_LAUNCH_CONFIG = ("Kernel launch configuration was not specified. Use the syntax:\n\n"
                         "kernel_function[blockspergrid, threadsperblock](arg0, arg1, ..., argn)")


def launch_dims(dim, name):
    """A grid or block shape as three ints (Numba's checks and messages)."""
    dims = list(dim) if isinstance(dim, (tuple, list)) else [dim]
    if len(dims) > 3 or not dims:
        raise ValueError(f"{name} must be a sequence of 1, 2 or 3 integers, got {dims!r}")
    for v in dims:
        if not isinstance(v, numbers.Integral) or isinstance(v, bool):
            raise TypeError(f"{name} must be a sequence of integers, got {dims!r}")
        if v < 1:
            raise ValueError(f"{name} must be positive, got {dims!r}")
    return tuple(int(v) for v in dims) + (1,) * (3 - len(dims))


def _interface_type(interface):
    """The array type of a `__cuda_array_interface__` dictionary."""
    dtype = np.dtype(interface["typestr"])
    shape = tuple(interface["shape"])
    strides = interface.get("strides")
    layout = "C" if strides is None else _layout_of(shape, tuple(strides), dtype.itemsize)
    readonly = bool(interface["data"][1])
    if not dtype.isnative or dtype.name not in T.SCALARS:
        return None
    return T.ArrayType(dtype.name, len(shape), layout, readonly)


def _layout_of(shape, strides, itemsize):
    def contiguous(order):
        step = itemsize
        for extent, stride in order:
            if extent > 1 and stride != step:
                return False
            step *= extent
        return True
    pairs = list(zip(shape, strides))
    if contiguous(pairs[::-1]):
        return "C"
    if contiguous(pairs):
        return "F"
    return "A"


def _interface_bytes(interface):
    """A `__cuda_array_interface__` array's view, as the kernel takes it."""
    shape = tuple(interface["shape"])
    strides = interface.get("strides")
    itemsize = np.dtype(interface["typestr"]).itemsize
    if strides is None:
        strides, step = [], itemsize
        for extent in reversed(shape):
            strides.insert(0, step)
            step *= extent
    words = list(shape) + list(strides) if shape else [0, 0]
    return np.array([interface["data"][0]] + words, dtype=np.int64).tobytes()


# The static shared memory a block may declare on every CUDA device (more takes dynamic
# shared memory and an opt-in).
STATIC_SHARED_LIMIT = 48 * 1024


def _static_shared_bytes(statements):
    """The bytes of the cuda.shared.array declarations among IR `statements`."""
    total = 0
    for s in statements:
        if isinstance(s, ir.LocalArray) and s.space == "shared":
            total += int(np.prod(s.dims, dtype=np.int64)) * np.dtype(s.type.dtype).itemsize
        for attr in ("body", "orelse"):
            total += _static_shared_bytes(getattr(s, attr, []))
    return total


# The C++ spelling of the types a cuda.declare_device function takes and returns.
_C_TYPES = {"bool": "bool", "int8": "signed char", "uint8": "unsigned char", "int16": "short",
            "uint16": "unsigned short", "int32": "int", "uint32": "unsigned int",
            "int64": "long long", "uint64": "unsigned long long", "float32": "float",
            "float64": "double"}
# Files cuda.jit(link=...) and declare_device(link=...) take: CUDA C++ source, compiled with
# the kernel.
_SOURCE_SUFFIXES = (".cu", ".cuh", ".h", ".hpp")


class DeclaredDevice:
    """A device function written in CUDA C++ that kernels call (Numba's
    `cuda.declare_device`): its C name, argument and result types, the source files that
    define it, and its ABI: Numba's (`extern "C" __device__ int f(R* result, args...)`,
    returning 0) or "c" (`extern "C" __device__ R f(args...)`)."""

    _tessera_declared_device = True

    def __init__(self, name, signature, link=(), abi="numba"):
        if abi not in ("numba", "c"):
            raise ValueError(f"[declare_device] abi must be 'numba' or 'c', got {abi!r}")
        self.name = name
        args, self.return_type = parse_scalar_signature(signature, "declare_device")
        for t in (*args, self.return_type):
            if t not in _C_TYPES:
                raise TypeError(f"[declare_device] {name}(): {t} values are not supported "
                                f"(take {', '.join(_C_TYPES)})")
        self.args = args
        self.link = tuple(link or ())
        self.abi = abi

    def declaration(self):
        """The C++ declaration of the function."""
        args = [_C_TYPES[t] for t in self.args]
        result = _C_TYPES[self.return_type]
        if self.abi == "numba":
            return f'extern "C" __device__ int {self.name}({", ".join([result + "*"] + args)});\n'
        return f'extern "C" __device__ {result} {self.name}({", ".join(args)});\n'

    def __call__(self, *args):
        raise RuntimeError(f"{self.name}() is a CUDA device function: call it from a kernel "
                           "compiled with tessera.cuda.jit")

    def __repr__(self):
        return f"<tessera.cuda.declare_device {self.name}>"


def declare_device(name, sig, link=None, use_cooperative=False, abi="numba"):
    """Numba's `cuda.declare_device`: a device function written in CUDA C++ (in a file a
    kernel links, or `link=` here), callable from kernels."""
    del use_cooperative  # a kernel that synchronizes its grid is launched cooperatively anyway
    return DeclaredDevice(name, sig, link or (), abi)


def _linked_source(paths, kernel_name):
    """The CUDA C++ of the files `paths` (what a kernel links), each under its #line."""
    text = ""
    for path in paths:
        path = str(path)
        if not path.endswith(_SOURCE_SUFFIXES):
            raise NotImplementedError(f"[cuda.jit] {kernel_name}(): link={path!r}: only CUDA C++ "
                                      f"source ({', '.join(_SOURCE_SUFFIXES)}) is linked so far, "
                                      "not PTX, cubin or object files")
        try:
            with open(path, encoding="utf-8") as f:
                body = f.read()
        except OSError as error:
            raise FileNotFoundError(f"[cuda.jit] {kernel_name}(): cannot read link file "
                                    f"{path!r}: {error.strerror}") from None
        text += f'#line 1 "{path}"\n{body}\n'
    return text


class KernelSpecialization:
    """One compiled kernel: its IR, its CUDA C++ and its module (loaded per device)."""

    def __init__(self, function_ir, fastmath=False, link=()):
        self.ir = function_ir
        self.text = function_ir.module_text()
        # The CUDA C++ device functions it calls: their declarations, then the files that
        # define them (the kernel's link= and theirs), compiled with the kernel.
        externals, files = [], list(link)
        for f in function_ir.callees + [function_ir]:
            for e in f.externals:
                if all(e is not known for known in externals):
                    externals.append(e)
                    files.extend(p for p in e.link if p not in files)
        preamble = "".join(e.declaration() for e in externals) + _linked_source(
            files, function_ir.name) if externals or files else ""
        self.source = _core._jit_render_cuda(self.text, preamble)
        options = _core._cuda.generated_kernel_options()
        if fastmath:  # flush denormals to zero, approximate division and sqrt, contract FMAs
            options = [o for o in options if o != "--fmad=false"] + ["--use_fast_math"]
        self.options = options
        self.module = _core._cuda._Module(self.source, options, [])
        self._handles = {}
        # A kernel that synchronizes its grid is launched cooperatively (all blocks at once).
        self.cooperative = "(intrinsic grid_sync " in self.text

    def handle(self, device):
        handle = self._handles.get(device)
        if handle is None:
            handle = self._handles[device] = self.module.function(
                _core._jit_python_kernel_name, device)
        return handle

    def max_cooperative_grid_blocks(self, blockdim, dynsmemsize=0, device=None):
        """The most blocks of `blockdim` a cooperative launch of this kernel may have (all
        must be on the device at once), as Numba's."""
        from ..cuda._device import get_device_id  # noqa: PLC0415
        block = launch_dims(blockdim, "blockdim")
        device = get_device_id() if device is None else device
        return _core._cuda.max_cooperative_blocks(self.handle(device), device,
                                                  block[0] * block[1] * block[2], int(dynsmemsize))


class CUDADispatcher(CompiledFunction):
    """What `@cuda.jit` makes of a function: a kernel to launch with `kernel[grid, block]`,
    or with `device=True` a device function that kernels call."""

    _name_salt = "cuda:"

    def __init__(self, py_func, device=False, signatures=(), **options):
        super().__init__(py_func)
        self.device = device
        self.options = options
        self._kernels = {}  # argument types -> KernelSpecialization
        # Eager signatures: a kernel's are typed and rendered now (compiled at the first
        # launch, for the device's architecture); a launch takes the first its arguments
        # convert to. A device function's are checked against its parameters only: it is
        # compiled for the types its callers give it.
        self._eager = []
        for signature in signatures:
            types, _ = parse_signature(signature, "cuda.jit")
            if len(types) != py_func.__code__.co_argcount:
                raise TypeError(f"[cuda.jit] the signature {signature!r} has {len(types)} "
                                f"arguments; {self.__name__}() takes {py_func.__code__.co_argcount}")
            self._eager.append(types)
            if not device:
                self.specialization(types)

    # --- compiling --------------------------------------------------------------------------

    def lower_for(self, types, target="cuda"):
        """The typed IR for argument types `types` (as a callee: a device function)."""
        if target != "cuda":
            raise TypingError(f"[cuda.jit] {self.__name__}() is a CUDA function: only CUDA "
                              "kernels and device functions can call it")
        return self._lower(types, "cuda")

    def specialization(self, types):
        spec = self._kernels.get(types)
        if spec is None:
            function = self.lower_for(types)
            if function.return_type != T.NONE or function.returns_argument is not None:
                raise TypingError(f"[cuda.jit] {self.__name__}(): a kernel returns nothing, "
                                  f"but it returns a {function.return_type}")
            shared = sum(_static_shared_bytes(f.body) for f in function.callees + [function])
            if shared > STATIC_SHARED_LIMIT:
                raise TypingError(f"[cuda.jit] {self.__name__}() declares {shared} bytes of static "
                                  f"shared memory; a block has {STATIC_SHARED_LIMIT} (48 KiB): "
                                  "use dynamic shared memory (cuda.shared.array(0, dtype) and "
                                  "the launch's 4th item) for more")
            spec = self._kernels[types] = KernelSpecialization(
                function, bool(self.options.get("fastmath", False)), self.options.get("link", ()))
        return spec

    @property
    def signatures(self):
        return list(self._kernels)

    @property
    def overloads(self):
        """The compiled kernels, by argument types (Numba's `overloads`)."""
        return dict(self._kernels)

    def max_cooperative_grid_blocks(self, blockdim, dynsmemsize=0):
        """The most blocks of `blockdim` a cooperative launch may have, for the kernel
        compiled last (KernelSpecialization.max_cooperative_grid_blocks for another)."""
        if not self._kernels:
            raise RuntimeError(f"[cuda.jit] {self.__name__}() has not been compiled yet: launch "
                               "it or compile it with an eager signature first")
        return list(self._kernels.values())[-1].max_cooperative_grid_blocks(blockdim, dynsmemsize)

    def inspect_cuda(self, *args):
        """The CUDA C++ generated for the types of `args`."""
        return self.specialization(self._arguments(args, None, [])[0]).source

    def inspect_ir(self, *args):
        """The typed IR for the types of `args`, as text."""
        return self.specialization(self._arguments(args, None, [])[0]).text

    # --- launching --------------------------------------------------------------------------

    def __getitem__(self, config):
        if self.device:
            raise TypeError(f"[cuda.jit] {self.__name__}() is a device function: call it from a "
                            "kernel, it cannot be launched")
        if not isinstance(config, tuple) or not 2 <= len(config) <= 4:
            raise ValueError("a kernel's launch configuration is [griddim, blockdim], "
                             "[griddim, blockdim, stream] or [griddim, blockdim, stream, "
                             f"dynamic_shared_bytes], got {config!r}")
        return _Launch(self, *config)

    def __call__(self, *args, **kwargs):
        if self.device:
            raise TypeError(f"[cuda.jit] {self.__name__}() is a device function: it can only be "
                            "called from a kernel or another device function")
        raise ValueError(MISSING_LAUNCH_CONFIG)

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """A launch over `ntasks` threads in blocks of `tpb` (Numba's default: 128 here)."""
        tpb = int(tpb) or 128
        return _Launch(self, max(1, -(-int(ntasks) // tpb)), tpb, stream, sharedmem)

    def _arguments(self, args, device, copies):
        """The argument types, and what the launch passes for each number or array, a
        tuple's depth first (a tessera array on `device`, or bytes); host arrays copied to
        the device are noted in `copies`."""
        types, values = [], []
        for i, a in enumerate(args):
            types.append(self._argument(a, i, device, copies, values))
        return tuple(types), values

    def _argument(self, a, i, device, copies, values):
        from .. import asarray  # noqa: PLC0415 (tessera imports this package)
        if type(a) is tuple:  # noqa: E721 (a namedtuple is not a plain tuple)
            return T.TupleType(tuple(self._argument(item, i, device, copies, values)
                                     for item in a))
        interface = None if isinstance(a, _core.ndarray) else getattr(
            a, "__cuda_array_interface__", None)
        if interface is not None:
            t = _interface_type(interface)
            if t is None:
                raise TypingError(f"[cuda.jit] {self.__name__}() argument {i + 1}: arrays of "
                                  f"{interface['typestr']} are not supported")
            values.append(_interface_bytes(interface))
            return t
        t = T.typeof(a)
        if t is None:
            raise TypingError(f"[cuda.jit] {self.__name__}() argument {i + 1}: a "
                              f"{type(a).__name__} is not a number, an array or a tuple of them")
        if isinstance(t, T.ArrayType):
            on_device = isinstance(a, _core.ndarray) and str(a.device) != "cpu"
            if on_device or device is None:
                values.append(a)
                return t
            copy = asarray(a, device=f"cuda:{device}")
            copies.append((a, copy))
            values.append(copy)
        else:
            values.append(np.array(a, dtype=t).tobytes())
        return t

    def launch(self, args, griddim, blockdim, stream=0, sharedmem=0):
        from ..cuda._device import get_device_id  # noqa: PLC0415
        grid, block = launch_dims(griddim, "griddim"), launch_dims(blockdim, "blockdim")
        if not isinstance(sharedmem, numbers.Integral) or sharedmem < 0:
            raise ValueError(f"dynamic shared memory must be a non-negative number of bytes, got "
                             f"{sharedmem!r}")
        stream = None if stream is None or (isinstance(stream, int) and stream == 0) else stream
        device = get_device_id() if stream is None else stream.device_id
        copies = []
        types, values = self._arguments(args, device, copies)
        if self._eager:
            signature = next((s for s in self._eager if len(s) == len(types)
                              and all(map(takes, types, s))), None)
            if signature is None:
                raise TypeError(f"No matching definition for argument type(s) "
                                f"{', '.join(map(str, types))}")
            values = [v if isinstance(s, T.ArrayType) or t == s else np.array(a, dtype=s).tobytes()
                      for a, v, t, s in zip(args, values, types, signature)]
            types = signature
        if copies:
            warnings.warn("Host array used in CUDA kernel will incur copy overhead to/from "
                          "device.", NumbaPerformanceWarning, stacklevel=3)
        spec = self.specialization(types)
        _core._cuda.launch_python(spec.handle(device), device, grid, block, values,
                                  int(sharedmem), None if stream is None else stream._stream,
                                  spec.cooperative)
        for host, copy in copies:  # back to the host arrays, as Numba does
            if host.flags["WRITEABLE"]:
                host[...] = copy.get()


class _Launch:
    """A kernel with its launch configuration: call it with the arguments."""

    def __init__(self, dispatcher, griddim, blockdim, stream=0, sharedmem=0):
        self.dispatcher = dispatcher
        self.griddim, self.blockdim = griddim, blockdim
        self.stream, self.sharedmem = stream, sharedmem

    def __call__(self, *args):
        self.dispatcher.launch(args, self.griddim, self.blockdim, self.stream, self.sharedmem)


# Numba's options of cuda.jit that tessera takes. Compiled kernels are always cached (in
# memory, and on disk by their source); debug, lineinfo, opt, inline and max_registers
# change nothing yet; fastmath compiles with NVRTC's --use_fast_math (on a GPU: the
# simulator computes IEEE arithmetic either way).
OPTIONS = {"fastmath", "cache", "debug", "lineinfo", "opt", "inline", "max_registers",
           "boundscheck", "link"}


def jit(func_or_sig=None, device=False, **options):
    """Numba's `@cuda.jit`: `@cuda.jit`, `@cuda.jit(device=True)`, `@cuda.jit(fastmath=True,
    cache=True, ...)`. Kernels are compiled on first launch for the arguments' types."""
    unknown = set(options) - OPTIONS
    if isinstance(options.get("link"), (str, bytes)):
        options["link"] = [options["link"]]
    if unknown:
        raise TypeError(f"[cuda.jit] unexpected option(s) {', '.join(sorted(unknown))}; "
                        f"allowed: device, {', '.join(sorted(OPTIONS))}")
    if func_or_sig is None:
        return lambda f: CUDADispatcher(f, device=device, **options)
    if isinstance(func_or_sig, (str, list, tuple)) or hasattr(func_or_sig, "return_type"):
        signatures = ([func_or_sig] if isinstance(func_or_sig, str) or hasattr(func_or_sig, "args")
                      else list(func_or_sig))
        return lambda f: CUDADispatcher(f, device=device, signatures=tuple(signatures), **options)
    if not callable(func_or_sig):
        raise TypeError(f"[cuda.jit] takes a function or signatures, not a "
                        f"{type(func_or_sig).__name__}")
    return CUDADispatcher(func_or_sig, device=device, **options)
