"""More of NumPy inside jit functions, as Numba has it, each lowered to loops of the typed
IR: matrices made from shapes and diagonals (np.eye, np.identity, np.diag, np.trace,
np.triu, np.tril), arrays from numbers and arrays (np.array, np.asarray,
np.ascontiguousarray), views that reverse (np.flip, np.fliplr, np.flipud), counting and
finding (np.count_nonzero, np.nonzero, np.flatnonzero, np.argwhere, np.where of one
argument, np.searchsorted, np.bincount), comparing (np.isclose, np.allclose), rounding
(np.round, np.around, np.round_), the NaN-skipping reductions (np.nansum, np.nanprod,
np.nanmean, np.nanvar, np.nanstd, np.nanmin, np.nanmax), np.interp, and the methods
a.fill(x) and a.item(); binning and ranks (np.digitize, np.histogram, np.percentile,
np.quantile, np.nanpercentile, np.nanquantile); new shapes and orders (np.expand_dims,
np.atleast_1d/2d/3d, np.swapaxes: views; np.roll, np.repeat, np.take, np.append: new
arrays), np.vdot, np.logspace and np.tri."""

import ast
import math

import numpy as np

from . import ir
from . import types as T
from .array_exprs import ArrayExpr, dtype_of, is_array

FUNCTIONS = ("eye", "identity", "diag", "trace", "triu", "tril", "array", "asarray",
             "ascontiguousarray", "flip", "fliplr", "flipud", "count_nonzero", "nonzero",
             "flatnonzero", "argwhere", "searchsorted", "bincount", "isclose", "allclose",
             "round", "around", "round_", "nansum", "nanprod", "nanmean", "nanvar", "nanstd",
             "nanmin", "nanmax", "interp", "digitize", "histogram", "percentile", "quantile",
             "nanpercentile", "nanquantile", "expand_dims", "atleast_1d", "atleast_2d",
             "atleast_3d", "swapaxes", "roll", "repeat", "take", "append", "vdot", "logspace",
             "tri")

# The runtime's Raise codes (src/jit/python_raise.h).
_INTERP_EMPTY, _INTERP_SIZES, _BINCOUNT_NEGATIVE, _ITEM_SIZE = 30, 31, 32, 33
_DIGITIZE_BINS, _HISTOGRAM_BINS, _HISTOGRAM_RANGE, _HISTOGRAM_EDGES = 34, 35, 36, 37
_PERCENTILES, _QUANTILES = 38, 39


def _int(value):
    return ir.Const(value, "int64")


def _number(value, t):
    return ir.Const(complex(value) if T.is_complex(t) else value, t)


def _add(a, b):
    return ir.Binary("add", a, b, "int64")


def _is_nan(x):
    return ir.Compare("ne", x, x)


def _is_inf(x):
    return ir.Call("isinf", [x], "bool")


