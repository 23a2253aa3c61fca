"""Sorting (sort, argsort, partition, argpartition, sort_complex and the ndarray methods sort,
argsort, partition, argpartition) checked against NumPy: values, dtypes, shapes and the
exception raised on bad input, over every dtype, several shapes and axes, the memory layouts,
the kind/stable/order keywords, special values (NaN, infinities, signed zeros, complex NaN),
duplicates, and the sizes that take the counting-sort and multithreaded paths.

argsort always returns the stable order, so it is compared with NumPy's kind='stable'
result whatever kind is asked for. partition and argpartition may arrange the elements
around kth in any order: their contract is checked, not NumPy's arrangement."""

import numpy as np
import pytest

import tessera as tp

from conftest import ALL_DTYPES, assert_same, sample
from oracle import (assert_raises_type, assert_refuses_host_data, compact_id, data, is_host_data,
                    make, public_type, refuses_host_data)
from ufunc_oracle import dtype_id, outcome_like_numpy

SHAPES = [(), (0,), (1,), (7,), (3, 4), (2, 3, 5), (4, 0, 3)]
AXES = [None, 0, -1, 1]  # 1: the middle axis of 3-d shapes (out of bounds for 1-d ones)
LAYOUTS = ["contiguous", "fortran", "strided", "negative", "broadcast"]
STABLE_KINDS = {"mergesort", "stable", "m", "s", "M", "S"}
VALID_KINDS = [None, "quicksort", "mergesort", "heapsort", "stable", "q", "m", "h", "s", "Q",
               "Stable"]
BAD_KINDS = ["x", "", "bogus", 1, 1.5, b"q"]
FLOATS = [np.float16, np.float32, np.float64]
COMPLEXES = [np.complex64, np.complex128]
NAN, INF = np.nan, np.inf


# --------------------------------------------------------------------------------------------
# helpers


def both(x):
    """(tessera, NumPy) versions of a NumPy array."""
    return tp.array(x), x


def parts(a):
    """The real parts to compare: a complex array's real and imaginary parts apart, so that
    1+nanj and nan+1j differ (np.array_equal's equal_nan calls both NaN)."""
    return (a.real, a.imag) if a.dtype.kind == "c" else (a,)


def values_equal(got, expected):
    """Same values part by part, NaN matching NaN and -0.0 matching 0.0."""
    return all(np.array_equal(g, e, equal_nan=e.dtype.kind == "f")
               for g, e in zip(parts(got), parts(expected)))


def assert_sorted_like(got, expected, stable=False):
    """`got` (tessera) equals NumPy's sorted `expected`: dtype, shape and values. A stable
    sort also keeps NumPy's order of equal values (-0.0 and 0.0, NaNs of either sign). Other
    kinds order those freely, and NumPy's vectorized quicksort even turns some 0.0 into -0.0
    (it sorts with min/max), so there -0.0 and 0.0 are equal and NaN signs are not compared."""
    __tracebackhide__ = True
    assert isinstance(got, tp.ndarray), f"expected tessera.ndarray, got {type(got).__name__}"
    expected = np.asarray(expected)
    assert (got.dtype, got.shape) == (expected.dtype, expected.shape), \
        f"dtype/shape {got.dtype}{got.shape} != {expected.dtype}{expected.shape}"
    g = tp.asnumpy(got)
    assert values_equal(g, expected), f"values differ:\n{g}\n!=\n{expected}"
    if stable and expected.dtype.kind in "fc":
        for gp, ep in zip(parts(g), parts(expected)):
            assert np.array_equal(np.signbit(gp), np.signbit(ep)), \
                f"stable order of -0.0/0.0 or of NaN signs differs:\n{g}\n!=\n{expected}"


def raises_like(error, tp_call):
    __tracebackhide__ = True
    assert_raises_type(public_type(error), tp_call)


def same_outcome(np_call, tp_call, check):
    """tessera's result passes check(got, NumPy's result), or both raise the same exception
    type."""
    __tracebackhide__ = True
    return outcome_like_numpy(np_call, tp_call, check, raises_like)


def sorted_check(stable):
    return lambda got, expected: assert_sorted_like(got, expected, stable)


def flat_axis(x, axis):
    """(x, axis) with axis=None meaning the flattened array along its only axis."""
    return (np.ravel(x), -1) if axis is None else (x, axis)


