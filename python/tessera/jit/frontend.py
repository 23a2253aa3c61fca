"""The front end of tessera's Python-kernel compiler: a Python function's AST, typed with
Numba's rules (types.py) for the argument types of a call, becomes the typed IR of ir.py.

Typing is a fixed point, as Numba's: every variable has one type in the function, the
unification of every value assigned to it (`s = 0` then `s += a[i]` with a float array
makes `s` float64 from the start); the loop below lowers the body with the variables'
current types, widens each variable to what was assigned to it, and repeats until nothing
changes (unification only widens, so it ends). The last pass's IR has a Cast wherever a
value meets a variable, an operand or a store of another type.

Anything outside the language raises TypingError naming the file, the line and the
construct, never a C++ compiler message.
"""

import ast
import inspect
import math
import textwrap

import numpy as np

from . import array_exprs, cuda_intrinsics, ir, numpy_calls
from . import types as T
from .array_exprs import is_array


class TypingError(TypeError):
    """A construct the compiler does not take, or types that do not unify (Numba's
    numba.core.errors.TypingError is also a TypeError)."""


class Recursion:
    """A function's calls of itself while it is being typed: what such a call returns is
    `guess`, the unified type of the returns typed so far, settled by typing again until it
    is the function's return type (as Numba infers a recursive function's type from its
    other return paths). `used` says whether the function called itself."""

    def __init__(self, function):
        self.function = function  # the jit function (its dispatcher)
        self.guess = None
        self.used = False


class UnknownRecursiveReturn(Exception):
    """A call of the function being typed before any return told what it returns; the
    typing starts again with the returns seen until then as the guess."""


class SelfCall:
    """Stands for the function being typed where it calls itself: its IR name and the
    return type guessed so far (Recursion)."""

    callees = []
    returns_argument = None

    def __init__(self, name, return_type):
        self.name = name
        self.return_type = return_type