class ArrayFunctions:
    def __init__(self, lowering):
        self.lo = lowering
        self.arrays = lowering.arrays

    def call(self, node, name):
        self.arrays.check_target(node, f"np.{name}")
        return getattr(self, "np_" + name.rstrip("_"))(node, f"np.{name}")

    # --- arguments -------------------------------------------------------------------------

    def args(self, node, what, names, required=1):
        return self.lo.numpy_calls.arguments(node, what, names, required)

    def array(self, node, what, value_node):
        value = self.lo.operand(value_node)
        if not is_array(value):
            raise self.lo.error(node, f"{what}() takes an array, not a {value.type}")
        return value

    def variable(self, node, value):
        return self.arrays.array_value(node, value)

    def integer(self, node, value_node, what, default=0):
        if value_node is None:
            return _int(default)
        return self.lo.cast(self.arrays.scalar(self.lo.numpy_calls.integer(node, value_node, what)),
                            "int64")

    def dtype(self, node, value_node, default):
        return default if value_node is None else self.lo.dtype_argument(node, value_node)

    # --- matrices from shapes and diagonals ------------------------------------------------

    def np_eye(self, node, what):
        a = self.args(node, what, ("N", "M", "k", "dtype"))
        n = self.integer(node, a["N"], f"{what}'s N")
        m = n if a["M"] is None or _is_none(a["M"]) else self.integer(node, a["M"], f"{what}'s M")
        k = self.integer(node, a["k"], f"{what}'s k")
        t = self.dtype(node, a["dtype"], "float64")
        return self.arrays.filled(node, [n, m], t, lambda i: ir.Select(
            ir.Compare("eq", ir.Binary("subtract", i[1], i[0], "int64"), k),
            _number(1, t), _number(0, t), t))

    def np_identity(self, node, what):
        a = self.args(node, what, ("n", "dtype"))
        n = self.integer(node, a["n"], f"{what}'s n")
        t = self.dtype(node, a["dtype"], "float64")
        return self.arrays.filled(node, [n, n], t, lambda i: ir.Select(
            ir.Compare("eq", i[0], i[1]), _number(1, t), _number(0, t), t))

    def np_diag(self, node, what):
        """np.diag(v, k): the matrix with the vector v on its k-th diagonal, or a new vector
        of a matrix's k-th diagonal."""
        a = self.args(node, what, ("v", "k"))
        v = self.variable(node, self.array(node, what, a["v"]))
        k = self.arrays.scalar(self.integer(node, a["k"], f"{what}'s k"))
        if v.type.ndim == 2:
            return self.diagonal(node, v, k)
        if v.type.ndim != 1:
            raise self.lo.error(node, f"{what}() takes a 1-d or 2-d array")
        t = v.type.dtype
        below, above = _offsets(k)
        n = self.arrays.bind("dim", _add(ir.Shape(v, 0), _add(below, above)))
        return self.arrays.filled(node, [n, n], t, lambda i: ir.Select(
            ir.Compare("eq", ir.Binary("subtract", i[1], i[0], "int64"), k),
            ir.Load(v, [ir.Binary("subtract", i[0], below, "int64")], t, True),
            _number(0, t), t))

    def diagonal(self, node, x, k):
        """A new vector of the 2-d x's k-th diagonal (k an int64 Var or constant)."""
        t = x.type.dtype
        below, above = _offsets(k)
        rows = ir.Binary("subtract", ir.Shape(x, 0), below, "int64")
        cols = ir.Binary("subtract", ir.Shape(x, 1), above, "int64")
        shorter = ir.Call("minimum", [rows, cols], "int64")
        length = self.arrays.bind("dim", ir.Select(ir.Compare("lt", shorter, _int(0)), _int(0),
                                                   shorter, "int64"))
        return self.arrays.filled(node, [length], t, lambda i: ir.Load(
            x, [_add(i[0], below), _add(i[0], above)], t, True))

    def np_trace(self, node, what):
        """The sum of a matrix's diagonal (its offset-th), in the sum type of its dtype."""
        a = self.args(node, what, ("a", "offset"))
        x = self.variable(node, self.array(node, what, a["a"]))
        if x.type.ndim != 2:
            raise self.lo.error(node, f"{what}() takes a 2-d array here")
        k = self.arrays.scalar(self.integer(node, a["offset"], f"{what}'s offset"))
        return self.arrays.reduce(node, "sum", self.diagonal(node, x, k))

    def triangle(self, node, what, upper):
        a = self.args(node, what, ("m", "k"))
        x = self.variable(node, self.array(node, what, a["m"]))
        if x.type.ndim != 2:
            raise self.lo.error(node, f"{what}() takes a 2-d array here")
        k = self.arrays.scalar(self.integer(node, a["k"], f"{what}'s k"))
        t = x.type.dtype
        dims = [ir.Shape(x, 0), ir.Shape(x, 1)]

        def element(i):
            offset = ir.Binary("subtract", i[1], i[0], "int64")
            keep = ir.Compare("ge" if upper else "le", offset, k)
            return ir.Select(keep, ir.Load(x, list(i), t, True), _number(0, t), t)

        return self.arrays.filled(node, dims, t, element)

    def np_triu(self, node, what):
        return self.triangle(node, what, True)

    def np_tril(self, node, what):
        return self.triangle(node, what, False)

    # --- arrays from numbers and arrays ----------------------------------------------------

    def np_array(self, node, what, copy=True):
        """np.array(object, dtype): a new array of an array (a copy) or of numbers written
        as a (nested) list or tuple, or a tuple of numbers; np.asarray keeps an array of the
        dtype asked for as it is."""
        a = self.args(node, what, ("object", "dtype"))
        source = a["object"]
        lo = self.lo
        if isinstance(source, (ast.List, ast.Tuple)):
            rows = _nested(source)
            if rows is None:
                raise lo.error(node, f"{what}() takes numbers in lists or tuples of one length "
                                     "at each depth")
            items, shape = rows
            values = [lo.arrays.scalar(lo.expr(item)) for item in items]
            for v in values:
                if not T.is_scalar(v.type):
                    raise lo.error(node, f"{what}() takes numbers in its lists, not a {v.type}")
            t = values[0].type if values else "float64"
            for v in values[1:]:
                t = T.promote(t, v.type)
            t = self.dtype(node, a["dtype"], t)
            out = self.arrays.new(node, [_int(n) for n in shape], t)
            for flat, v in enumerate(values):
                index, rest = [], flat
                for n in reversed(shape):
                    index.append(_int(rest % n))
                    rest //= n
                lo.prelude.append(ir.Store(out, index[::-1], lo.cast(v, t), True))
            return out
        value = lo.operand(source)
        if isinstance(value.type, T.TupleType):
            items = [ir.TupleGet(value, k, t) for k, t in enumerate(value.type.items)]
            if not items or not all(T.is_scalar(t) for t in value.type.items):
                raise lo.error(node, f"{what}() takes a tuple of numbers, not a {value.type}")
            held = self.lo.held(node, value)
            t = value.type.items[0]
            for item in value.type.items[1:]:
                t = T.promote(t, item)
            t = self.dtype(node, a["dtype"], t)
            out = self.arrays.new(node, [_int(len(items))], t)
            for k, item_type in enumerate(value.type.items):
                lo.prelude.append(ir.Store(out, [_int(k)], lo.cast(ir.TupleGet(held, k, item_type), t),
                                           True))
            return out
        if not is_array(value):
            raise lo.error(node, f"{what}() takes an array, a tuple or a list of numbers, not "
                                 f"a {value.type}")
        t = self.dtype(node, a["dtype"], dtype_of(value))
        if not copy and t == dtype_of(value) and not isinstance(value, ArrayExpr):
            return value
        return self.arrays.materialize(node, self.arrays.converted(node, value, t))

    def np_asarray(self, node, what):
        return self.np_array(node, what, copy=False)

    def np_ascontiguousarray(self, node, what):
        a = self.args(node, what, ("a", "dtype"))
        value = self.array(node, what, a["a"])
        t = self.dtype(node, a["dtype"], dtype_of(value))
        if not isinstance(value, ArrayExpr) and value.type.layout == "C" and t == value.type.dtype:
            return value
        return self.arrays.materialize(node, self.arrays.converted(node, value, t))

    # --- views that reverse ----------------------------------------------------------------

    def reversed_view(self, node, what, axes):
        a = self.args(node, what, ("m",))
        x = self.variable(node, self.array(node, what, a["m"]))
        t = x.type
        axes = range(t.ndim) if axes is None else axes
        if any(k >= t.ndim for k in axes):
            raise self.lo.error(node, f"{what}() takes an array of at least {max(axes) + 1} "
                                      "dimensions")
        items = [("slice", None, None, _int(-1)) if k in axes else ("slice", None, None, None)
                 for k in range(t.ndim)]
        return ir.View(x, items, T.ArrayType(t.dtype, t.ndim, "A", t.readonly))

    def np_flip(self, node, what):
        return self.reversed_view(node, what, None)

    def np_fliplr(self, node, what):
        return self.reversed_view(node, what, (1,))

    def np_flipud(self, node, what):
        return self.reversed_view(node, what, (0,))

    # --- counting and finding --------------------------------------------------------------

    def np_count_nonzero(self, node, what):
        a = self.args(node, what, ("a",))
        value = self.array(node, what, a["a"])
        nonzero = self.arrays.elementwise(node, [value], lambda xs: self.lo.truth(xs[0]), "bool")
        return self.lo.cast(self.arrays.reduce(node, "sum", nonzero), "int64")

    def positions_of_nonzero(self, node, value):
        """A new (count, ndim) int64 array of the indices of a's nonzero elements, C order."""
        lo, arrays = self.lo, self.arrays
        e = arrays.leaf(node, value)
        dims = arrays.extents(e)
        count = arrays.bind("count", _int(0))
        lo.prelude.extend(arrays.loops(e, dims, lambda x, _: [ir.If(lo.truth(x), [
            ir.Assign(count.name, _add(count, _int(1)))], [])]))
        out = arrays.new(node, [count, _int(max(len(dims), 1))], "int64")
        at = arrays.bind("at", _int(0))

        def put(x, indices):
            stores = [ir.Store(out, [at, _int(d)], index, True) for d, index in enumerate(indices)]
            if not indices:
                stores = [ir.Store(out, [at, _int(0)], _int(0), True)]
            return [ir.If(lo.truth(x), stores + [ir.Assign(at.name, _add(at, _int(1)))], [])]

        lo.prelude.extend(arrays.loops(e, dims, put))
        return out, len(dims)

    def np_argwhere(self, node, what):
        a = self.args(node, what, ("a",))
        return self.positions_of_nonzero(node, self.array(node, what, a["a"]))[0]

    def np_nonzero(self, node, what):
        """A tuple of one int64 array per dimension: the indices of the nonzero elements."""
        a = self.args(node, what, ("a",))
        value = self.array(node, what, a["a"])
        positions, ndim = self.positions_of_nonzero(node, value)
        if ndim == 0:
            raise self.lo.error(node, f"{what}() of a 0-d array is not supported")
        column = T.ArrayType("int64", 1, "A")
        items = [self.arrays.bind("view", ir.View(positions, [("slice", None, None, None),
                                                              ("index", _int(d))], column))
                 for d in range(ndim)]
        return ir.MakeTuple(items, T.TupleType((column,) * ndim))

    def np_flatnonzero(self, node, what):
        a = self.args(node, what, ("a",))
        value = self.arrays.flattened(node, self.array(node, what, a["a"]), copy=False)
        positions, _ = self.positions_of_nonzero(node, value)
        return ir.View(positions, [("slice", None, None, None), ("index", _int(0))],
                       T.ArrayType("int64", 1, "A"))

    def np_where(self, node, what):
        return self.np_nonzero(node, what)

    def np_searchsorted(self, node, what):
        """The insertion points of v in the sorted 1-d a (side 'left' or 'right'), NaNs
        sorting last as NumPy sorts them: an int64, or an array of v's shape."""
        a = self.args(node, what, ("a", "v", "side"))
        lo = self.lo
        sorted_ = self.variable(node, self.array(node, what, a["a"]))
        if sorted_.type.ndim != 1:
            raise lo.error(node, f"{what}() takes a 1-d sorted array")
        side = "left"
        if a["side"] is not None:
            if not (isinstance(a["side"], ast.Constant) and a["side"].value in ("left", "right")):
                raise lo.error(node, f"{what}'s side must be 'left' or 'right' (a constant)")
            side = a["side"].value
        return self.each_value(node, lo.operand(a["v"]), "int64",
                               lambda v: self.bisect(sorted_, v, side))

    def each_value(self, node, values, t, compute):
        """compute(v) -> (result Var, statements) for a number, or for each element of an
        array into a new array of its shape and type t."""
        lo, arrays = self.lo, self.arrays
        if not is_array(values):
            result, statements = compute(arrays.scalar(values))
            lo.prelude.extend(statements)
            return result
        e = arrays.leaf(node, values)
        dims = arrays.extents(e)
        out = arrays.new(node, dims, t)

        def place(x, indices):
            held = ir.Var(arrays.temp("value", e.dtype), e.dtype)
            result, statements = compute(held)
            return [ir.Assign(held.name, x)] + statements + [
                ir.Store(out, list(indices), lo.cast(result, t), True)]

        lo.prelude.extend(arrays.loops(e, dims, place))
        return out

    def bisect(self, sorted_, v, side):
        """(position, statements): where v goes in the sorted 1-d array, before equal
        elements (side 'left') or after them ('right'), NaNs sorting last."""
        lo, arrays = self.lo, self.arrays
        t = T.promote(sorted_.type.dtype, v.type)

        def before(x, y):
            if side == "left":
                less = ir.Compare("lt", x, y)
                if not T.is_float(t):
                    return less
                return ir.Select(less, ir.Const(True, "bool"), ir.Select(
                    _is_nan(y), ir.Compare("eq", x, x), ir.Const(False, "bool"), "bool"), "bool")
            not_after = ir.Compare("le", x, y)
            if not T.is_float(t):
                return not_after
            return ir.Select(not_after, ir.Const(True, "bool"), _is_nan(y), "bool")

        low = ir.Var(arrays.temp("low", "int64"), "int64")
        high = ir.Var(arrays.temp("high", "int64"), "int64")
        mid = ir.Var(arrays.temp("mid", "int64"), "int64")
        item = lo.cast(ir.Load(sorted_, [mid], sorted_.type.dtype, True), t)
        return low, [
            ir.Assign(low.name, _int(0)), ir.Assign(high.name, ir.Shape(sorted_, 0)),
            ir.While(ir.Compare("lt", low, high), [
                ir.Assign(mid.name, ir.Binary("floor_divide", _add(low, high), _int(2), "int64")),
                ir.If(before(item, lo.cast(v, t)),
                      [ir.Assign(low.name, _add(mid, _int(1)))],
                      [ir.Assign(high.name, mid)])])]

    def np_bincount(self, node, what):
        """The count of each non-negative integer in x (int64), or the sum of its weights
        (float64), over max(x) + 1 bins, or minlength."""
        a = self.args(node, what, ("x", "weights", "minlength"))
        lo, arrays = self.lo, self.arrays
        x = self.variable(node, self.array(node, what, a["x"]))
        if x.type.ndim != 1 or not T.is_integer(x.type.dtype):
            raise lo.error(node, f"{what}() takes a 1-d array of integers")
        weights = None
        if a["weights"] is not None and not _is_none(a["weights"]):
            weights = self.variable(node, self.array(node, what, a["weights"]))
            if weights.type.ndim != 1 or T.is_complex(weights.type.dtype):
                raise lo.error(node, f"{what}'s weights must be a 1-d array of real numbers")
            lo.prelude.append(ir.If(ir.Compare("ne", ir.Shape(weights, 0), ir.Shape(x, 0)),
                                    [ir.Raise(21)], []))
        minlength = self.integer(node, a["minlength"], f"{what}'s minlength")
        n = arrays.bind("dim", ir.Shape(x, 0))
        largest = arrays.bind("largest", ir.Binary("subtract", minlength, _int(1), "int64"))
        i = ir.Var(arrays.temp("i", "int64"), "int64")
        item = lo.cast(ir.Load(x, [i], x.type.dtype, True), "int64")
        lo.prelude.append(ir.ForRange(i.name, _int(0), n, _int(1), [
            ir.If(ir.Compare("lt", item, _int(0)), [ir.Raise(_BINCOUNT_NEGATIVE)], []),
            ir.If(ir.Compare("gt", item, largest), [ir.Assign(largest.name, item)], [])]))
        t = "int64" if weights is None else "float64"
        out = arrays.new(node, [_add(largest, _int(1))], t, "zeros")
        add = _number(1, t) if weights is None else lo.cast(
            ir.Load(weights, [i], weights.type.dtype, True), t)
        lo.prelude.append(ir.ForRange(i.name, _int(0), n, _int(1), [
            ir.Store(out, [item], ir.Binary("add", ir.Load(out, [item], t, True), add, t), True)]))
        return out

    # --- comparing and rounding ------------------------------------------------------------

    def close(self, node, what, a_node, b_node, rtol, atol, equal_nan):
        """NumPy's isclose: |a - b| <= atol + rtol * |b| for finite b, else a == b; NaNs
        equal when equal_nan."""
        lo = self.lo
        a, b = lo.operand(a_node), lo.operand(b_node)
        t = T.promote(dtype_of(a), dtype_of(b))
        if T.kind(t) in "bi":
            t = "float64"
        r = {"complex64": "float32", "complex128": "float64"}.get(t, t)

        def element(xs):
            x, y = lo.cast(xs[0], t), lo.cast(xs[1], t)
            difference = ir.Call("absolute", [ir.Binary("subtract", x, y, t)], r)
            bound = ir.Binary("add", lo.cast(atol, r), ir.Binary(
                "multiply", lo.cast(rtol, r), ir.Call("absolute", [y], r), r), r)
            finite = ir.Call("isfinite", [y], "bool")
            close = ir.Select(finite, ir.Compare("le", difference, bound),
                              ir.Compare("eq", x, y), "bool")
            if equal_nan:
                both_nan = ir.Select(_is_nan(x), _is_nan(y), ir.Const(False, "bool"), "bool")
                close = ir.Select(both_nan, ir.Const(True, "bool"), close, "bool")
            return close

        if not is_array(a) and not is_array(b):
            return self.arrays.bind("close", element([lo.arrays.scalar(a), lo.arrays.scalar(b)]))
        return self.arrays.elementwise(node, [a, b], element, "bool")

    def tolerances(self, node, what, a):
        number = self.lo.numpy_calls.number
        rtol = (self.arrays.scalar(number(node, a["rtol"], f"{what}'s rtol"))
                if a["rtol"] is not None else ir.Const(1e-05, "float64"))
        atol = (self.arrays.scalar(number(node, a["atol"], f"{what}'s atol"))
                if a["atol"] is not None else ir.Const(1e-08, "float64"))
        equal_nan = False
        if a["equal_nan"] is not None:
            if not isinstance(a["equal_nan"], ast.Constant) or not isinstance(a["equal_nan"].value, bool):
                raise self.lo.error(node, f"{what}'s equal_nan must be True or False (a constant)")
            equal_nan = a["equal_nan"].value
        return rtol, atol, equal_nan

    def np_isclose(self, node, what):
        a = self.args(node, what, ("a", "b", "rtol", "atol", "equal_nan"), 2)
        return self.close(node, what, a["a"], a["b"], *self.tolerances(node, what, a))

    def np_allclose(self, node, what):
        a = self.args(node, what, ("a", "b", "rtol", "atol", "equal_nan"), 2)
        close = self.close(node, what, a["a"], a["b"], *self.tolerances(node, what, a))
        if not is_array(close):
            return close
        return self.arrays.reduce(node, "all", close)

    def np_round(self, node, what):
        """NumPy's rounding to `decimals` places: half to even of x * 10**d, divided back
        (of x / 10**-d, multiplied back, for negative d); integers with d >= 0 unchanged."""
        a = self.args(node, what, ("a", "decimals"))
        lo = self.lo
        value = lo.operand(a["a"])
        decimals = 0
        if a["decimals"] is not None:
            decimals = lo.constant_int(a["decimals"])
            if decimals is None:
                raise lo.error(node, f"{what}'s decimals must be a constant integer here")
        t = dtype_of(value)
        if t == "bool":
            raise lo.error(node, f"{what}() of booleans is not supported")

        def rounded(x, part_type):
            if T.is_integer(part_type):
                if decimals >= 0:
                    return x
                f = ir.Const(10 ** -decimals, part_type)
                return ir.Binary("multiply", ir.Call("rint", [lo.cast(ir.Binary(
                    "divide", lo.cast(x, "float64"), lo.cast(f, "float64"), "float64"),
                    "float64")], "float64"), lo.cast(f, "float64"), "float64")
            scale = ir.Const(float(10 ** abs(decimals)), part_type)
            if decimals >= 0:
                return ir.Binary("divide", ir.Call("rint", [ir.Binary("multiply", x, scale, part_type)],
                                                   part_type), scale, part_type)
            return ir.Binary("multiply", ir.Call("rint", [ir.Binary("divide", x, scale, part_type)],
                                                 part_type), scale, part_type)

        def element(xs):
            x = xs[0]
            if T.is_complex(t):
                part = "float32" if t == "complex64" else "float64"
                return ir.MakeComplex(rounded(ir.Part("real", x, part), part),
                                      rounded(ir.Part("imag", x, part), part), t)
            return lo.cast(rounded(x, t), t)

        if not is_array(value):
            return self.arrays.bind("rounded", element([self.arrays.scalar(value)]))
        return self.arrays.elementwise(node, [value], element, t)

    def np_around(self, node, what):
        return self.np_round(node, what)

    # --- reductions that skip NaNs ---------------------------------------------------------

    def nan_reduction(self, node, what, how):
        a = self.args(node, what, ("a",))
        value = self.array(node, what, a["a"])
        t = dtype_of(value)
        if not T.is_float(t) and not T.is_complex(t):
            return self.arrays.reduce(node, how, value)  # no NaNs to skip
        arrays, lo = self.arrays, self.lo
        if how in ("sum", "prod"):
            skip = _number(0 if how == "sum" else 1, t)
            kept = arrays.elementwise(node, [value], lambda xs: ir.Select(
                _is_nan(xs[0]), skip, xs[0], t), t)
            return arrays.reduce(node, how, kept)
        e = arrays.leaf(node, arrays.materialize(node, value) if isinstance(value, ArrayExpr) else value)
        dims = arrays.extents(e)
        if how in ("min", "max"):
            # The least or greatest of the numbers; NaN when there are none (NumPy warns).
            best = arrays.bind("acc", _number(math.nan, t))
            op = "lt" if how == "min" else "gt"

            def visit(x, _):
                item = ir.Var(arrays.temp("item", t), t)
                take = ir.Select(_is_nan(best), ir.Const(True, "bool"), ir.Compare(op, item, best), "bool")
                return [ir.Assign(item.name, x), ir.If(
                    ir.Select(_is_nan(item), ir.Const(False, "bool"), take, "bool"),
                    [ir.Assign(best.name, item)], [])]

            lo.prelude.extend(arrays.loops(e, dims, visit))
            return best
        # mean, var, std over the numbers, accumulated in float64 (complex128) whatever the
        # dtype and divided by their count (NaN for none), as Numba's are
        t = "complex128" if T.is_complex(t) else "float64"
        count = arrays.bind("count", _int(0))
        total = arrays.bind("acc", _number(0, t))
        lo.prelude.extend(arrays.loops(e, dims, lambda x, _: [ir.If(
            _is_nan(x), [], [ir.Assign(total.name, ir.Binary("add", total, lo.cast(x, t), t)),
                             ir.Assign(count.name, _add(count, _int(1)))])]))
        mean = arrays.bind("mean", ir.Call("divide", [total, lo.cast(count, t)], t))
        if how == "mean":
            return mean
        real = "float64"
        squares = arrays.bind("acc", _number(0, real))

        def add_square(x, _):
            deviation = ir.Binary("subtract", lo.cast(x, t), mean, t)
            if T.is_complex(t):
                square = ir.Binary("add", ir.Binary("multiply", ir.Part("real", deviation, real),
                                                    ir.Part("real", deviation, real), real),
                                   ir.Binary("multiply", ir.Part("imag", deviation, real),
                                             ir.Part("imag", deviation, real), real), real)
            else:
                square = ir.Binary("multiply", deviation, deviation, t)
            return [ir.If(_is_nan(x), [], [ir.Assign(squares.name, ir.Binary("add", squares, square, real))])]

        lo.prelude.extend(arrays.loops(e, dims, add_square))
        var = ir.Call("divide", [squares, lo.cast(count, real)], real)
        if how == "var":
            return arrays.bind("var", var)
        return arrays.bind("std", ir.Call("sqrt", [var], real))

    def np_nansum(self, node, what):
        return self.nan_reduction(node, what, "sum")

    def np_nanprod(self, node, what):
        return self.nan_reduction(node, what, "prod")

    def np_nanmean(self, node, what):
        return self.nan_reduction(node, what, "mean")

    def np_nanvar(self, node, what):
        return self.nan_reduction(node, what, "var")

    def np_nanstd(self, node, what):
        return self.nan_reduction(node, what, "std")

    def np_nanmin(self, node, what):
        return self.nan_reduction(node, what, "min")

    def np_nanmax(self, node, what):
        return self.nan_reduction(node, what, "max")

    # --- interpolation ---------------------------------------------------------------------

    def np_interp(self, node, what):
        """NumPy's piecewise-linear interpolation of (xp, fp) at x: fp[0] left of xp, fp[-1]
        right of it (or left/right), fp[j] where x is xp[j], else slope * (x - xp[j]) +
        fp[j], computed from the right end where that is NaN (NumPy's compiled_interp)."""
        a = self.args(node, what, ("x", "xp", "fp", "left", "right"), 3)
        lo, arrays = self.lo, self.arrays
        xp = self.variable(node, self.array(node, what, a["xp"]))
        fp = self.variable(node, self.array(node, what, a["fp"]))
        for v in (xp, fp):
            if v.type.ndim != 1 or T.is_complex(v.type.dtype):
                raise lo.error(node, f"{what}()'s xp and fp must be 1-d arrays of real numbers")
        t = "float64"
        n = arrays.bind("dim", ir.Shape(xp, 0))
        lo.prelude.append(ir.If(ir.Compare("eq", n, _int(0)), [ir.Raise(_INTERP_EMPTY)], []))
        lo.prelude.append(ir.If(ir.Compare("ne", ir.Shape(fp, 0), n), [ir.Raise(_INTERP_SIZES)], []))
        last = ir.Binary("subtract", n, _int(1), "int64")

        def xp_at(k):
            return lo.cast(ir.Load(xp, [k], xp.type.dtype, True), t)

        def fp_at(k):
            return lo.cast(ir.Load(fp, [k], fp.type.dtype, True), t)

        def bound(key, default_at):
            if a[key] is None or _is_none(a[key]):
                return arrays.bind(key, fp_at(default_at))
            return arrays.bind(key, lo.cast(lo.numpy_calls.number(node, a[key], f"{what}'s {key}"), t))

        left, right = bound("left", _int(0)), bound("right", last)

        def value_at(x):
            """Statements assigning the interpolation at x (a float64 Var) to a new Var."""
            result = ir.Var(arrays.temp("interp", t), t)
            low = ir.Var(arrays.temp("low", "int64"), "int64")
            high = ir.Var(arrays.temp("high", "int64"), "int64")
            mid = ir.Var(arrays.temp("mid", "int64"), "int64")
            j = low
            slope = ir.Binary("divide", ir.Binary("subtract", fp_at(_add(j, _int(1))), fp_at(j), t),
                              ir.Binary("subtract", xp_at(_add(j, _int(1))), xp_at(j), t), t)
            slope_var = ir.Var(arrays.temp("slope", t), t)
            inner = [
                # j: the last index with xp[j] <= x (x within [xp[0], xp[-1]])
                ir.Assign(low.name, _int(0)), ir.Assign(high.name, n),
                ir.While(ir.Compare("lt", _add(low, _int(1)), high), [
                    ir.Assign(mid.name, ir.Binary("floor_divide", _add(low, high), _int(2), "int64")),
                    ir.If(ir.Compare("le", xp_at(mid), x), [ir.Assign(low.name, mid)],
                          [ir.Assign(high.name, mid)])]),
                ir.If(ir.Select(ir.Compare("eq", j, last), ir.Const(True, "bool"),
                                ir.Compare("eq", xp_at(j), x), "bool"),
                      [ir.Assign(result.name, fp_at(j))],
                      [ir.Assign(slope_var.name, slope),
                       ir.Assign(result.name, ir.Binary("add", ir.Binary(
                           "multiply", slope_var, ir.Binary("subtract", x, xp_at(j), t), t), fp_at(j), t)),
                       ir.If(_is_nan(result), [
                           ir.Assign(result.name, ir.Binary("add", ir.Binary(
                               "multiply", slope_var, ir.Binary("subtract", x, xp_at(_add(j, _int(1))), t),
                               t), fp_at(_add(j, _int(1))), t)),
                           ir.If(ir.Select(_is_nan(result), ir.Compare("eq", fp_at(j), fp_at(_add(j, _int(1)))),
                                           ir.Const(False, "bool"), "bool"),
                                 [ir.Assign(result.name, fp_at(j))], [])], [])])]
            statements = [ir.If(_is_nan(x), [ir.Assign(result.name, x)], [
                ir.If(ir.Compare("lt", x, xp_at(_int(0))), [ir.Assign(result.name, left)], [
                    ir.If(ir.Compare("gt", x, xp_at(last)), [ir.Assign(result.name, right)], inner)])])]
            return result, statements

        x = lo.operand(a["x"])
        if not is_array(x):
            held = arrays.bind("x", lo.cast(arrays.scalar(x), t))
            result, statements = value_at(held)
            lo.prelude.extend(statements)
            return result
        e = arrays.leaf(node, x)
        dims = arrays.extents(e)
        out = arrays.new(node, dims, t)

        def place(element, indices):
            held = ir.Var(arrays.temp("x", t), t)
            result, statements = value_at(held)
            return [ir.Assign(held.name, lo.cast(element, t))] + statements + [
                ir.Store(out, list(indices), result, True)]

        lo.prelude.extend(arrays.loops(e, dims, place))
        return out

    # --- binning and ranks -----------------------------------------------------------------

    def flag(self, node, what, value_node, name):
        if value_node is None:
            return False
        if not isinstance(value_node, ast.Constant) or not isinstance(value_node.value, bool):
            raise self.lo.error(node, f"{what}'s {name} must be True or False (a constant)")
        return value_node.value

    def real_vector(self, node, what, value_node, name):
        v = self.variable(node, self.array(node, what, value_node))
        if v.type.ndim != 1 or T.is_complex(v.type.dtype):
            raise self.lo.error(node, f"{what}()'s {name} must be a 1-d array of real numbers")
        return v

    def np_digitize(self, node, what):
        """The bin of each x (Numba's: bins increasing or all equal take searchsorted from
        the side `right` does not name, decreasing ones are searched reversed and counted
        from the end); ValueError for bins neither increasing nor decreasing."""
        a = self.args(node, what, ("x", "bins", "right"), 2)
        lo, arrays = self.lo, self.arrays
        bins = self.real_vector(node, what, a["bins"], "bins")
        side = "left" if self.flag(node, what, a["right"], "right") else "right"
        x = lo.operand(a["x"])
        if T.is_complex(dtype_of(x)):
            raise lo.error(node, f"{what}()'s x may not be complex")
        n = arrays.bind("dim", ir.Shape(bins, 0))
        direction = self.monotonicity(bins, n)
        lo.prelude.append(ir.If(ir.Compare("eq", direction, _int(0)), [ir.Raise(_DIGITIZE_BINS)], []))
        backwards = arrays.bind("view", ir.View(bins, [("slice", None, None, _int(-1))],
                                                T.ArrayType(bins.type.dtype, 1, "A")))

        def bin_of(v):
            result = ir.Var(arrays.temp("bin", "int64"), "int64")
            up, up_statements = self.bisect(bins, v, side)
            down, down_statements = self.bisect(backwards, v, side)
            return result, [ir.If(ir.Compare("eq", direction, _int(-1)),
                                  down_statements + [ir.Assign(result.name, ir.Binary(
                                      "subtract", n, down, "int64"))],
                                  up_statements + [ir.Assign(result.name, up)])]

        return self.each_value(node, x, "int64", bin_of)

    def monotonicity(self, bins, n):
        """1 when bins increase (or all are equal, or there are none), -1 when they
        decrease, 0 otherwise (Numba's _monotonicity, run once)."""
        arrays = self.arrays
        t = bins.type.dtype
        direction = arrays.bind("direction", _int(1))
        i = ir.Var(arrays.temp("i", "int64"), "int64")

        def at(k):
            return ir.Load(bins, [k], t, True)

        previous = ir.Binary("subtract", i, _int(1), "int64")
        first_change = ir.Var(arrays.temp("first", "int64"), "int64")
        self.lo.prelude.append(ir.If(ir.Compare("gt", n, _int(0)), [
            ir.Assign(first_change.name, _int(1)),
            ir.While(ir.Select(ir.Compare("lt", first_change, n),
                               ir.Compare("eq", at(first_change), at(_int(0))),
                               ir.Const(False, "bool"), "bool"),
                     [ir.Assign(first_change.name, _add(first_change, _int(1)))]),
            ir.If(ir.Compare("lt", first_change, n), [
                ir.If(ir.Compare("lt", at(_int(0)), at(first_change)), [
                    ir.ForRange(i.name, _add(first_change, _int(1)), n, _int(1), [
                        ir.If(ir.Compare("gt", at(previous), at(i)),
                              [ir.Assign(direction.name, _int(0))], [])])], [
                    ir.Assign(direction.name, _int(-1)),
                    ir.ForRange(i.name, _add(first_change, _int(1)), n, _int(1), [
                        ir.If(ir.Compare("lt", at(previous), at(i)),
                              [ir.Assign(direction.name, _int(0))], [])])])], [])], []))
        return direction

    def np_histogram(self, node, what):
        """(counts, bin edges), as Numba's: `bins` equal bins over `range` (by default the
        least and greatest element), a value at the top edge in the last bin, values
        outside and NaNs left out; or the bins of an increasing array of edges."""
        a = self.args(node, what, ("a", "bins", "range"))
        lo, arrays = self.lo, self.arrays
        values = lo.operand(a["a"])
        if not is_array(values) or T.is_complex(dtype_of(values)):
            raise lo.error(node, f"{what}() takes an array of real numbers")
        e = arrays.leaf(node, values)
        dims = arrays.extents(e)
        bins = lo.operand(a["bins"]) if a["bins"] is not None else _int(10)
        if is_array(bins):
            return self.histogram_of_edges(node, what, e, dims, bins)
        if not T.is_integer(bins.type):
            raise lo.error(node, f"{what}'s bins must be an integer or an array of edges")
        count = arrays.bind("bins", lo.cast(bins, "int64"))
        t = "float64"
        if a["range"] is None or _is_none(a["range"]):
            low = arrays.bind("low", ir.Const(math.inf, t))
            high = arrays.bind("high", ir.Const(-math.inf, t))
            lo.prelude.extend(arrays.loops(e, dims, lambda x, _: [
                ir.If(ir.Compare("gt", low, lo.cast(x, t)), [ir.Assign(low.name, lo.cast(x, t))], []),
                ir.If(ir.Compare("lt", high, lo.cast(x, t)), [ir.Assign(high.name, lo.cast(x, t))], [])]))
        else:
            bounds = lo.expr(a["range"])
            if not isinstance(bounds.type, T.TupleType) or len(bounds.type.items) != 2 \
                    or not all(T.kind(x) in "bif" for x in bounds.type.items):
                raise lo.error(node, f"{what}'s range must be a tuple of two numbers")
            held = lo.held(node, bounds)
            low = arrays.bind("low", lo.cast(ir.TupleGet(held, 0, bounds.type.items[0]), t))
            high = arrays.bind("high", lo.cast(ir.TupleGet(held, 1, bounds.type.items[1]), t))
        # Numba checks these after finding the range (so no numbers at all is a bad range)
        lo.prelude.append(ir.If(ir.Compare("le", count, _int(0)), [ir.Raise(_HISTOGRAM_BINS)], []))
        lo.prelude.append(ir.If(ir.Compare("le", low, high), [], [ir.Raise(_HISTOGRAM_RANGE)]))
        counts = arrays.new(node, [count], "int64", "zeros")
        ratio = arrays.bind("ratio", ir.Const(0.0, t))
        lo.prelude.append(ir.Assign(ratio.name, ir.Call("divide", [
            lo.cast(count, t), ir.Binary("subtract", high, low, t)], t)))
        top = ir.Binary("subtract", count, _int(1), "int64")

        def tally(x, _):
            v = ir.Var(arrays.temp("value", t), t)
            b = ir.Var(arrays.temp("bin", t), t)
            inside = ir.Select(ir.Compare("le", ir.Const(0.0, t), b),
                               ir.Compare("lt", b, lo.cast(count, t)), ir.Const(False, "bool"), "bool")

            def add_at(k):
                return ir.Store(counts, [k], _add(ir.Load(counts, [k], "int64", True), _int(1)), True)

            return [ir.Assign(v.name, lo.cast(x, t)),
                    ir.Assign(b.name, ir.Call("floor", [ir.Binary(
                        "multiply", ir.Binary("subtract", v, low, t), ratio, t)], t)),
                    ir.If(inside, [add_at(lo.cast(b, "int64"))],
                          [ir.If(ir.Compare("eq", v, high), [add_at(top)], [])])]

        lo.prelude.append(ir.If(ir.Compare("gt", high, low), arrays.loops(e, dims, tally), []))
        edges = lo.numpy_calls.linspace_of(node, low, high, _add(count, _int(1)), t)
        return ir.MakeTuple([counts, edges], T.TupleType((counts.type, edges.type)))

    def histogram_of_edges(self, node, what, e, dims, bins):
        lo, arrays = self.lo, self.arrays
        edges = self.variable(node, bins)
        if edges.type.ndim != 1 or T.is_complex(edges.type.dtype):
            raise lo.error(node, f"{what}'s bins must be a 1-d array of real numbers")
        t = T.promote(e.dtype, edges.type.dtype)
        count = arrays.bind("bins", ir.Binary("subtract", ir.Shape(edges, 0), _int(1), "int64"))
        i = ir.Var(arrays.temp("i", "int64"), "int64")

        def edge(k):
            return lo.cast(ir.Load(edges, [k], edges.type.dtype, True), t)

        lo.prelude.append(ir.ForRange(i.name, _int(0), count, _int(1), [
            ir.If(ir.Compare("le", edge(i), edge(_add(i, _int(1)))), [],
                  [ir.Raise(_HISTOGRAM_EDGES)])]))
        counts = arrays.new(node, [count], "int64", "zeros")
        low_bin = ir.Var(arrays.temp("low", "int64"), "int64")
        high_bin = ir.Var(arrays.temp("high", "int64"), "int64")
        mid = ir.Var(arrays.temp("mid", "int64"), "int64")

        def tally(x, _):
            v = ir.Var(arrays.temp("value", t), t)
            inside = ir.Select(ir.Compare("le", edge(_int(0)), v),
                               ir.Compare("le", v, edge(count)), ir.Const(False, "bool"), "bool")
            return [ir.Assign(v.name, lo.cast(x, t)), ir.If(inside, [
                ir.Assign(low_bin.name, _int(0)),
                ir.Assign(high_bin.name, ir.Binary("subtract", count, _int(1), "int64")),
                ir.While(ir.Compare("lt", low_bin, high_bin), [
                    ir.Assign(mid.name, ir.Binary("right_shift", _add(_add(low_bin, high_bin), _int(1)),
                                                  _int(1), "int64")),
                    ir.If(ir.Compare("lt", v, edge(mid)),
                          [ir.Assign(high_bin.name, ir.Binary("subtract", mid, _int(1), "int64"))],
                          [ir.Assign(low_bin.name, mid)])]),
                ir.Store(counts, [low_bin], _add(ir.Load(counts, [low_bin], "int64", True), _int(1)),
                         True)], [])]

        lo.prelude.append(ir.If(ir.Compare("gt", count, _int(0)), arrays.loops(e, dims, tally), []))
        return ir.MakeTuple([counts, edges], T.TupleType((counts.type, edges.type)))

    def np_percentile(self, node, what, factor=1.0, skip_nan=False):
        """Numba's percentiles of all elements (float64): linear between the closest ranks
        of the sorted numbers, its rules at 0 and 100 for infinities, NaN where a NaN is
        present (unless skipped) or no number is; a number for a number q, else a 1-d
        array of q's values in C order."""
        a = self.args(node, what, ("a", "q"), 2)
        lo, arrays = self.lo, self.arrays
        value = self.array(node, what, a["a"])
        if T.is_complex(dtype_of(value)):
            raise lo.error(node, f"{what}() of complex numbers is not supported")
        t = "float64"
        flat = arrays.flattened(node, arrays.converted(node, value, t), copy=True)
        ordered = arrays.sorted(node, flat)  # NaNs last
        size = arrays.bind("size", ir.Shape(ordered, 0))
        n = arrays.bind("count", size)  # the numbers before the NaNs
        lo.prelude.append(ir.While(ir.Select(
            ir.Compare("gt", n, _int(0)),
            _is_nan(ir.Load(ordered, [ir.Binary("subtract", n, _int(1), "int64")], t, True)),
            ir.Const(False, "bool"), "bool"), [ir.Assign(n.name, ir.Binary("subtract", n, _int(1), "int64"))]))
        positive = arrays.bind("positive", _int(0))  # infinities among the numbers
        negative = arrays.bind("negative", _int(0))
        i = ir.Var(arrays.temp("i", "int64"), "int64")
        item = ir.Load(ordered, [i], t, True)
        lo.prelude.append(ir.ForRange(i.name, _int(0), n, _int(1), [
            ir.If(ir.Compare("eq", item, ir.Const(math.inf, t)),
                  [ir.Assign(positive.name, _add(positive, _int(1)))], []),
            ir.If(ir.Compare("eq", item, ir.Const(-math.inf, t)),
                  [ir.Assign(negative.name, _add(negative, _int(1)))], [])]))
        finite = arrays.bind("finite", ir.Binary("subtract", n, _add(positive, negative), "int64"))
        usable = ir.Compare("gt", n, _int(0))
        if not skip_nan:
            usable = ir.Select(ir.Compare("eq", n, size), usable, ir.Const(False, "bool"), "bool")
        # one number: usable when finite
        usable = arrays.bind("usable", ir.Select(ir.Compare("eq", n, _int(1)),
                                                 ir.Compare("eq", finite, _int(1)), usable, "bool"))
        upper_bound = 100.0 if factor == 1.0 else 1.0
        invalid = _PERCENTILES if factor == 1.0 else _QUANTILES

        def nan():
            return ir.Const(math.nan, t)

        def at(k):
            return ir.Load(ordered, [k], t, True)

        def percentile_of(q):
            q = lo.cast(q, t)
            result = ir.Var(arrays.temp("percentile", t), t)
            p = ir.Var(arrays.temp("p", t), t)
            rank = ir.Var(arrays.temp("rank", t), t)
            whole = ir.Var(arrays.temp("floor", t), t)
            k = ir.Binary("subtract", lo.cast(whole, "int64"), _int(1), "int64")
            m = ir.Binary("subtract", rank, whole, t)
            bad_q = ir.Select(_is_nan(q), ir.Const(True, "bool"), ir.Select(
                ir.Compare("lt", q, ir.Const(0.0, t)), ir.Const(True, "bool"),
                ir.Compare("gt", q, ir.Const(upper_bound, t)), "bool"), "bool")
            not_all_finite = ir.Compare("ne", finite, n)
            largest = [ir.Assign(result.name, at(ir.Binary("subtract", n, _int(1), "int64"))),
                       ir.If(ir.Select(not_all_finite, _is_inf(result), ir.Const(False, "bool"), "bool"),
                             [ir.Assign(result.name, nan())], [])]
            some_finite_one = ir.Compare("eq", finite, _int(1))
            smallest = [ir.Assign(result.name, at(_int(0))), ir.If(not_all_finite, [
                ir.If(ir.Compare("eq", finite, _int(0)), [ir.Assign(result.name, nan())], []),
                ir.If(ir.Select(ir.Compare("eq", positive, _int(1)), ir.Compare("eq", n, _int(2)),
                                ir.Const(False, "bool"), "bool"), [ir.Assign(result.name, nan())], []),
                ir.If(ir.Compare("gt", negative, _int(1)), [ir.Assign(result.name, nan())], []),
                ir.If(ir.Select(some_finite_one, ir.Select(
                    ir.Compare("gt", positive, _int(1)), ir.Compare("ne", negative, _int(1)),
                    ir.Const(False, "bool"), "bool"), ir.Const(False, "bool"), "bool"),
                    [ir.Assign(result.name, nan())], [])], [])]
            between = [
                ir.Assign(rank.name, ir.Binary("add", ir.Const(1.0, t), ir.Binary(
                    "multiply", lo.cast(ir.Binary("subtract", n, _int(1), "int64"), t),
                    ir.Binary("divide", p, ir.Const(100.0, t), t), t), t)),
                ir.Assign(whole.name, ir.Call("floor", [rank], t)),
                ir.Assign(result.name, ir.Binary("add", ir.Binary(
                    "multiply", at(k), ir.Binary("subtract", ir.Const(1.0, t), m, t), t),
                    ir.Binary("multiply", at(_add(k, _int(1))), m, t), t))]
            return result, [
                ir.If(bad_q, [ir.Raise(invalid)], []),
                ir.Assign(p.name, ir.Binary("multiply", q, ir.Const(100.0 / upper_bound, t), t)),
                ir.If(usable, [ir.If(ir.Compare("eq", n, _int(1)), [ir.Assign(result.name, at(_int(0)))], [
                    ir.If(ir.Compare("eq", p, ir.Const(100.0, t)), largest, [
                        ir.If(ir.Compare("eq", p, ir.Const(0.0, t)), smallest, between)])])],
                    [ir.Assign(result.name, nan())])]

        q = lo.operand(a["q"])
        if is_array(q):
            q = arrays.flattened(node, q, copy=False)
        return self.each_value(node, q, t, percentile_of)

    def np_quantile(self, node, what):
        return self.np_percentile(node, what, factor=100.0)

    def np_nanpercentile(self, node, what):
        return self.np_percentile(node, what, skip_nan=True)

    def np_nanquantile(self, node, what):
        return self.np_percentile(node, what, factor=100.0, skip_nan=True)

    # --- new shapes and orders --------------------------------------------------------------

    def new_axes(self, node, x, positions):
        """The view of x with an axis of extent 1 at each of the result's `positions`."""
        t = x.type
        ndim = t.ndim + len(positions)
        items = [("newaxis",) if k in positions else ("slice", None, None, None)
                 for k in range(ndim)]
        layout = t.layout if t.layout == "C" else "A"
        return ir.View(x, items, T.ArrayType(t.dtype, ndim, layout, t.readonly))

    def np_expand_dims(self, node, what):
        a = self.args(node, what, ("a", "axis"), 2)
        x = self.variable(node, self.array(node, what, a["a"]))
        axis = self.lo.constant_int(a["axis"])
        ndim = x.type.ndim + 1
        if axis is None or not -ndim <= axis < ndim:
            raise self.lo.error(node, f"{what}'s axis must be a constant integer in "
                                      f"[-{ndim}, {ndim})")
        return self.new_axes(node, x, {axis % ndim})

    def atleast(self, node, what, dims):
        """np.atleast_Nd: 0-d and 1-d arrays (and numbers) get NumPy's new axes: a vector
        becomes (1, n), (1, n, 1); a matrix (m, n, 1)."""
        a = self.args(node, what, ("a",))
        value = self.lo.operand(a["a"])
        if not is_array(value):
            value = self.np_array_of_number(node, value)
        x = self.variable(node, value)
        n = x.type.ndim
        if n >= dims:
            return x
        places = {(1, 0): {0}, (2, 0): {0, 1}, (2, 1): {0}, (3, 0): {0, 1, 2},
                  (3, 1): {0, 2}, (3, 2): {2}}[dims, n]
        return self.new_axes(node, x, places)

    def np_array_of_number(self, node, value):
        if not T.is_scalar(value.type):
            raise self.lo.error(node, f"an array or a number, not a {value.type}")
        out = self.arrays.new(node, [_int(1)], value.type)
        self.lo.prelude.append(ir.Store(out, [_int(0)], value, True))
        return out

    def np_atleast_1d(self, node, what):
        return self.atleast(node, what, 1)

    def np_atleast_2d(self, node, what):
        return self.atleast(node, what, 2)

    def np_atleast_3d(self, node, what):
        return self.atleast(node, what, 3)

    def np_swapaxes(self, node, what):
        a = self.args(node, what, ("a", "axis1", "axis2"), 3)
        x = self.variable(node, self.array(node, what, a["a"]))
        n = x.type.ndim
        first, second = (self.lo.constant_int(a[k]) for k in ("axis1", "axis2"))
        if first is None or second is None or not (-n <= first < n and -n <= second < n):
            raise self.lo.error(node, f"{what}'s axes must be constant integers in [-{n}, {n})")
        axes = list(range(n))
        axes[first % n], axes[second % n] = axes[second % n], axes[first % n]
        t = x.type
        return ir.Transpose(x, T.ArrayType(t.dtype, n, "A", t.readonly), tuple(axes))

    def flat_of(self, node, value):
        """The elements of an array in C order, as a 1-d array (a view where it can be)."""
        return self.arrays.flattened(node, value, copy=False)

    def np_roll(self, node, what):
        """The elements shifted by `shift` places along the flattened array, wrapping
        around, in a's shape (Numba's, which takes no axis)."""
        a = self.args(node, what, ("a", "shift"), 2)
        lo, arrays = self.lo, self.arrays
        value = self.array(node, what, a["a"])
        x = self.variable(node, value)
        flat = self.flat_of(node, x)
        shift = arrays.scalar(self.integer(node, a["shift"], f"{what}'s shift"))
        n = arrays.bind("size", ir.Shape(flat, 0))
        # (i - shift) mod n, in [0, n) whatever the signs (n > 0 wherever it is read)
        start = arrays.bind("start", ir.Select(
            ir.Compare("gt", n, _int(0)),
            ir.Binary("remainder", ir.Unary("neg", shift, "int64"), n, "int64"), _int(0), "int64"))
        t = x.type.dtype
        rolled = arrays.filled(node, [n], t, lambda i: ir.Load(flat, [ir.Binary(
            "remainder", _add(i[0], start), n, "int64")], t, True))
        return arrays.reshape(node, rolled, [ir.Shape(x, k) for k in range(x.type.ndim)])

    def np_repeat(self, node, what):
        """Each element of the flattened array `repeats` times (a non-negative integer), in
        a new 1-d array."""
        a = self.args(node, what, ("a", "repeats"), 2)
        lo, arrays = self.lo, self.arrays
        flat = self.flat_of(node, self.variable(node, self.array(node, what, a["a"])))
        repeats = arrays.scalar(self.integer(node, a["repeats"], f"{what}'s repeats"))
        lo.prelude.append(ir.If(ir.Compare("lt", repeats, _int(0)), [ir.Raise(2)], []))
        t = flat.type.dtype
        size = ir.Binary("multiply", ir.Shape(flat, 0), repeats, "int64")
        return arrays.filled(node, [size], t, lambda i: ir.Load(
            flat, [ir.Binary("floor_divide", i[0], repeats, "int64")], t, True))

    def np_take(self, node, what):
        """a.flat[indices]: an element for an integer index, else a new array of the
        indices' shape; negative indices count from the end; IndexError outside."""
        a = self.args(node, what, ("a", "indices"), 2)
        lo, arrays = self.lo, self.arrays
        flat = self.flat_of(node, self.variable(node, self.array(node, what, a["a"])))
        n = arrays.bind("size", ir.Shape(flat, 0))
        t = flat.type.dtype

        def element_at(k):
            k = lo.cast(k, "int64")
            held = ir.Var(arrays.temp("index", "int64"), "int64")
            result = ir.Var(arrays.temp("taken", t), t)
            return result, [
                ir.Assign(held.name, k),
                ir.If(ir.Compare("lt", held, _int(0)), [ir.Assign(held.name, _add(held, n))], []),
                ir.If(ir.Select(ir.Compare("lt", held, _int(0)), ir.Const(True, "bool"),
                                ir.Compare("ge", held, n), "bool"), [ir.Raise(20)], []),
                ir.Assign(result.name, ir.Load(flat, [held], t, True))]

        indices = lo.operand(a["indices"])
        if not T.is_integer(dtype_of(indices)):
            raise lo.error(node, f"{what}'s indices must be integers, not {dtype_of(indices)}")
        return self.each_value(node, indices, t, element_at)

    def np_append(self, node, what):
        """arr and values, each flattened, one after the other in a new 1-d array of their
        promoted dtype (np.append without an axis)."""
        a = self.args(node, what, ("arr", "values"), 2)
        lo, arrays = self.lo, self.arrays
        parts = []
        for key in ("arr", "values"):
            value = lo.operand(a[key])
            if not is_array(value):
                value = self.np_array_of_number(node, value)
            parts.append(self.flat_of(node, self.variable(node, value)))
        t = T.promote(parts[0].type.dtype, parts[1].type.dtype)
        first = arrays.bind("size", ir.Shape(parts[0], 0))
        out = arrays.new(node, [_add(first, ir.Shape(parts[1], 0))], t)
        i = ir.Var(arrays.temp("i", "int64"), "int64")
        lo.prelude.append(ir.ForRange(i.name, _int(0), first, _int(1), [
            ir.Store(out, [i], lo.cast(ir.Load(parts[0], [i], parts[0].type.dtype, True), t), True)]))
        lo.prelude.append(ir.ForRange(i.name, _int(0), ir.Shape(parts[1], 0), _int(1), [
            ir.Store(out, [_add(i, first)],
                     lo.cast(ir.Load(parts[1], [i], parts[1].type.dtype, True), t), True)]))
        return out

    def np_vdot(self, node, what):
        """The dot product of the flattened arrays, the first conjugated (by tessera's
        matmul, as np.dot of vectors)."""
        a = self.args(node, what, ("a", "b"), 2)
        lo, arrays = self.lo, self.arrays
        x, y = (self.array(node, what, a[k]) for k in ("a", "b"))
        if T.is_complex(dtype_of(x)):
            x = arrays.ufunc(node, np.conjugate, [x])
        x, y = (self.flat_of(node, self.variable(node, v)) for v in (x, y))
        return arrays.matmul(node, x, y)

    def np_logspace(self, node, what):
        """base ** np.linspace(start, stop, num) (base 10)."""
        a = self.args(node, what, ("start", "stop", "num"), 2)
        lo, arrays = self.lo, self.arrays
        start, stop = (arrays.scalar(lo.cast(lo.numpy_calls.number(node, a[k], f"{what}'s {k}"),
                                             "float64")) for k in ("start", "stop"))
        num = (arrays.scalar(lo.cast(lo.numpy_calls.integer(node, a["num"], f"{what}'s num"), "int64"))
               if a["num"] is not None else _int(50))
        exponents = lo.numpy_calls.linspace_of(node, start, stop, num, "float64")
        return arrays.ufunc(node, np.power, [ir.Const(10.0, "float64"), exponents])

    def np_tri(self, node, what):
        a = self.args(node, what, ("N", "M", "k", "dtype"))
        n = self.integer(node, a["N"], f"{what}'s N")
        m = n if a["M"] is None or _is_none(a["M"]) else self.integer(node, a["M"], f"{what}'s M")
        k = self.arrays.scalar(self.integer(node, a["k"], f"{what}'s k"))
        t = self.dtype(node, a["dtype"], "float64")
        return self.arrays.filled(node, [n, m], t, lambda i: ir.Select(
            ir.Compare("le", ir.Binary("subtract", i[1], i[0], "int64"), k),
            _number(1, t), _number(0, t), t))

    # --- methods ----------------------------------------------------------------------------

    def fill(self, node, array, args):
        """a.fill(x): every element x (converted as assignment converts)."""
        lo = self.lo
        if len(args) != 1:
            raise lo.error(node, ".fill() takes one number")
        value = lo.expr(args[0])
        if not T.is_scalar(value.type):
            raise lo.error(node, f".fill() takes a number, not a {value.type}")
        view = self.variable(node, array)
        lo.prelude.append(lo.assign_array(node, view, value))
        return ir.Const(0, "int64")

    def item(self, node, array, args):
        """a.item(): the one element of an array of size 1 (ValueError otherwise)."""
        lo, arrays = self.lo, self.arrays
        if args:
            raise lo.error(node, ".item() takes no arguments here")
        x = self.variable(node, array)
        size = arrays.size([ir.Shape(x, k) for k in range(x.type.ndim)])
        lo.prelude.append(ir.If(ir.Compare("ne", size, _int(1)), [ir.Raise(_ITEM_SIZE)], []))
        return arrays.bind("item", ir.Load(x, [_int(0)] * x.type.ndim, x.type.dtype, True))


def _offsets(k):
    """The row and column offsets of the k-th diagonal: (-k, 0) below, (0, k) above."""
    zero = _int(0)
    below = ir.Select(ir.Compare("lt", k, zero), ir.Unary("neg", k, "int64"), zero, "int64")
    above = ir.Select(ir.Compare("gt", k, zero), k, zero, "int64")
    return below, above


def _is_none(node):
    return isinstance(node, ast.Constant) and node.value is None


def _nested(node):
    """The items of a (nested) list or tuple literal in C order and its shape, or None when
    the lengths differ at a depth."""
    if not isinstance(node, (ast.List, ast.Tuple)):
        return [node], []
    parts = [_nested(e) for e in node.elts]
    if any(p is None for p in parts):
        return None
    shapes = {tuple(p[1]) for p in parts}
    if len(shapes) > 1:
        return None
    inner = list(shapes.pop()) if shapes else []
    return [item for p in parts for item in p[0]], [len(node.elts)] + inner
