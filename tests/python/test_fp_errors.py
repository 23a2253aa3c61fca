"""Floating-point error handling as NumPy's: seterr, geterr, errstate, seterrcall and
geterrcall; the RuntimeWarnings every elementwise op reports (the same category and message
as NumPy's, for special values of every float dtype, small arrays computed at once and large
ones computed later, when read); the mode kept by each op for its lazy result; the 'raise',
'call', 'print' and 'log' modes; warnings turned into errors; fused chains, casts and
reductions of lazy trees. NumPy, given the same calls on NumPy arrays, is the oracle.

Under lazy evaluation a warning may come from a later line than NumPy's (where the value is
read), so only the warnings' categories and messages are compared, as sets (NumPy reports
each kind of error once per call), except where a test says otherwise.

On a CUDA device, whose work runs as generated kernels, the rule is CuPy's: elementwise ops (ufuncs, operators, fused trees), casts, reductions and
scans report no floating-point errors: no warning, no FloatingPointError, nothing for 'call',
'log' or 'print'; their values are still NumPy's. Each test then expects what the rule leaves
of NumPy's report (expected_warnings, reported); the CPU device always expects all of it."""

import math
import threading
import warnings

import numpy as np
import pytest

import tessera as tp

from conftest import lazy_min_elements, reports_fp_errors

# --------------------------------------------------------------------------------------------
# helpers

DEFAULT_MODES = {"divide": "warn", "over": "warn", "under": "ignore", "invalid": "warn"}
LAZY_MIN = 4096     # the engine's own threshold: smaller results are computed at once
LARGE = 5000        # "large" arrays have at least this many elements: their ops are lazy
LAYOUTS = ["small-direct", "small-expr", "large"]


@pytest.fixture(autouse=True)
def fp_state():
    """Small results computed at once (the engine's default threshold, which conftest lowers
    to 0 for the rest of the suite); the error state of both libraries restored after each
    test (which restores its own; this is the safety net when tessera's errstate does not),
    so that no test leaks modes into the next one of its worker."""
    try:
        with lazy_min_elements(LAZY_MIN):
            yield
    finally:
        tp.seterr(**DEFAULT_MODES)
        tp.seterrcall(None)
        np.seterr(**DEFAULT_MODES)
        np.seterrcall(None)


def to_numpy(result):
    """NumPy copies of a tessera result (reading it computes it)."""
    if isinstance(result, tuple):
        return tuple(to_numpy(r) for r in result)
    if isinstance(result, tp.ndarray):
        return tp.asnumpy(result)
    return np.asarray(result)


def recorded(call, state=None):
    """(call(), the warnings it emitted), every warning recorded, under the `state` context
    manager (an errstate) if given. call() must read tessera results, so that computing them
    happens inside."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        if state is None:
            result = call()
        else:
            with state:
                result = call()
    return result, caught


def kinds(caught):
    return {(w.category.__name__, str(w.message)) for w in caught}


def assert_same_warnings(tp_caught, np_caught):
    """The set of (category, message) tessera warned equals NumPy's."""
    __tracebackhide__ = True
    got, expected = kinds(tp_caught), kinds(np_caught)
    assert got == expected, (f"warnings differ from NumPy's: missing {sorted(expected - got)}, "
                             f"extra {sorted(got - expected)}")


def expected_warnings(np_caught, host_caught=()):
    """Of NumPy's warnings, those tessera must give on the current device: all of them where
    generated code reports floating-point errors (conftest.reports_fp_errors); under the CuPy
    rule only `host_caught`, those of work done on the host on every device (a Python
    scalar converted to an array's dtype)."""
    return list(np_caught) if reports_fp_errors() else list(host_caught)


def reported(expected, nothing):
    """`expected` (what NumPy reported: its callback's calls, log lines, printed text, ...)
    where tessera reports floating-point errors on the current device, `nothing` (the empty
    report) under the CuPy rule."""
    return expected if reports_fp_errors() else nothing


def tolerance(dtype):
    return {"e": 4e-3, "f": 4e-6, "d": 1e-13, "F": 4e-6, "D": 1e-13}.get(np.dtype(dtype).char, 0)


def assert_values(got, expected):
    """Sanity check of the values: same dtype and shape; nan where NumPy has nan, the same
    infinities, finite values within a few ulp (below the smallest normal number ignored)."""
    __tracebackhide__ = True
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected), f"got {got!r}"
        for g, e in zip(got, expected):
            assert_values(g, e)
        return
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.dtype == expected.dtype, f"dtype {got.dtype} != NumPy's {expected.dtype}"
    assert got.shape == expected.shape, f"shape {got.shape} != NumPy's {expected.shape}"
    if expected.dtype.kind not in "fc":
        assert np.array_equal(got, expected), f"values differ:\n{got}\n!=\n{expected}"
        return
    parts = ("real", "imag") if expected.dtype.kind == "c" else ("real",)
    for part in parts:
        g, e = getattr(got, part), getattr(expected, part)
        np.testing.assert_allclose(g, e, rtol=tolerance(expected.dtype),
                                   atol=float(np.finfo(e.dtype).tiny), equal_nan=True,
                                   err_msg=f"{part} parts differ from NumPy's")


def scalar_cast_warnings(np_fn, np_args, modes):
    """NumPy's warnings for converting the Python scalars of np_fn to its arrays' dtypes
    (1e300 into float32): its 'in cast' warnings with the arrays emptied, which leaves no
    element to compute. tessera converts scalars on the host, on every device."""
    empty = [a[:0] if isinstance(a, np.ndarray) and a.ndim else a for a in np_args]

    def run():
        try:
            np_fn(*empty)
        except (ValueError, IndexError):  # reductions of nothing
            pass

    _, caught = recorded(run, np.errstate(**modes))
    return [w for w in caught if str(w.message).endswith(" in cast")]


def compare_op(np_fn, tp_fn, np_args, tp_args, modes=None):
    """np_fn(*np_args) and tp_fn(*tp_args) under errstate(**modes) (all='warn' by default)
    warn alike (as expected_warnings says, the host's warnings those of the scalars'
    conversions) and give the same values."""
    __tracebackhide__ = True
    modes = modes or {"all": "warn"}
    expected, np_caught = recorded(lambda: np_fn(*np_args), np.errstate(**modes))
    got, tp_caught = recorded(lambda: to_numpy(tp_fn(*tp_args)), tp.errstate(**modes))
    assert_same_warnings(tp_caught,
                         expected_warnings(np_caught, scalar_cast_warnings(np_fn, np_args, modes)))
    assert_values(got, expected)


