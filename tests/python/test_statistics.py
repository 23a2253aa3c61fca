"""Statistics, sets, histograms and numerical functions checked against NumPy: the NaN-ignoring
reductions and scans (nansum ... nancumprod), median/quantile/percentile with every method
and their NaN-ignoring forms, average and diff, unique and its array-API forms, lexsort,
bincount, digitize, the histograms, and outer, inner, kron, cross, correlate, convolve, cov,
corrcoef, interp, gradient and trapezoid. Values, dtypes, shapes and the exception type on bad
input, over several dtypes, 0-d, empty and n-d inputs, memory layouts, and NaN and inf
placement.

Full reductions give 0-d tessera arrays where NumPy gives scalars: values and dtypes are
compared, not types. Floating results are compared within a tolerance of their dtype
(ufunc_oracle.tolerance), widened for sums whose terms cancel, since tessera sums in another
order than NumPy. NumPy's RuntimeWarnings (empty slices, division by zero) are silenced."""

import warnings

import numpy as np
import pytest

import tessera as tp

from oracle import (
    assert_refuses_host_data,
    compact_id,
    data,
    host_data_refused,
    is_host_data,
    make,
    message_of,
    refuses_host_data,
)
from test_reductions import assert_raises_same as raises_same, both, positive_nans
from ufunc_oracle import assert_close, dtype_id, outcome_like_numpy, tolerance

NAN, INF = np.nan, np.inf
# One dtype per kind and several sizes: the functions here dispatch on the kind.
DTYPES = [np.bool_, np.int8, np.uint16, np.int64, np.float16, np.float32, np.float64,
          np.complex64, np.complex128]
SHAPES = [(), (0,), (7,), (3, 4), (2, 3, 5), (4, 0, 3)]
AXES = [None, 0, -1, (0, 2)]
LAYOUTS = ["fortran", "strided", "negative", "broadcast", "transposed_negative"]


# --------------------------------------------------------------------------------------------
# helpers


def to_tessera(value):
    """value with its NumPy arrays (also inside lists and tuples) as tessera arrays."""
    if isinstance(value, np.ndarray):
        return tp.array(value)
    if isinstance(value, (list, tuple)):
        return type(value)(to_tessera(v) for v in value)
    return value


def assert_near(got, expected, exact=False, scale=0.0):
    """assert_close of each array of a (nested) tuple or list result, with an absolute
    tolerance of tolerance(dtype) * scale besides the relative one (for sums whose terms
    cancel); exact comparisons ignore the sign of NaN."""
    __tracebackhide__ = True
    if isinstance(expected, (tuple, list)):
        assert isinstance(got, (tuple, list)), f"expected a sequence, got {type(got).__name__}"
        assert len(got) == len(expected), f"{len(got)} results != {len(expected)}"
        for g, e in zip(got, expected):
            assert_near(g, e, exact, scale)
        return
    n = np.asarray(expected)
    if exact or n.dtype.kind not in "fc" or not scale:
        if isinstance(got, tp.ndarray):
            got = tp.array(positive_nans(tp.asnumpy(got)))
        assert_close(got, positive_nans(n), exact)
        return
    assert isinstance(got, tp.ndarray), f"expected tessera.ndarray, got {type(got).__name__}"
    assert (got.dtype, got.shape) == (n.dtype, n.shape), \
        f"dtype/shape {got.dtype}{got.shape} != {n.dtype}{n.shape}"
    tol = tolerance(n.dtype)
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(tp.asnumpy(got), n, rtol=tol, atol=tol * scale, equal_nan=True)


def same_outcome(np_call, tp_call, exact=False, scale=0.0):
    """tessera's result equals NumPy's (see assert_near), or both raise the same exception
    type."""
    __tracebackhide__ = True
    return outcome_like_numpy(np_call, tp_call, lambda g, e: assert_near(g, e, exact, scale),
                              raises_same)


def check(name, *args, exact=False, scale=0.0, **kwargs):
    """np.<name>(*args, **kwargs) against tp.<name> of the same arguments, the NumPy arrays
    among them given to tessera as tessera arrays."""
    __tracebackhide__ = True
    # the inputs' dtypes and shapes, which a failure's case names (caller_context)
    inputs = ", ".join(f"{a.dtype}{a.shape}"  # noqa: F841
                       for a in args if isinstance(a, np.ndarray))
    targs, tkwargs = to_tessera(args), {k: to_tessera(v) for k, v in kwargs.items()}
    return same_outcome(lambda: getattr(np, name)(*args, **kwargs),
                        lambda: getattr(tp, name)(*targs, **tkwargs), exact, scale)


def host_operands(call):
    """Marks a case of a case table whose call gives NumPy data (lists) as a data operand
    (not as a parameter such as bin edges or q): a device that refuses host data
    (oracle.refuses_host_data) refuses the call, the CPU converts the data as NumPy does."""
    call.host_operands = True
    return call


def same_case_outcome(cases, case, np_args, tp_args, exact=False, scale=0.0):
    """same_outcome of the call of a case table, cases[case](np, *np_args) against
    cases[case](tp, *tp_args); a case marked host_operands is refused where the device
    refuses host data."""
    __tracebackhide__ = True
    call = cases[case]
    if getattr(call, "host_operands", False) and host_data_refused(lambda: call(tp, *tp_args)):
        return
    same_outcome(lambda: call(np, *np_args), lambda: call(tp, *tp_args), exact, scale)


def magnitude(x):
    """The largest finite |x| (0 for none)."""
    x = np.asarray(x)
    if x.dtype.kind not in "fc":
        x = x.astype(np.float64)
    finite = np.abs(x[np.isfinite(x)])
    return float(finite.max()) if finite.size else 0.0


def scale_of(kind, x):
    """The magnitude the rounding error of a `kind` result over x is relative to: a sum that
    cancels loses relative accuracy, so its tolerance is relative to the summed terms."""
    m = magnitude(x)
    return {"sum": m * max(np.size(x), 1), "mean": m, "var": 4 * m * m,
            "std": 2 * m}.get(kind, 0.0)


def valid_axes(shape, single=False):
    """The axes of AXES that exist for `shape` (only ints and None when `single`)."""
    nd = len(shape)
    for axis in AXES:
        axes = () if axis is None else axis if isinstance(axis, tuple) else (axis,)
        if not (single and isinstance(axis, tuple)) and all(-nd <= a < nd for a in axes):
            yield axis


def with_nans(x, seed=1, fraction=0.3):
    """A copy of x with about `fraction` of its elements NaN (complex: NaN in the real part,
    the imaginary part or both); other dtypes unchanged."""
    x = np.array(x)
    if x.dtype.kind not in "fc":
        return x
    rng = np.random.default_rng(seed)
    hit = rng.random(x.shape) < fraction
    if x.dtype.kind == "f":
        x[hit] = NAN
    else:
        part = rng.integers(0, 3, x.shape)
        for k, value in enumerate((complex(NAN, 1), complex(2, NAN), complex(NAN, NAN))):
            x[hit & (part == k)] = value
    return x


def repeated(shape, dtype, seed=0):
    """Values of `dtype` with many repeats: small integers (complex: small integer parts)."""
    rng = np.random.default_rng(seed)
    v = rng.integers(-3, 4, size=shape)
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        v = v > 0
    elif dtype.kind == "u":
        v = np.abs(v)
    elif dtype.kind == "c":
        v = v + 1j * rng.integers(0, 2, size=shape)
    return np.array(v.astype(dtype))


def layout_pair(shape, dtype, layout, nans=False):
    """(tessera view, NumPy view) of the same data and memory layout (oracle.make), with NaNs
    written into both owners when asked."""
    nbase, tbase, n, t = make(shape, dtype, layout)
    if nans:
        nbase[...] = with_nans(nbase)
        tbase[...] = tp.array(nbase)
    return t, n


def case_id(case):
    """A compact id of a (name, input key, keywords) case."""
    name, key, kwargs = case
    shown = {k: (f"array{np.shape(v)}" if isinstance(v, np.ndarray) else
                 dtype_id(v) if isinstance(v, type) else v) for k, v in kwargs.items()}
    return compact_id(f"{name}-{key}-{shown}")


# --------------------------------------------------------------------------------------------
# NaN-ignoring reductions and scans


# Each reduction and what its rounding error scales with (None: no rounding, compared
# exactly; "prod": relative error only).
NAN_REDUCTIONS = {"nansum": "sum", "nanprod": "prod", "nanmax": None, "nanmin": None,
                  "nanargmax": None, "nanargmin": None, "nanmean": "mean", "nanvar": "var",
                  "nanstd": "std"}
NAN_SCANS = ["nancumsum", "nancumprod"]


def test_function_names():
    names = (list(NAN_REDUCTIONS) + NAN_SCANS + [
        "median", "quantile", "percentile", "nanmedian", "nanquantile", "nanpercentile",
        "average", "diff", "unique", "unique_values", "unique_counts", "unique_inverse",
        "unique_all", "lexsort", "bincount", "digitize", "histogram", "histogram_bin_edges",
        "histogram2d", "histogramdd", "outer", "inner", "kron", "cross", "correlate",
        "convolve", "cov", "corrcoef", "interp", "gradient", "trapezoid"])
    for name in names:
        assert callable(getattr(tp, name, None)), f"tessera.{name} is missing"


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
@pytest.mark.parametrize("name", list(NAN_REDUCTIONS))
def test_nan_reductions(device, name, dtype):
    """Every NaN reduction on every kind, with about a third of the elements NaN (all-NaN
    slices included): NumPy's values, dtypes and shapes, or its error (argmax of an all-NaN
    or empty slice, max of an empty one). Integer and boolean input has no NaN."""
    kind = NAN_REDUCTIONS[name]
    for shape in SHAPES:
        t, n = both(with_nans(data(shape, dtype)))
        for axis in valid_axes(shape, single=name in ("nanargmax", "nanargmin")):
            for keepdims in (False, True):
                same_outcome(lambda: getattr(np, name)(n, axis=axis, keepdims=keepdims),
                             lambda: getattr(tp, name)(t, axis=axis, keepdims=keepdims),
                             kind is None, scale_of(kind, n))


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
@pytest.mark.parametrize("name", NAN_SCANS)
def test_nan_scans(device, name, dtype):
    """nancumsum/nancumprod: NaN counts as 0 or 1; axis None flattens; axis 1 does not exist
    for 1-d input (AxisError). Scans run in order, as NumPy's: compared bit for bit."""
    for shape in SHAPES:
        t, n = both(with_nans(data(shape, dtype)))
        for axis in (None, 0, -1, 1):
            same_outcome(lambda: getattr(np, name)(n, axis=axis),
                         lambda: getattr(tp, name)(t, axis=axis), exact=True)


