"""Advanced indexing checked against NumPy: integer and boolean arrays, lists and Python bools,
mixed with integers, slices, None and Ellipsis in any position. getitem gives NumPy's values,
dtype and shape in a new array that shares nothing with the source; setitem leaves NumPy's data
(duplicates: the last value wins; casts; overlapping source and destination); every dtype,
the memory layouts, boolean masks (the multithreaded compaction of large arrays included), and
the exception type of each error. Basic indexing (views) is tested in test_indexing.py, whose
assignment checker is reused here."""

import itertools

import numpy as np
import pytest

import tessera as tp

from conftest import ALL_DTYPES, assert_same, sample
from oracle import (assert_raises_type, changed, compact_id, data, make, numpy_result,
                    public_type)
from test_indexing import key_id, same_assignment
from ufunc_oracle import dtype_id, outcome_like_numpy

SHAPE = (4, 5, 6)
LAYOUTS = ["contiguous", "fortran", "strided", "negative", "transposed_negative", "partial",
           "leading", "broadcast"]


# --------------------------------------------------------------------------------------------
# helpers


def raises_like(error, tp_call):
    """tp_call raises the public type of NumPy's `error`, with the "[api]" message prefix."""
    __tracebackhide__ = True
    assert_raises_type(public_type(error), tp_call)


def assert_new_array(got, source):
    """An advanced-indexing result is a new writeable array: writing into it leaves `source`
    as it was (a view would pass the write on)."""
    __tracebackhide__ = True
    assert got.flags.writeable, "advanced indexing must return a writeable array"
    if got.size == 0:
        return
    before = tp.asnumpy(source)
    got[...] = changed(tp.asnumpy(got).flat[0], got.dtype)
    assert_same(source, before)


def same_getitem(n, t, key, tkey=None):
    """t[tkey] (tkey: key by default) is NumPy's n[key] in a new array, or raises the type
    NumPy raises. Returns tessera's result (None where NumPy raises)."""
    __tracebackhide__ = True
    tkey = key if tkey is None else tkey
    got = outcome_like_numpy(lambda: n[key], lambda: t[tkey], assert_same, raises_like)
    if got is not None:
        assert_new_array(got, t)
    return got


def numpy_shape(n, key):
    """The shape of NumPy's n[key]; () where NumPy rejects the key."""
    return np.shape(numpy_result(lambda: n[key])[0])


def tessera_key(key):
    """`key` with its NumPy arrays as tessera arrays."""
    def one(k):
        return tp.array(k) if isinstance(k, np.ndarray) else k

    return tuple(map(one, key)) if isinstance(key, tuple) else one(key)


def mask_of(length, positions):
    """A boolean vector of `length`, True at `positions`."""
    mask = np.zeros(length, bool)
    mask[list(positions)] = True
    return mask


# --------------------------------------------------------------------------------------------
# generated keys: every item kind in one to three positions of a key on a (4, 5, 6) array

# Each item built for the length of the axis it falls on. The index arrays select three
# positions each (the boolean one through its three True), so that any of them broadcast.
ITEMS = {
    "int": lambda n: np.array([-1, 2, 0]),
    "bool": lambda n: mask_of(n, [0, 2, n - 1]),
    "list": lambda n: [n - 1, 0, -2],
    "scalar": lambda n: -2,
    "slice": lambda n: slice(None, None, -2),
    "None": lambda n: None,
    "...": lambda n: Ellipsis,
}
GENERATED = [names for r in (1, 2, 3) for names in itertools.product(ITEMS, repeat=r)
             if {"int", "bool", "list"} & set(names)]


def generated_key(names):
    """The key `names` describes, each item sized for the axis of SHAPE it indexes (an item
    past the last axis, which NumPy rejects anyway, is sized for the first)."""
    indexing = sum(name not in ("None", "...") for name in names)
    axis, key = 0, []
    for name in names:
        key.append(ITEMS[name](SHAPE[axis] if axis < len(SHAPE) else SHAPE[0]))
        if name == "...":
            axis += max(0, len(SHAPE) - indexing)
        elif name != "None":
            axis += 1
    return tuple(key)


@pytest.mark.parametrize("names", GENERATED, ids="-".join)
def test_generated_keys(device, names):
    """NumPy's result shape (the broadcast index dimensions replace adjacent advanced items in
    place, and go first when the items are apart; integers beside arrays count as advanced),
    values and errors; assignment of a scalar and of an array of the result's shape; NumPy and
    tessera arrays as indices."""
    key = generated_key(names)
    n = data(SHAPE, np.float64)
    t = tp.array(n)
    same_getitem(n, t, key)
    same_getitem(n, t, key, tessera_key(key))
    same_assignment(n, t, n, t, key, -0.5)
    value = sample(numpy_shape(n, key), np.float64, seed=1)
    same_assignment(n, t, n, t, tessera_key(key), value, tp.array(value))


