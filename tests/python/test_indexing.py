"""Basic indexing (integers, slices, None, ...), assignment through it, and the errors of
both, checked against NumPy. Advanced indexing is not implemented yet and must say so."""

import warnings

import numpy as np
import pytest

import tessera as tp

from conftest import ALL_DTYPES, assert_same
from oracle import assert_raises_like, changed, compact_id as _ids, data, make, owner

LAYOUTS = ["contiguous", "fortran", "strided", "negative", "broadcast"]


# --------------------------------------------------------------------------------------------
# helpers


def same_assignment(n, t, nbase, tbase, key, np_value, tp_value=None):
    """n[key] = np_value and t[key] = tp_value (np_value by default) end alike: the same
    exception, or the same data afterwards (in the owners too)."""
    tp_value = np_value if tp_value is None else tp_value
    before = tp.asnumpy(tbase)
    try:
        n[key] = np_value
    except Exception:
        def np_call():
            n[key] = np_value

        def tp_call():
            t[key] = tp_value

        assert_raises_like(np_call, tp_call)
        # nothing was written (NumPy may have written part of a sequence before failing;
        # tessera converts the whole value first)
        assert_same(tbase, before)
        return
    t[key] = tp_value
    assert_same(t, n)
    assert_same(tbase, nbase)


def key_id(key):
    def one(k):
        if isinstance(k, slice):
            return ":".join("" if v is None else str(v) for v in (k.start, k.stop, k.step))
        if k is Ellipsis:
            return "..."
        if isinstance(k, np.ndarray):
            return f"arr({k.tolist()})"
        if isinstance(k, np.generic):
            return f"{type(k).__name__}({k})"
        return repr(k)

    return "[" + ",".join(one(k) for k in key) + "]" if isinstance(key, tuple) else one(key)


# --------------------------------------------------------------------------------------------
# basic indexing: shape, strides, values, views

BASIC_KEYS = [
    0, -1, 3, -4, slice(None), slice(1, 3), slice(None, None, 2), slice(None, None, -1),
    slice(-2, None), slice(10, None), slice(-10, 2), slice(None, 100), slice(3, 1, -1),
    slice(100, -100, -2), slice(1, 1), slice(3, 1), slice(-100, -50), slice(None, None, 7),
    slice(None, None, -7), slice(2**70, None, -1), slice(-2**70, 2**70, 3),
    (1, 2), (-1, -2, -3), (1, 2, 3), (1, slice(None), 2), (slice(None, None, -2), 1),
    (slice(1, None), slice(None, None, -3), slice(None, 2)),
    (slice(None, None, 3), slice(None, None, -4), slice(1, None, 5)),
    Ellipsis, (Ellipsis, 0), (0, Ellipsis), (0, Ellipsis, 1), (Ellipsis, slice(None, None, -2)),
    (0, 1, 2, Ellipsis), (Ellipsis, 0, 1, 2),
    None, (None, 0), (0, None, slice(1, 3), None), (Ellipsis, None), (None, Ellipsis, None),
    (None, None, 1, None), (slice(None), None, -1), (),
    np.int64(1), np.int8(-1), np.uint8(2), np.intp(-2), np.uint64(3), (np.int16(1), np.int32(-2)),
    (slice(np.int64(1), np.int8(3)), slice(None, None, np.int64(-1))),
    (0, slice(4, 0, -2), None, Ellipsis),
]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("key", BASIC_KEYS, ids=key_id)
def test_basic_index(device, key, layout):
    nbase, tbase, n, t = make((4, 5, 6), np.float64, layout)
    expected = n[key]
    got = t[key]
    assert_same(got, expected, strides=True)
    assert owner(got) is tbase, "basic indexing must return a view"
    expected_writeable = expected.flags.writeable if isinstance(expected, np.ndarray) else \
        n.flags.writeable
    assert got.flags.writeable == expected_writeable
    if not expected_writeable or got.size == 0:
        return
    # writes through the view reach the owner, as in NumPy
    if isinstance(expected, np.ndarray):
        idx = tuple(int(i) for i in np.unravel_index(expected.size - 1, expected.shape))
        value = changed(expected[idx], expected.dtype)
        expected[idx] = value
        got[idx] = value
    else:  # NumPy returned a scalar: write through the same key instead
        value = changed(expected, n.dtype)
        n[key] = value
        got[()] = value
    assert_same(tbase, nbase)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("key", [1, -1, (slice(None, None, -1), 2), (None, Ellipsis, 1),
                                 (slice(1, None, 2), slice(None, None, -2))], ids=key_id)
