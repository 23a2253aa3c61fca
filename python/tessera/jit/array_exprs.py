"""Whole-array expressions inside jit functions, as Numba compiles them: `a * b + 1`,
`np.sin(a)`, `a > 0`, `np.where(c, a, b)`, `a.copy()`, `a.astype(t)`, and the reductions
`sum`, `prod`, `min`, `max`, `mean`, `var`, `std`, `any`, `all`, `argmin`, `argmax`.

Nothing here needs a renderer of its own: an expression becomes loops of the typed IR the
front end already makes. Its operands stay lazy (`ArrayExpr`) until a value is needed, so
`(a - b) ** 2` is one loop that stores once, and `((a - b) ** 2).sum()` stores nothing. A
value is materialized into a new C-contiguous array (`ts_array<n>`, as Numba's results
are C-contiguous) by one loop nest over the operands broadcast together; when every
operand already has the result's shape (checked at run time) the nest reads each with its
own indices, otherwise through a 0-or-1 factor per dimension that pins stretched ones.

Types are Numba's: an operator or ufunc takes the loop NumPy would choose for the
operands' dtypes and the scalars' own types (an integer literal is int64, so an int32
array plus 1 is int64), with integers allowed to meet floats at the float's width
(types.ufunc_loop); the computation is the ufunc's functor (NumPy's semantics: no
ZeroDivisionError in an array's `/`).

Memory: a loop that makes a new array each iteration must not grow. Each materialization
site frees the array it made the last time it ran before it makes the next one, and a
variable whose every value is such a new array frees the one it held before taking the
next (`release_arrays`, once the whole function is lowered, where an alias analysis over
the IR keeps every array something may still refer to).
"""

import ast
import math
from dataclasses import dataclass

import numpy as np

from . import ir
from . import types as T

# Python operators and comparisons -> the NumPy ufunc an array operand makes them.
OPERATOR_UFUNCS = {
    ast.Add: np.add, ast.Sub: np.subtract, ast.Mult: np.multiply, ast.Div: np.true_divide,
    ast.FloorDiv: np.floor_divide, ast.Mod: np.remainder, ast.Pow: np.power,
    ast.BitAnd: np.bitwise_and, ast.BitOr: np.bitwise_or, ast.BitXor: np.bitwise_xor,
    ast.LShift: np.left_shift, ast.RShift: np.right_shift,
    ast.Lt: np.less, ast.LtE: np.less_equal, ast.Gt: np.greater, ast.GtE: np.greater_equal,
    ast.Eq: np.equal, ast.NotEq: np.not_equal,
}
UNARY_UFUNCS = {ast.USub: np.negative, ast.UAdd: np.positive, ast.Invert: np.invert}

REDUCTIONS = ("sum", "prod", "min", "max", "mean", "var", "std", "any", "all", "argmin",
              "argmax")
# np.<name>(a) -> the method it is.
NUMPY_FUNCTIONS = {**{r: r for r in REDUCTIONS}, "amin": "min", "amax": "max", "copy": "copy",
                   "reshape": "reshape", "ravel": "ravel", "cumsum": "cumsum",
                   "cumprod": "cumprod", "sort": "sorted", "argsort": "argsort",
                   "transpose": "transpose", "diff": "diff", "median": "median",
                   "unique": "unique"}
METHODS = REDUCTIONS + ("copy", "astype", "reshape", "ravel", "flatten", "cumsum", "cumprod",
                       "sort", "argsort", "transpose", "conj", "conjugate", "fill", "item")

# pyjit::Raise codes (src/jit/python_raise.h).
_EMPTY_REDUCTION = {"max": 8, "min": 9, "argmax": 10, "argmin": 11}


def _sum_type(dtype):
    """The type Numba sums and multiplies elements of `dtype` in: int64 for bools and
    signed integers, uint64 for unsigned ones, the dtype itself otherwise."""
    if T.is_unsigned(dtype):
        return "uint64"
    return "int64" if dtype == "bool" or T.is_integer(dtype) else dtype


def _number(value, t):
    """The constant `value` of scalar type t (a complex one as complex)."""
    return ir.Const(complex(value) if T.is_complex(t) else value, t)


@dataclass
class ArrayExpr:
    """An elementwise expression over arrays not computed yet: its `leaves` (array
    variables, distinct) and `element(load)`, the IR of one element given `load(leaf)`,
    that leaf's element at the current index."""
    leaves: list
    element: object
    dtype: str
    ndim: int

    @property
    def type(self):  # what materializing it gives
        return T.ArrayType(self.dtype, self.ndim, "C")


def _better(op, item, held, dtype):
    """Whether `item` replaces `held` as the least ("lt") or greatest ("gt") so far: for
    floats a NaN is taken, and then kept (NumPy's min, max, argmin and argmax)."""
    better = ir.Compare(op, item, held)
    if not T.is_float(dtype):
        return better
    return ir.Select(ir.Compare("eq", held, held),
                     ir.Select(better, ir.Const(True, "bool"), ir.Compare("ne", item, item),
                               "bool"),
                     ir.Const(False, "bool"), "bool")


def squared_magnitude(value, t):
    """|value|**2 of a number of type t (re*re + im*im for complex), in t's real type."""
    if not T.is_complex(t):
        return ir.Binary("multiply", value, value, t)
    real = "float32" if t == "complex64" else "float64"
    re, im = ir.Part("real", value, real), ir.Part("imag", value, real)
    return ir.Binary("add", ir.Binary("multiply", re, re, real),
                     ir.Binary("multiply", im, im, real), real)


def is_array(value):
    return isinstance(value, ArrayExpr) or isinstance(value.type, T.ArrayType)


def dtype_of(value):
    return value.dtype if isinstance(value, ArrayExpr) else (
        value.type.dtype if isinstance(value.type, T.ArrayType) else value.type)