# The placement rules by name, on (4, 5, 6), with multi-dimensional index arrays.
ROWS, COLS = np.array([0, 3, 1]), np.array([4, 0])
PLACEMENT = {
    "adjacent_in_place": (slice(None), [0, 1], [2, 3]),
    "apart_first": ([0, 1], slice(None), [2, 3]),
    "integer_beside_array_apart": (0, slice(None), [1, 2]),
    "integer_beside_array_adjacent": (slice(None), 0, [1, 2]),
    "none_between_apart": ([0, 1], None, [2, 3]),
    "ellipsis_between_apart": ([0, 1], Ellipsis, [2, 3]),
    "ellipsis_then_adjacent": (Ellipsis, [0, 1], [2, 3]),
    "outer_product": (ROWS[:, None], COLS),
    "outer_product_apart": (ROWS[:, None], slice(1, 4), COLS),
    "ix_three_axes": np.ix_(ROWS, COLS, [5, 0, 1, 2]),
    "2d_index_first_axis": np.array([[0, 1], [2, 3]]),
    "2d_index_last_axis": (Ellipsis, np.array([[0, 5, 1], [2, 3, 4]])),
    "2d_index_middle": (slice(None), np.array([[4], [0]]), slice(None, None, -1)),
    "broadcast_3d": (np.zeros((2, 1, 3), np.intp), np.ones((4, 1), np.intp)),
    "integer_broadcast": (ROWS, 2),
    "nested_lists": ([[0, 1], [1, 2]], [[3], [4]]),
    "mask_beside_array": (mask_of(4, [1, 3]), slice(None), [5, 0]),
    "2d_mask_then_array": (np.eye(4, 5, dtype=bool), [1, 1, 2, 3]),
    "2d_mask_last": (slice(None), np.eye(5, 6, dtype=bool)),
    "bool_scalar_beside_array": (True, slice(None), [0, 1]),
    "false_beside_list": (slice(None), [[0], [1]], False),
    "true_after_ellipsis": (Ellipsis, True),
    "bool_scalars_around_integer": (True, 0, False),
}


