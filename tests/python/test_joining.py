"""Joining, splitting and rearranging arrays, and the matrix helpers, checked against NumPy:
concatenate and the stack family (dtype=, casting=, out=, promotion), the split family, tile,
repeat, flip, fliplr, flipud, roll, rot90, append, insert, delete, resize, trim_zeros; tri,
tril, triu, diag, diagflat, diagonal, trace and meshgrid.

Results are compared by value, dtype and shape; bad input raises NumPy's exception type. Where
NumPy returns views (the splits, the flips, rot90, trim_zeros, diagonal) tessera must too:
the result's owner is the source's, and a write through it shows in the source (diagonal's
view is read-only: writing raises ValueError). Where NumPy returns new arrays, writing into
the result leaves the source as it was."""

import numpy as np
import pytest

import tessera as tp

from conftest import ALL_DTYPES, assert_same
from oracle import assert_raises_like, changed, compact_id, data, host_data_refused, make, owner
from test_index_functions import assert_like, device_inputs, raises_like, same_call, to_tp
from test_views import check_view_result
from ufunc_oracle import assert_close, dtype_id, outcome_like_numpy

LAYOUTS = ["contiguous", "fortran", "strided", "negative", "transposed_negative", "broadcast"]
VIEW_LAYOUTS = ["contiguous", "fortran", "strided", "negative"]  # writeable views
CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]
# One dtype of each kind and a few sizes, for the promotion and casting grids.
KINDS = [np.bool_, np.int8, np.uint16, np.int64, np.uint64, np.float16, np.float64,
         np.complex64]


# --------------------------------------------------------------------------------------------
# helpers


def assert_new_array(got, source):
    """A result NumPy returns as a new array: writeable, and writing into it leaves `source`
    (a tessera array) as it was."""
    __tracebackhide__ = True
    assert got.flags.writeable, "expected a new writeable array"
    if got.size == 0:
        return
    before = tp.asnumpy(source)
    got[(0,) * got.ndim] = changed(tp.asnumpy(got).flat[0], got.dtype)
    assert_same(source, before)


def same_views(np_func, tp_func, layout, shape, dtype, *args, **kwargs):
    """np_func(view, ...) and tp_func(view, ...) of the same layout give the same arrays, each
    a view of the source where NumPy's is (writes show through), or raise alike."""
    __tracebackhide__ = True
    nbase, tbase, n, t = make(shape, dtype, layout)
    got = outcome_like_numpy(lambda: np_func(n, *args, **kwargs),
                             lambda: tp_func(t, *args, **kwargs), assert_like, raises_like)
    if got is None:
        return
    expected = np_func(n, *args, **kwargs)
    for g, e in zip(got, expected) if isinstance(expected, list) else [(got, expected)]:
        check_view_result(g, np.asarray(e), nbase, tbase)


# --------------------------------------------------------------------------------------------
# concatenate

# (shapes, axis): what NumPy joins, and what it rejects (ValueError: shapes, AxisError: axis)
CONCAT_CASES = {
    "rows": (((2, 3), (4, 3)), 0),
    "columns": (((2, 3), (2, 1)), 1),
    "negative_axis": (((2, 3), (2, 0)), -1),
    "empty_first": (((0, 3), (2, 3)), 0),
    "1d": (((5,), (3,), (1,)), 0),
    "3d_middle": (((2, 3, 4), (2, 1, 4)), 1),
    "one": (((2, 3),), 1),
    "flat": (((2, 3), (5,), ()), None),
    "flat_empty": (((0, 3), (0,)), None),
    "shape_mismatch": (((2, 3), (3, 2)), 0),
    "ndim_mismatch": (((2, 3), (3,)), 0),
    "0d": (((), ()), 0),
    "bad_axis": (((2, 3), (2, 3)), 2),
    "bad_negative_axis": (((2, 3), (2, 3)), -3),
}


@pytest.mark.parametrize("name", CONCAT_CASES)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_concatenate(device, dtype, name):
    shapes, axis = CONCAT_CASES[name]
    arrays = [data(s, dtype, seed=i) for i, s in enumerate(shapes)]
    got = same_call("concatenate", arrays, axis=axis)
    if got is not None:
        assert_new_array(got, tp.array(arrays[0]))


@pytest.mark.parametrize("dtype", KINDS, ids=dtype_id)
def test_concatenate_promotion(device, dtype):
    """The result dtype is NumPy's promotion of every pair (uint64 and int64: float64)."""
    for other in KINDS:
        arrays = [data((2,), dtype), data((3,), other, seed=1)]
        same_call("concatenate", arrays)
        same_call("stack", [arrays[0], arrays[1][:2]], axis=1)


@pytest.mark.parametrize("casting", CASTINGS)
@pytest.mark.parametrize("target", KINDS, ids=dtype_id)
def test_concatenate_dtype_casting(device, target, casting):
    """dtype= is the result dtype; each input must cast to it under `casting` (TypeError)."""
    for dtype in KINDS:
        arrays = [data((2, 2), dtype), data((1, 2), np.int8, seed=1)]
        same_call("concatenate", arrays, dtype=target, casting=casting)
        same_call("stack", [arrays[0], arrays[0]], dtype=target, casting=casting)
        same_call("vstack", arrays, dtype=target, casting=casting)
        same_call("hstack", [arrays[0], arrays[0]], dtype=target, casting=casting)


