"""Numba's `cuda` module inside `tessera.cuda.jit` kernels and device functions: what the
front end (frontend.py) makes of `cuda.threadIdx.x`, `cuda.grid(2)`, `cuda.atomic.add(...)`,
`cuda.shfl_down_sync(...)` and the like — IR Intrinsic nodes typed as Numba types them
(numba/cuda/cudadecl.py), which the CUDA renderer turns into calls of the device runtime
(src/jit/python_cuda_runtime.h).

A name reaches here as its path in the `cuda` module ("threadIdx.x", "atomic.add"),
whether the kernel spells it `cuda.threadIdx.x` or imported `threadIdx` itself.
"""

import ast
from types import ModuleType

import numpy as np

from . import ir
from . import types as T

DIM3 = ("threadIdx", "blockIdx", "blockDim", "gridDim")

# Atomics, by Numba's name, with the element types each takes.
_ALL = ("float64", "float32", "int32", "uint32", "int64", "uint64")
_INTEGERS = ("int32", "uint32", "int64", "uint64")
ATOMICS = {
    "add": _ALL, "sub": _ALL, "max": _ALL, "min": _ALL, "nanmax": _ALL, "nanmin": _ALL,
    "and_": _INTEGERS, "or_": _INTEGERS, "xor": _INTEGERS, "exch": _INTEGERS,
    "inc": ("uint32", "uint64"), "dec": ("uint32", "uint64"),
}

BARRIERS = {"syncthreads_count", "syncthreads_and", "syncthreads_or"}
FENCES = {"syncthreads", "threadfence", "threadfence_block", "threadfence_system"}
SHUFFLES = {"shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync"}
VOTES = {"all_sync": "bool", "any_sync": "bool", "eq_sync": "bool", "ballot_sync": "int32"}
ARRAY_MAKERS = ("shared.array", "local.array", "const.array_like")

# cuda.fp16: half-precision arithmetic, by Numba's name -> the IR operation on float16
# values (computed in float and rounded once to half, as CUDA's __h* functions round).
FP16_BINARY = {"hadd": "add", "hsub": "subtract", "hmul": "multiply", "hdiv": "divide"}
FP16_COMPARE = {"heq": "eq", "hne": "ne", "hge": "ge", "hgt": "gt", "hle": "le", "hlt": "lt"}
FP16_CALLS = {"hsin": "sin", "hcos": "cos", "hlog": "log", "hlog2": "log2", "hlog10": "log10",
              "hexp": "exp", "hexp2": "exp2", "hsqrt": "sqrt", "hceil": "ceil",
              "hfloor": "floor", "hrint": "rint", "htrunc": "trunc", "habs": "absolute",
              "hrcp": "reciprocal", "hmax": "fmax", "hmin": "fmin"}
FP16_ARITY = {**dict.fromkeys(FP16_BINARY, 2), **dict.fromkeys(FP16_COMPARE, 2),
              **dict.fromkeys(FP16_CALLS, 1), "hmax": 2, "hmin": 2, "hfma": 3, "hneg": 1,
              "hexp10": 1, "hrsqrt": 1}


def _cuda_name(value):
    """The `cuda` path of `value` ("" for the module itself), or None when it is not part of
    it. Numba's own module serves as well: a kernel written with `from numba import cuda`
    compiles unchanged."""
    if isinstance(value, ModuleType) and value.__name__ == "numba.cuda":
        return ""
    return getattr(value, "_tessera_cuda_name", None)


def path_of(lowering, node):
    """The `cuda` module path a Name/Attribute chain names ("threadIdx.x"), or None. The
    chain may reach the module through other modules (`tessera.cuda.grid`,
    `numba.cuda.grid`)."""
    attrs = []
    while isinstance(node, ast.Attribute):
        attrs.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id in lowering.var_types \
            or node.id in lowering.assigned:
        return None
    value = lowering.globals.get(node.id)
    attrs.reverse()
    while (name := _cuda_name(value)) is None:
        if not isinstance(value, ModuleType) or not attrs:
            return None
        value = getattr(value, attrs.pop(0), None)
    return ".".join(([name] if name else []) + attrs)