class ArrayLowering:
    """The part of a Lowering pass (frontend.Lowering) that lowers array expressions: it
    appends the statements a value needs to the pass's `prelude`, which the pass places
    before the statement being lowered."""

    def __init__(self, lowering):
        self.lo = lowering

    # --- temporaries ---------------------------------------------------------------------

    def temp(self, prefix, t):
        lo = self.lo
        name = f"ts_{prefix}{lo.temporaries}"
        lo.temporaries += 1
        lo.assign_type(None, name, t)
        return name

    def bind(self, prefix, value):
        """`value` held in a new temporary, assigned in the prelude; its Var."""
        name = self.temp(prefix, value.type)
        self.lo.prelude.append(ir.Assign(name, value))
        return ir.Var(name, value.type)

    def check_target(self, node, what):
        if self.lo.target == "cuda":
            raise self.lo.error(node, f"{what} in a CUDA kernel is not supported (Numba's CUDA "
                                      "target has none either): compute each element")

    # --- building expressions ------------------------------------------------------------

    def leaf(self, node, value):
        """An ArrayExpr of an array value or of an ArrayExpr itself."""
        if isinstance(value, ArrayExpr):
            return value
        self.check_target(node, "whole-array arithmetic")
        if not isinstance(value, ir.Var):  # a view or a transpose: made once, not per element
            value = self.bind("view", value)
        dtype = value.type.dtype
        return ArrayExpr([value], lambda load: load(value), dtype, value.type.ndim)

    def scalar(self, value):
        """A scalar operand evaluated once, before the loop."""
        if isinstance(value, (ir.Const, ir.Var)):
            return value
        return self.bind("scalar", value)

    def elementwise(self, node, operands, make, dtype):
        """The ArrayExpr computing make(elements of operands) (scalars as they are)."""
        parts = [self.leaf(node, v) if is_array(v) else self.scalar(v) for v in operands]
        leaves = []
        for p in parts:
            if isinstance(p, ArrayExpr):
                for leaf in p.leaves:
                    if all(leaf.name != seen.name for seen in leaves):
                        leaves.append(leaf)
        ndim = max(p.ndim for p in parts if isinstance(p, ArrayExpr))

        def element(load):
            return make([p.element(load) if isinstance(p, ArrayExpr) else p for p in parts])

        return ArrayExpr(leaves, element, dtype, ndim)

    def ufunc(self, node, ufunc, operands):
        """NumPy ufunc `ufunc` over operands of which at least one is an array."""
        loop = T.ufunc_loop(ufunc, [dtype_of(v) for v in operands])
        if loop is None:
            raise self.lo.error(node, f"np.{ufunc.__name__} has no loop for "
                                      f"{', '.join(str(v.type) for v in operands)}")
        ins, out = loop
        return self.elementwise(
            node, operands,
            lambda xs: ir.Call(ufunc.__name__, [self.lo.cast(x, t) for x, t in zip(xs, ins)], out),
            out)

    def where(self, node, cond, a, b):
        t = T.promote(dtype_of(a), dtype_of(b))
        return self.elementwise(
            node, [cond, a, b],
            lambda xs: ir.Select(self.lo.truth(xs[0]), self.lo.cast(xs[1], t),
                                 self.lo.cast(xs[2], t), t), t)

    def converted(self, node, value, dtype):
        """The array `value` with its elements converted to `dtype` (astype, copy)."""
        return self.elementwise(node, [value], lambda xs: self.lo.cast(xs[0], dtype), dtype)

    # --- loops ---------------------------------------------------------------------------

    def extents(self, e):
        """Int64 temporaries holding the broadcast shape of ArrayExpr `e` (ValueError at
        run time when its operands do not broadcast)."""
        dims = []
        for k in range(e.ndim):
            extent = None
            for leaf in e.leaves:
                j = k - (e.ndim - leaf.type.ndim)
                if j >= 0:
                    s = ir.Shape(leaf, j)
                    extent = s if extent is None else ir.Broadcast(extent, s)
            dims.append(self.bind("dim", extent))
        return dims

    def loops(self, e, dims, inner):
        """Statements running inner(element, indices) (a list of statements) over every
        index of the broadcast shape `dims`, in C order."""
        indices = [ir.Var(self.temp("i", "int64"), "int64") for _ in dims]

        def nest(index_of):
            def load(leaf):
                offset = e.ndim - leaf.type.ndim
                return ir.Load(leaf, [index_of(leaf, k) for k in range(offset, e.ndim)],
                               leaf.type.dtype, True)
            body = inner(e.element(load), indices)
            for index, extent in reversed(list(zip(indices, dims))):
                body = [ir.ForRange(index.name, ir.Const(0, "int64"), extent,
                                    ir.Const(1, "int64"), body)]
            return body

        direct = nest(lambda leaf, k: indices[k])
        if len(e.leaves) < 2:  # one operand has the result's shape
            return direct
        # Operands whose extents all match read directly (and vectorize); otherwise each
        # index is scaled by 0 where the operand's extent is 1.
        same = None
        factors = {}
        for leaf in e.leaves:
            offset = e.ndim - leaf.type.ndim
            for j in range(leaf.type.ndim):
                test = ir.Compare("eq", ir.Shape(leaf, j), dims[j + offset])
                same = test if same is None else ir.Select(same, test, ir.Const(False, "bool"),
                                                           "bool")
                factors[leaf.name, j + offset] = self.bind(
                    "stretch", ir.Cast(ir.Compare("ne", ir.Shape(leaf, j), ir.Const(1, "int64")),
                                       "int64"))
        stretched = nest(lambda leaf, k: ir.Binary("multiply", indices[k],
                                                   factors[leaf.name, k], "int64"))
        return [ir.If(same, direct, stretched)]

    def materialize(self, node, value):
        """A new C-contiguous array holding ArrayExpr `value`; its Var."""
        lo = self.lo
        if value.ndim == 0:
            raise lo.error(node, "a whole-array expression of 0-d arrays is not supported "
                                 "(index the element: a[()])")
        dims = self.extents(value)
        t = value.type
        target = self.new(node, dims, t.dtype)
        lo.prelude.extend(self.loops(
            value, dims,
            lambda element, indices: [ir.Store(target, list(indices),
                                               lo.cast(element, t.dtype), True)]))
        return target

    def new(self, node, dims, dtype, fill="empty"):
        """A new C-contiguous array of the int64 extents `dims` ("empty" or "zeros"), made
        at a site of its own, which frees the array it made the last time it ran (see
        release_arrays); its Var."""
        lo = self.lo
        self.check_target(node, "making an array")
        dims = [d if isinstance(d, ir.Var) else self.bind("dim", lo.cast(d, "int64"))
                for d in dims]
        t = T.ArrayType(dtype, len(dims), "C")
        name = self.temp("array", t)
        lo.prelude.append(ir.Release(name))
        lo.prelude.append(ir.Assign(name, ir.NewArray(fill, dims, t)))
        return ir.Var(name, t)

    def filled(self, node, dims, dtype, element):
        """A new C-contiguous array of the int64 extents `dims` whose elements are
        element(indices), an IR expression evaluated once per element in C order (a random
        draw, an arange's value); its Var."""
        lo = self.lo
        target = self.new(node, dims, dtype)
        dims = [ir.Shape(target, k) for k in range(len(dims))]
        indices = [ir.Var(self.temp("i", "int64"), "int64") for _ in dims]
        body = [ir.Store(target, list(indices), lo.cast(element(indices), dtype), True)]
        for index, extent in reversed(list(zip(indices, dims))):
            body = [ir.ForRange(index.name, ir.Const(0, "int64"), extent, ir.Const(1, "int64"),
                                body)]
        lo.prelude.extend(body)
        return target

    # --- shapes and products -------------------------------------------------------------

    def array_value(self, node, value):
        """An array operand as a variable: an expression computed, a view bound once."""
        if isinstance(value, ArrayExpr):
            return self.materialize(node, value)
        self.check_target(node, "this array operation")
        return value if isinstance(value, ir.Var) else self.bind("view", value)

    def reshape(self, node, value, dims):
        """a.reshape(dims): a view of a C-contiguous array (as Numba's, which takes no
        other layout)."""
        value = self.array_value(node, value)
        if value.type.layout != "C":
            raise self.lo.error(node, "reshape() takes a C-contiguous array (as Numba's); "
                                      f"this one is {value.type}: reshape a.copy()")
        t = T.ArrayType(value.type.dtype, len(dims), "C", value.type.readonly)
        return ir.Reshape(value, [self.lo.cast(d, "int64") for d in dims], t)

    def flattened(self, node, value, copy):
        """a.ravel() (a view of a C-contiguous array, else a copy) and a.flatten() (always
        a copy): 1-d, in C order."""
        if copy or isinstance(value, ArrayExpr) or value.type.layout != "C":
            value = self.materialize(node, self.converted(node, value, dtype_of(value)))
        return self.reshape(node, value, [ir.Const(-1, "int64")])

    def matmul(self, node, a, b):
        """a @ b and np.dot(a, b) of 1-d and 2-d arrays, in their promoted dtype: a number
        for two vectors, else a new array."""
        self.check_target(node, "a matrix product")
        t = T.promote(dtype_of(a), dtype_of(b))
        operands = []
        for v in (a, b):
            if not is_array(v):
                raise self.lo.error(node, f"@ and np.dot take arrays, not a {v.type}")
            if dtype_of(v) != t:
                v = self.materialize(node, self.converted(node, v, t))
            v = self.array_value(node, v)
            if v.type.ndim not in (1, 2):
                raise self.lo.error(node, f"@ and np.dot of {v.type.ndim}-d arrays are not "
                                          "supported yet (1-d and 2-d)")
            operands.append(v)
        a, b = operands
        if a.type.ndim == 1 and b.type.ndim == 1:
            return self.bind("dot", ir.Matmul(a, b, t))
        rt = T.ArrayType(t, a.type.ndim + b.type.ndim - 2, "C")
        name = self.temp("array", rt)
        self.lo.prelude.append(ir.Release(name))
        self.lo.prelude.append(ir.Assign(name, ir.Matmul(a, b, rt)))
        return ir.Var(name, rt)

    def masked(self, node, array, mask):
        """a[mask] of a boolean array of a's shape: a new 1-d array of the elements where
        the mask is true, in C order."""
        lo = self.lo
        m = self.leaf(node, mask)
        if m.dtype != "bool":
            return self.gathered(node, array, mask)
        if m.ndim != array.type.ndim:
            raise lo.error(node, f"a {m.ndim}-d boolean index of a {array.type.ndim}-d array")
        a = self.array_value(node, array)
        m = self.leaf(node, self.array_value(node, mask))
        mask_var = m.leaves[0]
        self.check_mask_shape(a, mask_var)
        dims = [self.bind("dim", ir.Shape(a, k)) for k in range(a.type.ndim)]
        count = self.bind("count", ir.Const(0, "int64"))
        lo.prelude.extend(self.loops(m, dims, lambda x, _: [
            ir.If(x, [ir.Assign(count.name, ir.Binary("add", count, ir.Const(1, "int64"),
                                                      "int64"))], [])]))
        out = self.new(node, [count], a.type.dtype)
        at = self.bind("at", ir.Const(0, "int64"))
        both = self.elementwise(node, [a, mask_var], lambda xs: ir.MakeTuple(
            xs, T.TupleType((a.type.dtype, "bool"))), a.type.dtype)

        def take(pair, _):
            value = ir.TupleGet(pair, 0, a.type.dtype)
            return [ir.If(ir.TupleGet(pair, 1, "bool"), [
                ir.Store(out, [at], value, True),
                ir.Assign(at.name, ir.Binary("add", at, ir.Const(1, "int64"), "int64"))], [])]

        lo.prelude.extend(self.loops(both, dims, take))
        return out

    def assign_masked(self, node, array, mask, value):
        """a[mask] = number: the elements where the mask is true set, in place."""
        lo = self.lo
        if array.type.readonly:
            raise lo.error(node, "assigning into a read-only array")
        if self.leaf(node, mask).dtype != "bool":
            return self.assign_gathered(node, array, mask, value)
        if is_array(value) or not T.is_scalar(value.type):
            raise lo.error(node, "a[mask] = ... takes a number here (arrays are not "
                                 "supported yet)")
        if T.kind(value.type) == "c" and T.kind(array.type.dtype) != "c":
            raise lo.error(node, f"cannot assign {value.type} values to a {array.type.dtype} array")
        a = self.array_value(node, array)
        mask_var = self.array_value(node, mask)
        if mask_var.type.ndim != a.type.ndim:
            raise lo.error(node, f"a {mask_var.type.ndim}-d boolean index of a "
                                 f"{a.type.ndim}-d array")
        self.check_mask_shape(a, mask_var)
        v = self.scalar(lo.cast(value, a.type.dtype))
        dims = [self.bind("dim", ir.Shape(a, k)) for k in range(a.type.ndim)]
        m = self.leaf(node, mask_var)
        return self.loops(m, dims, lambda x, indices: [
            ir.If(x, [ir.Store(a, list(indices), v, True)], [])])

    def positions(self, node, array, index, ndims=(1,)):
        """The array and integer index array of a[idx] (of a dimension count in `ndims`),
        and a function giving, inside a loop over idx, statements binding the row an
        element of idx names (negative ones counting from the end) after checking it is in
        bounds: IndexError otherwise, as NumPy's (Numba reads past the array)."""
        lo = self.lo
        i = self.leaf(node, index)
        if not T.is_integer(i.dtype) or i.ndim not in ndims:
            allowed = "a 1-d integer array" if ndims == (1,) else "an integer array"
            raise lo.error(node, f"indexing with a {i.ndim}-d array of {i.dtype} is not "
                                 f"supported here ({allowed} or a boolean mask is)")
        a = self.array_value(node, array)
        if a.type.ndim == 0:
            raise lo.error(node, "indexing a 0-d array with an array")
        rows = self.bind("rows", ir.Shape(a, 0))

        def row(x, name):
            k = ir.Var(name, "int64")
            wrapped = ir.Select(ir.Compare("lt", k, ir.Const(0, "int64")),
                                ir.Binary("add", k, rows, "int64"), k, "int64")
            outside = ir.Select(ir.Compare("lt", k, ir.Const(0, "int64")), ir.Const(True, "bool"),
                                ir.Compare("ge", k, rows), "bool")
            return [ir.Assign(name, lo.cast(x, "int64")), ir.Assign(name, wrapped),
                    ir.If(outside, [ir.Raise(20)], [])]

        return a, self.leaf(node, self.array_value(node, index)), row

    def gathered(self, node, array, index):
        """a[idx] of an integer array idx: a new array of a's rows that idx names (elements
        of a 1-d array), of shape idx.shape + a.shape[1:] (NumPy's; Numba takes 1-d idx
        only)."""
        a, i, row = self.positions(node, array, index, ndims=range(1, 33))  # NumPy: 32 at most
        index_dims = [ir.Shape(i.leaves[0], k) for k in range(i.ndim)]
        dims = index_dims + [ir.Shape(a, k) for k in range(1, a.type.ndim)]
        out = self.new(node, dims, a.type.dtype)
        whole = T.ArrayType(a.type.dtype, a.type.ndim - 1, "A")

        def take(x, indices):
            k = self.temp("row", "int64")
            copy = (ir.Store(out, indices, ir.Load(a, [ir.Var(k, "int64")], a.type.dtype, True),
                             True) if a.type.ndim == 1 else
                    ir.AssignArray(ir.View(out, [("index", j) for j in indices], whole),
                                   ir.View(a, [("index", ir.Var(k, "int64"))], whole)))
            return row(x, k) + [copy]

        self.lo.prelude.extend(self.loops(i, index_dims, take))
        return out

    def assign_gathered(self, node, array, index, value):
        """a[idx] = value of a 1-d integer array idx: rows idx[0], idx[1], ... set, in that
        order (a repeated index keeps the last), to a number, or for a 1-d array to the
        elements of a 1-d array of len(idx) or of one element (ValueError otherwise)."""
        lo = self.lo
        a, i, row = self.positions(node, array, index)
        count = ir.Shape(i.leaves[0], 0)
        if T.kind(dtype_of(value)) == "c" and T.kind(a.type.dtype) != "c":
            raise lo.error(node, f"cannot assign {dtype_of(value)} values to a "
                                 f"{a.type.dtype} array")
        if is_array(value):
            v = self.leaf(node, value)
            if a.type.ndim != 1 or v.ndim != 1:
                raise lo.error(node, "a[idx] = array takes a 1-d array and 1-d values here")
            v = self.array_value(node, value)
            length = ir.Shape(v, 0)
            fits = ir.Select(ir.Compare("eq", length, count), ir.Const(True, "bool"),
                             ir.Compare("eq", length, ir.Const(1, "int64")), "bool")
            lo.prelude.append(ir.If(ir.Compare("eq", fits, ir.Const(False, "bool")),
                                    [ir.Raise(21)], []))
            step = self.bind("step", ir.Cast(ir.Compare("ne", length, ir.Const(1, "int64")),
                                             "int64"))

            def item(j):
                return lo.cast(ir.Load(v, [ir.Binary("multiply", j, step, "int64")],
                                       v.type.dtype, True), a.type.dtype)
        else:
            number = self.scalar(lo.cast(value, a.type.dtype))

            def item(j):
                return number
        whole = T.ArrayType(a.type.dtype, a.type.ndim - 1, "A")

        def put(x, indices):
            k = ir.Var(self.temp("row", "int64"), "int64")
            write = (ir.Store(a, [k], item(indices[0]), True) if a.type.ndim == 1 else
                     ir.AssignArray(ir.View(a, [("index", k)], whole), item(indices[0])))
            return row(x, k.name) + [write]

        return self.loops(i, [count], put)

    def check_mask_shape(self, a, mask):
        for k in range(a.type.ndim):
            self.lo.prelude.append(ir.If(ir.Compare("ne", ir.Shape(a, k), ir.Shape(mask, k)),
                                         [ir.Raise(17)], []))

    def cumulative(self, node, how, value):
        """np.cumsum / np.cumprod: the running sum or product in C order, 1-d, in sum's
        type."""
        lo = self.lo
        e = self.leaf(node, value)
        dtype = e.dtype
        t = _sum_type(dtype)
        dims = self.extents(e)
        out = self.new(node, [self.size(dims)], t)
        acc = self.bind("acc", _number(0 if how == "cumsum" else 1, t))
        at = self.bind("at", ir.Const(0, "int64"))
        op = "add" if how == "cumsum" else "multiply"
        lo.prelude.extend(self.loops(e, dims, lambda x, _: [
            ir.Assign(acc.name, ir.Binary(op, acc, lo.cast(x, t), t)),
            ir.Store(out, [at], acc, True),
            ir.Assign(at.name, ir.Binary("add", at, ir.Const(1, "int64"), "int64"))]))
        return out

    def sortable(self, node, value, what):
        """Refuses what sort and argsort do not take: 0-d and complex arrays."""
        if (value.ndim if isinstance(value, ArrayExpr) else value.type.ndim) == 0:
            raise self.lo.error(node, f"{what} of a 0-d array is not supported")
        if T.is_complex(dtype_of(value)):
            raise self.lo.error(node, "sorting complex numbers is not supported yet")

    def each_row(self, array, body_of):
        """Statements running body_of(row_of) (statements) for each row along the last axis
        of `array`, in C order, where row_of(x) is the 1-d view of the row of `array`, or of
        an array of its shape: the rows sort and argsort take one at a time."""
        indices = [ir.Var(self.temp("i", "int64"), "int64") for _ in range(array.type.ndim - 1)]

        def row_of(x):
            t = x.type
            if not indices:
                return x
            return ir.View(x, [("index", i) for i in indices],
                           T.ArrayType(t.dtype, 1, "C" if t.layout == "C" else "A", t.readonly))

        body = body_of(row_of)
        for k in reversed(range(len(indices))):
            body = [ir.ForRange(indices[k].name, ir.Const(0, "int64"), ir.Shape(array, k),
                                ir.Const(1, "int64"), body)]
        return body

    def sorted(self, node, value, in_place=False):
        """np.sort(a) (a sorted copy; a.sort() sorts a itself) along the last axis, NaNs
        last."""
        lo = self.lo
        self.sortable(node, value, "sort")
        target = self.array_value(node, value) if in_place else None
        if in_place and target.type.readonly:
            raise lo.error(node, "sorting a read-only array")
        # The runtime sorts contiguous memory: a copy, sorted, then written back if asked.
        sorted_copy = target if in_place and target.type.layout == "C" else \
            self.materialize(node, self.converted(node, value, dtype_of(value)))
        lo.prelude.extend(self.each_row(sorted_copy, lambda row_of: [
            ir.Evaluate(ir.RuntimeCall("sort_in_place", [row_of(sorted_copy)], T.NONE))]))
        if not in_place:
            return sorted_copy
        if sorted_copy is not target:
            lo.prelude.append(ir.AssignArray(target, sorted_copy))
        return ir.Const(0, "int64")

    def argsort(self, node, value):
        """np.argsort(a) along the last axis: int64 indices, stable, NaNs last (of n-d
        arrays too, which Numba does not take)."""
        self.sortable(node, value, "argsort")
        a = self.array_value(node, value)
        dims = [ir.Shape(a, k) for k in range(a.type.ndim)]
        order = self.filled(node, dims, "int64", lambda i: i[-1])
        self.lo.prelude.extend(self.each_row(order, lambda row_of: [
            ir.Evaluate(ir.RuntimeCall("argsort_into", [row_of(order), row_of(a)], T.NONE))]))
        return order

    def diff(self, node, value):
        """np.diff(a): a[..., 1:] - a[..., :-1] (not_equal for bools, as NumPy's)."""
        a = self.array_value(node, value)
        if a.type.ndim == 0:
            raise self.lo.error(node, "np.diff takes an array of at least one dimension")
        whole = ("slice", None, None, None)
        view_type = T.ArrayType(a.type.dtype, a.type.ndim, "A", a.type.readonly)
        later = ir.View(a, [whole] * (a.type.ndim - 1) + [("slice", ir.Const(1, "int64"), None,
                                                              None)], view_type)
        earlier = ir.View(a, [whole] * (a.type.ndim - 1) + [("slice", None,
                                                                ir.Const(-1, "int64"), None)],
                          view_type)
        op = np.not_equal if a.type.dtype == "bool" else np.subtract
        return self.ufunc(node, op, [later, earlier])

    def outer(self, node, a, b):
        """np.outer(a, b) of two vectors: a new (len(a), len(b)) array of their products."""
        a, b = self.array_value(node, a), self.array_value(node, b)
        if a.type.ndim != 1 or b.type.ndim != 1:
            raise self.lo.error(node, "np.outer takes 1-d arrays here")
        loop = T.ufunc_loop(np.multiply, [a.type.dtype, b.type.dtype])
        if loop is None:
            raise self.lo.error(node, f"np.outer has no loop for {a.type.dtype} and {b.type.dtype}")
        (ta, tb), t = loop
        return self.filled(node, [ir.Shape(a, 0), ir.Shape(b, 0)], t, lambda i: ir.Call(
            "multiply", [self.lo.cast(ir.Load(a, [i[0]], a.type.dtype, True), ta),
                         self.lo.cast(ir.Load(b, [i[1]], b.type.dtype, True), tb)], t))

    def median(self, node, value):
        """np.median(a) of all elements: the middle of a sorted copy (the mean of the two
        middle ones for an even count; NaN when one is NaN or there are none)."""
        lo = self.lo
        if T.is_complex(dtype_of(value)):
            raise lo.error(node, "the median of complex numbers is not supported")
        t = "float64" if T.kind(dtype_of(value)) in "bi" else dtype_of(value)
        ordered = self.sorted(node, self.flattened(node, value, copy=True))
        n = self.bind("count", ir.Shape(ordered, 0))
        half = ir.Binary("floor_divide", n, ir.Const(2, "int64"), "int64")
        upper = lo.cast(ir.Load(ordered, [half], dtype_of(value), True), t)
        lower = lo.cast(ir.Load(ordered, [ir.Binary("subtract", half, ir.Const(1, "int64"),
                                                    "int64")], dtype_of(value), True), t)
        odd = ir.Compare("eq", ir.Binary("remainder", n, ir.Const(2, "int64"), "int64"),
                         ir.Const(1, "int64"))
        middle = ir.Select(odd, upper, ir.Binary("multiply", ir.Binary("add", lower, upper, t),
                                                  _number(0.5, t), t), t)
        last = lo.cast(ir.Load(ordered, [ir.Binary("subtract", n, ir.Const(1, "int64"),
                                                   "int64")], dtype_of(value), True), t)
        result = self.bind("median", _number(math.nan, t))
        lo.prelude.append(ir.If(ir.Compare("gt", n, ir.Const(0, "int64")), [
            ir.Assign(result.name, ir.Select(ir.Compare("ne", last, last), last, middle, t))],
            []))
        return result

    def unique(self, node, value):
        """np.unique(a): the sorted distinct elements, 1-d (NaNs, unequal to each other,
        each kept, as in Numba)."""
        lo = self.lo
        if T.is_complex(dtype_of(value)):
            raise lo.error(node, "np.unique of complex numbers is not supported yet")
        ordered = self.sorted(node, self.flattened(node, value, copy=True))
        dtype = dtype_of(value)
        n = self.bind("count", ir.Shape(ordered, 0))
        distinct = self.bind("distinct", ir.Const(0, "int64"))
        i = ir.Var(self.temp("i", "int64"), "int64")

        def item(k):
            return ir.Load(ordered, [k], dtype, True)

        previous = ir.Binary("subtract", i, ir.Const(1, "int64"), "int64")
        new = ir.Select(ir.Compare("eq", i, ir.Const(0, "int64")), ir.Const(True, "bool"),
                        ir.Compare("ne", item(previous), item(i)), "bool")
        count = [ir.ForRange(i.name, ir.Const(0, "int64"), n, ir.Const(1, "int64"), [
            ir.If(new, [ir.Assign(distinct.name, ir.Binary("add", distinct,
                                                           ir.Const(1, "int64"), "int64"))],
                  [])])]
        lo.prelude.extend(count)
        out = self.new(node, [distinct], dtype)
        at = self.bind("at", ir.Const(0, "int64"))
        lo.prelude.append(ir.ForRange(i.name, ir.Const(0, "int64"), n, ir.Const(1, "int64"), [
            ir.If(new, [ir.Store(out, [at], item(i), True),
                        ir.Assign(at.name, ir.Binary("add", at, ir.Const(1, "int64"),
                                                     "int64"))], [])]))
        return out

    def sum_axis(self, node, value, axis):
        """a.sum(axis=k): the sums along one axis, each in index order (Numba's), in sum's
        type."""
        e = self.leaf(node, value)
        if not -e.ndim <= axis < e.ndim:
            raise self.lo.error(node, f"axis {axis} is out of bounds for an array of "
                                      f"dimension {e.ndim}")
        if e.ndim == 1:
            return self.reduce(node, "sum", value)
        axis %= e.ndim
        dtype = e.dtype
        t = _sum_type(dtype)
        dims = self.extents(e)
        kept = [d for k, d in enumerate(dims) if k != axis]
        out = self.new(node, kept, t, fill="zeros")

        def add(x, indices):
            at = [i for k, i in enumerate(indices) if k != axis]
            total = ir.Binary("add", ir.Load(out, at, t, True), self.lo.cast(x, t), t)
            return [ir.Store(out, at, total, True)]

        self.lo.prelude.extend(self.loops(e, dims, add))
        return out

    def arg_axis(self, node, how, value, axis):
        """a.argmin(axis=k), a.argmax(axis=k): int64 positions along one axis (the first of
        equal values, the first NaN), as Numba's; ValueError where that axis is empty and
        the result is not (NumPy's error: Numba's is a ZeroDivisionError)."""
        e = self.leaf(node, value)
        if T.is_complex(e.dtype):
            raise self.lo.error(node, f"{how}() of complex arrays is not supported")
        if not -e.ndim <= axis < e.ndim:
            raise self.lo.error(node, f"axis {axis} is out of bounds for an array of "
                                      f"dimension {e.ndim}")
        if e.ndim == 1:
            return self.reduce(node, how, value)
        axis %= e.ndim
        dtype = e.dtype
        dims = self.extents(e)
        kept = [d for k, d in enumerate(dims) if k != axis]
        empty = ir.Compare("eq", dims[axis], ir.Const(0, "int64"))
        self.lo.prelude.append(ir.If(empty, [ir.Raise(_EMPTY_REDUCTION[how])], []))
        best = self.new(node, kept, dtype)
        where = self.new(node, kept, "int64")
        op = "gt" if how == "argmax" else "lt"

        def visit(x, indices):
            at = [i for k, i in enumerate(indices) if k != axis]
            item = ir.Var(self.temp("item", dtype), dtype)
            better = _better(op, item, ir.Load(best, at, dtype, True), dtype)
            first = ir.Compare("eq", indices[axis], ir.Const(0, "int64"))
            better = ir.Select(first, ir.Const(True, "bool"), better, "bool")
            return [ir.Assign(item.name, self.lo.cast(x, dtype)),
                    ir.If(better, [ir.Store(best, at, item, True),
                                   ir.Store(where, at, indices[axis], True)], [])]

        self.lo.prelude.extend(self.loops(e, dims, visit))
        return where

    # --- reductions ----------------------------------------------------------------------

    def size(self, dims):
        size = ir.Const(1, "int64")
        for d in dims:
            size = ir.Binary("multiply", size, d, "int64")
        return size

    def reduce(self, node, how, value):
        """a.<how>() of an array or ArrayExpr: a scalar (its Var), as Numba computes it."""
        lo = self.lo
        e = self.leaf(node, value)
        dtype = e.dtype
        if how in ("min", "max", "argmin", "argmax") and T.is_complex(dtype):
            raise lo.error(node, f"{how}() of complex arrays is not supported")
        if how in ("var", "std") and isinstance(value, ArrayExpr):
            e = self.leaf(node, self.materialize(node, e))  # computed once, read twice
        dims = self.extents(e)
        if how in ("sum", "prod"):
            t = _sum_type(dtype)
            acc = self.bind("acc", _number(0 if how == "sum" else 1, t))
            op = "add" if how == "sum" else "multiply"
            lo.prelude.extend(self.loops(e, dims, lambda x, _: [
                ir.Assign(acc.name, ir.Binary(op, acc, lo.cast(x, t), t))]))
            return acc
        if how in ("any", "all"):
            acc = self.bind("acc", ir.Const(how == "all", "bool"))
            lo.prelude.extend(self.loops(e, dims, lambda x, _: [
                ir.Assign(acc.name, ir.Select(acc, ir.Const(True, "bool"), lo.truth(x), "bool")
                          if how == "any" else
                          ir.Select(acc, lo.truth(x), ir.Const(False, "bool"), "bool"))]))
            return acc
        if how in ("mean", "var", "std"):
            return self.moments(node, how, e, dims)
        return self.extreme(how, e, dims)

    def moments(self, node, how, e, dims):
        """mean, var and std as Numba's: the sum in the result's type divided by the size
        (NaN for an empty array), and for var the sum of squared deviations from the mean
        over the size (ZeroDivisionError for an empty array, Python's error model)."""
        lo = self.lo
        dtype = e.dtype
        t = dtype if T.kind(dtype) in "fc" else "float64"
        size = self.bind("size", lo.cast(self.size(dims), t))
        total = self.bind("acc", _number(0, t))
        lo.prelude.extend(self.loops(e, dims, lambda x, _: [
            ir.Assign(total.name, ir.Binary("add", total, lo.cast(x, t), t))]))
        mean = ir.Binary("divide", total, size, t)
        if how == "mean":  # NaN for an empty array, as NumPy's and Numba's
            empty = ir.Compare("eq", size, _number(0, t))
            return self.bind("mean", ir.Select(empty, _number(math.nan, t), mean, t))
        mean = self.bind("mean", mean)
        real = "float32" if t == "complex64" else "float64" if t == "complex128" else t
        squares = self.bind("acc", _number(0, real))

        def add_square(x, _):
            square = squared_magnitude(ir.Binary("subtract", lo.cast(x, t), mean, t), t)
            return [ir.Assign(squares.name, ir.Binary("add", squares, square, real))]

        lo.prelude.extend(self.loops(e, dims, add_square))
        var = ir.Binary("divide", squares, lo.cast(size, real) if real != t else size, real)
        if how == "var":
            return self.bind("var", var)
        return self.bind("std", ir.Call("sqrt", [var], real))

    def extreme(self, how, e, dims):
        """min, max (NaN wins, as NumPy's) and argmin, argmax (the first of equal values,
        the first NaN), ValueError for an empty array."""
        lo = self.lo
        dtype = e.dtype
        empty = ir.Compare("eq", self.size(dims), ir.Const(0, "int64"))
        lo.prelude.append(ir.If(empty, [ir.Raise(_EMPTY_REDUCTION[how])], []))
        first = e.element(lambda leaf: ir.Load(leaf, [ir.Const(0, "int64")] * leaf.type.ndim,
                                               leaf.type.dtype, True))
        best = self.bind("acc", lo.cast(first, dtype))
        arg = how.startswith("arg")
        position = self.bind("flat", ir.Const(0, "int64")) if arg else None
        where = self.bind("arg", ir.Const(0, "int64")) if arg else None
        op = "gt" if how.endswith("max") else "lt"

        def visit(x, _):
            item = ir.Var(self.temp("item", dtype), dtype)
            better = _better(op, item, best, dtype)
            take = [ir.Assign(best.name, item)]
            if arg:
                take.append(ir.Assign(where.name, position))
            out = [ir.Assign(item.name, lo.cast(x, dtype)), ir.If(better, take, [])]
            if arg:
                out.append(ir.Assign(position.name, ir.Binary("add", position,
                                                              ir.Const(1, "int64"), "int64")))
            return out

        lo.prelude.extend(self.loops(e, dims, visit))
        return where if arg else best