def tiled(values, factor=1):
    """`values` repeated to at least LARGE elements (factor: elements per value)."""
    return np.tile(values, math.ceil(LARGE / (len(values) * factor)))


def unary_inputs(values, layout):
    """(NumPy operand, tessera operand) of a unary op: the values contiguous (the engine's
    direct loop), reversed (a view: an expression computed at once), or tiled (lazy)."""
    if layout == "small-direct":
        return values, tp.array(values)
    if layout == "small-expr":
        return values[::-1], tp.array(values)[::-1]
    big = tiled(values)
    return big, tp.array(big)


def binary_inputs(x, y, layout):
    """(NumPy operands, tessera operands) of a binary op, every pair of x and y: contiguous
    operands of one shape (the direct loop), x[:, None] with y[None, :] (broadcast, computed
    at once), or the same with x tiled (lazy)."""
    if layout == "small-direct":
        grid = np.broadcast_arrays(x[:, None], y[None, :])
        a, b = (np.ascontiguousarray(v).ravel() for v in grid)
    elif layout == "small-expr":
        a, b = x[:, None], y[None, :]
    else:
        a, b = tiled(x, len(y))[:, None], y[None, :]
    return (a, b), (tp.array(a), tp.array(b))


inf, nan = math.inf, math.nan
FLOATS = [np.dtype(d) for d in (np.float16, np.float32, np.float64)]
COMPLEX = np.dtype(np.complex128)
INTS = [np.dtype(np.int32), np.dtype(np.int64)]


def float_values(dtype, binary=False):
    """Special values of a float dtype: zeros, ones, infinities, nan, the largest and the
    smallest normal number, a large value; for unary ops also what overflows and
    underflows exp and the smallest subnormal."""
    fi = np.finfo(dtype)
    big = {2: 1e4, 4: 1e30, 8: 1e300}[np.dtype(dtype).itemsize]
    values = [0.0, -0.0, 1.0, -1.0, 2.0, 0.5, inf, -inf, nan, fi.max, fi.tiny, big]
    if not binary:
        values += [-0.5, -fi.max, -big, 100.0, -100.0, 1000.0, -1000.0, fi.smallest_subnormal]
    return np.array(values, dtype=dtype)


def complex_values(binary=False):
    if binary:
        values = [0, 1, -1, 1j, 2 + 2j, inf, complex(0, inf), nan, complex(1e300, 1e300),
                  complex(1e-300, 0)]
    else:
        values = [0, complex(-0.0, 0), 1, -1, 1j, -1j, 2 + 2j, 0.5j, inf, -inf, complex(0, inf),
                  complex(inf, inf), complex(-inf, inf), nan, complex(0, nan), complex(inf, nan),
                  complex(1e300, 1e300), complex(-1e300, 0), complex(1000, 0), complex(-1000, 0),
                  complex(0, 1000), complex(1e-300, 1e-300)]
    return np.array(values, dtype=COMPLEX)


def int_values(dtype):
    info = np.iinfo(dtype)
    return np.array([0, 1, -1, 2, -2, 7, info.max, info.min], dtype=dtype)


def special_values(dtype, binary=False):
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        return complex_values(binary)
    if dtype.kind in "iu":
        return int_values(dtype)
    return float_values(dtype, binary)


def takes_complex(name):
    return any(t.startswith("D") for t in getattr(np, name).types)


def cases(names, ints=()):
    """(name, dtype) for each op: the float dtypes, complex128 where NumPy's op takes it, and
    the integer dtypes for the names in `ints`."""
    out = []
    for name in names:
        dtypes = FLOATS + ([COMPLEX] if takes_complex(name) else [])
        if name in ints:
            dtypes = dtypes + INTS
        for d in dtypes:
            out.append(pytest.param(name, d, id=f"{name}-{d.name}"))
    return out


UNARY = ["reciprocal", "sqrt", "cbrt", "log", "log2", "log10", "log1p", "exp", "exp2", "expm1",
         "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh",
         "sinh", "cosh", "tanh", "square", "negative", "absolute", "sign", "floor", "ceil",
         "trunc", "rint", "isnan", "isinf", "isfinite", "signbit", "spacing", "deg2rad"]
BINARY = ["divide", "true_divide", "floor_divide", "remainder", "fmod", "divmod", "power",
          "float_power", "multiply", "add", "subtract", "arctan2", "hypot", "logaddexp",
          "logaddexp2", "less", "greater", "equal", "not_equal", "maximum", "minimum", "fmax",
          "fmin", "nextafter", "copysign", "heaviside"]
# The integer loops: division by zero, INT_MIN // -1, wrapping products (no warning).
INT_UNARY = ["square", "negative", "absolute", "sign"]
INT_BINARY = ["divide", "true_divide", "floor_divide", "remainder", "fmod", "divmod", "multiply",
              "add", "subtract", "power"]


# --------------------------------------------------------------------------------------------
# seterr, geterr, errstate, seterrcall, geterrcall


def test_geterr_defaults(device):
    assert tp.geterr() == np.geterr() == DEFAULT_MODES


def test_geterr_defaults_in_new_thread(device):
    """Modes are per thread: a new thread starts from the defaults, whatever the caller's."""
    seen = {}

    def read():
        seen["tp"], seen["np"] = tp.geterr(), np.geterr()

    with tp.errstate(all="raise"), np.errstate(all="raise"):
        thread = threading.Thread(target=read)
        thread.start()
        thread.join()
        assert tp.geterr() == np.geterr()
    assert seen["tp"] == seen["np"]


def test_modes_per_thread(device):
    seen = {}

    def change(lib, key):
        old = lib.seterr(all="raise", under="print")
        seen[key] = (old, lib.geterr())

    for lib, key in ((tp, "tp"), (np, "np")):
        thread = threading.Thread(target=change, args=(lib, key))
        thread.start()
        thread.join()
    assert seen["tp"] == seen["np"]
    assert tp.geterr() == np.geterr() == DEFAULT_MODES


