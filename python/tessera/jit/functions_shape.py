"""NumPy's functions that make arrays of shapes and diagonals, or new shapes and orders
of arrays, inside jit functions, as Numba has them: np.eye, np.identity, np.diag, np.trace,
np.triu, np.tril, np.tri, np.logspace, np.array, np.asarray, np.ascontiguousarray, np.flip,
np.fliplr, np.flipud, np.expand_dims, np.atleast_1d/2d/3d, np.swapaxes (views), np.roll,
np.repeat, np.take, np.append, and the methods a.fill(x) and a.item()."""

import ast

import numpy as np

from . import ir
from . import types as T
from .array_exprs import ArrayExpr, dtype_of, is_array
from .functions_base import (add_int as _add, FunctionLowering, int_const as _int,
                             is_none as _is_none, ITEM_SIZE as _ITEM_SIZE,
                             number_const as _number)


class ShapeFunctions(FunctionLowering):
    """Lowerings of the functions that make and reshape arrays."""

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

    def np_roll(self, node, what):
        """The elements shifted by `shift` places along the flattened array, wrapping
        around, in a's shape (Numba's, which takes no axis)."""
        a = self.args(node, what, ("a", "shift"), 2)
        arrays = self.arrays
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
