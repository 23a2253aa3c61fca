"""The typed IR of tessera's Python-kernel compiler: what the front end (frontend.py) makes
of a Python function once every value has its type, and what the C++ renderers (host C++,
CUDA C++) take. Control flow stays structured (if, for over a range, while, break,
continue, return) because C++ has the same statements; every value carries its type, and
every conversion is an explicit Cast, so a renderer infers nothing.

The IR crosses into C++ as text (`to_text`), S-expressions that name each node and type:

    (function dot ((a (array float64 1 C)) (b (array float64 1 C))) float64
      (locals (s float64) (i int64))
      (assign s (const float64 0.0))
      (for i (const int64 0) (shape (var a (array float64 1 C)) 0) (const int64 1)
        (assign s (binary add float64 (var s float64) ...)))
      (return (var s float64)))
"""

import json
from dataclasses import dataclass, field

from .types import ArrayType, TupleType


def type_text(t):
    if isinstance(t, ArrayType):
        return f"(array {t.dtype} {t.ndim} {t.layout}{' readonly' if t.readonly else ''})"
    if isinstance(t, TupleType):
        return "(tuple " + " ".join(type_text(x) for x in t.items) + ")"
    return str(t)


def value_text(value, t):
    """A constant in the text: integers exactly, floats with repr (round-trips), complex as
    two floats, bools as 0/1."""
    if t == "bool":
        return "1" if value else "0"
    if isinstance(value, complex):
        return f"{value.real!r} {value.imag!r}"
    if isinstance(value, float):
        return repr(value)
    return str(int(value))


# --- expressions -----------------------------------------------------------------------------

@dataclass
class Const:
    value: object
    type: object

    def text(self):
        return f"(const {type_text(self.type)} {value_text(self.value, self.type)})"


@dataclass
class Var:
    name: str
    type: object

    def text(self):
        return f"(var {self.name} {type_text(self.type)})"


@dataclass
class Cast:
    value: object
    type: object

    def text(self):
        return f"(cast {type_text(self.type)} {self.value.text()})"


@dataclass
class Binary:
    """An arithmetic, bitwise or shift op computed in `type`, both operands already of the
    op's input types (Numba's: for shifts the right operand keeps its own type)."""
    op: str
    a: object
    b: object
    type: object

    def text(self):
        return f"(binary {self.op} {type_text(self.type)} {self.a.text()} {self.b.text()})"


@dataclass
class Compare:
    op: str  # lt, le, gt, ge, eq, ne
    a: object
    b: object
    type: object = "bool"

    def text(self):
        return f"(compare {self.op} {self.a.text()} {self.b.text()})"


@dataclass
class Unary:
    op: str  # neg, pos, invert, not
    value: object
    type: object

    def text(self):
        return f"(unary {self.op} {type_text(self.type)} {self.value.text()})"


@dataclass
class Select:
    """cond ? a : b, evaluating only the branch taken (Python's ternary, and `and`/`or`)."""
    cond: object
    a: object
    b: object
    type: object

    def text(self):
        return f"(select {type_text(self.type)} {self.cond.text()} {self.a.text()} {self.b.text()})"


@dataclass
class Call:
    """A function of the math library (tessera's functors: kernels/), by NumPy ufunc name,
    its arguments already of its input types."""
    function: str
    args: list
    type: object

    def text(self):
        args = " ".join(a.text() for a in self.args)
        return f"(call {self.function} {type_text(self.type)} {args})"


@dataclass
class CallExternal:
    """A device function written in CUDA C++ and declared with cuda.declare_device, by its C
    name: Numba's ABI (`int f(R* result, args...)`, the result through the pointer) or the
    C ABI (`R f(args...)`); its arguments already of the declared types."""
    name: str
    abi: str  # "numba" or "c"
    args: list
    type: object

    def text(self):
        args = "".join(" " + a.text() for a in self.args)
        return f"(call_external {self.name} {self.abi} {type_text(self.type)}{args})"


@dataclass
class MakeComplex:
    """complex(real, imag), both already of the complex type's part type."""
    real: object
    imag: object
    type: object

    def text(self):
        return f"(complex {type_text(self.type)} {self.real.text()} {self.imag.text()})"