# Python operators -> (IR op, result rule). Shifts keep the right operand's own type.
BINARY = {
    ast.Add: ("add", T.arithmetic_result), ast.Sub: ("subtract", T.arithmetic_result),
    ast.Mult: ("multiply", T.arithmetic_result), ast.Div: ("divide", T.true_divide_result),
    ast.FloorDiv: ("floor_divide", T.arithmetic_result), ast.Mod: ("remainder", T.arithmetic_result),
    ast.Pow: ("power", T.power_result), ast.BitAnd: ("bitwise_and", T.bitwise_result),
    ast.BitOr: ("bitwise_or", T.bitwise_result), ast.BitXor: ("bitwise_xor", T.bitwise_result),
    ast.LShift: ("left_shift", T.shift_result), ast.RShift: ("right_shift", T.shift_result),
}
COMPARE = {ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge", ast.Eq: "eq", ast.NotEq: "ne"}

# math-module functions of one float argument, by the ufunc (functor) that computes them.
MATH_UNARY = {
    "sin": "sin", "cos": "cos", "tan": "tan", "asin": "arcsin", "acos": "arccos",
    "atan": "arctan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "asinh": "arcsinh",
    "acosh": "arccosh", "atanh": "arctanh", "exp": "exp", "expm1": "expm1", "log": "log",
    "log2": "log2", "log10": "log10", "log1p": "log1p", "sqrt": "sqrt", "fabs": "fabs",
    "erf": "erf", "erfc": "erfc", "gamma": "gamma", "lgamma": "lgamma",
    "degrees": "degrees", "radians": "radians",
}
MATH_BINARY = {"atan2": "arctan2", "hypot": "hypot", "pow": "power", "copysign": "copysign",
               "fmod": "fmod"}
ARRAY_CREATORS = ("empty", "zeros", "ones", "empty_like", "zeros_like", "ones_like")
MATH_CONSTANTS = {"pi": math.pi, "e": math.e, "tau": math.tau, "inf": math.inf, "nan": math.nan}
NUMPY_CONSTANTS = ("pi", "e", "inf", "nan", "euler_gamma")


def source_of(function):
    """The function's AST, its file and the line its `def` is on."""
    try:
        lines, first = inspect.getsourcelines(function)
    except (OSError, TypeError):
        raise TypingError(f"[jit] the source of {function!r} cannot be found (tessera compiles "
                          "a function from its source file; one typed at an interactive "
                          "prompt or built by exec has none)") from None
    tree = ast.parse(textwrap.dedent("".join(lines)))
    definition = tree.body[0]
    if not isinstance(definition, ast.FunctionDef):
        raise TypingError(f"{function!r} is not a function defined with def")
    return definition, inspect.getsourcefile(function) or "<unknown>", first


class Lowering:
    """One pass over the function with the variables' current types."""

    def __init__(self, function, var_types, globals_, parallel=False, target="cpu",
                 recursion=None):
        self.function = function
        self.recursion = recursion  # the Recursion of a jit function's specialization
        self.target = target  # "cpu", or "cuda" (a cuda.jit kernel or device function)
        self.parallel = parallel  # prange loops run in parallel
        self.in_prange = False
        self.var_types = var_types
        self.globals = globals_
        self.assigned = {}  # name -> unified type of what this pass assigned to it
        self.grid_groups = set()  # names of cuda.cg.this_grid() groups (CUDA only)
        self.externals = []  # the cuda.declare_device functions called
        self.returns = []  # types of the values returned (or ("argument", k))
        self.callees = {}  # name -> ir.Function of the jit functions it calls
        self.temporaries = 0  # tuples being unpacked, named in order (the same every pass)
        # Loop variables' known lower bounds inside their loops (only variables that nothing
        # but for loops assigns), for indices known not to be negative.
        self.lower_bounds = {}
        self.line = function.line
        self.loop_depth = 0
        # Statements the statement being lowered needs first (array expressions' loops).
        self.prelude = []
        self.arrays = array_exprs.ArrayLowering(self)
        self.numpy_calls = numpy_calls.NumpyCalls(self)

    # --- errors --------------------------------------------------------------------------

    def error(self, node, what):
        line = getattr(node, "lineno", None)
        where = self.function.first_line + line - 1 if line else self.function.first_line
        return TypingError(f"[jit] {self.function.filename}:{where} in {self.function.name}(): "
                           f"{what}")

    # --- variables ------------------------------------------------------------------------

    def assign_type(self, node, name, t):
        old = self.assigned.get(name)
        new = t if old is None else T.unify(old, t)
        if new is None:
            raise self.error(node, f"variable '{name}' is assigned a {t} and a {old}, which do "
                                   "not unify")
        self.assigned[name] = new

    def variable(self, node, name):
        t = self.var_types.get(name, self.assigned.get(name))
        if t is None:
            raise self.error(node, f"variable '{name}' is used before it is assigned")
        return ir.Var(name, t)

    # --- expressions ----------------------------------------------------------------------

    def cast(self, value, t):
        if value.type == t:
            return value
        if isinstance(t, T.ArrayType) and not isinstance(value.type, T.ArrayType):
            raise TypingError(f"a {value.type} is not an array")
        if isinstance(t, T.TupleType):  # item by item
            return ir.MakeTuple([self.cast(ir.TupleGet(value, k, value.type.items[k]), item)
                                 for k, item in enumerate(t.items)], t)
        return ir.Cast(value, t)

    def truth(self, value):
        if value.type == "bool":
            return value
        if not T.is_scalar(value.type):
            raise TypingError(f"the truth of a {value.type} is not defined")
        return ir.Truth(value)

    def visit(self, kind, node):
        """The method named kind_<NodeClass> applied to node (kind: expr, stmt)."""
        method = getattr(self, f"{kind}_{type(node).__name__}", None)
        if method is None:
            what = "expressions" if kind == "expr" else "statements"
            raise self.error(node, f"{type(node).__name__} {what} are not supported")
        return method(node)

    def expr(self, node):
        """The IR value of an expression; an array expression computed into a new array."""
        value = self.visit("expr", node)
        if isinstance(value, array_exprs.ArrayExpr):
            value = self.arrays.materialize(node, value)
        return value

    def operand(self, node):
        """The IR value of an operand of an array operation: an array expression stays
        lazy (an ArrayExpr), so that the operation joins its loop."""
        return self.visit("expr", node)

    def lowered_apart(self, node):
        """expr(node) and the prelude it needs, kept apart from the current one (a branch
        that may not run)."""
        saved, self.prelude = self.prelude, []
        try:
            value = self.expr(node)
            return value, self.prelude
        finally:
            self.prelude = saved

    def expr_Constant(self, node):
        t = T.literal_type(node.value)
        if t is None:
            raise self.error(node, f"the constant {node.value!r} is not a number or bool")
        return ir.Const(node.value, t)

    def expr_Name(self, node):
        if node.id in self.var_types or node.id in self.assigned:
            return self.variable(node, node.id)
        constant = self.global_constant(self.globals.get(node.id))
        if constant is None:
            raise self.error(node, f"name '{node.id}' is not a local variable or a numeric global")
        return constant

    def global_constant(self, value):
        """A global number (NumPy's scalars in their own type) or tuple of numbers, frozen
        at compile time as Numba freezes them; None for anything else."""
        if isinstance(value, np.generic) and value.dtype.name in T.SCALARS:
            return ir.Const(value.item(), value.dtype.name)
        if isinstance(value, (bool, int, float, complex)):
            return ir.Const(value, T.literal_type(value))
        if isinstance(value, tuple) and value:
            items = [self.global_constant(v) for v in value]
            if None not in items:
                return ir.MakeTuple(items, T.TupleType(tuple(i.type for i in items)))
        return None

    def expr_BinOp(self, node):
        a, b = self.operand(node.left), self.operand(node.right)
        if isinstance(node.op, ast.MatMult):
            return self.arrays.matmul(node, a, b)
        return self.binary(node, type(node.op), a, b)

    def binary(self, node, op_class, a, b):
        if op_class not in BINARY:
            raise self.error(node, f"the operator {op_class.__name__} is not supported")
        op, rule = BINARY[op_class]
        if is_array(a) or is_array(b):
            for v in (a, b):
                if not (is_array(v) or T.is_scalar(v.type)):
                    raise self.error(node, f"{op} of an array and a {v.type} is not supported")
            return self.arrays.ufunc(node, array_exprs.OPERATOR_UFUNCS[op_class], [a, b])
        if op == "add" and isinstance(a.type, T.TupleType) and isinstance(b.type, T.TupleType):
            a, b = self.held(node, a), self.held(node, b)
            items = [ir.TupleGet(v, k, t) for v in (a, b) for k, t in enumerate(v.type.items)]
            return ir.MakeTuple(items, T.TupleType(a.type.items + b.type.items))
        if not (T.is_scalar(a.type) and T.is_scalar(b.type)):
            raise self.error(node, f"{op} of {a.type} and {b.type} is not supported")
        if op in ("floor_divide", "remainder") and "c" in (T.kind(a.type), T.kind(b.type)):
            raise self.error(node, f"{op} is not defined for complex numbers")
        if op.startswith(("bitwise", "left", "right")) and not {T.kind(a.type), T.kind(b.type)} <= {"b", "i"}:
            raise self.error(node, f"{op} takes integers or bools, not {a.type} and {b.type}")
        t = rule(a.type, b.type)
        if op in ("left_shift", "right_shift"):
            return ir.Binary(op, self.cast(a, t), self.cast(b, "int64"), t)
        return ir.Binary(op, self.cast(a, t), self.cast(b, t), t)

    def held(self, node, value):
        """`value`, computed once into a temporary by the prelude unless it is a variable
        already, for an expression that reads it more than once."""
        if isinstance(value, ir.Var):
            return value
        temp = f"ts_tuple{self.temporaries}"
        self.temporaries += 1
        self.assign_type(node, temp, value.type)
        self.prelude.append(ir.Assign(temp, value))
        return ir.Var(temp, value.type)

    def expr_UnaryOp(self, node):
        value = self.operand(node.operand)
        if isinstance(node.op, ast.Not):
            if isinstance(value, array_exprs.ArrayExpr):
                raise self.error(node, "the truth of an array is not defined")
            return ir.Unary("not", self.truth(value), "bool")
        if is_array(value):
            return self.arrays.ufunc(node, array_exprs.UNARY_UFUNCS[type(node.op)], [value])
        if not T.is_scalar(value.type):
            raise self.error(node, f"unary {type(node.op).__name__} of {value.type}")
        if isinstance(node.op, ast.Invert):
            if T.kind(value.type) not in "bi":
                raise self.error(node, f"~ takes integers or bools, not {value.type}")
            t = T.invert_result(value.type)
            return ir.Unary("invert", self.cast(value, t), t)
        t = T.negate_result(value.type)
        return ir.Unary("neg" if isinstance(node.op, ast.USub) else "pos", self.cast(value, t), t)

    def expr_Compare(self, node):
        left = self.operand(node.left)
        if len(node.ops) == 1 and type(node.ops[0]) in array_exprs.OPERATOR_UFUNCS:
            right = self.operand(node.comparators[0])
            if is_array(left) or is_array(right):
                return self.arrays.ufunc(node, array_exprs.OPERATOR_UFUNCS[type(node.ops[0])],
                                         [left, right])
        elif isinstance(left, array_exprs.ArrayExpr):
            left = self.arrays.materialize(node, left)  # refused below, as NumPy refuses it
        result = None
        for op, right_node in zip(node.ops, node.comparators):
            if type(op) not in COMPARE:
                raise self.error(node, f"the comparison {type(op).__name__} is not supported")
            right = self.expr(right_node)
            if not (T.is_scalar(left.type) and T.is_scalar(right.type)):
                raise self.error(node, f"comparing {left.type} with {right.type}")
            t = T.promote(left.type, right.type)
            if "c" in (T.kind(left.type), T.kind(right.type)) and type(op) not in (ast.Eq, ast.NotEq):
                raise self.error(node, "complex numbers are not ordered")
            test = ir.Compare(COMPARE[type(op)], self.cast(left, t), self.cast(right, t))
            result = test if result is None else ir.Select(result, test, ir.Const(False, "bool"),
                                                           "bool")
            left = right
        return result

    def expr_BoolOp(self, node):
        # Python's `a and b` is a if a is false, else b; Numba types it as their unification.
        values, preludes = zip(*[self.lowered_apart(v) for v in node.values])
        self.prelude.extend(preludes[0])
        t = values[0].type
        for v in values[1:]:
            t = T.unify(t, v.type)
            if t is None or not T.is_scalar(t):
                raise self.error(node, "`and`/`or` of values that do not unify")
        if any(preludes[1:]):  # a later value needs statements: run them only if it is taken
            name = self.arrays.temp("choice", t)
            chain = list(preludes[-1]) + [ir.Assign(name, self.cast(values[-1], t))]
            for k in reversed(range(len(values) - 1)):
                held = ir.Var(self.arrays.temp("held", values[k].type), values[k].type)
                done = [ir.Assign(name, self.cast(held, t))]
                test = (ir.If(self.truth(held), chain, done) if isinstance(node.op, ast.And)
                        else ir.If(self.truth(held), done, chain))
                chain = (list(preludes[k]) if k else []) + [ir.Assign(held.name, values[k]), test]
            self.prelude.extend(chain)
            return ir.Var(name, t)
        result = self.cast(values[-1], t)
        for v in reversed(values[:-1]):
            held = self.cast(v, t)
            if isinstance(node.op, ast.And):
                result = ir.Select(self.truth(v), result, held, t)
            else:
                result = ir.Select(self.truth(v), held, result, t)
        return result

    def expr_IfExp(self, node):
        cond = self.truth(self.expr(node.test))
        (a, a_prelude), (b, b_prelude) = self.lowered_apart(node.body), self.lowered_apart(node.orelse)
        t = T.unify(a.type, b.type)
        if t is None:
            raise self.error(node, f"the branches' types {a.type} and {b.type} do not unify")
        if a_prelude or b_prelude:  # only the branch taken computes its arrays
            name = self.arrays.temp("choice", t)
            self.prelude.append(ir.If(cond, a_prelude + [ir.Assign(name, self.cast(a, t))],
                                      b_prelude + [ir.Assign(name, self.cast(b, t))]))
            return ir.Var(name, t)
        return ir.Select(cond, self.cast(a, t), self.cast(b, t), t)

    def expr_Attribute(self, node):
        path = cuda_intrinsics.path_of(self, node)
        if path is not None:
            self.require_cuda(node, f"cuda.{path}")
            return cuda_intrinsics.attribute(self, node, path)
        if isinstance(node.value, ast.Name) and self.globals.get(node.value.id) is math:
            if node.attr in MATH_CONSTANTS:
                return ir.Const(MATH_CONSTANTS[node.attr], "float64")
            raise self.error(node, f"math.{node.attr} is not a constant")
        if self.names_module(node.value, np) and node.attr in NUMPY_CONSTANTS:
            return ir.Const(getattr(np, node.attr), "float64")
        value = self.expr(node.value)
        if T.is_scalar(value.type) and node.attr in ("real", "imag"):
            if T.is_complex(value.type):
                part = "float32" if value.type == "complex64" else "float64"
                return ir.Part(node.attr, value, part)
            return value if node.attr == "real" else ir.Const(0, value.type)
        if T.is_scalar(value.type) and node.attr == "conjugate":
            raise self.error(node, "call x.conjugate() (a method) rather than read it")
        if isinstance(value.type, ir.ArrayType):
            if node.attr == "ndim":
                return ir.Const(value.type.ndim, "int64")
            if node.attr == "size":
                size = ir.Const(1, "int64")
                for axis in range(value.type.ndim):
                    size = ir.Binary("multiply", size, ir.Shape(value, axis), "int64")
                return size
            if node.attr == "shape":
                items = [ir.Shape(value, k) for k in range(value.type.ndim)]
                return ir.MakeTuple(items, T.TupleType(tuple("int64" for _ in items)))
            if node.attr == "T":
                return transposed(value)
            if node.attr in ("real", "imag"):
                return self.array_part(node, value, node.attr)
        raise self.error(node, f"attribute .{node.attr} of a {value.type} is not supported")

    def array_part(self, node, value, part):
        """a.real and a.imag: views of a complex array's parts; of a real array, the array
        itself and a new array of zeros (as Numba gives them)."""
        t = value.type
        if T.is_complex(t.dtype):
            value = self.arrays.array_value(node, value)
            real = "float32" if t.dtype == "complex64" else "float64"
            return ir.PartView(part, value, T.ArrayType(real, t.ndim, "A", t.readonly))
        if part == "real":
            return value
        value = self.arrays.array_value(node, value)
        return self.arrays.new(node, [ir.Shape(value, k) for k in range(t.ndim)], t.dtype, "zeros")

    def expr_Tuple(self, node):
        items = [self.expr(e) for e in node.elts]
        return ir.MakeTuple(items, T.TupleType(tuple(i.type for i in items)))

    def tuple_slice(self, node, value, bounds):
        """t[start:stop:step] of a tuple with constant bounds: a new tuple of its items."""
        parts = []
        for b in (bounds.lower, bounds.upper, bounds.step):
            k = None if b is None else self.constant_int(b)
            if b is not None and k is None:
                raise self.error(node, "a tuple's slice bounds must be constant integers")
            parts.append(k)
        if parts[2] == 0:
            raise self.error(node, "slice step cannot be zero")
        held = self.held(node, value)
        picked = range(len(value.type.items))[slice(*parts)]
        items = [ir.TupleGet(held, k, value.type.items[k]) for k in picked]
        return ir.MakeTuple(items, T.TupleType(tuple(i.type for i in items)))

    def tuple_item(self, node, value, index_node):
        """value[index] of a tuple: a constant index (negative ones from the end), or an
        integer expression when every item has one type."""
        items = value.type.items
        k = self.constant_int(index_node)
        if k is not None:
            if not -len(items) <= k < len(items):
                raise self.error(node, f"tuple index {k} out of range for {len(items)} items")
            return ir.TupleGet(value, k % len(items), items[k % len(items)])
        if len(set(items)) != 1:
            raise self.error(node, "indexing a tuple of mixed types takes a constant index")
        index = self.expr(index_node)
        if T.kind(index.type) not in "bi" or index.type == "bool":
            raise self.error(node, f"a tuple index must be an integer, not {index.type}")
        return ir.TupleGet(value, self.cast(index, "int64"), items[0])

    def expr_Subscript(self, node):
        # a.shape[k] (a.shape[1:] slices the shape's tuple)
        if isinstance(node.value, ast.Attribute) and node.value.attr == "shape" \
                and not isinstance(node.slice, ast.Slice):
            array = self.expr(node.value.value)
            if not isinstance(array.type, ir.ArrayType):
                raise self.error(node, f".shape of a {array.type}")
            axis = self.constant_int(node.slice)
            if axis is None:
                raise self.error(node, ".shape takes a constant index")
            if not -array.type.ndim <= axis < array.type.ndim:
                raise self.error(node, f"shape index {axis} out of range for {array.type.ndim} "
                                       "dimensions")
            return ir.Shape(array, axis % array.type.ndim)
        array = self.expr(node.value)
        if isinstance(array.type, T.TupleType):
            if isinstance(node.slice, ast.Slice):
                return self.tuple_slice(node, array, node.slice)
            return self.tuple_item(node, array, node.slice)
        if not isinstance(array.type, ir.ArrayType):
            raise self.error(node, f"indexing a {array.type}")
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if any(isinstance(i, ast.Slice) or self.is_new_axis(i) for i in items):
            return self.view(node, array, items)
        if len(items) == 1:
            value = self.operand(items[0])
            if is_array(value):
                return self.arrays.masked(node, array, value)
            if array.type.ndim > 1 and not isinstance(value.type, T.TupleType):
                return self.view(node, array, items, [value])  # a[i] of a 2-d array: its row
            indices = self.checked_indices(node, array, (
                [ir.TupleGet(value, k, t) for k, t in enumerate(value.type.items)]
                if isinstance(value.type, T.TupleType) else [value]))
        elif len(items) < array.type.ndim:
            return self.view(node, array, items)  # a[i, j] of a 3-d array: a row
        else:
            indices = self.indices(node, array)
        return ir.Load(array, indices, array.type.dtype, self.direct(indices))

    def view(self, node, array, items, values=None):
        """The view of `array` a subscript with slices, or with fewer indices than
        dimensions, selects (Numba's basic indexing). Its layout is C where it is
        contiguous for sure: a C array's view by leading indices, then at most one slice
        without a step, then whole dimensions; any strides otherwise."""
        ndim = array.type.ndim
        taken = sum(1 for item in items if not self.is_new_axis(item))
        if taken > ndim:
            raise self.error(node, f"too many indices for a {ndim}-d array: {taken}")
        view_items, contiguous, seen_slice = [], array.type.layout == "C", False
        for k, item in enumerate(items):
            if self.is_new_axis(item):  # an extent of 1 changes no array's contiguity
                view_items.append(("newaxis",))
            elif isinstance(item, ast.Slice):
                bounds = []
                for b in (item.lower, item.upper, item.step):
                    if b is None:
                        bounds.append(None)
                        continue
                    value = self.expr(b)
                    if T.kind(value.type) not in "bi" or value.type == "bool":
                        raise self.error(node, f"slice bounds must be integers, not {value.type}")
                    bounds.append(self.cast(value, "int64"))
                if isinstance(bounds[2], ir.Const) and bounds[2].value == 0:
                    raise self.error(node, "slice step cannot be zero")
                whole = bounds == [None, None, None]
                if seen_slice and not whole or bounds[2] is not None:
                    contiguous = False
                seen_slice = True
                view_items.append(("slice", *bounds))
            else:
                value = values[k] if values else self.expr(item)
                if T.kind(value.type) not in "bi" or value.type == "bool":
                    raise self.error(node, f"an index must be an integer, not {value.type}")
                if seen_slice:
                    contiguous = False
                view_items.append(("index", self.cast(value, "int64")))
        kept = sum(1 for i in view_items if i[0] != "index") + ndim - taken
        t = T.ArrayType(array.type.dtype, kept, "C" if contiguous else "A", array.type.readonly)
        return ir.View(array, view_items, t)

    def is_new_axis(self, node):
        """Whether a subscript's item is None or np.newaxis."""
        if isinstance(node, ast.Constant):
            return node.value is None
        return isinstance(node, ast.Attribute) and node.attr == "newaxis" \
            and self.names_module(node.value, np)

    def constant_int(self, node):
        if isinstance(node, ast.Constant) and isinstance(node.value, int):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = self.constant_int(node.operand)
            return None if inner is None else -inner
        return None

    def lower_bound(self, value):
        """A lower bound of an integer expression's value, or None when none is known."""
        if isinstance(value, ir.Const) and isinstance(value.value, int) \
                and not isinstance(value.value, bool):
            return value.value
        if isinstance(value, ir.Var):
            return self.lower_bounds.get(value.name)
        if isinstance(value, ir.Shape):
            return 0
        if isinstance(value, ir.Cast) and T.kind(value.value.type) == "i":
            return self.lower_bound(value.value)
        if isinstance(value, ir.Binary) and value.op in ("add", "subtract", "multiply"):
            a = self.lower_bound(value.a)
            if value.op == "subtract":
                b = value.b.value if isinstance(value.b, ir.Const) else None
                return None if a is None or b is None else a - b
            b = self.lower_bound(value.b)
            if a is None or b is None:
                return None
            if value.op == "add":
                return a + b
            return 0 if a >= 0 and b >= 0 else None
        return None

    def indices(self, node, array):
        """One int64 index per dimension, negative ones counting from the end (Numba
        wraps them)."""
        return self.index_list(node, array, node.slice)

    def index_list(self, node, array, index_node):
        """The int64 indices of `index_node` (an integer, or a tuple of one per dimension)
        into `array`."""
        if isinstance(index_node, ast.Tuple):
            values = []
            for item in index_node.elts:
                if isinstance(item, ast.Slice):
                    raise self.error(node, "slices are not supported yet")
                values.append(self.expr(item))
        elif isinstance(index_node, ast.Slice):
            raise self.error(node, "slices are not supported yet")
        else:
            value = self.expr(index_node)
            values = ([ir.TupleGet(value, k, t) for k, t in enumerate(value.type.items)]
                      if isinstance(value.type, T.TupleType) else [value])
        return self.checked_indices(node, array, values)

    def checked_indices(self, node, array, values):
        """`values`, one integer per dimension of `array`, as int64 indices."""
        if len(values) != array.type.ndim:
            raise self.error(node, f"{len(values)} indices for a {array.type.ndim}-d array "
                                   "(slices and partial indexing are not supported yet)")
        out = []
        for index in values:
            if T.kind(index.type) not in "bi" or index.type == "bool":
                raise self.error(node, f"an index must be an integer, not {index.type}")
            out.append(self.cast(index, "int64"))
        return out

    def require_cuda(self, node, what):
        if self.target != "cuda":
            raise self.error(node, f"{what} exists only in CUDA kernels and device functions "
                                   "(tessera.cuda.jit)")

    def direct(self, indices):
        """Whether every index is known not to be negative."""
        return all((bound := self.lower_bound(i)) is not None and bound >= 0 for i in indices)

    def expr_Call(self, node):
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "sync" and self.is_grid_group(func.value):
            if node.args or node.keywords:
                raise self.error(node, "a grid group's sync() takes no arguments")
            return ir.Intrinsic("grid_sync", [], T.NONE)
        path = cuda_intrinsics.path_of(self, func)
        if path is not None:
            self.require_cuda(node, f"cuda.{path}()")
            return cuda_intrinsics.call(self, node, path)
        call = self.numpy_calls.dispatch(node)
        if call is not None:
            return call
        if isinstance(func, ast.Attribute) and func.attr in array_exprs.METHODS \
                and not self.names_module(func.value):
            owner = self.operand(func.value)
            if not is_array(owner):
                raise self.error(node, f".{func.attr}() of a {owner.type} is not supported")
            return self.array_method(node, func.attr, owner, node.args, node.keywords)
        if isinstance(func, ast.Attribute) and self.names_module(func.value, np) \
                and func.attr in array_exprs.NUMPY_FUNCTIONS:
            if not node.args:
                raise self.error(node, f"np.{func.attr}() takes an array")
            owner = self.operand(node.args[0])
            if not is_array(owner):
                raise self.error(node, f"np.{func.attr}() of a {owner.type} is not supported")
            return self.array_method(node, array_exprs.NUMPY_FUNCTIONS[func.attr], owner,
                                     node.args[1:], node.keywords, f"np.{func.attr}")
        if node.keywords and not (isinstance(func, ast.Attribute) and func.attr in ARRAY_CREATORS):
            raise self.error(node, "keyword arguments are not supported here")
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and self.globals.get(func.value.id) is math:
            return self.math_call(node, func.attr)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and self.globals.get(func.value.id) is np \
                and isinstance(getattr(np, func.attr, None), np.ufunc):
            return self.ufunc_call(node, getattr(np, func.attr))
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) \
                and self.globals.get(func.value.id) is np and func.attr in ARRAY_CREATORS:
            return self.new_array(node, func.attr)
        scalar_type = self.scalar_type_called(func)
        if scalar_type is not None:
            if len(node.args) != 1:
                raise self.error(node, f"{ast.unparse(func)}() takes one number")
            value = self.expr(node.args[0])
            if not T.is_scalar(value.type):
                raise self.error(node, f"{ast.unparse(func)}() of a {value.type}")
            if scalar_type == "bool":
                return self.truth(value)
            return self.cast(value, scalar_type)
        if isinstance(func, ast.Name) and func.id in ("abs", "min", "max", "float", "int",
                                                      "bool", "complex", "range", "len"):
            return self.builtin_call(node, func.id)
        if isinstance(func, ast.Name) and hasattr(self.globals.get(func.id), "lower_for"):
            return self.jit_call(node, self.globals[func.id])
        if isinstance(func, ast.Name) and func.id == self.function.name \
                and func.id not in self.globals and func.id not in self.var_types \
                and self.recursion is not None:
            # Its own name, not yet bound: an eager signature compiles it at decoration.
            return self.jit_call(node, self.recursion.function)
        if isinstance(func, ast.Name) and func.id not in self.var_types \
                and hasattr(self.globals.get(func.id), "_tessera_declared_device"):
            return self.external_call(node, self.globals[func.id])
        raise self.error(node, f"calling {ast.unparse(func)} is not supported")

    def names_module(self, node, module=None):
        """Whether `node` is a global name of a module (of `module`, when given), not a
        local variable."""
        if not isinstance(node, ast.Name) or node.id in self.var_types or node.id in self.assigned:
            return False
        value = self.globals.get(node.id)
        return value is module if module is not None else inspect.ismodule(value)

    def array_method(self, node, name, owner, args, keywords, spelled=None):
        """a.<name>(...) (or np.<name>(a, ...)): a reduction, a copy, a new shape or order
        (array_exprs.METHODS)."""
        spelled = spelled or f".{name}"
        if name in ("fill", "item"):
            if keywords:
                raise self.error(node, f"{spelled}() takes no keyword arguments")
            return getattr(self.numpy_calls.functions, name)(node, owner, args)
        if name == "astype":
            if len(args) != 1 or keywords:
                raise self.error(node, f"{spelled}() takes one dtype")
            return self.arrays.converted(node, owner, self.dtype_argument(node, args[0]))
        if name == "reshape":
            return self.arrays.reshape(node, owner, self.shape_arguments(node, args, spelled))
        if name in ("sum", "argmin", "argmax") and (args or keywords):
            named = {k.arg: k.value for k in keywords}
            if set(named) - {"axis"} or len(args) + len(named) != 1:
                raise self.error(node, f"{spelled}() takes one axis here (dtype= and out= are "
                                       "not supported yet)")
            axis = self.constant_int(args[0] if args else named["axis"])
            if axis is None:
                raise self.error(node, f"{spelled}()'s axis must be a constant integer")
            if name == "sum":
                return self.arrays.sum_axis(node, owner, axis)
            return self.arrays.arg_axis(node, name, owner, axis)
        if name == "transpose" and (args or keywords):
            return self.permuted(node, owner, args, keywords, spelled)
        if args or keywords:
            raise self.error(node, f"{spelled}() takes no arguments here (axis=, dtype= and "
                                   "out= are not supported yet)")
        if name in ("ravel", "flatten"):
            return self.arrays.flattened(node, owner, copy=name == "flatten")
        if name in ("cumsum", "cumprod"):
            return self.arrays.cumulative(node, name, owner)
        if name == "transpose":
            return transposed(self.arrays.array_value(node, owner))
        if name in ("diff", "median", "unique"):
            return getattr(self.arrays, name)(node, owner)
        if name in ("sort", "sorted"):  # a.sort() in place; np.sort(a) a sorted copy
            return self.arrays.sorted(node, owner, in_place=name == "sort")
        if name == "argsort":
            return self.arrays.argsort(node, owner)
        if name == "copy":
            return self.arrays.converted(node, owner, array_exprs.dtype_of(owner))
        if name in ("conj", "conjugate"):
            return self.arrays.ufunc(node, np.conjugate, [owner])
        return self.arrays.reduce(node, name, owner)

    def permuted(self, node, owner, args, keywords, spelled):
        """a.transpose(1, 0, 2), a.transpose((1, 0, 2)), np.transpose(a, axes=...): a view
        whose dimension k is the array's dimension axes[k] (constant integers, negative ones
        counting from the end)."""
        named = {k.arg: k.value for k in keywords}
        if set(named) - {"axes"} or (named and args):
            raise self.error(node, f"{spelled}() takes the axes, positionally or as axes=")
        items = args if not named else [named["axes"]]
        if len(items) == 1 and isinstance(items[0], (ast.Tuple, ast.List)):
            items = items[0].elts
        axes = [self.constant_int(a) for a in items]
        value = self.arrays.array_value(node, owner)
        t = value.type
        if any(a is None for a in axes):
            raise self.error(node, f"{spelled}()'s axes must be constant integers")
        if len(axes) != t.ndim:
            raise self.error(node, f"{spelled}(): axes don't match array (an array of "
                                   f"dimension {t.ndim}, {len(axes)} axes given)")
        if any(not -t.ndim <= a < t.ndim for a in axes):
            raise self.error(node, f"{spelled}(): an axis is out of bounds for an array of "
                                   f"dimension {t.ndim}")
        axes = tuple(a % t.ndim for a in axes)
        if len(set(axes)) != len(axes):
            raise self.error(node, f"{spelled}(): repeated axis in transpose")
        if axes == tuple(range(t.ndim)):
            return value
        if axes == tuple(reversed(range(t.ndim))):
            return transposed(value)  # a.T, whose layout is known
        return ir.Transpose(value, T.ArrayType(t.dtype, t.ndim, "A", t.readonly), axes)

    def shape_arguments(self, node, args, spelled):
        """The int64 extents of reshape's arguments: integers, or one tuple of them."""
        values = [self.expr(a) for a in args]
        if len(values) == 1 and isinstance(values[0].type, T.TupleType):
            t = values[0].type
            values = [ir.TupleGet(values[0], k, item) for k, item in enumerate(t.items)]
        if not values or not all(T.is_integer(v.type) for v in values):
            raise self.error(node, f"{spelled}() takes integer extents or a tuple of them")
        return [self.cast(v, "int64") for v in values]

    def is_grid_group(self, node):
        """Whether `node` is a grid group: a name assigned cuda.cg.this_grid(), or the call."""
        if isinstance(node, ast.Name):
            return node.id in self.grid_groups
        return isinstance(node, ast.Call) and not node.args and \
            cuda_intrinsics.path_of(self, node.func) == "cg.this_grid"

    def scalar_type_called(self, func):
        """The scalar type a call converts to when `func` names one (np.float32, a NumPy
        scalar type imported by name, numba.float32), else None."""
        chain, root = [], func
        while isinstance(root, ast.Attribute):
            chain.append(root.attr)
            root = root.value
        if not isinstance(root, ast.Name) or root.id in self.var_types or root.id in self.assigned:
            return None
        value = self.globals.get(root.id)
        for attr in reversed(chain):
            value = getattr(value, attr, None)
        if isinstance(value, type) and issubclass(value, np.generic):
            name = np.dtype(value).name
        elif type(value).__module__.startswith("numba.core.types"):
            name = str(value)
        else:
            return None
        return name if name in T.SCALARS else None

    def math_call(self, node, name):
        args = [self.expr(a) for a in node.args]
        for a in args:
            if not T.is_scalar(a.type) or T.is_complex(a.type):
                raise self.error(node, f"math.{name} takes real numbers, not {a.type}")
        if name in MATH_UNARY and len(args) == 1:
            t = T.float_result(args[0].type)
            return ir.Call(MATH_UNARY[name], [self.cast(args[0], t)], t)
        if name in MATH_BINARY and len(args) == 2:
            t = T.float_result(T.promote(T.float_result(args[0].type), T.float_result(args[1].type)))
            return ir.Call(MATH_BINARY[name], [self.cast(a, t) for a in args], t)
        if name in ("floor", "ceil", "trunc") and len(args) == 1:
            # Python's math.floor returns an int: Numba gives int64 for floats, and an
            # integer itself, widened as -x widens it.
            if T.kind(args[0].type) in "bi":
                return self.cast(args[0], T.negate_result(args[0].type))
            t = T.float_result(args[0].type)
            return ir.Cast(ir.Call(name, [self.cast(args[0], t)], t), "int64")
        if name in ("isnan", "isinf", "isfinite") and len(args) == 1:
            t = T.float_result(args[0].type)
            return ir.Call(name, [self.cast(args[0], t)], "bool")
        raise self.error(node, f"math.{name} with {len(args)} arguments is not supported")

    def dtype_argument(self, node, dtype_node):
        """The dtype an array creation names: np.float32, 'float32', float, int, bool,
        complex."""
        try:
            value = eval(compile(ast.Expression(dtype_node), "<dtype>", "eval"),
                         dict(self.globals), {})
            if type(value).__module__.startswith("numba"):  # numba.float32 and the like
                value = str(value)
            name = np.dtype(value).name
        except Exception:
            raise self.error(node, f"dtype={ast.unparse(dtype_node)} is not a constant dtype")
        if name not in T.SCALARS:
            raise self.error(node, f"arrays of {name} are not supported")
        return name

    def new_array(self, node, creator):
        """np.empty/zeros/ones(shape[, dtype]) and np.empty_like/zeros_like/ones_like(a[,
        dtype]): a new C-contiguous array."""
        if self.target == "cuda":
            raise self.error(node, f"np.{creator} cannot allocate inside a CUDA kernel: use "
                                   "cuda.local.array or cuda.shared.array")
        fill = creator.replace("_like", "")
        keywords = {k.arg: k.value for k in node.keywords}
        if set(keywords) - {"dtype"} or len(node.args) > 2 or not node.args:
            raise self.error(node, f"np.{creator} takes a shape (or an array) and a dtype")
        dtype_node = keywords.get("dtype", node.args[1] if len(node.args) > 1 else None)
        first = self.expr(node.args[0])
        if creator.endswith("_like"):
            if not isinstance(first.type, T.ArrayType):
                raise self.error(node, f"np.{creator} takes an array, not a {first.type}")
            dims = [ir.Shape(first, k) for k in range(first.type.ndim)]
            dtype = first.type.dtype
        else:
            if isinstance(first.type, T.TupleType):
                if not all(T.kind(t) in "bi" and t != "bool" for t in first.type.items):
                    raise self.error(node, f"a shape of {first.type}: integers are needed")
                dims = [self.cast(ir.TupleGet(first, k, t), "int64")
                        for k, t in enumerate(first.type.items)]
            elif T.kind(first.type) in "bi" and first.type != "bool":
                dims = [self.cast(first, "int64")]
            else:
                raise self.error(node, f"np.{creator}'s shape must be an integer or a tuple of "
                                       f"integers, not {first.type}")
            dtype = "float64"
        if dtype_node is not None:
            dtype = self.dtype_argument(node, dtype_node)
        return ir.NewArray(fill, dims, T.ArrayType(dtype, len(dims), "C"))

    def ufunc_call(self, node, ufunc):
        """np.<ufunc>(scalars): the ufunc's loop for the arguments' types, as NumPy (and
        Numba) resolve it, computed by tessera's functor for that ufunc."""
        args = [self.operand(a) for a in node.args]
        if len(args) != ufunc.nin or ufunc.nout != 1:
            raise self.error(node, f"np.{ufunc.__name__} with {len(args)} arguments is not "
                                   "supported (ufuncs of one output, every input given)")
        if any(is_array(a) for a in args):
            for a in args:
                if not (is_array(a) or T.is_scalar(a.type)):
                    raise self.error(node, f"np.{ufunc.__name__} of a {a.type}")
            return self.arrays.ufunc(node, ufunc, args)
        if not all(T.is_scalar(a.type) for a in args):
            raise self.error(node, f"np.{ufunc.__name__} of {', '.join(str(a.type) for a in args)}")
        loop = T.ufunc_loop(ufunc, [a.type for a in args])
        if loop is None:
            raise self.error(node, f"np.{ufunc.__name__} has no loop for "
                                   f"{', '.join(a.type for a in args)}")
        ins, out = loop
        return ir.Call(ufunc.__name__, [self.cast(a, t) for a, t in zip(args, ins)], out)

    def jit_call(self, node, callee):
        """A call of another jit function: its specialization for these argument types
        joins the module, rendered before this function."""
        args = [self.expr(a) for a in node.args]
        try:
            function = callee.lower_for(tuple(a.type for a in args), self.target)
        except RecursionError:
            raise self.error(node, f"{callee.__name__}() is called by a function that it "
                                   "calls: only a function calling itself is supported") from None
        if isinstance(function, SelfCall):
            return ir.CallFunction(function.name, args, function.return_type)
        if function.returns_argument is not None:
            raise self.error(node, f"{callee.__name__}() returns an array: calling it from "
                                   "another jit function is not supported yet")
        for f in function.callees + [function]:
            self.callees.setdefault(f.name, f)
        return ir.CallFunction(function.name, args, function.return_type)

    def external_call(self, node, declared):
        """A call of a CUDA C++ device function declared with cuda.declare_device: its
        arguments converted to the declared types, as Numba converts them."""
        self.require_cuda(node, f"{declared.name}() (a cuda.declare_device function)")
        if node.keywords or len(node.args) != len(declared.args):
            raise self.error(node, f"{declared.name}() is declared with {len(declared.args)} "
                                   f"arguments, {len(node.args)} given")
        args = []
        for a, t in zip(node.args, declared.args):
            value = self.expr(a)
            if not T.is_scalar(value.type):
                raise self.error(node, f"{declared.name}() takes numbers, not a {value.type}")
            args.append(self.cast(value, t))
        if all(e is not declared for e in self.externals):
            self.externals.append(declared)
        return ir.CallExternal(declared.name, declared.abi, args, declared.return_type)

    def builtin_call(self, node, name):
        if name == "abs" and len(node.args) == 1 and not node.keywords:
            value = self.operand(node.args[0])
            if is_array(value):
                return self.arrays.ufunc(node, np.absolute, [value])
            args = [value]
        else:
            args = [self.expr(a) for a in node.args]
        if name == "abs" and len(args) == 1 and T.is_scalar(args[0].type):
            t = T.abs_result(args[0].type)
            if T.is_complex(args[0].type):
                return ir.Call("absolute", [args[0]], t)
            return ir.Call("absolute", [self.cast(args[0], t)], t)
        if name in ("min", "max") and len(args) >= 2 and all(T.is_scalar(a.type) for a in args):
            t = args[0].type
            for a in args[1:]:
                t = T.promote(t, a.type)
            result = self.cast(args[0], t)
            for a in args[1:]:
                # Python's min/max keep the first of equal values; NaN as it compares.
                a = self.cast(a, t)
                op = "lt" if name == "min" else "gt"
                result = ir.Select(ir.Compare(op, a, result), a, result, t)
            return result
        if name == "complex" and len(args) == 2 and all(T.kind(a.type) in "bif" for a in args):
            return ir.MakeComplex(self.cast(args[0], "float64"), self.cast(args[1], "float64"),
                                  "complex128")
        if name in ("float", "int", "bool", "complex") and len(args) == 1:
            target = {"float": "float64", "int": "int64", "bool": "bool",
                      "complex": "complex128"}[name]
            if name == "bool":
                return self.truth(args[0])
            return self.cast(args[0], target)
        if name == "len" and len(args) == 1 and isinstance(args[0].type, ir.ArrayType):
            return ir.Shape(args[0], 0)
        if name == "len" and len(args) == 1 and isinstance(args[0].type, T.TupleType):
            return ir.Const(len(args[0].type.items), "int64")
        raise self.error(node, f"{name}() with these arguments is not supported")

    # --- statements -----------------------------------------------------------------------

    def block(self, statements):
        out = []
        for s in statements:
            out.append(ir.Line(self.function.first_line + s.lineno - 1))
            saved, self.prelude = self.prelude, []
            lowered = self.statement(s)
            out.extend(self.prelude)
            out.extend(lowered)
            self.prelude = saved
        return out

    def statement(self, node):
        return self.visit("stmt", node)

    def stmt_Expr(self, node):
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return []  # a docstring
        call = node.value
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "print" \
                and "print" not in self.globals:
            return [self.print_statement(call)]
        if isinstance(call, ast.Call):
            return [ir.Evaluate(self.expr(call))]
        raise self.error(node, "an expression statement has no effect here")

    def print_statement(self, node):
        """print(...) of strings and numbers: in jit functions as Python prints them (numbers
        in their repr, complex ones too), in CUDA kernels as Numba's CUDA target does."""
        where = "a kernel" if self.target == "cuda" else "a jit function"
        if node.keywords:
            raise self.error(node, f"print() takes no keyword arguments in {where}")
        items = []
        for a in node.args:
            if isinstance(a, ast.Constant) and isinstance(a.value, str):
                items.append(a.value)
                continue
            value = self.expr(a)
            if not T.is_scalar(value.type) or (T.is_complex(value.type) and self.target == "cuda"):
                allowed = "real numbers" if self.target == "cuda" else "numbers"
                raise self.error(node, f"print() in {where} takes strings and {allowed}, not a "
                                       f"{value.type}")
            items.append(value)
        return ir.Print(items)

    def stmt_Pass(self, node):
        return []

    def store_to(self, node, target, value):
        if isinstance(target, ast.Name):
            self.assign_type(node, target.id, value.type)
            t = self.var_types.get(target.id, value.type)
            return [ir.Assign(target.id, self.cast(value, t))]
        if isinstance(target, ast.Subscript):
            array = self.expr(target.value)
            if not isinstance(array.type, ir.ArrayType):
                raise self.error(node, f"assigning into a {array.type}")
            if array.type.readonly:
                raise self.error(node, "assigning into a read-only array")
            indices = None
            if not isinstance(target.slice, (ast.Tuple, ast.Slice)):  # evaluated once
                index = self.operand(target.slice)
                if is_array(index):  # a[mask] = value
                    return self.arrays.assign_masked(node, array, index, value)
                if isinstance(index.type, T.TupleType):
                    indices = self.checked_indices(node, array, [
                        ir.TupleGet(index, k, t) for k, t in enumerate(index.type.items)])
                elif array.type.ndim > 1:  # a[i] = ... of a 2-d array: its row
                    view = self.view(target, array, [target.slice], [index])
                    return [self.assign_array(node, view, value)]
                else:
                    indices = self.checked_indices(node, array, [index])
            else:
                view = self.subscript_view(target, array)
                if view is not None:
                    return [self.assign_array(node, view, value)]
            if not T.is_scalar(value.type):
                raise self.error(node, f"storing a {value.type} into an array element")
            if indices is None:
                indices = self.indices(target, array)
            return [ir.Store(array, indices, self.cast(value, array.type.dtype),
                             self.direct(indices))]
        if isinstance(target, (ast.Tuple, ast.List)):
            if not isinstance(value.type, T.TupleType) or len(value.type.items) != len(target.elts):
                raise self.error(node, f"unpacking a {value.type} into {len(target.elts)} names")
            if isinstance(value, ir.MakeTuple) and all(
                    isinstance(item, ir.Var) and item.name.startswith("ts_") for item in value.items):
                # Items already in temporaries (np.linalg's results): each variable takes
                # its item itself, so that it frees the array when it is rebound.
                out = []
                for item, element in zip(target.elts, value.items):
                    out.extend(self.store_to(node, item, element))
                return out
            # Through a temporary, so that `a, b = b, a` reads both before writing either.
            temp = f"ts_tuple{self.temporaries}"
            self.temporaries += 1
            self.assign_type(node, temp, value.type)
            out = [ir.Assign(temp, value)]
            held = ir.Var(temp, value.type)
            for k, item in enumerate(target.elts):
                out.extend(self.store_to(node, item, ir.TupleGet(held, k, value.type.items[k])))
            return out
        raise self.error(node, f"assigning to {type(target).__name__}")

    def subscript_view(self, node, array):
        """The view a subscript of `array` selects when it selects more than one element
        (a slice, or fewer indices than dimensions), else None."""
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if any(isinstance(i, ast.Slice) or self.is_new_axis(i) for i in items):
            return self.view(node, array, items)
        if len(items) >= array.type.ndim:
            return None
        if len(items) == 1:
            value = self.expr(items[0])
            if isinstance(value.type, T.TupleType):  # a[t] with a tuple of indices
                return None
            return self.view(node, array, items, [value])
        return self.view(node, array, items)

    def assign_array(self, node, view, value):
        """`view[...] = value`: a number, or an array that broadcasts to the view."""
        dtype = view.type.dtype
        if isinstance(value.type, ir.ArrayType):
            if self.target == "cuda":
                raise self.error(node, "assigning an array to a slice is not supported in CUDA "
                                       "kernels yet (assign its elements in a loop)")
            if value.type.ndim > view.type.ndim:
                raise self.error(node, f"cannot assign a {value.type.ndim}-d array to a "
                                       f"{view.type.ndim}-d slice")
            source = value.type.dtype
        elif T.is_scalar(value.type):
            source = value.type
        else:
            raise self.error(node, f"assigning a {value.type} to a slice")
        if T.kind(source) == "c" and T.kind(dtype) != "c":
            raise self.error(node, f"cannot assign {source} values to a slice of a {dtype} array")
        if not isinstance(value.type, ir.ArrayType):
            value = self.cast(value, dtype)
        return ir.AssignArray(view, value)

    def stmt_Assign(self, node):
        if isinstance(node.value, ast.Call):
            path = cuda_intrinsics.path_of(self, node.value.func)
            if path == "cg.this_grid":
                self.require_cuda(node, "cuda.cg.this_grid()")
                if len(node.targets) != 1 or not isinstance(node.targets[0], ast.Name) \
                        or node.value.args or node.value.keywords:
                    raise self.error(node, "cuda.cg.this_grid() takes no arguments and is "
                                           "assigned to one name")
                self.grid_groups.add(node.targets[0].id)
                return []
            if path in cuda_intrinsics.ARRAY_MAKERS:
                self.require_cuda(node, f"cuda.{path}()")
                if len(node.targets) != 1:
                    raise self.error(node, f"cuda.{path}(...) must be assigned to one name")
                return cuda_intrinsics.local_array(self, node, node.targets[0], path, node.value)
        value = self.expr(node.value)
        out = []
        for target in node.targets:
            out.extend(self.store_to(node, target, value))
        return out

    def stmt_AnnAssign(self, node):
        if node.value is None:
            return []
        return self.store_to(node, node.target, self.expr(node.value))

    def stmt_AugAssign(self, node):
        target = node.target
        items = target.slice.elts if isinstance(target, ast.Subscript) \
            and isinstance(target.slice, ast.Tuple) else [getattr(target, "slice", None)]
        if isinstance(target, ast.Subscript) and not any(isinstance(i, ast.Slice) for i in items):
            return self.augment_subscript(node, target, items)
        current = self.expr(target)
        if isinstance(current.type, T.ArrayType):
            return self.augment_array(node, current)
        value = self.binary(node, type(node.op), current, self.operand(node.value))
        return self.store_to(node, node.target, value)

    def augment_subscript(self, node, target, items):
        """`a[i, j] op= value` and `a[i] op= row`: the array and its indices evaluated once
        (as Python evaluates them), the element read and written at the same place."""
        array = self.expr(target.value)
        if not isinstance(array.type, T.ArrayType):
            raise self.error(node, f"assigning into a {array.type}")
        if len(items) == 1:
            index = self.operand(items[0])
            if is_array(index):
                raise self.error(node, "a[mask] op= value is not supported yet (write "
                                       "a[mask] = a[mask] op value)")
            values = ([ir.TupleGet(index, k, t) for k, t in enumerate(index.type.items)]
                      if isinstance(index.type, T.TupleType) else [index])
        else:
            values = [self.expr(i) for i in items]
        if len(values) < array.type.ndim:  # a row (or plane): a view updated in place
            return self.augment_array(node, self.view(target, array, items, values))
        if array.type.readonly:
            raise self.error(node, "assigning into a read-only array")
        indices = [self.arrays.scalar(i) for i in self.checked_indices(node, array, values)]
        direct = self.direct(indices)
        current = ir.Load(array, indices, array.type.dtype, direct)
        value = self.binary(node, type(node.op), current, self.operand(node.value))
        if not T.is_scalar(value.type):
            raise self.error(node, f"storing a {value.type} into an array element")
        return [ir.Store(array, indices, self.cast(value, array.type.dtype), direct)]

    def augment_array(self, node, target):
        """`a op= value` of an array: in place, as NumPy's `a op= b` (the result converted
        to a's dtype where NumPy's same_kind casting allows it)."""
        if target.type.readonly:
            raise self.error(node, "assigning into a read-only array")
        if not isinstance(target, ir.Var):  # a[1:] += ...: the view made once
            target = self.arrays.bind("view", target)
        op_class = type(node.op)
        if op_class not in array_exprs.OPERATOR_UFUNCS:
            raise self.error(node, f"the operator {op_class.__name__} is not supported")
        value = self.operand(node.value)
        if not (is_array(value) or T.is_scalar(value.type)):
            raise self.error(node, f"updating an array with a {value.type}")
        result = self.arrays.ufunc(node, array_exprs.OPERATOR_UFUNCS[op_class], [target, value])
        if not np.can_cast(result.dtype, target.type.dtype, "same_kind"):
            raise self.error(node, f"cannot cast the {result.dtype} result of "
                                   f"{array_exprs.OPERATOR_UFUNCS[op_class].__name__} to the "
                                   f"{target.type.dtype} array it updates (NumPy's same_kind rule)")
        return [ir.AssignArray(target, self.arrays.materialize(node, result))]

    def stmt_If(self, node):
        cond = self.truth(self.expr(node.test))
        return [ir.If(cond, self.block(node.body), self.block(node.orelse))]

    def stmt_While(self, node):
        if node.orelse:
            raise self.error(node, "while ... else is not supported")
        cond, setup = self.lowered_apart(node.test)
        cond = self.truth(cond)
        self.loop_depth += 1
        body = self.block(node.body)
        self.loop_depth -= 1
        if setup:  # the test's statements run before every test (and after a continue)
            return [ir.While(ir.Const(True, "bool"),
                             setup + [ir.If(ir.Unary("not", cond, "bool"), [ir.Break()], [])]
                             + body)]
        return [ir.While(cond, body)]

    def for_elements(self, node):
        """`for x in a` and `for i, x in enumerate(a)` over an array (its elements, or its
        rows as views when it has several dimensions) or a tuple whose items share a type:
        a loop over its indices (a hidden int64 variable, never negative) that reads the
        item first."""
        it = node.iter
        numbered = isinstance(it, ast.Call) and isinstance(it.func, ast.Name) \
            and it.func.id == "enumerate" and len(it.args) == 1 and not it.keywords
        sequence = self.expr(it.args[0] if numbered else it)
        setup = []
        if isinstance(sequence.type, T.TupleType) and len(set(sequence.type.items)) == 1:
            temp = f"ts_tuple{self.temporaries}"  # evaluated once, before the loop
            self.temporaries += 1
            self.assign_type(node, temp, sequence.type)
            setup = [ir.Assign(temp, sequence)]
            sequence = ir.Var(temp, sequence.type)
        elif not isinstance(sequence.type, T.ArrayType) or sequence.type.ndim == 0:
            raise self.error(node, f"a for loop goes over range(...), an array, a tuple of one "
                                   f"type or enumerate() of one, not a {sequence.type}")
        if numbered:
            if not (isinstance(node.target, ast.Tuple) and len(node.target.elts) == 2):
                raise self.error(node, "enumerate() gives pairs: `for i, x in enumerate(a)`")
            number_target, element_target = node.target.elts
        else:
            number_target, element_target = None, node.target
        index = f"ts_index{self.temporaries}"
        self.temporaries += 1
        self.assign_type(node, index, "int64")
        self.lower_bounds[index] = 0  # a name of its own: nothing else bounds it
        held = ir.Var(index, "int64")
        if isinstance(sequence.type, T.TupleType):
            element = ir.TupleGet(sequence, held, sequence.type.items[0])
            length = ir.Const(len(sequence.type.items), "int64")
        elif sequence.type.ndim > 1:  # its rows, as views (Numba's iteration of an n-d array)
            t = sequence.type
            row = T.ArrayType(t.dtype, t.ndim - 1, "C" if t.layout == "C" else "A", t.readonly)
            element = ir.View(sequence, [("index", held)], row)
            length = ir.Shape(sequence, 0)
        else:
            element = ir.Load(sequence, [held], sequence.type.dtype, True)
            length = ir.Shape(sequence, 0)
        prologue = self.store_to(node, element_target, element)
        if number_target is not None:
            prologue = self.store_to(node, number_target, held) + prologue
        self.loop_depth += 1
        body = prologue + self.block(node.body)
        self.loop_depth -= 1
        del self.lower_bounds[index]
        return setup + [ir.ForRange(index, ir.Const(0, "int64"), length, ir.Const(1, "int64"),
                                    body)]

    def stmt_For(self, node):
        if node.orelse:
            raise self.error(node, "for ... else is not supported")
        it = node.iter
        is_range = isinstance(it, ast.Call) and (
            isinstance(it.func, ast.Name) and it.func.id in ("range", "prange")
            or isinstance(it.func, ast.Attribute) and it.func.attr == "prange")
        if not is_range:
            return self.for_elements(node)
        if not isinstance(node.target, ast.Name):
            raise self.error(node, "a for loop's target must be a name")
        called = it.func.id if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) else (
            it.func.attr if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) else None)
        if not (called in ("range", "prange") and 1 <= len(it.args) <= 3 and not it.keywords):
            raise self.error(node, "for loops go over range(...) (other iterables are not "
                                   "supported yet)")
        bounds = [self.expr(a) for a in it.args]
        for b in bounds:
            if T.kind(b.type) not in "bi":
                raise self.error(node, f"range() takes integers, not {b.type}")
        # Numba's range of unsigned bounds only is uint64; any signed one makes it int64.
        t = "uint64" if all(T.is_unsigned(b.type) for b in bounds) else "int64"
        start, stop, step = ((ir.Const(0, t), bounds[0], ir.Const(1, t)) if len(bounds) == 1
                             else (bounds[0], bounds[1], ir.Const(1, t)) if len(bounds) == 2
                             else tuple(bounds))
        if isinstance(step, ir.Const) and step.value == 0:
            raise self.error(node, "range() arg 3 must not be zero")
        self.assign_type(node, node.target.id, t)
        var = node.target.id
        saved = self.lower_bounds.get(var)
        bound = None
        if var in self.function.loop_only and isinstance(step, ir.Const):
            if step.value > 0:
                bound = self.lower_bound(start)
            elif self.lower_bound(stop) is not None:
                bound = self.lower_bound(stop) + 1
        if bound is None:
            self.lower_bounds.pop(var, None)
        else:
            self.lower_bounds[var] = bound
        parallel = called == "prange" and self.parallel and not self.in_prange
        self.loop_depth += 1
        if parallel:
            self.in_prange = True
            saved_depth, self.loop_depth = self.loop_depth, 0  # break in it is no loop's
        body = self.block(node.body)
        if parallel:
            self.in_prange = False
            self.loop_depth = saved_depth
        self.loop_depth -= 1
        if saved is None:
            self.lower_bounds.pop(var, None)
        else:
            self.lower_bounds[var] = saved
        if parallel:
            return [self.parallel_loop(node, t, start, stop, step, body)]
        return [ir.ForRange(node.target.id, self.cast(start, t), self.cast(stop, t),
                            self.cast(step, t), body)]

    def parallel_loop(self, node, t, start, stop, step, body):
        """A prange loop: its reduction variables (those the body updates only with +=,
        -=, *=, or only as `m = max(m, x)` / `m = min(m, x)`, and reads nowhere else) and
        the variables private to each chunk, none of which may carry a value from one
        iteration to the next."""
        updates, extremes, assigned, plain, inside = {}, {}, {}, set(), set()
        for sub in ast.walk(node):
            if isinstance(sub, ast.AugAssign) and isinstance(sub.target, ast.Name):
                updates.setdefault(sub.target.id, set()).add(type(sub.op))
            if isinstance(sub, ast.Assign):
                for target in sub.targets:
                    if isinstance(target, ast.Name):
                        assigned[target.id] = assigned.get(target.id, 0) + 1
                kind = _extreme_update(sub)
                if kind is not None and kind[0] not in self.globals:
                    extremes.setdefault(sub.targets[0].id, set()).add(kind[0])
                    inside.add(id(kind[1]))
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and not isinstance(getattr(sub, "ctx", None), ast.Store) \
                    and id(sub) not in inside:
                plain.add(sub.id)
        reductions = []
        for name, ops in updates.items():
            combine = ("add" if ops <= {ast.Add, ast.Sub} else
                       "multiply" if ops == {ast.Mult} else None)
            if combine is None or name in extremes:
                raise self.error(node, f"'{name}' is updated with {', '.join(o.__name__ for o in ops)} "
                                       "in a prange loop: reductions take +=, -=, *=, or "
                                       "m = max(m, x) / min(m, x)")
            reductions.append((name, combine))
        for name, kinds in extremes.items():
            if len(kinds) > 1 or assigned[name] != sum(1 for _ in kinds):
                raise self.error(node, f"'{name}' is assigned otherwise than by one of "
                                       f"{name} = max({name}, x) / min({name}, x) in a prange "
                                       "loop, so it is no reduction")
            reductions.append((name, kinds.pop()))
        for name, _ in reductions:
            if name in plain:
                raise self.error(node, f"the reduction variable '{name}' of a prange loop is "
                                       "also read in the loop, which would race")
        reduced = {n for n, _ in reductions}
        privates = sorted({name for name in _assigned_in(body) if name not in reduced}
                          | {node.target.id})
        for name in privates:
            if name != node.target.id and not name.startswith("ts_") \
                    and _read_first(node.body, name):
                raise self.error(node, f"'{name}' is read in a prange loop before it is "
                                       "assigned, so it would carry a value from one iteration "
                                       "to the next, which runs in parallel: assign it first "
                                       "in each iteration (or make it a reduction)")
        return ir.ParallelRange(node.target.id, self.cast(start, t), self.cast(stop, t),
                                self.cast(step, t), body, reductions, privates)

    def stmt_Break(self, node):
        if not self.loop_depth:
            raise self.error(node, "'break' outside a loop")
        return [ir.Break()]

    def stmt_Continue(self, node):
        if not self.loop_depth:
            raise self.error(node, "'continue' outside a loop")
        return [ir.Continue()]

    def stmt_Return(self, node):
        if self.in_prange:
            raise self.error(node, "'return' inside a prange loop is not supported")
        if node.value is None:
            self.returns.append(T.NONE)
            return [ir.Return()]
        value = self.expr(node.value)
        if isinstance(value, ir.Var) and isinstance(value.type, T.ArrayType) \
                and value.name in self.function.params \
                and value.name not in self.function.reassigned:
            # An array argument handed back (Numba returns the caller's array).
            self.returns.append(("argument", self.function.params.index(value.name)))
            return [ir.Return()]
        if isinstance(value.type, T.ArrayType):
            # A new array is handed over; any other (a view) as a C-contiguous copy.
            self.returns.append(value.type)
            return [ir.Return(value)]
        if not all(T.is_scalar(t) or isinstance(t, T.ArrayType) for t in T.leaves(value.type)):
            raise self.error(node, f"returning a {value.type} is not supported yet (only "
                                   "scalars, arrays, and tuples of them)")
        self.returns.append(value.type)
        return [ir.Return(value)]


