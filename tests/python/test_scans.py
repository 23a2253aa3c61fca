"""Scans (cumsum, cumprod, cumulative_sum, cumulative_prod, the ndarray methods cumsum and
cumprod, and ufunc.accumulate) checked against NumPy: values, dtypes, shapes and the
exception raised on bad input, over every dtype, several shapes and axes, the memory
layouts, the dtype= and out= keywords, special values, the inner-axis and outer-axis paths
of the CPU backend, long rows, many short rows, and pending (fused) inputs.

Scans run strictly in order, as NumPy's do, so floating results are compared bit for bit
(NaN matching NaN part by part, and the sign of zero), not within a tolerance."""

import math
import warnings

import numpy as np
import pytest

import tessera as tp

from conftest import ALL_DTYPES, assert_same, sample
from oracle import (
    assert_raises_type,
    assert_refuses_host_data,
    compact_id,
    data,
    is_host_data,
    make,
    public_type,
    refuses_host_data,
)
from test_reductions import both, dtype_case_id, positive_nans
from test_ufunc_values import TRANSCENDENTAL
from ufunc_oracle import dtype_id, outcome_like_numpy, tolerance

SHAPES = [(), (0,), (1,), (7,), (3, 4), (2, 3, 5), (4, 0, 3)]
ND_SHAPES = SHAPES[1:]  # 0-d input: test_0d
AXES = [None, 0, -1, 1]  # 1: the middle axis of 3-d shapes (out of bounds for 1-d ones)
LAYOUTS = ["contiguous", "fortran", "strided", "negative", "broadcast", "partial", "leading",
           "transposed_negative"]
BINARY_UFUNCS = sorted(n for n in dir(np) if isinstance(getattr(np, n), np.ufunc)
                       and getattr(np, n).signature is None and getattr(np, n).nin == 2
                       and getattr(np, n).__name__ == n)
NAN, INF = np.nan, np.inf


# --------------------------------------------------------------------------------------------
# helpers


def assert_exact(got, expected):
    """assert_same (bit for bit, signs of zero included) up to the sign of NaN, with complex
    values also compared part by part (np.array_equal's equal_nan calls 1+nanj and nan+1j
    equal)."""
    __tracebackhide__ = True
    if isinstance(got, tp.ndarray):
        got = tp.array(positive_nans(tp.asnumpy(got)))
    expected = positive_nans(expected)
    assert_same(got, expected)
    if expected.dtype.kind == "c":
        g = tp.asnumpy(got)
        for part in ("real", "imag"):
            assert np.array_equal(getattr(g, part), getattr(expected, part), equal_nan=True), \
                f"{part} parts differ:\n{g}\n!=\n{expected}"


def assert_close_on_device(got, expected):
    """A transcendental ufunc's accumulate on a CUDA device: CUDA's math library rounds
    differently from the C library NumPy calls (docs/cuda.md), and each step feeds the
    next, so the values agree within 8 times ufunc_oracle's tolerance (relative) rather
    than bit for bit; nan and the infinities stand where NumPy's do."""
    __tracebackhide__ = True
    expected = np.asarray(expected)
    assert isinstance(got, tp.ndarray), f"expected tessera.ndarray, got {type(got).__name__}"
    assert (got.dtype, got.shape) == (expected.dtype, expected.shape), \
        f"{got.dtype}{got.shape} != NumPy's {expected.dtype}{expected.shape}"
    rtol = 8 * tolerance(expected.dtype)
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(tp.asnumpy(got), expected, rtol=rtol, atol=0, equal_nan=True)


def raises_like(error, tp_call):
    __tracebackhide__ = True
    assert_raises_type(public_type(error), tp_call)


def same_outcome(np_call, tp_call, check=assert_exact):
    """tessera's result passes check(got, NumPy's result), or both raise the same exception
    type."""
    __tracebackhide__ = True
    return outcome_like_numpy(np_call, tp_call, check, raises_like)


def scan(m, name, x, **kwargs):
    """m.<name>(x) for a scan function, m.<name>.accumulate(x) for a ufunc."""
    f = getattr(m, name)
    return (f.accumulate if isinstance(f, (np.ufunc, tp.ufunc)) else f)(x, **kwargs)


