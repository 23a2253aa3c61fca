"""`tessera.guvectorize`: a Python function over core arrays made a generalized ufunc, as
Numba's `@guvectorize` — `'(n),()->(n)'` names each argument's core dimensions; the
function writes its outputs; a call loops it over the broadcast outer dimensions.

As for vectorize, the loop is Python generated for the call (one flat outer loop over
operands reshaped to (outer, *core)), compiled with the function by the jit compiler: a
jit function (prange for target='parallel'), or a grid-stride cuda.jit kernel (one thread
per outer index) when the operands are on a CUDA device or target='cuda'. Each core
operand reaches the function as a view (x[i]); a `()` core is a number when the signature
says a scalar, a one-element array when it says an array (`intp[:]`), as in Numba.
"""

import re

import numpy as np

from .. import _core
from .cuda_dispatcher import CUDADispatcher
from .dispatcher import Dispatcher
from . import types as T
from .signatures import parse_signature, parse_type
from .vectorize import TARGETS, THREADS, MOST_BLOCKS, _castable, _compiled_from_text

_CORE = re.compile(r"\(([^()]*)\)")


def parse_layout(layout):
    """[[core dims of each input]], [[of each output]] of "(m,n),(n,p)->(m,p)"."""
    if not isinstance(layout, str) or "->" not in layout:
        raise ValueError(f"[guvectorize] a layout looks like '(n),()->(n)', got {layout!r}")
    ins, outs = layout.replace(" ", "").split("->")

    def cores(part):
        found = _CORE.findall(part)
        if "".join(f"({c})" for c in found).replace(",", "") != part.replace(",", ""):
            raise ValueError(f"[guvectorize] cannot read the layout {layout!r}")
        return [[d for d in c.split(",") if d] for c in found]
    return cores(ins), cores(outs)


def parse_arguments(signature, count):
    """[(dtype, is_array)] of a guvectorize signature: "void(float64[:], intp[:], float64[:])",
    "(float64[:], float64, float64[:])", or a tuple of Numba types."""
    if isinstance(signature, tuple):
        types = tuple(parse_type(t, "guvectorize") for t in signature)
    else:
        types, _ = parse_signature(signature, "guvectorize")
    if len(types) != count:
        raise TypeError(f"[guvectorize] the signature {signature!r} has {len(types)} arguments; "
                        f"the layout has {count}")
    return [(t.dtype, True) if isinstance(t, T.ArrayType) else (t, False) for t in types]