SETERR_CALLS = [
    pytest.param({"divide": "ignore"}, id="divide"),
    pytest.param({"over": "raise", "under": "warn"}, id="over-under"),
    pytest.param({"invalid": "call"}, id="invalid-call"),
    pytest.param({"all": "ignore"}, id="all"),
    pytest.param({"all": "raise", "divide": "ignore"}, id="all-divide"),
    pytest.param({"all": "print", "over": "log", "under": "warn", "invalid": "ignore"},
                 id="all-overridden"),
    pytest.param({"divide": None, "over": "raise"}, id="none-kept"),
    pytest.param({}, id="nothing"),
]


@pytest.mark.parametrize("kwargs", SETERR_CALLS)
def test_seterr(device, kwargs):
    """seterr returns the old modes (twice: setting, then putting them back) and sets."""
    try:
        np_old, tp_old = np.seterr(**kwargs), tp.seterr(**kwargs)
        assert tp_old == np_old
        assert tp.geterr() == np.geterr()
        assert tp.seterr(**np_old) == np.seterr(**np_old)
        assert tp.geterr() == np.geterr() == np_old
    finally:
        np.seterr(**DEFAULT_MODES)
        tp.seterr(**DEFAULT_MODES)


def test_seterr_positional_all(device):
    try:
        assert tp.seterr("ignore") == np.seterr("ignore")
        assert tp.geterr() == np.geterr()
    finally:
        np.seterr(**DEFAULT_MODES)
        tp.seterr(**DEFAULT_MODES)


@pytest.mark.parametrize("kwargs", [
    pytest.param({"divide": "foo"}, id="divide-foo"),
    pytest.param({"all": "foo"}, id="all-foo"),
    pytest.param({"all": "foo", "divide": "warn"}, id="all-foo-divide-warn"),
    pytest.param({"divide": "ignore", "over": "foo"}, id="after-a-valid-one"),
    pytest.param({"invalid": "WARN"}, id="uppercase"),
    pytest.param({"under": 3}, id="int"),
])
def test_seterr_invalid_mode(device, kwargs):
    """ValueError with NumPy's message; nothing is set."""
    with pytest.raises(ValueError) as np_error:
        np.seterr(**kwargs)
    with pytest.raises(ValueError) as tp_error:
        tp.seterr(**kwargs)
    assert str(tp_error.value) == str(np_error.value)
    assert tp.geterr() == np.geterr() == DEFAULT_MODES


@pytest.mark.parametrize("lib", [pytest.param(np, id="numpy"), pytest.param(tp, id="tessera")])
def test_unknown_keyword(device, lib):
    """The check is of tessera; NumPy's behaviour is checked alongside, as the reference."""
    with pytest.raises(TypeError):
        lib.seterr(foo="warn")
    with pytest.raises(TypeError):
        lib.errstate(foo="warn")
    with pytest.raises(TypeError):
        lib.errstate("ignore")
    assert lib.geterr() == DEFAULT_MODES


@pytest.mark.parametrize("kwargs", [
    pytest.param({"all": "ignore"}, id="all"),
    pytest.param({"divide": "raise", "invalid": "ignore"}, id="divide-invalid"),
    pytest.param({"all": "warn", "under": "raise"}, id="all-under"),
    pytest.param({"call": print, "over": "call"}, id="call"),
])
def test_errstate_sets_and_restores(device, kwargs):
    with np.errstate(**kwargs):
        expected = (np.geterr(), np.geterrcall())
    with tp.errstate(**kwargs):
        got = (tp.geterr(), tp.geterrcall())
    assert got == expected
    assert (tp.geterr(), tp.geterrcall()) == (np.geterr(), np.geterrcall()) == (DEFAULT_MODES, None)


def test_errstate_restores_when_body_raises(device):
    with pytest.raises(ZeroDivisionError):
        with tp.errstate(all="raise", call=print):
            assert tp.geterr()["divide"] == "raise"
            1 / 0  # noqa: B018
    assert tp.geterr() == DEFAULT_MODES
    assert tp.geterrcall() is None


def test_errstate_restores_when_op_raises(device):
    if reports_fp_errors():
        op, modes = (lambda: tp.log(tp.zeros(3))), {"divide": "raise"}
    else:   # generated kernels raise nothing: a scalar converted on the host raises
        op, modes = (lambda: tp.ones(3, dtype=np.float32) * 1e300), {"over": "raise"}
    with pytest.raises(FloatingPointError):
        with tp.errstate(**modes):
            op()
    assert tp.geterr() == DEFAULT_MODES


def test_errstate_nests(device):
    def program(lib):
        seen = []
        with lib.errstate(all="ignore"):
            seen.append(lib.geterr())
            with lib.errstate(divide="raise", call=print):
                seen.append((lib.geterr(), lib.geterrcall()))
                with lib.errstate(over="call", call=None):
                    seen.append((lib.geterr(), lib.geterrcall()))
                seen.append((lib.geterr(), lib.geterrcall()))
            seen.append((lib.geterr(), lib.geterrcall()))
        seen.append((lib.geterr(), lib.geterrcall()))
        return seen

    assert program(tp) == program(np)


def test_errstate_decorator(device):
    def make(lib):
        @lib.errstate(divide="ignore", invalid="raise")
        def modes(depth):
            lib.seterr(over="ignore")   # undone on return, as any change inside the block
            return lib.geterr() if depth == 0 else modes(depth - 1)
        return modes

    for depth in (0, 2):
        assert make(tp)(depth) == make(np)(depth)
        assert tp.geterr() == np.geterr() == DEFAULT_MODES


def test_errstate_decorator_silences(device):
    @tp.errstate(divide="ignore")
    def log0():
        return tp.asnumpy(tp.log(tp.zeros(LARGE)))

    result, caught = recorded(log0)
    assert kinds(caught) == set()
    assert np.all(result == -np.inf)


def test_errstate_entered_twice(device):
    """NumPy refuses to enter one errstate object twice (nested or again later)."""
    def program(lib):
        state = lib.errstate(divide="ignore")
        outcome = []
        for nested in (True, False):
            try:
                with state:
                    if nested:
                        with state:
                            pass
                outcome.append("entered")
            except TypeError:
                outcome.append("TypeError")
            outcome.append(lib.geterr())
        return outcome

    assert program(tp) == program(np)