def accumulate_operand(dtype, shape=(3, 4), seed=3):
    """Data every binary ufunc takes: small positive integers (no division by zero, negative
    exponents or long shifts), signed floats."""
    n = sample(shape, dtype, seed=seed)
    if np.dtype(dtype).kind in "iu":
        n = (np.abs(n) % 4 + 1).astype(dtype)
    return n


# --------------------------------------------------------------------------------------------
# every function, dtype, shape and axis


def test_function_names():
    for name in ("cumsum", "cumprod", "cumulative_sum", "cumulative_prod"):
        assert callable(getattr(tp, name, None)), f"tessera.{name} is missing"
    for name in ("cumsum", "cumprod"):
        assert callable(getattr(tp.ndarray, name, None)), f"tessera.ndarray.{name} is missing"
    assert callable(getattr(tp.ufunc, "accumulate", None))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
def test_dtypes_shapes_axes(device, name, dtype):
    """NumPy's result dtype (bool and small integers as int64, small unsigned as uint64,
    float16 kept), shape (flattened for axis=None) and values, or its AxisError."""
    for shape in ND_SHAPES:
        t, n = both(data(shape, dtype))
        for axis in AXES:
            same_outcome(lambda: scan(np, name, n, axis=axis),
                         lambda: scan(tp, name, t, axis=axis))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
def test_cumulative(device, name, dtype):
    """The array API's scans: axis required for n-d input (ValueError), include_initial
    prepends the identity along the axis."""
    for shape in ND_SHAPES:
        t, n = both(data(shape, dtype))
        for axis in AXES:
            for include_initial in (False, True):
                same_outcome(lambda: scan(np, name, n, axis=axis, include_initial=include_initial),
                             lambda: scan(tp, name, t, axis=axis, include_initial=include_initial))


@pytest.mark.parametrize("out_dtype", [np.float64, np.int32, np.complex64], ids=dtype_id)
@pytest.mark.parametrize("name", ["cumulative_sum", "cumulative_prod"])
def test_cumulative_out(device, name, out_dtype):
    """out= receives the scan (with include_initial, the identity in its first slot along
    the axis) and is returned; an out of the wrong shape is a ValueError."""
    n = sample((3, 4), np.int16)
    t = tp.asarray(n)
    for axis in (0, 1, -1):
        for include_initial in (False, True):
            shape = list(n.shape)
            shape[axis] += include_initial
            want = np.full(shape, 7, out_dtype)
            got = tp.asarray(want.copy())
            r = getattr(np, name)(n, axis=axis, out=want, include_initial=include_initial)
            tr = getattr(tp, name)(t, axis=axis, out=got, include_initial=include_initial)
            assert r is want and tr is got
            np.testing.assert_array_equal(tp.asnumpy(got), want)
    with pytest.raises(ValueError):
        getattr(np, name)(n, axis=0, out=np.zeros((5, 4)))
    with pytest.raises(ValueError):
        getattr(tp, name)(t, axis=0, out=tp.zeros((5, 4)))
    with pytest.raises(ValueError):
        getattr(tp, name)(t, axis=0, out=tp.zeros((3, 4)), include_initial=True)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.float16, np.float64,
                                   np.complex64], ids=dtype_id)
@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
def test_methods(device, name, dtype):
    """ndarray.cumsum/cumprod, with the axis and dtype by keyword and positionally."""
    n = sample((3, 4, 2), dtype)
    t = tp.array(n)
    for axis in AXES:
        same_outcome(lambda: getattr(n, name)(axis=axis), lambda: getattr(t, name)(axis=axis))
    same_outcome(lambda: getattr(n, name)(1), lambda: getattr(t, name)(1))
    same_outcome(lambda: getattr(n, name)(0, np.float32), lambda: getattr(t, name)(0, np.float32))


@pytest.mark.parametrize("name", ["cumsum", "cumprod", "cumulative_sum", "cumulative_prod",
                                  "add", "maximum"])
def test_0d(device, name):
    """A 0-d array: cumsum/cumprod flatten it (axis None, 0 or -1 give shape (1,); axis 1 is
    out of bounds for the flattened array); NumPy's cumulative_sum/prod also give (1,);
    ufunc.accumulate raises TypeError."""
    t, n = both(np.array(2.5))
    for axis in (None, 0, -1, 1):
        same_outcome(lambda: scan(np, name, n, axis=axis), lambda: scan(tp, name, t, axis=axis))
    if name in ("cumsum", "cumprod"):
        same_outcome(lambda: getattr(n, name)(), lambda: getattr(t, name)())
        same_outcome(lambda: getattr(n, name)(0), lambda: getattr(t, name)(0))