def _visible_names(function):
    """The names a function's body reads from outside it: its module's globals, and the
    variables of enclosing functions it closes over (read when it is compiled, as Numba
    freezes them; an unassigned one is left out)."""
    names = function.__globals__
    cells = getattr(function, "__closure__", None)
    if cells:
        names = dict(names)
        for name, cell in zip(function.__code__.co_freevars, cells):
            try:
                names[name] = cell.cell_contents
            except ValueError:  # not assigned yet
                continue
    return names


class FunctionSource:
    """A function's definition (AST), where it is written, and the globals it sees."""

    def __init__(self, function):
        definition, filename, first_line = source_of(function)
        self._init(definition, filename, first_line, function.__name__, _visible_names(function))

    @classmethod
    def from_text(cls, text, globals_=None, filename="<string>"):
        """The first function defined in `text` (which need not be in a file)."""
        definition = ast.parse(textwrap.dedent(text)).body[0]
        if not isinstance(definition, ast.FunctionDef):
            raise TypingError(f"[jit] {filename}: the text does not start with a def")
        source = cls.__new__(cls)
        source._init(definition, filename, 1, definition.name, globals_ or {})
        return source

    def _init(self, definition, filename, first_line, name, globals_):
        self.definition, self.filename, self.first_line = definition, filename, first_line
        self.name = name
        self.globals = globals_
        self.line = first_line
        args = self.definition.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs or args.defaults:
            raise TypingError(f"[jit] {self.filename}:{self.first_line} in {self.name}(): only "
                              "plain positional parameters are supported")
        self.params = [a.arg for a in args.args]
        # Names that only for loops assign (not parameters): their loops bound them.
        assigned, loop_targets = set(), set()

        def names(target):  # the names a target binds (not those inside a subscript)
            if isinstance(target, ast.Name):
                return [target.id]
            if isinstance(target, (ast.Tuple, ast.List)):
                return [n for element in target.elts for n in names(element)]
            return []

        for sub in ast.walk(definition):
            if isinstance(sub, ast.For) and isinstance(sub.target, ast.Name):
                loop_targets.add(sub.target.id)
            elif isinstance(sub, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.NamedExpr)):
                for target in (sub.targets if isinstance(sub, ast.Assign) else [sub.target]):
                    assigned.update(names(target))
        self.loop_only = loop_targets - assigned - set(self.params)
        self.reassigned = (assigned | loop_targets) & set(self.params)