@dataclass
class Part:
    """The real or imaginary part of a complex value."""
    part: str  # "real" or "imag"
    value: object
    type: object

    def text(self):
        return f"(part {self.part} {type_text(self.type)} {self.value.text()})"


@dataclass
class CallFunction:
    """A call of another compiled function of the module, by its name there."""
    name: str
    args: list
    type: object

    def text(self):
        return f"(call_function {self.name} {type_text(self.type)} " + " ".join(a.text() for a in self.args) + ")"


@dataclass
class NewArray:
    """A new C-contiguous array of `type` with the int64 extents `dims`: uninitialized
    ("empty"), or filled with zeros or ones. It lives until the compiled call returns,
    unless it is what the call returns."""
    fill: str  # "empty", "zeros" or "ones"
    dims: list
    type: object

    def text(self):
        return (f"(new_array {self.fill} {type_text(self.type)} " +
                " ".join(d.text() for d in self.dims) + ")")


@dataclass
class MakeTuple:
    items: list
    type: object

    def text(self):
        return f"(tuple_make {type_text(self.type)} " + " ".join(i.text() for i in self.items) + ")"


@dataclass
class TupleGet:
    """Item `index` of a tuple: a constant position, or (a homogeneous tuple) an int64
    expression."""
    value: object
    index: object  # an int, or an int64 expression
    type: object

    def text(self):
        if isinstance(self.index, int):
            return f"(tuple_get {type_text(self.type)} {self.value.text()} {self.index})"
        return f"(tuple_at {type_text(self.type)} {self.value.text()} {self.index.text()})"


@dataclass
class Load:
    """array[indices]: one int64 index per dimension; a negative one counts from the end,
    unless `direct` (every index is known not to be negative: the renderer skips the
    wrap-around, which keeps loops vectorizable)."""
    array: object
    indices: list
    type: object
    direct: bool = False

    def text(self):
        head = "load_direct" if self.direct else "load"
        return f"({head} {self.array.text()} " + " ".join(i.text() for i in self.indices) + ")"


@dataclass
class View:
    """The view of `array` that `items` select (a[i] of a 2-d array, a[1:-1], a[i, ::2],
    v[:, None]): each item ("index", int64 expression), dropping its dimension, ("slice",
    start, stop, step), each an int64 expression or None, or ("newaxis",), a dimension of
    extent 1 that takes none of the array's; dimensions past the items are kept whole."""
    array: object
    items: list
    type: object

    def text(self):
        def item_text(item):
            if item[0] == "index":
                return f"(index {item[1].text()})"
            if item[0] == "newaxis":
                return "(newaxis)"
            return "(slice " + " ".join("_" if b is None else b.text() for b in item[1:]) + ")"
        return (f"(view {type_text(self.type)} {self.array.text()} " +
                " ".join(item_text(i) for i in self.items) + ")")


@dataclass
class Transpose:
    """a.T, a.transpose(axes): the array's dimensions in reverse order, or dimension k of
    the result being dimension axes[k] of the array (constants); the same memory."""
    array: object
    type: object
    axes: tuple = None

    def text(self):
        axes = "".join(f" {k}" for k in self.axes) if self.axes is not None else ""
        return f"(transpose {type_text(self.type)} {self.array.text()}{axes})"


@dataclass
class PartView:
    """a.real / a.imag of a complex array: its real or imaginary parts, the same memory
    seen as the part's dtype with the array's strides."""
    part: str  # "real" or "imag"
    array: object
    type: object

    def text(self):
        return f"(part_view {self.part} {type_text(self.type)} {self.array.text()})"


@dataclass
class Reshape:
    """a.reshape(dims) of a C-contiguous array: the same memory with the int64 extents
    `dims` (one may be -1: inferred), C-contiguous; ValueError when the size differs."""
    array: object
    dims: list
    type: object

    def text(self):
        return (f"(reshape {type_text(self.type)} {self.array.text()} " +
                " ".join(d.text() for d in self.dims) + ")")


@dataclass
class Matmul:
    """a @ b of 2-d and 1-d arrays of the result's dtype (not both 1-d): a new C-contiguous
    array computed by tessera's matmul."""
    a: object
    b: object
    type: object

    def text(self):
        return f"(matmul {type_text(self.type)} {self.a.text()} {self.b.text()})"