SPECIAL_VECTORS = {
    "nan_first": [NAN, 1.0, 2.0, NAN],
    "nan_last": [1.0, 5.0, -2.0, NAN],
    "all_nan": [NAN, NAN, NAN, NAN],
    "inf": [1.0, INF, -INF, 0.0],
    "inf_and_nan": [INF, NAN, -INF, INF],
    "ties": [3.0, NAN, 1.0, 3.0],
}


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex128],
                         ids=dtype_id)
@pytest.mark.parametrize("case", list(SPECIAL_VECTORS))
def test_nan_special_values(device, case, dtype):
    """NaN first, last or everywhere, infinities beside NaN, ties: as a vector, and as the rows
    and columns of a matrix (all-NaN slices: NaN, or ValueError for nanargmax/nanargmin)."""
    x = np.array(SPECIAL_VECTORS[case], dtype)
    matrix = np.stack([x, x[::-1], np.roll(x, 1)])
    for n in (x, matrix, matrix.T):
        t = tp.array(n)
        for name in list(NAN_REDUCTIONS) + NAN_SCANS:
            for axis in (None, 0, -1):
                same_outcome(lambda: getattr(np, name)(n, axis=axis),
                             lambda: getattr(tp, name)(t, axis=axis))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_nan_layouts(device, layout):
    """Fortran, strided, reversed and broadcast inputs reduce as contiguous ones."""
    for dtype in (np.int16, np.float32, np.float64):
        for shape in ((7,), (3, 4), (2, 3, 5)):
            t, n = layout_pair(shape, dtype, layout, nans=True)
            for name, kind in NAN_REDUCTIONS.items():
                for axis in valid_axes(shape, single=name in ("nanargmax", "nanargmin")):
                    same_outcome(lambda: getattr(np, name)(n, axis=axis),
                                 lambda: getattr(tp, name)(t, axis=axis),
                                 kind is None, scale_of(kind, n))
            for name in NAN_SCANS:
                same_outcome(lambda: getattr(np, name)(n, axis=0),
                             lambda: getattr(tp, name)(t, axis=0), exact=True)


def nan_matrix(dtype, seed=1):
    """A (3, 4) matrix of random values and NaNs whose column 1 is all NaN."""
    x = with_nans(data((3, 4), dtype, seed), seed)
    x[:, 1] = NAN
    return x


INPUTS = {
    "f8": nan_matrix(np.float64),
    "f4": with_nans(data((3, 4), np.float32)),
    "f2": with_nans(data((3, 4), np.float16)),
    "c16": with_nans(data((3, 4), np.complex128)),
    "i2": data((3, 4), np.int16),
    "b": data((3, 4), np.bool_),
}
MASK = data((3, 4), np.bool_, 7)
ROW_MASK = np.array([True, False, True, True])
NO_ROW = np.array([[True, False, True, False], [False] * 4, [True] * 4])  # a row all False

NAN_KEYWORD_CASES = [
    # dtype=: inexact input needs an inexact dtype for nanmean/nanvar (TypeError)
    ("nansum", "f4", {"dtype": np.float64}),
    ("nansum", "f2", {"axis": 0, "dtype": np.float32}),
    ("nansum", "i2", {"axis": 1, "dtype": np.int8}),
    ("nansum", "b", {"dtype": np.float32}),
    ("nanprod", "f4", {"axis": 1, "dtype": np.float64}),
    ("nanmean", "f2", {"dtype": np.float32}),
    ("nanmean", "f4", {"axis": 0, "dtype": np.float64}),
    ("nanmean", "i2", {"axis": 1, "dtype": np.float32}),
    ("nanmean", "c16", {"axis": 0, "dtype": np.complex64}),
    ("nanmean", "f8", {"dtype": np.int32}),
    ("nanvar", "f4", {"axis": 1, "dtype": np.float64}),
    ("nanvar", "f8", {"dtype": np.int64}),
    ("nanstd", "i2", {"axis": 0, "dtype": np.float32}),
    ("nancumsum", "f4", {"axis": 0, "dtype": np.float64}),
    ("nancumsum", "i2", {"dtype": np.int8}),
    ("nancumprod", "f2", {"axis": 1, "dtype": np.float32}),
    # ddof= and correction=: NaN where the count is at most ddof
    ("nanvar", "f8", {"axis": 0, "ddof": 1}),
    ("nanvar", "f8", {"axis": 0, "ddof": 2}),
    ("nanvar", "f8", {"axis": 1, "ddof": 3}),
    ("nanvar", "f8", {"ddof": 8}),
    ("nanstd", "c16", {"axis": 1, "ddof": 1}),
    ("nanvar", "f4", {"ddof": 1.5}),
    ("nanvar", "f8", {"axis": 1, "correction": 1}),
    ("nanstd", "f8", {"axis": 0, "ddof": 1, "keepdims": True}),
    ("nanstd", "f8", {"ddof": 1, "correction": 1}),
    ("nanvar", "i2", {"axis": 0, "ddof": 1}),
    # where=: an all-False row gives the identity, NaN for the mean, ValueError for max
    ("nansum", "f8", {"axis": 0, "where": ROW_MASK}),
    ("nansum", "f4", {"where": MASK}),
    ("nanprod", "f8", {"axis": 1, "where": NO_ROW}),
    ("nanmax", "f8", {"axis": 1, "where": NO_ROW, "initial": -INF}),
    ("nanmin", "f4", {"axis": 0, "where": ROW_MASK, "initial": 50}),
    ("nanmax", "f8", {"where": MASK}),
    ("nanmean", "f8", {"axis": 1, "where": NO_ROW}),
    ("nanmean", "f4", {"axis": 0, "where": ROW_MASK, "keepdims": True}),
    ("nanmean", "i2", {"axis": 1, "where": MASK}),
    ("nanvar", "f8", {"axis": 1, "where": MASK}),
    ("nanstd", "c16", {"axis": 0, "where": ROW_MASK, "ddof": 1}),
    # initial=
    ("nansum", "f8", {"axis": 0, "initial": 10.0}),
    ("nanprod", "f4", {"initial": 2.0}),
    ("nanmax", "f8", {"axis": 0, "initial": 100.0}),
    ("nanmin", "f8", {"axis": 1, "initial": -100.0}),
    ("nanmax", "i2", {"axis": 1, "initial": 1000}),
    # errors
    ("nanargmax", "f8", {"axis": 0}),
    ("nanargmin", "f8", {"axis": 1, "keepdims": True}),
    ("nanargmax", "f8", {"axis": (0, 1)}),
    ("nansum", "f8", {"axis": 2}),
    ("nanmean", "f4", {"axis": -3}),
    ("nanmax", "f8", {"axis": (1, 1)}),
    ("nanvar", "f8", {"axis": 1.0}),
]


@pytest.mark.parametrize("case", NAN_KEYWORD_CASES, ids=case_id)
def test_nan_keywords(device, case):
    name, key, kwargs = case
    n = INPUTS[key]
    check(name, n, scale=scale_of("var", n), **kwargs)


def test_nan_non_array_inputs(device):
    """Python lists and scalars convert as NumPy converts them. A device that refuses host
    data (oracle.refuses_host_data) refuses the lists, and computes as NumPy does once they
    are converted with tessera.asarray."""
    for value in ([1.0, NAN, 3.0], [[NAN, 2], [3, 4]], [1, 5, 2], 2.5, NAN, [True, False]):
        for name in list(NAN_REDUCTIONS) + NAN_SCANS:
            if refuses_host_data() and is_host_data(value):
                assert_refuses_host_data(lambda: getattr(tp, name)(value))
                same_outcome(lambda: getattr(np, name)(value),
                             lambda: getattr(tp, name)(tp.asarray(value)),
                             scale=scale_of("var", value))
            else:
                check(name, value, scale=scale_of("var", value))


# --------------------------------------------------------------------------------------------
# out=


OUT_CASES = [
    # (function, input key, keywords, out shape, out dtype)
    ("nansum", "f8", {"axis": 0}, (4,), np.float64),
    ("nansum", "f4", {"axis": 1}, (3,), np.float64),
    ("nansum", "f8", {}, (), np.float32),
    ("nanprod", "i2", {"axis": 0}, (4,), np.int64),
    ("nanmax", "f4", {"axis": 1, "keepdims": True}, (3, 1), np.float32),
    ("nanargmin", "f4", {"axis": 1}, (3,), np.int64),
    ("nanmean", "f8", {"axis": 0}, (4,), np.float32),
    ("nanmean", "f8", {"axis": 0}, (4,), np.int64),
    ("nanmean", "i2", {"axis": 1}, (3,), np.float32),
    ("nanvar", "f4", {"axis": 1}, (3,), np.float64),
    ("nanstd", "c16", {"axis": 0}, (4,), np.float64),
    ("nancumsum", "f8", {"axis": 1}, (3, 4), np.float64),
    ("nancumprod", "f4", {"axis": 0}, (3, 4), np.float64),
    ("median", "f4", {"axis": 0}, (4,), np.float32),
    ("median", "i2", {"axis": 1}, (3,), np.float64),
    ("median", "f8", {"axis": 0}, (5,), np.float64),
    ("nanmedian", "f8", {"axis": 0}, (4,), np.float64),
    ("quantile", "f8", {"q": [0.25, 0.75], "axis": 1}, (2, 3), np.float64),
    ("quantile", "i2", {"q": 0.5, "axis": 0, "method": "lower"}, (4,), np.int16),
    ("quantile", "f8", {"q": 0.5, "axis": 0}, (3,), np.float64),
    ("percentile", "f4", {"q": [10, 90], "axis": 0}, (2, 4), np.float32),
    ("nanquantile", "f8", {"q": 0.3, "axis": 1, "keepdims": True}, (3, 1), np.float64),
    ("nanpercentile", "f8", {"q": [50], "axis": 0}, (1, 4), np.float64),
]


@pytest.mark.parametrize("case", OUT_CASES, ids=lambda c: compact_id(
    (c[0], c[1], c[2], c[3], dtype_id(c[4]))))
def test_out_keyword(device, case):
    """The result lands in out (cast to its dtype) and out is returned; an out of the wrong
    shape or kind raises NumPy's error."""
    name, key, kwargs, out_shape, out_dtype = case
    t, n = both(INPUTS[key])
    nout, tout = np.zeros(out_shape, out_dtype), tp.zeros(out_shape, out_dtype)
    got = same_outcome(lambda: getattr(np, name)(n, out=nout, **kwargs),
                       lambda: getattr(tp, name)(t, out=tout, **kwargs),
                       scale=scale_of("var", n))
    if got is not None:
        assert got is tout
        assert_near(tout, nout, scale=scale_of("var", n))