def attribute(lowering, node, path):
    """`cuda.threadIdx.x`, `cuda.warpsize`, `cuda.laneid`."""
    head, _, axis = path.partition(".")
    if head in DIM3 and axis in ("x", "y", "z"):
        return ir.Intrinsic(f"{head}_{axis}", [], "int32")
    if path == "warpsize":
        return ir.Const(32, "int32")
    if path == "laneid":
        return ir.Intrinsic("laneid", [], "int32")
    raise lowering.error(node, f"cuda.{path} is not supported")


def _integer_constant(lowering, node, what):
    value = lowering.expr(node)
    if not isinstance(value, ir.Const) or T.kind(value.type) != "i":
        raise lowering.error(node, f"{what} must be a constant integer")
    return value.value


def _exchanged(lowering, node, value):
    """A value shuffled or matched across a warp, as Numba's overloads take it: 4- and
    8-byte ints and floats; narrower ints and bools as int32, uint32 as int64."""
    t = value.type
    if not T.is_scalar(t) or T.is_complex(t):
        raise lowering.error(node, f"a warp exchange takes a real number, not a {t}")
    if t in ("int32", "int64", "float32", "float64"):
        return value
    if t == "float16":
        return lowering.cast(value, "float32")
    if t in ("uint32", "uint64"):
        return lowering.cast(value, "int64")
    return lowering.cast(value, "int32")


def _fp16(lowering, node, name, args):
    """cuda.fp16.<name>(args): Numba's half-precision functions, which take float16 values
    only (as Numba's typing does)."""
    if name not in FP16_ARITY:
        raise lowering.error(node, f"cuda.fp16.{name} is not a half-precision function")
    if len(args) != FP16_ARITY[name]:
        raise lowering.error(node, f"cuda.fp16.{name} takes {FP16_ARITY[name]} arguments, "
                                   f"{len(args)} given")
    for a in args:
        if a.type != "float16":
            raise lowering.error(node, f"cuda.fp16.{name} takes float16 values, not {a.type} "
                                       "(convert with numba.float16() or np.float16())")
    if name in FP16_BINARY:
        return ir.Binary(FP16_BINARY[name], args[0], args[1], "float16")
    if name in FP16_COMPARE:
        return ir.Compare(FP16_COMPARE[name], args[0], args[1])
    if name in FP16_CALLS:
        return ir.Call(FP16_CALLS[name], args, "float16")
    if name == "hneg":
        return ir.Unary("neg", args[0], "float16")
    # fma rounds once: the float64 sum of the exact product is exact here but in the rarest
    # cases, and then rounds to half. 10^x and 1/sqrt(x) are float's, rounded to half.
    wide = [lowering.cast(a, "float64" if name == "hfma" else "float32") for a in args]
    if name == "hfma":
        value = ir.Intrinsic("fma", wide, "float64")
    elif name == "hexp10":
        value = ir.Call("power", [ir.Const(10.0, "float32"), wide[0]], "float32")
    else:
        value = ir.Call("reciprocal", [ir.Call("sqrt", wide, "float32")], "float32")
    return lowering.cast(value, "float16")


def _int32(lowering, value):
    return lowering.cast(value, "int32")


def _atomic(lowering, node, op, args):
    if op in ("cas", "compare_and_swap"):
        expected_args = 4 if op == "cas" else 3
    else:
        expected_args = 3
    if len(node.args) != expected_args or node.keywords:
        raise lowering.error(node, f"cuda.atomic.{op} takes {expected_args} arguments, "
                                   f"{len(node.args)} given")
    array = lowering.expr(node.args[0])
    if not isinstance(array.type, T.ArrayType):
        raise lowering.error(node, f"cuda.atomic.{op}'s first argument must be an array, not a "
                                   f"{array.type}")
    dtype = array.type.dtype
    allowed = _INTEGERS if op in ("cas", "compare_and_swap") else ATOMICS[op]
    if dtype not in allowed:
        raise lowering.error(node, f"cuda.atomic.{op} takes arrays of {', '.join(allowed)}, not "
                                   f"of {dtype}")
    if array.type.readonly:
        raise lowering.error(node, f"cuda.atomic.{op} of a read-only array")
    if op == "compare_and_swap":
        if array.type.ndim != 1:
            raise lowering.error(node, "cuda.atomic.compare_and_swap takes a 1-d array")
        indices = [ir.Const(0, "int64")]
        values = node.args[1:]
    else:
        indices = lowering.index_list(node, array, node.args[1])
        values = node.args[2:]
    operands = []
    for v in values:
        value = lowering.expr(v)
        if not T.is_scalar(value.type) or T.is_complex(value.type):
            raise lowering.error(node, f"cuda.atomic.{op} of a {value.type}")
        operands.append(lowering.cast(value, dtype))
    name = "cas" if op == "compare_and_swap" else op.rstrip("_")
    return ir.Intrinsic(f"atomic_{name}", [ir.Address(array, indices)] + operands, dtype)