@pytest.mark.parametrize("kwargs", [
    pytest.param({"divide": "foo"}, id="divide-foo"),
    pytest.param({"all": "ignore", "under": "sometimes"}, id="under"),
    pytest.param({"call": 3}, id="call-not-callable"),
    pytest.param({"divide": "ignore", "call": 3}, id="modes-and-bad-call"),
])
def test_errstate_validates_at_enter(device, kwargs):
    """Made without complaint; entering raises NumPy's error and changes nothing."""
    np_state, tp_state = np.errstate(**kwargs), tp.errstate(**kwargs)
    with pytest.raises((ValueError, TypeError)) as np_error:
        with np_state:
            pass
    with pytest.raises((ValueError, TypeError)) as tp_error:
        with tp_state:
            pass
    assert type(tp_error.value) is type(np_error.value)
    if isinstance(np_error.value, ValueError):
        assert str(tp_error.value) == str(np_error.value)
    assert (tp.geterr(), tp.geterrcall()) == (np.geterr(), np.geterrcall()) == (DEFAULT_MODES, None)


class Log:
    """An object with a write method, for the 'log' mode."""

    def __init__(self):
        self.lines = []

    def write(self, text):
        self.lines.append(text)


class NotCallableWrite:
    write = 3


@pytest.mark.parametrize("func", [
    pytest.param(print, id="builtin"),
    pytest.param(lambda *args: None, id="lambda"),
    pytest.param(Log(), id="write-object"),
    pytest.param(None, id="none"),
])
def test_seterrcall(device, func):
    """seterrcall returns the old function, geterrcall the current one."""
    try:
        assert tp.seterrcall(func) is np.seterrcall(func) is None
        assert tp.geterrcall() is np.geterrcall() is func
        assert tp.seterrcall(len) is np.seterrcall(len) is func
        assert tp.geterrcall() is np.geterrcall() is len
    finally:
        tp.seterrcall(None)
        np.seterrcall(None)


@pytest.mark.parametrize("func", [
    pytest.param(3, id="int"), pytest.param("warn", id="str"),
    pytest.param(NotCallableWrite(), id="write-not-callable"), pytest.param(object(), id="object"),
])
def test_seterrcall_rejects(device, func):
    try:
        np.seterrcall(print)
        tp.seterrcall(print)
        with pytest.raises(TypeError) as np_error:
            np.seterrcall(func)
        with pytest.raises(TypeError) as tp_error:
            tp.seterrcall(func)
        assert str(tp_error.value) == str(np_error.value)
        assert tp.geterrcall() is np.geterrcall() is print
    finally:
        tp.seterrcall(None)
        np.seterrcall(None)


# --------------------------------------------------------------------------------------------
# the warning matrix: every op, special values, small (computed at once) and large (lazy)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name, dtype", cases(UNARY) + [
    pytest.param(name, d, id=f"{name}-{d.name}") for name in INT_UNARY for d in INTS])
def test_unary_warnings(device, name, dtype, layout):
    x, tx = unary_inputs(special_values(dtype), layout)
    compare_op(getattr(np, name), getattr(tp, name), (x,), (tx,))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name, dtype", cases(BINARY) + [
    pytest.param(name, d, id=f"{name}-{d.name}") for name in INT_BINARY for d in INTS])
def test_binary_warnings(device, name, dtype, layout):
    x = special_values(dtype, binary=True)
    y = x
    if name == "power" and dtype.kind in "iu":
        y = np.array([0, 1, 2, 7, 31, 63], dtype=dtype)   # negative integer powers raise
    args, targs = binary_inputs(x, y, layout)
    compare_op(getattr(np, name), getattr(tp, name), args, targs)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: d.name)
def test_ldexp_warnings(device, dtype, layout):
    x = float_values(dtype, binary=True)
    n = np.array([0, 1, -1, 2, 15, -15, 100, -100, 2000, -2000], dtype=np.int32)
    args, targs = binary_inputs(x, n, layout)
    compare_op(np.ldexp, tp.ldexp, args, targs)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", ["spacing", "nextafter"])
@pytest.mark.parametrize("dtype", FLOATS, ids=lambda d: d.name)
def test_subnormal_steps(device, name, dtype, layout):
    """The steps next to zero and to the largest number (underflow and overflow)."""
    fi = np.finfo(dtype)
    x = np.array([0.0, -0.0, fi.smallest_subnormal, -fi.smallest_subnormal, fi.tiny, fi.max,
                  -fi.max], dtype=dtype)
    if name == "spacing":
        a, ta = unary_inputs(x, layout)
        compare_op(np.spacing, tp.spacing, (a,), (ta,))
    else:
        y = np.array([0.0, 1.0, -1.0, inf, -inf], dtype=dtype)
        args, targs = binary_inputs(x, y, layout)
        compare_op(np.nextafter, tp.nextafter, args, targs)


CASTS = [(np.float64, np.float32), (np.float64, np.float16), (np.float32, np.float16),
         (np.float64, np.int32), (np.float64, np.int64), (np.float32, np.int32),
         (np.float16, np.int16), (np.float64, np.uint8)]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("source, target", CASTS,
                         ids=[f"{np.dtype(a).name}-{np.dtype(b).name}" for a, b in CASTS])
def test_cast_warnings(device, source, target, layout):
    """astype of special values: overflow and invalid value 'in cast'."""
    x, tx = unary_inputs(float_values(source), layout)
    compare_op(lambda a: a.astype(target), lambda a: a.astype(target), (x,), (tx,))


@pytest.mark.parametrize("layout", ["small-direct", "large"])
def test_out_cast_warnings(device, layout):
    """An output cast inside a ufunc (out= of a smaller dtype, casting='unsafe'): part of the
    ufunc's kernel, it reports nothing under the CuPy rule."""
    x = np.array([1e300, -1e300, 1.0, inf, nan, 1e-300], dtype=np.float64)
    if layout == "large":
        x = tiled(x)

    def np_call():
        out = np.zeros(x.shape, np.float32)
        np.add(x, 1.0, out=out, casting="unsafe")
        return out

    def tp_call():
        out = tp.zeros(x.shape, np.float32)
        tp.add(tp.array(x), 1.0, out=out, casting="unsafe")
        return out

    compare_op(np_call, tp_call, (), ())


# --------------------------------------------------------------------------------------------
# default modes


