"""`tessera.stencil`: a kernel written with relative indices (`a[-1, 0]` is the element above
the current one) applied at every point of its input where the whole neighborhood fits, as
Numba's `@stencil`; points nearer the border get `cval` (0 by default).

The kernel is rewritten, not interpreted: each relative subscript of a stencil input
`a[e0, e1]` becomes `a[ts_i0 + e0, ts_i1 + e1]`, the current point's indices added as
parameters; the loop over the interior calling it is generated Python; both compile with
the jit compiler into one function. On tessera arrays of a CUDA device (which Numba's
stencils do not take) the kernel becomes a device function and the loop a grid-stride
`cuda.jit` kernel over the interior's points, compiled by the same compiler.
"""

import ast
import copy
import inspect
import textwrap

import numpy as np

from .. import _core
from .cuda_dispatcher import CUDADispatcher
from .dispatcher import Dispatcher
from .frontend import TypingError
from .vectorize import _compiled_from_text


def _constant(node):
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _constant(node.operand)
        return None if inner is None else -inner
    return None


class _Relative(ast.NodeTransformer):
    """Adds the current point's indices to the subscripts of the stencil inputs, and
    records the constant offsets it sees (the neighborhood, when none is given)."""

    def __init__(self, inputs, ndim):
        self.inputs, self.ndim = inputs, ndim
        self.offsets = [[0, 0] for _ in range(ndim)]
        self.constant = True

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if not (isinstance(node.value, ast.Name) and node.value.id in self.inputs):
            return node
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if len(items) != self.ndim:
            raise TypingError(f"[stencil] {ast.unparse(node)}: a relative index per dimension "
                              f"({self.ndim}) is needed")
        shifted = []
        for d, item in enumerate(items):
            value = _constant(item)
            if value is None:
                self.constant = False
            else:
                self.offsets[d][0] = min(self.offsets[d][0], value)
                self.offsets[d][1] = max(self.offsets[d][1], value)
            shifted.append(ast.BinOp(ast.Name(f"ts_i{d}", ast.Load()), ast.Add(), item))
        node.slice = ast.Tuple(shifted, ast.Load()) if len(shifted) > 1 else shifted[0]
        return node