def assert_partitioned(got, x, kth, axis):
    """NumPy values `got` partition NumPy array `x` around every kth along `axis`: the kth
    element is the one sorting puts there, the elements before it are (as a multiset) the
    k smallest and those after it the rest."""
    __tracebackhide__ = True
    x, axis = flat_axis(x, axis)
    s = np.moveaxis(np.sort(x, axis), axis, -1)
    g = np.moveaxis(got, axis, -1)
    n = s.shape[-1]
    for k in np.atleast_1d(kth):
        k = int(k) % n
        assert values_equal(g[..., k], s[..., k]), f"element {k}: {g[..., k]} != {s[..., k]}"
        for side in (slice(0, k), slice(k + 1, n)):
            assert values_equal(np.sort(g[..., side], -1), s[..., side]), \
                f"not partitioned around kth={k}:\n{g}\nsorted:\n{s}"


def partition_check(x, kth, axis):
    """Checks tessera's partition of x against NumPy's result's dtype and shape, and the
    partition contract."""
    def check(got, expected):
        __tracebackhide__ = True
        assert isinstance(got, tp.ndarray), f"expected tessera.ndarray, got {type(got)}"
        assert (got.dtype, got.shape) == (expected.dtype, expected.shape), \
            f"dtype/shape {got.dtype}{got.shape} != {expected.dtype}{expected.shape}"
        assert_partitioned(tp.asnumpy(got), x, kth, axis)
    return check


def argpartition_check(x, kth, axis):
    """Checks that tessera's argpartition of x has NumPy's dtype and shape, is a permutation
    of each lane's indices, and takes x to a partition."""
    def check(got, expected):
        __tracebackhide__ = True
        assert isinstance(got, tp.ndarray), f"expected tessera.ndarray, got {type(got)}"
        assert (got.dtype, got.shape) == (expected.dtype, expected.shape), \
            f"dtype/shape {got.dtype}{got.shape} != {expected.dtype}{expected.shape}"
        index = tp.asnumpy(got)
        xs, ax = flat_axis(x, axis)
        lanes = np.moveaxis(np.sort(index, ax), ax, -1)
        assert (lanes == np.arange(lanes.shape[-1])).all(), f"not a permutation:\n{index}"
        assert_partitioned(np.take_along_axis(xs, index, ax), x, kth, axis)
    return check


def numpy_argsort(n, axis=-1, method=False, **kwargs):
    """NumPy's stable argsort, after NumPy has checked `kwargs` (raising what it raises)."""
    (n.argsort if method else lambda **k: np.argsort(n, **k))(axis=axis, **kwargs)
    return np.argsort(n, axis=axis, kind="stable")