@pytest.mark.parametrize("value", [5, -2.5, True, 1 + 2j, [1, 5, 2], [[1.5, -1.0], [0.0, 2.0]],
                                   [[True], [False]], [], [3, 2.5]], ids=compact_id)
def test_non_array_inputs(device, value):
    """Python scalars and (nested) lists convert as NumPy converts them (along the default
    axes: other axes of 0-d input are test_0d's). A device that refuses host data
    (oracle.refuses_host_data) refuses the lists, and scans them as NumPy does once converted
    with tessera.asarray."""
    tvalue = value
    if refuses_host_data() and is_host_data(value):
        for name in ("cumsum", "cumprod", "add", "maximum"):
            assert_refuses_host_data(lambda: scan(tp, name, value))
        tvalue = tp.asarray(value)
    for name in ("cumsum", "cumprod", "add", "maximum"):
        same_outcome(lambda: scan(np, name, value), lambda: scan(tp, name, tvalue))


# --------------------------------------------------------------------------------------------
# ufunc.accumulate of every binary ufunc


@pytest.mark.parametrize("name", BINARY_UFUNCS)
def test_ufunc_accumulate(device, name):
    """Every binary ufunc's accumulate along each axis: NumPy's values bit for bit (bool
    sums as int64; transcendental ones on a CUDA device: assert_close_on_device), or its
    error (comparisons of non-bool input, loops of mixed dtypes)."""
    check = assert_exact
    if name in TRANSCENDENTAL and device.kind == "cuda":
        check = assert_close_on_device
    for dtype in (np.bool_, np.int8, np.uint8, np.int32, np.float16, np.float32, np.float64,
                  np.complex128):
        n = accumulate_operand(dtype)
        t = tp.array(n)
        for axis in (0, 1, -1):
            same_outcome(lambda: getattr(np, name).accumulate(n, axis=axis),
                         lambda: getattr(tp, name).accumulate(t, axis=axis), check)
        same_outcome(lambda: getattr(np, name).accumulate(n),  # axis=0 by default
                     lambda: getattr(tp, name).accumulate(t), check)


@pytest.mark.parametrize("name", ["subtract", "divide", "floor_divide", "remainder", "power",
                                  "arctan2", "minimum", "fmax", "copysign", "left_shift"])
def test_ordered_accumulate(device, name):
    """Non-commutative and non-associative ufuncs fold each lane in order from its first
    element, along inner and outer axes of C and Fortran arrays."""
    for dtype in (np.uint16, np.int64, np.float32, np.float64):
        for order in ("C", "F"):
            n = np.asarray(accumulate_operand(dtype, (5, 6), seed=4), order=order)
            t = tp.array(n)  # keeps the Fortran layout
            for axis in (0, 1):
                same_outcome(lambda: getattr(np, name).accumulate(n, axis=axis),
                             lambda: getattr(tp, name).accumulate(t, axis=axis))


def test_subtract_divide_order(device):
    """The running difference and quotient start from the first element:
    [a, a - b, a - b - c, ...], never b - a or a - (b - c)."""
    for name, values, expected in (("subtract", [10, 1, 2, 3], [10, 9, 7, 4]),
                                   ("divide", [64.0, 2.0, 4.0, 8.0], [64.0, 32.0, 8.0, 1.0])):
        t, n = both(np.array(values))
        assert_exact(getattr(tp, name).accumulate(t), np.array(expected))
        assert_exact(getattr(tp, name).accumulate(t), getattr(np, name).accumulate(n))


