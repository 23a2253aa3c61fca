"""Reductions (sum, prod, max, min, amax, amin, any, all, ptp, count_nonzero, mean, var, std,
argmax, argmin, their ndarray methods, and ufunc.reduce) checked against NumPy: values, dtypes,
shapes and the exception raised on bad input, over every dtype, several shapes and axes, the
memory layouts, the keywords, special values, and the large sizes that take the parallel paths.

Full reductions give 0-d tessera arrays where NumPy gives scalars: values and dtypes are
compared, not types. Floating sums are compared within a tolerance, since the summation order
differs from NumPy's."""

import math
import warnings

import numpy as np
import pytest

import tessera as tp

from conftest import ALL_DTYPES, assert_same, sample
from oracle import compact_id, make, message_of, public_type
from ufunc_oracle import assert_close, dtype_id, outcome_like_numpy, raised_by, tolerance

FUNCTIONS = ["sum", "prod", "max", "min", "amax", "amin", "any", "all", "ptp", "count_nonzero",
             "mean", "var", "std", "argmax", "argmin"]
METHODS = ["sum", "prod", "max", "min", "any", "all", "mean", "var", "std", "argmax", "argmin"]
# Results that involve no rounding: compared exactly whatever the dtype.
EXACT = {"max", "min", "amax", "amin", "any", "all", "ptp", "count_nonzero", "argmax", "argmin"}
SINGLE_AXIS = {"argmax", "argmin"}  # axis is an int or None

SHAPES = [(), (0,), (7,), (3, 4), (2, 3, 5), (4, 0, 3)]
AXES = [None, 0, -1, (0, 2)]
LAYOUTS = ["contiguous", "fortran", "strided", "negative", "broadcast"]
BINARY_UFUNCS = sorted(n for n in dir(np) if isinstance(getattr(np, n), np.ufunc)
                       and getattr(np, n).signature is None and getattr(np, n).nin == 2
                       and getattr(np, n).__name__ == n)


# --------------------------------------------------------------------------------------------
# helpers


def valid_axes(shape, name):
    """The axes of AXES that exist for `shape` (and that `name` accepts)."""
    nd = len(shape)
    for axis in AXES:
        axes = () if axis is None else axis if isinstance(axis, tuple) else (axis,)
        if isinstance(axis, tuple) and name in SINGLE_AXIS:
            continue
        if all(-nd <= a < nd for a in axes):
            yield axis


def scale_of(name, x):
    """The magnitude the rounding error of `name` over x is relative to: a sum that cancels
    loses relative accuracy, so its tolerance is relative to the summed terms."""
    x = np.asarray(x)
    if x.size == 0 or x.dtype.kind not in "fc":
        return 0.0
    with np.errstate(all="ignore"):
        m = float(np.max(np.abs(x.astype(np.complex128))))
    return {"sum": m * x.size, "mean": m, "var": 4 * m * m, "std": 2 * m}.get(name, 0.0)


def assert_near(got, expected, exact=False, scale=0.0):
    """assert_close, with an absolute tolerance of tolerance(dtype) * scale besides the relative
    one (for sums whose terms cancel)."""
    __tracebackhide__ = True
    n = np.asarray(expected)
    if exact or n.dtype.kind not in "fc" or not scale:
        assert_close(got, n, exact)
        return
    assert isinstance(got, tp.ndarray), f"expected tessera.ndarray, got {type(got).__name__}"
    assert (got.dtype, got.shape) == (n.dtype, n.shape), \
        f"dtype/shape {got.dtype}{got.shape} != {n.dtype}{n.shape}"
    tol = tolerance(n.dtype)
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(tp.asnumpy(got), n, rtol=tol, atol=tol * scale, equal_nan=True)


def assert_raises_same(error, tp_call):
    """tp_call raises the type of NumPy's `error`, with a message prefixed "[api]"."""
    __tracebackhide__ = True
    got = raised_by(tp_call, error)
    assert type(got) is public_type(error), (
        f"NumPy raises {type(error).__name__}({error}), tessera raises "
        f"{type(got).__name__}({got})")
    assert message_of(got).startswith("["), f"message lacks the API prefix: {message_of(got)!r}"


