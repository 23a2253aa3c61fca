"""NumPy's functions inside tessera.jit functions (jit/array_functions.py: np.eye,
np.identity, np.diag, np.trace, np.triu, np.tril, np.array, np.asarray,
np.ascontiguousarray, np.flip, np.fliplr, np.flipud, np.count_nonzero, np.nonzero,
np.flatnonzero, np.argwhere, np.where of one argument, np.searchsorted, np.bincount,
np.isclose, np.allclose, np.round, np.around, the NaN-skipping reductions, np.interp,
np.digitize, np.histogram, np.percentile, np.quantile, np.nanpercentile, np.nanquantile,
np.kron, np.cross, np.convolve, np.correlate, a.fill, a.item), against numba.njit:
values, dtypes, shapes, the Python types of numbers, and the errors."""

import numpy as np
import pytest

from tessera import jit
from tessera.jit import TypingError

numba = pytest.importorskip("numba")

# Compiled for the CPU: make test's run on the CUDA device leaves out the tests taking no device.
pytestmark = pytest.mark.host_only


def eye_square(n):
    return np.eye(n)


def eye_offset(n):
    return np.eye(n, n + 1, 1, np.int32)


def eye_below(n):
    return np.eye(n, M=2, k=-1)


def identity(n):
    return np.identity(n, np.complex128)


def diag_of_vector(v):
    return np.diag(v)


def diag_above(v):
    return np.diag(v, 2)


def diag_below(a):
    return np.diag(a, -1)


def diag_of_matrix(a):
    return np.diag(a)


def trace(a):
    return np.trace(a)


def trace_above(a):
    return np.trace(a, 1)


def upper(a):
    return np.triu(a)


def lower(a):
    return np.tril(a, -1)


def list_of_numbers(x):
    return np.array([1.0, x, 3])


def nested_lists(x):
    return np.array([[1, 2], [3, x]])


def tuple_literal(x):
    return np.array((x, 2.5))


def as_array(a):
    return np.asarray(a)


def contiguous(a):
    return np.ascontiguousarray(a.T)


def of_tuple(t):
    return np.array(t)


def flipped(a):
    return np.flip(a), np.fliplr(a), np.flipud(a)


def count_nonzero(a):
    return np.count_nonzero(a)


def nonzero(a):
    return np.nonzero(a)


def nonzero_of_mask(a):
    return np.nonzero(a > 3), np.where(a > 3), np.argwhere(a > 3), np.flatnonzero(a)


def search_left(a, v):
    return np.searchsorted(a, v)


def search_right(a, v):
    return np.searchsorted(a, v, side="right")


def bincount(x):
    return np.bincount(x)


def bincount_weighted(x, w):
    return np.bincount(x, w)


def bincount_minlength(x):
    return np.bincount(x, minlength=10)


def isclose(a, b):
    return np.isclose(a, b)


def isclose_with(a, b):
    return np.isclose(a, b, 0.1, 0.0, True)


def allclose(a, b):
    return np.allclose(a, b), np.allclose(a, b, equal_nan=True)


def round_even(a):
    return np.round(a)


def round_two(a):
    return np.round(a, 2)


def round_tens(a):
    return np.around(a, -1)


def nan_reductions(a):
    return (np.nansum(a), np.nanprod(a), np.nanmean(a), np.nanvar(a), np.nanstd(a),
            np.nanmin(a), np.nanmax(a))


def interp(x, xp, fp):
    return np.interp(x, xp, fp)


def filled(a):
    a.fill(7)
    return a


def one_item(a):
    return a[1:2].item()


def column_of_new(n):
    b = np.arange(n * 2.0).reshape(n, 2)
    return b[:, 1]


def digitize(x, bins):
    return np.digitize(x, bins)


def digitize_right(x, bins):
    return np.digitize(x, bins, True)


def histogram(a):
    return np.histogram(a)


def histogram_five(a):
    return np.histogram(a, 5)


def histogram_range(a):
    return np.histogram(a, 4, (0.0, 10.0))


def histogram_edges(a, edges):
    return np.histogram(a, edges)


def percentile(a, q):
    return np.percentile(a, q)


def quantile(a, q):
    return np.quantile(a, q)


def nanpercentile(a, q):
    return np.nanpercentile(a, q)


def nanquantile(a, q):
    return np.nanquantile(a, q)


def expanded(a):
    return (np.expand_dims(a, 0).shape, np.expand_dims(a, -1).shape,
            np.expand_dims(a, 1)[0, 0])


def at_least(a, v):
    return (np.atleast_1d(v).shape, np.atleast_2d(v).shape, np.atleast_3d(v).shape,
            np.atleast_3d(a).shape, np.atleast_2d(a).shape, np.atleast_2d(v)[0, 1])