@pytest.mark.parametrize("casting", CASTINGS)
def test_concatenate_casting_without_dtype(device, casting):
    """Without dtype=, the inputs cast to their promoted dtype: 'no' and 'equiv' refuse mixed
    inputs, 'safe' accepts them."""
    for dtypes in ((np.int16, np.int16), (np.int16, np.float32), (np.uint8, np.int8)):
        arrays = [data((2,), d, seed=i) for i, d in enumerate(dtypes)]
        same_call("concatenate", arrays, casting=casting)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_concatenate_layouts(device, layout):
    _, _, n, t = make((3, 4, 5), np.complex64, layout)
    for axis in (0, 1, 2, None):
        outcome_like_numpy(lambda: np.concatenate([n, n[:1]] if axis == 0 else [n, n], axis),
                           lambda: tp.concatenate([t, t[:1]] if axis == 0 else [t, t], axis),
                           assert_like, raises_like)


def test_concatenate_inputs(device):
    """Lists, tuples and scalars converted as NumPy converts them, mixed with tessera and
    NumPy arrays (a device that refuses host data refuses the lists and NumPy arrays)."""
    same_call("concatenate", [[1, 2], [3]])
    same_call("concatenate", ([1.5], np.array([2], np.int8)))
    same_call("concatenate", [[[1, 2]], np.array([[3, 4]], np.uint8)], axis=0)
    same_call("concatenate", [1, [2]], axis=None)
    n = data((2, 3), np.int32)
    if not host_data_refused(lambda: tp.concatenate([tp.array(n), n])):
        assert_same(tp.concatenate([tp.array(n), n]), np.concatenate([n, n]))


# out= : the result is written into out, which is returned; out's dtype must be reachable
# under casting (float into an int out: TypeError); its shape must be the result's
# (ValueError).
JOIN_OUTS = [(np.int64, "same_kind"), (np.float32, "same_kind"), (np.int8, "same_kind"),
             (np.int8, "safe"), (np.int8, "unsafe")]
JOIN_OUT_SHAPES = {"concatenate": ((4, 3), (3, 4)), "stack": ((2, 2, 3), (2, 3, 2))}


@pytest.mark.parametrize("right_shape", [True, False], ids=["shape", "wrong_shape"])
@pytest.mark.parametrize("out_dtype,casting", JOIN_OUTS,
                         ids=[f"{dtype_id(d)}-{c}" for d, c in JOIN_OUTS])
@pytest.mark.parametrize("function", JOIN_OUT_SHAPES)
def test_join_out(device, function, out_dtype, casting, right_shape):
    arrays = [data((2, 3), np.int64), data((2, 3), np.float16, seed=1)]
    shape = JOIN_OUT_SHAPES[function][0 if right_shape else 1]
    nout, tout = np.zeros(shape, out_dtype), tp.zeros(shape, dtype=out_dtype)
    got = outcome_like_numpy(
        lambda: getattr(np, function)(arrays, out=nout, casting=casting),
        lambda: getattr(tp, function)(to_tp(arrays), out=tout, casting=casting),
        assert_like, raises_like)
    if got is not None:
        assert got is tout, f"{function}(out=...) must return out"
        assert_same(tout, nout)


CONCAT_ERRORS = {
    "empty_list": lambda m: m.concatenate([]),
    "empty_tuple_axis_none": lambda m: m.concatenate((), axis=None),
    "out_and_dtype": lambda m: m.concatenate([m.zeros(2)], out=m.zeros(2), dtype=float),
    "bad_casting": lambda m: m.concatenate([m.zeros(2)], casting="bogus"),
    "float_axis": lambda m: m.concatenate([m.zeros((2, 2))], axis=1.0),
    "stack_empty": lambda m: m.stack([]),
    "stack_shapes": lambda m: m.stack([m.zeros(2), m.zeros(3)]),
    "stack_bad_axis": lambda m: m.stack([m.zeros((2, 3))], axis=3),
    "stack_bad_negative_axis": lambda m: m.stack([m.zeros((2, 3))], axis=-4),
    "vstack_empty": lambda m: m.vstack([]),
    "vstack_columns": lambda m: m.vstack([m.zeros((2, 3)), m.zeros((2, 2))]),
    "hstack_empty": lambda m: m.hstack(()),
    "hstack_ndim": lambda m: m.hstack([m.ones(2), m.ones((2, 1))]),
    "dstack_empty": lambda m: m.dstack([]),
    "column_stack_rows": lambda m: m.column_stack([m.zeros(2), m.zeros(3)]),
}


@pytest.mark.parametrize("name", CONCAT_ERRORS)
def test_concatenate_errors(device, name):
    call = CONCAT_ERRORS[name]
    assert_raises_like(lambda: call(np), lambda: call(tp))


# --------------------------------------------------------------------------------------------
# stack, vstack, hstack, dstack, column_stack


@pytest.mark.parametrize("shape", [(), (0,), (4,), (2, 3), (2, 0, 3)], ids=compact_id)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_stack(device, dtype, shape):
    arrays = [data(shape, dtype, seed=s) for s in range(3)]
    for axis in range(-len(shape) - 1, len(shape) + 1):
        same_call("stack", arrays, axis=axis)
    same_call("stack", arrays[:1])