@dataclass
class Linalg:
    """np.linalg's function `op` by tessera's linalg (the host runtime's linalg service,
    src/jit/host_services.h names the ops): array operands of dtype `dtype`, a float64
    parameter (an order, a tolerance, a flag); the result an array, a number, or a tuple of
    them, each a new C-contiguous array of the call."""
    op: str
    dtype: str
    param: object
    inputs: list
    type: object

    def text(self):
        return (f"(linalg {self.op} {self.dtype} {type_text(self.type)} {self.param.text()} " +
                " ".join(i.text() for i in self.inputs) + ")")


@dataclass
class Shape:
    array: object
    axis: int
    type: object = "int64"

    def text(self):
        return f"(shape {self.array.text()} {self.axis})"


@dataclass
class Truth:
    """The truth of a number (nonzero), as Python's `if x:` tests it."""
    value: object
    type: object = "bool"

    def text(self):
        return f"(truth {self.value.text()})"


@dataclass
class Intrinsic:
    """A CUDA built-in of Numba's `cuda` module (thread indices, barriers, warp votes and
    shuffles, atomics, bit operations), by the name the CUDA runtime of the generated code
    gives it (src/jit/python_cuda_runtime.h), its arguments already of the types it takes.
    `type` is "none" for one that returns nothing (used as a statement, Evaluate)."""
    name: str
    args: list
    type: object

    def text(self):
        args = "".join(" " + a.text() for a in self.args)
        return f"(intrinsic {self.name} {type_text(self.type)}{args})"


@dataclass
class RuntimeCall:
    """A function of the host runtime (src/jit/python_runtime.h) by its name there (the
    random draws of Python's `random` and np.random), its arguments already of the types it
    takes; `type` "none" for one that returns nothing."""
    name: str
    args: list
    type: object

    def text(self):
        args = "".join(" " + a.text() for a in self.args)
        return f"(runtime {self.name} {type_text(self.type)}{args})"


@dataclass
class Address:
    """The address of array[indices] (an atomic's operand); indices as Load's."""
    array: object
    indices: list
    type: object = "pointer"

    def text(self):
        return f"(address {self.array.text()} " + " ".join(i.text() for i in self.indices) + ")"


@dataclass
class Broadcast:
    """The extent of two aligned dimensions broadcast together (NumPy's rule); operands
    that cannot be raise ValueError."""
    a: object
    b: object
    type: object = "int64"

    def text(self):
        return f"(broadcast {self.a.text()} {self.b.text()})"


# --- statements ------------------------------------------------------------------------------

@dataclass
class Assign:
    target: str
    value: object

    def text(self):
        return f"(assign {self.target} {self.value.text()})"


@dataclass
class Store:
    array: object
    indices: list
    value: object
    direct: bool = False  # as Load's

    def text(self):
        head = "store_direct" if self.direct else "store"
        return (f"({head} {self.array.text()} (" + " ".join(i.text() for i in self.indices) +
                f") {self.value.text()})")


@dataclass
class AssignArray:
    """`a[...] = value` where the subscript makes a view (a slice, or fewer indices than
    dimensions): every element of the view set to `value`, a number of its dtype, or to the
    array `value` broadcast to the view's shape (NumPy's rules; read before any element is
    written when the two overlap)."""
    view: object
    value: object

    def text(self):
        return f"(assign_array {self.view.text()} {self.value.text()})"


@dataclass
class Evaluate:
    """An expression evaluated for its effect (`cuda.syncthreads()`, an atomic whose old
    value is not used)."""
    value: object

    def text(self):
        return f"(do {self.value.text()})"


@dataclass
class Print:
    """print(...) in a CUDA kernel: each item a string (str) or a number, printed as Numba's
    CUDA target prints them (printf: integers whole, floats with %f), space-separated, then
    a newline. Strings cross into the text hex-encoded."""
    items: list

    def text(self):
        items = " ".join(f"(text {i.encode().hex() or '_'})" if isinstance(i, str)
                         else f"(value {type_text(i.type)} {i.text()})" for i in self.items)
        return f"(print {items})"


@dataclass
class LocalArray:
    """`target = cuda.shared.array(dims, dtype)` or `cuda.local.array(...)`: storage for the
    C-contiguous array `type` of the constant extents `dims`, in shared memory (`space`
    "shared"; "dynamic" for a length of 0, the launch's dynamic shared memory) or in the
    thread's own memory ("local"), viewed by the variable `target`."""
    target: str
    space: str
    type: object
    dims: list

    def text(self):
        dims = "".join(f" {d}" for d in self.dims)
        return f"(local_array {self.target} {self.space} {type_text(self.type)}{dims})"