def swapped(a):
    return np.swapaxes(a, 0, 1), np.swapaxes(a, -1, 0)[1]


def rolled(a):
    return np.roll(a, 2), np.roll(a, -7), np.roll(a, 0)


def repeated(a):
    return np.repeat(a, 3), np.repeat(a, 0)


def taken(a):
    return np.take(a, np.array([[0, -1], [2, 3]])), np.take(a, -2)


def appended(a, v):
    return np.append(a, v), np.append(v, 2.5)


def repeated_negative(a):
    return np.repeat(a, -1)


def dot_of_vectors(a, b):
    return np.vdot(a, b)


def spaced():
    return np.logspace(0.0, 2.0, 5), np.tri(3, 4, 1), np.tri(2)


def kron(a, b):
    return np.kron(a, b)


def cross(a, b):
    return np.cross(a, b)


def convolve(a, v):
    return np.convolve(a, v)


def correlate(a, v):
    return np.correlate(a, v)


A = np.array([[1.0, 5.0, 3.0], [4.0, 0.0, 6.0]])
V = np.array([3.0, 0.0, 1.5])
SORTED = np.array([1.0, 2.0, 2.0, 3.0, np.nan])
COUNTS = np.array([0, 3, 1, 3, 7])
NAN = np.array([1.0, np.nan, 3.5, -2.0])
XP, FP = np.array([1.0, 2.0, 3.0]), np.array([3.0, 2.0, 0.0])
EDGES = np.array([0.0, 1.0, 2.5, 4.0, 10.0])
XS = np.array([-1.0, 0.0, 1.0, 2.0, 4.0, 10.0, 11.0, np.nan])
DATA = np.array([0.5, 1.5, 2.0, 9.99, 10.0, 3.3, -1.0, np.nan, 7.0])

