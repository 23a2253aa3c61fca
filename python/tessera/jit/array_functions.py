"""More of NumPy inside jit functions, as Numba has it, each lowered to loops of the typed
IR: matrices made from shapes and diagonals (np.eye, np.identity, np.diag, np.trace,
np.triu, np.tril), arrays from numbers and arrays (np.array, np.asarray,
np.ascontiguousarray), views that reverse (np.flip, np.fliplr, np.flipud), counting and
finding (np.count_nonzero, np.nonzero, np.flatnonzero, np.argwhere, np.where of one
argument, np.searchsorted, np.bincount), comparing (np.isclose, np.allclose), rounding
(np.round, np.around, np.round_), the NaN-skipping reductions (np.nansum, np.nanprod,
np.nanmean, np.nanvar, np.nanstd, np.nanmin, np.nanmax), np.interp, and the methods
a.fill(x) and a.item()."""

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
             "nanmin", "nanmax", "interp")

# The runtime's Raise codes (src/jit/python_raise.h).
_INTERP_EMPTY, _INTERP_SIZES, _BINCOUNT_NEGATIVE, _ITEM_SIZE = 30, 31, 32, 33


def _int(value):
    return ir.Const(value, "int64")


def _number(value, t):
    return ir.Const(complex(value) if T.is_complex(t) else value, t)


def _add(a, b):
    return ir.Binary("add", a, b, "int64")


def _is_nan(x):
    return ir.Compare("ne", x, x)


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
        lo, arrays = self.lo, self.arrays
        sorted_ = self.variable(node, self.array(node, what, a["a"]))
        if sorted_.type.ndim != 1:
            raise lo.error(node, f"{what}() takes a 1-d sorted array")
        side = "left"
        if a["side"] is not None:
            if not (isinstance(a["side"], ast.Constant) and a["side"].value in ("left", "right")):
                raise lo.error(node, f"{what}'s side must be 'left' or 'right' (a constant)")
            side = a["side"].value
        values = lo.operand(a["v"])
        t = T.promote(sorted_.type.dtype, dtype_of(values))
        n = arrays.bind("dim", ir.Shape(sorted_, 0))

        def before(x, v):
            """Whether x sorts before v (left), or not after it (right), NaNs last."""
            if side == "left":
                less = ir.Compare("lt", x, v)
                if not T.is_float(t):
                    return less
                return ir.Select(less, ir.Const(True, "bool"), ir.Select(
                    _is_nan(v), ir.Compare("eq", x, x), ir.Const(False, "bool"), "bool"), "bool")
            not_after = ir.Compare("le", x, v)
            if not T.is_float(t):
                return not_after
            return ir.Select(not_after, ir.Const(True, "bool"), _is_nan(v), "bool")

        def search(v):
            low = ir.Var(arrays.temp("low", "int64"), "int64")
            high = ir.Var(arrays.temp("high", "int64"), "int64")
            mid = ir.Var(arrays.temp("mid", "int64"), "int64")
            item = lo.cast(ir.Load(sorted_, [mid], sorted_.type.dtype, True), t)
            return low, [
                ir.Assign(low.name, _int(0)), ir.Assign(high.name, n),
                ir.While(ir.Compare("lt", low, high), [
                    ir.Assign(mid.name, ir.Binary("floor_divide", _add(low, high), _int(2), "int64")),
                    ir.If(before(item, lo.cast(v, t)),
                          [ir.Assign(low.name, _add(mid, _int(1)))],
                          [ir.Assign(high.name, mid)])])]

        if not is_array(values):
            v = arrays.scalar(values)
            position, statements = search(v)
            lo.prelude.extend(statements)
            return position
        e = arrays.leaf(node, values)
        dims = arrays.extents(e)
        out = arrays.new(node, dims, "int64")

        def place(x, indices):
            held = ir.Var(arrays.temp("value", e.dtype), e.dtype)
            position, statements = search(held)
            return [ir.Assign(held.name, x)] + statements + [
                ir.Store(out, list(indices), position, True)]

        lo.prelude.extend(arrays.loops(e, dims, place))
        return out

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
