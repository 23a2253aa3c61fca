"""tessera.jit against Numba, the oracle for Python kernels: typing by Numba's own typing
context, values and exceptions by running the same functions through numba.njit."""

import math
import operator
import textwrap
import types

import numpy as np
import pytest

import tessera as tp
from tessera import jit
from tessera.jit import TypingError
from tessera.jit.frontend import FunctionSource, lower_function
from tessera.jit import types as T

numba = pytest.importorskip("numba")
from numba.core import errors as numba_errors  # noqa: E402
from numba.core import types as nt  # noqa: E402
from numba.core.registry import cpu_target  # noqa: E402

# Compiled for the CPU: make test's run on the CUDA device leaves out the tests taking no device.
pytestmark = pytest.mark.host_only

SCALARS = ["bool", "int8", "uint8", "int16", "int32", "uint32", "int64", "uint64", "float32",
           "float64", "complex64", "complex128"]
BINARY = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
          "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "&": operator.and_,
          "|": operator.or_, "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift}


def numba_type(name):
    return nt.boolean if name == "bool" else getattr(nt, name)


def numba_typing():
    context = cpu_target.typing_context
    context.refresh()
    return context


def numba_result(context, op, args):
    """Numba's result type of op over scalar types `args`, or None where it raises."""
    try:
        signature = context.resolve_function_type(op, tuple(numba_type(a) for a in args), {})
    except numba_errors.TypingError:
        return None
    if signature is None:
        return None
    return "bool" if signature.return_type == nt.boolean else str(signature.return_type)


def our_result(source, args):
    """Our front end's result type of the function in `source`, or None where it raises."""
    try:
        return lower_function(FunctionSource.from_text(source, {"math": math}), list(args)).return_type
    except TypingError:
        return None


# --------------------------------------------------------------------------------------------
# typing


@pytest.mark.parametrize("symbol", list(BINARY))
def test_binary_operators_type_as_numba(symbol):
    context = numba_typing()
    source = f"def f(a, b):\n    return a {symbol} b\n"
    mismatches = []
    for a in SCALARS:
        for b in SCALARS:
            want = numba_result(context, BINARY[symbol], (a, b))
            got = our_result(source, (a, b))
            if symbol in ("**",) and a == "bool":
                continue  # Numba types bool ** int by a float32 loop: not worth copying
            if symbol in ("<<", ">>") and "bool" in (a, b) and a != b:
                continue  # Numba's shifts mixing bool and integers follow no stated rule
            if got != want:
                mismatches.append(f"{a} {symbol} {b}: numba {want}, tessera {got}")
    assert not mismatches, "\n".join(mismatches)


@pytest.mark.parametrize("name, op", [("-", operator.neg), ("~", operator.invert),
                                      ("abs", abs)])
def test_unary_operators_type_as_numba(name, op):
    context = numba_typing()
    source = f"def f(a):\n    return {'abs(a)' if name == 'abs' else name + 'a'}\n"
    for a in SCALARS:
        want = numba_result(context, op, (a,))
        assert our_result(source, (a,)) == want, a


def test_variables_unify_as_numba_joins():
    source = "def f(c, a, b):\n    if c:\n        x = a\n    else:\n        x = b\n    return x\n"
    context = numba_typing()
    for a in SCALARS:
        for b in SCALARS:
            want = context.unify_pairs(numba_type(a), numba_type(b))
            want = None if want is None else ("bool" if want == nt.boolean else str(want))
            assert our_result(source, ("bool", a, b)) == want, (a, b)


def test_math_functions_type_as_numba():
    context = numba_typing()
    for name in ("sin", "sqrt", "exp", "log", "atan2", "hypot", "floor", "isnan"):
        nargs = 2 if name in ("atan2", "hypot") else 1
        args = ", ".join("ab"[:nargs])
        source = f"def f({args}):\n    return math.{name}({args})\n"
        for a in SCALARS:
            want = numba_result(context, getattr(math, name), (a,) * nargs)
            assert our_result(source, (a,) * nargs) == want, (name, a)


def test_a_variable_widens_to_what_the_loop_assigns():
    source = "def f(a):\n    s = 0\n    for i in range(3):\n        s += a[i]\n    return s\n"
    ir = lower_function(FunctionSource.from_text(source), [T.ArrayType("float32", 1, "C")])
    assert ir.return_type == "float64" and ir.locals["s"] == "float64"