# --- freeing arrays --------------------------------------------------------------------------

def _children(node):
    """(field, child) of an IR node: every IR node in its fields, lists and item tuples."""
    for name in getattr(node, "__dataclass_fields__", ()):
        value = getattr(node, name)
        if isinstance(value, (list, tuple)):
            for item in value:
                if isinstance(item, tuple):
                    for part in item:
                        if hasattr(part, "__dataclass_fields__"):
                            yield name, part
                elif hasattr(item, "__dataclass_fields__"):
                    yield name, item
        elif hasattr(value, "__dataclass_fields__"):
            yield name, value


def _uses(node, out):
    """The variables an IR node reads (an Assign's target excluded), added to `out`."""
    if isinstance(node, ir.Var):
        out.add(node.name)
    for field, child in _children(node):
        if field not in ("body", "orelse"):
            _uses(child, out)
    return out


# Where an array variable may appear without anything keeping a reference to it past the
# statement: (node class, field).
_BORROWING = {(ir.Load, "array"), (ir.Store, "array"), (ir.Address, "array"),
              (ir.RuntimeCall, "args"),
              (ir.Shape, "array"), (ir.AssignArray, "view"), (ir.AssignArray, "value"),
              (ir.CallFunction, "args"), (ir.Return, "value"), (ir.Matmul, "a"),
              (ir.Matmul, "b"), (ir.Linalg, "inputs")}