# --------------------------------------------------------------------------------------------
# median, quantile, percentile and their NaN-ignoring forms


METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation",
           "interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased",
           "normal_unbiased", "lower", "higher", "midpoint", "nearest"]
# Scalars (Python floats keep a float16/float32 input's dtype), a list (including values
# whose virtual index is a tie for "nearest") and a 2-d q.
QS = [0.5, 0.0, 1.0, 0.3, [0.0, 0.1, 0.25, 0.5, 0.75, 1.0], [[0.2, 0.4], [0.6, 0.95]]]
PERCENTS = [0, 12.5, 25, 50, 66, 100]


@pytest.mark.parametrize("dtype", [np.int16, np.uint8, np.float16, np.float32, np.float64],
                         ids=dtype_id)
@pytest.mark.parametrize("method", METHODS)
def test_quantile_methods(device, method, dtype):
    """Every method: NumPy's values, and its dtype (the input's for the discrete methods,
    float64 for integers otherwise), over axes None, int and tuple, q of every shape;
    percentile with the same quantiles in percent."""
    for shape in ((1,), (7,), (3, 4), (2, 3, 5)):
        t, n = both(data(shape, dtype))
        for axis in valid_axes(shape):
            keepdims = isinstance(axis, tuple)
            for q in QS:
                same_outcome(
                    lambda: np.quantile(n, q, axis=axis, method=method, keepdims=keepdims),
                    lambda: tp.quantile(t, q, axis=axis, method=method, keepdims=keepdims))
            for q in (PERCENTS, 30.0):
                same_outcome(lambda: np.percentile(n, q, axis=axis, method=method),
                             lambda: tp.percentile(t, q, axis=axis, method=method))


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", ["quantile", "nanquantile", "percentile", "nanpercentile"])
def test_quantile_nans(device, name, method):
    """A NaN makes its slice's quantiles NaN; the nan forms ignore it, and give NaN for an
    all-NaN slice (column 1). Infinities interpolate as NumPy's _lerp does."""
    q = [0.0, 0.3, 0.5, 1.0] if "quantile" in name else [0, 30, 50, 100]
    for n in (nan_matrix(np.float64), np.array([-INF, 1.0, 2.0, INF, 3.0, -INF]),
              np.array([1.0, INF, INF, 2.0]), nan_matrix(np.float32, 2).T):
        t = tp.array(n)
        for axis in (None, 0, -1, (0, 1))[:n.ndim + 2]:
            same_outcome(lambda: getattr(np, name)(n, q, axis=axis, method=method),
                         lambda: getattr(tp, name)(t, q, axis=axis, method=method))
        same_outcome(lambda: getattr(np, name)(n, q[2], method=method, keepdims=True),
                     lambda: getattr(tp, name)(t, q[2], method=method, keepdims=True))


@pytest.mark.parametrize("shape", SHAPES, ids=compact_id)
@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
@pytest.mark.parametrize("name", ["median", "nanmedian"])
def test_median(device, name, dtype, shape):
    """median/nanmedian on every kind (complex values ordered lexicographically; booleans
    averaged as floats), 0-d and empty input (NaN, or an empty result), with NaNs, axes and
    keepdims."""
    t, n = both(with_nans(data(shape, dtype)))
    for axis in valid_axes(shape):
        for keepdims in (False, True):
            same_outcome(lambda: getattr(np, name)(n, axis=axis, keepdims=keepdims),
                         lambda: getattr(tp, name)(t, axis=axis, keepdims=keepdims))


@pytest.mark.parametrize("case", list(SPECIAL_VECTORS))
@pytest.mark.parametrize("name", ["median", "nanmedian", "quantile", "nanquantile"])
def test_order_statistics_special_values(device, name, case):
    """NaN placement and infinities (a middle pair of equal infinities: median and nanmedian
    average them to inf, quantile's interpolation gives NaN as NumPy's _lerp), as a vector
    and as the rows and columns of a matrix."""
    x = np.array(SPECIAL_VECTORS[case])
    matrix = np.stack([x, x[::-1], np.roll(x, 1)])
    args = () if "median" in name else ([0.0, 0.5, 0.7, 1.0],)
    for n in (x, matrix, matrix.T):
        t = tp.array(n)
        for axis in (None, 0, -1):
            same_outcome(lambda: getattr(np, name)(n, *args, axis=axis),
                         lambda: getattr(tp, name)(t, *args, axis=axis))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_quantile_layouts(device, layout):
    """Strided, reversed and broadcast inputs (with NaNs) sort as contiguous ones."""
    for dtype in (np.int16, np.float64):
        for shape in ((7,), (3, 4), (2, 3, 5)):
            t, n = layout_pair(shape, dtype, layout, nans=True)
            for axis in valid_axes(shape):
                for name, q in (("median", None), ("nanmedian", None), ("quantile", [0.2, 0.7]),
                                ("nanpercentile", 40.0), ("nanquantile", [0.1, 0.9])):
                    args = () if q is None else (q,)
                    same_outcome(lambda: getattr(np, name)(n, *args, axis=axis),
                                 lambda: getattr(tp, name)(t, *args, axis=axis))


X34 = data((3, 4), np.float64)
QUANTILE_ERRORS = {
    "q_below": lambda m, x: m.quantile(x, -0.1),
    "q_above": lambda m, x: m.quantile(x, 1.5),
    "q_list_above": lambda m, x: m.quantile(x, [0.5, 2.0]),
    "q_nan": lambda m, x: m.quantile(x, NAN),
    "percentile_above": lambda m, x: m.percentile(x, 101),
    "nanpercentile_below": lambda m, x: m.nanpercentile(x, -1),
    "nanquantile_above": lambda m, x: m.nanquantile(x, [0.1, 1.01]),
    "complex_quantile": lambda m, x: m.quantile(x.astype(complex), 0.5),
    "complex_percentile": lambda m, x: m.percentile(x.astype(complex), 50),
    "complex_nanquantile": lambda m, x: m.nanquantile(x.astype(complex), 0.5),
    "complex_nanpercentile": lambda m, x: m.nanpercentile(x.astype(complex), 50),
    "bad_method": lambda m, x: m.quantile(x, 0.5, method="bogus"),
    "axis_out_of_range": lambda m, x: m.quantile(x, 0.5, axis=2),
    "median_axis_out_of_range": lambda m, x: m.median(x, axis=-3),
    "nanmedian_tuple_out_of_range": lambda m, x: m.nanmedian(x, axis=(0, 2)),
    "duplicate_axis": lambda m, x: m.quantile(x, 0.5, axis=(0, 0)),
    "median_duplicate_axis": lambda m, x: m.median(x, axis=(1, -1)),
    "bool_linear": lambda m, x: m.quantile(x > 0, 0.5),
    "bool_lower": lambda m, x: m.quantile(x > 0, [0.2, 0.8], method="lower", axis=0),
    "empty": lambda m, x: m.quantile(x[:0], 0.5),
    "empty_axis": lambda m, x: m.quantile(x[:0], 0.5, axis=0),
    "nanquantile_empty_axis": lambda m, x: m.nanquantile(x[:0], 0.5, axis=0),
    "median_empty_axis": lambda m, x: m.median(x[:0], axis=0),
    "nanmedian_empty_axis": lambda m, x: m.nanmedian(x[:, :0], axis=1),
    "q_tessera_array": lambda m, x: m.quantile(x, m.asarray([0.25, 0.5]), axis=1),
    # q.ndim > 1 with the nan forms: int axes only (over a tuple of axes NumPy 2.4 moves the
    # wrong axes to the front, a NumPy bug)
    "nanquantile_2d_q": lambda m, x: m.nanquantile(x, [[0.1], [0.9]], axis=1),
    "nanpercentile_2d_q": lambda m, x: m.nanpercentile(x, [[10, 20, 30]], axis=0),
    "list_input": host_operands(lambda m, x: m.percentile([[1, 2, 3], [4, 5, 7]], 40, axis=1)),
}


@pytest.mark.parametrize("case", list(QUANTILE_ERRORS))
def test_quantile_edge_cases(device, case):
    """NumPy's error (q out of range, complex input, bad method or axis), or its result for
    booleans, empty input and other argument forms."""
    t, n = both(X34)
    same_case_outcome(QUANTILE_ERRORS, case, (n,), (t,))


# --------------------------------------------------------------------------------------------
# average and diff


def positive_weights(shape, dtype=np.float64, seed=2):
    """Weights of `dtype` in [1, 4] (never summing to zero)."""
    return (np.abs(data(shape, np.int16, seed)) % 4 + 1).astype(dtype)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.int64, np.float16, np.float32,
                                   np.float64, np.complex64], ids=dtype_id)
def test_average(device, dtype):
    """Unweighted and weighted (same-shape weights) averages over the axes, with keepdims and
    returned (the sum of the weights, or the count, broadcast to the result's shape)."""
    for shape in ((), (0,), (7,), (3, 4), (2, 3, 5)):
        t, n = both(data(shape, dtype))
        w = positive_weights(shape)
        for axis in valid_axes(shape):
            for weights in (None, w):
                for keepdims, returned in ((False, False), (True, True), (False, True)):
                    check("average", n, axis=axis, weights=weights, keepdims=keepdims,
                          returned=returned, scale=scale_of("mean", n))


AVERAGE_CASES = [
    # (input shape, input dtype, axis, weights shape, weights dtype)
    ((2, 3, 5), np.float32, 0, (2,), np.float32),
    ((2, 3, 5), np.float32, -1, (5,), np.int64),
    ((2, 3, 5), np.int16, 1, (3,), np.int32),
    ((2, 3, 5), np.float64, (0, 2), (2, 5), np.float64),
    ((2, 3, 5), np.float64, (2, 0), (5, 2), np.float64),
    ((2, 3, 5), np.float16, (1, 2), (3, 5), np.float16),
    ((3, 4), np.complex128, 1, (4,), np.float64),
    ((3, 4), np.float64, 0, (3,), np.complex64),
    ((3, 4), np.int8, 0, (3, 4), np.bool_),
    ((7,), np.uint16, 0, (7,), np.uint8),
]


@pytest.mark.parametrize("case", AVERAGE_CASES, ids=lambda c: compact_id(
    (c[0], dtype_id(c[1]), c[2], c[3], dtype_id(c[4]))))
def test_average_weights_along_axes(device, case):
    """Weights shaped like the reduced axes (in the order given) and their promotion."""
    shape, dtype, axis, wshape, wdtype = case
    n, w = data(shape, dtype), positive_weights(wshape, wdtype)
    for keepdims in (False, True):
        check("average", n, axis=axis, weights=w, returned=True, keepdims=keepdims,
              scale=scale_of("mean", n))