DEFAULT_CASES = {
    "exp(-1000)": (lambda m, x: m.exp(x), [-1000.0, 0.0]),
    "tiny*tiny": (lambda m, x: m.multiply(x, x), [1e-200, 1.0]),
    "subnormal/2": (lambda m, x: x / 2, [5e-324, 1.0]),
    "exp(1000)": (lambda m, x: m.exp(x), [1000.0, 0.0]),
    "log(0)": (lambda m, x: m.log(x), [0.0, -1.0, 1.0]),
    "float32 exp(-200)": (lambda m, x: m.exp(x.astype(np.float32)), [-200.0, 0.0]),
}


@pytest.mark.parametrize("size", ["small", "large"])
@pytest.mark.parametrize("case", list(DEFAULT_CASES))
def test_default_modes(device, case, size):
    """Without errstate: underflow is silent, the other errors warn."""
    assert tp.geterr() == np.geterr() == DEFAULT_MODES
    program, values = DEFAULT_CASES[case]
    x = np.array(values)
    if size == "large":
        x = tiled(x)
    expected, np_caught = recorded(lambda: program(np, x))
    got, tp_caught = recorded(lambda: to_numpy(program(tp, tp.array(x))))
    assert_same_warnings(tp_caught, expected_warnings(np_caught))
    assert_values(got, expected)


@pytest.mark.parametrize("size", ["small", "large"])
def test_underflow_warns_when_asked(device, size):
    x = np.array([-1000.0, 0.0])
    if size == "large":
        x = tiled(x)
    compare_op(np.exp, tp.exp, (x,), (tp.array(x),), modes={"under": "warn"})


# Around the smallest inputs whose result underflows in NumPy: float32 sin/cos below
# 2.6557422e-19, float64 sin for subnormals, float16 results below the smallest normal half.
TINY_INPUTS = {
    "float32": [2.6557422e-19, 2.655742e-19, 1e-20, -1e-30, 1e-38, 1e-45, 1e-10, 0.0],
    "float64": [5e-324, -1e-310, 2.2250738585072014e-308, 1e-300, 0.0],
    "float16": [6.104e-05, -6.104e-05, 6e-08, 1e-3, 0.0],
}


@pytest.mark.parametrize("name", ["sin", "cos", "log1p", "tan", "expm1"])
@pytest.mark.parametrize("dtype", list(TINY_INPUTS))
@pytest.mark.parametrize("n", [1, 64], ids=["scalar-loop", "vector-loop"])
def test_underflow_of_tiny_inputs(device, name, dtype, n):
    """Each value alone, repeated n times: the vector loop's lanes and the scalar tail raise
    underflow exactly where NumPy does."""
    for value in TINY_INPUTS[dtype]:
        x = np.full(n, value, dtype=dtype)
        compare_op(getattr(np, name), getattr(tp, name), (x,), (tp.array(x),))


# --------------------------------------------------------------------------------------------
# warnings name the user's line, as NumPy's do


def _log_of_zeros_here(lib, x):
    return lib.log(x)  # the line each warning must name


def _divide_here(x):
    return x / 0  # the line each warning must name


LOG_LINE = _log_of_zeros_here.__code__.co_firstlineno + 1
DIVIDE_LINE = _divide_here.__code__.co_firstlineno + 1


@pytest.mark.parametrize("n", [3, 10000], ids=["at-once", "pending"])
@pytest.mark.parametrize("call", ["tessera-ufunc", "numpy-ufunc", "operator"])
def test_warning_names_the_calling_line(device, call, n):
    """The warning of an op computed at once, or of a pending one computed when read in
    another function, names the line that called the op (not tessera's code)."""
    x = tp.zeros(n)
    if call == "operator":
        make, line = (lambda: _divide_here(x)), DIVIDE_LINE
    else:
        lib = tp if call == "tessera-ufunc" else np
        make, line = (lambda: _log_of_zeros_here(lib, x)), LOG_LINE
    result, at_call = recorded(make)
    _, at_read = recorded(lambda: tp.asnumpy(result))
    caught = at_call + at_read
    if not reports_fp_errors():
        assert kinds(caught) == set(), "a generated kernel warned (CuPy's rule: it reports none)"
        return
    assert caught, "no warning"
    assert {(w.filename, w.lineno) for w in caught} == {(__file__, line)}


def test_numpy_names_the_calling_line():
    """The reference: NumPy's own warning names the line of the call."""
    caught = recorded(lambda: _log_of_zeros_here(np, np.zeros(3)))[1]
    assert {(w.filename, w.lineno) for w in caught} == {(__file__, LOG_LINE)}


# --------------------------------------------------------------------------------------------
# lazy results keep the modes of their call


def log_of_zeros(n):
    """NumPy's warnings for log of n zeros (computed outside any errstate), those tessera must
    give on the current device (none under the CuPy rule)."""
    _, caught = recorded(lambda: np.log(np.zeros(n)), np.errstate(divide="warn"))
    return kinds(expected_warnings(caught))


@pytest.mark.parametrize("n", [3, 10000], ids=["small", "large"])
def test_ignored_at_call_silent_when_read(device, n):
    with tp.errstate(divide="ignore"):
        r = tp.log(tp.zeros(n))
    result, caught = recorded(lambda: tp.asnumpy(r))   # default modes: divide='warn'
    assert kinds(caught) == set()
    assert np.all(result == -np.inf)


@pytest.mark.parametrize("n", [3, 10000], ids=["small", "large"])
def test_warned_at_call_warns_when_read_under_ignore(device, n):
    """Called under 'warn', read under 'ignore': NumPy's warning, at the call (small) or when
    read (large), and only once."""
    r, at_call = recorded(lambda: tp.log(tp.zeros(n)))
    _, at_read = recorded(lambda: tp.asnumpy(r), tp.errstate(all="ignore"))
    got = sorted((w.category.__name__, str(w.message)) for w in at_call + at_read)
    assert got == sorted(log_of_zeros(n))


def test_pending_operand_keeps_its_mode(device):
    """An op on a pending result: each op reports with the modes of its own call."""
    with tp.errstate(divide="ignore"):
        quiet = tp.log(tp.zeros(10000))
    loud = tp.log(tp.zeros(10000))                    # divide='warn'
    with tp.errstate(all="ignore"):
        s = quiet + loud * 2
    with tp.errstate(all="raise"):
        _, caught = recorded(lambda: tp.asnumpy(s))
    assert kinds(caught) == log_of_zeros(10000)