ACCUMULATE_ERRORS = {
    "unary_negative": lambda m, x: m.negative.accumulate(x),
    "unary_sin": lambda m, x: m.sin.accumulate(x),
    "two_outputs_divmod": lambda m, x: m.divmod.accumulate(x),
    "two_outputs_modf": lambda m, x: m.modf.accumulate(x),
    "comparison_on_floats": lambda m, x: m.less.accumulate(x),
    "mixed_loop_ldexp": lambda m, x: m.ldexp.accumulate(x),
    "axis_none": lambda m, x: m.add.accumulate(x, axis=None),
    "axis_none_1d": lambda m, x: m.add.accumulate(x[0, 0], axis=None),
    "axis_tuple_of_one": lambda m, x: m.add.accumulate(x, axis=(1,)),
    "axis_tuple": lambda m, x: m.add.accumulate(x, axis=(0, 1)),
    "axis_out_of_bounds": lambda m, x: m.add.accumulate(x, axis=3),
    "axis_too_negative": lambda m, x: m.maximum.accumulate(x, axis=-4),
    "float_axis": lambda m, x: m.add.accumulate(x, axis=1.0),
    "bogus_dtype": lambda m, x: m.add.accumulate(x, dtype="bogus"),
    "out_wrong_shape": lambda m, x: m.add.accumulate(x, out=m.zeros((2, 3, 5))),
    "out_tuple": lambda m, x: m.add.accumulate(x, out=(m.zeros((2, 3, 4)),)),
    "out_two_tuple": lambda m, x: m.add.accumulate(x, out=(m.zeros((2, 3, 4)),) * 2),
    "out_read_only": lambda m, x: m.add.accumulate(
        x, out=m.broadcast_to(m.zeros((1, 3, 4)), (2, 3, 4))),
    "out_list": lambda m, x: m.add.accumulate(x, out=[0.0] * 24),
    "scalar": lambda m, x: m.add.accumulate(3.0),
}


@pytest.mark.parametrize("case", list(ACCUMULATE_ERRORS))
def test_accumulate_errors(device, case):
    """NumPy's exception type, or NumPy's result where it has one."""
    call = ACCUMULATE_ERRORS[case]
    n = sample((2, 3, 4), np.float64)
    t = tp.array(n)
    same_outcome(lambda: call(np, n), lambda: call(tp, t))


SCAN_ERRORS = {
    "axis_out_of_bounds": lambda m, x: m.cumsum(x, axis=3),
    "axis_too_negative": lambda m, x: m.cumprod(x, axis=-4),
    "tuple_axis": lambda m, x: m.cumsum(x, axis=(0, 1)),
    "float_axis": lambda m, x: m.cumsum(x, axis=1.0),
    "string_axis": lambda m, x: m.cumprod(x, axis="0"),
    "method_axis_out_of_bounds": lambda m, x: x.cumsum(axis=3),
    "cumulative_without_axis": lambda m, x: m.cumulative_sum(x),
    "cumulative_prod_without_axis": lambda m, x: m.cumulative_prod(x, include_initial=True),
    "cumulative_axis_out_of_bounds": lambda m, x: m.cumulative_sum(x, axis=3),
    "cumulative_tuple_axis": lambda m, x: m.cumulative_sum(x, axis=(0,)),
    "bogus_dtype": lambda m, x: m.cumsum(x, dtype="bogus"),
    "cumulative_bogus_dtype": lambda m, x: m.cumulative_prod(x, axis=0, dtype="bogus"),
}


@pytest.mark.parametrize("case", list(SCAN_ERRORS))
def test_scan_errors(device, case):
    call = SCAN_ERRORS[case]
    n = sample((2, 3, 4), np.float64)
    t = tp.array(n)
    same_outcome(lambda: call(np, n), lambda: call(tp, t))


# --------------------------------------------------------------------------------------------
# dtype= and out=