AVERAGE_ERRORS = {
    "zero_weights": lambda m, x: m.average(x, weights=m.zeros((3, 4))),
    "zero_weights_along_axis": lambda m, x: m.average(x, axis=1, weights=m.zeros(4)),
    "weights_cancel": lambda m, x: m.average(x, axis=0, weights=m.asarray([1.0, -1.0, 0.0])),
    "shapes_differ_no_axis": lambda m, x: m.average(x, weights=m.ones(4)),
    "wrong_length": lambda m, x: m.average(x, axis=0, weights=m.ones(4)),
    "wrong_2d_weights": lambda m, x: m.average(x, axis=1, weights=m.ones((4, 3))),
    "axis_out_of_range": lambda m, x: m.average(x, axis=2),
    "empty_weights": lambda m, x: m.average(x[:0], weights=x[:0]),
    "empty": lambda m, x: m.average(x[:, :0], axis=1),
    "list_input": host_operands(lambda m, x: m.average([[1, 2], [3, 4]], axis=0, weights=[1, 3])),
}


@pytest.mark.parametrize("case", list(AVERAGE_ERRORS))
def test_average_errors(device, case):
    """Weights summing to zero (ZeroDivisionError), mismatched shapes; NumPy's value for
    empty input and lists."""
    t, n = both(X34)
    same_case_outcome(AVERAGE_ERRORS, case, (n,), (t,), scale=scale_of("mean", n))


@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int16, np.float16, np.float32,
                                   np.complex64], ids=dtype_id)
def test_diff(device, dtype):
    """n-th differences along each axis: unsigned values wrap, booleans give not_equal, n
    beyond the length an empty result, n=0 the input."""
    for shape in ((7,), (3, 4), (2, 3, 5), (0,), (4, 0, 3)):
        t, n = both(data(shape, dtype))
        for axis in (0, -1, 1):
            for order in (0, 1, 2, 5):
                check("diff", n, order, axis, exact=True)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_average_diff_layouts(device, layout):
    """Strided, reversed and broadcast inputs (and weights) as contiguous ones."""
    for dtype in (np.int16, np.float64):
        for shape in ((7,), (3, 4), (2, 3, 5)):
            t, n = layout_pair(shape, dtype, layout)
            tw, nw = layout_pair(shape, np.float32, layout)
            for axis in range(-len(shape), len(shape)):
                same_outcome(lambda: np.diff(n, 2, axis), lambda: tp.diff(t, 2, axis),
                             exact=True)
                same_outcome(lambda: np.average(n, axis, nw, returned=True),
                             lambda: tp.average(t, axis, tw, returned=True),
                             scale=scale_of("mean", n))


DIFF_CASES = {
    "prepend_scalar": lambda m, x: m.diff(x, prepend=0),
    "append_float_scalar": lambda m, x: m.diff(x, append=2.5),
    "both_arrays": lambda m, x: m.diff(x, axis=0, prepend=x[:1], append=x[-1:] * 2),
    "prepend_column": lambda m, x: m.diff(x, axis=1, prepend=m.zeros((3, 1), np.int64)),
    "prepend_wrong_shape": lambda m, x: m.diff(x, axis=0, prepend=m.zeros((1, 3))),
    "prepend_wrong_ndim": lambda m, x: m.diff(x, prepend=m.zeros(3)),
    "n2_with_append": lambda m, x: m.diff(x, n=2, append=x[:, :2]),
    "negative_n": lambda m, x: m.diff(x, n=-1),
    "zero_d": lambda m, x: m.diff(x[0, 0]),
    "axis_out_of_range": lambda m, x: m.diff(x, axis=2),
    "bool_n2": lambda m, x: m.diff(x > 0, n=2),
    "bool_prepend": lambda m, x: m.diff(x > 0, prepend=True),
    "long_n": lambda m, x: m.diff(x, n=6, axis=0),
    "list_input": host_operands(lambda m, x: m.diff([1, 4, 9, 16])),
}


@pytest.mark.parametrize("case", list(DIFF_CASES))
def test_diff_cases(device, case):
    """prepend/append (scalars broadcast along the axis, arrays concatenated) and errors."""
    t, n = both(data((3, 4), np.int32))
    same_case_outcome(DIFF_CASES, case, (n,), (t,), exact=True)


# --------------------------------------------------------------------------------------------
# unique, unique_values/counts/inverse/all, lexsort


FLAGS = [(i, v, c) for i in (False, True) for v in (False, True) for c in (False, True)]


def unique_call(m, x, flags, **kwargs):
    index, inverse, counts = flags
    return m.unique(x, return_index=index, return_inverse=inverse, return_counts=counts,
                    **kwargs)


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
def test_unique(device, dtype):
    """The sorted unique values, first-occurrence indices, inverse of the input's shape and
    counts, for every combination of the flags."""
    for shape in SHAPES:
        t, n = both(repeated(shape, dtype))
        for flags in FLAGS:
            same_outcome(lambda: unique_call(np, n, flags), lambda: unique_call(tp, t, flags),
                         exact=True)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float32, np.complex128], ids=dtype_id)
def test_unique_axis(device, dtype):
    """Unique slices along an axis, ordered lexicographically; empty axes and slices."""
    for shape in ((8, 2), (3, 7), (4, 2, 3), (0, 3), (3, 0)):
        t, n = both(repeated(shape, dtype))
        for axis in range(-len(shape), len(shape)):
            for flags in FLAGS:
                same_outcome(lambda: unique_call(np, n, flags, axis=axis),
                             lambda: unique_call(tp, t, flags, axis=axis), exact=True)


UNIQUE_SPECIAL = {
    "nans": [NAN, 1.0, NAN, -INF, 2.0, NAN, INF, 1.0],
    "all_nan": [NAN, NAN],
    "complex_nans": [complex(NAN, 0), 1j, complex(0, NAN), complex(NAN, NAN), 1j,
                     complex(NAN, 0)],
    "signed_zeros": [0.0, -0.0, 1.0, -0.0, 0.0],
    "negative_zero_first": [-0.0, 0.0, 2.0],
}


@pytest.mark.parametrize("equal_nan", [True, False])
@pytest.mark.parametrize("case", list(UNIQUE_SPECIAL))
def test_unique_special_values(device, case, equal_nan):
    """NaNs are one value with equal_nan (the first NaN's index), each their own without;
    -0.0 equals 0.0, and the first occurrence's sign is kept when indices are asked for
    (NumPy then sorts stably)."""
    t, n = both(np.array(UNIQUE_SPECIAL[case]))
    for flags in FLAGS:
        if "zero" in case and not flags[0]:
            continue  # without indices NumPy's (unstable) sort may keep either zero
        same_outcome(lambda: unique_call(np, n, flags, equal_nan=equal_nan),
                     lambda: unique_call(tp, t, flags, equal_nan=equal_nan), exact=True)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_unique_layouts(device, layout):
    """Strided, reversed and broadcast inputs (values 0..2, many repeats)."""
    for shape in ((7,), (3, 4), (2, 3, 5)):
        nbase, tbase, n, t = make(shape, np.int16, layout)
        nbase %= 3
        tbase[...] = tp.array(nbase)
        for axis in (None, 0):
            same_outcome(lambda: unique_call(np, n, (True, True, True), axis=axis),
                         lambda: unique_call(tp, t, (True, True, True), axis=axis),
                         exact=True)


UNIQUE_ERRORS = {
    "axis_out_of_range": lambda m, x: m.unique(x, axis=2),
    "negative_axis_out_of_range": lambda m, x: m.unique(x, axis=-3),
    "float_axis": lambda m, x: m.unique(x, axis=1.0),
    "zero_d_axis": lambda m, x: m.unique(x[0, 0], axis=0),
    "list_input": host_operands(lambda m, x: m.unique([3, 1, 3, 2], return_counts=True)),
}


@pytest.mark.parametrize("case", list(UNIQUE_ERRORS))
def test_unique_errors(device, case):
    t, n = both(repeated((3, 4), np.int32))
    same_case_outcome(UNIQUE_ERRORS, case, (n,), (t,), exact=True)


def by_value(fields):
    """The NumPy arrays of a unique_* result ordered by value (NaN last), then by index
    where there are indices: NumPy does not promise the order of the array-API forms."""
    values = fields["values"]
    keys = (fields["indices"], values) if "indices" in fields else (values,)
    order = np.lexsort(keys)
    return {k: v[order] for k, v in fields.items() if k != "inverse_indices"}


def assert_same_unordered(got, expected, x):
    """A unique_* result: the fields, dtypes and shapes of NumPy's; the same values (and
    indices and counts) in any order; indices point at their values and the inverse rebuilds
    x."""
    __tracebackhide__ = True
    if isinstance(expected, np.ndarray):  # unique_values
        got, expected = (got,), (expected,)
        names = ("values",)
    else:
        names = expected._fields
        assert getattr(got, "_fields", None) == names, f"fields {got!r} != {names}"
    g = {k: tp.asnumpy(v) for k, v in zip(names, got)}
    e = {k: np.asarray(v) for k, v in zip(names, expected)}
    for k in names:
        assert (g[k].dtype, g[k].shape) == (e[k].dtype, e[k].shape), \
            f"{k}: {g[k].dtype}{g[k].shape} != {e[k].dtype}{e[k].shape}"
    for k, gv in by_value(g).items():
        assert np.array_equal(gv, by_value(e)[k], equal_nan=True), \
            f"{k} differ:\n{gv}\n!=\n{by_value(e)[k]}"
    if "indices" in g:
        assert np.array_equal(x.ravel()[g["indices"]], g["values"], equal_nan=True)
    if "inverse_indices" in g:
        assert np.array_equal(g["values"][g["inverse_indices"]], x, equal_nan=True)


UNORDERED_INPUTS = {
    "ints": repeated((12,), np.int16),
    "floats_2d": repeated((3, 5), np.float64, 1).astype(np.float64) / 2,
    "nans": np.array([NAN, 1.0, NAN, 3.0, 1.0, INF, NAN]),
    "float16": repeated((9,), np.float16),
    "complex": repeated((10,), np.complex64),
    "bools": repeated((5,), np.bool_),
    "zero_d": np.array(2.5),
    "empty": np.zeros((0, 2), np.uint8),
}


@pytest.mark.parametrize("key", list(UNORDERED_INPUTS))
@pytest.mark.parametrize("name", ["unique_values", "unique_counts", "unique_inverse",
                                  "unique_all"])
def test_unique_array_api(device, name, key):
    """The array-API forms: each NaN is its own value; results compared as sets."""
    x = UNORDERED_INPUTS[key]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = getattr(np, name)(x)
    assert_same_unordered(getattr(tp, name)(tp.array(x)), expected, x)