# The inputs of each stacking function, by the dimensions NumPy promotes them to.
STACK_INPUTS = {
    "scalars": [1, 2.5],
    "0d": [np.array(1, np.int8), np.array(2, np.int8)],
    "1d": [np.arange(3), np.arange(3, 6)],
    "1d_lists": [[1, 2], [3, 4]],
    "1d_lengths": [np.arange(3), np.arange(2)],
    "2d": [np.arange(6).reshape(2, 3), np.arange(6, 12).reshape(2, 3)],
    "2d_and_1d": [np.arange(6).reshape(2, 3), np.arange(3)],
    "2d_columns": [np.arange(6).reshape(3, 2), np.ones((3, 1))],
    "3d": [np.zeros((2, 3, 4)), np.ones((2, 3, 1))],
    "one": [np.arange(4).reshape(2, 2)],
    "empty_rows": [np.zeros((0, 3)), np.ones((2, 3))],
    "mixed_dtypes": [np.array([1, 2], np.uint8), np.array([-1.5, 2.5], np.float32)],
}


STACK_FUNCTIONS = ["vstack", "hstack", "dstack", "column_stack"]


@pytest.mark.parametrize("name", STACK_INPUTS)
@pytest.mark.parametrize("function", STACK_FUNCTIONS)
def test_stack_family(device, function, name):
    """NumPy's results (atleast_2d rows, columns of 1-d inputs, atleast_3d depth), or its
    exception on dimensions that do not match; lists and tuples of inputs."""
    arrays = STACK_INPUTS[name]
    same_call(function, arrays)
    same_call(function, tuple(arrays))


@pytest.mark.parametrize("function", ["concatenate", "stack"] + STACK_FUNCTIONS)
def test_array_as_sequence(device, function):
    """A 2-d array as the sequence: its rows are the inputs."""
    n = data((3, 4), np.int16)
    outcome_like_numpy(lambda: getattr(np, function)(n), lambda: getattr(tp, function)(tp.array(n)),
                       assert_like, raises_like)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("function", ["stack", "vstack", "hstack", "dstack", "column_stack"])
def test_stack_layouts(device, function, layout):
    _, _, n, t = make((3, 4), np.float32, layout)
    outcome_like_numpy(lambda: getattr(np, function)([n, n[::-1]]),
                       lambda: getattr(tp, function)([t, t[::-1]]), assert_like, raises_like)


# --------------------------------------------------------------------------------------------
# split, array_split, hsplit, vsplit, dsplit

# (function, shape, indices_or_sections, axis); axis None: the function's own
SPLIT_CASES = {
    "split_sections": ("split", (6,), 3, 0),
    "split_rows": ("split", (4, 3), 2, 0),
    "split_columns": ("split", (2, 6), 3, 1),
    "split_negative_axis": ("split", (2, 3, 4), 2, -1),
    "split_indices": ("split", (6,), [2, 10, 1], 0),
    "split_negative_index": ("split", (6,), [-2], 0),
    "split_index_array": ("split", (6, 2), np.array([2, 4]), 0),
    "split_empty_indices": ("split", (3, 2), [], 1),
    "split_one": ("split", (4,), 1, 0),
    "split_empty_axis": ("split", (0, 3), 2, 0),
    "array_split_uneven": ("array_split", (7,), 3, 0),
    "array_split_more_than_length": ("array_split", (3,), 5, 0),
    "array_split_columns": ("array_split", (2, 5), 2, 1),
    "array_split_indices": ("array_split", (5, 2), [1, 3], 0),
    "hsplit_1d": ("hsplit", (6,), 2, None),
    "hsplit_2d": ("hsplit", (2, 6), [1, 4], None),
    "vsplit": ("vsplit", (4, 3), 2, None),
    "dsplit": ("dsplit", (2, 2, 4), [3], None),
}


@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
@pytest.mark.parametrize("name", SPLIT_CASES)
def test_split(device, name, layout):
    """The pieces NumPy returns, in a list; each a view of the source."""
    function, shape, sections, axis = SPLIT_CASES[name]
    kwargs = {} if axis is None else {"axis": axis}
    same_views(getattr(np, function), getattr(tp, function), layout, shape, np.int32, sections,
               **kwargs)


# Unequal or no sections, too few dimensions: ValueError; float indices: TypeError.
SPLIT_ERRORS = {
    "split_unequal": ("split", (7,), 3, 0),
    "split_negative_sections": ("split", (6,), -1, 0),
    "array_split_zero": ("array_split", (6,), 0, 0),
    "hsplit_0d": ("hsplit", (), 1, None),
    "vsplit_1d": ("vsplit", (6,), 2, None),
    "dsplit_2d": ("dsplit", (2, 2), 1, None),
    "split_float_index": ("split", (6,), [2.0], 0),
}


@pytest.mark.parametrize("name", SPLIT_ERRORS)
def test_split_errors(device, name):
    function, shape, sections, axis = SPLIT_ERRORS[name]
    kwargs = {} if axis is None else {"axis": axis}
    same_call(function, np.zeros(shape), sections, **kwargs)


