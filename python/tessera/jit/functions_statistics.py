"""NumPy's functions that compare, round and summarize inside jit functions, as Numba
has them: np.isclose, np.allclose, np.round/np.around/np.round_, the NaN-skipping
reductions (np.nansum, np.nanprod, np.nanmean, np.nanvar, np.nanstd, np.nanmin,
np.nanmax), np.interp, np.percentile, np.quantile, np.nanpercentile, np.nanquantile and
np.vdot."""

import ast
import math

import numpy as np

from . import ir
from . import types as T
from .array_exprs import ArrayExpr, dtype_of, is_array, squared_magnitude
from .functions_base import (add_int as _add, FunctionLowering, int_const as _int,
                             INTERP_EMPTY as _INTERP_EMPTY, INTERP_SIZES as _INTERP_SIZES,
                             is_inf as _is_inf, is_nan as _is_nan, is_none as _is_none,
                             number_const as _number, PERCENTILES as _PERCENTILES,
                             QUANTILES as _QUANTILES)


class StatisticsFunctions(FunctionLowering):
    """Lowerings of the functions that compare, round and summarize."""

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
            square = squared_magnitude(ir.Binary("subtract", lo.cast(x, t), mean, t), t)
            return [ir.If(_is_nan(x), [], [
                ir.Assign(squares.name, ir.Binary("add", squares, square, real))])]

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

        def interpolated(v):
            held = ir.Var(arrays.temp("x", t), t)
            result, statements = value_at(held)
            return result, [ir.Assign(held.name, lo.cast(v, t))] + statements

        return self.each_value(node, lo.operand(a["x"]), t, interpolated)

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

    def np_vdot(self, node, what):
        """The dot product of the flattened arrays, the first conjugated (by tessera's
        matmul, as np.dot of vectors)."""
        a = self.args(node, what, ("a", "b"), 2)
        arrays = self.arrays
        x, y = (self.array(node, what, a[k]) for k in ("a", "b"))
        if T.is_complex(dtype_of(x)):
            x = arrays.ufunc(node, np.conjugate, [x])
        x, y = (self.flat_of(node, self.variable(node, v)) for v in (x, y))
        return arrays.matmul(node, x, y)
