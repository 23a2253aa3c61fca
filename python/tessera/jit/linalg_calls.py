"""np.linalg inside jit functions, as Numba has it: inv, solve, det, slogdet, cholesky, qr,
svd, eigh, eigvalsh, eig, eigvals, lstsq, pinv, norm, cond and matrix_rank of 2-d arrays
(1-d right-hand sides; vectors for norm and matrix_rank) of float and complex dtypes, with
Numba's result types and errors (numpy.linalg.LinAlgError for a singular matrix, a matrix
that is not square or holds infs or NaNs, ValueError for a real matrix with a complex
spectrum).

The decompositions are tessera's linalg (LAPACK), called through the host runtime's linalg
service (src/jit/host_services.h) on the function's own arrays; what NumPy builds on them
(the determinant from the LU factors, the pseudo-inverse from the SVD, the norms as
reductions) lowers to the typed IR here, as Numba's implementations compute them."""

import ast
import math

import numpy as np

from . import ir
from . import types as T
from .array_exprs import is_array

FUNCTIONS = ("inv", "solve", "det", "slogdet", "cholesky", "qr", "svd", "eigh", "eigvalsh",
             "eig", "eigvals", "lstsq", "pinv", "norm", "cond", "matrix_rank")
FLOATING = ("float32", "float64", "complex64", "complex128")


def real_of(t):
    return {"complex64": "float32", "complex128": "float64"}.get(t, t)


def _int(value):
    return ir.Const(value, "int64")


def _const(value, t):
    """The constant `value` of scalar type `t` (complex ones as Python complex numbers)."""
    return ir.Const(complex(value) if T.is_complex(t) else value, t)