class _References:
    """Who refers to which array variable: `captured`, variables something keeps in a way
    not followed (a tuple, a select, a cast); `aliases`, root -> the variables assigned it
    or a view of it; `bare`, those assigned the root itself; `fresh`, per variable, whether
    each array assigned to it is a new one."""

    def __init__(self, body):
        self.captured, self.aliases, self.bare, self.fresh = set(), {}, {}, {}
        for statement in body:
            self.visit(statement, (None, None), True)

    def visit(self, node, context, direct):
        """`context`: (holder, field) where the value of `node` goes, through any views;
        `direct`: whether node itself is that field's value."""
        if isinstance(node, ir.Var) and isinstance(node.type, T.ArrayType):
            holder, field = context
            if (type(holder), field) in _BORROWING:
                return
            if isinstance(holder, ir.Assign) and field == "value":
                if holder.target.startswith("ts_view"):
                    return  # a leaf of one statement's loops
                self.aliases.setdefault(node.name, set()).add(holder.target)
                if direct:
                    self.bare.setdefault(node.name, set()).add(holder.target)
                return
            self.captured.add(node.name)
            return
        if isinstance(node, ir.Assign) and isinstance(node.value.type, T.ArrayType):
            new = isinstance(node.value, ir.NewArray) or (
                isinstance(node.value, ir.Var) and node.value.name.startswith("ts_array"))
            self.fresh.setdefault(node.target, []).append(new)
        for field, child in _children(node):
            # A view or transpose of a variable refers to it wherever the view goes.
            if isinstance(node, (ir.View, ir.Transpose, ir.Reshape, ir.PartView)) and field == "array":
                self.visit(child, context, False)
            elif isinstance(node, ir.MakeTuple) and isinstance(context[0], ir.Return):
                self.visit(child, context, True)  # a returned tuple's item: returned
            else:
                self.visit(child, (node, field), True)

    def alias_closure(self, name):
        seen, todo = set(), [name]
        while todo:
            for v in self.aliases.get(todo.pop(), ()):
                if v not in seen:
                    seen.add(v)
                    todo.append(v)
        return seen