def test_pending_result_read_in_another_thread(device):
    """The modes travel with the op, not with the thread that reads its result."""
    with tp.errstate(divide="ignore"):
        quiet = tp.log(tp.zeros(10000))
    zeros = tp.zeros(10000)   # made here: a new thread's arrays land on the default device
    loud = {}

    def make():
        loud["r"] = tp.log(zeros)   # this thread's defaults: divide='warn'

    thread = threading.Thread(target=make)
    thread.start()
    thread.join()
    _, caught = recorded(lambda: tp.asnumpy(quiet))
    assert kinds(caught) == set()
    _, caught = recorded(lambda: tp.asnumpy(loud["r"]), tp.errstate(all="ignore"))
    assert kinds(caught) == log_of_zeros(10000)


RAISE_CASES = {
    "log-divide": (lambda m, x: m.log(x), [0.0, 1.0], {"divide": "raise"}),
    "log-divide-and-invalid": (lambda m, x: m.log(x), [0.0, -1.0], {"all": "raise"}),
    "sqrt-invalid": (lambda m, x: m.sqrt(x), [-1.0, 4.0], {"invalid": "raise"}),
    "exp-over": (lambda m, x: m.exp(x), [1000.0, 1.0], {"over": "raise"}),
    "exp-under": (lambda m, x: m.exp(x), [-1000.0, 1.0], {"under": "raise"}),
    "multiply-over-and-invalid": (lambda m, x: m.multiply(x, x[::-1]), [1e308, 0.0, inf, 2.0],
                                  {"all": "raise"}),
    "divide-scalar": (lambda m, x: x / 0.0, [1.0, 0.0], {"all": "raise"}),
    "floor_divide-int": (lambda m, x: m.floor_divide(x.astype(np.int64), 0), [1.0, 2.0],
                         {"divide": "raise"}),
}


@pytest.mark.parametrize("size", ["small", "large"])
@pytest.mark.parametrize("case", list(RAISE_CASES))
def test_raise_at_the_call(device, case, size):
    """'raise' computes at once: the op itself raises NumPy's FloatingPointError, even for a
    result that would otherwise be pending (never read here)."""
    program, values, modes = RAISE_CASES[case]
    x = np.array(values)
    if size == "large":
        x = tiled(x)
    tx = tp.array(x)
    with np.errstate(**modes), pytest.raises(FloatingPointError) as np_error:
        program(np, x)
    if not reports_fp_errors():   # CuPy's rule: nothing raises, the values are NumPy's
        with np.errstate(all="ignore"):
            expected = program(np, x)
        got, caught = recorded(lambda: to_numpy(program(tp, tx)), tp.errstate(**modes))
        assert kinds(caught) == set()
        assert_values(got, expected)
        return
    with tp.errstate(**modes), pytest.raises(FloatingPointError) as tp_error:
        program(tp, tx)
    assert str(tp_error.value) == str(np_error.value)


