"""Reductions (sum, prod, max, min, amax, amin, any, all, ptp, count_nonzero, mean, var, std,
argmax, argmin, their ndarray methods, and ufunc.reduce) checked against NumPy: values, dtypes,
shapes and the exception raised on bad input, over every dtype, several shapes and axes, the
memory layouts, the keywords, special values, and the large sizes that take the parallel paths.

Full reductions give 0-d tessera arrays where NumPy gives scalars: values and dtypes are
compared, not types. Floating sums are compared within a tolerance, since the summation order
differs from NumPy's."""

import builtins
import math
import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import tessera as tp

from conftest import ALL_DTYPES, sample
from oracle import (
    assert_refuses_host_data,
    compact_id,
    data,
    is_host_data,
    make,
    message_of,
    public_type,
    refuses_host_data,
)
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
    if x.size == 0:
        return 0.0
    with np.errstate(all="ignore"):
        m = float(np.max(np.abs(x.astype(np.complex128))))
    return {"sum": m * x.size, "mean": m, "var": 4 * m * m, "std": 2 * m}.get(name, 0.0)


def positive_nans(a):
    """A copy of NumPy array `a` with every NaN positive: the sign of a NaN is unspecified
    (x86 makes inf - inf a negative NaN), so it is not compared."""
    a = np.array(a)
    for part in (a.real, a.imag) if a.dtype.kind == "c" else (a,) if a.dtype.kind == "f" else ():
        part[np.isnan(part)] = np.nan
    return a


def assert_near(got, expected, exact=False, scale=0.0, loosen=1.0):
    """assert_close, with an absolute tolerance of tolerance(dtype) * scale besides the relative
    one (for sums whose terms cancel), both times `loosen`; exact comparisons ignore the sign
    of NaN."""
    __tracebackhide__ = True
    n = np.asarray(expected)
    if exact or n.dtype.kind not in "fc" or (not scale and loosen == 1):
        if isinstance(got, tp.ndarray):
            got = tp.array(positive_nans(tp.asnumpy(got)))
        assert_close(got, positive_nans(n), exact)
        return
    assert isinstance(got, tp.ndarray), f"expected tessera.ndarray, got {type(got).__name__}"
    assert (got.dtype, got.shape) == (n.dtype, n.shape), \
        f"dtype/shape {got.dtype}{got.shape} != {n.dtype}{n.shape}"
    tol = tolerance(n.dtype) * loosen
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


def same_outcome(np_call, tp_call, exact=False, scale=0.0, loosen=1.0):
    """tessera's result equals NumPy's (see assert_near), or both raise the same exception
    type."""
    __tracebackhide__ = True
    return outcome_like_numpy(np_call, tp_call,
                              lambda g, e: assert_near(g, e, exact, scale, loosen),
                              assert_raises_same)


def both(x):
    """(tessera, NumPy) versions of a NumPy array."""
    return tp.array(x), x


def reduce_call(m, name, x, **kwargs):
    return getattr(m, name)(x, **kwargs)


def grid(shape, name):
    """(axis, keepdims) of every valid axis of AXES, with keepdims False and True."""
    return [(axis, keepdims) for axis in valid_axes(shape, name) for keepdims in (False, True)]


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
    """Every function on every dtype: NumPy's result dtype, shape and values, or its error."""
    for shape in SHAPES:
        t, n = both(data(shape, dtype))
        for axis, keepdims in grid(shape, name):
            same_outcome(lambda: reduce_call(np, name, n, axis=axis, keepdims=keepdims),
                         lambda: reduce_call(tp, name, t, axis=axis, keepdims=keepdims),
                         name in EXACT, scale_of(name, n))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", FUNCTIONS)
def test_layouts(device, name, layout):
    """Fortran, strided, reversed and broadcast inputs reduce as contiguous ones."""
    for dtype in (np.bool_, np.int16, np.uint32, np.float32, np.float64, np.complex128):
        for shape in ((7,), (3, 4), (2, 3, 5), (4, 0, 3)):
            _, _, n, t = make(shape, dtype, layout)
            for axis, keepdims in grid(shape, name):
                same_outcome(lambda: reduce_call(np, name, n, axis=axis, keepdims=keepdims),
                             lambda: reduce_call(tp, name, t, axis=axis, keepdims=keepdims),
                             name in EXACT, scale_of(name, n))