def call(lowering, node, path):
    """A call of a function of the `cuda` module."""
    if path.startswith("atomic."):
        op = path[len("atomic."):]
        if op not in ATOMICS and op not in ("cas", "compare_and_swap"):
            raise lowering.error(node, f"cuda.{path} is not an atomic operation")
        return _atomic(lowering, node, op, node.args)
    if path in ARRAY_MAKERS:
        raise lowering.error(node, f"cuda.{path}(...) must be assigned to a variable "
                                   "(`a = cuda.shared.array(...)`)")
    if path == "cg.this_grid":
        raise lowering.error(node, "cuda.cg.this_grid() is assigned to a name (`g = "
                                   "cuda.cg.this_grid()`) or synchronized at once "
                                   "(`cuda.cg.this_grid().sync()`)")
    if node.keywords:
        raise lowering.error(node, f"cuda.{path}() takes no keyword arguments")
    if path in ("grid", "gridsize"):
        if len(node.args) != 1:
            raise lowering.error(node, f"cuda.{path} takes the number of dimensions")
        ndim = _integer_constant(lowering, node.args[0], f"cuda.{path}'s argument")
        if ndim not in (1, 2, 3):
            raise lowering.error(node, f"cuda.{path}'s argument must be 1, 2 or 3, not {ndim}")
        items = []
        for axis in "xyz"[:ndim]:
            def dim(head):
                return ir.Cast(ir.Intrinsic(f"{head}_{axis}", [], "int32"), "int64")
            if path == "grid":
                items.append(ir.Binary("add", dim("threadIdx"), ir.Binary(
                    "multiply", dim("blockIdx"), dim("blockDim"), "int64"), "int64"))
            else:
                items.append(ir.Binary("multiply", dim("blockDim"), dim("gridDim"), "int64"))
        if ndim == 1:
            return items[0]
        return ir.MakeTuple(items, T.TupleType(("int64",) * ndim))
    args = [lowering.expr(a) for a in node.args]

    def arity(*counts):
        if len(args) not in counts:
            raise lowering.error(node, f"cuda.{path} takes {' or '.join(map(str, counts))} "
                                       f"arguments, {len(args)} given")

    if path.startswith("fp16."):
        return _fp16(lowering, node, path[len("fp16."):], args)
    if path in FENCES:
        arity(0)
        return ir.Intrinsic(path, [], T.NONE)
    if path in BARRIERS:
        arity(1)
        return ir.Intrinsic(path, [lowering.truth(args[0])], "int32")
    if path == "syncwarp":
        arity(0, 1)
        mask = _int32(lowering, args[0]) if args else ir.Const(-1, "int32")
        return ir.Intrinsic(path, [mask], T.NONE)
    if path in ("activemask", "lanemask_lt"):
        arity(0)
        return ir.Intrinsic(path, [], "uint32")
    if path in SHUFFLES:
        arity(3)
        value = _exchanged(lowering, node, args[1])
        return ir.Intrinsic(path, [_int32(lowering, args[0]), value, _int32(lowering, args[2])],
                            value.type)
    if path in VOTES:
        arity(2)
        return ir.Intrinsic(path, [_int32(lowering, args[0]), lowering.truth(args[1])],
                            VOTES[path])
    if path in ("match_any_sync", "match_all_sync"):
        arity(2)
        value = _exchanged(lowering, node, args[1])
        t = "int32" if path == "match_any_sync" else T.TupleType(("int32", "bool"))
        return ir.Intrinsic(path, [_int32(lowering, args[0]), value], t)
    if path in ("popc", "clz", "ffs", "brev"):
        arity(1)
        t = args[0].type
        if T.kind(t) != "i" and not T.is_unsigned(t):
            raise lowering.error(node, f"cuda.{path} takes an integer, not {t}")
        if path == "brev":
            t = "uint64" if np.dtype(t).itemsize == 8 else "uint32"
        value = lowering.cast(args[0], t)
        return ir.Intrinsic(path, [value], "uint32" if path == "ffs" else t)
    if path in ("fma", "cbrt"):
        arity(3 if path == "fma" else 1)
        for a in args:
            if not T.is_scalar(a.type) or T.is_complex(a.type):
                raise lowering.error(node, f"cuda.{path} takes real numbers, not {a.type}")
        t = "float32" if all(a.type == "float32" for a in args) else "float64"
        return ir.Intrinsic(path, [lowering.cast(a, t) for a in args], t)
    if path == "selp":
        arity(3)
        t = T.unify(args[1].type, args[2].type)
        if t is None or not T.is_scalar(t):
            raise lowering.error(node, f"cuda.selp's values {args[1].type} and {args[2].type} "
                                       "do not unify")
        return ir.Intrinsic(path, [lowering.truth(args[0]), lowering.cast(args[1], t),
                                   lowering.cast(args[2], t)], t)
    if path == "nanosleep":
        arity(1)
        return ir.Intrinsic(path, [lowering.cast(args[0], "uint32")], T.NONE)
    raise lowering.error(node, f"cuda.{path}() is not supported")