def test_basic_index_dtypes(device, dtype, key):
    nbase, tbase, n, t = make((3, 4), dtype, "negative")
    expected = n[key]
    got = t[key]
    assert_same(got, expected, strides=True)
    value = changed(np.asarray(expected).ravel()[0], dtype)
    n[key] = value
    got[...] = value
    assert_same(tbase, nbase)


@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 0, 3), (1, 1)], ids=_ids)
@pytest.mark.parametrize("key", [(), Ellipsis, None, (None, Ellipsis), (Ellipsis, None),
                                 (None, None)], ids=key_id)
def test_index_0d_and_empty(device, shape, key):
    n = data(shape, np.int32)
    t = tp.array(n)
    expected = n[key]
    got = t[key]
    assert_same(got, expected, strides=expected.size > 0)
    assert owner(got) is t


@pytest.mark.parametrize("key", [slice(0, 0), slice(None), slice(None, None, -1), slice(5, 1)],
                         ids=key_id)
def test_index_empty_axis(device, key):
    n = np.zeros((0, 3), np.int16)
    t = tp.array(n)
    assert_same(t[key], n[key])
    assert_same(t[:, key], n[:, key])


@pytest.mark.parametrize("key", [np.array(1), np.array(-2), (np.array(0), slice(None)),
                                 (Ellipsis, np.array(np.uint8(3))),
                                 (np.array(2), None, np.array(-1))], ids=key_id)
def test_index_0d_integer_arrays(device, key):
    """0-d integer arrays index like integers."""
    n = data((4, 5), np.float32)
    t = tp.array(n)
    assert_same(t[key], n[key])


def test_index_tessera_0d_integer_array(device):
    n = data((4, 5), np.int64)
    t = tp.array(n)
    for i in [0, 3, -1]:
        assert_same(t[tp.asarray(i)], n[np.asarray(i)])
        assert_same(t[tp.asarray(i, dtype=np.uint8) if i >= 0 else tp.asarray(i, dtype=np.int8), 1],
                    n[i, 1])


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def test_chained_views_share_data(device, dtype):
    nbase = data((6, 7), dtype)
    tbase = tp.array(nbase)
    n = nbase[1:][::-2][:, 2:5][1]
    t = tbase[1:][::-2][:, 2:5][1]
    assert_same(t, n, strides=True)
    assert t.base is tbase
    value = changed(n[0], dtype)
    n[0] = value
    t[0] = value
    assert_same(tbase, nbase)


# --------------------------------------------------------------------------------------------
# indexing errors

class _Opaque:
    """An object that is no index; its repr is stable so test ids match across workers."""

    def __repr__(self):
        return "opaque"


GETITEM_ERRORS = [
    ("out_of_range", (4, 5), 4), ("out_of_range", (4, 5), -5), ("out_of_range", (4, 5), (0, 5)),
    ("out_of_range", (4, 5), (0, -6)), ("out_of_range", (4, 5), (slice(None), 5)),
    ("out_of_range", (4, 5), (Ellipsis, -6)), ("out_of_range", (0,), 0),
    ("out_of_range", (4, 5), 2**63), ("out_of_range", (4, 5), -2**63 - 1),
    ("out_of_range", (4, 5), 2**70), ("out_of_range", (4, 5), np.int64(10)),
    ("out_of_range", (4, 5), np.uint64(2**63)),
    ("too_many", (4, 5), (0, 0, 0)), ("too_many", (4, 5), (0, Ellipsis, 0, 0)),
    ("too_many", (), 0), ("too_many", (), (Ellipsis, 0)), ("too_many", (4,), (None, 0, 0)),
    ("too_many", (4, 5), (slice(None),) * 3),
    ("bad_type", (4, 5), 1.0), ("bad_type", (4, 5), "a"), ("bad_type", (4, 5), (0, 1.5)),
    ("bad_type", (4, 5), np.float64(1)), ("bad_type", (4, 5), np.array(1.0)),
    ("bad_type", (4, 5), np.array([1.0])), ("bad_type", (4, 5), b"x"), ("bad_type", (4, 5), 1j),
    ("bad_type", (4, 5), _Opaque()), ("bad_type", (4, 5), {0: 1}),
    ("bad_type", (4, 5), slice(1.0, 2)), ("bad_type", (4, 5), slice(None, None, "a")),
    ("two_ellipses", (4, 5), (Ellipsis, Ellipsis)),
    ("two_ellipses", (4, 5), (0, Ellipsis, Ellipsis)),
    ("two_ellipses", (), (Ellipsis, None, Ellipsis)),
    ("step_zero", (4, 5), slice(None, None, 0)), ("step_zero", (4, 5), (0, slice(1, 2, 0))),
]