LEXSORT_KEYS = {
    "one_int": (repeated((9,), np.int16),),
    "two_with_ties": (repeated((12,), np.int8, 1), repeated((12,), np.int8, 2)),
    "float_nan_inf": (np.array([1.0, NAN, -INF, 1.0, INF, NAN, 0.0]),
                      np.array([2, 1, 1, 2, 0, 1, 2])),
    "signed_zeros": (np.array([0.0, -0.0, 0.0, -0.0]),),
    "mixed_kinds": (repeated((10,), np.bool_, 3), repeated((10,), np.float16, 4),
                    repeated((10,), np.uint64, 5)),
    "complex": (repeated((8,), np.complex128, 6),),
    "three_keys": tuple(repeated((15,), np.int32, s) for s in (7, 8, 9)),
    "empty": (np.zeros(0), np.zeros(0, np.int64)),
}


@pytest.mark.parametrize("case", list(LEXSORT_KEYS))
def test_lexsort(device, case):
    """The last key sorts first; ties keep their order (stable); NaN sorts last; keys as a
    tuple, a list and, for one dtype, a 2-d array of rows; reversed views."""
    keys = LEXSORT_KEYS[case]
    check("lexsort", keys, exact=True)
    check("lexsort", list(keys), exact=True)
    if len({k.dtype for k in keys}) == 1:
        check("lexsort", np.stack(keys), exact=True)
    t_keys = tuple(tp.array(k)[::-1] for k in keys)
    same_outcome(lambda: np.lexsort(tuple(k[::-1] for k in keys)),
                 lambda: tp.lexsort(t_keys), exact=True)


LEXSORT_CASES = {
    "nd_last_axis": lambda m, k: m.lexsort(k),
    "nd_axis_0": lambda m, k: m.lexsort(k, axis=0),
    "nd_axis_1": lambda m, k: m.lexsort(k, axis=1),
    "nd_keys_tuple": lambda m, k: m.lexsort((k[0], k[1]), axis=0),
    "axis_out_of_range": lambda m, k: m.lexsort(k, axis=2),
    "no_keys": lambda m, k: m.lexsort(()),
    "zero_d_keys": lambda m, k: m.lexsort(k[0, 0, 0]),
    "zero_d_key_tuple": lambda m, k: m.lexsort((k[0, 0, 0], k[1, 0, 0])),
    "shapes_differ": lambda m, k: m.lexsort((k[0, 0], k[1, 0, :3])),
}


@pytest.mark.parametrize("case", list(LEXSORT_CASES))
def test_lexsort_cases(device, case):
    """n-d keys sorted along an axis, and NumPy's errors."""
    call = LEXSORT_CASES[case]
    t, n = both(repeated((2, 3, 4), np.int16, 1))
    same_outcome(lambda: call(np, n), lambda: call(tp, t), exact=True)


# --------------------------------------------------------------------------------------------
# bincount and digitize


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int32, np.int64, np.uint64],
                         ids=dtype_id)
def test_bincount(device, dtype):
    """Counts, or sums of weights (float64 whatever the weights' dtype), with minlength below
    and beyond the largest value; reversed input."""
    x = np.abs(repeated((20,), dtype)).astype(dtype)
    for n in (x, x[::-3]):
        for minlength in (0, 3, 12):
            check("bincount", n, minlength=minlength, exact=True)
            for wdtype in (np.float32, np.float64, np.int16, np.bool_):
                weights = data(n.shape, wdtype, 3)
                check("bincount", n, weights, minlength=minlength)


BINCOUNT_CASES = {
    "negative": lambda m: m.bincount(m.asarray([1, -1, 2])),
    "float_input": lambda m: m.bincount(m.asarray([1.0, 2.0])),
    "empty": lambda m: m.bincount(m.asarray([], dtype=np.int64), minlength=4),
    "empty_with_weights": lambda m: m.bincount(m.asarray([], dtype=np.int64),
                                               weights=m.asarray([]), minlength=2),
    "empty_float": lambda m: m.bincount(m.asarray([], dtype=np.float64)),
    "two_d": lambda m: m.bincount(m.ones((2, 2), np.int64)),
    "zero_d": lambda m: m.bincount(m.asarray(3)),
    "negative_minlength": lambda m: m.bincount(m.asarray([1, 2]), minlength=-1),
    "weights_length": lambda m: m.bincount(m.asarray([1, 2]), weights=m.ones(3)),
    "complex_weights": lambda m: m.bincount(m.asarray([1, 2]), weights=m.asarray([1j, 2])),
    "list_input": host_operands(lambda m: m.bincount([0, 3, 3, 1], weights=[0.5, 1, 2, 4])),
}


@pytest.mark.parametrize("case", list(BINCOUNT_CASES))
def test_bincount_cases(device, case):
    same_case_outcome(BINCOUNT_CASES, case, (), ())


DIGITIZE_BINS = {
    "increasing": np.array([-5.0, 0.0, 0.5, 3.0, 10.0]),
    "with_repeats": np.array([-2.0, 0.0, 0.0, 1.0, 1.0, 4.0]),
    "decreasing": np.array([10.0, 3.0, 0.5, 0.0, -5.0]),
    "decreasing_repeats": np.array([4.0, 1.0, 1.0, 0.0, -2.0]),
    "single": np.array([0.5]),
    "empty": np.zeros(0),
    "integers": np.array([-3, 0, 2, 7]),
    "infinite_ends": np.array([-INF, 0.0, INF]),
}


@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("bins", list(DIGITIZE_BINS))
def test_digitize(device, bins, right):
    """Bin indices of n-d x (values on the edges, NaN and infinities included) for increasing
    and decreasing bins, with right= on both sides."""
    b = DIGITIZE_BINS[bins]
    floats = np.array([[-10.0, -5.0, 0.0, 0.25, 0.5, 1.0], [3.0, 4.0, 10.0, 20.0, NAN, -INF]])
    for x in (floats, floats.T[::-1], floats.astype(np.float32), np.arange(-4, 9, dtype=np.int8),
              np.array(0.5), np.zeros(0)):
        check("digitize", x, b, right=right, exact=True)


DIGITIZE_CASES = {
    "not_monotonic": lambda m: m.digitize(m.asarray([1.0]), m.asarray([0.0, 2.0, 1.0])),
    "complex_x": lambda m: m.digitize(m.asarray([1j]), m.asarray([0.0, 1.0])),
    "two_d_bins": lambda m: m.digitize(m.asarray([1.0]), m.ones((2, 2))),
    "zero_d_bins": lambda m: m.digitize(m.asarray([1.0]), m.asarray(1.0)),
    "list_input": host_operands(
        lambda m: m.digitize([0.2, 6.4, 3.0, 1.6], [0.0, 1.0, 2.5, 4.0, 10.0])),
    "uint_x_negative_bins": lambda m: m.digitize(m.asarray([0, 3, 200], np.uint8),
                                                 m.asarray([-1, 2, 100])),
}


@pytest.mark.parametrize("case", list(DIGITIZE_CASES))
def test_digitize_cases(device, case):
    same_case_outcome(DIGITIZE_CASES, case, (), (), exact=True)


# --------------------------------------------------------------------------------------------
# histograms


def histogram_data(dtype, size=50, seed=0):
    """Normal values of `dtype` (integers of the same spread)."""
    return data((size,), dtype, seed)


EDGES_UNEVEN = np.array([-20.0, -3.0, 0.0, 0.5, 8.0, 30.0])
HISTOGRAM_BINS = [1, 5, 10, [-10, 0, 10], EDGES_UNEVEN, EDGES_UNEVEN.astype(np.float32),
                  np.array([0.0, 0.0, 1.0, 5.0])]


@pytest.mark.parametrize("dtype", [np.int16, np.uint8, np.float32, np.float64], ids=dtype_id)
@pytest.mark.parametrize("bins", HISTOGRAM_BINS, ids=compact_id)
def test_histogram(device, bins, dtype):
    """Counts and edges of uniform bins (the edges' dtype from the data's) and of given edges
    (values on an edge go right, on the last edge into the last bin, outside nowhere), with
    range=, density= and weights; n-d data is flattened."""
    x = histogram_data(dtype)
    w = data(x.shape, np.float64, 5)
    for n in (x, x.reshape(5, 10)[::-1, ::2]):
        wn = w[:n.size].reshape(n.shape)
        for range_ in (None, (-5, 5)):
            for density in (None, True):
                check("histogram", n, bins, range=range_, density=density)
                check("histogram", n, bins, range=range_, density=density, weights=wn)


BIN_RULES = ["auto", "fd", "doane", "scott", "rice", "sturges", "sqrt"]
RULE_DATA = {
    "normal_1000": data((1000,), np.float64, 1),
    "normal_float32": data((200,), np.float32, 2),
    "small_ints": np.abs(data((500,), np.int16, 3)) % 6,
    "ints": data((300,), np.int64, 4),
    "one": np.array([2.5]),
    "two": np.array([1.0, 3.0]),
    "constant": np.full(10, 3.0),
    "ties_iqr_zero": np.array([0.0] * 10 + [1.0, 5.0]),
    "empty": np.zeros(0),
}


@pytest.mark.parametrize("rule", BIN_RULES)
@pytest.mark.parametrize("key", list(RULE_DATA))
def test_histogram_bin_rules(device, key, rule):
    """NumPy's bin-width estimators: the same number of bins and edges (integers: width at
    least 1), with and without a range that leaves data out."""
    x = RULE_DATA[key]
    for range_ in (None, (0.0, 4.0)):
        check("histogram_bin_edges", x, rule, range=range_)
        check("histogram", x, rule, range=range_)