# --------------------------------------------------------------------------------------------
# values, against numba.njit


def dot(a, b):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i] * b[i]
    return s


def collatz(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
        if steps > 10000:
            break
    return steps


def smooth(x, out):
    for i in range(1, x.shape[0] - 1):
        for j in range(1, x.shape[1] - 1):
            out[i, j] = (x[i - 1, j] + x[i + 1, j] + x[i, j - 1] + x[i, j + 1]) / 4 \
                + math.sin(x[i, j])


def last_and_reversed(a, out):
    n = a.shape[0]
    for i in range(n - 1, -1, -1):
        out[n - 1 - i] = a[i]
    return a[-1]


def primes_below(n):
    count = 0
    for k in range(2, n):
        is_prime = True
        d = 2
        while d * d <= k:
            if k % d == 0:
                is_prime = False
                break
            d += 1
        if not is_prime:
            continue
        count += 1
    return count


def mixed(a, b, flag):
    x = a if flag else b
    y = max(a, b, 3) - min(a, -b)
    return abs(x) + y / 7 + (a ** 2 if a > 0 and b > 0 else 1.5)


@pytest.mark.parametrize("function, make_args", [
    (dot, lambda: (np.arange(1000.0), np.linspace(0, 1, 1000))),
    (dot, lambda: (np.arange(10, dtype=np.float32), np.arange(10, dtype=np.float32)[::-1])),
    (dot, lambda: (np.arange(12.0).reshape(3, 4).T[0], np.ones(3))),
    (collatz, lambda: (27,)),
    (collatz, lambda: (np.int32(97),)),
    (primes_below, lambda: (2000,)),
    (mixed, lambda: (5, 3, True)),
    (mixed, lambda: (-2.5, np.float32(4), False)),
], ids=lambda v: getattr(v, "__name__", ""))
def test_values_match_numba(function, make_args):
    got = jit(function)(*make_args())
    want = numba.njit(function)(*make_args())
    assert type(got) is type(want) and got == pytest.approx(want, rel=1e-15, abs=0), (got, want)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_arrays_written_in_place_match_numba(dtype):
    x = np.random.default_rng(1).standard_normal((40, 30)).astype(dtype)
    got, want = np.zeros_like(x), np.zeros_like(x)
    jit(smooth)(x, got)
    numba.njit(smooth)(x, want)
    np.testing.assert_array_equal(got, want)
    a = np.arange(7, dtype=dtype)
    out1, out2 = np.zeros_like(a), np.zeros_like(a)
    assert jit(last_and_reversed)(a, out1) == numba.njit(last_and_reversed)(a, out2)
    np.testing.assert_array_equal(out1, out2)


def test_one_specialization_per_argument_types():
    f = jit(dot)
    f(np.ones(3), np.ones(3))
    f(np.ones(3), np.ones(3))
    f(np.ones(3, np.float32), np.ones(3, np.float32))
    f(np.ones((2, 3))[:, 0], np.ones(2))
    assert len(f.signatures) == 3


# --------------------------------------------------------------------------------------------
# errors


def divide(a, b):
    return a / b


def floor_divide(a, b):
    return a // b


@pytest.mark.parametrize("function", [divide, floor_divide])
@pytest.mark.parametrize("args", [(1, 0), (1.5, 0.0)])
def test_division_by_zero_raises_as_numba(function, args):
    with pytest.raises(ZeroDivisionError) as theirs:
        numba.njit(function)(*args)
    with pytest.raises(ZeroDivisionError) as ours:
        jit(function)(*args)
    assert str(ours.value) == "division by zero" or str(theirs.value) in str(ours.value)


def uses_a_list(n):
    values = [1, 2, 3]
    return values[n]


def uses_a_string():
    return "text"


def takes_unknown(f):
    return f(1)


@pytest.mark.parametrize("function, args, what", [
    (uses_a_list, (1,), "List expressions are not supported"),
    (uses_a_string, (), "the constant 'text' is not a number or bool"),
])
def test_unsupported_constructs_name_the_file_line_and_construct(function, args, what):
    with pytest.raises(TypingError) as info:
        jit(function)(*args)
    message = str(info.value)
    assert what in message
    assert f"test_jit.py:{function.__code__.co_firstlineno + 1}" in message
    assert function.__name__ in message


def test_bad_arguments_are_typing_errors():
    with pytest.raises(TypingError, match="argument 1"):
        jit(dot)([1.0, 2.0], np.ones(2))
    with pytest.raises(TypingError, match="takes 2 arguments, 1 given"):
        jit(dot)(np.ones(2))


# --------------------------------------------------------------------------------------------
# Numba's documentation: the Mandelbrot example, unchanged but for the import


@jit(nopython=True)
def mandel(x, y, max_iters):
    """
    Given the real and imaginary parts of a complex number,
    determine if it is a candidate for membership in the Mandelbrot
    set given a fixed number of iterations.
    """
    i = 0
    c = complex(x, y)
    z = 0.0j
    for i in range(max_iters):
        z = z * z + c
        if (z.real * z.real + z.imag * z.imag) >= 4:
            return i

    return 255


@jit(nopython=True)
def create_fractal(min_x, max_x, min_y, max_y, image, iters):
    height = image.shape[0]
    width = image.shape[1]

    pixel_size_x = (max_x - min_x) / width
    pixel_size_y = (max_y - min_y) / height
    for x in range(width):
        real = min_x + x * pixel_size_x
        for y in range(height):
            imag = min_y + y * pixel_size_y
            color = mandel(real, imag, iters)
            image[y, x] = color

    return image


def test_numbas_mandelbrot_example_runs_unchanged():
    image = np.zeros((120, 180), dtype=np.uint8)
    assert create_fractal(-2.0, 1.0, -1.0, 1.0, image, 20) is image
    # The same two functions through Numba: create_fractal's code with Numba's mandel.
    numba_globals = dict(create_fractal.py_func.__globals__, mandel=numba.njit(mandel.py_func))
    numba_fractal = numba.njit(types.FunctionType(create_fractal.py_func.__code__, numba_globals))
    reference = np.zeros_like(image)
    numba_fractal(-2.0, 1.0, -1.0, 1.0, reference, 20)
    np.testing.assert_array_equal(image, reference)
    assert image.max() == 255 and len(np.unique(image)) > 5


def half(x):
    return x / 2


def calls_twice(a):
    total = 0.0
    for i in range(a.shape[0]):
        total += half(a[i]) + half(i)
    return total


def test_calls_of_jit_functions_specialize_each_callee():
    global half
    plain = half
    half = jit(plain)
    try:
        a = np.arange(5.0)
        assert jit(calls_twice)(a) == sum(v / 2 + i / 2 for i, v in enumerate(a))
    finally:
        half = plain


def parts(z):
    return z.real * 2 + z.imag + complex(1, 2).imag


@pytest.mark.parametrize("z", [np.complex64(1.5 - 2j), 3 + 4j, 2.5, 7])
def test_complex_parts_match_numba(z):
    got, want = jit(parts)(z), numba.njit(parts)(z)
    assert type(got) is type(want) and got == want


def first(a):
    return a[0]


def test_dispatch_by_type_key_keeps_specializations_apart():
    f = jit(first)
    c = np.arange(6.0).reshape(2, 3)
    assert f(c[0]) == 0.0 and f(c[:, 1]) == 1.0 and f(c.T[2]) == 2.0
    assert f(np.array([7], np.int32)) == 7 and type(f(np.array([7], np.int32))) is int
    assert f(np.array([1 + 2j], np.complex64)) == 1 + 2j
    assert f(np.array([True])) is True
    assert f(tp.asarray([4.5, 1.0], device="cpu")) == 4.5
    assert len(f.signatures) == 5  # C and A float64, int32, complex64, bool
    with pytest.raises(TypingError):
        f(np.array([1.0]).astype(">f8"))


@pytest.mark.uses_cuda
def test_an_array_on_a_cuda_device_is_refused_by_name():
    if not tp.cuda.is_available():
        pytest.skip("needs a CUDA device (TESSERA_CUDA_SIM=1 simulates one)")
    with tp.cuda.Device(0):
        x = tp.asarray([1.0, 2.0])
    with pytest.raises(TypingError, match="on cuda:0: jit functions run on the CPU"):
        jit(first)(x)


def scale(x, k):
    return x * k


@pytest.mark.parametrize("args", [(np.float32(1.5), 2), (np.int8(-3), np.uint16(7)), (2 ** 63, 1),
                                  (True, 2.5), (np.complex64(1 - 1j), 2)])
def test_scalar_arguments_match_numba(args):
    got, want = jit(scale)(*args), numba.njit(scale)(*args)
    assert type(got) is type(want) and got == want


UFUNCS = ["sin", "sqrt", "exp2", "cbrt", "floor", "rint", "isnan", "absolute", "arctan2",
          "hypot", "power", "minimum", "maximum", "fabs", "sign", "square", "negative",
          "logaddexp", "add", "true_divide", "floor_divide", "bitwise_and", "logical_and"]


@pytest.mark.parametrize("name", UFUNCS)
def test_numpy_ufuncs_on_scalars_type_as_numba(name):
    context = numba_typing()
    ufunc = getattr(np, name)
    args = ", ".join("ab"[:ufunc.nin])
    source = f"def f({args}):\n    return np.{name}({args})\n"
    for a in SCALARS:
        if a == "complex64" and name in ("floor", "absolute", "sign"):
            continue  # NumPy 2 and Numba disagree on these complex loops
        want = numba_result(context, ufunc, (a,) * ufunc.nin)
        try:
            got = lower_function(FunctionSource.from_text(source, {"np": np}),
                                 [a] * ufunc.nin).return_type
        except TypingError:
            got = None
        assert got == want, (name, a)


def ufunc_mix(x, y):
    return np.sqrt(x) + np.arctan2(y, x) + np.maximum(x, y) + np.floor(y) - np.power(x, 2)


@pytest.mark.parametrize("args", [(2.0, 3.0), (np.float32(2.5), np.float32(-1.5)), (4, 7)])
def test_numpy_ufuncs_on_scalars_match_numba(args):
    got, want = jit(ufunc_mix)(*args), numba.njit(ufunc_mix)(*args)
    assert type(got) is type(want) and got == pytest.approx(want, rel=1e-6 if
                                                             isinstance(args[0], np.float32) else 1e-15)


def tuples(a, i, j):
    n, m = a.shape
    a[i, j], a[j, i] = a[j, i], a[i, j]
    pair = (n * 1.5, m)
    first, second = pair
    shape = a.shape
    return first + second + len(shape) + shape[-1] + shape[i], n, m * 2.0


def test_tuples_match_numba():
    a = np.arange(12.0).reshape(3, 4)
    b = a.copy()
    got, want = jit(tuples)(a, 0, 2), numba.njit(tuples)(b, 0, 2)
    assert got == want and [type(v) for v in got] == [type(v) for v in want]
    np.testing.assert_array_equal(a, b)


def swap_sort(a):
    for i in range(a.shape[0]):
        for j in range(a.shape[0] - 1 - i):
            if a[j] > a[j + 1]:
                a[j], a[j + 1] = a[j + 1], a[j]
    return a


def test_bubble_sort_by_tuple_swaps():
    x = np.random.default_rng(2).standard_normal(50)
    np.testing.assert_array_equal(jit(swap_sort)(x.copy()), np.sort(x))


# --------------------------------------------------------------------------------------------
# arrays created inside jit functions


def heat_steps(u0, steps, alpha):
    u = np.empty_like(u0)
    n = u0.shape[0]
    for i in range(n):
        u[i] = u0[i]
    new = np.zeros(n)
    for _ in range(steps):
        for i in range(1, n - 1):
            new[i] = u[i] + alpha * (u[i - 1] - 2 * u[i] + u[i + 1])
        for i in range(1, n - 1):
            u[i] = new[i]
    return u


def grid(n, m):
    out = np.ones((n, m), dtype=np.int32)
    for i in range(n):
        out[i, 0] = i
    return out


def test_arrays_created_inside_match_numba():
    u0 = np.sin(np.linspace(0, np.pi, 50))
    got, want = jit(heat_steps)(u0, 30, 0.25), numba.njit(heat_steps)(u0, 30, 0.25)
    assert type(got) is np.ndarray and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    g, w = jit(grid)(3, 4), numba.njit(grid)(3, 4)
    assert g.dtype == w.dtype == np.int32 and g.flags["C_CONTIGUOUS"]
    np.testing.assert_array_equal(g, w)
    assert jit(grid)(0, 5).shape == (0, 5)
    with pytest.raises(ValueError, match="negative dimensions"):
        jit(grid)(-1, 2)


def keywords_as_names(new, delete):
    int_ = new + delete
    this = int_ * 2
    return this


def test_python_names_that_are_cpp_keywords():
    assert jit(keywords_as_names)(2, 3) == 10


def inner_x(x):
    return x + 1


def outer_x(x):
    return inner_x(x) * 2


def test_caller_and_callee_with_the_same_parameter_names():
    global inner_x
    plain = inner_x
    inner_x = jit(plain)
    try:
        assert jit(outer_x)(3) == 8
    finally:
        inner_x = plain


# --------------------------------------------------------------------------------------------
# prange: parallel=True loops on tessera's thread pool


def parallel_sum_and_fill(x, out):
    total = 0.0
    product = 1.0
    for i in tp.prange(x.shape[0]):
        t = x[i] * 2.0
        out[i] = t + 1.0
        total += t
        product *= 1.0 + x[i] * 1e-3
    return total, product


def test_prange_reductions_and_privates_match_numba():
    x = np.random.default_rng(3).standard_normal(100_003)
    got_out, want_out = np.zeros_like(x), np.zeros_like(x)
    got = jit(parallel=True)(parallel_sum_and_fill)(x, got_out)
    numba_version = numba.njit(parallel=True)(
        types.FunctionType(parallel_sum_and_fill.__code__,
                           dict(parallel_sum_and_fill.__globals__, tp=numba)))
    want = numba_version(x, want_out)
    np.testing.assert_array_equal(got_out, want_out)
    assert got == pytest.approx(want, rel=1e-12)
    # Without parallel=True, prange is range: the serial loop's values exactly.
    serial = jit(parallel_sum_and_fill)(x, np.zeros_like(x))
    assert serial[0] == sum_in_order(2.0 * x)


def sum_in_order(values):
    return float(np.add.accumulate(values)[-1])


def reads_its_reduction(x):
    s = 0.0
    for i in tp.prange(x.shape[0]):
        s += x[i] + s
    return s


def returns_in_prange(x):
    for i in tp.prange(x.shape[0]):
        if x[i] > 0:
            return i
    return -1


def parallel_extremes(x):
    top = -np.inf
    bottom = np.inf
    for i in tp.prange(x.shape[0]):
        top = max(top, x[i])
        bottom = min(x[i] * 2.0, bottom)
    return top, bottom


def test_prange_max_and_min_reductions_match_numba():
    x = np.random.default_rng(5).standard_normal(100_003)
    numba_version = numba.njit(parallel=True)(
        types.FunctionType(parallel_extremes.__code__,
                           dict(parallel_extremes.__globals__, tp=numba)))
    assert jit(parallel=True)(parallel_extremes)(x) == numba_version(x) == (x.max(), 2 * x.min())
    # Before this, `top` was a private of each chunk: the loop's result was lost.
    assert jit(parallel=True)(parallel_extremes)(np.array([-5.0])) == (-5.0, -10.0)


def carries_a_private(x):
    last = 0.0
    for i in tp.prange(x.shape[0]):
        x[i] = last
        last = x[i] + 1.0
    return last


def max_and_assigned(x):
    m = 0.0
    for i in tp.prange(x.shape[0]):
        m = max(m, x[i])
        m = 1.0
    return m


@pytest.mark.parametrize("function, what", [(reads_its_reduction, "would race"),
                                            (returns_in_prange, "'return' inside a prange"),
                                            (carries_a_private, "carry a value"),
                                            (max_and_assigned, "no reduction")])
def test_prange_refuses_what_would_race(function, what):
    with pytest.raises(TypingError, match=what):
        jit(parallel=True)(function)(np.ones(10))


def divides_in_prange(x, d):
    s = 0
    for i in tp.prange(x.shape[0]):
        s += x[i] // d
    return s


def test_an_exception_in_a_parallel_chunk_reaches_the_caller():
    assert jit(parallel=True)(divides_in_prange)(np.arange(1000), 7) == (np.arange(1000) // 7).sum()
    with pytest.raises(ZeroDivisionError):
        jit(parallel=True)(divides_in_prange)(np.arange(1000), 0)


def row_expressions_in_prange(a, b):
    out = np.empty_like(a)
    s = 0.0
    for i in tp.prange(a.shape[0]):
        row = np.sqrt(a[i]) * b[i] + 1.0
        out[i] = row
        s += row.sum()
    return out, s


def scratch_arrays_in_prange(a, b):
    out = np.empty((a.shape[0], b.shape[1]))
    for i in tp.prange(a.shape[0]):
        scratch = np.zeros(a.shape[1])
        for j in range(a.shape[1]):
            scratch[j] = a[i, j] * j
        out[i] = scratch @ b
    return out


def negative_size_in_prange(n):
    s = 0.0
    for i in tp.prange(n):
        s += np.empty(50 - i).size
    return s


def numba_parallel(function):
    return numba.njit(parallel=True)(
        types.FunctionType(function.__code__, dict(function.__globals__, tp=numba)))


@pytest.mark.parametrize("rows", [0, 1, 7, 1000])
def test_arrays_made_inside_prange_match_numba(rows):
    rng = np.random.default_rng(rows)
    a, b = rng.random((rows, 5)), rng.standard_normal((rows, 5))
    got, want = jit(parallel=True)(row_expressions_in_prange)(a, b), \
        numba_parallel(row_expressions_in_prange)(a, b)
    np.testing.assert_array_equal(got[0], want[0])
    assert got[1] == pytest.approx(want[1], rel=1e-12)
    m = rng.random((5, 3))
    np.testing.assert_allclose(jit(parallel=True)(scratch_arrays_in_prange)(a, m),
                               numba_parallel(scratch_arrays_in_prange)(a, m), rtol=1e-13)


def test_arrays_made_inside_prange_are_freed_per_chunk():
    # Each iteration makes two arrays, freed by the next iteration at the same site, and
    # each chunk's last ones when the chunk ends, on the pool thread that ran it: 10^5
    # iterations, and then 5000 calls of some chunks each, stay within the arena's 4096
    # blocks per thread (a leak raises MemoryError).
    x = np.full((1, 1000), 1.0)

    def grow(a, x):
        s = 0.0
        for i in tp.prange(a.shape[0]):
            t = x[0] * a[i]
            s += (t + 1.0).sum()
        return s

    f = jit(parallel=True)(grow)
    a = np.arange(100_000.0)
    assert f(a, x) == pytest.approx((a * 1000 + 1000).sum(), rel=1e-12)
    small = np.arange(64.0)
    for _ in range(5000):
        assert f(small, x) == (small * 1000 + 1000).sum()


def test_an_error_making_an_array_in_a_chunk_reaches_the_caller():
    f = jit(parallel=True)(negative_size_in_prange)
    assert f(50) == sum(range(1, 51))
    with pytest.raises(ValueError, match="negative dimensions"):
        f(1000)
    assert f(40) == sum(range(11, 51))  # the failed call's chunks left nothing behind


def iterate(a):
    total = 0.0
    for x in a:
        total += x
    weighted = 0.0
    for i, x in enumerate(a):
        weighted += i * x
    return total, weighted


@pytest.mark.parametrize("a", [np.arange(5.0), np.arange(10.0)[::-3], np.array([], np.float32),
                               np.arange(4, dtype=np.int16)])
def test_iterating_an_array_and_enumerate_match_numba(a):
    got, want = jit(iterate)(a), numba.njit(iterate)(a)
    assert got == want and [type(v) for v in got] == [type(v) for v in want]


def iterate_rows(a):
    s = 0.0
    for row in a:
        s += row[0]
    return s


def test_iterating_a_2d_array_gives_its_rows():
    a = np.arange(12.0).reshape(3, 4)
    assert jit(iterate_rows)(a) == numba.njit(iterate_rows)(a) == 12.0
    assert jit(iterate_rows)(a[::-1, 1:]) == numba.njit(iterate_rows)(a[::-1, 1:])
    with pytest.raises(TypingError, match="not a float64"):
        jit(iterate_rows)(1.5)


def _fast_total(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
    return s


def test_fastmath_reassociates_and_stays_close():
    x = np.random.default_rng(7).standard_normal(10**5)
    fast = tp.jit(fastmath=True)(_fast_total)
    np.testing.assert_allclose(fast(x), x.sum(), rtol=1e-12)
    assert '#pragma GCC optimize("fast-math", "fp-contract=fast")' in fast.inspect_cpp(x)
    assert "fast-math" not in tp.jit(_fast_total).inspect_cpp(x)


def test_closure_variables_are_read_when_compiled():
    """Variables of enclosing functions (constants, jit functions) are frozen at compile
    time, as Numba freezes them."""
    scale = 2.5

    def make(jit):
        @jit
        def helper(x):
            return x * scale

        @jit
        def outer(x):
            return helper(x) + scale

        return outer

    assert make(tp.jit)(4.0) == make(numba.njit)(4.0) == 12.5


def _prints(x, f, b, z, i, u):
    print("x =", x, f, b, z, i, u)
    print(1e20, -0.0, 1.5e-07, 1e16, 1e15, 123456789.125, 0.0001, 0.00001, math.inf, -math.inf,
          math.nan)
    print(complex(0.0, 2.0), complex(-0.0, 1.0), complex(1.5, -math.inf), complex(0.0, -0.0))
    print()
    return x


def test_print_writes_what_numba_writes(capfd):
    args = (0.1, np.float32(0.1), True, 1 + 2j, np.int8(-3), np.uint64(2**64 - 1))
    numba.njit(_prints)(*args)
    theirs = capfd.readouterr().out
    tp.jit(_prints)(*args)
    ours = capfd.readouterr().out
    assert ours == theirs
    assert ours.splitlines()[0] == "x = 0.1 0.10000000149011612 True (1+2j) -3 18446744073709551615"


# recursion: a function calling itself, typed as Numba types it (its other return paths give
# the type its calls of itself return)


@jit
def _fib(n):
    if n < 2:
        return n
    return _fib(n - 1) + _fib(n - 2)


@jit
def _half_steps(n):
    if n == 0:
        return 0
    return _half_steps(n - 1) + 0.5  # widens the first guess, int64, to float64


@jit
def _tree_sum(a, lo, hi):
    if hi - lo == 1:
        return a[lo]
    mid = (lo + hi) // 2
    return _tree_sum(a, lo, mid) + _tree_sum(a, mid, hi)


@jit("float64(int64)")
def _factorial(n):
    if n <= 1:
        return 1
    return n * _factorial(n - 1)


def numba_recursive(dispatcher):
    """Numba's compilation of a jit function that calls itself by its global name."""
    namespace = dict(dispatcher.py_func.__globals__)
    namespace[dispatcher.__name__] = numba.njit(
        types.FunctionType(dispatcher.py_func.__code__, namespace))
    return namespace[dispatcher.__name__]


@pytest.mark.parametrize("function, args", [
    (_fib, (20,)), (_fib, (np.int8(9),)), (_fib, (7.5,)), (_half_steps, (5,)),
    (_tree_sum, (np.arange(1.0, 12.0), 0, 11)),
    (_tree_sum, (np.arange(10, dtype=np.int16)[::-1], 2, 9)),
], ids=["fib", "fib-int8", "fib-float", "widening", "array-float", "array-int16"])
def test_recursion_matches_numba(function, args):
    got, want = function(*args), numba_recursive(function)(*args)
    assert got == want and type(got) is type(want), (got, want)


def test_recursion_with_a_signature():
    assert _factorial(10) == 3628800.0 and type(_factorial(10)) is float
    assert _factorial.signatures == [("int64",)]


def _calls_itself_first(n):
    x = _calls_itself_first(n - 1) if n > 0 else 0
    return x


def _ping(n):
    return 0 if n <= 0 else _pong(n - 1)


def _pong(n):
    return 1 if n <= 0 else _ping(n - 1)


def test_recursion_that_cannot_be_typed_raises():
    global _calls_itself_first, _ping, _pong
    _calls_itself_first = jit(_calls_itself_first)
    with pytest.raises(TypingError, match="calls itself before any return"):
        _calls_itself_first(3)
    _ping, _pong = jit(_ping), jit(_pong)
    with pytest.raises(TypingError, match="only a function calling itself"):
        _ping(4)