@pytest.mark.parametrize("kind,shape,key", GETITEM_ERRORS,
                         ids=[f"{k}-{_ids(s)}-{key_id(i)}" for k, s, i in GETITEM_ERRORS])
def test_getitem_errors(device, kind, shape, key):
    n = np.zeros(shape)
    t = tp.array(n)
    assert_raises_like(lambda: n[key], lambda: t[key])


@pytest.mark.parametrize("kind,shape,key", GETITEM_ERRORS,
                         ids=[f"{k}-{_ids(s)}-{key_id(i)}" for k, s, i in GETITEM_ERRORS])
def test_setitem_index_errors(device, kind, shape, key):
    n = np.zeros(shape)
    t = tp.array(n)

    def np_call():
        n[key] = 1.0

    def tp_call():
        t[key] = 1.0

    assert_raises_like(np_call, tp_call)
    assert_same(t, n)


@pytest.mark.parametrize("key", [1, (Ellipsis, 1)], ids=key_id)
def test_index_errors_on_views(device, key):
    """Bounds are checked against the view's shape, not the owner's."""
    nbase = np.zeros((4, 5))
    tbase = tp.array(nbase)
    n, t = nbase[:1, :1], tbase[:1, :1]
    assert_raises_like(lambda: n[key], lambda: t[key])


# --------------------------------------------------------------------------------------------
# advanced indexing (the full oracle suite: test_advanced_indexing.py)

ADVANCED_KEYS = [
    [0, 1], [], [[0]], np.array([0, 1]), np.array([], dtype=np.intp),
    np.array([True, False, True, False]), True, False, np.bool_(True), np.array(True),
    (0, [1]), (slice(None), np.array([1, 2])), (Ellipsis, [0]), ([0, 1], [1, 2]),
    (True, 0), np.array([[0], [1]]),
]


@pytest.mark.parametrize("key", ADVANCED_KEYS, ids=key_id)
def test_advanced_getitem(device, key):
    n = data((4, 5), np.int32)
    t = tp.array(n)
    assert_same(t[key], n[key])


@pytest.mark.parametrize("key", ADVANCED_KEYS, ids=key_id)
def test_advanced_setitem(device, key):
    n = data((4, 5), np.int32)
    t = tp.array(n)
    n[key] = 7
    t[key] = 7
    assert_same(t, n)


def test_advanced_index_with_tessera_arrays(device):
    n = data((4, 5), np.int32)
    t = tp.array(n)
    for key, tkey in [([0, 1], tp.asarray([0, 1])),
                      (np.array([True, False, True, False]), tp.asarray([True, False, True, False])),
                      (np.array(True), tp.asarray(True)),
                      ((slice(None), [1]), (slice(None), tp.asarray([1])))]:
        assert_same(t[tkey], n[key])


# --------------------------------------------------------------------------------------------
# __setitem__: values, broadcasting, casting

SET_KEYS = [0, -1, (1, 2), slice(1, 3), slice(None, None, -2), (slice(None), 0),
            (Ellipsis, slice(None, None, -1)), Ellipsis, (), (None, 1), (slice(3, 1), 0)]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("value", [0, 1, -1, 2.7, True, False, 1 + 0j, 1 + 2j, np.float32(-0.5)],
                         ids=_ids)