@dataclass
class ConstArray:
    """`target = cuda.const.array_like(GLOBAL)`: a read-only copy of a global NumPy array,
    its values frozen into the kernel at compile time (C order), viewed by `target`."""
    target: str
    type: object
    dims: list
    values: list

    def text(self):
        dims = " ".join(str(d) for d in self.dims)
        values = " ".join(value_text(v, self.type.dtype) for v in self.values)
        return f"(const_array {self.target} {type_text(self.type)} ({dims}) ({values}))"


@dataclass
class If:
    cond: object
    body: list
    orelse: list

    def text(self):
        return f"(if {self.cond.text()} {block_text(self.body)} {block_text(self.orelse)})"


@dataclass
class ForRange:
    var: str
    start: object
    stop: object
    step: object
    body: list

    def text(self):
        return (f"(for {self.var} {self.start.text()} {self.stop.text()} {self.step.text()} "
                f"{block_text(self.body)})")


@dataclass
class ParallelRange:
    """`for var in prange(...)` of a parallel=True function: chunks of the iterations on
    tessera's thread pool. Each chunk has its own copy of the `privates` (every variable
    the body assigns) and of each reduction variable, which starts at its op's identity;
    after the loop the chunks' partial results are combined into the variable in chunk
    order (`reductions`: (name, "add", "multiply", "max" or "min"; max and min start from
    the value before the loop)). The body neither breaks nor returns."""
    var: str
    start: object
    stop: object
    step: object
    body: list
    reductions: list
    privates: list

    def text(self):
        reductions = " ".join(f"({n} {op})" for n, op in self.reductions)
        return (f"(parallel_for {self.var} {self.start.text()} {self.stop.text()} "
                f"{self.step.text()} (reductions {reductions}) (privates {' '.join(self.privates)}) "
                f"{block_text(self.body)})")


@dataclass
class While:
    cond: object
    body: list

    def text(self):
        return f"(while {self.cond.text()} {block_text(self.body)})"


@dataclass
class Break:
    def text(self):
        return "(break)"


@dataclass
class Continue:
    def text(self):
        return "(continue)"


@dataclass
class Return:
    value: object = None

    def text(self):
        return "(return)" if self.value is None else f"(return {self.value.text()})"


@dataclass
class Release:
    """Frees the array the variable `name` holds, which the function created and nothing
    else refers to any more (a whole-array expression's result about to be replaced)."""
    name: str

    def text(self):
        return f"(release {self.name})"


@dataclass
class Raise:
    """Raises the exception of a pyjit::Raise code (src/jit/python_raise.h)."""
    code: int

    def text(self):
        return f"(raise {self.code})"


@dataclass
class Line:
    """The Python source line of the statements that follow (the renderers' #line)."""
    number: int

    def text(self):
        return f"(line {self.number})"


def block_text(statements):
    return "(block " + " ".join(s.text() for s in statements) + ")"


@dataclass
class Function:
    name: str
    filename: str
    params: list  # [(name, type)]
    return_type: object
    locals: dict = field(default_factory=dict)  # name -> type, parameters excluded
    body: list = field(default_factory=list)
    callees: list = field(default_factory=list)  # the Functions it calls, callees first
    # The parameter every `return` gives back (an array argument returned as itself), or
    # None: the function then returns nothing and the caller hands back that argument.
    returns_argument: int = None
    # The CUDA C++ device functions it calls (cuda.declare_device objects).
    externals: list = field(default_factory=list)

    def module_text(self):
        """This function and every function it calls, callees first: what the renderer
        takes, the last function being the entry point's."""
        return "(module\n" + "\n".join(f.text() for f in self.callees + [self]) + ")"

    def text(self):
        params = " ".join(f"({n} {type_text(t)})" for n, t in self.params)
        local = " ".join(f"({n} {type_text(t)})" for n, t in self.locals.items())
        return (f"(function {self.name} {json.dumps(self.filename)} ({params}) {type_text(self.return_type)}\n"
                f"  (locals {local})\n  {block_text(self.body)})")