def same_outcome(np_call, tp_call, exact=False, scale=0.0):
    """tessera's result equals NumPy's, or both raise the same exception type."""
    __tracebackhide__ = True
    return outcome_like_numpy(np_call, tp_call, lambda g, e: assert_near(g, e, exact, scale),
                              assert_raises_same)


def both(x):
    """(tessera, NumPy) versions of a NumPy array."""
    return tp.array(x), x


def reduce_call(m, name, x, **kwargs):
    return getattr(m, name)(x, **kwargs)


def check_grid(name, t, n):
    """`name` over every valid axis and both keepdims of the (tessera, NumPy) pair."""
    __tracebackhide__ = True
    exact, scale = name in EXACT, scale_of(name, n)
    dtype, shape, strides = n.dtype, n.shape, n.strides  # named by a failure's case
    for axis in valid_axes(n.shape, name):
        for keepdims in (False, True):
            same_outcome(lambda: reduce_call(np, name, n, axis=axis, keepdims=keepdims),
                         lambda: reduce_call(tp, name, t, axis=axis, keepdims=keepdims),
                         exact, scale)


# --------------------------------------------------------------------------------------------
# every function, dtype, shape, axis and layout


def test_function_names():
    """The functions exist, and the methods are those NumPy's ndarray has (no ptp)."""
    for name in FUNCTIONS:
        assert callable(getattr(tp, name, None)), f"tessera.{name} is missing"
        assert hasattr(tp.ndarray, name) == hasattr(np.ndarray, name), name


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("name", FUNCTIONS)
def test_dtypes_shapes_axes(device, name, dtype):
    for shape in SHAPES:
        t, n = both(np.array(sample(shape, dtype)))
        check_grid(name, t, n)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", FUNCTIONS)
def test_layouts(device, name, layout):
    for dtype in (np.bool_, np.int16, np.uint32, np.float32, np.float64, np.complex128):
        for shape in ((7,), (3, 4), (2, 3, 5), (4, 0, 3)):
            _, _, n, t = make(shape, dtype, layout)
            check_grid(name, t, n)


@pytest.mark.parametrize("name", METHODS)
def test_methods(device, name):
    for dtype in (np.bool_, np.int8, np.uint64, np.float16, np.complex64):
        n = sample((3, 4, 2), dtype)
        t = tp.array(n)
        for axis in valid_axes(n.shape, name):
            same_outcome(lambda: getattr(n, name)(axis=axis),
                         lambda: getattr(t, name)(axis=axis), name in EXACT, scale_of(name, n))
        # positional axis, as NumPy's methods take it
        same_outcome(lambda: getattr(n, name)(1), lambda: getattr(t, name)(1), name in EXACT,
                     scale_of(name, n))


# --------------------------------------------------------------------------------------------
# special values


NAN, INF = np.nan, np.inf
SPECIAL_FLOATS = {
    "nan_first": [NAN, 1.0, 2.0, NAN],
    "nan_middle": [1.0, NAN, 3.0, -1.0, NAN],
    "nan_last": [1.0, 2.0, 5.0, NAN],
    "all_nan": [NAN, NAN, NAN],
    "inf": [1.0, INF, -INF, 0.0],
    "neg_inf_only": [-INF, -INF, -INF],
    "nan_and_inf": [INF, -INF, NAN, INF],
    "zeros_negative_first": [-0.0, 0.0, -0.0],
    "zeros_positive_first": [0.0, -0.0],
    "negative_zeros": [-0.0, -0.0],
    "ties": [3.0, 1.0, 3.0, 1.0, -2.0],
}
SPECIAL_COMPLEX = {
    "lexicographic": [1 + 5j, 1 + 6j, 0 + 100j, -1 + 200j],
    "real_ties": [2 + 1j, 2 + 3j, 2 - 1j, 2 + 3j],
    "nan_real": [1 + 1j, complex(NAN, 0), 5 + 5j, complex(NAN, 1)],
    "nan_imag": [1 + 1j, 5 + 5j, complex(0, NAN), complex(NAN, NAN)],
    "inf": [complex(INF, 0), complex(INF, 1), complex(-INF, 5), 0j],
}
SPECIAL_FUNCTIONS = ["max", "min", "argmax", "argmin", "ptp", "sum", "prod", "mean", "any",
                     "count_nonzero"]