class Stencil:
    """What `@stencil` makes of a kernel: call it with its input arrays (and any other
    arguments), optionally `out=`."""

    def __init__(self, kernel, neighborhood=None, cval=None, standard_indexing=()):
        self.kernel = kernel
        self.neighborhood = None if neighborhood is None else tuple(tuple(int(b) for b in n)
                                                                     for n in neighborhood)
        self.cval = cval
        self.standard_indexing = set(standard_indexing)
        self.__name__ = getattr(kernel, "__name__", "stencil")
        self.__doc__ = getattr(kernel, "__doc__", None)
        self.__wrapped__ = kernel
        try:
            text = textwrap.dedent(inspect.getsource(kernel))
        except (OSError, TypeError):
            raise TypingError(f"[stencil] the source of {kernel!r} cannot be found") from None
        definition = ast.parse(text).body[0]
        if not isinstance(definition, ast.FunctionDef):
            raise TypingError(f"[stencil] {kernel!r} is not a function defined with def")
        definition.decorator_list = []
        self._definition = definition
        self.params = [a.arg for a in definition.args.args]
        unknown = self.standard_indexing - set(self.params)
        if unknown:
            raise ValueError(f"[stencil] standard_indexing names {', '.join(sorted(unknown))}, "
                             f"which {self.__name__}() does not take")
        self._compiled = {}

    def _rewritten(self, ndim, array_params):
        """The kernel's source with the current point's indices added, and its
        neighborhood [(low, high)] per dimension."""
        definition = copy.deepcopy(self._definition)
        relative = _Relative(array_params, ndim)
        definition = relative.visit(definition)
        definition.args.args += [ast.arg(f"ts_i{d}") for d in range(ndim)]
        definition.name = "ts_stencil_kernel"
        if self.neighborhood is not None:
            if len(self.neighborhood) != ndim:
                raise ValueError(f"[stencil] neighborhood has {len(self.neighborhood)} dimensions, "
                                 f"the input {ndim}")
            bounds = [list(n) for n in self.neighborhood]
        elif not relative.constant:
            raise TypingError(f"[stencil] {self.__name__}() indexes its input with a variable: "
                              "give neighborhood= (Numba's rule)")
        else:
            bounds = relative.offsets
        return ast.unparse(ast.fix_missing_locations(definition)) + "\n", bounds

    def _loop(self, ndim, array_params, kinds):
        key = (ndim, array_params, kinds)
        loop = self._compiled.get(key)
        if loop is None:
            kernel_text, bounds = self._rewritten(ndim, array_params)
            globals_ = dict(self.kernel.__globals__)
            kernel = _compiled_from_text(kernel_text, "ts_stencil_kernel", globals_, self.kernel,
                                         Dispatcher)
            args = ", ".join(self.params + [f"i{d}" for d in range(ndim)])
            first = self.params.index(array_params[0])
            lines = [f"def ts_stencil_loop({', '.join(self.params)}, ts_out):"]
            for d in range(ndim):
                low, high = bounds[d]
                lines.append("    " * (d + 1) + f"for i{d} in range({-min(low, 0)}, "
                             f"{self.params[first]}.shape[{d}] - {max(high, 0)}):")
            lines.append("    " * (ndim + 1) + f"ts_out[{', '.join(f'i{d}' for d in range(ndim))}] = "
                         f"kernel({args})")
            loop = _compiled_from_text("\n".join(lines) + "\n", "ts_stencil_loop",
                                       {"kernel": kernel}, self.kernel, Dispatcher)
            self._compiled[key] = (loop, kernel, bounds)
        return self._compiled[key]

    def _cuda_loop(self, ndim, array_params, kinds):
        """The kernel as a CUDA device function, and a grid-stride kernel that applies it at
        each of the interior's n points (the last index fastest): (kernel, device function,
        neighborhood)."""
        key = ("cuda", ndim, array_params, kinds)
        compiled = self._compiled.get(key)
        if compiled is None:
            from .. import cuda  # noqa: PLC0415
            kernel_text, bounds = self._rewritten(ndim, array_params)
            device = _compiled_from_text(kernel_text, "ts_stencil_kernel",
                                         dict(self.kernel.__globals__), self.kernel,
                                         lambda fn: CUDADispatcher(fn, device=True))
            first = self.params[self.params.index(array_params[0])]
            lines = [f"def ts_stencil_cuda({', '.join(self.params)}, ts_out, ts_n):",
                     "    for ts_flat in range(cuda.grid(1), ts_n, cuda.gridsize(1)):",
                     "        ts_rest = ts_flat"]
            for d in range(ndim - 1, -1, -1):
                low, high = -min(bounds[d][0], 0), max(bounds[d][1], 0)
                extent = f"({first}.shape[{d}] - {low + high})"
                lines.append(f"        i{d} = ts_rest % {extent} + {low}")
                if d:
                    lines.append(f"        ts_rest = ts_rest // {extent}")
            indices = ", ".join(f"i{d}" for d in range(ndim))
            lines.append(f"        ts_out[{indices}] = kernel({', '.join(self.params)}, {indices})")
            loop = _compiled_from_text("\n".join(lines) + "\n", "ts_stencil_cuda",
                                       {"kernel": device, "cuda": cuda}, self.kernel,
                                       CUDADispatcher)
            compiled = self._compiled[key] = (loop, device, bounds)
        return compiled

    def _run_cuda(self, args, arrays, shape, out, device):
        """The stencil over tessera arrays of the CUDA device `device`."""
        import tessera as tp  # noqa: PLC0415
        from . import types as T  # noqa: PLC0415
        for a in args:
            if isinstance(a, np.ndarray) and a.ndim > 0:
                raise ValueError(f"[stencil] {self.__name__}(): a NumPy array beside arrays on "
                                 f"{device}; move it there with tessera.asarray(a, device=...)")
        array_params = tuple(self.params[k] for k in arrays)
        kinds = tuple(type(a).__name__ for a in args)
        loop, kernel, bounds = self._cuda_loop(len(shape), array_params, kinds)
        types = tuple(T.typeof(a) for a in args) + ("int64",) * len(shape)
        function = kernel.lower_for(types, "cuda")
        if not T.is_scalar(function.return_type):
            raise TypingError(f"[stencil] {self.__name__}() must return a number, it returns "
                              f"{function.return_type}")
        cval = 0 if self.cval is None else self.cval
        if out is None:
            out = tp.full(shape, cval, dtype=np.dtype(function.return_type), device=device)
        interior = [n - (-min(low, 0)) - max(high, 0) for n, (low, high) in zip(shape, bounds)]
        points = int(np.prod(interior)) if all(n > 0 for n in interior) else 0
        if points:
            threads = 256
            blocks = min((points + threads - 1) // threads, 65535)
            with tp.Device(device):
                loop[blocks, threads](*args, out, points)
        return out

    def __call__(self, *args, out=None):
        import tessera as tp  # noqa: PLC0415
        if len(args) != len(self.params):
            raise TypeError(f"{self.__name__}() takes {len(self.params)} arguments, {len(args)} "
                            "given")
        arrays = [k for k, (p, a) in enumerate(zip(self.params, args))
                  if p not in self.standard_indexing and np.ndim(a) > 0]
        if not arrays:
            raise ValueError(f"[stencil] {self.__name__}() needs an input array")
        shape = np.shape(args[arrays[0]])
        for k in arrays[1:]:
            if np.shape(args[k]) != shape:
                raise ValueError(f"[stencil] the input arrays have shapes {shape} and "
                                 f"{np.shape(args[k])}; they must be the same")
        devices = {str(a.device) for a in list(args) + [out] if isinstance(a, _core.ndarray)}
        if len(devices) > 1:
            raise ValueError(f"[stencil] {self.__name__}(): arrays on different devices "
                             f"({', '.join(sorted(devices))})")
        if devices and devices != {"cpu"}:
            if out is not None and tuple(out.shape) != tuple(shape):
                raise ValueError(f"[stencil] out has shape {tuple(out.shape)}, the input {shape}")
            return self._run_cuda(args, arrays, shape, out, devices.pop())
        array_params = tuple(self.params[k] for k in arrays)
        kinds = tuple(type(a).__name__ for a in args)
        loop, kernel, _ = self._loop(len(shape), array_params, kinds)
        call_args = list(args)
        if out is None:
            result_type = self._result_type(kernel, call_args, len(shape))
            xp = tp if isinstance(args[arrays[0]], _core.ndarray) else np
            cval = 0 if self.cval is None else self.cval
            out = (np.full(shape, cval, dtype=result_type) if xp is np
                   else tp.full(shape, cval, dtype=result_type, device="cpu"))
        elif tuple(out.shape) != tuple(shape):
            raise ValueError(f"[stencil] out has shape {tuple(out.shape)}, the input {shape}")
        if all(n > 0 for n in shape):
            loop(*call_args, out)
        return out

    def _result_type(self, kernel, args, ndim):
        from . import types as T  # noqa: PLC0415
        types = []
        for a in args:
            t = T.typeof(a)
            if t is None:
                raise TypingError(f"[stencil] a {type(a).__name__} argument is not supported")
            types.append(t)
        function = kernel.lower_for(tuple(types) + ("int64",) * ndim)
        if not T.is_scalar(function.return_type):
            raise TypingError(f"[stencil] {self.__name__}() must return a number, it returns "
                              f"{function.return_type}")
        return np.dtype(function.return_type)


def stencil(func_or_mode="constant", **options):
    """Numba's `@stencil` and `@stencil(neighborhood=..., cval=..., standard_indexing=...)`."""
    unknown = set(options) - {"neighborhood", "cval", "standard_indexing", "func_or_mode"}
    if unknown:
        raise TypeError(f"[stencil] unexpected option(s) {', '.join(sorted(unknown))}")
    if callable(func_or_mode):
        return Stencil(func_or_mode, **options)
    if func_or_mode != "constant":
        raise ValueError(f"[stencil] the only mode is 'constant', got {func_or_mode!r}")
    return lambda kernel: Stencil(kernel, **options)