CASES = [
    (eye_square, (3,)), (eye_square, (0,)), (eye_offset, (3,)), (eye_below, (3,)),
    (identity, (2,)), (diag_of_vector, (V,)), (diag_above, (V,)), (diag_below, (A,)),
    (diag_of_matrix, (A,)), (diag_of_matrix, (A.T,)), (trace, (A,)), (trace_above, (A,)),
    (upper, (A,)), (lower, (A,)),
    (list_of_numbers, (2.0,)), (list_of_numbers, (2,)), (nested_lists, (4,)),
    (tuple_literal, (1,)), (as_array, (A,)), (contiguous, (A,)),
    (of_tuple, ((1, 2.5, 3),)), (flipped, (A,)), (count_nonzero, (A,)), (nonzero, (A,)),
    (nonzero, (V,)), (nonzero_of_mask, (A,)), (nonzero_of_mask, (A[:, ::-2],)),
    (search_left, (SORTED, 2.0)), (search_right, (SORTED, 2.0)),
    (search_left, (SORTED, np.array([0.5, 2.0, np.nan, 9.0]))),
    (search_right, (SORTED, np.array([[0.5, 2.0], [np.nan, 9.0]]))),
    (search_left, (np.arange(10), 4)), (search_left, (np.array([], np.float64), 1.0)),
    (bincount, (COUNTS,)), (bincount, (np.array([], np.int64),)),
    (bincount_weighted, (COUNTS, np.arange(5.0))), (bincount_minlength, (COUNTS,)),
    (isclose, (NAN, NAN + 1e-9)), (isclose, (1.0, 1.0 + 1e-6)),
    (isclose, (np.array([np.inf, -np.inf, 1.0]), np.array([np.inf, np.inf, np.inf]))),
    (isclose_with, (NAN, NAN * 1.05)), (allclose, (NAN, NAN)), (allclose, (V, V + 1e-9)),
    (round_even, (np.array([0.5, 1.5, 2.5, -0.5, 2.675]),)),
    (round_two, (np.array([0.125, 2.675, -1.005]),)),
    (round_two, (np.array([1.234 + 5.678j], np.complex64),)),
    (round_tens, (np.array([15.0, 25.0, 149.0]),)), (round_even, (np.array([1, 2, 3]),)),
    (round_tens, (np.array([15, 25, 149]),)),
    (nan_reductions, (NAN,)), (nan_reductions, (NAN.astype(np.float32),)),
    (nan_reductions, (np.array([1, 2, 4]),)),
    (interp, (2.5, XP, FP)),
    (interp, (np.array([0.0, 1.0, 1.5, 3.0, 4.0, np.nan]), XP, FP)),
    (interp, (np.array([1.0, 2.0]), np.array([1.0, 1.0, 2.0]), np.array([0.0, np.inf, 1.0]))),
    (interp, (np.array([1.5]), np.array([1.0, 2.0]), np.array([np.inf, np.inf]))),
    (filled, (A.copy(),)), (filled, (np.zeros(3, np.int8),)), (one_item, (V,)),
    (column_of_new, (4,)),
    (digitize, (XS, EDGES)), (digitize, (XS, EDGES[::-1])), (digitize_right, (XS, EDGES)),
    (digitize_right, (XS, EDGES[::-1].copy())), (digitize, (2.0, EDGES)),
    (digitize, (XS, np.array([2.0, 2.0]))), (digitize, (XS, np.array([]))),
    (digitize, (np.arange(12).reshape(3, 4), np.array([2, 5, 9]))),
    (histogram, (DATA[:-3],)), (histogram_five, (np.arange(20),)), (histogram_range, (DATA,)),
    (histogram_edges, (DATA, EDGES)), (histogram, (np.array([3.0, 3.0]),)),
    (histogram_edges, (np.arange(10), np.array([0, 3, 9]))),
    (histogram_five, (np.arange(12.0).reshape(3, 4)[:, ::-1],)),
    (percentile, (DATA[:-3], 50.0)), (percentile, (DATA[:-3], np.array([0.0, 25.0, 100.0]))),
    (percentile, (DATA, 30.0)), (nanpercentile, (DATA, np.array([[10.0, 90.0]]))),
    (quantile, (np.arange(7), 0.3)), (nanquantile, (DATA, 0.0)),
    (percentile, (np.array([1.0, np.inf]), np.array([0.0, 50.0, 100.0]))),
    (percentile, (np.array([-np.inf, -np.inf, 3.0]), np.array([0.0, 100.0]))),
    (percentile, (np.array([5.0]), 10.0)), (nanpercentile, (np.array([np.nan]), 10.0)),
    (percentile, (np.array([np.inf]), 10.0)),
    (percentile, (np.array([[4.0, -2.0], [8.0, 1.0]]), 75.0)),
    (expanded, (A,)), (expanded, (np.asfortranarray(A),)), (at_least, (A, V)), (swapped, (A,)),
    (rolled, (A,)), (rolled, (V[::-1],)), (rolled, (np.array([]),)), (repeated, (A[:, ::2],)),
    (taken, (A,)), (appended, (A, V)), (dot_of_vectors, (V, V[::-1])),
    (dot_of_vectors, (V.astype(np.complex128) * 1j, V + 0j)), (spaced, ()),
    (kron, (A, A[::-1].copy())), (kron, (V, A)), (kron, (A, V)), (kron, (V, XS[:-1])),
    (kron, (COUNTS, np.arange(3))), (kron, (np.asfortranarray(A) * 1j, A * 1j)),
    (kron, (np.zeros((0, 2)), A)),
    (cross, (V, XP)), (cross, (np.arange(9.0).reshape(3, 3), V)), (cross, (V, A[:, ::-1])),
    (cross, (A[:1], np.arange(9.0).reshape(3, 3))), (cross, (COUNTS[:3], np.arange(3))),
    (cross, (V * 1j, XP)),
    (convolve, (V, XS[:-1])), (convolve, (XS[:-1], V)), (convolve, (COUNTS, np.arange(3))),
    (convolve, (V * (1 + 2j), XS[:-1])), (convolve, (V[:1], XP)), (convolve, (XP[::-1], V)),
    (correlate, (V, XS[:-1])), (correlate, (XS[:-1], V)), (correlate, (COUNTS, np.arange(7))),
    (correlate, (V * (1 + 2j), XS[:-1])), (correlate, (XS[:-1], V * (2 - 1j))),
    (correlate, (V * 1j, (V * (1 - 1j))[::-1])),
]


def same(ours, theirs):
    assert type(ours) is type(theirs), (ours, theirs)
    if isinstance(theirs, tuple):
        assert len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            same(a, b)
    elif isinstance(theirs, np.ndarray):
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
        np.testing.assert_array_equal(ours, theirs)
    else:
        assert ours == theirs or (ours != ours and theirs != theirs), (ours, theirs)


def copies(args):
    return [a.copy() if isinstance(a, np.ndarray) else a for a in args]


@pytest.mark.parametrize("function, args", CASES,
                         ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(CASES)])
def test_as_numba(function, args):
    same(jit(function)(*copies(args)), numba.njit(function)(*copies(args)))


def nested_array_copy(a):
    return np.array(a)


def interp_bounds(x, xp, fp):
    return np.interp(x, xp, fp, -1.0, 99.0)


