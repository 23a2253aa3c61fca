"""NumPy's products of vectors and matrices inside jit functions, as Numba has them:
np.kron, np.cross, np.convolve and np.correlate, each lowered to loops of the typed IR."""

from . import ir
from . import types as T
from .array_exprs import dtype_of
from .functions_base import (add_int as _add, CONVOLVE_A_EMPTY as _A_EMPTY,
                             CONVOLVE_V_EMPTY as _V_EMPTY, CROSS_DIMENSIONS as _CROSS_DIMENSIONS,
                             CROSS_OF_2D as _CROSS_OF_2D, FunctionLowering, int_const as _int)


def _sub(a, b):
    return ir.Binary("subtract", a, b, "int64")


def _mul(a, b):
    return ir.Binary("multiply", a, b, "int64")


def _select(cond, a, b):
    return ir.Select(cond, a, b, "int64")


def _load(array, indices):
    return ir.Load(array, indices, array.type.dtype, True)


class ProductFunctions(FunctionLowering):
    """Lowerings of the products of vectors and matrices."""

    def operands(self, node, what, names, ndims):
        """The two array arguments `names` as variables of the allowed dimensions, and
        their promoted dtype."""
        a = self.args(node, what, names, 2)
        values = [self.variable(node, self.array(node, what, a[k])) for k in names]
        for name, v in zip(names, values):
            if v.type.ndim not in ndims:
                allowed = " or ".join(f"{n}-d" for n in ndims)
                raise self.lo.error(node, f"{what}()'s {name} must be a {allowed} array, not a "
                                          f"{v.type.ndim}-d one")
            if T.kind(v.type.dtype) == "b":
                raise self.lo.error(node, f"{what}() takes numbers, not booleans")
        return values, T.promote(dtype_of(values[0]), dtype_of(values[1]))

    def product(self, x, y, t):
        return ir.Binary("multiply", self.lo.cast(x, t), self.lo.cast(y, t), t)

    def np_kron(self, node, what):
        """The Kronecker product of 1-d and 2-d arrays (the one of fewer dimensions read as
        a row): element (i, j) is a[i // rows_b, j // cols_b] * b[i % rows_b, j % cols_b]."""
        (a, b), t = self.operands(node, what, ("a", "b"), (1, 2))
        arrays = self.arrays
        ndim = max(a.type.ndim, b.type.ndim)

        def extents(v):  # v's extents, padded in front with ones to `ndim`
            return [_int(1)] * (ndim - v.type.ndim) + [
                arrays.bind("dim", ir.Shape(v, k)) for k in range(v.type.ndim)]

        ea, eb = extents(a), extents(b)

        def element(indices):
            ia = [ir.Binary("floor_divide", i, e, "int64") for i, e in zip(indices, eb)]
            ib = [ir.Binary("remainder", i, e, "int64") for i, e in zip(indices, eb)]
            return self.product(_load(a, ia[ndim - a.type.ndim:]),
                                _load(b, ib[ndim - b.type.ndim:]), t)

        return arrays.filled(node, [_mul(x, y) for x, y in zip(ea, eb)], t, element)

    def np_cross(self, node, what):
        """The cross product of 3-element vectors along the last axis of 1-d and 2-d
        arrays, their rows broadcast: out[..., c] = a[c+1] b[c+2] - a[c+2] b[c+1] (indices
        mod 3)."""
        (a, b), t = self.operands(node, what, ("a", "b"), (1, 2))
        lo, arrays = self.lo, self.arrays
        last = [arrays.bind("dim", ir.Shape(v, v.type.ndim - 1)) for v in (a, b)]
        three, two = _int(3), _int(2)

        def is_(x, n):
            return ir.Compare("eq", x, n)

        def either(x, y):
            return ir.Select(x, ir.Const(True, "bool"), y, "bool")

        def both(x, y):
            return ir.Select(x, y, ir.Const(False, "bool"), "bool")

        lo.prelude.append(ir.If(
            either(ir.Unary("not", either(is_(last[0], three), is_(last[0], two)), "bool"),
                   ir.Unary("not", either(is_(last[1], three), is_(last[1], two)), "bool")),
            [ir.Raise(_CROSS_DIMENSIONS)], []))
        lo.prelude.append(ir.If(ir.Unary("not", both(is_(last[0], three), is_(last[1], three)),
                                         "bool"), [ir.Raise(_CROSS_OF_2D)], []))
        if max(a.type.ndim, b.type.ndim) == 1:
            dims, rows = [three], None
        else:
            row_extents = [ir.Shape(v, 0) for v in (a, b) if v.type.ndim == 2]
            rows = arrays.bind("dim", row_extents[0] if len(row_extents) == 1
                               else ir.Broadcast(*row_extents))
            dims = [rows, three]
        # A 2-d operand of one row is read at row 0 for every row of the result.
        stretch = {v.name: arrays.bind("stretch", ir.Cast(ir.Compare(
            "ne", ir.Shape(v, 0), _int(1)), "int64")) for v in (a, b) if v.type.ndim == 2}

        def element(indices):
            c = indices[-1]

            def at(v, shift):
                column = ir.Binary("remainder", _add(c, _int(shift)), three, "int64")
                if v.type.ndim == 1:
                    return _load(v, [column])
                return _load(v, [_mul(indices[0], stretch[v.name]), column])

            return ir.Binary("subtract", self.product(at(a, 1), at(b, 2), t),
                             self.product(at(a, 2), at(b, 1), t), t)

        return arrays.filled(node, dims, t, element)

    def sum_of_products(self, t, count, first, second):
        """Statements summing first(k) * second(k) for k in [0, count) into a new
        accumulator (from zero, in order, as Numba's inner product); its Var."""
        arrays = self.arrays
        total = ir.Var(arrays.temp("total", t), t)
        k = ir.Var(arrays.temp("k", "int64"), "int64")
        return total, [
            ir.Assign(total.name, ir.Const(complex(0) if T.is_complex(t) else 0, t)),
            ir.ForRange(k.name, _int(0), count, _int(1), [ir.Assign(total.name, ir.Binary(
                "add", total, self.product(first(k), second(k), t), t))])]

    def sliding(self, node, a, v, length, element_of):
        """A new 1-d array of `length` whose element m is element_of(m, t, a_longer) ->
        (Var, statements), computed in two loops, one for each operand being the longer
        (Numba's order of the terms depends on it); after NumPy's checks that neither
        operand is empty."""
        lo, arrays = self.lo, self.arrays
        for operand, code in ((a, _A_EMPTY), (v, _V_EMPTY)):
            lo.prelude.append(ir.If(ir.Compare("eq", ir.Shape(operand, 0), _int(0)),
                                    [ir.Raise(code)], []))
        t = T.promote(dtype_of(a), dtype_of(v))
        out = arrays.new(node, [length], t)

        def loop(a_longer):
            m = ir.Var(arrays.temp("m", "int64"), "int64")
            value, statements = element_of(m, t, a_longer)
            return ir.ForRange(m.name, _int(0), ir.Shape(out, 0), _int(1), statements + [
                ir.Store(out, [m], value, True)])

        lo.prelude.append(ir.If(ir.Compare("ge", ir.Shape(a, 0), ir.Shape(v, 0)),
                                [loop(True)], [loop(False)]))
        return out

    def np_convolve(self, node, what):
        """The full discrete convolution of two 1-d arrays (Numba's mode, its default
        'full'): out[m] is the sum over j of x[j] * y[m - j], j ascending, where x is the
        longer operand and y the other (Numba's order)."""
        (a, v), _ = self.operands(node, what, ("a", "v"), (1,))
        arrays = self.arrays
        la, lv = (arrays.bind("dim", ir.Shape(u, 0)) for u in (a, v))

        def element_of(m, t, a_longer):
            (x, lx), (y, ly) = ((a, la), (v, lv)) if a_longer else ((v, lv), (a, la))
            low = ir.Var(arrays.temp("low", "int64"), "int64")
            first = _sub(m, _sub(ly, _int(1)))  # m - (ly - 1)
            start = [ir.Assign(low.name, _select(ir.Compare("gt", first, _int(0)), first,
                                                 _int(0)))]
            high = _select(ir.Compare("lt", m, _sub(lx, _int(1))), m, _sub(lx, _int(1)))
            total, statements = self.sum_of_products(
                t, _add(_sub(high, low), _int(1)), lambda k: _load(x, [_add(low, k)]),
                lambda k: _load(y, [_sub(m, _add(low, k))]))
            return total, start + statements

        return self.sliding(node, a, v, _sub(_add(la, lv), _int(1)), element_of)

    def np_correlate(self, node, what):
        """The 'valid' cross-correlation of two 1-d arrays (Numba's mode, its default):
        out[k] is the sum over n of a[n + k] * conj(v[n]) where a is the longer; where v
        is, Numba's order: out[k] sums conj(v[(lv - la) - k + n]) * a[n]."""
        (a, v), _ = self.operands(node, what, ("a", "v"), (1,))
        arrays = self.arrays
        la, lv = (arrays.bind("dim", ir.Shape(u, 0)) for u in (a, v))

        def conj(x):
            return ir.Call("conjugate", [x], x.type) if T.is_complex(x.type) else x

        def element_of(m, t, a_longer):
            if a_longer:
                return self.sum_of_products(t, lv, lambda k: _load(a, [_add(m, k)]),
                                            lambda k: conj(_load(v, [k])))
            gap = _sub(lv, la)
            return self.sum_of_products(t, la, lambda k: conj(_load(v, [_add(_sub(gap, m), k)])),
                                        lambda k: _load(a, [k]))

        gap = _select(ir.Compare("ge", la, lv), _sub(la, lv), _sub(lv, la))
        return self.sliding(node, a, v, _add(gap, _int(1)), element_of)