HISTOGRAM_CASES = {
    "zero_bins": lambda m, x: m.histogram(x, 0),
    "float_bins": lambda m, x: m.histogram(x, 2.5),
    "decreasing_edges": lambda m, x: m.histogram(x, [0.0, 2.0, 1.0]),
    "two_d_edges": lambda m, x: m.histogram(x, m.ones((2, 2))),
    "range_reversed": lambda m, x: m.histogram(x, 3, range=(2, 1)),
    "range_infinite": lambda m, x: m.histogram(x, 3, range=(0, INF)),
    "range_nan": lambda m, x: m.histogram(x, 3, range=(NAN, 1)),
    "data_nan": lambda m, x: m.histogram(m.where(x > 0, NAN, x)),
    "data_inf": lambda m, x: m.histogram(m.where(x > 5, INF, x)),
    "data_nan_with_range": lambda m, x: m.histogram(m.where(x > 0, NAN, x), 4, range=(-3, 0)),
    "unknown_rule": lambda m, x: m.histogram(x, "bogus"),
    "rule_with_weights": lambda m, x: m.histogram(x, "auto", weights=x),
    "weights_shape": lambda m, x: m.histogram(x, 3, weights=x[:3]),
    "equal_range": lambda m, x: m.histogram(x, 4, range=(2, 2)),
    "empty": lambda m, x: m.histogram(x[:0], 3),
    "empty_edges": lambda m, x: m.histogram(x[:0], [0.0, 1.0, 2.0]),
    "constant": lambda m, x: m.histogram(m.ones_like(x), 4),
    "bool_data": lambda m, x: m.histogram(x > 0, 2),
    "int_weights": lambda m, x: m.histogram(x, 4, weights=m.ones(x.shape, np.int32)),
    "complex_weights": lambda m, x: m.histogram(x, 4, weights=x * 1j),
    "density_false": lambda m, x: m.histogram(x, 4, density=False),
    "list_input": host_operands(lambda m, x: m.histogram([1, 2, 2, 3, 5], bins=[0, 2, 4, 6])),
    "bin_edges_of_edges": lambda m, x: m.histogram_bin_edges(x, [0.0, 1.0, 3.0]),
    "bin_edges_count_range": lambda m, x: m.histogram_bin_edges(x, 4, range=(-1, 3)),
}


@pytest.mark.parametrize("case", list(HISTOGRAM_CASES))
def test_histogram_cases(device, case):
    """NumPy's errors (bad bins and ranges, non-finite data without a range, weights with a
    rule) and its results for the other argument forms."""
    t, n = both(histogram_data(np.float64, 30, 7))
    same_case_outcome(HISTOGRAM_CASES, case, (n,), (t,))


HISTOGRAM2D_BINS = [5, [3, 4], [[-10.0, 0.0, 10.0], [-20.0, -1.0, 1.0, 20.0]],
                    np.array([-30.0, -5.0, 0.0, 5.0, 30.0])]


@pytest.mark.parametrize("bins", HISTOGRAM2D_BINS, ids=compact_id)
def test_histogram2d(device, bins):
    """Counts (float64) and both edge arrays, for counts, per-axis counts, per-axis edges and
    shared edges; range=, density= and weights."""
    x, y = data((40,), np.float64, 1), data((40,), np.float32, 2)
    w = data((40,), np.float64, 3)
    for range_ in (None, [[-5, 5], [-10, 10]]):
        for density in (None, True):
            for weights in (None, w):
                check("histogram2d", x, y, bins, range=range_, density=density,
                      weights=weights)


HISTOGRAMDD_CASES = {
    "ints_per_axis": lambda m, s: m.histogramdd(s, bins=(2, 3, 4)),
    "one_count": lambda m, s: m.histogramdd(s, bins=3),
    "edges": lambda m, s: m.histogramdd(s, bins=[[-9, 0, 9], [-30, 30], [-5, 0, 1, 5]]),
    "range": lambda m, s: m.histogramdd(s, bins=2, range=[(-5, 5), (0, 10), (-1, 1)]),
    "density": lambda m, s: m.histogramdd(s, bins=(3, 2, 2), density=True),
    "weights": lambda m, s: m.histogramdd(s, bins=2, weights=s[:, 0]),
    "weights_density": lambda m, s: m.histogramdd(s, bins=3, weights=m.abs(s[:, 1]),
                                                  density=True),
    "one_dimension": lambda m, s: m.histogramdd(s[:, 0], bins=4),
    "list_of_columns": lambda m, s: m.histogramdd([s[:, 0], s[:, 1]], bins=3),
    "float32_sample": lambda m, s: m.histogramdd(s.astype(np.float32), bins=3),
    "strided_sample": lambda m, s: m.histogramdd(s[::-2, ::2], bins=3),
    "empty_sample": lambda m, s: m.histogramdd(s[:0], bins=2),
    "bins_count_mismatch": lambda m, s: m.histogramdd(s, bins=(2, 3)),
    "range_count_mismatch": lambda m, s: m.histogramdd(s, range=[(0, 1)]),
    "zero_bins": lambda m, s: m.histogramdd(s, bins=0),
    "decreasing_edges": lambda m, s: m.histogramdd(s[:, :1], bins=[[1.0, 0.0]]),
    "histogram2d_length_mismatch": lambda m, s: m.histogram2d(s[:, 0], s[:5, 1]),
}


@pytest.mark.parametrize("case", list(HISTOGRAMDD_CASES))
def test_histogramdd(device, case):
    """Counts over a grid (float64) and the edges of each dimension; NumPy's errors."""
    call = HISTOGRAMDD_CASES[case]
    t, n = both(data((30, 3), np.float64, 4))
    same_outcome(lambda: call(np, n), lambda: call(tp, t))


# --------------------------------------------------------------------------------------------
# outer, inner, kron, cross


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.float16, np.float32,
                                   np.complex64], ids=dtype_id)
def test_outer_kron(device, dtype):
    """outer (inputs flattened) and kron (blocks), over 0-d, empty, 1-d and n-d shapes."""
    for sa, sb in (((), (3,)), ((4,), (3,)), ((2, 3), (4,)), ((0,), (3,)), ((3,), ()),
                   ((2, 3), (2, 2)), ((2, 1, 3), (2, 2))):
        a, b = data(sa, dtype, 1), data(sb, dtype, 2)
        check("outer", a, b, exact=True)
        check("kron", a, b, exact=True)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.float16, np.float32,
                                   np.complex64], ids=dtype_id)
def test_inner(device, dtype):
    """Sums of products over the last axes, without conjugation and in the input dtype (int8
    wraps, booleans give or); a scalar multiplies; mismatched lengths raise ValueError."""
    for sa, sb in (((), (3, 2)), ((4,), (4,)), ((3, 4), (4,)), ((2, 3), (5, 3)),
                   ((2, 2, 3), (4, 3)), ((0,), (0,)), ((2, 0), (3, 0)), ((3,), (4,))):
        a, b = data(sa, dtype, 1), data(sb, dtype, 2)
        check("inner", a, b, scale=scale_of("sum", a) * magnitude(b))


OUTER_CASES = {
    "outer_out": lambda m, a, b: m.outer(a[:, 0], b[:, 0], out=m.zeros((4, 4))),
    "outer_out_wrong_shape": lambda m, a, b: m.outer(a[:, 0], b[:, 0], out=m.zeros((3, 4))),
    "outer_negative_strides": lambda m, a, b: m.outer(a[::-1, 0], b[::-2]),
    "inner_negative_strides": lambda m, a, b: m.inner(a[::-1, ::2], b[::2, ::-2]),
    "kron_negative_strides": lambda m, a, b: m.kron(a[::-1], b[:, ::-1]),
    "kron_lists": host_operands(lambda m, a, b: m.kron([1, 2], [[1], [3]])),
    "inner_lists": host_operands(lambda m, a, b: m.inner([1, 2, 3], [4.0, 5.0, 6.0])),
    "inner_mismatch": lambda m, a, b: m.inner(a, b),
}


@pytest.mark.parametrize("case", list(OUTER_CASES))
def test_outer_inner_kron_cases(device, case):
    na, nb = data((4, 4), np.float64, 1), data((4, 3), np.float64, 2)
    ta, tb = tp.array(na), tp.array(nb)
    same_case_outcome(OUTER_CASES, case, (na, nb), (ta, tb),
                      scale=4 * magnitude(na) * magnitude(nb))


CROSS_CASES = {
    "3x3": lambda m, a, b: m.cross(a, b),
    "2x3": lambda m, a, b: m.cross(a[..., :2], b),
    "3x2": lambda m, a, b: m.cross(a, b[..., :2]),
    "broadcast": lambda m, a, b: m.cross(a, b[0]),
    "axisa_axisb": lambda m, a, b: m.cross(a.T, b, axisa=0),
    "axisc": lambda m, a, b: m.cross(a, b, axisc=0),
    "axis": lambda m, a, b: m.cross(a.T, b.T, axis=0),
    "negative_strides": lambda m, a, b: m.cross(a[::-1, ::-1], b[::2]),
    "four_components": lambda m, a, b: m.cross(m.ones((2, 4)), b[:2]),
    "axis_out_of_range": lambda m, a, b: m.cross(a, b, axisa=2),
    "vectors": host_operands(lambda m, a, b: m.cross([1, 2, 3], [4, 5, 6])),
}


@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.float64, np.complex128, np.bool_],
                         ids=dtype_id)
@pytest.mark.parametrize("case", list(CROSS_CASES))
def test_cross(device, case, dtype):
    """Cross products of 3- (and mixed 2- and 3-) vectors along any axes, broadcast;
    booleans cannot subtract (TypeError)."""
    na, nb = data((4, 3), dtype, 1), data((4, 3), dtype, 2)
    ta, tb = tp.array(na), tp.array(nb)
    same_case_outcome(CROSS_CASES, case, (na, nb), (ta, tb),
                      scale=2 * magnitude(na) * magnitude(nb))


@pytest.mark.parametrize("dtype", [np.int8, np.float64, np.complex128, np.bool_],
                         ids=dtype_id)
def test_cross_two_component_vectors(device, dtype):
    """Two 2-vectors: deprecated in NumPy 2 (a DeprecationWarning) but still the z component
    of their cross product (booleans: TypeError)."""
    na, nb = data((4, 2), dtype, 1), data((4, 2), dtype, 2)
    check("cross", na, nb, scale=2 * magnitude(na) * magnitude(nb))


# --------------------------------------------------------------------------------------------
# correlate and convolve


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.float64, np.complex128],
                         ids=dtype_id)
@pytest.mark.parametrize("name", ["correlate", "convolve"])
def test_correlate_convolve(device, name, dtype):
    """Every mode, for the first sequence longer, shorter or as long as the second (NumPy
    swaps them, conjugating and reversing a correlation of complex values), length 1,
    reversed inputs."""
    for la, lv in ((7, 3), (3, 7), (4, 4), (1, 1), (1, 5), (6, 2)):
        a, v = data((la,), dtype, 1), data((lv,), dtype, 2)
        for mode in ("valid", "same", "full"):
            scale = magnitude(a) * magnitude(v) * min(la, lv)
            check(name, a, v, mode=mode, scale=scale)
            check(name, a[::-1], v[::-1], mode=mode, scale=scale)


