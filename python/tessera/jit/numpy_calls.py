"""NumPy's creation functions that need values (np.arange, np.linspace, np.full,
np.full_like), the functions of several arrays and numbers (np.where, np.dot, np.outer,
np.clip), the joins of a tuple of arrays (np.concatenate, np.stack, np.vstack, np.hstack,
np.column_stack, np.dstack), and the random numbers of Python's `random` module and
NumPy's legacy np.random inside jit functions, as Numba computes them: the same values and
types, and with the same seed the same random numbers (the draws are python_runtime.h's,
Numba's algorithms). Each lowers to the typed IR: a scalar expression, or a new array
filled by a loop (ArrayLowering.filled)."""

import ast

import numpy as np

from . import ir
from . import types as T
from .array_exprs import is_array
from . import array_functions
from .linalg_calls import LinalgCalls

# The functions of Python's random module and of np.random that jit functions take.
RANDOM_FUNCTIONS = ("seed", "random", "uniform", "gauss", "normalvariate", "randint",
                    "randrange")
NP_RANDOM_FUNCTIONS = ("seed", "random", "random_sample", "sample", "ranf", "rand", "randn",
                       "standard_normal", "normal", "uniform", "randint")
CREATORS = ("arange", "linspace", "full", "full_like")
# np functions of arrays and numbers handled here, by their count of arguments.
ARRAY_FUNCTIONS = {"where": 3, "dot": 2, "outer": 2, "clip": 3}
# np functions joining a tuple of arrays.
JOINS = ("concatenate", "stack", "vstack", "hstack", "column_stack", "dstack")

_PY, _NP = 0, 1  # the runtime's random states: Python's random module's, np.random's


def _state(which):
    return ir.Const(which, "int64")


# The axis vstack, column_stack and dstack join along.
_JOIN_AXES = {"vstack": 0, "column_stack": 1, "dstack": 2}
# How they first make a 1-d or 2-d array 2-d or 3-d (np.atleast_2d, a column, np.atleast_3d).
_GROWN = {("vstack", 1): [("one",), ("dim", 0)],
          ("column_stack", 1): [("dim", 0), ("one",)],
          ("dstack", 1): [("one",), ("dim", 0), ("one",)],
          ("dstack", 2): [("dim", 0), ("dim", 1), ("one",)]}


def _places(name, ndim, axis):
    """Where an array of `ndim` dimensions lies in the result of np.<name>: per dimension of
    the result, the array's own dimension k ("dim", k), or an extent of one it has not
    ("one",) (stack's new axis, the dimensions vstack, column_stack and dstack add)."""
    own = [("dim", k) for k in range(ndim)]
    if name == "stack":
        return own[:axis] + [("one",)] + own[axis:]
    return _GROWN.get((name, ndim), own)