@pytest.mark.parametrize("function", ["split", "array_split"])
def test_split_bad_axis(device, function):
    """NumPy reads the axis length before checking the axis: IndexError. tessera's AxisError
    is an IndexError, so code catching NumPy's exception catches it."""
    with pytest.raises(IndexError):
        getattr(tp, function)(tp.arange(6), 2, axis=1)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_split_dtypes(device, dtype):
    n = data((4, 6), dtype)
    for function, sections, axis in (("split", 2, 0), ("array_split", 4, 1),
                                     ("array_split", [1, 5], 1)):
        same_call(function, n, sections, axis=axis)


# --------------------------------------------------------------------------------------------
# tile, repeat

TILE_REPS = [2, 0, (2, 1), (1, 3), (2, 1, 3), (), (2, 0), 1, (1, 1)]


@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (0, 2)], ids=compact_id)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_tile(device, dtype, shape):
    n = data(shape, dtype)
    for reps in TILE_REPS:
        same_call("tile", n, reps)


@pytest.mark.parametrize("reps", [1, (1, 1), (), 2], ids=compact_id)
def test_tile_copies(device, reps):
    """tile always returns a new writeable array, even when every repetition is one."""
    t = tp.array(data((2, 3), np.int16))
    assert_new_array(tp.tile(t, reps), t)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_tile_layouts(device, layout):
    _, _, n, t = make((2, 3), np.float64, layout)
    for reps in ((2, 2), (3, 1, 2)):
        assert_same(tp.tile(t, reps), np.tile(n, reps))


@pytest.mark.parametrize("reps", [-1, (2, -1), 1.5], ids=compact_id)
def test_tile_errors(device, reps):
    same_call("tile", np.arange(3), reps)


REPEATS = {
    "scalar": (2, None),
    "zero": (0, None),
    "rows": (2, 0),
    "per_row": ([1, 0, 3], 0),
    "per_column": ([2, 1], -1),
    "one_element_list": ([3], 1),
    "0d_array": (np.array(2), 0),
    "uint8_counts": (np.array([1, 2, 0], np.uint8), 0),
    "bool": (True, 1),
    "per_element_flat": (list(range(6)), None),
    # errors: negative, wrong length (ValueError), bad axis (AxisError), 2-d repeats
    "negative": (-1, None),
    "negative_entry": ([1, -1, 1], 0),
    "wrong_length": ([1, 2], 0),
    "wrong_length_flat": ([1, 2], None),
    "bad_axis": (2, 2),
    "2d_repeats": ([[1, 2]], 1),
}


@pytest.mark.parametrize("name", REPEATS)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_repeat(device, dtype, name):
    repeats, axis = REPEATS[name]
    same_call("repeat", data((3, 2), dtype), repeats, axis=axis)


@pytest.mark.parametrize("name", ["0d", "0d_axis", "empty", "list", "layout"])
def test_repeat_inputs(device, name):
    if name == "layout":
        _, _, n, t = make((3, 4), np.int8, "negative")
        assert_same(tp.repeat(t, [1, 2, 0, 1], axis=1), np.repeat(n, [1, 2, 0, 1], axis=1))
        return
    x, args = {"0d": (np.array(3.5), (3,)), "0d_axis": (np.array(3.5), (3, 0)),
               "empty": (np.zeros((0, 2)), (3, 0)), "list": ([[1, 2], [3, 4]], ([1, 2], 0))}[name]
    same_call("repeat", x, *args)


@pytest.mark.parametrize("name", ["float", "float_array", "uint64_array"])
def test_repeat_count_dtypes(device, name):
    """Counts cast to intp as NumPy casts them: floats are accepted (truncated), uint64 is
    refused (TypeError)."""
    repeats = {"float": 1.5, "float_array": np.array([1.0, 2.0, 0.5]),
               "uint64_array": np.array([1, 2, 3], np.uint64)}[name]
    same_call("repeat", data((3,), np.int32), repeats)


# --------------------------------------------------------------------------------------------
# flip, fliplr, flipud, rot90

FLIP_AXES = [None, 0, -1, (0, 2), (), (2, 1, 0)]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_flip_dtypes(device, dtype):
    n = data((2, 3, 4), dtype)
    for axis in FLIP_AXES:
        same_call("flip", n, axis=axis)
    same_call("fliplr", n)
    same_call("flipud", n)


@pytest.mark.parametrize("axis", FLIP_AXES, ids=compact_id)
@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_flip_views(device, layout, axis):
    """Flips are views with negated strides: writes show through."""
    same_views(np.flip, tp.flip, layout, (2, 3, 4), np.int16, axis=axis)


@pytest.mark.parametrize("function", ["fliplr", "flipud"])
@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_fliplr_flipud_views(device, function, layout):
    same_views(getattr(np, function), getattr(tp, function), layout, (3, 4), np.float32)


FLIP_ERRORS = {
    "bad_axis": lambda m: m.flip(m.zeros((2, 3)), axis=2),
    "repeated_axis": lambda m: m.flip(m.zeros((2, 3)), axis=(0, 0)),
    "0d_axis": lambda m: m.flip(m.asarray(3), 0),
    "fliplr_1d": lambda m: m.fliplr(m.zeros(3)),
    "flipud_0d": lambda m: m.flipud(m.asarray(3)),
}


