"""`tessera.jit`: Python functions compiled to native code on their first call for each set
of argument types, as Numba's `@jit` (nopython mode) does.

A call finds the specialization for its arguments' types (dtype, dimensions, layout and
writability of arrays; the types of scalars), compiling it on first use: the front end
(frontend.py) types the function into IR, the engine renders it as C++ and compiles it with
the host compiler (cached on disk by its source, so a later process loads it), and the
arguments go to it packed as 8-byte words.
"""

import zlib

import numpy as np

from .. import _core
from . import types as T
from .frontend import (FunctionSource, Recursion, SelfCall, TypingError, UnknownRecursiveReturn,
                       lower_function)
from .signatures import parse_signature

# What the C++ call path returns when no specialization has the arguments' types.
_MISS = object()

# The specializations being typed, of every function, innermost last: (function, argument
# types and target, its Recursion).
_TYPING = []

# NumPy's scalar types, which the C++ call path types by their Python type.
for _dtype in T.SCALARS:
    _core._jit_register_scalar_type(np.dtype(_dtype).type, _dtype)


class Specialization:
    """One compiled version of a function: its IR (with the functions it calls) and its
    native entry point."""

    def __init__(self, function_ir, python_errors=True, fastmath=False):
        self.ir = function_ir
        self.text = function_ir.module_text()
        self.python_errors = python_errors
        self.fastmath = fastmath
        self.return_type = function_ir.return_type
        self.returns_argument = function_ir.returns_argument
        self.entry = _core._jit_compile_host(self.text, python_errors, fastmath)

    def cpp(self):
        return _core._jit_render_host(self.text, self.python_errors, self.fastmath)


class CompiledFunction:
    """What the compiled forms of a Python function share (jit's and cuda.jit's): its
    source, parsed once, and its typed IR per argument types and target, each named
    uniquely and the same in every process."""

    # Tells apart the names of one function's IR for different compilers.
    _name_salt = ""

    def __init__(self, py_func):
        self.py_func = py_func
        self._source = None
        self._lowered = {}  # (argument types, target) -> ir.Function
        self.__name__ = getattr(py_func, "__name__", "function")
        self.__doc__ = getattr(py_func, "__doc__", None)
        self.__wrapped__ = py_func

    def _ir_name(self, types):
        """The specialization's name in a module: the function's, and a hash of where it
        is defined and of the argument types, the same in every process (so the generated
        source, the disk cache's key, is too)."""
        where = f"{getattr(self.py_func, '__module__', '')}.{getattr(self.py_func, '__qualname__', '')}"
        return f"{self.__name__}_{zlib.crc32(f'{self._name_salt}{where}:{types}'.encode()):08x}"

    def _lower(self, types, target, parallel=False, return_type=None):
        """The typed IR for argument types `types` on `target` ("cpu" or "cuda"), returning
        `return_type` when given (an eager signature's). Where it is already being typed, a
        SelfCall when it calls itself; RecursionError for a call through other functions
        (whose C++ would need declarations ahead of them)."""
        key = (types, target, return_type)
        function = self._lowered.get(key)
        if function is None:
            # Being typed for these arguments (with or without an eager signature's return
            # type, which a call of itself does not name).
            typing = [t for t in _TYPING if t[0] is self and t[1] == key[:2]]
            if typing:
                if typing[0] is not _TYPING[-1]:
                    raise RecursionError(self.__name__)
                recursion = typing[0][2]
                if recursion.guess is None:
                    raise UnknownRecursiveReturn(self.__name__)
                recursion.used = True
                return SelfCall(self._ir_name(types), recursion.guess)
            if self._source is None:
                self._source = FunctionSource(self.py_func)
            recursion = Recursion(self)
            _TYPING.append((self, key[:2], recursion))
            try:
                function = lower_function(self._source, list(types), self._ir_name(types),
                                          parallel, target, return_type, recursion)
            finally:
                _TYPING.pop()
            self._lowered[key] = function
        return function