def special_cases():
    for key, values in SPECIAL_FLOATS.items():
        for dtype in (np.float16, np.float32, np.float64):
            yield pytest.param(np.array(values, dtype), id=f"{key}-{dtype_id(dtype)}")
    for key, values in SPECIAL_COMPLEX.items():
        for dtype in (np.complex64, np.complex128):
            yield pytest.param(np.array(values, dtype), id=f"{key}-{dtype_id(dtype)}")


@pytest.mark.parametrize("x", special_cases())
def test_special_values(device, x):
    """NaN propagates through max/min and the first NaN is argmax/argmin's answer; complex
    values are ordered lexicographically; signed zeros and infinities as NumPy gives them.
    The values as a vector, and as the rows and columns of a matrix."""
    matrix = np.stack([x, x[::-1], np.roll(x, 1)])
    for n in (x, matrix, matrix.T):
        t = tp.array(n)
        for name in SPECIAL_FUNCTIONS:
            for axis in (None, 0, -1):
                same_outcome(lambda: reduce_call(np, name, n, axis=axis),
                             lambda: reduce_call(tp, name, t, axis=axis), exact=True)


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if np.dtype(d).kind in "iub"],
                         ids=dtype_id)
def test_integer_extremes(device, dtype):
    """The limits of each integer dtype: max/min/argmax exact, sums and products wrap."""
    info = np.iinfo(dtype) if np.dtype(dtype).kind != "b" else None
    values = [True, False, True] if info is None else [0, info.max, info.min, info.max, 1]
    n = np.array(values, dtype)
    t = tp.array(n)
    for name in FUNCTIONS:
        same_outcome(lambda: reduce_call(np, name, n), lambda: reduce_call(tp, name, t),
                     exact=name in EXACT)
    same_outcome(lambda: np.sum(n, dtype=dtype), lambda: tp.sum(t, dtype=dtype))
    same_outcome(lambda: np.multiply.reduce(n[1:]), lambda: tp.multiply.reduce(t[1:]))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64],
                         ids=dtype_id)
def test_nan_positions_large(device, dtype):
    """The first NaN wins wherever it falls: inside a vector block, at a block or thread
    boundary, after an infinity."""
    for first in (0, 4095, 4096, 50001, 99998):
        n = sample((100003,), dtype)
        n[[first, first + 3, 99999]] = NAN
        n[first - 1] = INF
        t = tp.array(n)
        for name in ("max", "min", "argmax", "argmin"):
            same_outcome(lambda: reduce_call(np, name, n), lambda: reduce_call(tp, name, t),
                         exact=True)
        m, tm = n[:100000].reshape(4, 25000), t[:100000].reshape(4, 25000)
        for axis in (0, 1):
            for name in ("max", "argmax", "argmin"):
                same_outcome(lambda: reduce_call(np, name, m, axis=axis),
                             lambda: reduce_call(tp, name, tm, axis=axis), exact=True)


# --------------------------------------------------------------------------------------------
# dtype=


DTYPE_CASES = [
    ("sum", np.int8, np.float32), ("sum", np.int8, np.int8), ("sum", np.bool_, None),
    ("sum", np.uint8, None), ("sum", np.int32, np.bool_), ("sum", np.float64, np.int32),
    ("sum", np.float16, np.float64), ("sum", np.float32, "float64"), ("sum", np.int16, "u2"),
    ("sum", np.complex64, np.complex128), ("sum", np.complex128, np.float64),
    ("prod", np.int32, np.int8), ("prod", np.uint16, None), ("prod", np.bool_, None),
    ("prod", np.float32, np.float64), ("mean", np.int32, None), ("mean", np.int8, np.float32),
    ("mean", np.bool_, None), ("mean", np.float16, None), ("mean", np.float16, np.float64),
    ("mean", np.int64, np.int64), ("mean", np.complex64, None), ("mean", np.uint64, None),
    ("var", np.int16, None), ("var", np.int16, np.float32), ("var", np.float16, None),
    ("var", np.bool_, None), ("std", np.complex64, None), ("std", np.uint8, np.float16),
    ("std", np.float32, np.float64), ("sum", np.float64, "bogus"),
]