def const_array(lowering, node, target, call_node):
    """`target = cuda.const.array_like(GLOBAL)`: the global NumPy array's values, frozen."""
    args = call_node.args
    if len(args) != 1 or call_node.keywords or not isinstance(args[0], ast.Name):
        raise lowering.error(node, "cuda.const.array_like takes one global NumPy array")
    value = lowering.globals.get(args[0].id)
    if args[0].id in lowering.var_types or args[0].id in lowering.assigned \
            or not isinstance(value, np.ndarray):
        raise lowering.error(node, f"cuda.const.array_like takes a global NumPy array, and "
                                   f"'{args[0].id}' is not one")
    if value.dtype.name not in T.SCALARS or value.dtype.kind == "c" or value.dtype.name == "float16":
        raise lowering.error(node, f"cuda.const.array_like of {value.dtype} is not supported")
    t = T.ArrayType(value.dtype.name, value.ndim, "C", True)
    lowering.assign_type(node, target.id, t)
    return [ir.ConstArray(target.id, t, list(value.shape), value.ravel().tolist())]


def local_array(lowering, node, target, path, call_node):
    """`target = cuda.shared.array(shape, dtype)` / `cuda.local.array(shape, dtype)`: the
    shape constant integers (one, or a tuple), as Numba requires."""
    if not isinstance(target, ast.Name):
        raise lowering.error(node, f"cuda.{path}(...) must be assigned to a plain name")
    if path == "const.array_like":
        return const_array(lowering, node, target, call_node)
    keywords = {k.arg: k.value for k in call_node.keywords}
    args = list(call_node.args)
    if set(keywords) - {"shape", "dtype"} or len(args) + len(keywords) != 2:
        raise lowering.error(node, f"cuda.{path} takes a shape and a dtype")
    named = dict(zip(("shape", "dtype"), args))
    if set(named) & set(keywords):
        raise lowering.error(node, f"cuda.{path} got {', '.join(set(named) & set(keywords))} twice")
    named.update(keywords)
    shape_node, dtype_node = named["shape"], named["dtype"]
    shape = lowering.expr(shape_node)
    items = shape.items if isinstance(shape, ir.MakeTuple) else [shape]
    dims = []
    for item in items:
        if not isinstance(item, ir.Const) or T.kind(item.type) != "i" or item.value < 0:
            raise lowering.error(node, f"cuda.{path}'s shape must be constant non-negative "
                                       "integers")
        dims.append(int(item.value))
    dtype = lowering.dtype_argument(node, dtype_node)
    space = "local" if path == "local.array" else "shared"
    if space == "shared" and dims == [0]:
        space = "dynamic"
    elif 0 in dims and space == "shared":
        raise lowering.error(node, "dynamic shared memory is 1-d: cuda.shared.array(0, dtype)")
    t = T.ArrayType(dtype, len(dims), "C")
    lowering.assign_type(node, target.id, t)
    if lowering.var_types.get(target.id, t) != t:
        raise lowering.error(node, f"variable '{target.id}' holds other arrays too")
    return [ir.LocalArray(target.id, space, t, dims)]
