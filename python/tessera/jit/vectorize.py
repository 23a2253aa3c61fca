"""`tessera.vectorize`: a scalar Python function made a ufunc, as Numba's `@vectorize`.

The scalar function is compiled by the jit front end (for the host, or as a CUDA device
function); the loop that applies it over broadcast operands is itself Python, generated
for the operands' number of dimensions and compiled the same way — a jit function (with
prange for target='parallel') over CPU arrays, a grid-stride `cuda.jit` kernel over arrays
on a CUDA device. So one compiler does every part, and the loop inlines the function.

Eager signatures (`@vectorize(['float32(float32, float32)', ...])`) are compiled at
decoration and a call takes the first whose inputs the arguments cast to safely (NumPy's
rule); without signatures, a call compiles the function for its arguments' own types
(Numba's dynamic ufunc). The result is computed where the operands live: NumPy arrays give
a NumPy array, tessera arrays a tessera array on their device (target='cuda' moves NumPy
operands to the current CUDA device and the result back, as Numba's CUDA ufuncs do).
"""

import numpy as np

from .. import _core
from . import types as T
from .cuda_dispatcher import CUDADispatcher
from .dispatcher import Dispatcher
from .frontend import FunctionSource, TypingError
from .signatures import parse_scalar_signature, type_char

TARGETS = ("cpu", "parallel", "cuda")
THREADS = 256  # per block of the CUDA loop
MOST_BLOCKS = 65535
MOST_TREE_ARGUMENTS = 8  # a tree node's (backend/cpu/expr_program.h's kMaxStepArgs)


def _python_scalar_type(value):
    """The type a lazy vectorized function compiles for a Python number (Numba's)."""
    return T.literal_type(value) if not isinstance(value, bool) else "bool"


def _castable(value, dtype, t):
    """Whether an argument of `dtype` (None for a Python number `value`) casts safely to
    the loop type `t`; Python numbers are weak, as in NumPy 2 (any type of their kind or a
    wider kind takes them)."""
    if dtype is not None:
        return np.can_cast(dtype, t, "safe")
    kind = np.dtype(t).kind
    if isinstance(value, bool):
        return True
    if isinstance(value, int):
        return kind in "iufc" and (kind != "u" or value >= 0)
    if isinstance(value, float):
        return kind in "fc"
    return kind == "c"


def _compiled_from_text(text, name, globals_, owner, make):
    """A dispatcher (`make(function)`) for the Python function defined by `text`."""
    namespace = dict(globals_)
    exec(compile(text, f"<tessera {name}>", "exec"), namespace)  # noqa: S102 (our own text)
    function = namespace[name]
    function.__module__ = getattr(owner, "__module__", "")
    function.__qualname__ = f"{getattr(owner, '__qualname__', 'vectorized')}.<{name}>"
    dispatcher = make(function)
    dispatcher._source = FunctionSource.from_text(text, globals_, f"<tessera {name}>")
    return dispatcher


def _indexing(ndim, array_name, indices):
    return f"{array_name}[{', '.join(indices)}]" if ndim else f"{array_name}[()]"