@pytest.mark.parametrize("name", FLIP_ERRORS)
def test_flip_errors(device, name):
    call = FLIP_ERRORS[name]
    assert_raises_like(lambda: call(np), lambda: call(tp))


def test_flip_0d_and_lists(device):
    same_call("flip", np.array(3.5))
    same_call("flip", [[1, 2], [3, 4]], axis=1)
    same_call("fliplr", [[1, 2], [3, 4]])


@pytest.mark.parametrize("axes", [(0, 1), (1, 0), (1, 2), (-1, 0), (2, -3)], ids=compact_id)
@pytest.mark.parametrize("k", [-3, -1, 0, 1, 2, 3, 4, 5])
def test_rot90(device, k, axes):
    """Rotations in every plane, as views of the source."""
    same_views(np.rot90, tp.rot90, "contiguous", (2, 3, 4), np.int64, k, axes)


@pytest.mark.parametrize("layout", VIEW_LAYOUTS)
def test_rot90_layouts(device, layout):
    for k in (1, 2, 3):
        same_views(np.rot90, tp.rot90, layout, (3, 4), np.complex128, k)


@pytest.mark.parametrize("axes", [(0, 0), (0, 2), (0, -2), (0,), (0, 1, 2), (0, 3)],
                         ids=compact_id)
def test_rot90_errors(device, axes):
    """Equal axes (also modulo ndim), not two of them, or out of range: ValueError."""
    same_call("rot90", np.zeros((2, 3)), 1, axes)


def test_rot90_1d(device):
    same_call("rot90", np.arange(3))


# --------------------------------------------------------------------------------------------
# roll


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_roll_dtypes(device, dtype):
    n = data((3, 4), dtype)
    for shift, axis in ((1, None), (-5, None), (2, 0), (-1, 1), ((1, 2), (0, 1))):
        same_call("roll", n, shift, axis=axis)


# (shape, shift, axis): shifts past the length wrap, repeated axes add up, a shift tuple
# with one axis adds up on it; shift and axis tuples broadcast against each other.
ROLLS = {
    "big_shift": ((5,), 13, None),
    "negative_big": ((5,), -13, 0),
    "zero": ((2, 3), 0, None),
    "flat_2d": ((2, 3), 4, None),
    "tuples": ((2, 3, 4), (1, -2, 5), (0, 1, 2)),
    "repeated_axis": ((2, 3), (1, 1), (1, 1)),
    "shift_tuple_one_axis": ((2, 3), (1, 2), 0),
    "one_shift_two_axes": ((2, 3), 1, (0, 1)),
    "empty": ((0, 3), 2, 0),
    "empty_flat": ((3, 0), 2, None),
    "0d": ((), 1, None),
    # errors
    "bad_axis": ((2, 3), 1, 2),
    "0d_axis": ((), 1, 0),
    "mismatched_tuples": ((2, 3), (1, 2), (0, 1, 1)),
}


@pytest.mark.parametrize("layout", ["contiguous", "fortran", "negative", "broadcast"])
@pytest.mark.parametrize("name", ROLLS)
def test_roll(device, name, layout):
    shape, shift, axis = ROLLS[name]
    _, tbase, n, t = make(shape, np.int32, layout)
    got = outcome_like_numpy(lambda: np.roll(n, shift, axis=axis),
                             lambda: tp.roll(t, shift, axis=axis), assert_like, raises_like)
    if got is not None:
        assert_new_array(got, tbase)


def test_roll_lists(device):
    same_call("roll", [[1, 2, 3], [4, 5, 6]], 1, axis=1)
    same_call("roll", [1, 2, 3], np.int8(-1))


# --------------------------------------------------------------------------------------------
# append, insert, delete, resize, trim_zeros

APPENDS = {
    "flat": (np.arange(6).reshape(2, 3), [7, 8], None),
    "flat_float": (np.arange(6).reshape(2, 3), 1.5, None),
    "rows": (np.arange(6).reshape(2, 3), [[7, 8, 9]], 0),
    "columns": (np.arange(6).reshape(2, 3), np.ones((2, 1), np.int8), 1),
    "0d": (np.array(3), 4, None),
    "empty": (np.zeros(0, np.float32), [], None),
    "lists": ([1, 2], [[3]], None),
    # errors
    "ndim_mismatch": (np.arange(6).reshape(2, 3), [1, 2, 3], 0),
    "shape_mismatch": (np.arange(6).reshape(2, 3), [[1, 2]], 0),
    "bad_axis": (np.arange(6).reshape(2, 3), [[1, 2, 3]], 2),
}


@pytest.mark.parametrize("name", APPENDS)
def test_append(device, name):
    arr, values, axis = APPENDS[name]
    same_call("append", arr, values, axis=axis)