class LinalgCalls:
    def __init__(self, lowering):
        self.lo = lowering

    def call(self, node, name):
        """np.linalg.<name>(...)'s IR."""
        lo = self.lo
        what = f"np.linalg.{name}"
        if name not in FUNCTIONS:
            raise lo.error(node, f"calling {what} is not supported")
        lo.arrays.check_target(node, what)
        return getattr(self, name)(node, what)

    # --- operands and the service --------------------------------------------------------

    def operand(self, node, what, value_node, ndims=(2,)):
        """An array argument as a variable of a float or complex dtype (Numba's rule: no
        integer matrices), of one of `ndims` dimensions."""
        lo = self.lo
        value = lo.operand(value_node)
        if not is_array(value):
            raise lo.error(node, f"{what}() takes arrays, not a {value.type}")
        value = lo.arrays.array_value(node, value)
        if value.type.dtype not in FLOATING:
            raise lo.error(node, f"{what}() is only supported on float and complex arrays, "
                                 f"not {value.type.dtype}")
        if value.type.ndim not in ndims:
            allowed = " or ".join(f"{n}-d" for n in ndims)
            raise lo.error(node, f"{what}() takes {allowed} arrays, not a {value.type.ndim}-d one")
        return value

    def same_dtype(self, node, values):
        """The operands converted to their promoted dtype."""
        t = values[0].type.dtype
        for v in values[1:]:
            t = T.promote(t, v.type.dtype)
        arrays = self.lo.arrays
        return [v if v.type.dtype == t else
                arrays.materialize(node, arrays.converted(node, v, t)) for v in values], t

    def service(self, op, dtype, inputs, result, param=None):
        """The linalg service's `op`, called once in the prelude; its result: a Var, or a
        MakeTuple of Vars, each array in a site of its own (freed when the call runs again
        and nothing refers to it any more)."""
        lo = self.lo
        param = ir.Const(0.0, "float64") if param is None else lo.cast(param, "float64")
        call = ir.Linalg(op, dtype, param, inputs, result)
        if isinstance(result, T.ArrayType):
            name = lo.arrays.temp("array", result)
            lo.prelude.append(ir.Release(name))
            lo.prelude.append(ir.Assign(name, call))
            return ir.Var(name, result)
        if not isinstance(result, T.TupleType):
            return lo.arrays.bind("linalg", call)
        names = []
        for t in result.items:
            names.append(lo.arrays.temp("array" if isinstance(t, T.ArrayType) else "linalg", t))
            if isinstance(t, T.ArrayType):
                lo.prelude.append(ir.Release(names[-1]))
        held = lo.arrays.bind("linalg", call)
        for k, (name, t) in enumerate(zip(names, result.items)):
            lo.prelude.append(ir.Assign(name, ir.TupleGet(held, k, t)))
        return ir.MakeTuple([ir.Var(n, t) for n, t in zip(names, result.items)], result)

    def args(self, node, what, names, required=1):
        return self.lo.numpy_calls.arguments(node, what, names, required)

    def loop(self, extent, body):
        """for k in range(extent): body(k), in the prelude."""
        k = ir.Var(self.lo.arrays.temp("i", "int64"), "int64")
        self.lo.prelude.append(ir.ForRange(k.name, _int(0), extent, _int(1), body(k)))

    def assign(self, var, value):
        self.lo.prelude.append(ir.Assign(var.name, value))

    # --- solvers and inverses ------------------------------------------------------------

    def inv(self, node, what):
        return self.inverse(node, self.operand(node, what, self.args(node, what, ("a",))["a"]))

    def inverse(self, node, a):
        """The matrix a solved against the identity of its order."""
        t = a.type.dtype
        n = self.lo.arrays.bind("dim", ir.Shape(a, 1))
        identity = self.lo.arrays.new(node, [n, n], t, "zeros")
        self.loop(n, lambda k: [ir.Store(identity, [k, k], _const(1, t), True)])
        return self.service("solve", t, [a, identity], T.ArrayType(t, 2, "C"))

    def solve(self, node, what):
        a = self.args(node, what, ("a", "b"), 2)
        (a, b), t = self.same_dtype(node, [self.operand(node, what, a["a"]),
                                           self.operand(node, what, a["b"], (1, 2))])
        return self.service("solve", t, [a, b], T.ArrayType(t, b.type.ndim, "C"))

    def lu(self, node, what):
        a = self.operand(node, what, self.args(node, what, ("a",))["a"])
        t = a.type.dtype
        lu, pivots = self.service("lu_factor", t, [a], T.TupleType(
            (T.ArrayType(t, 2, "C"), T.ArrayType("int64", 1, "C")))).items
        return lu, pivots, t

    def det(self, node, what):
        """The product of U's diagonal in order, negated for each row swap (Numba's)."""
        lu, pivots, t = self.lu(node, what)
        d = self.lo.arrays.bind("det", _const(1, t))
        swapped = lambda k: ir.Compare("ne", ir.Load(pivots, [k], "int64", True),  # noqa: E731
                                       ir.Binary("add", k, _int(1), "int64"))
        self.loop(ir.Shape(lu, 0), lambda k: [
            ir.Assign(d.name, ir.Binary("multiply", d, ir.Load(lu, [k, k], t, True), t)),
            ir.If(swapped(k), [ir.Assign(d.name, ir.Unary("neg", d, t))], [])])
        return d

    def slogdet(self, node, what):
        """(sign, log|det|): each diagonal element's phase and log magnitude; (0, -inf)
        for a singular matrix."""
        lu, pivots, t = self.lu(node, what)
        r = real_of(t)
        arrays = self.lo.arrays
        sign = arrays.bind("sign", _const(1, t))
        logdet = arrays.bind("logdet", ir.Const(0.0, r))

        def step(k):
            v = arrays.temp("diag", t)
            m = arrays.temp("magnitude", r)
            vv, mv = ir.Var(v, t), ir.Var(m, r)
            zero = ir.Compare("eq", mv, ir.Const(0, r))
            phase = ir.Select(zero, _const(0, t), ir.Call("divide", [vv, self.lo.cast(mv, t)], t), t)
            swapped = ir.Compare("ne", ir.Load(pivots, [k], "int64", True),
                                 ir.Binary("add", k, _int(1), "int64"))
            return [ir.Assign(v, ir.Load(lu, [k, k], t, True)),
                    ir.Assign(m, ir.Call("absolute", [vv], r)),
                    ir.Assign(logdet.name, ir.Binary("add", logdet, ir.Call("log", [mv], r), r)),
                    ir.Assign(sign.name, ir.Binary("multiply", sign, phase, t)),
                    ir.If(swapped, [ir.Assign(sign.name, ir.Unary("neg", sign, t))], [])]

        self.loop(ir.Shape(lu, 0), step)
        singular = ir.Compare("eq", sign, _const(0, t))
        self.lo.prelude.append(ir.If(singular, [ir.Assign(logdet.name, ir.Const(-math.inf, r))], []))
        return ir.MakeTuple([sign, logdet], T.TupleType((t, r)))

    def lstsq(self, node, what):
        """(x, residuals, rank, singular values); rcond -1 (Numba's default) is machine
        precision."""
        a = self.args(node, what, ("a", "b", "rcond"), 2)
        (m, b), t = self.same_dtype(node, [self.operand(node, what, a["a"]),
                                           self.operand(node, what, a["b"], (1, 2))])
        rcond = (self.lo.numpy_calls.number(node, a["rcond"], f"{what}'s rcond")
                 if a["rcond"] is not None else ir.Const(-1.0, "float64"))
        r = real_of(t)
        return self.service("lstsq", t, [m, b], T.TupleType((
            T.ArrayType(t, b.type.ndim, "C"), T.ArrayType(r, 1, "C"), "int64",
            T.ArrayType(r, 1, "C"))), rcond)

    def pinv(self, node, what):
        """The pseudo-inverse from the SVD: conj(vh).T scaled by the inverse singular values
        above rcond * max(s), times conj(u).T."""
        a = self.args(node, what, ("a", "rcond"))
        x = self.operand(node, what, a["a"])
        rcond = (self.lo.numpy_calls.number(node, a["rcond"], f"{what}'s rcond")
                 if a["rcond"] is not None else ir.Const(1e-15, "float64"))
        t = x.type.dtype
        r = real_of(t)
        arrays = self.lo.arrays
        u, s, vh = self.service("svd", t, [x], T.TupleType((
            T.ArrayType(t, 2, "C"), T.ArrayType(r, 1, "C"), T.ArrayType(t, 2, "C"))),
            ir.Const(0.0, "float64")).items
        k = arrays.bind("dim", ir.Shape(s, 0))
        largest = arrays.bind("largest", ir.Select(
            ir.Compare("gt", k, _int(0)), ir.Load(s, [_int(0)], r, True), ir.Const(0, r), r))
        cutoff = arrays.bind("cutoff", ir.Binary(
            "multiply", self.lo.cast(arrays.scalar(rcond), r), largest, r))
        inverse = arrays.where(node, arrays.ufunc(node, np.greater, [s, cutoff]),
                               arrays.ufunc(node, np.divide, [ir.Const(1, r), s]), ir.Const(0, r))
        left = self.conjugate_transpose(node, vh)
        scaled = arrays.ufunc(node, np.multiply, [left, inverse])
        return arrays.matmul(node, scaled, self.conjugate_transpose(node, u))

    def conjugate_transpose(self, node, a):
        t = a.type
        view = ir.Transpose(a, T.ArrayType(t.dtype, 2, "A"))
        if T.is_complex(t.dtype):
            return self.lo.arrays.ufunc(node, np.conjugate, [view])
        return view

    # --- decompositions --------------------------------------------------------------------

    def cholesky(self, node, what):
        a = self.operand(node, what, self.args(node, what, ("a",))["a"])
        t = a.type.dtype
        return self.service("cholesky", t, [a], T.ArrayType(t, 2, "C"))

    def qr(self, node, what):
        a = self.operand(node, what, self.args(node, what, ("a",))["a"])
        t = a.type.dtype
        return self.service("qr", t, [a], T.TupleType((T.ArrayType(t, 2, "C"),) * 2))

    def svd(self, node, what):
        a = self.args(node, what, ("a", "full_matrices"))
        x = self.operand(node, what, a["a"])
        full = (self.lo.truth(self.lo.expr(a["full_matrices"]))
                if a["full_matrices"] is not None else ir.Const(True, "bool"))
        t = x.type.dtype
        return self.service("svd", t, [x], T.TupleType((
            T.ArrayType(t, 2, "C"), T.ArrayType(real_of(t), 1, "C"), T.ArrayType(t, 2, "C"))),
            full)

    def eigh(self, node, what, vectors=True):
        a = self.operand(node, what, self.args(node, what, ("a",))["a"])
        t = a.type.dtype
        w = T.ArrayType(real_of(t), 1, "C")
        if not vectors:
            return self.service("eigvalsh", t, [a], w)
        return self.service("eigh", t, [a], T.TupleType((w, T.ArrayType(t, 2, "C"))))

    def eigvalsh(self, node, what):
        return self.eigh(node, what, vectors=False)

    def eig(self, node, what, vectors=True):
        a = self.operand(node, what, self.args(node, what, ("a",))["a"])
        t = a.type.dtype
        w = T.ArrayType(t, 1, "C")
        if not vectors:
            return self.service("eigvals", t, [a], w)
        return self.service("eig", t, [a], T.TupleType((w, T.ArrayType(t, 2, "C"))))

    def eigvals(self, node, what):
        return self.eig(node, what, vectors=False)

    def singular_values(self, a):
        t = a.type.dtype
        return self.service("svdvals", t, [a], T.ArrayType(real_of(t), 1, "C"))

    # --- norms and what they measure ---------------------------------------------------

    def constant(self, node, what, value_node):
        """The value of a constant order: None, a number (np.inf and -np.inf too), or a
        string ('fro', 'nuc')."""
        if value_node is None:
            return None
        if isinstance(value_node, ast.Constant):
            return value_node.value
        if isinstance(value_node, ast.UnaryOp) and isinstance(value_node.op, (ast.USub, ast.UAdd)):
            inner = self.constant(node, what, value_node.operand)
            if isinstance(inner, (int, float)):
                return -inner if isinstance(value_node.op, ast.USub) else inner
        value = self.lo.expr(value_node)
        if isinstance(value, ir.Const) and T.kind(value.type) in "bif":
            return value.value
        raise self.lo.error(node, f"{what}'s order must be a constant here (None, a number, "
                                  "np.inf, 'fro' or 'nuc')")

    def norm(self, node, what):
        a = self.args(node, what, ("x", "ord"))
        x = self.operand(node, what, a["x"], (1, 2))
        order = self.constant(node, what, a["ord"])
        return self.norm_of(node, x, order)

    def norm_of(self, node, x, order):
        lo, arrays = self.lo, self.lo.arrays
        r = real_of(x.type.dtype)
        magnitude = arrays.ufunc(node, np.absolute, [x])

        def sqrt(value):
            return ir.Call("sqrt", [lo.cast(value, r)], r)

        def squares():
            return arrays.reduce(node, "sum", arrays.ufunc(node, np.multiply, [magnitude, magnitude]))

        if x.type.ndim == 1:
            if order is None or order == 2:
                return arrays.bind("norm", sqrt(squares()))
            if order == math.inf:
                return lo.cast(arrays.reduce(node, "max", magnitude), r)
            if order == -math.inf:
                return lo.cast(arrays.reduce(node, "min", magnitude), r)
            if order == 0:
                nonzero = arrays.ufunc(node, np.not_equal, [x, _const(0, x.type.dtype)])
                return lo.cast(arrays.reduce(node, "sum", nonzero), r)
            if order == 1:
                return lo.cast(arrays.reduce(node, "sum", magnitude), r)
            if isinstance(order, str):
                raise lo.error(node, f"np.linalg.norm of a vector takes a number as its order, "
                                     f"not {order!r}")
            p = ir.Const(float(order), "float64")
            powers = arrays.ufunc(node, np.power, [magnitude, p])
            total = lo.cast(arrays.reduce(node, "sum", powers), "float64")
            return lo.cast(ir.Call("power", [total, ir.Const(1.0 / order, "float64")], "float64"), r)
        if order is None or order == "fro":
            return arrays.bind("norm", sqrt(squares()))
        if order == "nuc":
            return lo.cast(arrays.reduce(node, "sum", self.singular_values(x)), r)
        if order in (2, -2):
            s = self.singular_values(x)
            return lo.cast(arrays.reduce(node, "max" if order == 2 else "min", s), r)
        if order in (1, -1, math.inf, -math.inf):
            axis = 0 if order in (1, -1) else 1
            sums = arrays.sum_axis(node, magnitude, axis)
            return lo.cast(arrays.reduce(node, "max" if order > 0 else "min", sums), r)
        lo.prelude.append(ir.Raise(29))  # Numba's ValueError: Invalid norm order for matrices.
        return ir.Const(math.nan, r)

    def cond(self, node, what):
        """The condition number: the ratio of the extreme singular values (p None, 2, -2),
        else norm(x, p) * norm(inv(x), p)."""
        a = self.args(node, what, ("x", "p"))
        x = self.operand(node, what, a["x"])
        p = self.constant(node, what, a["p"])
        r = real_of(x.type.dtype)
        arrays = self.lo.arrays
        if p is None or p in (2, -2):
            s = self.singular_values(x)
            largest, smallest = (self.lo.cast(arrays.reduce(node, k, s), r) for k in ("max", "min"))
            if p == -2:
                largest, smallest = smallest, largest
            return arrays.bind("cond", ir.Binary("divide", largest, smallest, r))
        inverse = self.inverse(node, x)
        return arrays.bind("cond", ir.Binary("multiply", self.lo.cast(self.norm_of(node, x, p), r),
                                             self.lo.cast(self.norm_of(node, inverse, p), r), r))

    def matrix_rank(self, node, what):
        """The count of singular values above tol (by default max(s) * max(m, n) * eps); a
        vector's rank is 1 unless it is all zeros."""
        a = self.args(node, what, ("A", "tol"))
        x = self.operand(node, what, a["A"], (1, 2))
        arrays = self.lo.arrays
        if x.type.ndim == 1:
            nonzero = arrays.ufunc(node, np.not_equal, [x, _const(0, x.type.dtype)])
            return self.lo.cast(arrays.reduce(node, "any", nonzero), "int64")
        r = real_of(x.type.dtype)
        s = self.singular_values(x)
        if a["tol"] is not None:
            tol = self.lo.cast(arrays.scalar(self.lo.numpy_calls.number(node, a["tol"], f"{what}'s tol")), r)
        else:
            k = arrays.bind("dim", ir.Shape(s, 0))
            largest = ir.Select(ir.Compare("gt", k, _int(0)), ir.Load(s, [_int(0)], r, True),
                                ir.Const(0, r), r)
            extent = ir.Call("maximum", [ir.Shape(x, 0), ir.Shape(x, 1)], "int64")
            eps = float(np.finfo(r).eps)
            tol = arrays.bind("tol", ir.Binary("multiply", ir.Binary(
                "multiply", largest, self.lo.cast(extent, r), r), ir.Const(eps, r), r))
        above = arrays.ufunc(node, np.greater, [s, tol])
        return self.lo.cast(arrays.reduce(node, "sum", above), "int64")