DTYPE_CASES = [
    ("cumsum", np.int8, np.int8), ("cumsum", np.int8, np.float32), ("cumsum", np.bool_, None),
    ("cumsum", np.bool_, np.bool_), ("cumsum", np.uint8, None), ("cumsum", np.uint8, np.int16),
    ("cumsum", np.int32, np.uint64), ("cumsum", np.float64, np.int32),
    ("cumsum", np.float16, None), ("cumsum", np.float16, np.float64),
    ("cumsum", np.float64, np.float16), ("cumsum", np.float32, "float64"),
    ("cumsum", np.complex64, np.complex128), ("cumsum", np.complex128, np.float64),
    ("cumsum", np.float64, np.complex64), ("cumprod", np.int32, np.int8),
    ("cumprod", np.uint16, None), ("cumprod", np.bool_, None), ("cumprod", np.int16, "u2"),
    ("cumprod", np.float32, np.float64), ("cumprod", np.float64, np.float32),
    ("cumprod", np.complex128, np.complex64), ("cumsum", np.float64, "bogus"),
    ("cumulative_sum", np.int8, None), ("cumulative_sum", np.int8, np.int8),
    ("cumulative_sum", np.bool_, np.bool_), ("cumulative_prod", np.float32, np.float64),
    ("cumulative_prod", np.uint8, np.float16),
    ("add", np.int8, None), ("add", np.int8, np.int8), ("add", np.bool_, None),
    ("add", np.bool_, np.bool_), ("add", np.float32, np.float64), ("add", np.int32, np.float16),
    ("multiply", np.uint8, None), ("multiply", np.int16, np.int16),
    ("maximum", np.int8, np.float64), ("maximum", np.float64, np.int32),
    ("subtract", np.uint8, np.int16), ("subtract", np.bool_, None),
    ("logical_or", np.float64, None), ("divide", np.int32, None),
    ("divide", np.int32, np.float32),
]


@pytest.mark.parametrize("case", DTYPE_CASES, ids=dtype_case_id)
def test_dtype_keyword(device, case):
    """The scan runs in dtype: the values are cast first and each step rounds (or wraps) in
    it; NumPy's error where its casting rule refuses the cast."""
    name, in_dtype, dtype = case
    n = accumulate_operand(in_dtype, (3, 4), seed=5)
    t = tp.array(n)
    for axis in (0, -1):
        same_outcome(lambda: scan(np, name, n, axis=axis, dtype=dtype),
                     lambda: scan(tp, name, t, axis=axis, dtype=dtype))


OUT_CASES = [
    # (function, input dtype, axis, out shape, out dtype)
    ("cumsum", np.float64, 0, (3, 4), np.float64),
    ("cumsum", np.float64, -1, (3, 4), np.float32),
    ("cumsum", np.float64, 1, (3, 4), np.int32),
    ("cumsum", np.int8, 0, (3, 4), np.int8),
    ("cumsum", np.int32, 0, (3, 4), np.float64),
    ("cumsum", np.complex128, 0, (3, 4), np.float64),
    ("cumsum", np.float64, None, (12,), np.float64),
    ("cumsum", np.float64, None, (3, 4), np.float64),
    ("cumsum", np.float64, 0, (12,), np.float64),
    ("cumsum", np.float64, 0, (4, 3), np.float64),
    ("cumsum", np.float32, 1, (3, 4), np.float64),
    ("cumsum", np.float16, 0, (3, 4), np.float32),
    ("cumprod", np.int16, 1, (3, 4), np.int8),
    ("cumprod", np.float32, 0, (3, 4), np.float64),
    ("cumprod", np.float64, None, (11,), np.float64),
    ("add", np.float64, 0, (3, 4), np.float64),
    ("add", np.float64, 1, (3, 4), np.int32),
    ("add", np.float64, 0, (3,), np.float64),
    ("maximum", np.int8, 1, (3, 4), np.float32),
    ("subtract", np.float64, 0, (3, 4), np.float32),
    ("subtract", np.float64, 0, (1, 4), np.float64),
]


@pytest.mark.parametrize("case", OUT_CASES, ids=lambda c: compact_id(
    (c[0], dtype_id(c[1]), c[2], c[3], dtype_id(c[4]))))
def test_out_keyword(device, case):
    """The scan lands in out (cast to its dtype) and out is returned; an out of the wrong
    shape raises ValueError."""
    name, in_dtype, axis, out_shape, out_dtype = case
    n = sample((3, 4), in_dtype)
    t = tp.array(n)
    nout, tout = np.zeros(out_shape, out_dtype), tp.zeros(out_shape, out_dtype)
    got = same_outcome(lambda: scan(np, name, n, axis=axis, out=nout),
                       lambda: scan(tp, name, t, axis=axis, out=tout))
    if got is not None:
        assert got is tout
        assert_exact(tout, nout)


