"""CuPy's user kernels on every device: ElementwiseKernel and ReductionKernel (CUDA C++
snippets, run by the engine's tessera/user_kernel.h: NVRTC on a GPU, the simulator on a
simulated one, the host compiler on the CPU), and fuse."""

import functools
import operator

import numpy as np

from . import _core
from ._kernels import _options


def _stream_args(stream):
    if stream is None:
        return None, 0
    return stream.device_id, stream.ptr


def _normalized_params(params, api):
    """The declaration with every type named as NumPy names it ("float" -> "float64"), which
    the engine takes; CuPy reads type names with numpy.dtype too."""
    if not isinstance(params, str):
        raise TypeError(f"[{api}] parameters must be a str, got {type(params).__name__}")
    if not params.strip():
        return params
    out = []
    for item in params.split(","):
        words = item.split()
        if len(words) >= 2 and len(words[-2]) > 1:
            try:
                words[-2] = np.dtype(words[-2]).name
            except TypeError as e:
                raise TypeError(f"[{api}] unknown type {words[-2]!r} of the parameter "
                                f"{words[-1]!r}: {e}") from None
        out.append(" ".join(words))
    return ", ".join(out)


class ElementwiseKernel:
    """CuPy's ElementwiseKernel: `operation`, CUDA C++, runs for each element of the
    arguments' broadcast shape, with `i` the element's index and each non-raw parameter
    bound to its element. Runs on the arrays' device: a GPU (NVRTC), the simulator, or the
    CPU (the host compiler), unchanged."""

    def __init__(self, in_params, out_params, operation, name="kernel", reduce_dims=True,
                 preamble="", no_return=False, return_tuple=False, loop_prep="",
                 after_loop="", options=(), **kwargs):
        api = f"ElementwiseKernel {name}"
        if kwargs:
            raise TypeError(f"[{api}] unexpected keyword arguments {sorted(kwargs)}")
        for what, text in (("operation", operation), ("preamble", preamble),
                           ("loop_prep", loop_prep), ("after_loop", after_loop)):
            if not isinstance(text, str):
                raise TypeError(f"[{api}] {what} must be a str, got {type(text).__name__}")
        if not isinstance(name, str):
            raise TypeError(f"[ElementwiseKernel] name must be a str, got {type(name).__name__}")
        self.in_params = in_params
        self.out_params = out_params
        self.operation = operation
        self.name = self.__name__ = name
        self.reduce_dims = bool(reduce_dims)
        self.preamble = preamble
        self.no_return = bool(no_return)
        self.return_tuple = bool(return_tuple)
        self.options = tuple(_options(options, api))
        self._kernel = _core._ElementwiseKernel(
            _normalized_params(in_params, api), _normalized_params(out_params, api), operation,
            name, self.reduce_dims, preamble, loop_prep, after_loop, list(self.options))
        self.nin = self._kernel.nin
        self.nout = self._kernel.nout
        self.nargs = self.nin + self.nout

    def __call__(self, *args, size=None, block_size=128, stream=None, **kwargs):
        """Runs the kernel on `args` (the inputs, or the inputs then the outputs); returns
        the output, a tuple of them (several, or return_tuple), or None (no_return)."""
        if kwargs:
            raise TypeError(f"Wrong arguments {kwargs}")
        if size is not None:
            size = operator.index(size)
        block_size = operator.index(block_size)
        device, handle = _stream_args(stream)
        outs = self._kernel(args, size, block_size, device, handle)
        if len(args) == self.nargs:
            outs = list(args[self.nin:])  # the caller's own objects (NumPy arrays stay NumPy)
        if self.no_return:
            return None
        if self.nout == 1 and not self.return_tuple:
            return outs[0]
        return tuple(outs)

    def source(self, *args, size=None):
        """The CUDA C++ that `args` would run (CuPy keeps it as cached_code)."""
        return self._kernel.source(args, size)

    def __repr__(self):
        return f"<ElementwiseKernel {self.name}>"