@pytest.mark.parametrize("case", DTYPE_CASES, ids=lambda c: "-".join(map(dtype_id, c[1:]))
                         if c[2] != "bogus" else "bogus")
def test_dtype_keyword(device, case):
    name, in_dtype, dtype = case
    n = sample((3, 4), in_dtype)
    t = tp.array(n)
    for axis in (None, 0, -1):
        same_outcome(lambda: reduce_call(np, name, n, axis=axis, dtype=dtype),
                     lambda: reduce_call(tp, name, t, axis=axis, dtype=dtype),
                     scale=scale_of(name, n))


# --------------------------------------------------------------------------------------------
# out=


OUT_CASES = [
    # (function, input dtype, axis, keepdims, out shape, out dtype)
    ("sum", np.float64, 0, False, (4,), np.float64),
    ("sum", np.float64, 0, True, (1, 4), np.float64),
    ("sum", np.float64, None, False, (), np.float64),
    ("sum", np.float64, None, False, (1,), np.float64),
    ("sum", np.float64, 0, False, (3,), np.float64),
    ("sum", np.float64, 0, False, (1, 4), np.float64),
    ("sum", np.float64, 1, False, (3,), np.float32),
    ("sum", np.int32, 1, False, (3,), np.float64),
    ("sum", np.float64, 1, False, (3,), np.int32),
    ("sum", np.complex128, 1, False, (3,), np.float64),
    ("sum", np.int8, 0, False, (4,), np.int8),
    ("prod", np.int16, 0, False, (4,), np.int8),
    ("max", np.float32, 1, False, (3,), np.float64),
    ("max", np.int64, -1, True, (3, 1), np.int64),
    ("min", np.float64, 0, False, (4,), np.int16),
    ("any", np.float64, 0, False, (4,), np.int32),
    ("all", np.int8, None, False, (), np.bool_),
    ("ptp", np.int32, 0, False, (4,), np.int64),
    ("mean", np.int32, 0, False, (4,), np.float32),
    ("mean", np.float16, None, False, (), np.float64),
    ("mean", np.float64, 1, False, (3,), np.int64),
    ("var", np.float64, 1, False, (3,), np.float64),
    ("std", np.complex64, 0, False, (4,), np.float32),
    ("argmax", np.float64, 0, False, (4,), np.int64),
    ("argmin", np.int8, 1, True, (3, 1), np.int64),
    ("argmax", np.float64, None, False, (), np.int64),
    ("argmax", np.float64, 0, False, (4,), np.int32),
    ("argmin", np.float64, 0, False, (3,), np.int64),
]


@pytest.mark.parametrize("case", OUT_CASES, ids=lambda c: compact_id(
    (c[0], dtype_id(c[1]), c[2], c[3], c[4], dtype_id(c[5]))))
def test_out_keyword(device, case):
    """The result lands in out (cast to its dtype) and out is returned; an out of the wrong
    shape raises NumPy's error."""
    name, in_dtype, axis, keepdims, out_shape, out_dtype = case
    n = sample((3, 4), in_dtype)
    t = tp.array(n)
    nout, tout = np.zeros(out_shape, out_dtype), tp.zeros(out_shape, out_dtype)
    got = same_outcome(
        lambda: reduce_call(np, name, n, axis=axis, keepdims=keepdims, out=nout),
        lambda: reduce_call(tp, name, t, axis=axis, keepdims=keepdims, out=tout),
        scale=scale_of(name, n))
    if got is not None:
        assert got is tout
        assert_near(tout, nout, scale=scale_of(name, n))