@pytest.mark.parametrize("case", ["ignored", "warned"])
def test_raise_does_not_apply_to_pending_operand(device, case):
    """An operand computed under 'ignore' or 'warn' and read by an op under 'raise': its own
    errors do not raise; the new op's do."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with tp.errstate(divide="ignore" if case == "ignored" else "warn"):
            r = tp.log(tp.zeros(10000))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with tp.errstate(all="raise"):
            tp.asnumpy(r + 1.0)                       # -inf + 1: no error of its own
            if reports_fp_errors():
                with pytest.raises(FloatingPointError) as error:
                    r * 0.0                            # -inf * 0: invalid
            else:                                      # CuPy's rule: nan, nothing raised
                assert np.isnan(tp.asnumpy(r * 0.0)).all()
    expected = set() if case == "ignored" else log_of_zeros(10000)
    assert kinds(caught) == expected
    with np.errstate(all="raise"), pytest.raises(FloatingPointError) as np_error:
        np.full(3, -np.inf) * 0.0
    if reports_fp_errors():
        assert str(error.value) == str(np_error.value)


def test_raise_leaves_no_stale_events(device):
    if reports_fp_errors():
        with tp.errstate(all="raise"), pytest.raises(FloatingPointError):
            tp.log(tp.array([0.0, -1.0, 1e308]) * 10)
    else:   # CuPy's rule: nothing raises, and nothing is left to report later either
        with tp.errstate(all="raise"):
            got = tp.asnumpy(tp.log(tp.array([0.0, -1.0, 1e308]) * 10))
        with np.errstate(all="ignore"):
            assert_values(got, np.log(np.array([0.0, -1.0, 1e308]) * 10))
    _, caught = recorded(lambda: tp.asnumpy(tp.add(tp.ones(LARGE), 1.0)), tp.errstate(all="warn"))
    assert kinds(caught) == set()


# --------------------------------------------------------------------------------------------
# 'call', 'print' and 'log'


CALLBACK_CASES = {
    "log(0)": (lambda m, x: m.log(x), [0.0, 1.0]),
    "log(0,-1)": (lambda m, x: m.log(x), [0.0, -1.0]),
    "sqrt(-1)": (lambda m, x: m.sqrt(x), [-1.0, 1.0]),
    "exp(over,under)": (lambda m, x: m.exp(x), [1000.0, -1000.0]),
    "multiply(over,invalid)": (lambda m, x: m.multiply(x, x[::-1]), [1e308, 0.0, inf, 2.0]),
    "x/0": (lambda m, x: x / 0.0, [1.0, 0.0, -1.0]),
}


@pytest.mark.parametrize("size", ["small", "large"])
@pytest.mark.parametrize("case", list(CALLBACK_CASES))
def test_call_mode(device, case, size):
    """The callback gets NumPy's (words, flag) calls, and at the op's call."""
    program, values = CALLBACK_CASES[case]
    x = np.array(values)
    if size == "large":
        x = tiled(x)
    np_calls, tp_calls = [], []
    with np.errstate(all="call", call=lambda *args: np_calls.append(args)):
        program(np, x)
    tx = tp.array(x)
    with tp.errstate(all="call", call=lambda *args: tp_calls.append(args)):
        r = program(tp, tx)
        at_call = list(tp_calls)
        tp.asnumpy(r)
    assert tp_calls == reported(np_calls, [])
    assert at_call == tp_calls, "the callback ran when the result was read, not at the call"


def test_call_mode_some_kinds(device):
    """'call' for some kinds, 'warn' or 'ignore' for the others."""
    x = np.array([0.0, -1.0, 1000.0, -1000.0])
    modes = {"divide": "call", "invalid": "warn", "over": "ignore", "under": "call"}
    np_calls, tp_calls = [], []

    def program(m, a):
        return m.exp(a) + m.log(a)

    _, np_caught = recorded(lambda: program(np, x),
                            np.errstate(**modes, call=lambda *args: np_calls.append(args)))
    _, tp_caught = recorded(lambda: to_numpy(program(tp, tp.array(x))),
                            tp.errstate(**modes, call=lambda *args: tp_calls.append(args)))
    assert tp_calls == reported(np_calls, [])
    assert_same_warnings(tp_caught, expected_warnings(np_caught))


@pytest.mark.parametrize("mode", ["call", "log"])
def test_call_mode_without_function(device, mode):
    """NameError with NumPy's message when no function (or write method) is set (under the
    CuPy rule no error is reported, so none is raised)."""
    x = np.zeros(3)
    with np.errstate(divide=mode, call=None), pytest.raises(Exception) as np_error:
        np.log(x)
    if not reports_fp_errors():
        with tp.errstate(divide=mode, call=None):
            assert np.all(tp.asnumpy(tp.log(tp.array(x))) == -np.inf)
        return
    with tp.errstate(divide=mode, call=None), pytest.raises(Exception) as tp_error:
        tp.log(tp.array(x))
    assert type(tp_error.value) is type(np_error.value)
    assert str(tp_error.value) == str(np_error.value)


def test_call_mode_with_write_object(device):
    """'call' with an object that only has write: NumPy calls it (TypeError); under the CuPy
    rule nothing is called."""
    x = np.zeros(3)
    with np.errstate(divide="call", call=Log()), pytest.raises(Exception) as np_error:
        np.log(x)
    if not reports_fp_errors():
        with tp.errstate(divide="call", call=Log()):
            assert np.all(tp.asnumpy(tp.log(tp.array(x))) == -np.inf)
        return
    with tp.errstate(divide="call", call=Log()), pytest.raises(Exception) as tp_error:
        tp.log(tp.array(x))
    assert type(tp_error.value) is type(np_error.value)


@pytest.mark.parametrize("size", ["small", "large"])
@pytest.mark.parametrize("case", list(CALLBACK_CASES))
def test_log_mode(device, case, size):
    program, values = CALLBACK_CASES[case]
    x = np.array(values)
    if size == "large":
        x = tiled(x)
    np_log, tp_log = Log(), Log()
    with np.errstate(all="log", call=np_log):
        program(np, x)
    with tp.errstate(all="log", call=tp_log):
        r = program(tp, tp.array(x))
        at_call = list(tp_log.lines)
        tp.asnumpy(r)
    assert tp_log.lines == reported(np_log.lines, [])
    assert at_call == tp_log.lines, "the log was written when the result was read"


def printed(capfd, lib, program, x):
    capfd.readouterr()
    with lib.errstate(all="print"):
        result = program(lib, x if lib is np else tp.array(x))
        if lib is tp:
            tp.asnumpy(result)
    return capfd.readouterr()


@pytest.mark.parametrize("size", ["small", "large"])
@pytest.mark.parametrize("case", list(CALLBACK_CASES))
def test_print_mode_text(device, capfd, case, size):
    """The text 'print' writes (NumPy writes it from C, so it is captured by file
    descriptor)."""
    program, values = CALLBACK_CASES[case]
    x = np.array(values)
    if size == "large":
        x = tiled(x)
    expected = printed(capfd, np, program, x)
    got = printed(capfd, tp, program, x)
    assert got.out + got.err == reported(expected.out + expected.err, "")


def test_print_mode_stream(device, capfd):
    """'print' writes to NumPy's stream."""
    x = np.array([0.0, -1.0])
    expected = printed(capfd, np, CALLBACK_CASES["log(0,-1)"][0], x)
    got = printed(capfd, tp, CALLBACK_CASES["log(0,-1)"][0], x)
    assert (got.out, got.err) == reported((expected.out, expected.err), ("", ""))


# --------------------------------------------------------------------------------------------
# warnings as errors; each error reported once per op