# NumPy's insert: one position (a scalar) takes a block of values broadcast along the axis,
# with the values' first axis moved to `axis`; a one-element sequence takes the block as it
# is; several positions take one value each, positions refer to the original array, and equal
# positions keep the order of the values.
INSERTS = {
    "scalar": ((5,), 2, 9, None),
    "scalar_block": ((5,), 1, [7, 8, 9], None),
    "end": ((5,), 5, 9, None),
    "negative": ((5,), -1, 9, None),
    "scalar_float_value": ((5,), 2, 2.7, None),
    "scalar_2d_columns": ((2, 3), 1, [7, 8], 1),
    "scalar_2d_block": ((2, 3), 1, [[7], [8]], 1),
    "sequence_one": ((2, 3), [1], [7, 8], 1),
    "sequence_one_block": ((2, 3), [1], [[7], [8]], 1),
    "scalar_row": ((2, 3), 1, 7, 0),
    "scalar_rows": ((2, 3), 1, [[1, 2, 3], [4, 5, 6]], 0),
    "several": ((5,), [3, 0, 3], [1, 2, 3], None),
    "several_scalar_value": ((5,), [1, 4, -1], 0, None),
    "several_columns": ((2, 3), [1, 1], [7, 8], 1),
    "slice": ((2, 3), slice(0, 3, 2), [7, 8], 1),
    "reversed_slice": ((5,), slice(None, None, -1), 0, None),
    "empty_list": ((5,), [], 9, None),
    "flat_2d": ((2, 3), 4, [7, 8], None),
    "0d": ((), 0, 1, None),
    "bool_mask": ((6,), np.array([True, False, False, True, False, False]), 9, None),
    # errors
    "out_of_bounds": ((5,), 6, 9, None),
    "negative_out_of_bounds": ((5,), -6, 9, None),
    "several_out_of_bounds": ((5,), [1, 7], 9, None),
    "2d_obj": ((5,), [[1]], 9, None),
    "float_obj": ((5,), [1.0], 9, None),
    "float_obj_several": ((5,), [1.0, 2.0], 9, None),
    "values_mismatch": ((5,), [3, 0], [1, 2, 3], None),
    "values_too_wide": ((2, 3), 1, [1, 2], 0),
    "bad_axis": ((2, 3), 1, 0, 2),
    "0d_axis": ((), 0, 1, 0),
}


@pytest.mark.parametrize("name", INSERTS)
def test_insert(device, name):
    shape, obj, values, axis = INSERTS[name]
    arr = data(shape, np.int64)
    got = same_call("insert", arr, obj, values, axis=axis)
    if got is not None:
        assert_new_array(got, tp.array(arr))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_insert_delete_dtypes(device, dtype):
    """Values cast to the array's dtype."""
    arr, values = data((3, 4), dtype), data((3,), dtype, seed=1)
    same_call("insert", arr, 2, values, axis=1)
    same_call("insert", arr, [0, 4, 4], values[0], axis=1)
    same_call("delete", arr, [0, -1], axis=1)
    same_call("delete", arr, slice(1, None, 2))


DELETES = {
    "one": ((5,), 1, None),
    "several": ((5,), [1, 1, -1], None),
    "slice": ((5,), slice(None, None, -2), None),
    "empty_slice": ((5,), slice(3, 1), None),
    "empty_list": ((5,), [], None),
    "row": ((2, 3), 1, 0),
    "column": ((2, 3), 1, 1),
    "flat_2d": ((2, 3), [0, 5], None),
    "mask": ((2, 3), np.array([True, False]), 0),
    "columns_mask": ((2, 3), np.array([False, True, True]), -1),
    "index_array": ((6,), np.array([4, 0], np.uint8), 0),
    "0d": ((), 0, None),
    "layout": ((4, 5), [3, 0], 1),
    # errors
    "out_of_bounds": ((5,), 5, None),
    "negative_out_of_bounds": ((5,), -6, None),
    "several_out_of_bounds": ((5,), [0, 9], None),
    "mask_length": ((6,), np.array([True, False]), None),
    "float_index": ((5,), 1.0, None),
    "float_array": ((5,), np.array([], float), None),
    "bad_axis": ((2, 3), 0, 2),
    "0d_axis": ((), 0, 0),
}


@pytest.mark.parametrize("layout", ["contiguous", "negative"])
@pytest.mark.parametrize("name", DELETES)
def test_delete(device, name, layout):
    shape, obj, axis = DELETES[name]
    _, tbase, n, t = make(shape, np.float32, layout)
    got = outcome_like_numpy(lambda: np.delete(n, obj, axis=axis),
                             lambda: tp.delete(t, to_tp(obj), axis=axis), assert_like,
                             raises_like)
    if got is not None:
        assert_new_array(got, tbase)


RESIZES = {
    "bigger": ((2, 3), (3, 4)),
    "smaller": ((2, 3), (4,)),
    "int_shape": ((2, 3), 7),
    "zero": ((2, 3), 0),
    "empty_source": ((0,), (2, 2)),
    "0d": ((), (2, 3)),
    "to_0d": ((3,), ()),
    "negative": ((2, 3), (-1, 2)),
}


@pytest.mark.parametrize("name", RESIZES)
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.float64, np.complex64], ids=dtype_id)
def test_resize(device, dtype, name):
    """a's elements repeated in C order to fill the new shape; an empty a gives zeros;
    negative sizes raise ValueError."""
    shape, new_shape = RESIZES[name]
    same_call("resize", data(shape, dtype), new_shape)


