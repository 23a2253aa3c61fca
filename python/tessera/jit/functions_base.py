"""What the lowerings of NumPy's functions inside jit functions share
(functions_shape.py, functions_search.py, functions_statistics.py): their arguments, the
IR values they build on, and a computation over a number or over each element of an
array."""

import ast

from . import ir
from . import types as T
from .array_exprs import is_array

# The runtime's Raise codes (src/jit/python_raise.h).
INTERP_EMPTY, INTERP_SIZES, BINCOUNT_NEGATIVE, ITEM_SIZE = 30, 31, 32, 33
DIGITIZE_BINS, HISTOGRAM_BINS, HISTOGRAM_RANGE, HISTOGRAM_EDGES = 34, 35, 36, 37
PERCENTILES, QUANTILES = 38, 39
CROSS_DIMENSIONS, CROSS_OF_2D, CONVOLVE_A_EMPTY, CONVOLVE_V_EMPTY = 40, 41, 42, 43


def int_const(value):
    return ir.Const(value, "int64")


def number_const(value, t):
    return ir.Const(complex(value) if T.is_complex(t) else value, t)


def add_int(a, b):
    return ir.Binary("add", a, b, "int64")


def is_nan(x):
    return ir.Compare("ne", x, x)


def is_inf(x):
    return ir.Call("isinf", [x], "bool")


def is_none(node):
    return isinstance(node, ast.Constant) and node.value is None



class FunctionLowering:
    """The base of the NumPy function lowerings, over a Lowering pass (frontend.Lowering):
    np.<name> is the method np_<name>."""

    def __init__(self, lowering):
        self.lo = lowering
        self.arrays = lowering.arrays

    def call(self, node, name):
        self.arrays.check_target(node, f"np.{name}")
        return getattr(self, "np_" + name.rstrip("_"))(node, f"np.{name}")

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
            return int_const(default)
        return self.lo.cast(self.arrays.scalar(self.lo.numpy_calls.integer(node, value_node, what)),
                            "int64")

    def dtype(self, node, value_node, default):
        return default if value_node is None else self.lo.dtype_argument(node, value_node)

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

    def flat_of(self, node, value):
        """The elements of an array in C order, as a 1-d array (a view where it can be)."""
        return self.arrays.flattened(node, value, copy=False)

    def np_array_of_number(self, node, value):
        if not T.is_scalar(value.type):
            raise self.lo.error(node, f"an array or a number, not a {value.type}")
        out = self.arrays.new(node, [int_const(1)], value.type)
        self.lo.prelude.append(ir.Store(out, [int_const(0)], value, True))
        return out