CORRELATE_CASES = {
    "empty_a": lambda m, name: getattr(m, name)(m.zeros(0), m.ones(3)),
    "empty_v": lambda m, name: getattr(m, name)(m.ones(3), m.zeros(0)),
    "bad_mode": lambda m, name: getattr(m, name)(m.ones(3), m.ones(2), mode="bogus"),
    "two_d": lambda m, name: getattr(m, name)(m.ones((2, 2)), m.ones(2)),
    "mixed_dtypes": lambda m, name: getattr(m, name)(m.arange(5, dtype=np.int8),
                                                     m.asarray([0.5, 1j])),
    "bools": lambda m, name: getattr(m, name)(m.asarray([True, False, True]),
                                              m.asarray([True, True])),
    "lists": host_operands(lambda m, name: getattr(m, name)([1, 2, 3], [0, 1, 0.5], "same")),
    "scalars": lambda m, name: getattr(m, name)(3.0, 2.0),
}


@pytest.mark.parametrize("case", list(CORRELATE_CASES))
@pytest.mark.parametrize("name", ["correlate", "convolve"])
def test_correlate_convolve_cases(device, name, case):
    same_case_outcome(CORRELATE_CASES, case, (name,), (name,))


# --------------------------------------------------------------------------------------------
# cov and corrcoef


COV_KEYWORDS = [{}, {"rowvar": False}, {"bias": True}, {"ddof": 0}, {"ddof": 2},
                {"fweights": np.array([1, 2, 1, 3, 1, 2])},
                {"aweights": np.array([0.5, 1.0, 2.0, 0.25, 1.0, 3.0])},
                {"fweights": np.array([1, 2, 1, 3, 1, 2]), "aweights": np.arange(1.0, 7.0),
                 "ddof": 1},
                {"aweights": np.arange(1.0, 7.0), "bias": True},
                {"dtype": np.float32}]


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.float64, np.complex128],
                         ids=dtype_id)
def test_cov(device, dtype):
    """Covariance of the rows (or columns) with the bias, ddof, frequency and analytic weights
    and dtype keywords; with y=; of 1-d input (a 0-d result)."""
    m = data((3, 6), dtype, 1)
    y = data((2, 6), dtype, 2)
    scale = 6 * magnitude(m) ** 2 * 10
    for kwargs in COV_KEYWORDS:
        rowvar = kwargs.get("rowvar", True)
        x = m if rowvar else m.T
        check("cov", x, **kwargs, scale=scale)
        check("cov", x, y if rowvar else y.T, **kwargs, scale=scale)
        check("cov", m[0], **{k: v for k, v in kwargs.items() if k != "rowvar"}, scale=scale)
    for rowvar in (True, False):
        check("corrcoef", m, rowvar=rowvar, scale=1)
        check("corrcoef", m[0], y[1], rowvar=rowvar, scale=1)
    check("corrcoef", m[0], scale=1)


COV_CASES = {
    "one_row_rowvar_false": lambda m, x: m.cov(x[:1], rowvar=False),
    "one_row_2d": lambda m, x: m.cov(x[:1]),
    "one_column_rowvar_false": lambda m, x: m.cov(x[:, :1], rowvar=False),
    "no_variables": lambda m, x: m.cov(x[:0]),
    "one_observation": lambda m, x: m.cov(x[:, :1]),
    "ddof_beyond": lambda m, x: m.cov(x, ddof=7),
    "float_fweights": host_operands(lambda m, x: m.cov(x, fweights=[1.0, 2.0, 1.0, 1.0, 1.0, 2.0])),
    "fractional_fweights": host_operands(lambda m, x: m.cov(x, fweights=[1.5, 2, 1, 1, 1, 2])),
    "negative_fweights": host_operands(lambda m, x: m.cov(x, fweights=[1, -2, 1, 1, 1, 2])),
    "fweights_length": host_operands(lambda m, x: m.cov(x, fweights=[1, 2])),
    "fweights_2d": lambda m, x: m.cov(x, fweights=m.ones((2, 6), np.int64)),
    "negative_aweights": host_operands(lambda m, x: m.cov(x, aweights=[1, -2, 1, 1, 1, 2])),
    "aweights_length": host_operands(lambda m, x: m.cov(x, aweights=[1.0])),
    # the weights' errors of the cases above, with weights that every device takes
    "float_fweights_array": lambda m, x: m.cov(x, fweights=m.asarray([1.0, 2, 1, 1, 1, 2])),
    "fractional_fweights_array": lambda m, x: m.cov(x, fweights=m.asarray([1.5, 2, 1, 1, 1, 2])),
    "negative_fweights_array": lambda m, x: m.cov(x, fweights=m.asarray([1, -2, 1, 1, 1, 2])),
    "fweights_length_array": lambda m, x: m.cov(x, fweights=m.asarray([1, 2])),
    "negative_aweights_array": lambda m, x: m.cov(x, aweights=m.asarray([1, -2, 1, 1, 1, 2])),
    "aweights_length_array": lambda m, x: m.cov(x, aweights=m.asarray([1.0])),
    "fractional_ddof": lambda m, x: m.cov(x, ddof=1.5),
    "three_d": lambda m, x: m.cov(m.ones((2, 2, 2))),
    "y_three_d": lambda m, x: m.cov(x, m.ones((2, 2, 6))),
    "y_length": lambda m, x: m.cov(x, x[:, :4]),
    "negative_strides": lambda m, x: m.cov(x[::-1, ::-2]),
    "lists": host_operands(lambda m, x: m.cov([[1, 2, 4], [2, 1, 0]])),
    "corrcoef_one_row_2d": lambda m, x: m.corrcoef(x[:1]),
    "corrcoef_constant_row": lambda m, x: m.corrcoef(m.ones((2, 4))),
    "corrcoef_negative_strides": lambda m, x: m.corrcoef(x[::-1, ::-1], rowvar=False),
}


@pytest.mark.parametrize("case", list(COV_CASES))
def test_cov_cases(device, case):
    """Single rows and columns, degenerate sizes (NumPy's inf/nan), weights as lists and
    NumPy's errors."""
    t, n = both(data((3, 6), np.float64, 3))
    same_case_outcome(COV_CASES, case, (n,), (t,), scale=60 * magnitude(n) ** 2)


# --------------------------------------------------------------------------------------------
# interp


XP = np.array([-2.0, 0.0, 0.5, 0.5, 3.0, 4.0])
FP = np.array([1.0, -1.0, 2.0, 3.0, 0.0, 5.0])
X_INTERP = np.array([[-5.0, -2.0, -1.0, 0.0, 0.25, 0.5], [0.75, 3.0, 3.9, 4.0, 7.0, NAN]])


@pytest.mark.parametrize("fp_dtype", [np.int32, np.float32, np.float64, np.complex128],
                         ids=dtype_id)
def test_interp(device, fp_dtype):
    """Linear interpolation at n-d x (on the sample points, between them, outside, NaN), with
    a repeated sample point; left/right values; float64 or complex128 results."""
    fp = (FP * (1 + 1j) if np.dtype(fp_dtype).kind == "c" else FP).astype(fp_dtype)
    for x in (X_INTERP, X_INTERP.T[::-1], X_INTERP.astype(np.float32), np.array(0.25),
              np.zeros(0)):
        check("interp", x, XP, fp, scale=10)
        check("interp", x, XP, fp, left=-7.0, right=9.5, scale=10)


INTERP_CASES = {
    "period": lambda m: m.interp(m.asarray([-180.0, -170, -185, 185, -10, -5, 0, 365]),
                                 m.asarray([190.0, -190, 350, -350]), m.asarray([5.0, 10, 3, 4]),
                                 period=360),
    "period_complex": lambda m: m.interp(m.asarray([0.5, 2.5, 7.0]), m.asarray([3.0, 1.0, 2.0]),
                                         m.asarray([1j, 2.0, 3 - 1j]), period=4),
    "period_negative": lambda m: m.interp(m.asarray([1.0, 5.0]), m.asarray([0.0, 2.0]),
                                          m.asarray([1.0, 3.0]), period=-3),
    "period_ignores_left": lambda m: m.interp(m.asarray([-1.0]), m.asarray([0.0, 2.0]),
                                              m.asarray([1.0, 3.0]), left=9, period=3),
    "period_zero": lambda m: m.interp(m.asarray([1.0]), m.asarray([0.0, 2.0]),
                                      m.asarray([1.0, 3.0]), period=0),
    "one_point": lambda m: m.interp(m.asarray([-1.0, 0.0, 1.0]), m.asarray([0.0]),
                                    m.asarray([4.0]), left=-1, right=1),
    "infinite_fp": lambda m: m.interp(m.asarray([0.5, 1.0, 1.5, 2.0]), m.asarray([0.0, 1.0, 2.0]),
                                      m.asarray([0.0, 1.0, INF])),
    "flat_infinite_fp": lambda m: m.interp(m.asarray([0.5]), m.asarray([0.0, 1.0]),
                                           m.asarray([INF, INF])),
    "integers": lambda m: m.interp(m.asarray([1, 2, 5]), m.asarray([0, 2, 4]),
                                   m.asarray([0, 4, 2])),
    "empty_xp": lambda m: m.interp(m.asarray([1.0]), m.zeros(0), m.zeros(0)),
    "length_mismatch": lambda m: m.interp(m.asarray([1.0]), m.asarray([0.0, 1.0]),
                                          m.asarray([1.0])),
    "two_d_xp": lambda m: m.interp(m.asarray([1.0]), m.ones((2, 2)), m.ones((2, 2))),
    "complex_x": lambda m: m.interp(m.asarray([1j]), m.asarray([0.0, 1.0]),
                                    m.asarray([0.0, 1.0])),
    "complex_left_right": lambda m: m.interp(m.asarray([-1.0, 0.5, 3.0]), m.asarray([0.0, 1.0]),
                                             m.asarray([1j, 2.0]), left=1 + 2j, right=-1j),
    "scalars": host_operands(lambda m: m.interp(2.5, [1, 2, 3], [3, 2, 0])),
    "scalar_x": lambda m: m.interp(2.5, m.asarray([1, 2, 3]), m.asarray([3, 2, 0])),
}


@pytest.mark.parametrize("case", list(INTERP_CASES))
def test_interp_cases(device, case):
    """period= (x and xp wrapped, left/right ignored), a single point, infinite values
    (NumPy's fallbacks: from the right point, the flat value, the exact point), integers
    and NumPy's errors."""
    same_case_outcome(INTERP_CASES, case, (), (), scale=10)


# --------------------------------------------------------------------------------------------
# gradient and trapezoid


@pytest.mark.parametrize("dtype", [np.int16, np.uint8, np.float16, np.float32, np.float64,
                                   np.complex64], ids=dtype_id)