class _Liveness:
    """The variables live (read before written on some path) before each Release, by a
    backward pass over the structured IR; loops to a fixed point, and break/continue
    conservatively live with both the loop's exit and its head."""

    def __init__(self, body):
        self.at_release = {}
        self.block(body, set(), None)

    def block(self, statements, live, loop):
        for s in reversed(statements):
            live = self.statement(s, live, loop)
        return live

    def statement(self, s, live, loop):
        if isinstance(s, ir.Release):
            self.at_release.setdefault(s.name, set()).update(live)
            return live
        if isinstance(s, ir.Assign):
            return (live - {s.target}) | _uses(s.value, set())
        if isinstance(s, ir.If):
            return self.block(s.body, live, loop) | self.block(s.orelse, live, loop) | \
                _uses(s.cond, set())
        if isinstance(s, (ir.Break, ir.Continue)):
            return set(loop) if loop is not None else set(live)
        if isinstance(s, ir.Return):
            return _uses(s, set())
        if isinstance(s, (ir.ForRange, ir.ParallelRange, ir.While)):
            head = set(live)
            while True:  # what the body needs at its start joins what follows the loop
                inside = self.block(s.body, head | live, head | live)
                if isinstance(s, (ir.ForRange, ir.ParallelRange)):
                    inside = inside - {s.var}
                if inside <= head:
                    break
                head |= inside
            bounds = _uses(s.cond, set()) if isinstance(s, ir.While) else \
                _uses(s.start, set()) | _uses(s.stop, set()) | _uses(s.step, set())
            return head | live | bounds
        return live | _uses(s, set())