class GUVectorizedUFunc:
    """What `@guvectorize` makes of a function: a generalized ufunc."""

    def __init__(self, py_func, signatures, layout, target="cpu"):
        if target not in TARGETS:
            raise ValueError(f"[guvectorize] target must be one of {', '.join(TARGETS)}, got "
                             f"{target!r}")
        self.py_func = py_func
        self.target = target
        self.layout = layout
        self.__name__ = getattr(py_func, "__name__", "gufunc")
        self.__doc__ = getattr(py_func, "__doc__", None)
        self.__wrapped__ = py_func
        self.core_in, self.core_out = parse_layout(layout)
        self.nin, self.nout = len(self.core_in), len(self.core_out)
        if py_func.__code__.co_argcount != self.nin + self.nout:
            raise TypeError(f"[guvectorize] {self.__name__}() takes {py_func.__code__.co_argcount} "
                            f"arguments; the layout {layout!r} has {self.nin + self.nout}")
        self._signatures = [parse_arguments(s, self.nin + self.nout) for s in signatures]
        self._host = Dispatcher(py_func)
        self._device = CUDADispatcher(py_func, device=True)
        self._loops = {}

    @property
    def signature(self):
        return self.layout

    def __repr__(self):
        return f"<tessera.guvectorize {self.__name__} {self.layout}>"

    def _choose(self, values):
        """The signature for the inputs: the first they cast to safely."""
        if not self._signatures:
            return None
        for signature in self._signatures:
            if all(_castable(v, None if np.ndim(v) == 0 and not hasattr(v, "dtype") else v.dtype, t)
                   for v, (t, _) in zip(values, signature)):
                return signature
        given = ", ".join(str(getattr(v, "dtype", type(v).__name__)) for v in values)
        raise TypeError(f"ufunc '{self.__name__}' not supported for the input types ({given}), and "
                        "the inputs could not be safely coerced to any supported types according "
                        "to the casting rule ''safe''")

    def __call__(self, *args, out=None):
        import tessera as tp  # noqa: PLC0415
        if out is not None:
            args = args + (tuple(out) if isinstance(out, tuple) else (out,))
        if len(args) not in (self.nin, self.nin + self.nout):
            raise TypeError(f"{self.__name__}() takes from {self.nin} to {self.nin + self.nout} "
                            f"positional arguments but {len(args)} were given")
        devices = {str(a.device) for a in args if isinstance(a, _core.ndarray)}
        if len(devices) > 1:
            raise ValueError(f"{self.__name__}: operands on different devices ({', '.join(sorted(devices))})")
        device = devices.pop() if devices else None
        on_device = device is not None and device != "cpu" or self.target == "cuda"
        if on_device and device in (None, "cpu"):
            from ..cuda._device import get_device_id  # noqa: PLC0415
            device = f"cuda:{get_device_id()}"
        xp = tp if device is not None else np

        def array(a):
            if isinstance(a, _core.ndarray):
                return a if str(a.device) == device else tp.asarray(a.get(), device=device)
            return tp.asarray(np.asarray(a), device=device) if xp is tp else np.asarray(a)

        inputs = [array(a) for a in args[:self.nin]]
        signature = self._choose(inputs)
        if signature is not None:
            inputs = [a if a.dtype == np.dtype(t) else a.astype(t) for a, (t, _) in zip(inputs, signature)]
        sizes = {}
        loop_shapes = []
        for k, (a, core) in enumerate(zip(inputs, self.core_in)):
            if a.ndim < len(core):
                raise ValueError(f"{self.__name__}: Input operand {k} does not have enough "
                                 f"dimensions (has {a.ndim}, gufunc core with signature "
                                 f"{self.layout} requires {len(core)})")
            for d, name in enumerate(core):
                extent = a.shape[a.ndim - len(core) + d]
                if sizes.setdefault(name, extent) != extent:
                    raise ValueError(f"{self.__name__}: Input operand {k} has a mismatch in its "
                                     f"core dimension {d}, with gufunc signature {self.layout} "
                                     f"(size {extent} is different from {sizes[name]})")
            loop_shapes.append(a.shape[:a.ndim - len(core)])
        outputs = [array(a) for a in args[self.nin:]]
        if not outputs:
            if signature is None:
                raise TypeError(f"{self.__name__}(): without signatures, guvectorize needs its "
                                "outputs passed as arguments")
            for core, (t, _) in zip(self.core_out, signature[self.nin:]):
                missing = [n for n in core if n not in sizes]
                if missing:
                    raise ValueError(f"{self.__name__}: the output's core dimension "
                                     f"{missing[0]!r} is not set by any input")
            loop_shape = np.broadcast_shapes(*loop_shapes)
            outputs = [xp.empty(loop_shape + tuple(sizes[n] for n in core), dtype=t)
                       if xp is np else tp.empty(loop_shape + tuple(sizes[n] for n in core),
                                                  dtype=t, device=device)
                       for core, (t, _) in zip(self.core_out, signature[self.nin:])]
            given = False
        else:
            given = True
            loop_shapes += [o.shape[:o.ndim - len(c)] for o, c in zip(outputs, self.core_out)]
            loop_shape = np.broadcast_shapes(*loop_shapes)
        count = int(np.prod(loop_shape, dtype=np.int64))
        lined = []
        for a, core in zip(inputs, self.core_in):
            core_shape = a.shape[a.ndim - len(core):]
            full = (tp.broadcast_to if xp is tp else np.broadcast_to)(a, loop_shape + core_shape)
            lined.append(full.reshape((count,) + core_shape))
        lined_out, copies = [], []
        for o, core in zip(outputs, self.core_out):
            core_shape = o.shape[o.ndim - len(core):]
            if o.shape[:o.ndim - len(core)] != loop_shape:
                raise ValueError(f"{self.__name__}: output operand has loop shape "
                                 f"{o.shape[:o.ndim - len(core)]}, the inputs broadcast to {loop_shape}")
            if o.flags["C_CONTIGUOUS"]:
                lined_out.append(o.reshape((count,) + core_shape))
            else:
                work = o.copy()
                copies.append((o, work))
                lined_out.append(work.reshape((count,) + core_shape))
        if count:
            kinds = tuple(self._passing(k, signature) for k in range(self.nin + self.nout))
            kind = "cuda" if on_device else ("parallel" if self.target == "parallel" else "cpu")
            loop = self._loop(kind, kinds)
            if kind == "cuda":
                blocks = min((count + THREADS - 1) // THREADS, MOST_BLOCKS)
                with tp.Device(device):
                    loop[blocks, THREADS](*lined, *lined_out, count)
            else:
                loop(*lined, *lined_out, count)
        for o, work in copies:
            o[...] = work
        results = outputs
        if not given and self.target == "cuda" and not any(isinstance(a, _core.ndarray) for a in args):
            results = [r.get() for r in results]
        return results[0] if self.nout == 1 else tuple(results)

    def _passing(self, k, signature):
        """How argument k reaches the function: a view of its core ("core"), or for a `()`
        core, its element ("scalar": an input the signature, if any, types as a number) or a
        one-element array ("array")."""
        if (self.core_in + self.core_out)[k]:
            return "core"
        if k < self.nin and (signature is None or not signature[k][1]):
            return "scalar"
        return "array"

    def _loop(self, kind, kinds):
        key = (kind, kinds)
        loop = self._loops.get(key)
        if loop is None:
            names = [f"x{k}" for k in range(self.nin)] + [f"y{k}" for k in range(self.nout)]
            reads = [f"{n}[i]" if how in ("core", "scalar") else f"{n}[i:i + 1]"
                     for n, how in zip(names, kinds)]
            call = f"f({', '.join(reads)})"
            params = ", ".join(names + ["n"])
            if kind == "cuda":
                from .. import cuda  # noqa: PLC0415
                text = (f"def ts_gufunc_kernel({params}):\n"
                        "    for i in range(cuda.grid(1), n, cuda.gridsize(1)):\n"
                        f"        {call}\n")
                loop = _compiled_from_text(text, "ts_gufunc_kernel",
                                           {"f": self._device, "cuda": cuda}, self.py_func,
                                           CUDADispatcher)
            else:
                loop_range = "prange" if kind == "parallel" else "range"
                text = (f"def ts_gufunc_loop({params}):\n"
                        f"    for i in {loop_range}(n):\n"
                        f"        {call}\n")
                loop = _compiled_from_text(
                    text, "ts_gufunc_loop", {"f": self._host}, self.py_func,
                    lambda fn: Dispatcher(fn, parallel=kind == "parallel", error_model="numpy"))
            self._loops[key] = loop
        return loop


def guvectorize(*args, target="cpu", nopython=True, cache=False, **options):
    """Numba's `@guvectorize`: `@guvectorize(signatures, layout)` with signatures such as
    `['void(float64[:], intp[:], float64[:])']`, or `@guvectorize(layout)` (outputs then
    passed by the caller); `target='cpu'`, `'parallel'` or `'cuda'`."""
    unknown = set(options) - {"fastmath", "forceobj", "boundscheck", "writable_args", "identity"}
    if unknown:
        raise TypeError(f"[guvectorize] unexpected option(s) {', '.join(sorted(unknown))}")
    if len(args) == 1 and isinstance(args[0], str):
        signatures, layout = (), args[0]
    elif len(args) == 2:
        signatures, layout = args
        if isinstance(signatures, str) or hasattr(signatures, "args"):
            signatures = [signatures]
    else:
        raise TypeError("[guvectorize] takes (signatures, layout) or a layout")
    return lambda function: GUVectorizedUFunc(function, tuple(signatures), layout, target)