def transposed(value):
    """a.T of an array value: the same memory, dimensions reversed."""
    t = value.type
    layout = {"C": "F", "F": "C"}.get(t.layout, "A") if t.ndim > 1 else t.layout
    return ir.Transpose(value, T.ArrayType(t.dtype, t.ndim, layout, t.readonly))


def _extreme_update(statement):
    """("max" or "min", the name node read) when `statement` is `m = max(m, x)` or
    `m = min(x, m)` (one name, two arguments), else None."""
    if len(statement.targets) != 1 or not isinstance(statement.targets[0], ast.Name):
        return None
    call, name = statement.value, statement.targets[0].id
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
            and call.func.id in ("max", "min") and len(call.args) == 2 and not call.keywords):
        return None
    for arg in call.args:
        if isinstance(arg, ast.Name) and arg.id == name:
            return call.func.id, arg
    return None


def _read_first(statements, name):
    """Whether, in Python's order of evaluation through `statements`, the first access of
    `name` is a read (on the path of first appearance; branches in order)."""
    def first(node):
        if isinstance(node, ast.Name) and node.id == name:
            return "store" if isinstance(node.ctx, ast.Store) else "load"
        if isinstance(node, ast.Assign):
            return first(node.value) or next(filter(None, map(first, node.targets)), None)
        if isinstance(node, ast.AugAssign):
            return first(node.value) or ("load" if isinstance(node.target, ast.Name)
                                         and node.target.id == name else first(node.target))
        if isinstance(node, (ast.For, ast.While)):
            head = first(node.iter) if isinstance(node, ast.For) else first(node.test)
            return head or (first(node.target) if isinstance(node, ast.For) else None) or \
                next(filter(None, map(first, node.body + node.orelse)), None)
        return next(filter(None, map(first, ast.iter_child_nodes(node))), None)

    return next(filter(None, map(first, statements)), None) == "load"