def test_setitem_scalar(device, dtype, value):
    for layout in ("contiguous", "fortran", "negative", "strided"):
        for key in SET_KEYS:
            nbase, tbase, n, t = make((4, 3), dtype, layout)
            same_assignment(n, t, nbase, tbase, key, value)


CAST_VALUES = [3.7, -3.7, 0.5, 300, -1, -129, 255, 256, 65536, 2**31, 2**63, 2**64, 1e300, -1e300,
               float("nan"), float("inf"), -float("inf"), 1 + 2j, 1 + 0j, complex("nan+0j"),
               np.float64(3.7), np.float64("nan"), np.int64(300), np.int64(-1),
               np.uint64(2**64 - 1),
               np.complex128(1 + 2j), np.float16(65504), np.bool_(True), "5", "1.5", None, b"7"]


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("value", CAST_VALUES, ids=lambda v: f"{type(v).__name__}({v!r})")
def test_setitem_casting(device, dtype, value):
    """3.7 into an int array is 3; complex into a float array is a TypeError; 300 into int8
    an OverflowError; nan into an int array a ValueError: whatever NumPy does."""
    for key in [1, slice(None, None, 2), Ellipsis]:
        nbase, tbase, n, t = make((4,), dtype, "contiguous")
        same_assignment(n, t, nbase, tbase, key, value)


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int32, np.float32, np.complex64, np.bool_],
                         ids=lambda d: np.dtype(d).name)
def test_setitem_casting_spot_checks(device, dtype):
    """The headline cases, spelled out (the expectation still comes from NumPy)."""
    n = np.zeros(3, dtype)
    t = tp.zeros(3, dtype)
    for value in [3.7, 300, float("nan"), 1 + 2j]:
        same_assignment(n, t, n, t, 0, value)