def test_beyond_numba_as_numpy():
    # Numba takes neither np.array of an n-d array, nor interp's left and right, nor the
    # trace of integers; it fails on lists mixing ints and floats, and rounds float32 in
    # float64 (2.675f to 2.67 where NumPy gives 2.68): NumPy's results.
    np.testing.assert_array_equal(jit(nested_lists)(4.5), np.array([[1, 2], [3, 4.5]]))
    x = np.float32([0.125, 2.675])
    got = jit(round_two)(x)
    assert got.dtype == np.float32
    np.testing.assert_array_equal(got, np.round(x, 2))
    # np.atleast_* of numbers, np.vdot of matrices: NumPy's
    assert jit(at_least)(A, 2.0)[:3] == ((1,), (1, 1), (1, 1, 1))
    assert jit(dot_of_vectors)(A, A) == np.vdot(A, A)
    integers = np.arange(9).reshape(3, 3)
    assert jit(trace)(integers) == np.trace(integers) and type(jit(trace)(integers)) is int
    got = jit(nested_array_copy)(A)
    assert got is not A
    np.testing.assert_array_equal(got, A)
    x = np.array([0.0, 2.5, 4.0])
    np.testing.assert_array_equal(jit(interp_bounds)(x, XP, FP), np.interp(x, XP, FP, -1.0, 99.0))


@pytest.mark.parametrize("function, args, message", [
    (interp, (1.0, np.array([], np.float64), np.array([], np.float64)),
     "array of sample points is empty"),
    (interp, (1.0, XP, FP[:2]), "fp and xp are not of the same size"),
    (bincount, (np.array([1, -1]),), "must be non-negative"),
    (one_item, (np.arange(1.0),), "size 1"),
    (repeated_negative, (V,), "negative"),
    (digitize, (1.0, np.array([1.0, 3.0, 2.0])), "monotonically increasing or decreasing"),
    (histogram_range, (np.array([np.nan]),), None),
    (histogram, (np.array([np.nan]),), "max must be larger than min"),
    (histogram_edges, (DATA, np.array([1.0, 0.5])), "bins must increase monotonically"),
    (percentile, (DATA, 101.0), "Percentiles must be in the range"),
    (quantile, (DATA, np.array([0.5, -0.1])), "Quantiles must be in the range"),
    (cross, (V, np.ones((2, 4))), "Incompatible dimensions for cross product"),
    (cross, (V[:2], XP[:2]), "must be 3"),
    (convolve, (V[:0], XP), "'a' cannot be empty"),
    (convolve, (V, XP[:0]), "'v' cannot be empty"),
    (correlate, (V[:0], XP), "'a' cannot be empty"),
])
def test_value_errors_as_numba(function, args, message):
    if message is None:  # no error: Numba's result
        same(jit(function)(*args), numba.njit(function)(*args))
        return
    with pytest.raises(ValueError, match=message):
        jit(function)(*args)
    with pytest.raises(ValueError):
        numba.njit(function)(*args)


def ragged(x):
    return np.array([[1.0, 2.0], [x]])


def search_side(a):
    return np.searchsorted(a, 1.0, side="middle")


def test_products_beyond_numba_as_numpy():
    # Numba's np.kron takes only C- or F-ordered arrays, and fails on mixed dtypes: any
    # layout, NumPy's values and dtypes.
    np.testing.assert_array_equal(jit(kron)(A[:, ::-1], A.T), np.kron(A[:, ::-1], A.T))
    got, want = jit(kron)(A, COUNTS * 1j), np.kron(A, COUNTS * 1j)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    # The products sum in order, as Numba's inner products of integers: long operands
    # agree with NumPy within rounding (Numba's float sums are BLAS dot products).
    rng = np.random.default_rng(5)
    long, short = rng.standard_normal(300), rng.standard_normal(40)
    np.testing.assert_allclose(jit(convolve)(short, long), np.convolve(short, long), rtol=1e-12,
                               atol=1e-12)
    np.testing.assert_allclose(jit(correlate)(long, short), np.correlate(long, short),
                               rtol=1e-12, atol=1e-12)


def three_d_kron(a):
    return np.kron(a, a)


def boolean_cross(a):
    return np.cross(a, a)


def test_what_the_compiler_refuses():
    with pytest.raises(TypingError, match=r"np.kron\(\)'s a must be a 1-d or 2-d array"):
        jit(three_d_kron)(np.zeros((2, 2, 2)))
    with pytest.raises(TypingError, match=r"np.cross\(\) takes numbers, not booleans"):
        jit(boolean_cross)(np.ones(3, bool))
    with pytest.raises(TypingError, match="one length at each depth"):
        jit(ragged)(1.0)
    with pytest.raises(TypingError, match="side must be 'left' or 'right'"):
        jit(search_side)(V)
    with pytest.raises(TypingError, match="1-d array of integers"):
        jit(bincount)(V)