OUT_VARIANTS = {
    "into_input": lambda m, x: m.cumsum(x, axis=1, out=x),
    "into_input_outer_axis": lambda m, x: m.multiply.accumulate(x, axis=0, out=x),
    "into_reversed_input": lambda m, x: m.cumsum(x, axis=0, out=x[::-1]),
    "into_transposed_input": lambda m, x: m.add.accumulate(x.T, axis=1, out=x.T),
    "into_strided_view": lambda m, x: m.cumsum(x[:, ::2], axis=1, out=x[:, 1::2]),
    "into_fortran_array": lambda m, x: m.cumprod(x, axis=1, out=m.asfortranarray(m.zeros((4, 6)))),
    "method_out": lambda m, x: x.cumsum(0, None, x),
    "method_out_wrong_shape": lambda m, x: x.cumprod(axis=1, out=m.zeros((6, 4))),
}


@pytest.mark.parametrize("variant", list(OUT_VARIANTS))
def test_out_variants(device, variant):
    """out= overlapping the input (NumPy buffers it, so each step reads the original
    values), strided and Fortran outs, the methods' out."""
    call = OUT_VARIANTS[variant]
    n = sample((4, 6), np.float64)
    t = tp.array(n)
    same_outcome(lambda: call(np, n), lambda: call(tp, t))
    assert_exact(t, n)


# --------------------------------------------------------------------------------------------
# memory layouts and the backend's two paths


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", ["cumsum", "cumprod", "maximum", "subtract", "divide"])
def test_layouts(device, name, layout):
    """Fortran, strided, reversed, broadcast and partly contiguous inputs scan as
    contiguous ones along every axis (and flattened in C order for cumsum/cumprod)."""
    for dtype in (np.bool_, np.uint16, np.int64, np.float16, np.float32, np.float64,
                  np.complex64):
        for shape in ((7,), (3, 4), (2, 3, 5), (4, 0, 3)):
            _, _, n, t = make(shape, dtype, layout)
            axes = list(range(-len(shape), len(shape)))
            for axis in axes + ([None] if name.startswith("cum") else []):
                if name == "cumprod" and n.dtype.kind == "c":
                    continue  # test_complex_products
                same_outcome(lambda: scan(np, name, n, axis=axis),
                             lambda: scan(tp, name, t, axis=axis))


PATH_SHAPES = [(6, 1100), (1100, 6), (3, 511), (3, 512), (3, 513), (2, 1025), (511, 3),
               (513, 2), (2, 3, 700), (700, 2, 3)]


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("shape", PATH_SHAPES, ids=compact_id)
def test_inner_and_outer_paths(device, shape, order):
    """The scan axis innermost in memory (rows scanned serially, in 512-element blocks that
    carry the running value) or outer (whole rows combined), for C and Fortran arrays, with
    lengths about the block size."""
    for dtype in (np.int32, np.float16, np.float32, np.float64, np.complex128):
        n = np.asarray(sample(shape, dtype, 7), order=order)
        if dtype == np.float16:
            n = n / 64  # partial sums stay finite, and round at every step
        t = tp.array(n)
        for axis in range(len(shape)):
            for name in ("cumsum", "cumprod", "maximum", "subtract"):
                if name == "cumprod" and n.dtype.kind == "c":
                    continue  # test_complex_products
                same_outcome(lambda: scan(np, name, n, axis=axis),
                             lambda: scan(tp, name, t, axis=axis))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=dtype_id)
@pytest.mark.parametrize("shape, axis", [((2,), 0), ((3,), 0), ((7,), 0), ((5, 4), 1),
                                         ((3, 600), 1), ((5, 4), 0), ((600, 3), 0)],
                         ids=compact_id)
def test_complex_products(device, shape, axis, dtype):
    """Complex running products round as NumPy's: its accumulate computes each step as
    (ac - bd) + (ad + bc)j with every product and sum rounded, which is not always what its
    vectorized elementwise np.multiply gives; along inner and outer axes, C and Fortran."""
    n = np.full(shape, 0.1 + 0.3j, dtype) * (1 + sample(shape, dtype, 2) / 100)
    for layout_n in (n, np.asfortranarray(n)):
        t = tp.array(layout_n)
        same_outcome(lambda: np.cumprod(layout_n, axis=axis), lambda: tp.cumprod(t, axis=axis))
        same_outcome(lambda: np.multiply.accumulate(layout_n, axis=axis),
                     lambda: tp.multiply.accumulate(t, axis=axis))


# --------------------------------------------------------------------------------------------
# special values