@pytest.mark.parametrize("name", FUNCTIONS)
def test_axis_of_0d_array(device, name):
    """A 0-d array: NumPy's reductions accept the int axes 0 and -1 (and reduce nothing),
    mean/var/std and tuple axes do not."""
    t, n = both(np.array(2.5))
    for axis in (0, -1, 1, (0,), (-1,)):
        same_outcome(lambda: reduce_call(np, name, n, axis=axis),
                     lambda: reduce_call(tp, name, t, axis=axis))


@pytest.mark.parametrize("name", FUNCTIONS)
def test_non_array_inputs(device, name):
    """Python scalars, (nested) lists and NumPy arrays convert as NumPy converts them. A device
    that refuses host data (oracle.refuses_host_data) refuses the lists and NumPy arrays, and
    reduces them as NumPy does once converted with tessera.asarray."""
    for value in (3, -2.5, True, 1 + 2j, [1, 5, 2], [[1.5, -1.0], [0.0, 2.0]], [[True], [False]],
                  np.arange(6, dtype=np.int16).reshape(2, 3)):
        tvalue = value
        if refuses_host_data() and is_host_data(value):
            assert_refuses_host_data(lambda: reduce_call(tp, name, value))
            tvalue = tp.asarray(value)
        same_outcome(lambda: reduce_call(np, name, value), lambda: reduce_call(tp, name, tvalue),
                     name in EXACT, scale_of(name, value))


@pytest.mark.parametrize("name", METHODS)
def test_methods(device, name):
    """The ndarray methods, with the axis by keyword and positionally."""
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
# Functions by what the special values test: NaN propagation and the order of values and
# signed zeros; the first NaN or extreme's index; inf and NaN through arithmetic.
SPECIAL_GROUPS = {"extremes": ["max", "min", "ptp"], "indices": ["argmax", "argmin"],
                  "folds": ["sum", "prod", "mean", "any", "count_nonzero"]}


def special_cases():
    for key, values in SPECIAL_FLOATS.items():
        for dtype in (np.float16, np.float32, np.float64):
            yield pytest.param(np.array(values, dtype), id=f"{key}-{dtype_id(dtype)}")
    for key, values in SPECIAL_COMPLEX.items():
        for dtype in (np.complex64, np.complex128):
            yield pytest.param(np.array(values, dtype), id=f"{key}-{dtype_id(dtype)}")


@pytest.mark.parametrize("x", list(special_cases()))
@pytest.mark.parametrize("group", list(SPECIAL_GROUPS))
def test_special_values(device, group, x):
    """NaN propagates through max/min and the first NaN is argmax/argmin's answer; complex
    values are ordered lexicographically; signed zeros and infinities as NumPy gives them.
    The values as a vector, and as the rows and columns of a matrix."""
    matrix = np.stack([x, x[::-1], np.roll(x, 1)])
    for n in (x, matrix, matrix.T):
        t = tp.array(n)
        for name in SPECIAL_GROUPS[group]:
            # products and means of complex values round; the rest is exact
            exact = name in EXACT or n.dtype.kind == "f"
            for axis in (None, 0, -1):
                same_outcome(lambda: reduce_call(np, name, n, axis=axis),
                             lambda: reduce_call(tp, name, t, axis=axis), exact,
                             scale_of(name, n))


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


@pytest.mark.parametrize("length", [16, 33, 100, 4097, 100003])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64],
                         ids=dtype_id)