class ReductionKernel:
    """CuPy's ReductionKernel: `map_expr` of each input element, combined with
    `reduce_expr` (of `a` and `b`) over the reduced axes, starting from `identity`, then
    `post_map_expr` (of `a`) writes each output element. Any device, as ElementwiseKernel."""

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity,
                 name="reduce_kernel", reduce_type=None, reduce_dims=True, preamble="",
                 options=()):
        api = f"ReductionKernel {name}"
        if not isinstance(name, str):
            raise TypeError(f"[ReductionKernel] name must be a str, got {type(name).__name__}")
        for what, text in (("map_expr", map_expr), ("reduce_expr", reduce_expr),
                           ("post_map_expr", post_map_expr), ("preamble", preamble)):
            if not isinstance(text, str):
                raise TypeError(f"[{api}] {what} must be a str, got {type(text).__name__}")
        if reduce_type is not None and not isinstance(reduce_type, str):
            raise TypeError(f"[{api}] reduce_type must be a C++ type name (a str), got "
                            f"{type(reduce_type).__name__}")
        self.in_params = in_params
        self.out_params = out_params
        self.map_expr = map_expr
        self.reduce_expr = reduce_expr
        self.post_map_expr = post_map_expr
        self.identity = None if identity is None else str(identity)
        self.name = self.__name__ = name
        self.reduce_type = reduce_type
        self.reduce_dims = bool(reduce_dims)
        self.preamble = preamble
        self.options = tuple(_options(options, api))
        self._kernel = _core._ReductionKernel(
            _normalized_params(in_params, api), _normalized_params(out_params, api), map_expr,
            reduce_expr, post_map_expr, self.identity, name, reduce_type, self.reduce_dims,
            preamble, list(self.options))
        self.nin = self._kernel.nin
        self.nout = self._kernel.nout
        self.nargs = self.nin + self.nout

    def __call__(self, *args, out=None, axis=None, keepdims=False, stream=None, **kwargs):
        """Reduces the inputs (then optionally the outputs, or `out=`) over `axis` (an int,
        a tuple, or None for all); returns the first output, as CuPy does."""
        if kwargs:
            raise TypeError(f"Wrong arguments {kwargs}")
        if len(args) not in (self.nin, self.nargs):
            raise TypeError(f"Wrong number of arguments for {self.name}")
        outputs = list(args[self.nin:])
        if out is not None:
            if self.nout != 1:
                raise NotImplementedError(
                    f"[ReductionKernel {self.name}] out= takes one output; pass several "
                    "positionally")
            if outputs:
                raise ValueError("cannot specify 'out' as both a positional and keyword "
                                 "argument")
            outputs = [out]
        if axis is None:
            axes = None
        elif isinstance(axis, (tuple, list)):
            axes = [operator.index(a) for a in axis]
        else:
            axes = [operator.index(axis)]
        device, handle = _stream_args(stream)
        result = self._kernel(args[:self.nin], outputs, axes, bool(keepdims), device, handle)
        return outputs[0] if outputs else result[0]

    def __repr__(self):
        return f"<ReductionKernel {self.name}>"


class Fusion:
    """A function of array operations run as one fused computation (CuPy's fuse). tessera's
    operations on its arrays are lazy and fuse already: the function's elementwise
    operations, and a reduction that ends it, become one pass over memory (one kernel on a
    GPU, cached by the expression's structure, so per input signature). On NumPy arrays or
    numbers the function is called as it is, as cupy.fuse does."""

    def __init__(self, func, name=None):
        self.func = func
        self.name = name or getattr(func, "__name__", "fusion")
        functools.update_wrapper(self, func)

    def __call__(self, *args, **kwargs):
        return self.func(*args, **kwargs)

    def __repr__(self):
        return f"<Fusion {self.name}>"


def fuse(*args, **kwargs):
    """CuPy's fuse: ``@fuse``, ``@fuse()`` or ``@fuse(kernel_name='name')``."""
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return Fusion(args[0])
    unexpected = set(kwargs) - {"kernel_name"}
    if args or unexpected:
        raise TypeError(f"[fuse] takes a function, or kernel_name=; got {args!r} "
                        f"{sorted(unexpected)}")
    return lambda func: Fusion(func, kwargs.get("kernel_name"))