def kths(extent):
    """kth values to partition a lane of `extent` around: both ends, the middle, several."""
    return [0, -1, extent // 2, [0, extent - 1], (extent - 1, extent // 3)]


# --------------------------------------------------------------------------------------------
# every function, dtype, shape and axis


def test_function_names():
    for name in ("sort", "argsort", "partition", "argpartition", "sort_complex"):
        assert callable(getattr(tp, name, None)), f"tessera.{name} is missing"
    for name in ("sort", "argsort", "partition", "argpartition"):
        assert callable(getattr(tp.ndarray, name, None)), f"tessera.ndarray.{name} is missing"


@pytest.mark.parametrize("kind", [None, "stable"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_sort(device, dtype, kind):
    """Every dtype, shape and axis (out-of-bounds ones included): NumPy's values or error."""
    for shape in SHAPES:
        t, n = both(data(shape, dtype))
        for axis in AXES:
            same_outcome(lambda: np.sort(n, axis, kind), lambda: tp.sort(t, axis, kind),
                         sorted_check(kind == "stable"))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_argsort(device, dtype):
    """Every dtype, shape and axis: NumPy's stable order or its error (0-d input:
    test_indices_of_0d)."""
    for shape in SHAPES[1:]:
        t, n = both(data(shape, dtype))
        for axis in AXES:
            same_outcome(lambda: numpy_argsort(n, axis), lambda: tp.argsort(t, axis), assert_same)


@pytest.mark.parametrize("name", ["partition", "argpartition"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_partition(device, dtype, name):
    """The contract around each kth (see assert_partitioned) along every axis. 0-d and
    empty arrays, bad axes and kth: the tests below."""
    make_check = partition_check if name == "partition" else argpartition_check
    for shape in [s for s in SHAPES if s and 0 not in s]:
        t, n = both(data(shape, dtype))
        for axis in [None] + list(range(-len(shape), len(shape))):
            for kth in kths(n.size if axis is None else n.shape[axis]):
                same_outcome(lambda: getattr(np, name)(n, kth, axis),
                             lambda: getattr(tp, name)(t, kth, axis),
                             make_check(n, kth, axis))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_sort_complex(device, dtype):
    """Sorted along the last axis, as complex64 (8- and 16-bit integers) or complex128."""
    for shape in SHAPES:
        t, n = both(data(shape, dtype))
        same_outcome(lambda: np.sort_complex(n), lambda: tp.sort_complex(t), sorted_check(False))


# --------------------------------------------------------------------------------------------
# the ndarray methods


def sort_in_place(m_array, *args, **kwargs):
    """ndarray.sort's return value and the sorted array."""
    return m_array.sort(*args, **kwargs), m_array


def partition_in_place(m_array, *args, **kwargs):
    return m_array.partition(*args, **kwargs), m_array


@pytest.mark.parametrize("kind", [None, "stable"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_sort_method(device, dtype, kind):
    """ndarray.sort sorts in place and returns None; NumPy's AxisError for a bad axis."""
    def check(got, expected):
        assert got[0] is None
        assert_sorted_like(got[1], expected[1], kind == "stable")

    for shape in SHAPES:
        for axis in (0, -1, 1):  # axis=None: test_sort_errors
            t, n = both(data(shape, dtype))
            same_outcome(lambda: sort_in_place(n, axis, kind),
                         lambda: sort_in_place(t, axis, kind), check)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.float16, np.float64,
                                   np.complex64], ids=dtype_id)
def test_other_methods(device, dtype):
    """ndarray.argsort and argpartition return indices; ndarray.partition partitions in
    place and returns None."""
    def partition_in_place_check(n0, kth, axis):
        def check(got, expected):
            assert got[0] is None
            partition_check(n0, kth, axis)(got[1], expected[1])
        return check

    for shape in ((7,), (3, 4), (2, 3, 5)):
        n0 = data(shape, dtype)
        t, n = both(n0)
        for axis in (0, -1):
            same_outcome(lambda: numpy_argsort(n, axis, method=True),
                         lambda: t.argsort(axis=axis), assert_same)
            same_outcome(lambda: numpy_argsort(n, axis, method=True, kind="heapsort"),
                         lambda: t.argsort(axis, "heapsort"), assert_same)
            for kth in kths(shape[axis]):
                same_outcome(lambda: n.argpartition(kth, axis), lambda: t.argpartition(kth, axis),
                             argpartition_check(n, kth, axis))
                tc, nc = both(n0.copy())
                same_outcome(lambda: partition_in_place(nc, kth, axis),
                             lambda: partition_in_place(tc, kth, axis),
                             partition_in_place_check(n0, kth, axis))


@pytest.mark.parametrize("name", ["sort", "partition"])
def test_method_on_0d(device, name):
    """NumPy's in-place methods on a 0-d array: AxisError."""
    t, n = both(np.array(2.5))
    args = () if name == "sort" else (0,)
    same_outcome(lambda: getattr(n, name)(*args), lambda: getattr(t, name)(*args),
                 lambda got, expected: None)


# --------------------------------------------------------------------------------------------
# memory layouts


def layout_calls(name):
    """(numpy call, tessera call, check) of `name` for x along axis."""
    if name == "sort":
        return lambda x, axis: np.sort(x, axis), tp.sort, lambda x, axis: sorted_check(False)
    if name == "argsort":
        return numpy_argsort, tp.argsort, lambda x, axis: assert_same
    if name == "partition":
        return (lambda x, axis: np.partition(x, 1, axis), lambda x, axis: tp.partition(x, 1, axis),
                lambda x, axis: partition_check(x, 1, axis))
    return (lambda x, axis: np.argpartition(x, -2, axis),
            lambda x, axis: tp.argpartition(x, -2, axis),
            lambda x, axis: argpartition_check(x, -2, axis))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", ["sort", "argsort", "partition", "argpartition"])
def test_layouts(device, name, layout):
    """Fortran, strided, reversed and broadcast inputs sort as contiguous ones; the input
    is left as it was (a broadcast one is copied, never sorted in place)."""
    np_call, tp_call, check = layout_calls(name)
    for dtype in (np.bool_, np.int8, np.int32, np.uint64, np.float16, np.float64,
                  np.complex128):
        for shape in ((7,), (3, 4), (2, 3, 5), (4, 0, 3)):
            nbase, tbase, n, t = make(shape, dtype, layout)
            for axis in [None] + list(range(-len(shape), len(shape))):
                extent = n.size if axis is None else n.shape[axis]
                if name.endswith("partition") and extent < 2:
                    continue  # kth 1 and -2 need two elements; empty: test_partition_empty
                same_outcome(lambda: np_call(n, axis), lambda: tp_call(t, axis),
                             check(n, axis))
            assert_same(tbase, nbase)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_sort_method_layouts(device, layout):
    """ndarray.sort writes each lane of a view in place, through its strides, and leaves
    the rest of the owner alone; on a read-only broadcast view it raises ValueError."""
    for dtype in (np.bool_, np.uint8, np.int16, np.float32, np.complex64):
        for shape in ((7,), (3, 4), (2, 3, 5)):
            for axis in range(-len(shape), len(shape)):
                nbase, tbase, n, t = make(shape, dtype, layout)
                same_outcome(lambda: n.sort(axis), lambda: t.sort(axis), lambda g, e: None)
                assert_same(tbase, nbase)


@pytest.mark.parametrize("name", ["sort", "argsort", "partition", "sort_complex"])
def test_broadcast_result_is_a_copy(device, name):
    """Sorting a broadcast view gives an array of its own: writing one element changes no
    other, and the broadcast source keeps its values."""
    row = np.array([3.0, -1.0, 2.0, 0.5])
    source = tp.array(row)
    view = tp.broadcast_to(source, (3, 4))
    call = {"sort": lambda x: tp.sort(x, axis=0), "argsort": lambda x: tp.argsort(x, axis=0),
            "partition": lambda x: tp.partition(x, 1, axis=0),
            "sort_complex": tp.sort_complex}[name]
    result = call(view)
    before = tp.asnumpy(result).copy()
    result[0, 0] = 100
    after = tp.asnumpy(result)
    assert (after[1:] == before[1:]).all() and (after[0, 1:] == before[0, 1:]).all()
    assert_same(source, row)


# --------------------------------------------------------------------------------------------
# kind, stable and order


def kind_cases():
    for kind in VALID_KINDS + BAD_KINDS:
        yield pytest.param({"kind": kind}, id=f"kind={kind!r}")
    for stable in (None, True, False, 1, "yes"):
        yield pytest.param({"stable": stable}, id=f"stable={stable!r}")
    for kind in ("quicksort", "stable", "x"):
        yield pytest.param({"kind": kind, "stable": True}, id=f"kind={kind}-stable=True")
    yield pytest.param({"kind": "stable", "stable": False}, id="kind=stable-stable=False")
    for order in ("f0", ["f0"], None):
        yield pytest.param({"order": order}, id=f"order={order!r}")


def is_stable(kwargs):
    kind = kwargs.get("kind")
    return bool(kwargs.get("stable")) or (isinstance(kind, str) and kind in STABLE_KINDS)


@pytest.mark.parametrize("kwargs", list(kind_cases()))
def test_kind_stable_order(device, kwargs):
    """Kinds by name or first letter, stable=, and their errors: an unknown kind
    (ValueError), a kind that is not a str (TypeError), kind and stable together or order=
    on an array without fields (ValueError). Through each function and method."""
    stable = is_stable(kwargs)
    # Ties of -0.0 and 0.0 show whether a stable order was kept.
    n = np.array([[2.0, -0.0, 1.0, 0.0, -1.0, -0.0, 0.0, NAN],
                  [0.0, -0.0, 3.0, 0.0, -0.0, 1.0, -0.0, 2.0]])
    for axis in (-1, 0):
        t = tp.array(n)
        same_outcome(lambda: np.sort(n, axis, **kwargs), lambda: tp.sort(t, axis, **kwargs),
                     sorted_check(stable))
        same_outcome(lambda: numpy_argsort(n, axis, **kwargs),
                     lambda: tp.argsort(t, axis, **kwargs), assert_same)
        same_outcome(lambda: numpy_argsort(n, axis, method=True, **kwargs),
                     lambda: t.argsort(axis, **kwargs), assert_same)
        tc, nc = both(n.copy())
        same_outcome(lambda: nc.sort(axis, **kwargs), lambda: tc.sort(axis, **kwargs),
                     lambda got, expected: assert_sorted_like(tc, nc, stable))


PARTITION_ERRORS = {
    "kth_too_large": lambda m, x: m.partition(x, 5),
    "kth_too_negative": lambda m, x: m.partition(x, -6),
    "one_kth_out_of_bounds": lambda m, x: m.argpartition(x, [1, 5]),
    "float_kth": lambda m, x: m.partition(x, 1.0),
    "float_kth_in_list": lambda m, x: m.argpartition(x, [1, 2.0]),
    "string_kth": lambda m, x: m.partition(x, "1"),
    "none_kth": lambda m, x: m.partition(x, None),
    "empty_kth_list": lambda m, x: m.partition(x, []),
    "bool_kth": lambda m, x: m.partition(x, True),
    "nested_kth": lambda m, x: m.partition(x, [[1]]),
    "kth_too_large_for_flattened": lambda m, x: m.partition(x.reshape(1, 5), 5, axis=None),
    "axis_out_of_bounds": lambda m, x: m.partition(x, 0, axis=1),
    "argpartition_axis_out_of_bounds": lambda m, x: m.argpartition(x, 0, axis=-2),
    "float_axis": lambda m, x: m.partition(x, 0, axis=0.0),
    "bad_kind": lambda m, x: m.partition(x, 1, kind="bogus"),
    "sort_kind_for_partition": lambda m, x: m.argpartition(x, 1, kind="quicksort"),
    "introselect": lambda m, x: m.partition(x, 1, kind="introselect"),
    "order": lambda m, x: m.partition(x, 1, order="f0"),
    "argpartition_order": lambda m, x: m.argpartition(x, 1, order=["f0"]),
    "numpy_int_kth": lambda m, x: m.partition(x, np.int8(-2)),
    "0d": lambda m, x: m.partition(x[0], 0),
    "0d_axis_0": lambda m, x: m.partition(x[0], 0, axis=0),
    "method_kth_too_large": lambda m, x: x.partition(7),
    "method_float_kth": lambda m, x: x.argpartition(2.5),
    "method_bad_kind": lambda m, x: x.partition(1, kind="bogus"),
}


# NumPy checks kth against the axis only when the array has elements: any kth partitions an
# empty array (to itself), along any axis.
EMPTY_PARTITIONS = {
    "kth_0": lambda m: m.partition(m.zeros(0), 0),
    "kth_out_of_bounds": lambda m: m.argpartition(m.zeros(0, np.int16), [0, 7]),
    "flattened": lambda m: m.partition(m.zeros((2, 0)), 0, axis=None),
    "empty_axis": lambda m: m.partition(m.zeros((4, 0, 3)), 0, axis=1),
    "other_axis": lambda m: m.argpartition(m.zeros((4, 0, 3), np.float32), 5, axis=-1),
    "method": lambda m: m.zeros((0, 2)).argpartition(1, axis=0),
}


@pytest.mark.parametrize("case", list(EMPTY_PARTITIONS))
def test_partition_empty(device, case):
    call = EMPTY_PARTITIONS[case]
    same_outcome(lambda: call(np), lambda: call(tp), assert_same)


@pytest.mark.parametrize("case", list(PARTITION_ERRORS))
def test_partition_errors(device, case):
    """kth out of bounds: ValueError; kth not an integer: TypeError; NumPy's answer to
    booleans, nested and empty kth lists, bad axes, kinds and order=."""
    call = PARTITION_ERRORS[case]
    t, n = both(np.array([3.0, 1.0, 4.0, 1.5, 9.0]))
    same_outcome(lambda: call(np, n), lambda: call(tp, t), lambda got, expected: None)


SORT_ERRORS = {
    "axis_out_of_bounds": lambda m, x: m.sort(x, axis=2),
    "axis_too_negative": lambda m, x: m.argsort(x, axis=-3),
    "float_axis": lambda m, x: m.sort(x, axis=1.0),
    "string_axis": lambda m, x: m.argsort(x, axis="0"),
    "tuple_axis": lambda m, x: m.sort(x, axis=(0, 1)),
    "method_axis_out_of_bounds": lambda m, x: x.sort(axis=2),
    "method_axis_none": lambda m, x: x.sort(axis=None),
    "argsort_method_float_axis": lambda m, x: x.argsort(axis=0.5),
    "sort_0d_last_axis": lambda m, x: m.sort(x[0, 0]),
    "sort_0d_axis_0": lambda m, x: m.sort(x[0, 0], axis=0),
    "sort_complex_0d": lambda m, x: m.sort_complex(x[0, 0]),
}


@pytest.mark.parametrize("case", list(SORT_ERRORS))
def test_sort_errors(device, case):
    call = SORT_ERRORS[case]
    n = sample((3, 4), np.float64)
    t = tp.array(n)
    same_outcome(lambda: call(np, n), lambda: call(tp, t), lambda got, expected: None)


@pytest.mark.parametrize("name", ["sort", "argsort", "partition", "argpartition"])
def test_0d_flattened(device, name):
    """A 0-d array with axis=None is sorted as the 1-element array it flattens to."""
    t, n = both(np.array(2.5))
    args = (0,) if name.endswith("partition") else ()
    same_outcome(lambda: getattr(np, name)(n, *args, axis=None),
                 lambda: getattr(tp, name)(t, *args, axis=None), assert_same)


@pytest.mark.parametrize("name", ["argsort", "argpartition"])
def test_indices_of_0d(device, name):
    """NumPy's argsort and argpartition of a 0-d array along axis 0 or -1 give [0] (they
    rank the array as 1-d), unlike sort's and partition's AxisError; axis 1 is out of
    bounds."""
    t, n = both(np.array(2.5))
    args = (0,) if name == "argpartition" else ()
    for axis in (-1, 0, 1):
        same_outcome(lambda: getattr(np, name)(n, *args, axis=axis),
                     lambda: getattr(tp, name)(t, *args, axis=axis), assert_same)
        same_outcome(lambda: getattr(n, name)(*args, axis=axis),
                     lambda: getattr(t, name)(*args, axis=axis), assert_same)
    same_outcome(lambda: getattr(np, name)(7, *args), lambda: getattr(tp, name)(7, *args),
                 assert_same)


# --------------------------------------------------------------------------------------------
# special values


SPECIAL_FLOATS = {
    "nan_first": [NAN, 1.0, 2.0, NAN, -3.0],
    "nan_middle": [1.0, NAN, 3.0, -1.0, NAN, 0.5],
    "all_nan": [NAN, NAN, NAN],
    "inf": [1.0, INF, -INF, 0.0, -INF, INF],
    "nan_and_inf": [INF, -INF, NAN, INF, -1.0],
    "signed_zeros": [0.0, -0.0, 1.0, -0.0, 0.0, -1.0, -0.0],
    "zeros_and_nan": [-0.0, NAN, 0.0, -0.0, NAN, 0.0],
    "negative_nan": [1.0, -NAN, NAN, -1.0, -NAN],
    "ties": [3.0, 1.0, 3.0, 1.0, -2.0, 3.0, 1.0],
    "sorted": [-2.0, -1.0, 0.0, 1.0, 2.0],
    "reversed": [2.0, 1.0, 0.0, -1.0, -2.0],
    "extremes": [np.finfo(np.float16).max, -np.finfo(np.float16).max, 6e-8, -6e-8, 0.0],
}
# NumPy's complex order: [R + Rj, R + nanj, nan + Rj, nan + nanj], each group sorted by the
# part that is not NaN.
COMPLEX_NAN = [complex(NAN, 2), complex(3, NAN), complex(NAN, NAN), complex(1, NAN),
               complex(NAN, -1), 2 + 0j, complex(NAN, NAN), -1 + 5j]
SPECIAL_COMPLEX = {
    "lexicographic": [1 + 5j, 1 + 6j, 0 + 100j, -1 + 200j, 1 - 5j],
    "real_ties": [2 + 1j, 2 + 3j, 2 - 1j, 2 + 3j, 2 + 1j],
    "nan_order": COMPLEX_NAN,
    "nan_real_only": [complex(NAN, 3), complex(NAN, 1), complex(NAN, 2), 1 + 1j],
    "nan_imag_only": [complex(3, NAN), complex(1, NAN), complex(2, NAN), 1 + 1j],
    "nan_imag_before_nan_real": [complex(NAN, 1), complex(1, NAN)],
    "inf": [complex(INF, 0), complex(INF, 1), complex(-INF, 5), 0j, complex(0, -INF)],
    "signed_zeros": [complex(0, -0.0), complex(-0.0, 0), complex(0, 0), complex(-0.0, -0.0)],
}


def special_cases():
    for key, values in SPECIAL_FLOATS.items():
        for dtype in FLOATS:
            yield pytest.param(np.array(values, dtype), id=f"{key}-{dtype_id(dtype)}")
    for key, values in SPECIAL_COMPLEX.items():
        for dtype in COMPLEXES:
            yield pytest.param(np.array(values, dtype), id=f"{key}-{dtype_id(dtype)}")


@pytest.mark.parametrize("x", list(special_cases()))
def test_special_values(device, x):
    """NaN sorts last (complex: NumPy's four NaN groups), infinities in place, -0.0 equal to
    0.0 (a stable sort keeps their order); as a vector and along the rows and columns of a
    matrix."""
    matrix = np.stack([x, x[::-1], np.roll(x, 1)])
    for n in (x, matrix, matrix.T):
        t = tp.array(n)
        for axis in (-1, 0, None):
            for kind in (None, "stable"):
                same_outcome(lambda: np.sort(n, axis, kind), lambda: tp.sort(t, axis, kind),
                             sorted_check(kind == "stable"))
            same_outcome(lambda: numpy_argsort(n, axis), lambda: tp.argsort(t, axis),
                         assert_same)
            for kth in (0, -1, 2):
                same_outcome(lambda: np.partition(n, kth, axis),
                             lambda: tp.partition(t, kth, axis), partition_check(n, kth, axis))
                same_outcome(lambda: np.argpartition(n, kth, axis),
                             lambda: tp.argpartition(t, kth, axis),
                             argpartition_check(n, kth, axis))
        same_outcome(lambda: np.sort_complex(n), lambda: tp.sort_complex(t), sorted_check(False))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_integer_extremes_and_duplicates(device, dtype):
    """Few distinct values, the dtype's limits among them: argsort orders ties by index as
    NumPy's stable argsort does, along either axis of a matrix."""
    rng = np.random.default_rng(1)
    d = np.dtype(dtype)
    if d.kind in "iu":
        choices = np.array([np.iinfo(d).min, np.iinfo(d).max, 0, 1], dtype=d)
    elif d.kind == "b":
        choices = np.array([False, True])
    else:
        choices = np.array([-1.5, 0.0, 2.0, NAN], dtype=d)
    n = rng.choice(choices, size=(40, 25))
    t = tp.array(n)
    for axis in (-1, 0, None):
        for kind in (None, "stable"):
            same_outcome(lambda: np.sort(n, axis, kind), lambda: tp.sort(t, axis, kind),
                         sorted_check(kind == "stable"))
        same_outcome(lambda: numpy_argsort(n, axis), lambda: tp.argsort(t, axis), assert_same)


def bits(dtype, size, seed=0):
    """`size` values of every bit pattern of a 1- or 2-byte dtype (float16: NaNs of both
    signs and several payloads, infinities, subnormals, both zeros)."""
    raw = np.random.default_rng(seed).integers(0, 256, size * np.dtype(dtype).itemsize,
                                               dtype=np.uint8)
    if np.dtype(dtype).kind == "b":
        raw = raw & 1
    return raw.view(dtype)


@pytest.mark.parametrize("size", [2, 3, 15, 16, 17, 255, 256, 257, 1000, 4095, 4096, 4097,
                                  70000])
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.float16, np.int16],
                         ids=dtype_id)
def test_small_dtypes(device, dtype, size):
    """8-bit keys (counting sort) and float16 (a comparison sort), over all their bit
    patterns, at sizes about the thresholds where sort paths change."""
    n = bits(dtype, size)
    t = tp.array(n)
    for kind in (None, "stable"):
        same_outcome(lambda: np.sort(n, kind=kind), lambda: tp.sort(t, kind=kind),
                     sorted_check(kind == "stable"))
    same_outcome(lambda: numpy_argsort(n), lambda: tp.argsort(t), assert_same)
    same_outcome(lambda: np.partition(n, size // 3), lambda: tp.partition(t, size // 3),
                 partition_check(n, size // 3, -1))


# --------------------------------------------------------------------------------------------
# large arrays: chunks sorted by several threads and merged


def large(dtype, size, seed=0):
    """Data with many ties: small integers; floats with both zeros, infinities and NaNs."""
    rng = np.random.default_rng(seed)
    d = np.dtype(dtype)
    if d.kind in "biu":
        return sample((size,), d, seed)
    values = np.round(rng.standard_normal(size) * 100) / 4
    values[rng.integers(0, size, size // 50)] = -0.0
    values[rng.integers(0, size, size // 100)] = NAN
    values[rng.integers(0, size, size // 100)] = -INF
    if d.kind == "c":
        values = values + 1j * np.round(rng.standard_normal(size))
    return values.astype(d)


LARGE = ([(np.dtype(d).name, 300_000) for d in (np.int8, np.int16, np.int32, np.int64,
                                                  np.uint32, np.uint64, np.float16,
                                                  np.float32, np.float64, np.complex64)]
         + [("float64", 1_000_000), ("int32", 1_000_000), ("float32", 1_000_000)])


@pytest.mark.parametrize("dtype, size", LARGE, ids=compact_id)
def test_large(device, dtype, size):
    """One long row: sort (either kind), stable argsort (ties by index across chunk
    boundaries) and partition as NumPy's."""
    n = large(dtype, size)
    t = tp.array(n)
    for kind in (None, "stable"):
        same_outcome(lambda: np.sort(n, kind=kind), lambda: tp.sort(t, kind=kind),
                     sorted_check(kind == "stable"))
    same_outcome(lambda: numpy_argsort(n), lambda: tp.argsort(t), assert_same)
    kth = [size // 2, size - 7]
    same_outcome(lambda: np.partition(n, kth), lambda: tp.partition(t, kth),
                 partition_check(n, kth, -1))


@pytest.mark.parametrize("shape, axis", [((2, 300_000), -1), ((300_000, 2), 0),
                                         ((1, 1_000_000), 1), ((3, 100_000), None)],
                         ids=compact_id)
def test_large_2d(device, shape, axis):
    """Long rows beside others (rows and chunks both split over threads), strided lanes
    (along axis 0), and the flattened array."""
    n = large(np.float64, int(np.prod(shape))).reshape(shape)
    t = tp.array(n)
    for kind in (None, "stable"):
        same_outcome(lambda: np.sort(n, axis, kind), lambda: tp.sort(t, axis, kind),
                     sorted_check(kind == "stable"))
    same_outcome(lambda: numpy_argsort(n, axis), lambda: tp.argsort(t, axis), assert_same)
    nc, tc = n.copy(), tp.array(n)
    same_outcome(lambda: nc.sort(axis or 0, "stable"), lambda: tc.sort(axis or 0, "stable"),
                 lambda got, expected: assert_sorted_like(tc, nc, stable=True))


# --------------------------------------------------------------------------------------------
# inputs: pending results, Python sequences


def test_pending_inputs(device):
    """Pending elementwise results (of >= 4096 elements) are computed before they are
    sorted; a pending result computed from an array sorted in place afterwards keeps the
    values of the time it was written."""
    nx, ny = sample((80, 60), np.float32, 1), sample((80, 60), np.float32, 2)
    tx, ty = tp.array(nx), tp.array(ny)
    assert_sorted_like(tp.sort(tx * 2), np.sort(nx * 2))
    assert_sorted_like(tp.sort(tx - ty, axis=0), np.sort(nx - ny, axis=0))
    assert_sorted_like(tp.sort(tx + ty, axis=None, kind="stable"),
                       np.sort(nx + ny, axis=None, kind="stable"), stable=True)
    assert_same(tp.argsort(tx * ty, axis=0), np.argsort(nx * ny, axis=0, kind="stable"))
    assert_same(tp.argsort(tx > ty), np.argsort(nx > ny, kind="stable"))
    partition_check(nx + 1, 30, -1)(tp.partition(tx + 1, 30), np.partition(nx + 1, 30))
    argpartition_check(nx * ny, 5, 0)(tp.argpartition(tx * ty, 5, 0),
                                       np.argpartition(nx * ny, 5, 0))
    assert_sorted_like(tp.sort_complex(tx - 1), np.sort_complex(nx - 1))
    pending = tx * 3
    pending.sort(axis=0)
    assert_sorted_like(pending, np.sort(nx * 3, axis=0))
    later = tx + 1
    tx.sort()
    assert_same(later, nx + 1)
    assert_same(tx, np.sort(nx))


@pytest.mark.parametrize("value", [[3, 1, 2], [[1.5, -1.0], [0.0, 2.0]], [True, False, True],
                                   [1 + 2j, 1 - 2j, 0j], [3, 2.5], 5, 2.5, [], [[]]],
                         ids=compact_id)
def test_non_array_inputs(device, value):
    """Python scalars and (nested) lists convert as NumPy converts them. A device that
    refuses host data refuses the lists (scalars are accepted): there the lists are sorted
    as tessera.asarray brings them to the device."""
    given = value
    if refuses_host_data() and is_host_data(value):
        for call in (tp.sort, tp.argsort, tp.sort_complex, lambda x: tp.partition(x, 0)):
            assert_refuses_host_data(lambda: call(value))
        given = tp.asarray(value)
    for axis in (-1, None):
        same_outcome(lambda: np.sort(value, axis), lambda: tp.sort(given, axis),
                     sorted_check(False))
        if np.ndim(value):  # scalars: test_indices_of_0d
            same_outcome(lambda: np.argsort(value, axis, kind="stable"),
                         lambda: tp.argsort(given, axis), assert_same)
    same_outcome(lambda: np.sort_complex(value), lambda: tp.sort_complex(given),
                 sorted_check(False))
    if np.size(value):  # empty: test_partition_empty
        same_outcome(lambda: np.partition(value, 0), lambda: tp.partition(given, 0),
                     partition_check(np.asarray(value), 0, -1))