@pytest.mark.parametrize("name", PLACEMENT)
def test_placement_and_broadcasting(device, name):
    key = PLACEMENT[name]
    n = data(SHAPE, np.int32)
    t = tp.array(n)
    same_getitem(n, t, key)
    same_getitem(n, t, key, tessera_key(key))
    shape = numpy_shape(n, key)
    # a value of the result's trailing dimensions, broadcast over the leading ones
    value = sample(shape[len(shape) // 2:], np.int32, seed=1)
    same_assignment(n, t, n, t, key, value)


# --------------------------------------------------------------------------------------------
# dtypes of the array, of the index, and of the value

DTYPE_KEYS = {
    "rows": [2, 0, -1],
    "duplicate_columns": (slice(None), [4, 0, 0]),
    "outer": ([[1], [3]], [0, 2, 4]),
    "row_mask": mask_of(4, [0, 2, 3]),
    "whole_mask": sample((4, 5), np.bool_, seed=2),
    "integer_and_list": (1, [0, -1]),
    "empty": (Ellipsis, np.array([], np.intp)),
}


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("name", DTYPE_KEYS)
def test_dtypes(device, name, dtype):
    key = DTYPE_KEYS[name]
    n = data((4, 5), dtype)
    t = tp.array(n)
    same_getitem(n, t, key)
    same_assignment(n, t, n, t, key, changed(n.flat[0], dtype))
    value = sample(numpy_shape(n, key), dtype, seed=3)
    same_assignment(n, t, n, t, key, value, tp.array(value))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("value", [1, 0, -3, True, 2.5, -0.0, 1 + 0j, 2**40, np.float32(7.5)],
                         ids=compact_id)
def test_setitem_python_scalars(device, dtype, value):
    """Python and NumPy scalars into every dtype, through an index list (scatter) and a whole
    mask (select): converted, or rejected with NumPy's exception type (-3 into unsigned and
    2**40 into small integers: OverflowError)."""
    for key in ([0, 2, 2], mask_of(6, [1, 4])):
        n = data((6,), dtype)
        t = tp.array(n)
        same_assignment(n, t, n, t, key, value)


INDEX_DTYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]


@pytest.mark.parametrize("index_dtype", INDEX_DTYPES, ids=dtype_id)
def test_index_dtypes(device, index_dtype):
    """Index arrays of every integer dtype, negative values in the signed ones."""
    n = data(SHAPE, np.float32)
    t = tp.array(n)
    signed = np.dtype(index_dtype).kind == "i"
    idx = np.array([-1, 0, -4, 2] if signed else [3, 0, 0, 2], index_dtype)
    for key in (idx, (slice(None), idx), (idx, idx[::-1]), (Ellipsis, idx.reshape(2, 2))):
        same_getitem(n, t, key)
        same_getitem(n, t, key, tessera_key(key))
        same_assignment(n, t, n, t, tessera_key(key), 4.0)


def test_uint64_index_wraps(device):
    """NumPy casts uint64 indices to intp unsafely: 2**64 - 1 is -1, 2**63 out of bounds."""
    n = data((5,), np.int16)
    t = tp.array(n)
    same_getitem(n, t, np.array([2**64 - 1, 1], np.uint64))
    same_getitem(n, t, np.array([2**63], np.uint64))


INDEX_LAYOUTS = {
    "reversed": lambda m, i: i[::-1],
    "stepped": lambda m, i: i[::2],
    "transposed_2d": lambda m, i: i.reshape(2, 3).T,
    "broadcast": lambda m, i: m.broadcast_to(i[:3], (2, 3)),
}


@pytest.mark.parametrize("name", INDEX_LAYOUTS)
def test_index_array_layouts(device, name):
    """Non-contiguous and zero-strided index arrays, NumPy's and tessera's."""
    n = data(SHAPE, np.int64)
    t = tp.array(n)
    idx = np.array([3, -1, 0, 2, 2, -4])
    nidx = INDEX_LAYOUTS[name](np, idx)
    tidx = INDEX_LAYOUTS[name](tp, tp.array(idx))
    for nkey, tkey in ((nidx, tidx), ((slice(None), nidx % 5), (slice(None), tidx % 5))):
        same_getitem(n, t, nkey, tkey)
        same_assignment(n, t, n, t, tkey, -9)


def test_pending_index_arrays(device):
    """Index arrays and masks that are pending tessera expressions."""
    n = data(SHAPE, np.float64)
    t = tp.array(n)
    rows = tp.asarray([0, 1, 2, 3])
    same_getitem(n, t, np.array([0, 2, 0, 2]), rows * 2 % 4)
    same_getitem(n, t, (slice(None), np.array([4, 3, 2, 1])), (slice(None), 4 - rows))
    same_getitem(n, t, n[:, :, 0] > 0, t[:, :, 0] > 0)
    same_getitem(n, t, (Ellipsis, n[0, 0] < 0), (Ellipsis, t[0, 0] < 0))
    same_getitem(n, t, n.sum() > 0, t.sum() > 0)


# --------------------------------------------------------------------------------------------
# source layouts

LAYOUT_KEYS = {
    "rows": [3, 0, -1],
    "columns_new_axis": (slice(None), [4, 1], None),
    "apart": ([1, 2], slice(None), [0, 5]),
    "last_axis": (Ellipsis, [5, 0]),
    "mask_slice_list": (mask_of(4, [0, 2, 3]), slice(None, None, -1), [2]),
    "outer_integer": ([[0], [3]], 1, [1, 2]),
    "whole_mask": sample(SHAPE, np.bool_, seed=7),
    "2d_mask": sample(SHAPE[:2], np.bool_, seed=8),
}


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", LAYOUT_KEYS)
def test_layouts(device, name, layout):
    """Gathers and scatters read and write through the source's strides; the owner sees the
    writes. Broadcast sources are read-only: setitem raises ValueError."""
    key = LAYOUT_KEYS[name]
    nbase, tbase, n, t = make(SHAPE, np.int16, layout)
    same_getitem(n, t, key)
    same_assignment(n, t, nbase, tbase, key, -7)
    value = sample(numpy_shape(n, key), np.int16, seed=2)
    same_assignment(n, t, nbase, tbase, key, value, tp.array(value))


@pytest.mark.parametrize("how", ["flag", "broadcast_to"])
@pytest.mark.parametrize("name", ["list", "empty", "whole_mask", "all_false"])
def test_setitem_read_only(device, how, name):
    """Read-only destinations raise ValueError whatever the key selects (nothing included)."""
    key = {"list": [0, 2], "empty": [], "whole_mask": np.ones((4, 3), bool),
           "all_false": np.zeros(4, bool)}[name]
    nbase = data((4, 3), np.int32)
    tbase = tp.array(nbase)
    if how == "flag":
        n, t = nbase, tbase
        n.flags.writeable = False
        t.flags.writeable = False
    else:
        n, t = np.broadcast_to(nbase[0], (4, 3)), tp.broadcast_to(tbase[0], (4, 3))
    for value in (5, np.ones(3, np.int32)):
        same_assignment(n, t, nbase, tbase, key, value)


# --------------------------------------------------------------------------------------------
# empty keys and results, 0-d arrays

EMPTY = {
    "empty_vector_list": ((0,), []),
    "empty_list": ((4, 5), []),
    "empty_intp": ((4, 5), np.array([], np.intp)),
    "empty_uint8": ((4, 5), np.array([], np.uint8)),
    "empty_columns": ((4, 5), (slice(None), [])),
    "empty_pair": ((4, 5), ([], [])),
    "empty_2d_index": ((4, 5), np.zeros((0, 3), np.intp)),
    "empty_broadcast": ((4, 5), (np.zeros((2, 0), np.intp), [[1], [2]])),
    "empty_beside_integer": ((4, 5), ([], 1)),
    "all_false_whole": ((4, 5), np.zeros((4, 5), bool)),
    "all_false_rows": ((4, 5), np.zeros(4, bool)),
    "all_false_with_integer": ((4, 5), (np.zeros(4, bool), 2)),
    "false": ((4, 5), False),
    "false_with_list": ((4, 5), (False, [0])),
    "empty_axis_rows_list": ((0, 3), []),
    "empty_axis_rows_intp": ((0, 3), np.array([], np.intp)),
    "empty_axis_columns_list": ((3, 0), (slice(None), [])),
    "empty_axis_taken_rows": ((3, 0), [0, 2]),
    "empty_axis_whole_mask": ((0, 3), np.zeros((0, 3), bool)),
    "empty_axis_row_mask": ((0, 3), np.array([], bool)),
    "empty_axis_columns": ((0, 3), (slice(None), [2, 0])),
    "empty_axis_column_mask": ((0, 3), (slice(None), [True, False, True])),
    "empty_middle_axis": ((2, 0, 3), (slice(None), slice(None), [1])),
    "empty_middle_axis_rows": ((2, 0, 3), [1, 1, 0]),
}


@pytest.mark.parametrize("name", EMPTY)
def test_empty(device, name):
    """Empty index arrays and empty results: NumPy's shapes; assignment writes nothing."""
    shape, key = EMPTY[name]
    n = data(shape, np.float32)
    t = tp.array(n)
    same_getitem(n, t, key)
    same_getitem(n, t, key, tessera_key(key))
    same_assignment(n, t, n, t, key, 1.5)
    same_assignment(n, t, n, t, key, np.ones(numpy_shape(n, key)[-1:], np.float32))


# NumPy checks neither the bounds of indices broadcast against an empty index, nor the length
# of an empty boolean index: these keys select nothing.
UNCHECKED_EMPTY = {
    "out_of_bounds_beside_empty": ([], [10]),
    "out_of_bounds_beside_empty_2d": (np.zeros((0, 1), np.intp), [10]),
    "short_empty_mask": np.array([], bool),
    "empty_2d_mask": np.zeros((0, 5), bool),
}


@pytest.mark.parametrize("name", UNCHECKED_EMPTY)
def test_empty_indices_unchecked(device, name):
    key = UNCHECKED_EMPTY[name]
    n = data((4, 5), np.int8)
    t = tp.array(n)
    same_getitem(n, t, key)
    same_assignment(n, t, n, t, key, 3)


ZERO_D_KEYS = {
    "True": True, "False": False, "array(True)": np.array(True),
    "array(False)": np.array(False), "bool_(True)": np.bool_(True), "True,None": (True, None),
    "None,False": (None, False), "...,True": (Ellipsis, True), "True,True": (True, True),
    "True,...,False": (True, Ellipsis, False), "True,[0]": (True, [0]),
    "empty_list": [], "[0]": [0],
}


@pytest.mark.parametrize("dtype", [np.bool_, np.int16, np.complex64], ids=dtype_id)
@pytest.mark.parametrize("name", ZERO_D_KEYS)
def test_0d(device, name, dtype):
    """0-d arrays: True adds an axis of one, False of none; integer indices raise."""
    key = ZERO_D_KEYS[name]
    n = data((), dtype)
    t = tp.array(n)
    same_getitem(n, t, key)
    same_getitem(n, t, key, tessera_key(key))
    same_assignment(n, t, n, t, key, changed(n[()], dtype))
    same_assignment(n, t, n, t, key, np.array([1], dtype))


# --------------------------------------------------------------------------------------------
# boolean masks


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.float32, np.float64,
                                   np.complex64], ids=dtype_id)