def test_resize_inputs(device):
    same_call("resize", [1, 2, 3], 5)
    _, _, n, t = make((3, 4), np.int16, "transposed_negative")
    assert_same(tp.resize(t, (5, 3)), np.resize(n, (5, 3)))


TRIMS = {
    "both": ([0, 0, 1, 0, 2, 0, 0], "fb", None),
    "front": ([0, 0, 1, 0, 2, 0], "f", None),
    "back": ([0, 0, 1, 0, 2, 0], "b", None),
    "upper_case": ([0, 1, 0], "BF", None),
    "none_to_trim": ([1, 0, 2], "fb", None),
    "all_zero": ([0, 0, 0], "fb", None),
    "all_zero_front": ([0, 0, 0], "f", None),
    "empty": ([], "fb", None),
    "floats": ([-0.0, 0.0, 1.5, np.nan, 0.0], "fb", None),
    "2d_box": ([[0, 0, 0], [0, 1, 0], [0, 0, 2]], "fb", None),
    "2d_axis0": ([[0, 0, 0], [0, 1, 0], [0, 0, 0]], "fb", 0),
    "2d_axis_last_front": ([[0, 0, 0], [0, 1, 0], [0, 0, 0]], "f", -1),
    "2d_axes": ([[0, 0, 0], [0, 1, 0], [0, 0, 0]], "fb", (0, 1)),
    "2d_all_zero": ([[0, 0], [0, 0]], "b", 0),
    # errors
    "bad_trim": ([0, 1, 0], "x", None),
    "empty_trim": ([0, 1, 0], "", None),
    "bad_axis": ([[0, 1]], "fb", 2),
}


@pytest.mark.parametrize("name", TRIMS)
def test_trim_zeros(device, name):
    """NumPy slices the input: the result is a view of it."""
    values, trim, axis = TRIMS[name]
    n = np.array(values, dtype=np.float64 if name == "floats" else np.int16)
    kwargs = {} if axis is None else {"axis": axis}
    t = tp.array(n)
    got = outcome_like_numpy(lambda: np.trim_zeros(n, trim, **kwargs),
                             lambda: tp.trim_zeros(t, trim, **kwargs), assert_like, raises_like)
    if got is not None:
        check_view_result(got, np.trim_zeros(n, trim, **kwargs), n, t)


def test_trim_zeros_list(device):
    """A list is sliced as a list (plain Python values, so compared directly); a device
    that refuses host data refuses it."""
    if host_data_refused(lambda: tp.trim_zeros([0, 1, 2, 0])):
        return
    assert tp.trim_zeros([0, 1, 2, 0]) == np.trim_zeros([0, 1, 2, 0]) == [1, 2]


# --------------------------------------------------------------------------------------------
# tri, tril, triu


@pytest.mark.parametrize("dtype", [float, int, np.int8, np.bool_, np.complex64], ids=dtype_id)
@pytest.mark.parametrize("k", [-4, -1, 0, 2, 9])
def test_tri(device, k, dtype):
    for N, M in ((3, None), (3, 5), (4, 2), (0, 3), (3, 0), (1, 1)):
        same_call("tri", N, M, k, dtype=dtype)


TRIANGLE_SHAPES = [(3, 4), (4, 3), (2, 3, 4), (5,), (0, 3), (3, 0), (1, 1)]