class VectorizedUFunc:
    """What `@vectorize` makes of a scalar function: a ufunc (broadcasting, `out=`,
    `dtype=`, `reduce`, `outer`) on NumPy arrays, tessera arrays on any device, and
    numbers."""

    def __init__(self, py_func, signatures=(), target="cpu", identity=None):
        if target not in TARGETS:
            raise ValueError(f"[vectorize] target must be one of {', '.join(TARGETS)}, got "
                             f"{target!r}")
        self.py_func = py_func
        self.target = target
        self.identity = identity
        self.__name__ = getattr(py_func, "__name__", "vectorized")
        self.__doc__ = getattr(py_func, "__doc__", None)
        self.__wrapped__ = py_func
        self._host = Dispatcher(py_func)
        self._device = CUDADispatcher(py_func, device=True)
        self.nin = py_func.__code__.co_argcount
        self._loops = {}
        self._signatures = []
        self._eager = bool(signatures)
        for signature in signatures:
            ins, out = parse_scalar_signature(signature, "vectorize")
            if len(ins) != self.nin:
                raise TypeError(f"[vectorize] the signature {signature!r} has {len(ins)} inputs; "
                                f"{self.__name__}() takes {self.nin}")
            self._scalar_type(ins)  # compiled now: a signature that does not type fails here
            self._signatures.append((ins, out))

    nout = 1

    @property
    def nargs(self):
        return self.nin + 1

    @property
    def types(self):
        """The loops, as NumPy lists them ("ff->f")."""
        return ["".join(type_char(t) for t in ins) + "->" + type_char(out)
                for ins, out in self._signatures]

    @property
    def ntypes(self):
        return len(self._signatures)

    def __repr__(self):
        return f"<tessera.vectorize {self.__name__}>"

    # --- types --------------------------------------------------------------------------------

    def _scalar_type(self, ins):
        """The scalar function's result type for inputs `ins` (compiling its typing)."""
        dispatcher = self._device if self.target == "cuda" else self._host
        function = dispatcher.lower_for(tuple(ins), "cuda" if self.target == "cuda" else "cpu")
        if not T.is_scalar(function.return_type):
            raise TypingError(f"[vectorize] {self.__name__}() must return a number, it returns "
                              f"{function.return_type}")
        return function.return_type

    def _loop_types(self, args, dtype):
        """(input types, output type) of the loop for `args` (an array's dtype, a number)."""
        dtypes = [None if isinstance(a, (bool, int, float, complex)) and not isinstance(a, np.generic)
                  else np.dtype(a.dtype) for a in args]
        for ins, out in self._signatures:
            if dtype is not None and np.dtype(out) != np.dtype(dtype):
                continue
            if all(_castable(a, d, t) for a, d, t in zip(args, dtypes, ins)):
                return ins, out
        if not self._eager:
            # As Numba's dynamic ufunc: the loops compiled so far serve when the arguments
            # cast to one safely; else a loop for the arguments' own types joins them.
            ins = tuple(_python_scalar_type(a) if d is None else d.name
                        for a, d in zip(args, dtypes))
            for t in ins:
                if t not in T.SCALARS:
                    raise TypeError(f"ufunc '{self.__name__}' does not take arrays of {t}")
            out = self._scalar_type(ins)
            self._signatures.append((ins, out))
            return ins, out
        given = ", ".join(str(d) if d is not None else type(a).__name__ for a, d in zip(args, dtypes))
        raise TypeError(f"ufunc '{self.__name__}' not supported for the input types ({given}), and "
                        "the inputs could not be safely coerced to any supported types according "
                        "to the casting rule ''safe''")

    # --- calls ------------------------------------------------------------------------------

    def __call__(self, *args, out=None, dtype=None):
        if len(args) == self.nin + 1 and out is None:
            *args, out = args
        if len(args) != self.nin:
            raise TypeError(f"{self.__name__}() takes from {self.nin} to {self.nin + 1} "
                            f"positional arguments but {len(args)} were given")
        if isinstance(out, tuple):
            if len(out) != 1:
                raise ValueError(f"{self.__name__}: out must have one array, got {len(out)}")
            out = out[0]
        values = [a if isinstance(a, (_core.ndarray, np.generic, bool, int, float, complex))
                  else np.asarray(a) for a in args]
        ins, result_type = self._loop_types(values, dtype)
        result_type = np.dtype(dtype) if dtype is not None else np.dtype(result_type)
        devices = {str(a.device) for a in values if isinstance(a, _core.ndarray)}
        if out is not None and isinstance(out, _core.ndarray):
            devices.add(str(out.device))
        if len(devices) > 1:
            raise ValueError(f"{self.__name__}: operands on different devices ({', '.join(sorted(devices))})")
        device = devices.pop() if devices else None
        if out is None and self._joins_tree(device, ins):
            result = _core._apply_user_function(self._user_function(ins, result_type, device),
                                                *values)
            return result if result.dtype == result_type else result.astype(result_type)
        if device is not None and device != "cpu":
            return self._run_device(values, ins, result_type, out, device, to_host=False)
        if self.target == "cuda":
            return self._run_device(values, ins, result_type, out, None, to_host=device is None)
        return self._run_host(values, ins, result_type, out, tessera=device is not None)

    # --- as a node of tessera's expression trees -------------------------------------------

    def _joins_tree(self, device, ins):
        """Whether a call on tessera arrays of `device` becomes a node of the lazy expression
        tree, so the ops around it fuse with it: on a CUDA device always, on the CPU unless
        the target asks for CUDA (which moves CPU operands to the GPU)."""
        if device is None or len(ins) > MOST_TREE_ARGUMENTS:
            return False
        return device != "cpu" or self.target != "cuda"

    def _user_function(self, ins, result_type, device):
        """The engine's handle of f for loop types `ins` on `device`'s kind: for the CPU, the
        entry of a loop over 1-d arrays (the evaluator's blocks); for CUDA, the device
        function's IR, which the kernels that call it render."""
        on_cuda = device != "cpu"
        ins = tuple(np.dtype(t).name for t in ins)
        out = self._natural_result(ins, result_type)
        key = ("tree", on_cuda, ins, out)
        user = self._loops.get(key)
        if user is None:
            if on_cuda:
                function = self._device.lower_for(ins, "cuda")
                user = _core._UserFunction(self.__name__, list(ins), out, 0, function.module_text())
            else:
                loop = self._loop("cpu", 1, (False,) * len(ins), ins)
                types = tuple(T.ArrayType(t, 1, "C", False) for t in ins + (out,))
                user = _core._UserFunction(self.__name__, list(ins), out,
                                           loop._compile(types).entry, None)
            self._loops[key] = user
        return user

    def _natural_result(self, ins, result_type):
        """The dtype of the loop's result: the signature's, or f's own for a dynamic loop
        (a dtype= of the call converts after)."""
        for signature_ins, out in self._signatures:
            if tuple(np.dtype(t).name for t in signature_ins) == ins:
                return np.dtype(out).name
        return np.dtype(result_type).name

    # --- evaluated now ------------------------------------------------------------------------

    def _operands(self, xp, values, ins, result_type, out, device):
        """The operands broadcast to one shape (numbers stay numbers), and the output (new
        on `device` when not given)."""
        import tessera as tp  # noqa: PLC0415
        arrays = [v for v in values if isinstance(v, (np.ndarray, _core.ndarray))]
        shape = np.broadcast_shapes(*(a.shape for a in arrays)) if arrays else ()
        if out is None:
            out = (np.empty(shape, dtype=result_type) if xp is np
                   else tp.empty(shape, dtype=result_type, device=device))
            created = True
        else:
            created = False
            if tuple(out.shape) != tuple(shape):
                raise ValueError(f"{self.__name__}: out has shape {tuple(out.shape)}, the "
                                 f"operands broadcast to {tuple(shape)}")
            if not np.can_cast(result_type, out.dtype, "same_kind"):
                raise TypeError(f"Cannot cast ufunc '{self.__name__}' output from "
                                f"{result_type!r} to {out.dtype!r} with casting rule 'same_kind'")
        operands = []
        for v, t in zip(values, ins):
            if isinstance(v, (np.ndarray, _core.ndarray)):
                if tuple(v.shape) != tuple(shape):
                    v = (tp.broadcast_to if isinstance(v, _core.ndarray) else np.broadcast_to)(v, shape)
                operands.append(v)
            else:
                operands.append(np.dtype(t).type(v))
        # Operands and output all C-contiguous of one shape: one flat loop.
        arrays = [o for o in operands if not isinstance(o, np.generic)] + [out]
        if len(shape) > 1 and all(a.flags["C_CONTIGUOUS"] for a in arrays):
            operands = [o if isinstance(o, np.generic) else o.reshape(-1) for o in operands]
            flat_out = out.reshape(-1)
        else:
            flat_out = out
        return operands, flat_out, out, created

    def _loop_text(self, kind, ndim, scalars, ins):
        """The loop over `ndim` dimensions applying f to the operands (a number where
        `scalars` says so), as Python source."""
        names = [f"x{k}" for k in range(self.nin)]
        indices = [f"i{d}" for d in range(ndim)]
        call_args = []
        for k, name in enumerate(names):
            read = name if scalars[k] else _indexing(ndim, name, indices)
            call_args.append(f"np.{np.dtype(ins[k]).type.__name__}({read})")
        store = f"{_indexing(ndim, 'out', indices)} = f({', '.join(call_args)})"
        params = ", ".join(names + ["out"])
        if kind == "cuda":
            lines = [f"def ts_vectorized_kernel({params}, n):",
                     "    start = cuda.grid(1)",
                     "    step = cuda.gridsize(1)",
                     "    for flat in range(start, n, step):",
                     "        rest = flat"]
            for d in range(ndim - 1, 0, -1):
                lines.append(f"        i{d} = rest % out.shape[{d}]")
                lines.append(f"        rest = rest // out.shape[{d}]")
            if ndim:
                lines.append("        i0 = rest")
            lines.append("        " + store)
            return "\n".join(lines) + "\n"
        lines = [f"def ts_vectorized_loop({params}):"]
        for d in range(ndim):
            loop = "prange" if kind == "parallel" and d == 0 else "range"
            lines.append("    " * (d + 1) + f"for i{d} in {loop}(out.shape[{d}]):")
        lines.append("    " * (ndim + 1) + store)
        return "\n".join(lines) + "\n"

    def _loop(self, kind, ndim, scalars, ins):
        key = (kind, ndim, scalars, ins)
        loop = self._loops.get(key)
        if loop is None:
            text = self._loop_text(kind, ndim, scalars, ins)
            if kind == "cuda":
                from .. import cuda  # noqa: PLC0415
                loop = _compiled_from_text(text, "ts_vectorized_kernel",
                                           {"f": self._device, "np": np, "cuda": cuda},
                                           self.py_func, CUDADispatcher)
            else:
                loop = _compiled_from_text(
                    text, "ts_vectorized_loop", {"f": self._host, "np": np}, self.py_func,
                    lambda fn: Dispatcher(fn, parallel=kind == "parallel", error_model="numpy"))
            self._loops[key] = loop
        return loop

    def _run_host(self, values, ins, result_type, out, tessera):
        import tessera as tp  # noqa: PLC0415
        xp = tp if tessera else np
        operands, flat_out, out, created = self._operands(xp, values, ins, result_type, out, "cpu")
        scalars = tuple(isinstance(o, np.generic) for o in operands)
        kind = "parallel" if self.target == "parallel" else "cpu"
        if flat_out.size:
            self._loop(kind, flat_out.ndim, scalars, tuple(ins))(*operands, flat_out)
        if created and all(not isinstance(v, _core.ndarray) and np.ndim(v) == 0 for v in values):
            return out[()]  # numbers in, a number out (NumPy's scalar)
        return out

    def _run_device(self, values, ins, result_type, out, device, to_host):
        import tessera as tp  # noqa: PLC0415
        from ..cuda._device import get_device_id  # noqa: PLC0415
        device = device or f"cuda:{get_device_id()}"
        moved = [tp.asarray(v, device=device) if isinstance(v, np.ndarray) else v for v in values]
        host_out = out if isinstance(out, np.ndarray) else None
        device_out = tp.asarray(out, device=device) if host_out is not None else out
        with tp.Device(device):
            operands, flat_out, result, _ = self._operands(tp, moved, ins, result_type, device_out,
                                                           device)
            n = flat_out.size
            if n:
                scalars = tuple(isinstance(o, np.generic) for o in operands)
                blocks = min((n + THREADS - 1) // THREADS, MOST_BLOCKS)
                kernel = self._loop("cuda", flat_out.ndim, scalars, tuple(ins))
                kernel[blocks, THREADS](*operands, flat_out, n)
        if host_out is not None:
            host_out[...] = result.get()
            return host_out
        if to_host:
            host = result.get()
            return host[()] if host.ndim == 0 else host
        return result

    # --- ufunc methods ----------------------------------------------------------------------

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False):
        """f applied cumulatively along `axis` (None: every axis), as ufunc.reduce."""
        if self.nin != 2:
            raise ValueError(f"reduce only supported for binary functions, {self.__name__}() "
                             f"takes {self.nin}")
        import tessera as tp  # noqa: PLC0415
        device = str(array.device) if isinstance(array, _core.ndarray) else None
        host = array.get() if device is not None else np.asarray(array)
        axes = tuple(range(host.ndim)) if axis is None else (
            (axis,) if isinstance(axis, int) else tuple(axis))
        axes = tuple(sorted(a % host.ndim if host.ndim else a for a in axes))
        if any(not -host.ndim <= a < max(host.ndim, 1) for a in axes) or host.ndim == 0:
            raise np.exceptions.AxisError(f"axis {axis} is out of bounds for array of dimension "
                                          f"{host.ndim}")
        kept = [d for d in range(host.ndim) if d not in axes]
        moved = np.moveaxis(host, axes, range(host.ndim - len(axes), host.ndim))
        rows = int(np.prod([host.shape[d] for d in kept], dtype=np.int64))
        length = int(np.prod([host.shape[d] for d in axes], dtype=np.int64))
        lined = np.ascontiguousarray(moved).reshape(rows, length)
        ins, result_type = self._loop_types([host.dtype.type(0)] * 2, dtype)
        result = np.empty(rows, dtype=np.dtype(dtype) if dtype is not None else result_type)
        if length == 0:
            if self.identity is None or self.identity == "reorderable":
                raise ValueError(f"zero-size array to reduction operation {self.__name__} which "
                                 "has no identity")
            result[...] = self.identity
        elif rows:
            self._reduce_loop(ins)(lined, result)
        shape = tuple(1 if d in axes else host.shape[d] for d in range(host.ndim)) if keepdims \
            else tuple(host.shape[d] for d in kept)
        result = result.reshape(shape)
        if out is not None:
            out[...] = result if not isinstance(out, _core.ndarray) else tp.asarray(result, device=out.device)
            return out
        if device is not None:
            return tp.asarray(result, device=device)
        return result[()] if result.ndim == 0 else result

    def _reduce_loop(self, ins):
        key = ("reduce", ins)
        loop = self._loops.get(key)
        if loop is None:
            cast = f"np.{np.dtype(ins[0]).type.__name__}"
            text = ("def ts_vectorized_reduce(a, out):\n"
                    "    for i in range(a.shape[0]):\n"
                    f"        acc = {cast}(a[i, 0])\n"
                    "        for k in range(1, a.shape[1]):\n"
                    f"            acc = {cast}(f(acc, {cast}(a[i, k])))\n"
                    "        out[i] = acc\n")
            loop = self._loops[key] = _compiled_from_text(
                text, "ts_vectorized_reduce", {"f": self._host, "np": np}, self.py_func,
                lambda fn: Dispatcher(fn, error_model="numpy"))
        return loop

    def outer(self, a, b):
        """f of every pair of elements of `a` and `b` (shape a.shape + b.shape)."""
        if self.nin != 2:
            raise ValueError(f"outer product only supported for binary functions, "
                             f"{self.__name__}() takes {self.nin}")
        a = a if isinstance(a, _core.ndarray) else np.asarray(a)
        b = b if isinstance(b, _core.ndarray) else np.asarray(b)
        return self(a.reshape(a.shape + (1,) * b.ndim), b)


def vectorize(ftylist_or_function=(), target="cpu", identity=None, cache=False, nopython=True,
              **options):
    """Numba's `@vectorize`: `@vectorize` (types from each call's arguments),
    `@vectorize(['float64(float64, float64)', ...])` (compiled now), `target='cpu'`,
    `'parallel'` or `'cuda'`, `identity=` for reductions of empty arrays."""
    if callable(ftylist_or_function):
        return VectorizedUFunc(ftylist_or_function, (), target, identity)
    signatures = ftylist_or_function
    if isinstance(signatures, str) or hasattr(signatures, "return_type"):
        signatures = [signatures]
    unknown = set(options) - {"fastmath", "forceobj", "boundscheck"}
    if unknown:
        raise TypeError(f"[vectorize] unexpected option(s) {', '.join(sorted(unknown))}")
    return lambda function: VectorizedUFunc(function, tuple(signatures), target, identity)