SPECIAL_FLOATS = {
    "nan_first": [NAN, 1.0, 2.0, NAN],
    "nan_middle": [1.0, NAN, 3.0, -1.0],
    "inf": [1.0, INF, -INF, 0.0],
    "inf_minus_inf": [INF, -INF, 1.0],
    "inf_times_zero": [INF, 0.0, 2.0],
    "negative_zeros": [-0.0, -0.0, -0.0],
    "zeros": [-0.0, 0.0, -0.0],
    "overflow": [6e4, 6e4, 1e300, 1e300, -1e300],
    "cancellation": [1e16, 1.0, -1e16, 1.0, 3e-8, 1e8],
    "tiny": [1e-300, 1e-300, 1e-20, -1e-300],
}
SPECIAL_COMPLEX = {
    "nan_real": [1 + 1j, complex(NAN, 0), 5 + 5j],
    "nan_imag": [1 + 1j, complex(0, NAN), 5 + 5j],
    "inf": [complex(INF, 0), complex(INF, 1), complex(-INF, 5), 2j],
    "zeros": [complex(-0.0, -0.0), complex(-0.0, 0.0), complex(0.0, -0.0)],
    "rounding": [1 + 1e-8j, 1e8 + 3j, -1e8 + 1j, 0.1 + 0.3j],
}
SPECIAL_UFUNCS = ["cumsum", "cumprod", "maximum", "minimum", "fmax", "fmin", "subtract",
                  "divide"]


def special_cases():
    with np.errstate(over="ignore"):
        for key, values in SPECIAL_FLOATS.items():
            for dtype in (np.float16, np.float32, np.float64):
                yield pytest.param(np.array(values).astype(dtype), id=f"{key}-{dtype_id(dtype)}")
        for key, values in SPECIAL_COMPLEX.items():
            for dtype in (np.complex64, np.complex128):
                yield pytest.param(np.array(values, dtype), id=f"{key}-{dtype_id(dtype)}")


@pytest.mark.parametrize("x", list(special_cases()))
def test_special_values(device, x):
    """NaN and infinities propagate as in NumPy's step-by-step loop, signed zeros keep
    their signs, overflow and cancellation round identically; as a vector and along the
    rows and columns of a matrix."""
    matrix = np.stack([x, x[::-1], np.roll(x, 1)])
    for n in (x, matrix, matrix.T):
        t = tp.array(n)
        for name in SPECIAL_UFUNCS:
            if n.dtype.kind == "c" and name in ("maximum", "minimum", "fmax", "fmin"):
                continue  # complex order: test_ufunc_accumulate
            for axis in (0, -1):
                same_outcome(lambda: scan(np, name, n, axis=axis),
                             lambda: scan(tp, name, t, axis=axis))


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if np.dtype(d).kind in "iu"],
                         ids=dtype_id)
def test_integer_wraparound(device, dtype):
    """Integer sums and products wrap in the result dtype (int64/uint64 for small types,
    the input dtype for dtype= and ufunc.accumulate of >= 64-bit types)."""
    info = np.iinfo(dtype)
    n = np.array([info.max, info.max, 1, info.min, info.max, 3, 2, info.min], dtype)
    t = tp.array(n)
    for name in ("cumsum", "cumprod", "add", "multiply", "subtract"):
        same_outcome(lambda: scan(np, name, n), lambda: scan(tp, name, t))
        same_outcome(lambda: scan(np, name, n, dtype=dtype), lambda: scan(tp, name, t, dtype=dtype))


# --------------------------------------------------------------------------------------------
# large arrays: long rows, many short rows


def long_values(dtype, size, seed=0):
    """Values of many magnitudes (every partial sum rounds differently), or, for products,
    factors near 1 (no overflow over a million steps)."""
    rng = np.random.default_rng(seed)
    d = np.dtype(dtype)
    if d.kind in "iu":
        return rng.integers(-1000, 1000, size).astype(d)
    values = rng.standard_normal(size) * np.exp(rng.uniform(-10, 10, size))
    if d.kind == "c":
        values = values + 1j * rng.standard_normal(size)
    return values.astype(d)


LONG_CASES = [("cumsum", d) for d in ("float32", "float64", "int64", "complex64", "int16")] + \
             [("maximum", "float32"), ("subtract", "float64")]