def release_arrays(body):
    """`body` with the Release statements that are safe: each materialization site's
    (emitted before it makes its array), where no variable that may still refer to that
    site's last array is live; and one before each assignment to a variable that only ever
    holds arrays the function made and that nothing else refers to."""
    refs = _References(body)
    live = _Liveness(body).at_release

    def owned(name):
        # A variable whose arrays only it refers to. A parameter qualifies when everything
        # assigned to it is new: releasing the caller's array is a no-op (not in the arena).
        return (name not in refs.captured and name not in refs.aliases
                and not name.startswith("ts_") and all(refs.fresh.get(name, [False])))

    def keep_site(name):
        if name in refs.captured or name in refs.bare:
            return False  # a variable took it over: that variable frees it
        holders = refs.alias_closure(name)
        return not (holders & refs.captured) and not (holders & live.get(name, set()))

    def rewrite(statements):
        out = []
        for s in statements:
            if isinstance(s, ir.Release) and not keep_site(s.name):
                continue
            if isinstance(s, ir.Assign) and isinstance(s.value.type, T.ArrayType) and owned(s.target):
                out.append(ir.Release(s.target))
            for attr in ("body", "orelse"):
                if hasattr(s, attr):
                    setattr(s, attr, rewrite(getattr(s, attr)))
            out.append(s)
        return out

    return rewrite(body)