def test_out_variants(device):
    """out as a 1-tuple, read-only out, out that is not an array, and out overlapping the
    input (NumPy buffers the input)."""
    n = sample((3, 4), np.float64)
    t = tp.array(n)
    nout, tout = np.zeros(4), tp.zeros(4)
    assert tp.sum(t, axis=0, out=(tout,)) is tout
    assert_near(tout, np.sum(n, axis=0, out=(nout,)), scale=scale_of("sum", n))
    cases = [
        lambda m, x: m.sum(x, axis=0, out=m.broadcast_to(m.zeros(1), (4,))),
        lambda m, x: m.sum(x, axis=0, out=[0.0] * 4),
        lambda m, x: m.sum(x, axis=0, out=(m.zeros(4), m.zeros(4))),
        lambda m, x: m.argmax(x, axis=0, out=m.broadcast_to(m.zeros(1, np.int64), (4,))),
        lambda m, x: m.sum(x, axis=0, out=x[0]),
        lambda m, x: m.maximum.reduce(x, axis=1, out=x[:, 1]),
        lambda m, x: m.subtract.reduce(x, axis=1, out=x[:, 0]),
        lambda m, x: m.mean(x, axis=0, out=x[-1]),
    ]
    for call in cases:
        nx, tx = n.copy(), tp.array(n)
        same_outcome(lambda: call(np, nx), lambda: call(tp, tx), scale=scale_of("sum", n))
        assert_near(tx, nx, scale=scale_of("sum", n))


# --------------------------------------------------------------------------------------------
# initial= and where=


def m_reduce(ufunc_name):
    """m.<ufunc>.reduce, for the case lists."""
    return lambda m, x, **kw: getattr(m, ufunc_name).reduce(x, **kw)


INITIAL_CASES = [
    # (shape, dtype, function, keywords)
    ((3, 4), np.float64, "sum", {"initial": 10}),
    ((3, 4), np.int8, "sum", {"axis": 0, "initial": 100}),
    ((3, 4), np.int32, "prod", {"axis": 1, "initial": 2}),
    ((3, 4), np.float32, "prod", {"axis": 1, "initial": -1.5, "keepdims": True}),
    ((3, 4), np.float64, "max", {"initial": 5.0}),
    ((3, 4), np.float64, "max", {"axis": 0, "initial": NAN}),
    ((3, 4), np.int16, "max", {"axis": 1, "initial": 1000}),
    ((3, 4), np.int16, "min", {"axis": 1, "initial": -1000}),
    ((3, 4), np.complex128, "min", {"axis": 0, "initial": 1 + 1j}),
    ((0,), np.float64, "max", {"initial": -3}),
    ((0,), np.uint8, "min", {"initial": 3}),
    ((4, 0, 3), np.float32, "max", {"axis": 1, "initial": 7}),
    ((4, 0, 3), np.int64, "min", {"axis": (0, 1), "initial": 7, "keepdims": True}),
    ((0,), np.int64, "sum", {"initial": 2.5}),
    ((3, 4), np.float64, "sum", {"initial": np.float32(3.5)}),
    ((3, 4), np.float64, "sum", {"initial": np.array(3.5)}),
    ((2, 3), np.int32, m_reduce("subtract"), {"axis": 1, "initial": 10}),
    ((2, 3), np.float64, m_reduce("divide"), {"axis": 0, "initial": 1.0}),
    ((2,), np.float64, m_reduce("add"), {"initial": None}),
    ((0,), np.float64, m_reduce("add"), {"initial": None}),
    ((0,), np.float64, m_reduce("maximum"), {"initial": None}),
    ((0, 3), np.float64, m_reduce("multiply"), {"axis": 0, "initial": None}),
]


def case_id(case):
    shape, dtype, fn, kwargs = case
    name = fn if isinstance(fn, str) else "ufunc.reduce"
    shown = {k: (v if not isinstance(v, (np.ndarray, np.generic)) else f"np:{v}")
             for k, v in kwargs.items()}
    return compact_id(f"{name}-{compact_id(shape)}-{dtype_id(dtype)}-{shown}")