@pytest.mark.parametrize("shape", [(), (7,), (3, 4), (2, 3, 5), (0, 3)], ids=compact_id)
def test_mask_from_comparison(device, shape, dtype):
    """t[t > 0], with the mask a pending comparison of the indexed array itself; then
    t[t > 0] = scalar and t[t <= 0] = one value per selected element."""
    n = data(shape, dtype)
    t = tp.array(n)
    same_getitem(n, t, n > 0, t > 0)
    same_getitem(n, t, n <= 0, t <= 0)
    n[n > 0] = 0
    t[t > 0] = 0
    assert_same(t, n)
    value = sample((np.count_nonzero(n <= 0),), dtype, seed=4)
    n[n <= 0] = value
    t[t <= 0] = tp.array(value)
    assert_same(t, n)


def one_hot(size, position):
    return mask_of(size, [position])


# 10**6 elements: the compaction and the nonzero behind masks split over threads. The one-hot
# masks put the only True element at either end or at the middle (a thread boundary).
LARGE = 10**6
LARGE_MASKS = {
    "comparison": lambda n: n > 0,
    "all_true": lambda n: np.ones(n.shape, bool),
    "all_false": lambda n: np.zeros(n.shape, bool),
    "first": lambda n: one_hot(n.size, 0).reshape(n.shape),
    "last": lambda n: one_hot(n.size, -1).reshape(n.shape),
    "middle": lambda n: one_hot(n.size, n.size // 2).reshape(n.shape),
    "alternating": lambda n: (np.arange(n.size) % 2 == 0).reshape(n.shape),
}


@pytest.mark.parametrize("shape", [(LARGE,), (1000, 1000)], ids=compact_id)
@pytest.mark.parametrize("pattern", LARGE_MASKS)
def test_large_masks(device, pattern, shape):
    n = data(shape, np.float32)
    t = tp.array(n)
    mask = LARGE_MASKS[pattern](n)
    same_getitem(n, t, mask, tp.array(mask))
    if pattern == "comparison":
        same_getitem(n, t, mask, t > 0)
    value = sample((np.count_nonzero(mask),), np.float32, seed=5)
    same_assignment(n, t, n, t, mask, value, tp.array(value))
    same_assignment(n, t, n, t, mask, np.float32(-2.5))


@pytest.mark.parametrize("name", ["rows", "columns"])
def test_large_partial_masks(device, name):
    """Masks of one axis of a large matrix: a gather of whole rows, and of columns from
    every row (split over threads by row)."""
    n = data((1000, 1000), np.int32)
    t = tp.array(n)
    mask = np.arange(1000) % 3 != 1
    key = mask if name == "rows" else (slice(None), mask)
    same_getitem(n, t, key, tessera_key(key))
    value = sample(numpy_shape(n, key)[1:], np.int32, seed=6)
    same_assignment(n, t, n, t, key, value)


def test_large_gather_scatter(device):
    """10**6 random indices (negative ones and duplicates among them) into a vector and into
    the columns of a matrix."""
    rng = np.random.default_rng(1)
    n = data((LARGE,), np.float64)
    t = tp.array(n)
    idx = rng.integers(-LARGE, LARGE, size=LARGE)
    same_getitem(n, t, idx, tp.array(idx))
    same_assignment(n, t, n, t, idx, sample((LARGE,), np.float64, seed=7))
    n = data((64, 4096), np.int16)
    t = tp.array(n)
    cols = rng.integers(-4096, 4096, size=16384)
    same_getitem(n, t, (slice(None), cols))
    same_assignment(n, t, n, t, (slice(None), cols), sample((64, 16384), np.int16, seed=8))


# --------------------------------------------------------------------------------------------
# setitem: duplicates, broadcasting, casts, overlap

DUPLICATES = {
    "a[[0,0,0]]=[1,2,3]": ((8,), [0, 0, 0], [1, 2, 3]),
    "negative_alias": ((8,), [1, -7, 1, -7], [10, 20, 30, 40]),
    "rows": ((4, 5), [2, 2], np.arange(10).reshape(2, 5)),
    "pairs": ((4, 5), ([1, 1, 1], [3, -2, 3]), [7, 8, 9]),
    "columns": ((4, 5), (slice(None), [0, 4, 0]), np.arange(12).reshape(4, 3)),
    "mask_and_list": ((4, 5), (mask_of(4, [1]), [1, 1]), [5, 6]),
    "broadcast_indices": ((4, 5), ([[0], [0]], [1, 1]), [[1, 2], [3, 4]]),
    "integer_beside": ((4, 5), (3, [2, 2, 2]), [4, 5, 6]),
}


@pytest.mark.parametrize("name", DUPLICATES)
def test_setitem_duplicates(device, name):
    """Among duplicate indices, the last value wins."""
    shape, key, value = DUPLICATES[name]
    n = data(shape, np.int64)
    t = tp.array(n)
    same_assignment(n, t, n, t, key, value)
    same_assignment(n, t, n, t, tessera_key(key), np.asarray(value), tp.array(np.asarray(value)))


def test_augmented_assignment_with_duplicates(device):
    """t[idx] += 1 reads once and writes once: duplicates add one, not one per occurrence."""
    n = data((6,), np.int32)
    t = tp.array(n)
    n[[0, 0, 3, 0]] += 1
    t[[0, 0, 3, 0]] += 1
    assert_same(t, n)
    n[n > 0] *= 2
    t[t > 0] *= 2
    assert_same(t, n)


# Values broadcast to the result's shape, and may have extra leading dimensions of one.
BROADCAST_VALUES = {
    "row_to_rows": ((4, 5), [0, 2], np.arange(5)),
    "column_to_rows": ((4, 5), [0, 2], np.full((2, 1), 9.0)),
    "nested_list": ((4, 5), (slice(None), [1, 3]), [[1], [2], [3], [4]]),
    "to_outer": ((4, 5), ([[0], [3]], [1, 2, 4]), [7, 8, 9]),
    "to_mask_rows": ((4, 5), mask_of(4, [0, 3]), np.arange(5)),
    "single_to_whole_mask": ((4, 5), np.eye(4, 5, dtype=bool), np.array([6])),
    "list_key_leading_ones": ((4,), [0, 2], np.ones((1, 1, 2))),
    "mask_leading_ones": ((4, 5), mask_of(4, [0, 2, 3]), np.ones((1, 1, 5))),
    "mask_and_ellipsis_leading_ones": ((4,), (mask_of(4, [0, 2, 3]), Ellipsis), np.ones((1, 1))),
    "true_leading_ones": ((4,), True, np.ones((1, 1, 4))),
    "2d_index_of_vector_nested_list": ((4,), [[0, 1], [2, 3]], [[10, 11], [12, 13]]),
    "0d_true_list": ((), True, [7]),
}


@pytest.mark.parametrize("name", BROADCAST_VALUES)
def test_setitem_broadcast_values(device, name):
    shape, key, value = BROADCAST_VALUES[name]
    n = data(shape, np.float64)
    t = tp.array(n)
    same_assignment(n, t, n, t, key, value)


# (destination dtype, value): float values truncate toward zero into integer arrays; NumPy
# arrays and scalars are cast unsafely (they wrap); Python numbers out of the destination's
# range raise OverflowError, NaN into integers ValueError, complex into real TypeError.
CASTS = [
    (np.int32, 3.7), (np.int32, -3.7), (np.int8, [2.9, -2.9]), (np.int16, np.array([1.5, -1.5])),
    (np.uint8, np.array([3.99, 250.5])), (np.int64, np.float32(-7.9)), (np.bool_, 0.5),
    (np.bool_, -1), (np.bool_, np.array([0.0, 2.0])), (np.float16, 1e10), (np.float32, 1e300),
    (np.float16, [1e5, -1e5]), (np.float64, np.array([1 + 2j, 3 - 1j])), (np.complex64, 2.5),
    (np.uint8, np.array([-1, 256])), (np.int8, np.int64(300)), (np.uint16, np.int32(-1)),
    (np.int8, 300), (np.int8, -129), (np.uint8, -1), (np.uint16, 2**16), (np.int32, 2**31),
    (np.int64, 2**63), (np.uint64, 2**64), (np.uint64, -1), (np.uint64, 2**64 - 1),
    (np.int8, [1, 300]), (np.int32, np.nan), (np.int64, np.inf), (np.int16, 1e300),
    (np.float64, 1 + 2j), (np.int32, 1j), (np.float64, "1.5"), (np.float64, "abc"),
    (np.float64, None),
]
CAST_KEYS = {"list": [0, 2], "whole_mask": mask_of(4, [1, 2]), "rows_and_column": ([3, 1], 0)}


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("key_name", CAST_KEYS)
@pytest.mark.parametrize("dtype,value", CASTS,
                         ids=[f"{dtype_id(d)}-{compact_id(key_id(v))}" for d, v in CASTS])
def test_setitem_casts(device, dtype, value, key_name):
    key = CAST_KEYS[key_name]
    n = data((4,) if key_name != "rows_and_column" else (4, 3), dtype)
    t = tp.array(n)
    same_assignment(n, t, n, t, key, value)


def test_setitem_tessera_values_cast(device):
    """tessera arrays of another dtype, cast into the destination."""
    n = data((5,), np.int16)
    t = tp.array(n)
    for value in (np.array([2.9, -2.9]), np.array([True, False]), np.array([70000, -1], np.int64)):
        same_assignment(n, t, n, t, [4, 0], value, tp.array(value))
        same_assignment(n, t, n, t, mask_of(5, [1, 3]), value, tp.array(value))


def test_setitem_tessera_scalar_values(device):
    """0-d and one-element tessera arrays as values: the select of a whole mask, and a scatter."""
    n = data((6,), np.float32)
    t = tp.array(n)
    same_assignment(n, t, n, t, n > 0, np.array(5.0), tp.asarray(5.0))
    same_assignment(n, t, n, t, [1, 4], np.array([7.0]), tp.asarray([7.0]))
    same_assignment(n, t, n, t, n < 0, np.array([-1], np.int8), tp.asarray([-1], dtype=np.int8))


# Value views of the destination itself, and values gathered from it.
OVERLAPS = {
    "a[[1,2,3,4,0]]=a": lambda a: ([1, 2, 3, 4, 0], a),
    "a[[4,3,2,1,0]]=a": lambda a: ([4, 3, 2, 1, 0], a),
    "a[:,[3,0,1,2]]=a": lambda a: ((slice(None), [3, 0, 1, 2]), a),
    "a[[1,2,3]]=a[:3]": lambda a: ([1, 2, 3], a[:3]),
    "a[[0,1,2]]=a[2:]": lambda a: ([0, 1, 2], a[2:]),
    "a[[2,0]]=a[1]": lambda a: ([2, 0], a[1]),
    "a[mask]=a[1:4]": lambda a: (mask_of(5, [0, 2, 4]), a[1:4]),
    "a[[0,1],[1,2]]=a[0,:2]": lambda a: (([0, 1], [1, 2]), a[0, :2]),
    "a[[4,3,2]]=a[[0,1,2]]": lambda a: ([4, 3, 2], a[[0, 1, 2]]),
    "a[mask2d]=a[::-1][mask2d]": lambda a: (np.eye(5, 4, dtype=bool),
                                            a[::-1][np.eye(5, 4, dtype=bool)]),
}


@pytest.mark.parametrize("layout", ["contiguous", "fortran", "negative", "strided"])
@pytest.mark.parametrize("name", OVERLAPS)
def test_setitem_overlap(device, name, layout):
    """Source and destination overlap: the result is as if the value were copied first."""
    nbase, tbase, n, t = make((5, 4), np.complex128, layout)
    nkey, nvalue = OVERLAPS[name](n)
    _, tvalue = OVERLAPS[name](t)
    same_assignment(n, t, nbase, tbase, nkey, nvalue, tvalue)


# The index is (a view of) the destination itself: every index is read before any write.
SELF_INDEXED = {
    "a[a]=a": lambda a: (a, a),
    "a[a[::-1]]=a": lambda a: (a[::-1], a),
    "a[a[:3]]=a[3:]": lambda a: (a[:3], a[3:]),
}


@pytest.mark.parametrize("name", SELF_INDEXED)
def test_setitem_index_from_destination(device, name):
    n = np.array([2, 0, 1, 3, 3, 4])
    t = tp.array(n)
    nkey, nvalue = SELF_INDEXED[name](n)
    tkey, tvalue = SELF_INDEXED[name](t)
    n[nkey] = nvalue
    t[tkey] = tvalue
    assert_same(t, n)


# --------------------------------------------------------------------------------------------
# errors

GETITEM_ERRORS = {
    # out of bounds: IndexError
    "oob_list": ((4, 5), [4]),
    "oob_negative": ((4, 5), [0, -5]),
    "oob_column": ((4, 5), (slice(None), [0, 5])),
    "oob_2d_index": ((4, 5), (slice(None), np.array([[1], [-6]]))),
    "oob_integer_beside_array": ((4, 5), (4, [0])),
    "oob_array_beside_integer": ((4, 5), ([0], 5)),
    "oob_after_ellipsis": ((4, 5), (Ellipsis, [5])),
    "oob_uint8": ((4, 5), np.array([200], np.uint8)),
    "oob_empty_axis": ((0, 3), [0]),
    "oob_huge_integer_beside_array": ((4, 5), (2**70, [0])),
    # boolean index of the wrong shape: IndexError
    "mask_short": ((4, 5), np.array([True, False])),
    "mask_list_short": ((4, 5), [True, False, True]),
    "mask_columns": ((4, 5), (slice(None), np.ones(4, bool))),
    "mask_2d": ((4, 5), np.ones((4, 4), bool)),
    "mask_2d_transposed": ((4, 5), np.ones((5, 4), bool)),
    "mask_column_vector": ((4, 5), (slice(None), np.ones((5, 1), bool))),
    "mask_too_many_dims": ((4, 5), np.ones((4, 5, 1), bool)),
    # index arrays that do not broadcast: IndexError
    "no_broadcast": ((4, 5), ([0, 1], [0, 1, 2])),
    "no_broadcast_2d": ((4, 5), (np.zeros((2, 3), np.intp), np.zeros((3, 2), np.intp))),
    "no_broadcast_mask": ((4, 5), (mask_of(4, [0, 1, 2]), [0, 1])),
    "no_broadcast_empty": ((4, 5), ([], [0, 1, 2])),
    "no_broadcast_false": ((4, 5), (False, [0, 1])),
    # indices of other types: IndexError
    "float_array": ((4, 5), np.array([1.0])),
    "float_list": ((4, 5), [1.0, 2.0]),
    "float_column": ((4, 5), (slice(None), np.array([0.5]))),
    "float_empty": ((4, 5), np.array([], np.float64)),
    "float16": ((4, 5), np.array([1], np.float16)),
    "complex": ((4, 5), np.array([1j])),
    "mixed_nested_list": ((4, 5), [[0], [1.0]]),
    "object_list": ((4, 5), [0, slice(None)]),
    "string_list": ((4, 5), ["a"]),
    # too many indices, two ellipses: IndexError
    "too_many": ((4, 5), ([0], [0], [0])),
    "too_many_integers": ((4, 5), (0, 0, [0])),
    "too_many_0d": ((), [0]),
    "two_ellipses": ((4, 5), (Ellipsis, [0], Ellipsis)),
    # ragged lists: NumPy's ValueError from converting them
    "ragged": ((4, 5), [[0, 1], [0]]),
}


@pytest.mark.parametrize("name", GETITEM_ERRORS)
def test_index_errors(device, name):
    """The exception type NumPy raises, in getitem and in setitem (which writes nothing)."""
    shape, key = GETITEM_ERRORS[name]
    n = np.zeros(shape, np.int32)
    t = tp.array(n)
    same_getitem(n, t, key)
    same_assignment(n, t, n, t, key, 1)


def test_index_errors_tessera_keys(device):
    """The same errors with tessera arrays as indices."""
    n = np.zeros((4, 5))
    t = tp.array(n)
    for key in (np.array([4]), (slice(None), np.array([-6])), np.array([True, False]),
                (np.array([0, 1]), np.array([0, 1, 2])), np.array([1.5])):
        same_getitem(n, t, key, tessera_key(key))


VALUE_ERRORS = {
    "list_too_long": ((4, 5), [0, 1], [1, 2, 3]),
    "column_to_vector": ((4,), [0, 1], np.ones((2, 1))),
    "rows_to_columns": ((4, 5), (slice(None), [0, 1]), np.ones(4)),
    "mask_count": ((4,), mask_of(4, [0, 1, 3]), [1, 2]),
    "empty_to_mask": ((4,), mask_of(4, [0, 1, 3]), np.ones(0)),
    "values_to_all_false": ((4,), np.zeros(4, bool), [1, 2]),
    "partial_mask": ((4, 5), mask_of(4, [0, 1, 3]), np.ones((3, 4))),
    "outer": ((4, 5), [[0], [1]], np.ones(3)),
    # NumPy compares the value's shape with the result's before checking the indices
    "shape_before_bounds": ((4,), [10], [1, 2]),
    # NumPy's boolean-mask assignment takes 0-d and 1-d values only (TypeError)
    "whole_mask_2d_value": ((4,), mask_of(4, [0, 1, 3]), np.ones((1, 1))),
    "whole_mask_nested_list": ((4,), mask_of(4, [0, 1, 3]), [[5]]),
}


@pytest.mark.parametrize("name", VALUE_ERRORS)
def test_setitem_value_errors(device, name):
    """Values that do not broadcast to the result: NumPy's exception type, nothing written."""
    shape, key, value = VALUE_ERRORS[name]
    n = data(shape, np.float64)
    t = tp.array(n)
    same_assignment(n, t, n, t, key, value)
    if isinstance(value, np.ndarray):
        same_assignment(n, t, n, t, key, value, tp.array(value))


# --------------------------------------------------------------------------------------------
# nonzero and flatnonzero, in the forms tessera exposes (boolean keys above use them inside)

NONZERO_FORMS = {}
if hasattr(tp, "nonzero"):
    NONZERO_FORMS["nonzero"] = (np.nonzero, tp.nonzero)
if hasattr(tp.ndarray, "nonzero"):
    NONZERO_FORMS["ndarray.nonzero"] = (np.ndarray.nonzero, tp.ndarray.nonzero)
if hasattr(tp, "flatnonzero"):
    NONZERO_FORMS["flatnonzero"] = (np.flatnonzero, tp.flatnonzero)


def assert_same_indices(got, expected):
    """nonzero's tuple of index arrays, or flatnonzero's array, as NumPy gives them."""
    __tracebackhide__ = True
    if not isinstance(expected, tuple):
        assert_same(got, expected)
        return
    assert isinstance(got, tuple), f"expected a tuple, got {type(got).__name__}"
    assert len(got) == len(expected), f"{len(got)} index arrays != {len(expected)}"
    for g, e in zip(got, expected):
        assert_same(g, e)


def same_indices(np_call, tp_call, n, t):
    __tracebackhide__ = True
    outcome_like_numpy(lambda: np_call(n), lambda: tp_call(t), assert_same_indices, raises_like)


NONZERO_SPECIAL = {
    "signed_zeros_nan_inf_tiny": np.array([0.0, -0.0, np.nan, np.inf, 1e-300, 5e-324, 0.0]),
    "float16_subnormal": np.array([0, -0.0, 6e-8, 0], np.float16),
    "complex_parts": np.array([0j, complex(-0.0, 0.0), 1j, complex(np.nan, 0), 0j]),
    "all_zero": np.zeros((3, 4), np.int64),
    "all_nonzero": np.ones((3, 4), np.uint8),
}

if NONZERO_FORMS:
    @pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
    @pytest.mark.parametrize("form", NONZERO_FORMS)
    def test_nonzero_dtypes_and_shapes(device, form, dtype):
        """Every dtype and shape; 0-d arrays: nonzero raises ValueError as NumPy does."""
        np_call, tp_call = NONZERO_FORMS[form]
        for shape in [(), (7,), (3, 4), (2, 3, 5), (0, 3), (3, 0, 2)]:
            n = data(shape, dtype)
            same_indices(np_call, tp_call, n, tp.array(n))

    @pytest.mark.parametrize("layout", LAYOUTS)
    @pytest.mark.parametrize("form", NONZERO_FORMS)
    def test_nonzero_layouts(device, form, layout):
        np_call, tp_call = NONZERO_FORMS[form]
        _, _, n, t = make(SHAPE, np.bool_, layout)
        same_indices(np_call, tp_call, n, t)

    @pytest.mark.parametrize("name", NONZERO_SPECIAL)
    @pytest.mark.parametrize("form", NONZERO_FORMS)
    def test_nonzero_special_values(device, form, name):
        """NaN is nonzero, -0.0 is zero, a complex number is nonzero by either part."""
        np_call, tp_call = NONZERO_FORMS[form]
        n = NONZERO_SPECIAL[name]
        same_indices(np_call, tp_call, n, tp.array(n))

    @pytest.mark.parametrize("shape", [(LARGE,), (1000, 1000)], ids=compact_id)
    @pytest.mark.parametrize("pattern", ["comparison", "middle", "alternating", "all_false"])
    @pytest.mark.parametrize("form", NONZERO_FORMS)
    def test_nonzero_large(device, form, pattern, shape):
        """The multithreaded count-and-copy over 10**6 elements."""
        np_call, tp_call = NONZERO_FORMS[form]
        n = LARGE_MASKS[pattern](data(shape, np.float32))
        same_indices(np_call, tp_call, n, tp.array(n))