class NumpyCalls:
    def __init__(self, lowering):
        self.lo = lowering
        self.linalg = LinalgCalls(lowering)
        self.functions = array_functions.ArrayFunctions(lowering)

    def dispatch(self, node):
        """The call's IR when it is one of this module's functions, else None."""
        lo, func = self.lo, node.func
        if not isinstance(func, ast.Attribute):
            return None
        owner = func.value
        if lo.names_module(owner) and lo.globals[owner.id].__name__ == "random" \
                and func.attr in RANDOM_FUNCTIONS:
            self.host_only(node, f"random.{func.attr}")
            return self.drawn(self.random_module(node, func.attr))
        if isinstance(owner, ast.Attribute) and owner.attr == "random" \
                and lo.names_module(owner.value, np) and func.attr in NP_RANDOM_FUNCTIONS:
            self.host_only(node, f"np.random.{func.attr}")
            return self.drawn(self.np_random(node, func.attr))
        if (isinstance(owner, ast.Attribute) and owner.attr == "linalg"
                and lo.names_module(owner.value, np)) or lo.names_module(owner, np.linalg):
            return self.linalg.call(node, func.attr)
        if lo.names_module(owner, np) and func.attr in CREATORS:
            return self.create(node, func.attr)
        if lo.names_module(owner, np) and func.attr == "where" and len(node.args) == 1:
            return self.functions.call(node, "where")
        if lo.names_module(owner, np) and func.attr in ARRAY_FUNCTIONS:
            return self.array_function(node, func.attr)
        if lo.names_module(owner, np) and func.attr in array_functions.FUNCTIONS:
            return self.functions.call(node, func.attr)
        if lo.names_module(owner, np) and func.attr in JOINS:
            return self.joined(node, func.attr)
        return None

    def joined(self, node, name):
        """np.concatenate((a, b, ...), axis=0), np.stack(arrays, axis=0), np.vstack,
        np.hstack, np.column_stack and np.dstack of a tuple of arrays written in the call: a
        new array of the arrays one after another along one axis, in their promoted dtype
        (NumPy's rules for each: stack adds an axis, vstack/column_stack/dstack first make
        1-d and 2-d arrays 2-d or 3-d); ValueError where the other extents differ."""
        lo = self.lo
        what = f"np.{name}"
        a = self.arguments(node, what, ("arrays", "axis") if name in ("concatenate", "stack")
                           else ("arrays",), 1)
        if not isinstance(a["arrays"], (ast.Tuple, ast.List)) or not a["arrays"].elts:
            raise lo.error(node, f"{what} takes a tuple of arrays written in the call here: "
                                 f"{what}((a, b))")
        arrays = [lo.arrays.array_value(node, lo.operand(e)) for e in a["arrays"].elts]
        if any(not isinstance(x.type, T.ArrayType) or x.type.ndim == 0 for x in arrays):
            raise lo.error(node, f"{what} takes arrays of at least one dimension")
        ndims = [x.type.ndim for x in arrays]
        axis = 0 if a.get("axis") is None else lo.constant_int(a["axis"])
        if name in ("concatenate", "stack"):
            out_ndim = ndims[0] + (name == "stack")
            if axis is None or not -out_ndim <= axis < out_ndim:
                raise lo.error(node, f"{what}'s axis must be a constant integer in "
                                     f"[-{out_ndim}, {out_ndim})")
            axis %= out_ndim
        else:
            axis = _JOIN_AXES[name] if name != "hstack" else 0 if ndims[0] == 1 else 1
        places = [_places(name, nd, axis) for nd in ndims]
        out_ndim = len(places[0])
        if any(len(p) != out_ndim for p in places):
            raise lo.error(node, f"{what} takes arrays of one number of dimensions here")

        def extent(x, place):
            return ir.Shape(x, place[1]) if place[0] == "dim" else ir.Const(1, "int64")

        mismatch = 19 if name == "stack" else 18
        first = arrays[0]
        for x, place in zip(arrays[1:], places[1:]):
            for j in range(out_ndim):
                if j != axis or name == "stack":
                    differs = ir.Compare("ne", extent(x, place[j]), extent(first, places[0][j]))
                    lo.prelude.append(ir.If(differs, [ir.Raise(mismatch)], []))
        dtype = first.type.dtype
        for x in arrays[1:]:
            dtype = T.promote(dtype, x.type.dtype)
        total = ir.Const(0, "int64")
        for x, place in zip(arrays, places):
            total = ir.Binary("add", total, extent(x, place[axis]), "int64")
        dims = [total if j == axis else extent(first, places[0][j]) for j in range(out_ndim)]
        result = lo.arrays.new(node, dims, dtype)
        at = lo.arrays.bind("at", ir.Const(0, "int64"))
        for x, place in zip(arrays, places):
            end = lo.arrays.bind("end", ir.Binary("add", at, extent(x, place[axis]), "int64"))
            items = []
            for j, p in enumerate(place):
                if j == axis:
                    items.append(("slice", at, end, None) if p[0] == "dim" else ("index", at))
                else:
                    items.append(("slice", None, None, None) if p[0] == "dim"
                                 else ("index", ir.Const(0, "int64")))
            part = ir.View(result, items, T.ArrayType(dtype, x.type.ndim, "A"))
            lo.prelude.append(ir.AssignArray(part, x))
            lo.prelude.append(ir.Assign(at.name, end))
        return result

    def array_function(self, node, name):
        """np.where(c, a, b), np.dot(a, b), np.outer(a, b), np.clip(a, low, high)."""
        lo = self.lo
        count = ARRAY_FUNCTIONS[name]
        if len(node.args) != count or node.keywords:
            raise lo.error(node, f"np.{name} takes {count} positional arguments here")
        args = [lo.operand(a) for a in node.args]
        for a in args:
            if not (is_array(a) or T.is_scalar(a.type)):
                raise lo.error(node, f"np.{name} of a {a.type}")
        if name == "where":
            if not any(is_array(a) for a in args):
                raise lo.error(node, "np.where of three scalars is not supported (use a "
                                     "conditional expression)")
            return lo.arrays.where(node, *args)
        if name == "dot":
            return lo.arrays.matmul(node, *args)
        if name == "outer":
            return lo.arrays.outer(node, *args)
        if not is_array(args[0]):
            raise lo.error(node, f"np.clip takes an array, not a {args[0].type}")
        a, low, high = args
        return lo.arrays.ufunc(node, np.minimum, [lo.arrays.ufunc(node, np.maximum, [a, low]),
                                                  high])

    def drawn(self, value):
        """A scalar draw taken now, in the prelude: draws happen in the order Python
        evaluates the calls, also beside array draws (which fill their arrays there)."""
        if T.is_scalar(value.type) and not isinstance(value, ir.Var):
            return self.lo.arrays.bind("draw", value)
        return value

    def host_only(self, node, what):
        if self.lo.target == "cuda":
            raise self.lo.error(node, f"{what}() is not available in CUDA kernels: use "
                                      "cuda.random (xoroshiro128+ states)")

    # --- arguments -----------------------------------------------------------------------

    def arguments(self, node, what, names, required=0):
        """Each of `names` bound from the call's positional and keyword arguments (an AST
        node, or None when not given)."""
        if len(node.args) > len(names):
            raise self.lo.error(node, f"{what}() takes at most {len(names)} arguments")
        bound = dict(zip(names, node.args))
        for k in node.keywords:
            if k.arg not in names or k.arg in bound:
                raise self.lo.error(node, f"{what}() got an unexpected or repeated argument "
                                          f"{k.arg!r}")
            bound[k.arg] = k.value
        for name in names[:required]:
            if name not in bound:
                raise self.lo.error(node, f"{what}() needs its argument {name!r}")
        return {name: bound.get(name) for name in names}

    def number(self, node, value_node, what, kinds="bif"):
        value = self.lo.expr(value_node)
        if not T.is_scalar(value.type) or T.kind(value.type) not in kinds:
            allowed = {"bi": "an integer", "bif": "a real number"}.get(kinds, "a number")
            raise self.lo.error(node, f"{what} must be {allowed}, not {value.type}")
        return value

    def integer(self, node, value_node, what):
        value = self.number(node, value_node, what, "bi")
        if value.type == "bool":
            raise self.lo.error(node, f"{what} must be an integer, not bool")
        return value

    def shape(self, node, size_node, what):
        """The int64 extents a `size` argument (an integer or a tuple of them) names."""
        value = self.lo.expr(size_node)
        items = value.type.items if isinstance(value.type, T.TupleType) else None
        if items is not None and all(T.is_integer(t) for t in items):
            return [self.lo.cast(ir.TupleGet(value, k, t), "int64") for k, t in enumerate(items)]
        if T.is_integer(value.type):
            return [self.lo.cast(value, "int64")]
        raise self.lo.error(node, f"{what}'s size must be an integer or a tuple of integers, "
                                  f"not {value.type}")

    def as_float(self, value):
        return self.lo.cast(value, "float64")

    # --- random numbers ------------------------------------------------------------------

    def uniform(self, state, low, high):
        draw = ir.RuntimeCall("random_double", [_state(state)], "float64")
        width = ir.Binary("subtract", high, low, "float64")
        return ir.Binary("add", low, ir.Binary("multiply", width, draw, "float64"), "float64")

    def normal(self, state, loc, scale):
        draw = ir.RuntimeCall("random_gauss", [_state(state)], "float64")
        return ir.Binary("add", loc, ir.Binary("multiply", scale, draw, "float64"), "float64")

    def integer_range(self, node, state, start, stop, step):
        """random.randrange / np.random.randint: int64 arithmetic, the result in the
        widest of the bounds' integer types (Numba's)."""
        bits = max(8 * np.dtype(b.type).itemsize for b in (start, stop, step))
        signed = any(not T.is_unsigned(b.type) for b in (start, stop, step))
        t = f"{'' if signed else 'u'}int{bits}"
        call = ir.RuntimeCall("random_range", [
            _state(state), self.lo.cast(start, "int64"), self.lo.cast(stop, "int64"),
            self.lo.cast(step, "int64"), ir.Const(state == _NP, "bool")], "int64")
        return self.lo.cast(call, t), t

    def sized(self, node, size_node, what, dtype, element):
        """A scalar draw, or an array of `size` draws in C order (Numba's `out.flat`)."""
        if size_node is None or isinstance(size_node, ast.Constant) and size_node.value is None:
            return element()
        dims = self.shape(node, size_node, what)
        return self.lo.arrays.filled(node, dims, dtype, lambda _: element())

    def seed(self, node, what, state, parameter):
        """random.seed(a) / np.random.seed(seed): Knuth's seeding of the low 32 bits."""
        a = self.arguments(node, what, (parameter,), 1)
        seed = self.integer(node, a[parameter], f"{what}'s argument")
        return ir.RuntimeCall("random_seed", [_state(state), self.lo.cast(seed, "uint32")],
                              T.NONE)

    def random_module(self, node, name):
        """random.<name>(...) of Python's random module."""
        lo = self.lo
        what = f"random.{name}"
        if name == "seed":
            return self.seed(node, what, _PY, "a")
        if name == "random":
            self.arguments(node, what, ())
            return ir.RuntimeCall("random_double", [_state(_PY)], "float64")
        if name == "uniform":
            a = self.arguments(node, what, ("a", "b"), 2)
            low, high = (self.as_float(self.number(node, a[k], f"{what}'s {k}")) for k in "ab")
            return self.uniform(_PY, low, high)
        if name in ("gauss", "normalvariate"):
            a = self.arguments(node, what, ("mu", "sigma"), 2)
            mu, sigma = (self.as_float(self.number(node, a[k], f"{what}'s {k}"))
                         for k in ("mu", "sigma"))
            return self.normal(_PY, mu, sigma)
        if name == "randint":
            a = self.arguments(node, what, ("a", "b"), 2)
            low, high = (self.integer(node, a[k], f"{what}'s {k}") for k in "ab")
            one = ir.Const(1, "int64")
            stop = ir.Binary("add", lo.cast(high, "int64"), one, "int64")
            return self.integer_range(node, _PY, low, ir.Cast(stop, high.type), one)[0]
        if name == "randrange":
            a = self.arguments(node, what, ("start", "stop", "step"), 1)
            start = self.integer(node, a["start"], f"{what}'s start")
            if a["stop"] is None:
                start, stop = ir.Const(0, start.type), start
            else:
                stop = self.integer(node, a["stop"], f"{what}'s stop")
            step = self.integer(node, a["step"], f"{what}'s step") if a["step"] is not None \
                else ir.Const(1, stop.type)
            return self.integer_range(node, _PY, start, stop, step)[0]
        raise lo.error(node, f"{what}() is not supported")

    def np_random(self, node, name):
        """np.random.<name>(...): NumPy's legacy functions, as Numba has them."""
        lo = self.lo
        what = f"np.random.{name}"
        if name == "seed":
            return self.seed(node, what, _NP, "seed")
        draw = lambda: ir.RuntimeCall("random_double", [_state(_NP)], "float64")  # noqa: E731
        gauss = lambda: ir.RuntimeCall("random_gauss", [_state(_NP)], "float64")  # noqa: E731
        if name in ("random", "random_sample", "sample", "ranf"):
            a = self.arguments(node, what, ("size",))
            return self.sized(node, a["size"], what, "float64", draw)
        if name in ("rand", "randn"):
            if node.keywords:
                raise lo.error(node, f"{what}() takes dimensions only")
            element = draw if name == "rand" else gauss
            if not node.args:
                return element()
            dims = [lo.cast(self.integer(node, d, f"{what}'s dimension"), "int64")
                    for d in node.args]
            return lo.arrays.filled(node, dims, "float64", lambda _: element())
        if name == "standard_normal":
            a = self.arguments(node, what, ("size",))
            return self.sized(node, a["size"], what, "float64", gauss)
        if name in ("normal", "uniform"):
            first, second = ("loc", "scale") if name == "normal" else ("low", "high")
            a = self.arguments(node, what, (first, second, "size"))
            defaults = (0.0, 1.0)
            low, high = (self.as_float(self.number(node, a[k], f"{what}'s {k}"))
                         if a[k] is not None else ir.Const(d, "float64")
                         for k, d in zip((first, second), defaults))
            low, high = lo.arrays.scalar(low), lo.arrays.scalar(high)
            make = self.normal if name == "normal" else self.uniform
            return self.sized(node, a["size"], what, "float64", lambda: make(_NP, low, high))
        if name == "randint":
            a = self.arguments(node, what, ("low", "high", "size"), 1)
            low = self.integer(node, a["low"], f"{what}'s low")
            if a["high"] is None or isinstance(a["high"], ast.Constant) and a["high"].value is None:
                low, high = ir.Const(0, low.type), low
            else:
                high = self.integer(node, a["high"], f"{what}'s high")
            low, high = lo.arrays.scalar(low), lo.arrays.scalar(high)
            one = ir.Const(1, "int64")
            _, t = self.integer_range(node, _NP, low, high, one)
            return self.sized(node, a["size"], what, t,
                              lambda: self.integer_range(node, _NP, low, high, one)[0])
        raise lo.error(node, f"{what}() is not supported")

    # --- creation --------------------------------------------------------------------------

    def create(self, node, name):
        lo = self.lo
        if name == "arange":
            return self.arange(node)
        if name == "linspace":
            return self.linspace(node)
        if name == "full":
            a = self.arguments(node, "np.full", ("shape", "fill_value", "dtype"), 2)
            dims = self.shape(node, a["shape"], "np.full")
        else:
            a = self.arguments(node, "np.full_like", ("a", "fill_value", "dtype"), 2)
            like = lo.expr(a["a"])
            if not isinstance(like.type, T.ArrayType):
                raise lo.error(node, f"np.full_like takes an array, not a {like.type}")
            dims = [ir.Shape(like, k) for k in range(like.type.ndim)]
        value = lo.arrays.scalar(self.number(node, a["fill_value"], f"np.{name}'s fill_value",
                                             "bifc"))
        if a["dtype"] is not None:
            dtype = lo.dtype_argument(node, a["dtype"])
        else:
            dtype = like.type.dtype if name == "full_like" else value.type
        return lo.arrays.filled(node, dims, dtype, lambda _: value)

    def arange(self, node):
        """np.arange([start,] stop[, step], dtype=): Numba's count, ceil((stop - start) /
        step), and values start + i * step."""
        lo = self.lo
        keywords = {k.arg: k.value for k in node.keywords}
        if set(keywords) - {"dtype"} or not 1 <= len(node.args) <= 3:
            raise lo.error(node, "np.arange takes [start,] stop[, step] and dtype=")
        bounds = [self.number(node, b, "np.arange's bounds", "bif") for b in node.args]
        if len(bounds) == 1:
            bounds = [ir.Const(0, "int64")] + bounds
        if len(bounds) == 2:
            bounds.append(ir.Const(1, "int64"))
        start, stop, step = (lo.arrays.scalar(b) for b in bounds)
        # Numba's dtype: float64 if a bound is a float, else int64 (np.int_)
        t = "float64" if any(T.is_float(b.type) for b in (start, stop, step)) else "int64"
        dtype = lo.dtype_argument(node, keywords["dtype"]) if "dtype" in keywords else t
        zero_step = ir.Compare("eq", lo.cast(step, t), ir.Const(0, t))
        lo.prelude.append(ir.If(zero_step, [ir.Raise(13)], []))
        span = ir.Binary("divide", ir.Binary("subtract", self.as_float(lo.cast(stop, t)),
                                             self.as_float(lo.cast(start, t)), "float64"),
                         self.as_float(lo.cast(step, t)), "float64")
        count = ir.Cast(ir.Call("ceil", [span], "float64"), "int64")
        count = ir.Select(ir.Compare("lt", count, ir.Const(0, "int64")), ir.Const(0, "int64"),
                          count, "int64")
        return lo.arrays.filled(node, [count], dtype, lambda i: ir.Binary(
            "add", lo.cast(start, t), ir.Binary("multiply", lo.cast(i[0], t),
                                                lo.cast(step, t), t), t))

    def linspace(self, node):
        """np.linspace(start, stop, num=50): Numba's (NumPy 1.20's) start + i * step with
        the last value stop itself."""
        lo = self.lo
        a = self.arguments(node, "np.linspace", ("start", "stop", "num"), 2)
        start, stop = (self.number(node, a[k], f"np.linspace's {k}", "bifc")
                       for k in ("start", "stop"))
        t = "complex128" if "c" in (T.kind(start.type), T.kind(stop.type)) else "float64"
        start, stop = lo.arrays.scalar(lo.cast(start, t)), lo.arrays.scalar(lo.cast(stop, t))
        num = (lo.arrays.scalar(lo.cast(self.integer(node, a["num"], "np.linspace's num"),
                                        "int64"))
               if a["num"] is not None else ir.Const(50, "int64"))
        return self.linspace_of(node, start, stop, num, t)

    def linspace_of(self, node, start, stop, num, t):
        """np.linspace of IR values: start and stop (held, of type t), int64 num."""
        lo = self.lo
        div = ir.Binary("subtract", num, ir.Const(1, "int64"), "int64")
        step = lo.arrays.bind("step", ir.Call("divide", [
            ir.Binary("subtract", stop, start, t), lo.cast(
                ir.Select(ir.Compare("gt", div, ir.Const(0, "int64")), div, ir.Const(1, "int64"),
                          "int64"), t)], t))
        result = lo.arrays.filled(node, [num], t, lambda i: ir.Select(
            ir.Compare("gt", div, ir.Const(0, "int64")),
            ir.Binary("add", start, ir.Binary("multiply", lo.cast(i[0], t), step, t), t),
            start, t))
        last = ir.Binary("subtract", num, ir.Const(1, "int64"), "int64")
        lo.prelude.append(ir.If(ir.Compare("gt", num, ir.Const(1, "int64")),
                                [ir.Store(result, [last], stop, True)], []))
        return result
