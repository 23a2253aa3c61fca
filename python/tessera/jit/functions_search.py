"""NumPy's functions that count, find and bin inside jit functions, as Numba has them:
np.count_nonzero, np.nonzero, np.flatnonzero, np.argwhere, np.where of one argument,
np.searchsorted, np.bincount, np.digitize and np.histogram."""

import ast
import math

from . import ir
from . import types as T
from .array_exprs import dtype_of, is_array
from .functions_base import (add_int as _add, BINCOUNT_NEGATIVE as _BINCOUNT_NEGATIVE,
                             DIGITIZE_BINS as _DIGITIZE_BINS, FunctionLowering,
                             HISTOGRAM_BINS as _HISTOGRAM_BINS,
                             HISTOGRAM_EDGES as _HISTOGRAM_EDGES,
                             HISTOGRAM_RANGE as _HISTOGRAM_RANGE, int_const as _int,
                             is_nan as _is_nan, is_none as _is_none, number_const as _number)


class SearchFunctions(FunctionLowering):
    """Lowerings of the functions that count, find and bin."""

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