@pytest.mark.parametrize("dtype", [np.int16, np.float64, np.complex64, np.bool_],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("key,value", [
    (slice(None), [1, 2, 3, 4]), (slice(1, 3), [1.5, -2.5]), (0, [[1, 2, 3]]), (0, [1, 2, 3]),
    (slice(None), [[1], [2], [3], [4]]), (Ellipsis, [[1, 2, 3]] * 4), ((slice(None), 0), [9]),
    (0, 5), (0, [1, 2]), (slice(None), [[1, 2, 3]] * 3), (0, []), ((1, 1), [7]), ((1, 1), [[7]]),
    ((1, 1), [1, 2]), (slice(0, 0), []), (slice(None), [1 + 1j, 2, 3, 4]), (0, [True, None, 3]),
    (0, ["1", "2", "3"]), (0, (4, 5, 6)),
], ids=_ids)
def test_setitem_lists(device, dtype, key, value):
    nbase, tbase, n, t = make((4, 3), dtype, "contiguous")
    same_assignment(n, t, nbase, tbase, key, value)


SRC_SHAPES = [(), (1,), (3,), (4, 1), (1, 3), (4, 3), (2, 3), (1, 1, 3), (0,)]


@pytest.mark.parametrize("src_dtype", [np.int8, np.float32, np.complex128, np.bool_],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("dtype", [np.int64, np.float16, np.complex64, np.uint8],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("src_shape", SRC_SHAPES, ids=_ids)
@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_setitem_arrays(device, src_shape, dtype, src_dtype):
    """Array values broadcast to the destination and are cast as NumPy casts (unsafe)."""
    for key in [Ellipsis, slice(None, None, -1), (slice(1, 3), slice(None)), 0, (slice(None), 1)]:
        for layout in ("contiguous", "fortran", "negative"):
            nbase, tbase, n, t = make((4, 3), dtype, layout)
            src = data(src_shape, src_dtype, seed=5)
            # tessera arrays as values
            same_assignment(n, t, nbase, tbase, key, src, tp.array(src))
            nbase, tbase, n, t = make((4, 3), dtype, layout)
            # NumPy arrays as values
            same_assignment(n, t, nbase, tbase, key, src)


@pytest.mark.parametrize("src_layout", ["fortran", "strided", "negative", "broadcast"])
def test_setitem_from_noncontiguous_values(device, src_layout):
    snbase, stbase, sn, st = make((4, 3), np.float64, src_layout, seed=3)
    for key in [Ellipsis, slice(None, None, -1), (slice(None, None, -1), slice(None, None, -1))]:
        nbase, tbase, n, t = make((4, 3), np.float64, "strided")
        same_assignment(n, t, nbase, tbase, key, sn, st)


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex128],
                         ids=lambda d: np.dtype(d).name)
def test_setitem_0d_destination(device, dtype):
    n = data((), dtype)
    t = tp.array(n)
    for key, value in [((), 5), (Ellipsis, 3.5), ((), np.array(2)), (Ellipsis, [4]), ((), [[1]]),
                       ((), [1, 2])]:
        same_assignment(n, t, n, t, key, value)
    same_assignment(n, t, n, t, (), np.array(9, dtype), tp.asarray(np.array(9, dtype)))


def test_setitem_values_0d_tessera(device):
    nbase, tbase, n, t = make((4, 3), np.float32, "contiguous")
    same_assignment(n, t, nbase, tbase, slice(None), np.array(2.5), tp.asarray(2.5))
    same_assignment(n, t, nbase, tbase, 1, np.int8(-3), tp.asarray(np.int8(-3)))


# --------------------------------------------------------------------------------------------
# overlapping source and destination

OVERLAPS = [
    ("a[1:] = a[:-1]", lambda a: (slice(1, None), a[:-1])),
    ("a[:-1] = a[1:]", lambda a: (slice(None, -1), a[1:])),
    ("a[::-1] = a", lambda a: (slice(None, None, -1), a)),
    ("a[...] = a[::-1]", lambda a: (Ellipsis, a[::-1])),
    ("a[:, ::-1] = a", lambda a: ((slice(None), slice(None, None, -1)), a)),
    ("a[::-1, ::-1] = a", lambda a: ((slice(None, None, -1), slice(None, None, -1)), a)),
    ("a[1:] = a[0]", lambda a: (slice(1, None), a[0])),
    ("a[::2] = a[1::2]", lambda a: (slice(None, None, 2), a[1::2])),
    ("a[1::2] = a[:-1:2]", lambda a: (slice(1, None, 2), a[:-1:2])),
    ("a[:, 1:] = a[:, :-1]", lambda a: ((slice(None), slice(1, None)), a[:, :-1])),
    ("a[2:] = a[:-2]", lambda a: (slice(2, None), a[:-2])),
    ("a[:-2] = a[2:]", lambda a: (slice(None, -2), a[2:])),
    ("a[...] = a", lambda a: (Ellipsis, a)),
    ("a[:, 0] = a[0]", lambda a: ((slice(None), 0), a[0, :a.shape[0]])),
    ("a[1:, 1:] = a[:-1, :-1]", lambda a: ((slice(1, None), slice(1, None)), a[:-1, :-1])),
]


@pytest.mark.parametrize("layout", ["contiguous", "fortran", "negative", "strided"])
@pytest.mark.parametrize("dtype", [np.int16, np.float64, np.complex64],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name,make_case", OVERLAPS, ids=[o[0] for o in OVERLAPS])
def test_setitem_overlap(device, name, make_case, dtype, layout):
    nbase, tbase, n, t = make((5, 5), dtype, layout)
    nkey, nvalue = make_case(n)
    tkey, tvalue = make_case(t)
    assert nkey == tkey or (nkey is tkey)
    same_assignment(n, t, nbase, tbase, nkey, nvalue, tvalue)


@pytest.mark.parametrize("dtype", [np.uint8, np.float32], ids=lambda d: np.dtype(d).name)
def test_setitem_overlap_transpose(device, dtype):
    nbase, tbase, n, t = make((6, 6), dtype, "contiguous")
    same_assignment(n, t, nbase, tbase, Ellipsis, n.T, t.T)
    nbase, tbase, n, t = make((2, 3, 4), dtype, "contiguous")
    same_assignment(n, t, nbase, tbase, (Ellipsis, slice(None, None, -1)), n, t)
    same_assignment(n, t, nbase, tbase, (slice(None), slice(None, None, -1)), n, t)
    nbase, tbase, n, t = make((4, 4), dtype, "contiguous")
    same_assignment(n, t, nbase, tbase, slice(1, 3), n[::3], t[::3])


def test_setitem_overlap_with_cast(device):
    """Source and destination overlap through different views of one buffer, with a cast."""
    nbase = data((8,), np.int32)
    tbase = tp.array(nbase)
    same_assignment(nbase, tbase, nbase, tbase, slice(1, None), nbase[:-1].astype(np.float64),
                    tp.array(nbase[:-1].astype(np.float64)))
    same_assignment(nbase, tbase, nbase, tbase, slice(None, None, -1), nbase, tbase)


# --------------------------------------------------------------------------------------------
# assignment errors


@pytest.mark.parametrize("how", ["flag", "broadcast_to", "view_of_readonly"])
@pytest.mark.parametrize("key,value", [(0, 1), (Ellipsis, 0), (slice(1, 3), [1, 2, 3]),
                                       ((0, 0), np.int64(2)), ((), 5)], ids=_ids)
def test_setitem_read_only(device, how, key, value):
    nbase = data((4, 3), np.int32)
    tbase = tp.array(nbase)
    if how == "flag":
        n, t = nbase, tbase
        n.flags.writeable = False
        t.flags.writeable = False
    elif how == "broadcast_to":
        n, t = np.broadcast_to(nbase[0], (4, 3)), tp.broadcast_to(tbase[0], (4, 3))
    else:
        nbase.flags.writeable = False
        tbase.flags.writeable = False
        n, t = nbase[::-1], tbase[::-1]

    def np_call():
        n[key] = value

    def tp_call():
        t[key] = value

    assert_raises_like(np_call, tp_call)
    assert_same(tbase, nbase)


def test_fill_read_only(device):
    n = np.zeros(3)
    t = tp.zeros(3)
    n.flags.writeable = False
    t.flags.writeable = False
    assert_raises_like(lambda: n.fill(1), lambda: t.fill(1))


@pytest.mark.parametrize("key,value", [
    (slice(None, 2), np.ones(3)), (0, np.ones(4)), (Ellipsis, np.ones((2, 3))),
    (slice(None), np.ones((4, 2))), (0, [[1, 2], [3, 4]]), ((0, 0), np.ones(2)),
    (slice(0, 0), np.ones(3)), (Ellipsis, np.ones((1, 4, 3, 1))), (slice(1, 3), [1, 2]),
    ((), np.ones((5, 3))),
], ids=_ids)
def test_setitem_shape_mismatch(device, key, value):
    n = data((4, 3), np.float64)
    t = tp.array(n)
    same_assignment(n, t, n, t, key, value)
    if isinstance(value, np.ndarray):
        n = data((4, 3), np.float64)
        t = tp.array(n)
        same_assignment(n, t, n, t, key, value, tp.array(value))


def test_setitem_value_of_bad_type(device):
    n = np.zeros(3)
    t = tp.zeros(3)
    for value in [object(), {1: 2}, "abc", [object()]]:
        same_assignment(n, t, n, t, 0, value)


@pytest.mark.parametrize("value", [1.0, 7, True, 2.5 + 1j], ids=["float", "int", "bool", "complex"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.int8, np.uint16,
                                   np.bool_, np.complex128], ids=str)
def test_element_assignment_of_python_numbers(device, dtype, value):
    """t[i] = number stores NumPy's conversion of it (stored directly where that is exact or
    an ordinary rounding), warnings and errors as NumPy's."""
    x = np.zeros(4, dtype)
    t = tp.asarray(x.copy())
    outcome = {}
    for name, target in (("numpy", x), ("tessera", t)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                target[2] = value
                outcome[name] = (None, [str(w.category.__name__) for w in caught])
            except Exception as error:  # compared by type below
                outcome[name] = (type(error), [])
    assert outcome["tessera"] == outcome["numpy"]
    assert_same(t, x)


def test_assignment_to_read_only_names_setitem(device):
    t = tp.zeros(3)
    t.flags.writeable = False
    for key, value in ((0, 1.0), (slice(None), t + 1), (slice(None), 2.0)):
        with pytest.raises(ValueError, match=r"^\[setitem\] assignment destination is read-only"):
            t[key] = value