@pytest.mark.parametrize("function", ["tril", "triu"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_tril_triu(device, dtype, function):
    """Over the last two axes (a stack of matrices for 3-d input); a 1-d input is the row of
    a square matrix."""
    for shape in TRIANGLE_SHAPES:
        n = data(shape, dtype)
        for k in (-5, -1, 0, 1, 3):
            got = same_call(function, n, k)
            assert_new_array(got, tp.array(n))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("function", ["tril", "triu"])
def test_tril_triu_layouts(device, function, layout):
    _, _, n, t = make((3, 4, 5), np.float32, layout)
    assert_same(getattr(tp, function)(t, 1), getattr(np, function)(n, 1))


@pytest.mark.parametrize("function", ["tril", "triu"])
def test_tril_triu_lists(device, function):
    same_call(function, [[1, 2], [3, 4]])
    same_call(function, [1, 2, 3], -1)


# --------------------------------------------------------------------------------------------
# diag, diagflat, diagonal, trace


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_diag(device, dtype):
    """1-d: a new 2-d array with v on its k-th diagonal; 2-d: the k-th diagonal (empty past
    the corners)."""
    for shape in ((3,), (0,), (3, 4), (4, 3), (0, 2)):
        n = data(shape, dtype)
        for k in (-5, -1, 0, 2, 4):
            same_call("diag", n, k)
    same_call("diagflat", data((2, 2), dtype), -1)


DIAG_ERRORS = {"0d": (), "3d": (2, 2, 2)}


@pytest.mark.parametrize("name", DIAG_ERRORS)
def test_diag_errors(device, name):
    same_call("diag", np.zeros(DIAG_ERRORS[name]))


def test_diag_of_matrix_is_read_only_view(device):
    n = data((3, 4), np.int32)
    t = tp.array(n)
    check_view_result(tp.diag(t, 1), np.diag(n, 1), n, t)


@pytest.mark.parametrize("k", [-2, 0, 1])
def test_diagflat(device, k):
    """The flattened input (any dimensions, lists, scalars) on the k-th diagonal."""
    for v in ([[1, 2], [3, 4]], 5, np.arange(6).reshape(1, 2, 3), [], [1.5, -2.0]):
        same_call("diagflat", v, k)


# (shape, offset, axis1, axis2): the diagonal's axis goes last
DIAGONALS = [
    ((3, 4), 0, 0, 1), ((3, 4), 1, 0, 1), ((3, 4), -2, 0, 1), ((3, 4), 0, 1, 0),
    ((3, 4), 5, 0, 1), ((3, 4), -5, 0, 1), ((2, 3, 4), 0, 0, 1), ((2, 3, 4), 1, 1, 2),
    ((2, 3, 4), -1, 2, 0), ((2, 3, 4), 0, -1, -3), ((0, 3), 0, 0, 1),
]


@pytest.mark.parametrize("layout", ["contiguous", "fortran", "strided", "negative",
                                    "broadcast"])
@pytest.mark.parametrize("shape,offset,axis1,axis2", DIAGONALS,
                         ids=[compact_id(d) for d in DIAGONALS])
def test_diagonal(device, shape, offset, axis1, axis2, layout):
    """A read-only view of the source: NumPy's values, shape and strides; writing raises
    ValueError."""
    nbase, tbase, n, t = make(shape, np.float64, layout)
    expected = np.diagonal(n, offset, axis1, axis2)
    for got in (tp.diagonal(t, offset, axis1, axis2), t.diagonal(offset, axis1, axis2)):
        check_view_result(got, expected, nbase, tbase)
        assert_raises_like(lambda: expected.__setitem__(..., 0),
                           lambda: got.__setitem__(..., 0))


DIAGONAL_ERRORS = {
    "same_axes": ((2, 3), 0, 0, 0),
    "same_axes_negative": ((2, 3), 0, 1, -1),
    "bad_axis": ((2, 3), 0, 0, 2),
    "1d": ((3,), 0, 0, 1),
    "0d": ((), 0, 0, 1),
    "float_offset": ((2, 3), 1.0, 0, 1),
}


@pytest.mark.parametrize("name", DIAGONAL_ERRORS)
def test_diagonal_errors(device, name):
    shape, offset, axis1, axis2 = DIAGONAL_ERRORS[name]
    same_call("diagonal", np.zeros(shape), offset, axis1, axis2)


def same_trace(n, *args, **kwargs):
    """trace as NumPy computes it; inexact sums within a few ulp (the summation order is
    tessera's, as in test_reductions.py)."""
    __tracebackhide__ = True
    outcome_like_numpy(lambda: np.trace(n, *args, **kwargs),
                       lambda: tp.trace(tp.array(n), *args, **kwargs), assert_close, raises_like)


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_trace(device, dtype):
    """Summed as sum() sums: bool and small signed integers to int64, small unsigned to
    uint64, floats in their own dtype; dtype= overrides."""
    n = data((4, 5), dtype)
    for offset in (0, 2, -3, 7):
        same_trace(n, offset)
    same_trace(data((2, 3, 4), dtype), 1, 1, 2)
    for target in (np.int8, np.float32, np.complex128):
        same_trace(n, dtype=target)


def test_trace_out_and_method(device):
    n = data((2, 2, 3), np.float64)
    nout, tout = np.zeros(3), tp.zeros(3)
    assert tp.trace(tp.array(n), out=tout) is tout
    np.trace(n, out=nout)
    assert_same(tout, nout)
    assert_same(tp.array(n).trace(1, 0, 2), n.trace(1, 0, 2))
    same_call("trace", np.arange(3))


MESHES = {
    "two": ([np.arange(3), np.arange(2.0, 6.0)],),
    "three": ([[1, 2], np.array([3], np.int8), np.arange(4)],),
    "one": ([np.arange(3)],),
    "none": ([],),
    "2d_input_flattened": ([[[1, 2], [3, 4]], [5]],),
    "empty_input": ([np.arange(0), np.arange(3)],),
}


@pytest.mark.parametrize("copy", [True, False])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("name", MESHES)
def test_meshgrid(device, name, indexing, sparse, copy):
    """NumPy documents a tuple (its sparse=True, copy=False path returns a list): compared
    as a tuple. A device that refuses host data refuses the lists among the vectors; there
    they are compared as arrays."""
    (vectors,) = MESHES[name]
    kwargs = {"indexing": indexing, "sparse": sparse, "copy": copy}
    vectors, kwargs = device_inputs("meshgrid", tp.meshgrid, tuple(vectors), kwargs)
    outcome_like_numpy(lambda: tuple(np.meshgrid(*vectors, **kwargs)),
                       lambda: tp.meshgrid(*to_tp(vectors), **kwargs), assert_like, raises_like)


def test_meshgrid_copies(device):
    """copy=True gives new writeable arrays; copy=False views of the inputs."""
    x, y = tp.arange(3), tp.arange(2)
    for grid in tp.meshgrid(x, y):
        assert_new_array(grid, x)
    for grid, source in zip(tp.meshgrid(x, y, copy=False, sparse=True), (x, y)):
        assert owner(grid) is owner(source)


def test_meshgrid_bad_indexing(device):
    same_call("meshgrid", np.arange(2), indexing="q")