def _assigned_in(statements):
    """The variables IR statements assign, loops' variables included."""
    names = set()
    for s in statements:
        if isinstance(s, ir.Assign):
            names.add(s.target)
        if isinstance(s, (ir.ForRange, ir.ParallelRange)):
            names.add(s.var)
        for attr in ("body", "orelse"):
            names |= _assigned_in(getattr(s, attr, []))
    return names


def lower_function(function, arg_types, name=None, parallel=False, target="cpu",
                   declared_return=None, recursion=None):
    """The typed IR of `function` called with arguments of `arg_types` (the IR function
    named `name`, by default the Python function's name), for `target` ("cpu", or "cuda":
    Numba's `cuda` module is available). `recursion`: the Recursion its calls of itself
    see, if it may make any."""
    source = function if isinstance(function, FunctionSource) else FunctionSource(function)
    if len(arg_types) != len(source.params):
        raise TypingError(f"[jit] {source.name}() takes {len(source.params)} arguments, "
                          f"{len(arg_types)} given")
    params = dict(zip(source.params, arg_types))
    var_types = dict(params)
    if recursion is not None and declared_return is not None:
        recursion.guess = declared_return
    for _ in range(64):
        pass_ = Lowering(source, var_types, source.globals, parallel, target, recursion)
        try:
            body = pass_.block(source.definition.body)
        except UnknownRecursiveReturn:
            typed = [r for r in pass_.returns if not isinstance(r, tuple)]
            if not typed:
                raise TypingError(f"[jit] {source.filename}: in {source.name}(): it calls itself "
                                  "before any return says what it returns: return a value "
                                  "before the recursive call, or give the function a "
                                  "signature") from None
            recursion.guess = _unified_returns(source, typed)
            continue
        widened = dict(var_types)
        for variable, t in pass_.assigned.items():
            old = widened.get(variable)
            new = t if old is None else T.unify(old, t)
            if new is None:
                raise TypingError(f"[jit] {source.filename}: in {source.name}(): variable "
                                  f"'{variable}' takes types {old} and {t}, which do not unify")
            widened[variable] = new
        settled = widened == var_types
        if recursion is not None and recursion.used and declared_return is None:
            returned = _unified_returns(source, pass_.returns)
            if returned != recursion.guess:  # its calls of itself return this: type again
                recursion.guess = returned
                settled = False
        if settled:
            break
        var_types = widened
    else:
        raise TypingError(f"[jit] {source.name}(): the types of its variables do not settle")
    body = array_exprs.release_arrays(body)
    returns = pass_.returns or [T.NONE]
    returned_arguments = {r for r in returns if isinstance(r, tuple)}
    returns_argument = None
    if returned_arguments:
        if len(returned_arguments) > 1 or len(returned_arguments) != len(set(returns)):
            raise TypingError(f"[jit] {source.filename}: in {source.name}(): it returns an array "
                              "argument on some paths and something else on others")
        returns_argument = returned_arguments.pop()[1]
        returns = [T.NONE]
    if T.NONE in returns and any(r != T.NONE for r in returns):
        raise TypingError(f"[jit] {source.filename}: in {source.name}(): it returns a value on "
                          "some paths and None on others")
    return_type = returns[0]
    for r in returns[1:]:
        return_type = T.unify(return_type, r)
    if declared_return is not None:  # an eager signature's: returned values cast to it
        if not (T.is_scalar(declared_return) and T.is_scalar(return_type)):
            raise TypingError(f"[jit] {source.filename}: in {source.name}(): it returns "
                              f"{return_type}, the signature says {declared_return}")
        return_type = declared_return
    # Returns of another type than the function's are cast: lower once more knowing it.
    body = [_cast_returns(s, return_type) for s in body]
    # A parameter assigned wider values is a variable of the wider type (as in Numba): the
    # argument arrives under another name and is converted into it first.
    signature, prologue = [], []
    for param, t in params.items():
        if var_types[param] == t:
            signature.append((param, t))
        else:
            signature.append(("ts_arg_" + param, t))
            prologue.append(ir.Assign(param, ir.Cast(ir.Var("ts_arg_" + param, t),
                                                     var_types[param])))
    local_types = {n: t for n, t in var_types.items() if dict(signature).get(n) != t}
    return ir.Function(name or source.name, source.filename, signature, return_type,
                       local_types, prologue + body, list(pass_.callees.values()),
                       returns_argument, list(pass_.externals))


def _unified_returns(source, returns):
    """The one type of a function's returned values."""
    result = returns[0]
    for r in returns[1:]:
        unified = T.unify(result, r)
        if unified is None:
            raise TypingError(f"[jit] {source.filename}: in {source.name}(): it returns {result} "
                              f"and {r}, which do not unify")
        result = unified
    return result


def _cast_returns(statement, t):
    if isinstance(statement, ir.Return) and statement.value is not None \
            and statement.value.type != t:
        return ir.Return(ir.Cast(statement.value, t))
    for attr in ("body", "orelse"):
        if hasattr(statement, attr):
            setattr(statement, attr, [_cast_returns(s, t) for s in getattr(statement, attr)])
    return statement