@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient(device, edge_order, dtype):
    """Gradients of 1-d to 3-d arrays along every axis, one axis or a tuple of axes, with
    unit, scalar and per-axis spacing (unsigned values do not wrap: float64 results)."""
    for shape in ((5,), (3, 4), (3, 4, 5)):
        n = data(shape, dtype)
        scale = 4 * magnitude(n)
        check("gradient", n, edge_order=edge_order, scale=scale)
        check("gradient", n, 0.5, edge_order=edge_order, scale=scale)
        check("gradient", n, *[1.5 + i for i in range(len(shape))], edge_order=edge_order,
              scale=scale)
        check("gradient", n, axis=-1, edge_order=edge_order, scale=scale)
        check("gradient", n, 2.0, axis=0, edge_order=edge_order, scale=scale)
        if len(shape) == 3:
            check("gradient", n, 3.0, 0.5, axis=(2, 0), edge_order=edge_order, scale=scale)


COORDINATES = {
    "uneven": np.array([0.0, 0.5, 1.5, 1.75, 3.0]),
    "even": np.array([1.0, 3.0, 5.0, 7.0, 9.0]),
    "integers": np.array([0, 1, 3, 6, 10]),
    "decreasing": np.array([4.0, 3.0, 1.0, 0.5, 0.0]),
}


@pytest.mark.parametrize("edge_order", [1, 2])
@pytest.mark.parametrize("coords", list(COORDINATES))
def test_gradient_coordinates(device, coords, edge_order):
    """Coordinate arrays of each axis (uneven, even, integer, decreasing), alone and mixed with
    scalar spacings."""
    x = COORDINATES[coords]
    f1 = data((5,), np.float64, 1)
    f2 = data((5, 4), np.float32, 2)
    y = np.array([0.0, 1.0, 2.5, 3.0])
    check("gradient", f1, x, edge_order=edge_order, scale=20)
    check("gradient", f1[::-1], x, edge_order=edge_order, scale=20)
    check("gradient", f2, x, y, edge_order=edge_order, scale=20)
    check("gradient", f2, x, 2.0, edge_order=edge_order, scale=20)
    check("gradient", f2.T, x, axis=1, edge_order=edge_order, scale=20)


GRADIENT_CASES = {
    "too_short_order_1": lambda m, f: m.gradient(f[:1]),
    "too_short_order_2": lambda m, f: m.gradient(f[:2], edge_order=2),
    "edge_order_3": lambda m, f: m.gradient(f, edge_order=3),
    "too_many_spacings": lambda m, f: m.gradient(f, 1.0, 2.0),
    "coordinates_length": lambda m, f: m.gradient(f, m.arange(4.0)),
    "coordinates_2d": lambda m, f: m.gradient(f, m.ones((5, 1))),
    "axis_out_of_range": lambda m, f: m.gradient(f, axis=1),
    "duplicate_axis": lambda m, f: m.gradient(m.ones((3, 3)), axis=(0, 0)),
    "zero_d": lambda m, f: m.gradient(f[0]),
    "bool_input": lambda m, f: m.gradient(f > 0),
    "list_input": host_operands(lambda m, f: m.gradient([1, 4, 9, 16, 25], 2)),
    "empty_axis": lambda m, f: m.gradient(m.ones((0, 3)), axis=1),
}


@pytest.mark.parametrize("case", list(GRADIENT_CASES))
def test_gradient_cases(device, case):
    t, n = both(data((5,), np.float64))
    same_case_outcome(GRADIENT_CASES, case, (n,), (t,), scale=4 * magnitude(n))


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.float16, np.float32, np.float64,
                                   np.complex128], ids=dtype_id)
def test_trapezoid(device, dtype):
    """The trapezoidal rule along each axis with dx= or sample points x (1-d, or of y's
    shape); one sample gives 0."""
    for shape in ((1,), (6,), (3, 4), (2, 3, 5)):
        n = data(shape, dtype)
        scale = scale_of("sum", n) * 4
        for axis in range(-len(shape), len(shape)):
            length = shape[axis]
            check("trapezoid", n, axis=axis, scale=scale)
            check("trapezoid", n, dx=0.5, axis=axis, scale=scale)
            check("trapezoid", n, x=np.linspace(0, 3, length) ** 2, axis=axis, scale=scale)
            check("trapezoid", n, x=np.cumsum(data(shape, np.float64, 3) ** 2, axis=axis),
                  axis=axis, scale=scale * 100)


TRAPEZOID_CASES = {
    "x_length": lambda m, y: m.trapezoid(y, x=m.arange(3.0)),
    "zero_d": lambda m, y: m.trapezoid(y[0, 0]),
    "empty_axis": lambda m, y: m.trapezoid(y[:, :0]),
    "negative_strides": lambda m, y: m.trapezoid(y[::-1, ::-2], x=m.asarray([0.0, 1.0, 3.0])),
    "integer_x": lambda m, y: m.trapezoid(y, x=m.asarray([0, 1, 3, 4, 8, 9]), axis=1),
    "lists": host_operands(lambda m, y: m.trapezoid([1, 2, 3], [0, 1, 4])),
}


@pytest.mark.parametrize("case", list(TRAPEZOID_CASES))
def test_trapezoid_cases(device, case):
    t, n = both(data((3, 6), np.float64))
    same_case_outcome(TRAPEZOID_CASES, case, (n,), (t,), scale=scale_of("sum", n) * 10)


def test_trapezoid_axis_out_of_range(device):
    """NumPy raises IndexError (from its own list of slices); an AxisError, which is an
    IndexError, is as good."""
    for axis in (2, -3):
        with pytest.raises(IndexError):
            np.trapezoid(X34, axis=axis)
        with pytest.raises(IndexError) as got:
            tp.trapezoid(tp.array(X34), axis=axis)
        assert message_of(got.value).startswith("["), message_of(got.value)


# --------------------------------------------------------------------------------------------
# var/std mean=, weighted quantiles, Stone's bin rule


@pytest.mark.parametrize("name", ["var", "std", "nanvar", "nanstd"])
@pytest.mark.parametrize("axis", [None, 0, 1], ids=compact_id)
def test_given_mean(device, name, axis):
    """mean= replaces the mean var/std would compute (of the keepdims shape)."""
    n = data((4, 9), np.float64, 7)
    mean = n.mean(axis=axis, keepdims=True) + 0.25
    t = tp.array(n)
    for ddof in (0, 1):
        same_outcome(lambda: getattr(np, name)(n, axis=axis, ddof=ddof, mean=mean),
                     lambda: getattr(tp, name)(t, axis=axis, ddof=ddof, mean=tp.array(mean)),
                     scale=1.0)


@pytest.mark.parametrize("name", ["quantile", "percentile", "nanquantile", "nanpercentile"])
@pytest.mark.parametrize("axis", [None, 0, 1], ids=compact_id)
def test_weighted_quantiles(device, name, axis):
    """weights= (method inverted_cdf only): the first sorted value whose cumulative weight
    reaches q of its slice's total; zero weights are skipped; NaN as without weights."""
    n = data((5, 8), np.float64, 8)
    if name.startswith("nan"):
        n[1, 3] = np.nan
    w = np.abs(data((5, 8), np.float64, 9))
    w[0, :2] = 0
    q = [0.0, 0.25, 0.5, 1.0] if "quantile" in name else [0, 25, 50, 100]
    t, tw = tp.array(n), tp.array(w)
    cases = [(w, tw)]
    if axis == 1 and not name.startswith("nan"):
        # 1-d weights along the axis; NumPy's nan forms crash on them (IndexError).
        cases.append((w[0], tw[0]))
    for weights, tweights in cases:
        same_outcome(
            lambda: getattr(np, name)(n, q, axis=axis, method="inverted_cdf", weights=weights),
            lambda: getattr(tp, name)(t, q, axis=axis, method="inverted_cdf",
                                      weights=tweights), exact=True)


def test_weighted_quantile_errors(device):
    """Only inverted_cdf takes weights; they must be non-negative and fit the data."""
    n = data((3, 4), np.float64, 1)
    t = tp.array(n)
    w = np.ones((3, 4))
    for kwargs in ({"weights": w, "method": "linear"},
                   {"weights": -w, "method": "inverted_cdf"},
                   {"weights": np.ones(4), "method": "inverted_cdf"},
                   {"weights": np.ones(5), "method": "inverted_cdf", "axis": 1}):
        tkwargs = {k: tp.array(v) if isinstance(v, np.ndarray) else v for k, v in kwargs.items()}
        same_outcome(lambda: np.quantile(n, 0.5, **kwargs),
                     lambda: tp.quantile(t, 0.5, **tkwargs))


@pytest.mark.parametrize("name", ["normal", "ints", "constant"])
def test_stone_bins(device, name):
    """bins='stone': the count minimizing Stone's estimated risk over candidate histograms."""
    n = {"normal": data((400,), np.float64, 3), "ints": np.abs(data((300,), np.int16, 4)) % 9,
         "constant": np.full(10, 2.5)}[name]
    check("histogram_bin_edges", n, "stone")
    check("histogram", n, "stone")


# --------------------------------------------------------------------------------------------
# NumPy's RuntimeWarnings of the statistics functions


def statistics_warnings(call):
    """The RuntimeWarning messages a call emits, without the floating-point ones ("invalid
    value encountered in divide"), which tessera does not report yet."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [str(w.message) for w in caught if issubclass(w.category, RuntimeWarning)
            and not str(w.message).startswith(("invalid value", "divide by zero"))]


WARNING_CASES = {
    "mean_empty": lambda m, n: m.mean(n[:0]),
    "mean_empty_axis": lambda m, n: m.mean(m.ones((0, 3)), axis=0),
    "var_ddof": lambda m, n: m.var(n[:1], ddof=1),
    "std_ddof": lambda m, n: m.std(n[:2], ddof=2),
    "nanmean_all_nan": lambda m, n: m.nanmean(n[:3] * m.nan),
    "nanvar_ddof": lambda m, n: m.nanvar(m.asarray([m.nan, 1.0]), ddof=1),
    "nanmax_all_nan": lambda m, n: m.nanmax(n[:3] * m.nan),
    "nanmin_one_slice": lambda m, n: m.nanmin(m.asarray([[m.nan, 1.0], [m.nan, m.nan]]), axis=1),
    "nanmedian_all_nan": lambda m, n: m.nanmedian(n[:3] * m.nan),
    "nanquantile_all_nan": lambda m, n: m.nanquantile(n[:3] * m.nan, 0.5),
    "quiet_mean": lambda m, n: m.mean(n),
    "quiet_nanmax": lambda m, n: m.nanmax(n),
}


@pytest.mark.parametrize("case", list(WARNING_CASES))
def test_runtime_warnings(device, case):
    """Empty slices, too few degrees of freedom and all-NaN slices warn as NumPy does,
    with NumPy's messages, and nothing else does."""
    call = WARNING_CASES[case]
    n = data((6,), np.float64, 2)
    t = tp.array(n)
    assert statistics_warnings(lambda: call(tp, t)) == statistics_warnings(lambda: call(np, n))