def test_nan_positions(device, dtype, length):
    """The first NaN wins wherever it falls: in a vector block, at a block or thread boundary,
    after an infinity; in a vector and in the rows and columns of a matrix."""
    boundaries = {0, 1, 13, length // 2, 4095, 4096, 50001, length - 1}
    for first in sorted(b for b in boundaries if b < length):
        n = sample((length,), dtype)
        n[[first, min(first + 3, length - 1)]] = NAN
        if first:
            n[first - 1] = INF
        matrix = n[:length - length % 4].reshape(4, -1)
        for m, axis in ((n, None), (matrix, None), (matrix, 0), (matrix, 1)):
            t = tp.array(m)
            for name in ("max", "min", "argmax", "argmin"):
                same_outcome(lambda: reduce_call(np, name, m, axis=axis),
                             lambda: reduce_call(tp, name, t, axis=axis), exact=True)


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


def dtype_case_id(case):
    name, in_dtype, dtype = case
    shown = dtype if dtype is None or isinstance(dtype, str) else dtype_id(dtype)
    return f"{name}-{dtype_id(in_dtype)}-{shown}"


@pytest.mark.parametrize("case", DTYPE_CASES, ids=dtype_case_id)
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


OUT_VARIANTS = {
    "ufunc_tuple": lambda m, x: m.add.reduce(x, axis=0, out=(m.zeros(4),)),
    "ufunc_two_tuple": lambda m, x: m.add.reduce(x, axis=0, out=(m.zeros(4), m.zeros(4))),
    "sum_tuple": lambda m, x: m.sum(x, axis=0, out=(m.zeros(4),)),  # tuples: ufunc.reduce only
    "argmax_tuple": lambda m, x: m.argmax(x, axis=0, out=(m.zeros(4, np.int64),)),
    "read_only": lambda m, x: m.sum(x, axis=0, out=m.broadcast_to(m.zeros(1), (4,))),
    "argmax_read_only": lambda m, x: m.argmax(
        x, axis=0, out=m.broadcast_to(m.zeros(1, np.int64), (4,))),
    "list": lambda m, x: m.sum(x, axis=0, out=[0.0] * 4),
    # out overlapping the input: NumPy buffers the input
    "sum_into_row": lambda m, x: m.sum(x, axis=0, out=x[0]),
    "maximum_into_column": lambda m, x: m.maximum.reduce(x, axis=1, out=x[:, 1]),
    "subtract_into_column": lambda m, x: m.subtract.reduce(x, axis=1, out=x[:, 0]),
    "mean_into_row": lambda m, x: m.mean(x, axis=0, out=x[-1]),
}


@pytest.mark.parametrize("variant", list(OUT_VARIANTS))
def test_out_variants(device, variant):
    call = OUT_VARIANTS[variant]
    n = sample((3, 4), np.float64)
    t = tp.array(n)
    same_outcome(lambda: call(np, n), lambda: call(tp, t), scale=scale_of("sum", n))
    assert_near(t, n, scale=scale_of("sum", n))


# --------------------------------------------------------------------------------------------
# initial= and where=


INITIAL_CASES = [
    # (input, function or ufunc name, keywords)
    (data((3, 4), np.float64), "sum", {"initial": 10}),
    (data((3, 4), np.int8), "sum", {"axis": 0, "initial": 100}),
    (data((3, 4), np.int32), "prod", {"axis": 1, "initial": 2}),
    (data((3, 4), np.float32), "prod", {"axis": 1, "initial": -1.5, "keepdims": True}),
    (data((3, 4), np.float64), "max", {"initial": 5.0}),
    (data((3, 4), np.float64), "max", {"axis": 0, "initial": NAN}),
    (data((3, 4), np.int16), "max", {"axis": 1, "initial": 1000}),
    (data((3, 4), np.int16), "min", {"axis": 1, "initial": -1000}),
    (data((3, 4), np.complex128), "min", {"axis": 0, "initial": 1 + 1j}),
    (data((0,), np.float64), "max", {"initial": -3}),
    (data((0,), np.uint8), "min", {"initial": 3}),
    (data((4, 0, 3), np.float32), "max", {"axis": 1, "initial": 7}),
    (data((4, 0, 3), np.int64), "min", {"axis": (0, 1), "initial": 7, "keepdims": True}),
    (data((0,), np.int64), "sum", {"initial": 2.5}),
    (data((3, 4), np.float64), "sum", {"initial": np.float32(3.5)}),
    (data((3, 4), np.float64), "sum", {"initial": np.array(3.5)}),
    (data((2, 3), np.int32), "subtract", {"axis": 1, "initial": 10}),
    (data((2, 3), np.float64), "divide", {"axis": 0, "initial": 1.0}),
    (data((0,), np.float64), "add", {"initial": None}),
    (data((0,), np.float64), "maximum", {"initial": None}),
    (data((0, 3), np.float64), "multiply", {"axis": 0, "initial": None}),
]


def reducer(m, name):
    """m.<name> for a reduction function, m.<name>.reduce for a ufunc."""
    f = getattr(m, name)
    return f.reduce if isinstance(f, (np.ufunc, tp.ufunc)) else f


def case_id(case):
    n, name, kwargs = case
    shown = {k: (f"{type(v).__name__}({v})" if isinstance(v, (np.ndarray, np.generic)) else v)
             for k, v in kwargs.items()}
    return compact_id(f"{name}-{n.shape}-{n.dtype}-{shown}")


def run_case(case):
    """NumPy's and tessera's outcome of one (input, function, keywords) case, with an array
    where= given to tessera as a tessera array."""
    n, name, kwargs = case
    t = tp.array(n)
    where = kwargs.get("where")
    tkwargs = {**kwargs, "where": tp.array(where)} if isinstance(where, np.ndarray) else kwargs
    if refuses_host_data() and builtins.any(is_host_data(tkwargs.get(k))
                                            for k in ("where", "initial")):
        # NumPy data (a list where=, a NumPy array initial=) is refused on such a device
        assert_refuses_host_data(lambda: reducer(tp, name)(t, **tkwargs))
        return
    same_outcome(lambda: reducer(np, name)(n, **kwargs), lambda: reducer(tp, name)(t, **tkwargs),
                 scale=scale_of("sum" if name in ("add", "subtract") else name, n))


@pytest.mark.parametrize("case", INITIAL_CASES, ids=case_id)
def test_initial_keyword(device, case):
    run_case(case)


@pytest.mark.parametrize("name", ["add", "sum"])
def test_initial_none_starts_from_an_element(device, name):
    """initial=None (unlike no initial) folds from the first element, not the identity: the
    sign of a zero sum shows which."""
    n = np.array([-0.0, -0.0])
    t = tp.array(n)
    same_outcome(lambda: reducer(np, name)(n, initial=None),
                 lambda: reducer(tp, name)(t, initial=None), exact=True)
    same_outcome(lambda: reducer(np, name)(n), lambda: reducer(tp, name)(t), exact=True)


ROW_MASK = np.array([True, False, True, True])
FULL_MASK = data((3, 4), np.bool_, 7)
NO_ROW = np.array([[True, False, True, False], [False] * 4, [True] * 4])  # a row all False
WHERE_CASES = [
    (data((3, 4), np.float64), "sum", {"where": FULL_MASK}),
    (data((3, 4), np.float64), "sum", {"axis": 0, "where": ROW_MASK}),
    (data((3, 4), np.int32), "sum", {"axis": 1, "keepdims": True, "where": FULL_MASK[:, :1]}),
    (data((3, 4), np.float32), "sum", {"axis": 1, "where": False}),
    (data((3, 4), np.int16), "prod", {"axis": 0, "where": FULL_MASK}),
    (data((3, 4), np.float64), "max", {"axis": 1, "where": NO_ROW, "initial": -INF}),
    (data((3, 4), np.float64), "max", {"where": FULL_MASK}),
    (data((3, 4), np.int8), "min", {"axis": 0, "where": ROW_MASK, "initial": 50}),
    (data((3, 4), np.float64), "any", {"axis": 1, "where": NO_ROW}),
    (data((3, 4), np.int32), "all", {"axis": 0, "where": FULL_MASK}),
    (data((3, 4), np.float64), "mean", {"axis": 1, "where": NO_ROW}),
    (data((3, 4), np.int32), "mean", {"where": FULL_MASK}),
    (data((3, 4), np.float32), "mean", {"axis": 0, "where": ROW_MASK, "keepdims": True}),
    (data((3, 4), np.float64), "var", {"axis": 1, "where": FULL_MASK}),
    (data((3, 4), np.float64), "std", {"axis": 1, "where": NO_ROW, "ddof": 1}),
    (data((3, 4), np.complex128), "var", {"where": ROW_MASK}),
    (data((3, 4), np.float64), "sum", {"where": [True, False, True, True]}),
    (data((3, 4), np.float64), "sum", {"where": np.ones(4, np.int64)}),
    # anything but an array converts to bool element by element, as NumPy converts it
    (data((3, 4), np.float64), "sum", {"axis": 1, "where": [2, 0, 1, 0]}),
    (data((3, 4), np.float64), "max", {"axis": 0, "where": [[0.5], [0.0], [1.0]], "initial": 0}),
    (data((3, 4), np.int32), "sum", {"where": 1}),
    (data((3, 4), np.float64), "mean", {"where": np.float64(0.0)}),
    (data((3, 4), np.float64), "sum", {"where": None}),
    (data((3, 4), np.float64), "sum", {"where": np.ones(5, np.bool_)}),
    (data((3, 4), np.float64), "mean", {"where": np.ones((2, 4), np.bool_)}),
    (data((3, 4), np.float64), "maximum", {"axis": 0, "where": FULL_MASK, "initial": 0}),
    (data((3, 4), np.float64), "minimum", {"axis": 0, "where": FULL_MASK}),
    (data((3, 4), np.float64), "add", {"axis": (0, 1), "where": ROW_MASK}),
    (data((3, 4), np.int32), "subtract", {"axis": 1, "where": ROW_MASK, "initial": 0}),
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


# --------------------------------------------------------------------------------------------
# errors


ERROR_CASES = {
    "duplicate_axis": lambda m, x: m.sum(x, axis=(0, 0)),
    "duplicate_negative_axis": lambda m, x: m.max(x, axis=(1, -2)),
    "axis_too_large": lambda m, x: m.sum(x, axis=3),
    "axis_too_negative": lambda m, x: m.mean(x, axis=-4),
    "tuple_axis_out_of_range": lambda m, x: m.any(x, axis=(0, 3)),
    "float_axis": lambda m, x: m.sum(x, axis=1.0),
    "string_axis": lambda m, x: m.prod(x, axis="0"),
    "argmax_tuple_axis": lambda m, x: m.argmax(x, axis=(0, 1)),
    "argmin_axis_out_of_range": lambda m, x: m.argmin(x, axis=3),
    "count_nonzero_axis_out_of_range": lambda m, x: m.count_nonzero(x, axis=-5),
    "max_empty": lambda m, x: m.max(x[:0]),
    "min_empty_axis": lambda m, x: m.min(x[:, :0], axis=1),
    "ptp_empty": lambda m, x: m.ptp(x[:0]),
    "argmax_empty": lambda m, x: m.argmax(x[:0]),
    "argmin_empty_axis": lambda m, x: m.argmin(x[:, :0], axis=1),
    "max_where_without_initial": lambda m, x: m.max(x, where=x > 0),
    "maximum_where_without_initial": lambda m, x: m.maximum.reduce(x, axis=0, where=x > 0),
    "subtract_tuple_axis": lambda m, x: m.subtract.reduce(x, axis=(0, 1)),
    "subtract_all_axes": lambda m, x: m.subtract.reduce(x, axis=None),
    "divide_tuple_axis": lambda m, x: m.divide.reduce(x, axis=(0, 2)),
    "power_all_axes": lambda m, x: m.power.reduce(x, axis=None),
    "equal_on_ints": lambda m, x: m.equal.reduce(x.astype(np.int64)),
    "less_on_floats": lambda m, x: m.less.reduce(x, axis=0),
    "unary_negative": lambda m, x: m.negative.reduce(x),
    "unary_sin": lambda m, x: m.sin.reduce(x),
    "two_outputs_divmod": lambda m, x: m.divmod.reduce(x),
    "two_outputs_modf": lambda m, x: m.modf.reduce(x),
    "ddof_and_correction": lambda m, x: m.var(x, ddof=1, correction=1),
    "std_ddof_and_correction": lambda m, x: m.std(x, ddof=1, correction=0),
    "bogus_dtype": lambda m, x: m.sum(x, dtype="bogus"),
    "bool_ptp": lambda m, x: m.ptp(x > 0, axis=0),
    "bool_sum_into_int8_out": lambda m, x: m.sum(x > 0, out=m.zeros((), np.int8)),
}


@pytest.mark.parametrize("case", list(ERROR_CASES))
def test_errors(device, case):
    """NumPy's exception type, or NumPy's result where it has one."""
    call = ERROR_CASES[case]
    n = sample((2, 3, 4), np.float64)
    t = tp.array(n)
    same_outcome(lambda: call(np, n), lambda: call(tp, t), scale=scale_of("sum", n))


# --------------------------------------------------------------------------------------------
# ufunc.reduce of every binary ufunc


def reduce_operand(dtype):
    """Data every binary ufunc takes: small positive integers (no division by zero, negative
    exponents or long shifts), signed floats."""
    n = sample((3, 4), dtype, seed=3)
    if np.dtype(dtype).kind in "iu":
        n = (np.abs(n) % 4 + 1).astype(dtype)
    return n


# One axis; all axes (an error for non-reorderable ufuncs); no axis at all (NumPy still
# applies the ufunc to the identity and each element).
AXIS_GROUPS = {"one": (0, -1), "all": (None, (0, 1)), "empty_tuple": ((),)}


@pytest.mark.parametrize("axes", list(AXIS_GROUPS))
@pytest.mark.parametrize("name", BINARY_UFUNCS)
def test_ufunc_reduce(device, name, axes):
    """Every binary ufunc's reduce: NumPy's values, or its error for a loop of mixed dtypes, a
    comparison, or a non-reorderable ufunc over several axes."""
    for dtype in (np.bool_, np.uint8, np.int32, np.float32, np.float64, np.complex128):
        n = reduce_operand(dtype)
        t = tp.array(n)
        for axis in AXIS_GROUPS[axes]:
            for keepdims in (False, True):
                same_outcome(
                    lambda: getattr(np, name).reduce(n, axis=axis, keepdims=keepdims),
                    lambda: getattr(tp, name).reduce(t, axis=axis, keepdims=keepdims),
                    scale=scale_of("sum", n))


@pytest.mark.parametrize("name, values", [("hypot", [-3.0, 4.0]), ("gcd", [-4, 6]),
                                         ("add", [-0.0, 1.0]), ("maximum", [-0.0, 2.0])],
                         ids=lambda v: v if isinstance(v, str) else compact_id(v))
def test_reduce_over_no_axes(device, name, values):
    """axis=(): NumPy folds each element into the identity, op(identity, x), which is not x
    itself for hypot (|x|), gcd of negatives (|x|), or add of -0.0 (0.0)."""
    t, n = both(np.array(values))
    same_outcome(lambda: getattr(np, name).reduce(n, axis=()),
                 lambda: getattr(tp, name).reduce(t, axis=()), exact=True)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", ["subtract", "divide", "floor_divide", "power", "arctan2"])
def test_ordered_reduce(device, name, layout):
    """Non-reorderable ufuncs fold each lane in order from its first element: bit-identical
    to NumPy's values along every axis."""
    for dtype in (np.uint16, np.float64):
        for shape in ((5,), (3, 4), (2, 3, 5)):
            _, _, n, t = make(shape, dtype, layout, seed=4)
            for axis in range(-len(shape), len(shape)):
                same_outcome(lambda: getattr(np, name).reduce(n, axis=axis),
                             lambda: getattr(tp, name).reduce(t, axis=axis),
                             exact=name not in ("power", "arctan2"))


# --------------------------------------------------------------------------------------------
# var and std


@pytest.mark.parametrize("dtype", [np.int32, np.bool_, np.float16, np.float32, np.float64,
                                   np.complex64, np.complex128], ids=dtype_id)
@pytest.mark.parametrize("name", ["var", "std"])
def test_var_std_ddof(device, name, dtype):
    """ddof 0, 1, fractional, negative, equal to and beyond the count (NumPy divides by
    max(n - ddof, 0): inf or nan); correction= as ddof; complex input gives a real result."""
    n = sample((3, 4), dtype)
    t = tp.array(n)
    for axis in (None, 0, 1, (0, 1)):
        for kwargs in ({"ddof": 0}, {"ddof": 1}, {"ddof": 1.5}, {"ddof": -1}, {"ddof": 3},
                       {"ddof": 4}, {"ddof": 20}, {"correction": 1}, {"correction": 2.5},
                       {"ddof": 1, "keepdims": True}):
            same_outcome(lambda: reduce_call(np, name, n, axis=axis, **kwargs),
                         lambda: reduce_call(tp, name, t, axis=axis, **kwargs),
                         scale=scale_of(name, n))


# --------------------------------------------------------------------------------------------
# accuracy: pairwise summation


def rms_errors(x, axis):
    """The root-mean-square errors of NumPy's and of tessera's float32 sums of x along `axis`
    against the float64 sum (exact to far below the float32 errors)."""
    exact = x.astype(np.float64).sum(axis=axis)
    theirs = np.sum(x, axis=axis).astype(np.float64) - exact
    ours = tp.asnumpy(tp.sum(tp.array(x), axis=axis)).astype(np.float64) - exact
    return np.sqrt(np.mean(theirs ** 2)), np.sqrt(np.mean(ours ** 2))


# The full sum the issue names; rows (the innermost axis reduced) and columns (kept) of
# several lengths, where the mean error over many sums is a stable measure.
@pytest.mark.parametrize("shape, axis", [((10**6,), None), ((100, 10**5), 1), ((1000, 1000), 1),
                                         ((1000, 1000), 0), ((10**5, 100), 0)],
                         ids=compact_id)
def test_float32_sum_accuracy(device, shape, axis):
    """tessera's float32 sums are as close to the exact sums as NumPy's pairwise ones. Both
    are pairwise trees whose error is set by their top few additions, so the two differ by
    where partial sums fall against powers of two: tessera's 512-element blocks of values
    with mean 1/2 sum to just about a power of two, where rounding steps are widest, and its
    rms error comes out up to 1.4x NumPy's on such data (both within about one ulp)."""
    x = np.random.default_rng(0).random(math.prod(shape), dtype=np.float32).reshape(shape)
    numpy_error, tessera_error = rms_errors(x, axis)
    assert tessera_error <= 1.5 * numpy_error, \
        f"tessera's rms error {tessera_error:.4g} > 1.5 x NumPy's {numpy_error:.4g}"
    # The worst sum: within 2 ulps where both sum pairwise (rows), and no worse than NumPy
    # where both add row after row (columns).
    exact = x.astype(np.float64).sum(axis=axis)
    ulps = np.spacing(exact.astype(np.float32)).astype(np.float64)
    ours = tp.asnumpy(tp.sum(tp.array(x), axis=axis)).astype(np.float64)
    theirs = np.sum(x, axis=axis).astype(np.float64)
    worst = np.max(np.abs(ours - exact) / ulps)
    assert worst <= builtins.max(2.0, np.max(np.abs(theirs - exact) / ulps))


GPU_SUM_CHECK = """
import math, sys
import numpy as np
import tessera as tp
sys.path.insert(0, sys.argv[1])
from test_reductions import rms_errors
with tp.Device("cuda"):
    for shape, axis in [((10**6,), None), ((100, 10**5), 1), ((1000, 1000), 1)]:
        x = np.random.default_rng(0).random(math.prod(shape), dtype=np.float32).reshape(shape)
        numpy_error, tessera_error = rms_errors(x, axis)
        print(shape, axis, tessera_error / numpy_error)
        assert tessera_error <= 1.5 * numpy_error, (shape, axis, tessera_error, numpy_error)
"""


@pytest.mark.parametrize("multiprocessors", [132, 114, 108])
def test_float32_sum_accuracy_gpu_launch_shapes(multiprocessors):
    """test_float32_sum_accuracy's sums with the launch shapes of an H100 or H200 (132 or
    114 multiprocessors) or an A100 (108): a long row splits into as many chunks as keep
    every multiprocessor busy, many more than on the simulator's few (the host's cores),
    and their partials merge pairwise. Run on the simulator in a process of its own, with
    that many simulated multiprocessors."""
    if os.environ.get("TESSERA_CUDA_SIM") != "1":
        pytest.skip("sets the simulator's multiprocessor count")
    env = dict(os.environ, TESSERA_CUDA_SIM_MULTIPROCESSORS=str(multiprocessors))
    done = subprocess.run([sys.executable, "-c", GPU_SUM_CHECK, os.path.dirname(__file__)],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


# --------------------------------------------------------------------------------------------
# fusion: a pending elementwise input is folded in the reduction


def input_changed_after(m, x, y):
    z = x * x
    x[0] = 1000
    return z.sum(axis=1)


def reduce_pending_twice(m, x, y):
    z = x * y
    return z.sum(), z.max(axis=1), z


# Each program, and how many terms of size max|x|**2 its floating results sum with
# cancellation (the absolute tolerance; 0: a relative tolerance suffices).
FUSED = {
    "square_sum": (lambda m, x, y: (x * x).sum(), 0),
    "difference_max": (lambda m, x, y: (x - y).max(axis=0), 0),
    "chain_mean": (lambda m, x, y: ((x * 2 - y) * x + m.sin(y)).mean(axis=1), 3),
    "comparison_count": (lambda m, x, y: m.count_nonzero(x > y, axis=0), 0),
    "comparison_sum": (lambda m, x, y: (x > y).sum(axis=1), 0),
    "mask_any_all": (lambda m, x, y: ((x > 25).any(axis=1), (x > -40).all(axis=0)), 0),
    "product_argmax": (lambda m, x, y: ((x * y).argmax(axis=0), (x * y).argmin()), 0),
    "difference_var": (lambda m, x, y: (x - y).var(axis=1, ddof=1), 0),
    "broadcast_row": (lambda m, x, y: (x - y[0]).sum(axis=0), 600),
    "ptp": (lambda m, x, y: m.ptp(m.abs(x) - y, axis=1), 0),
    "where_pending": (lambda m, x, y: m.sum(x + y, axis=0, where=x > y), 600),
    "dtype_on_pending": (lambda m, x, y: (x * 3).sum(axis=1, dtype=np.float32), 1200),
    "reduce_pending_twice": (reduce_pending_twice, 120000),
    "input_changed_after": (input_changed_after, 0),
    "out_is_input": (lambda m, x, y: m.sum(x * y, axis=0, out=x[0]), 300),
    "nested_reductions": (lambda m, x, y: (x - x.mean(axis=0)).std(axis=0), 0),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32], ids=dtype_id)
@pytest.mark.parametrize("program", list(FUSED))
def test_fused_reductions(device, program, dtype):
    """Reductions of pending elementwise results (here of 120000 elements) give NumPy's
    values; the inputs keep the values of the time of the call."""
    call, terms = FUSED[program]
    nx, ny = sample((300, 400), dtype, 1), sample((300, 400), dtype, 2)
    tx, ty = tp.array(nx), tp.array(ny)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = call(np, nx, ny)
    got = call(tp, tx, ty)
    expected = expected if isinstance(expected, tuple) else (expected,)
    got = got if isinstance(got, tuple) else (got,)
    scale = terms * float(np.max(np.abs(nx))) ** 2
    for g, e in zip(got, expected, strict=True):
        assert_near(g, e, scale=scale)
    assert_near(tx, nx, scale=scale)  # inputs written through out= or setitem


# --------------------------------------------------------------------------------------------
# large arrays: the parallel paths (innermost axis reduced or kept, few outputs split over
# threads)


LARGE_SHAPES_AXES = [(shape, axis) for shape in ((3, 200000), (200000, 3), (100000,), (2, 70000))
                     for axis in (0, 1, None) if axis is None or axis < len(shape)]
LARGE_FUNCTIONS = ["sum", "prod", "max", "min", "argmax", "argmin", "mean", "var", "std", "any",
                   "all", "count_nonzero", "ptp"]


def large_inputs(shape):
    """Booleans, integers (which wrap exactly), float32 integers (whose sums are exact in any
    order), and float64 values."""
    ints = sample(shape, np.int32, 5)
    return [ints > 0, ints, ints.astype(np.float32), sample(shape, np.float64, 6)]


@pytest.mark.parametrize("layout", ["contiguous", "fortran"])
@pytest.mark.parametrize("shape, axis", LARGE_SHAPES_AXES, ids=compact_id)
def test_large(device, shape, axis, layout):
    """Large arrays reduce as NumPy reduces them, on every code path."""
    # NumPy sums along a kept innermost axis one element after another: its rounding error
    # grows as sqrt(n) on average, and the tolerance with it.
    extent = math.prod(shape) if axis is None else shape[axis]
    for n in large_inputs(shape):
        n = n if layout == "contiguous" else np.asfortranarray(n)
        t = tp.array(n)
        dtype = n.dtype  # named by a failure's case
        for name in LARGE_FUNCTIONS:
            if name == "prod" and dtype.kind == "f":
                continue  # overflows to inf, or to nan through a zero, depending on the order
            exact = name in EXACT or (dtype == np.float32 and name in ("sum", "mean"))
            same_outcome(lambda: reduce_call(np, name, n, axis=axis),
                         lambda: reduce_call(tp, name, t, axis=axis),
                         exact, scale_of(name, n), math.sqrt(extent))