@pytest.mark.parametrize("name, dtype", LONG_CASES, ids=compact_id)
def test_long_row(device, name, dtype):
    """A row of 10**6: each partial sum rounds exactly as NumPy's serial loop rounds it."""
    n = long_values(dtype, 10**6)
    t = tp.array(n)
    same_outcome(lambda: scan(np, name, n), lambda: scan(tp, name, t))


def test_long_product(device):
    rng = np.random.default_rng(1)
    n = 1 + rng.standard_normal(10**6) * 1e-3
    t = tp.array(n)
    same_outcome(lambda: np.cumprod(n), lambda: tp.cumprod(t))
    same_outcome(lambda: np.cumprod(n.astype(np.float32)), lambda: tp.cumprod(t.astype("float32")))


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("shape, axis", [((200_000, 5), 1), ((200_000, 5), 0), ((5, 200_000), 0),
                                         ((5, 200_000), 1), ((1000, 1000), 0),
                                         ((1000, 1000), 1), ((100_000, 2, 3), 1)],
                         ids=compact_id)
def test_many_rows(device, shape, axis, order):
    """Many short scans (rows split over threads) and few long ones, along the inner and
    the outer axes of C and Fortran arrays."""
    size = math.prod(shape)
    for dtype in ("float32", "float64", "int32"):
        n = np.asarray(long_values(dtype, size).reshape(shape), order=order)
        t = tp.array(n)
        for name in ("cumsum", "maximum"):
            same_outcome(lambda: scan(np, name, n, axis=axis), lambda: scan(tp, name, t, axis=axis))


# --------------------------------------------------------------------------------------------
# pending inputs: the elementwise tree is evaluated in the scan's pass


def input_changed_after(m, x, y):
    z = m.cumsum(x * 2, axis=1)
    x[0] = 1000
    return z


def scan_pending_twice(m, x, y):
    z = x * y
    return m.cumsum(z, axis=0), m.maximum.accumulate(z, axis=1), z


PENDING = {
    "flat_cumsum": lambda m, x, y: m.cumsum(x * 2),
    "inner_cumsum": lambda m, x, y: m.cumsum(x * 2 - y, axis=1),
    "outer_cumsum": lambda m, x, y: m.cumsum(x + y, axis=0),
    "cumprod": lambda m, x, y: m.cumprod(x / 64 + 1, axis=1),
    "method": lambda m, x, y: (x - y).cumsum(0),
    "maximum": lambda m, x, y: m.maximum.accumulate(x - y, axis=0),
    "subtract": lambda m, x, y: m.subtract.accumulate(x * y, axis=1),
    "comparison": lambda m, x, y: m.cumsum(x > y, axis=1),
    "dtype": lambda m, x, y: m.cumsum(x * 3, axis=0, dtype=np.float64),
    "dtype_narrower": lambda m, x, y: m.cumsum(x * 3, axis=1, dtype=np.float16),
    "broadcast_row": lambda m, x, y: m.cumsum(x - y[0], axis=0),
    "transposed": lambda m, x, y: m.cumsum((x * y).T, axis=1),
    "cumulative": lambda m, x, y: m.cumulative_sum(x * y, axis=0, include_initial=True),
    "out": lambda m, x, y: m.cumsum(x + 1, axis=1, out=y),
    "out_is_input": lambda m, x, y: m.add.accumulate(x * y, axis=0, out=x),
    "scan_pending_twice": scan_pending_twice,
    "input_changed_after": input_changed_after,
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32], ids=dtype_id)
@pytest.mark.parametrize("program", list(PENDING))
def test_pending_inputs(device, program, dtype):
    """Scans of pending elementwise results (here of 4800 elements): NumPy's values bit for
    bit (the tree is evaluated in its own dtype before the scan casts it); the inputs keep
    the values of the time of the call."""
    call = PENDING[program]
    nx, ny = sample((80, 60), dtype, 1), sample((80, 60), dtype, 2)
    tx, ty = tp.array(nx), tp.array(ny)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = call(np, nx, ny)
    got = call(tp, tx, ty)
    expected = expected if isinstance(expected, tuple) else (expected,)
    got = got if isinstance(got, tuple) else (got,)
    for g, e in zip(got, expected, strict=True):
        assert_exact(g, e)
    assert_exact(tx, nx)
    assert_exact(ty, ny)