def run_case(case, seed=0):
    """Runs a (shape, dtype, function, keywords) case on the NumPy and tessera data, the
    values all negative zeros where NumPy's answer shows whether `initial` started the fold."""
    shape, dtype, fn, kwargs = case
    n = sample(shape, dtype, seed)
    if np.dtype(dtype).kind == "f" and shape == (2,):
        n = np.array([-0.0, -0.0], dtype)
    t = tp.array(n)
    call = (lambda m, x, **kw: getattr(m, fn)(x, **kw)) if isinstance(fn, str) else fn
    where = kwargs.get("where")
    tkwargs = {**kwargs, "where": tp.array(where)} if isinstance(where, np.ndarray) else kwargs
    name = fn if isinstance(fn, str) else "sum"
    same_outcome(lambda: call(np, n, **kwargs), lambda: call(tp, t, **tkwargs),
                 scale=scale_of(name, n))


@pytest.mark.parametrize("case", INITIAL_CASES, ids=case_id)
def test_initial_keyword(device, case):
    run_case(case)


ROW_MASK = np.array([True, False, True, True])
FULL_MASK = sample((3, 4), np.bool_, 7)
NO_ROW = np.array([[True, False, True, False], [False] * 4, [True] * 4])  # a row all False
WHERE_CASES = [
    ((3, 4), np.float64, "sum", {"where": FULL_MASK}),
    ((3, 4), np.float64, "sum", {"axis": 0, "where": ROW_MASK}),
    ((3, 4), np.int32, "sum", {"axis": 1, "keepdims": True, "where": FULL_MASK[:, :1]}),
    ((3, 4), np.float32, "sum", {"axis": 1, "where": False}),
    ((3, 4), np.int16, "prod", {"axis": 0, "where": FULL_MASK}),
    ((3, 4), np.float64, "max", {"axis": 1, "where": NO_ROW, "initial": -INF}),
    ((3, 4), np.float64, "max", {"where": FULL_MASK}),
    ((3, 4), np.int8, "min", {"axis": 0, "where": ROW_MASK, "initial": 50}),
    ((3, 4), np.float64, "any", {"axis": 1, "where": NO_ROW}),
    ((3, 4), np.int32, "all", {"axis": 0, "where": FULL_MASK}),
    ((3, 4), np.float64, "mean", {"axis": 1, "where": NO_ROW}),
    ((3, 4), np.int32, "mean", {"where": FULL_MASK}),
    ((3, 4), np.float32, "mean", {"axis": 0, "where": ROW_MASK, "keepdims": True}),
    ((3, 4), np.float64, "var", {"axis": 1, "where": FULL_MASK}),
    ((3, 4), np.float64, "std", {"axis": 1, "where": NO_ROW, "ddof": 1}),
    ((3, 4), np.complex128, "var", {"where": ROW_MASK}),
    ((3, 4), np.float64, "sum", {"where": [True, False, True, True]}),
    ((3, 4), np.float64, "sum", {"where": np.ones(4, np.int64)}),
    ((3, 4), np.float64, "sum", {"where": np.ones(5, np.bool_)}),
    ((3, 4), np.float64, "mean", {"where": np.ones((2, 4), np.bool_)}),
    ((3, 4), np.float64, m_reduce("maximum"), {"axis": 0, "where": FULL_MASK, "initial": 0}),
    ((3, 4), np.float64, m_reduce("minimum"), {"axis": 0, "where": FULL_MASK}),
    ((3, 4), np.float64, m_reduce("add"), {"axis": (0, 1), "where": ROW_MASK}),
    ((3, 4), np.int32, m_reduce("subtract"), {"axis": 1, "where": ROW_MASK, "initial": 0}),
]


@pytest.mark.parametrize("case", WHERE_CASES, ids=case_id)
def test_where_keyword(device, case):
    run_case(case)


def test_where_pending_mask(device):
    """A mask that is itself a pending comparison of the input."""
    n = sample((300, 400), np.float32)
    t = tp.array(n)
    same_outcome(lambda: np.sum(n, axis=1, where=n > 1), lambda: tp.sum(t, axis=1, where=t > 1),
                 scale=scale_of("sum", n))
    same_outcome(lambda: np.max(n * 2, axis=0, where=n < 0, initial=-1),
                 lambda: tp.max(t * 2, axis=0, where=t < 0, initial=-1))