@pytest.mark.parametrize("n", [3, 10000], ids=["small", "large"])
def test_warnings_as_errors(device, n):
    """Under the 'error' filter the RuntimeWarning is raised (at the call, or for a pending
    result when it is read); the engine is left clean."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeWarning) as np_error:
            np.log(np.zeros(n))
        if reports_fp_errors():
            with pytest.raises(RuntimeWarning) as tp_error:
                tp.asnumpy(tp.log(tp.zeros(n)))
            assert str(tp_error.value) == str(np_error.value)
        else:   # CuPy's rule: no warning, so nothing to raise
            assert np.all(tp.asnumpy(tp.log(tp.zeros(n))) == -np.inf)
    _, caught = recorded(lambda: tp.asnumpy(tp.sqrt(tp.ones(n))), tp.errstate(all="warn"))
    assert kinds(caught) == set()


def test_warnings_as_errors_small_at_call(device):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        if reports_fp_errors():
            with pytest.raises(RuntimeWarning, match="divide by zero encountered in log"):
                tp.log(tp.zeros(3))
        else:   # CuPy's rule: no warning, so nothing to raise
            assert np.all(tp.asnumpy(tp.log(tp.zeros(3))) == -np.inf)


ONCE_CASES = {
    "log": lambda m, x: m.log(x),
    "divide": lambda m, x: x / x[::-1],
    "exp(log)": lambda m, x: m.exp(m.log(x)),
    "log+log": lambda m, x: m.log(x) + m.log(x[::-1]),
}


@pytest.mark.parametrize("n", [4, 10000, 100000], ids=["small", "large", "larger"])
@pytest.mark.parametrize("case", list(ONCE_CASES))
def test_each_error_reported_once_per_op(device, case, n):
    """As many warnings as NumPy (one per op and kind), however the work is split."""
    program = ONCE_CASES[case]
    x = np.resize(np.array([0.0, -1.0, 2.0, 0.0]), n)
    _, np_caught = recorded(lambda: program(np, x), np.errstate(all="warn"))
    _, tp_caught = recorded(lambda: to_numpy(program(tp, tp.array(x))), tp.errstate(all="warn"))
    got = sorted((w.category.__name__, str(w.message)) for w in tp_caught)
    expected = sorted((w.category.__name__, str(w.message)) for w in expected_warnings(np_caught))
    assert got == expected


# --------------------------------------------------------------------------------------------
# fused chains: each op reports its own errors, under its own name


CHAIN_X = [0.0, -1.0, 1.0, 3.0, 1000.0, -1000.0, 2.0, inf, nan, 0.5]
CHAIN_Y = [1.0, 1.0, 0.0, 0.0, 0.5, 2.0, -1.0, inf, 0.0, -inf]
CHAINS = {
    "log(x)/y": lambda m, x, y: m.log(x) / y,
    "exp(x)-exp(x)": lambda m, x, y: m.exp(x) - m.exp(x),
    "sin(log(x))": lambda m, x, y: m.sin(m.log(x)),
    "sqrt(x)+arccosh(y)": lambda m, x, y: m.sqrt(x) + m.arccosh(y),
    "log(x)*0": lambda m, x, y: m.log(x) * 0.0,
    "exp(x*1000)+y": lambda m, x, y: m.exp(x * 1000.0) + y,
    "(x/y)//y": lambda m, x, y: (x / y) // y,
    "x**y-x": lambda m, x, y: x ** y - x,
    "log(x)+log(y)": lambda m, x, y: m.log(x) + m.log(y),
    "abs(log(x))<y": lambda m, x, y: m.abs(m.log(x)) < y,
    "where(x>0,log(x),0)": lambda m, x, y: m.where(x > 0, m.log(x), 0.0),
    "arctanh(y)*tan(x)": lambda m, x, y: m.arctanh(y) * m.tan(x),
    "(x*1e300).astype(f4)": lambda m, x, y: (x * 1e300).astype(np.float32),
    "log(x).astype(i4)": lambda m, x, y: m.log(x).astype(np.int32),
    "exp(x.astype(f2))": lambda m, x, y: m.exp(x.astype(np.float16)),
    "x%y+fmod(x,y)": lambda m, x, y: x % y + m.fmod(x, y),
    "divmod(log(x),y)": lambda m, x, y: divmod(m.log(x), y),
    "reciprocal(x)+1/y": lambda m, x, y: m.reciprocal(x) + 1.0 / y,
}


@pytest.mark.parametrize("size", ["small", "large"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("chain", list(CHAINS))
def test_chain_warnings(device, chain, dtype, size):
    """Elementwise chains ending in a cast, pending or computed at once."""
    program = CHAINS[chain]
    x, y = np.array(CHAIN_X, dtype=dtype), np.array(CHAIN_Y, dtype=dtype)
    if size == "large":
        x, y = tiled(x), tiled(y)
    compare_op(lambda a, b: program(np, a, b), lambda a, b: program(tp, a, b),
               (x, y), (tp.array(x), tp.array(y)))


# --------------------------------------------------------------------------------------------
# reductions


REDUCTIONS = {
    "log(zeros).sum()": lambda m, x: m.log(m.zeros(x.shape)).sum(),
    "sqrt(x).mean()": lambda m, x: m.sqrt(x).mean(),
    "max(log(x))": lambda m, x: m.max(m.log(x)),
    "sum(x/0, axis=1)": lambda m, x: m.sum(x.reshape(-1, 2) / 0.0, axis=1),
    "min(exp(1000x))": lambda m, x: m.min(m.exp(x * 1000.0)),
}


@pytest.mark.parametrize("size", ["small", "large"])
@pytest.mark.parametrize("case", list(REDUCTIONS))
def test_reduction_of_lazy_tree(device, case, size):
    """A reduction reads its operand: the elementwise ops' warnings, as NumPy's (a small
    operand computed at once, a large pending one with the reduction)."""
    x = np.array([0.0, -1.0, 1.0, 2.0])
    if size == "large":
        x = tiled(x)
    program = REDUCTIONS[case]
    compare_op(lambda a: program(np, a), lambda a: program(tp, a), (x,), (tp.array(x),))


# A reduction's or scan's own errors: its fold overflows, or adds inf and -inf ("... in
# reduce", "... in accumulate").
OWN_REDUCTIONS = {
    "sum overflow": ([1e308, 1e308], lambda m, a: m.sum(a)),
    "sum inf - inf": ([np.inf, -np.inf, 1.0], lambda m, a: m.sum(a)),
    "prod overflow": ([1e200, 1e200, 2.0], lambda m, a: m.prod(a)),
    "max with nan": ([1.0, np.nan, 2.0], lambda m, a: m.max(a)),
    "min with nan": ([1.0, np.nan, 2.0], lambda m, a: m.min(a)),
    "axis-0 sum overflow": ([[1e308, 1.0], [1e308, 2.0]], lambda m, a: m.sum(a, axis=0)),
    "mean overflow": ([1e308, 1e308, 1e308], lambda m, a: m.mean(a)),
    "cumsum overflow": ([1e308, 1e308, 1.0], lambda m, a: m.cumsum(a)),
    "cumprod overflow": ([1e200, 1e200, 2.0], lambda m, a: m.cumprod(a)),
    "axis-0 cumsum overflow": ([[1e308, 1.0], [1e308, 2.0]], lambda m, a: m.cumsum(a, axis=0)),
    "maximum.accumulate with nan": ([1.0, np.nan, 2.0], lambda m, a: m.maximum.accumulate(a)),
}


@pytest.mark.parametrize("size", ["small", "large"])
@pytest.mark.parametrize("case", list(OWN_REDUCTIONS))
def test_reduction_own_errors(device, case, size):
    """A reduction's or scan's own floating-point errors."""
    values, program = OWN_REDUCTIONS[case]
    x = np.array(values)
    if size == "large":
        x = np.tile(x, (4096,) + (1,) * (x.ndim - 1)) if x.ndim > 1 else tiled(x)
    compare_op(lambda a: program(np, a), lambda a: program(tp, a), (x,), (tp.array(x),))


def test_reduction_of_a_silenced_tree_stays_silent(device):
    """A tree made under 'ignore' raises flags that are not the reduction's own."""
    with tp.errstate(all="ignore"):
        logs = tp.log(tp.zeros(10000))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert float(logs.sum()) == -np.inf
    assert [str(w.message) for w in caught] == []