class Dispatcher(CompiledFunction, _core._JitHostDispatcher):
    """What `@jit` makes of a function: call it like the function. A call is C++ (the base
    class): the arguments' type key, the specialization's lookup, the packing of the
    arguments and the conversion of the result; only a call with new types comes to
    `_miss`, which compiles."""

    def __init__(self, py_func, signatures=(), **options):
        CompiledFunction.__init__(self, py_func)
        _core._JitHostDispatcher.__init__(self)
        error_model = options.get("error_model", "python")
        if error_model not in ("python", "numpy"):
            raise ValueError(f"[jit] error_model must be 'python' or 'numpy', got {error_model!r}")
        self.options = options
        self._specializations = {}
        # Eager signatures, compiled now: (argument types, Specialization), in their order.
        # A call then takes the first its arguments convert to, and compiles nothing new.
        self._eager = []
        for signature in signatures:
            types, return_type = parse_signature(signature, "jit")
            self._eager.append((types, self._compile(types, return_type)))

    @property
    def signatures(self):
        return list(self._specializations)

    def _types_of(self, args):
        types = []
        for i, a in enumerate(args):
            for leaf in _leaf_values(a):
                device = leaf.device if isinstance(leaf, _core.ndarray) else None
                if device is not None and str(device) != "cpu":
                    raise TypingError(f"[jit] {self.__name__}() argument {i + 1} is or holds an "
                                      f"array on {device}: jit functions run on the CPU (copy "
                                      "it with .get(), or write a cuda.jit kernel)")
                if T.typeof(leaf) is None:
                    held = "" if leaf is a else f" holding a {type(leaf).__name__}"
                    raise TypingError(f"[jit] {self.__name__}() argument {i + 1}: a "
                                      f"{type(a).__name__}{held} is not a number, an array or "
                                      "a tuple of them")
            types.append(T.typeof(a))
        return tuple(types)

    def lower_for(self, types, target="cpu"):
        """The typed IR of the specialization for argument types `types`, for `target`
        ("cpu", or "cuda" when a CUDA kernel calls it; prange runs in parallel on the CPU
        only)."""
        return self._lower(types, target, bool(self.options.get("parallel")) and target == "cpu")

    def _compile(self, types, return_type=None):
        spec = self._specializations.get(types)
        if spec is None:
            parallel = bool(self.options.get("parallel"))
            spec = Specialization(self._lower(types, "cpu", parallel, return_type),
                                  self.options.get("error_model", "python") == "python",
                                  bool(self.options.get("fastmath")))
            self._specializations[types] = spec
        return spec

    def specialization(self, *args):
        types = self._types_of(args)
        if self._eager:
            for signature, spec in self._eager:
                if _converted(args, types, signature) is not None:
                    return spec, signature
            raise TypeError(f"No matching definition for argument type(s) "
                            f"{', '.join(map(str, types))}")
        return self._compile(types), types

    def _miss(self, *args):
        # A first call with these types: type and compile (or raise TypingError), then
        # register the entry under the C++ path's key of the arguments.
        spec, signature = self.specialization(*args)
        if self._eager:  # numbers converted to the signature's types, which the key then has
            args = _converted(args, self._types_of(args), signature)
            result = self.call(args, _MISS)
            if result is not _MISS:
                return result
        key = self.key(*args)
        if key is None:
            raise TypingError(f"[jit] {self.__name__}(): the arguments' types are not supported")
        result = spec.return_type
        if isinstance(result, T.TupleType):
            result = "tuple:" + ",".join(map(_result_code, result.items))
        else:
            result = _result_code(result)
        self.add(key, spec.entry, result,
                 -1 if spec.returns_argument is None else spec.returns_argument,
                 bool(self.options.get("nogil")))
        return self.call(args, _MISS)

    def inspect_cpp(self, *args):
        """The C++ generated for the types of `args`."""
        return self.specialization(*args)[0].cpp()

    def inspect_ir(self, *args):
        """The typed IR of the specialization for the types of `args`, as text."""
        return self.specialization(*args)[0].text


def _leaf_values(value):
    """The numbers and arrays of an argument, depth first through plain tuples."""
    if type(value) is tuple:  # noqa: E721 (as types.typeof: a namedtuple is not one)
        for item in value:
            yield from _leaf_values(item)
    else:
        yield value


def _result_code(t):
    """How the C++ call path reads a result of type `t` (python/src/jit.cpp): a dtype name,
    array:<dtype>:<ndim>, or a tuple's items in parentheses."""
    if isinstance(t, T.TupleType):
        return "(" + ",".join(map(_result_code, t.items)) + ")"
    if isinstance(t, T.ArrayType):
        return f"array:{t.dtype}:{t.ndim}"
    return str(t)


def takes(t, s):
    """Whether a parameter of an eager signature's type `s` takes an argument of type `t`:
    a number that casts to it safely, an array of its dtype and dimensions in a layout it
    takes (any, for `float64[:]`), writable when it is."""
    if isinstance(s, T.ArrayType):
        return (isinstance(t, T.ArrayType) and t.dtype == s.dtype and t.ndim == s.ndim
                and s.layout in ("A", t.layout) and (s.readonly or not t.readonly))
    return not isinstance(t, (T.ArrayType, T.TupleType)) and bool(np.can_cast(t, s, "safe"))


def _converted(args, types, signature):
    """`args` as a call of an eager signature's specialization takes them (numbers cast to
    its types), or None when it does not take them."""
    if len(types) != len(signature) or not all(map(takes, types, signature)):
        return None
    return tuple(a if isinstance(s, T.ArrayType) or t == s else np.dtype(s).type(a)
                 for a, t, s in zip(args, types, signature))


def jit(function=None, **options):
    """Numba's `@jit` / `@njit` (nopython mode): `@jit`, `@jit()`, `@jit(cache=True, ...)`,
    and with eager signatures, `@jit("float64(float64[:])")` or a list of them."""
    if function is None:
        return lambda f: Dispatcher(f, **options)
    if isinstance(function, (str, list, tuple)) or hasattr(function, "return_type"):
        signatures = [function] if isinstance(function, str) or hasattr(function, "args") else function
        return lambda f: Dispatcher(f, tuple(signatures), **options)
    return Dispatcher(function, **options)


njit = jit
