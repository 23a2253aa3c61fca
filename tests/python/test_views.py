"""Views and shape manipulation: reshape, ravel, flatten, transpose and friends, expand_dims,
squeeze, broadcasting, atleast_nd and the shape setter, each checked against NumPy.

Inputs come in several memory layouts (contiguous, Fortran, strided, negatively strided,
partially sliced, broadcast), built the same way in NumPy and in tessera. Whether a result
is a view is checked against NumPy both through `base` and by writing through the result and
comparing the arrays that own the data.
"""

import numpy as np
import pytest

import tessera as tp

from conftest import ALL_DTYPES, assert_same, sample
from oracle import (assert_raises_like, changed, compact_id as _ids, data, host_data_refused,
                    make, owner)

LAYOUTS = ["contiguous", "fortran", "strided", "negative", "partial", "leading",
           "transposed_negative", "broadcast"]


# --------------------------------------------------------------------------------------------
# helpers


def check_view_result(got, expected, nbase, tbase, *, check_strides=True):
    """`got` (tessera) matches `expected` (NumPy): values, shape, dtype; strides when NumPy
    made a view; a view exactly when NumPy made one (base and write-through); writeable as
    NumPy's."""
    is_view = expected.size > 0 and np.shares_memory(expected, nbase)
    assert_same(got, expected, strides=check_strides and is_view)
    if expected.size == 0:
        return
    assert (owner(got) is tbase) == is_view, \
        f"tessera {'made' if owner(got) is tbase else 'did not make'} a view; NumPy " \
        f"{'did' if is_view else 'did not'}"
    assert got.flags.writeable == expected.flags.writeable
    if expected.flags.writeable:
        idx = tuple(int(i) for i in np.unravel_index(expected.size - 1, expected.shape))
        value = changed(expected[idx], expected.dtype)
        expected[idx] = value
        got[idx] = value
        assert_same(tbase, nbase)
        assert_same(got, expected)


def same_outcome(np_call, tp_call, *, strides=False):
    """tessera returns what NumPy returns, or raises as NumPy raises."""
    try:
        expected = np_call()
    except Exception:
        assert_raises_like(np_call, tp_call)
    else:
        assert_same(tp_call(), expected, strides=strides)


RESHAPES = [
    ((6,), (2, 3)), ((6,), (3, 2)), ((6,), (-1, 2)), ((6,), (1, 6, 1)), ((6,), (6,)),
    ((2, 3), (6,)), ((2, 3), (3, 2)), ((2, 3), (-1,)), ((2, 3), (1, 2, 3)), ((2, 3), (2, 1, 3, 1)),
    ((2, 3, 4), (6, 4)), ((2, 3, 4), (2, 12)), ((2, 3, 4), (4, 3, 2)), ((2, 3, 4), (24,)),
    ((2, 3, 4), (-1, 4)), ((2, 3, 4), (2, -1, 2)), ((2, 3, 4), (2, 3, 2, 2)),
    ((2, 3, 4), (1, 2, 1, 3, 4)),
    ((4, 1, 3), (12,)), ((4, 1, 3), (4, 3)), ((4, 1, 3), (1, 4, 3, 1)), ((4, 1, 3), (2, 2, 3)),
    ((3, 1), (1, 3)), ((1, 5), (5, 1)),
    ((), (1,)), ((), (1, 1)), ((), ()), ((1,), ()), ((1, 1), ()),
    ((0, 3), (3, 0)), ((0, 3), (0,)), ((0, 3), (-1, 3)), ((2, 0, 3), (6, 0)),
]


def with_layouts(cases, layouts=LAYOUTS):
    """(case..., layout) for every layout that applies to the case's shape (the first item):
    0-d and empty inputs only come contiguous."""
    out = []
    for case in cases:
        case = case if isinstance(case, tuple) and case and isinstance(case[0], tuple) else (case,)
        shape = case[0]
        for layout in layouts:
            if (not shape or 0 in shape) and layout != "contiguous":
                continue
            out.append(pytest.param(*case, layout, id="-".join(map(_ids, case + (layout,)))))
    return out


@pytest.mark.parametrize("dtype", [np.int8, np.complex128], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("order", ["C", "F", "A"])
@pytest.mark.parametrize("shape,new,layout", with_layouts(RESHAPES))
def test_reshape_layouts(device, shape, new, layout, order, dtype):
    nbase, tbase, n, t = make(shape, dtype, layout)
    expected = n.reshape(new, order=order)
    got = t.reshape(new, order=order)
    check_view_result(got, expected, nbase, tbase)


@pytest.mark.parametrize("shape,new", [((2, 3, 4), (6, 4)), ((2, 3), (6,)), ((6,), (2, 3))],
                         ids=_ids)
def test_reshape_calling_forms(device, shape, new):
    nbase, tbase, n, t = make(shape, np.float32, "contiguous")
    expected = n.reshape(new)
    assert_same(t.reshape(new), expected, strides=True)
    assert_same(t.reshape(*new), n.reshape(*new), strides=True)
    assert_same(t.reshape(shape=new), np.reshape(n, shape=new), strides=True)
    assert_same(tp.reshape(t, new), np.reshape(n, new), strides=True)
    assert_same(tp.reshape(t, shape=new), np.reshape(n, shape=new), strides=True)
    assert_same(tp.reshape(t, new, order="F"), np.reshape(n, new, order="F"))
    assert_same(tp.reshape(t, new, "F"), np.reshape(n, new, "F"))
    assert tp.reshape(t, new).base is t
    # an int shape, a list shape, and NumPy integers in the shape
    assert_same(t.reshape(n.size), n.reshape(n.size))
    assert_same(t.reshape(list(new)), n.reshape(list(new)))
    numpy_ints = tuple(np.int64(d) for d in new)
    assert_same(t.reshape(numpy_ints), n.reshape(numpy_ints))


def test_reshape_function_takes_lists_and_numpy(device):
    # NumPy data is converted as NumPy does on the CPU, refused on a CUDA device; converted
    # with tessera.asarray first, it is reshaped on every device.
    data = [[1, 2, 3], [4, 5, 6]]
    n = sample((2, 3), np.int16)
    for host, new in ((data, (3, 2)), (n, (-1,))):
        if not host_data_refused(lambda: tp.reshape(host, new)):
            assert_same(tp.reshape(host, new), np.reshape(host, new))
        assert_same(tp.reshape(tp.asarray(host), new), np.reshape(host, new))


@pytest.mark.parametrize("layout", ["contiguous", "fortran", "strided", "negative", "partial",
                                    "broadcast"])
@pytest.mark.parametrize("order", ["C", "F", "A"])
@pytest.mark.parametrize("copy", [None, True, False])
@pytest.mark.parametrize("shape,new", [((2, 3), (6,)), ((2, 3, 4), (6, 4)), ((2, 3, 4), (2, 12)),
                                       ((4, 1, 3), (12,)), ((6,), (3, 2))], ids=_ids)
def test_reshape_copy_argument(device, shape, new, copy, order, layout):
    nbase, tbase, n, t = make(shape, np.float64, layout)
    try:
        expected = n.reshape(new, order=order, copy=copy)
    except ValueError:
        assert_raises_like(lambda: n.reshape(new, order=order, copy=copy),
                           lambda: t.reshape(new, order=order, copy=copy))
        return
    got = t.reshape(new, order=order, copy=copy)
    check_view_result(got, expected, nbase, tbase)
    if copy:
        assert got.base is None
        assert got.flags.owndata


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def test_reshape_all_dtypes(device, dtype):
    nbase, tbase, n, t = make((3, 4), dtype, "strided")
    for new in [(4, 3), (12,), (2, 6), (3, 2, 2)]:
        for order in "CF":
            check_view_result(t.reshape(new, order=order), n.reshape(new, order=order), nbase,
                              tbase)


@pytest.mark.parametrize("shape,new", [
    ((6,), (4,)), ((6,), (-1, 4)), ((6,), (-1, -1)), ((0, 3), (0, -1)), ((6,), (2, -3)),
    ((6,), (-2, 3)), ((2, 3), (7,)), ((6,), (-1, 0)), ((), (2,)), ((6,), (2, 2**62, 2**62)),
], ids=_ids)
def test_reshape_errors(device, shape, new):
    n = data(shape, np.float64)
    t = tp.array(n)
    same_outcome(lambda: n.reshape(new), lambda: t.reshape(new))


@pytest.mark.parametrize("order", ["K", "X", "c "])
def test_reshape_bad_order(device, order):
    n = np.arange(6.0)
    t = tp.array(n)
    assert_raises_like(lambda: n.reshape((2, 3), order=order),
                       lambda: t.reshape((2, 3), order=order))


def test_reshape_bad_arguments(device):
    n = np.arange(6.0)
    t = tp.array(n)
    assert_raises_like(lambda: n.reshape((2, 3), bogus=1), lambda: t.reshape((2, 3), bogus=1))
    assert_raises_like(lambda: n.reshape(2.0, 3), lambda: t.reshape(2.0, 3))
    assert_raises_like(lambda: n.reshape("23"), lambda: t.reshape("23"))


# --------------------------------------------------------------------------------------------
# ravel and flatten

RAVEL_SHAPES = [(6,), (2, 3), (2, 3, 4), (4, 1, 3), (1, 5), (3, 1), ()]


@pytest.mark.parametrize("dtype", [np.uint8, np.complex64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("shape,layout", with_layouts(RAVEL_SHAPES))
def test_ravel(device, shape, layout, order, dtype):
    nbase, tbase, n, t = make(shape, dtype, layout)
    expected = n.ravel(order)
    check_view_result(t.ravel(order), expected, nbase, tbase)
    nbase, tbase, n, t = make(shape, dtype, layout)
    check_view_result(tp.ravel(t, order), np.ravel(n, order), nbase, tbase)


def test_ravel_default_order_and_empty(device):
    nbase, tbase, n, t = make((2, 3), np.float64, "fortran")
    check_view_result(t.ravel(), n.ravel(), nbase, tbase)
    for shape in [(0,), (2, 0), (0, 3, 4)]:
        n = np.zeros(shape, np.int32)
        t = tp.array(n)
        for order in "CFAK":
            assert_same(t.ravel(order), n.ravel(order))
            assert_same(t.flatten(order), n.flatten(order))


def test_ravel_bad_order(device):
    n = np.arange(6.0)
    t = tp.array(n)
    assert_raises_like(lambda: n.ravel("X"), lambda: t.ravel("X"))
    assert_raises_like(lambda: n.flatten("X"), lambda: t.flatten("X"))


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("shape,layout", with_layouts([(6,), (2, 3), (2, 3, 4), (4, 1, 3), ()]))
def test_flatten(device, shape, layout, order):
    nbase, tbase, n, t = make(shape, np.int32, layout)
    expected = n.flatten(order)
    got = t.flatten(order)
    assert_same(got, expected, strides=True)
    assert got.base is None and got.flags.owndata
    assert got.flags.writeable
    got[0] = changed(expected[0], expected.dtype)  # a copy: the input is unchanged
    assert_same(tbase, nbase)
    assert_same(t, n)


# --------------------------------------------------------------------------------------------
# transpose, .T, .mT, swapaxes, moveaxis

TRANSPOSES = [
    ((2, 3), None), ((2, 3), (1, 0)), ((2, 3), (0, 1)), ((2, 3), (-1, 0)), ((2, 3, 4), None),
    ((2, 3, 4), (1, 0, 2)), ((2, 3, 4), (2, 0, 1)), ((2, 3, 4), (-1, -3, -2)),
    ((2, 3, 4), [0, 2, 1]), ((6,), None), ((6,), (0,)), ((6,), (-1,)), ((), None), ((), ()),
    ((4, 1, 3), (2, 1, 0)),
]


@pytest.mark.parametrize("shape,axes,layout", with_layouts(TRANSPOSES))
def test_transpose(device, shape, axes, layout):
    forms = [
        (lambda x: x.transpose(axes), lambda x: x.transpose(axes)),
        (lambda x: np.transpose(x, axes), lambda x: tp.transpose(x, axes)),
        (lambda x: np.permute_dims(x, axes), lambda x: tp.permute_dims(x, axes)),
    ]
    if axes is None:
        forms += [(lambda x: x.T, lambda x: x.T),
                  (lambda x: x.transpose(), lambda x: x.transpose()),
                  (lambda x: np.transpose(x), lambda x: tp.transpose(x))]
    elif len(axes) > 0:
        forms.append((lambda x: x.transpose(*axes), lambda x: x.transpose(*axes)))
    for np_op, tp_op in forms:
        nbase, tbase, n, t = make(shape, np.float32, layout)
        check_view_result(tp_op(t), np_op(n), nbase, tbase)


@pytest.mark.parametrize("axes", [(0, 0), (0,), (0, 1, 2), (0, 2), (0, -3), (0, 1.0)], ids=_ids)
def test_transpose_errors(device, axes):
    n = np.zeros((2, 3))
    t = tp.array(n)
    assert_raises_like(lambda: n.transpose(axes), lambda: t.transpose(axes))
    assert_raises_like(lambda: np.transpose(n, axes), lambda: tp.transpose(t, axes))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape", [(2, 3), (2, 3, 4), (1, 4, 1), (2, 2, 3, 1)], ids=_ids)
def test_matrix_transpose(device, shape, layout):
    for np_op, tp_op in [(lambda x: x.mT, lambda x: x.mT),
                         (lambda x: np.matrix_transpose(x), lambda x: tp.matrix_transpose(x))]:
        nbase, tbase, n, t = make(shape, np.complex64, layout)
        check_view_result(tp_op(t), np_op(n), nbase, tbase)


@pytest.mark.parametrize("shape", [(), (3,)], ids=_ids)
def test_matrix_transpose_needs_2d(device, shape):
    n = np.zeros(shape)
    t = tp.array(n)
    assert_raises_like(lambda: n.mT, lambda: t.mT)
    assert_raises_like(lambda: np.matrix_transpose(n), lambda: tp.matrix_transpose(t))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape,a1,a2", [
    ((2, 3), 0, 1), ((2, 3), 1, 0), ((2, 3), 0, 0), ((2, 3), -1, -2), ((2, 3, 4), 0, 2),
    ((2, 3, 4), -1, 1), ((2, 3, 4), np.int64(2), np.int8(0)), ((5,), 0, -1),
], ids=_ids)
def test_swapaxes(device, shape, a1, a2, layout):
    nbase, tbase, n, t = make(shape, np.int64, layout)
    check_view_result(t.swapaxes(a1, a2), n.swapaxes(a1, a2), nbase, tbase)
    nbase, tbase, n, t = make(shape, np.int64, layout)
    check_view_result(tp.swapaxes(t, a1, a2), np.swapaxes(n, a1, a2), nbase, tbase)


@pytest.mark.parametrize("a1,a2", [(0, 2), (-3, 0), (5, 0), (0, 1.0)], ids=_ids)
def test_swapaxes_errors(device, a1, a2):
    n = np.zeros((2, 3))
    t = tp.array(n)
    assert_raises_like(lambda: n.swapaxes(a1, a2), lambda: t.swapaxes(a1, a2))
    assert_raises_like(lambda: np.swapaxes(n, a1, a2), lambda: tp.swapaxes(t, a1, a2))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape,src,dst", [
    ((2, 3, 4), 0, -1), ((2, 3, 4), -1, 0), ((2, 3, 4), 1, 1), ((2, 3, 4), (0, 1), (-1, -2)),
    ((2, 3, 4), [0, 2], [2, 0]), ((2, 3, 4), (), ()), ((2, 3), 0, 1), ((5,), 0, -1),
    ((2, 3, 4, 5), (0, 3), (1, 2)), ((2, 3, 4), np.int64(2), 0),
], ids=_ids)
def test_moveaxis(device, shape, src, dst, layout):
    nbase, tbase, n, t = make(shape, np.float64, layout)
    check_view_result(tp.moveaxis(t, src, dst), np.moveaxis(n, src, dst), nbase, tbase)


@pytest.mark.parametrize("src,dst", [((0, 0), (0, 1)), (0, (0, 1)), (3, 0), (0, -4),
                                     ((0, 1), (1, 1))], ids=_ids)
def test_moveaxis_errors(device, src, dst):
    n = np.zeros((2, 3, 4))
    t = tp.array(n)
    assert_raises_like(lambda: np.moveaxis(n, src, dst), lambda: tp.moveaxis(t, src, dst))


# --------------------------------------------------------------------------------------------
# expand_dims and squeeze


@pytest.mark.parametrize("shape,axis,layout", with_layouts([
    ((), 0), ((), -1), ((), (0, 1)), ((3,), 0), ((3,), 1), ((3,), -1), ((3,), -2),
    ((2, 3), 1), ((2, 3), (0, 3)), ((2, 3), (-1, 0)), ((2, 3), (1, 2, 4)), ((2, 3), [0, -1]),
    ((2, 3, 4), np.int32(2)), ((2, 3, 4), ()), ((0, 3), 1),
]))
def test_expand_dims(device, shape, axis, layout):
    nbase, tbase, n, t = make(shape, np.float16, layout)
    # strides are checked by test_expand_dims_strides
    check_view_result(tp.expand_dims(t, axis), np.expand_dims(n, axis), nbase, tbase,
                      check_strides=False)


@pytest.mark.parametrize("layout", ["contiguous", "strided", "negative"])
@pytest.mark.parametrize("shape,axis", [((), 0), ((3,), 0), ((3,), -1), ((2, 3), (0, 3)),
                                        ((2, 3, 4), 1)], ids=_ids)
def test_expand_dims_strides(device, shape, axis, layout):
    nbase, tbase, n, t = make(shape, np.float32, layout)
    assert_same(tp.expand_dims(t, axis), np.expand_dims(n, axis), strides=True)


@pytest.mark.parametrize("shape,axis", [((3,), 2), ((3,), -3), ((3,), (0, 0)), ((3,), (0, -3)),
                                        ((2, 3), (0, 4)), ((), 1), ((3,), 1.0)], ids=_ids)
def test_expand_dims_errors(device, shape, axis):
    n = np.zeros(shape)
    t = tp.array(n)
    assert_raises_like(lambda: np.expand_dims(n, axis), lambda: tp.expand_dims(t, axis))


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape,axis", [
    ((1, 3, 1), None), ((1, 3, 1), 0), ((1, 3, 1), -1), ((1, 3, 1), (0, 2)), ((1, 3, 1), (-1, 0)),
    ((3,), None), ((1,), None), ((1,), 0), ((1, 1), None), ((2, 1, 3), 1), ((1, 2, 1, 3), (0,)),
    ((1, 3, 1), ()), ((1,), (-1,)),
], ids=_ids)
def test_squeeze(device, shape, axis, layout):
    nbase, tbase, n, t = make(shape, np.bool_, layout)
    check_view_result(t.squeeze(axis), n.squeeze(axis), nbase, tbase)
    nbase, tbase, n, t = make(shape, np.bool_, layout)
    check_view_result(tp.squeeze(t, axis), np.squeeze(n, axis), nbase, tbase)
    if axis is None:
        nbase, tbase, n, t = make(shape, np.bool_, layout)
        check_view_result(t.squeeze(), n.squeeze(), nbase, tbase)
        check_view_result(tp.squeeze(t), np.squeeze(n), nbase, tbase)


def test_squeeze_0d_and_empty(device):
    for shape, axis in [((), None), ((), ()), ((1, 0, 1), None), ((0, 1), 1)]:
        n = np.zeros(shape, np.int16)
        t = tp.array(n)
        assert_same(t.squeeze(axis), n.squeeze(axis))
        assert_same(tp.squeeze(t, axis), np.squeeze(n, axis))


@pytest.mark.parametrize("shape,axis", [((1, 3, 1), 1), ((1, 3, 1), 3), ((1, 3, 1), -4),
                                        ((1, 3, 1), (0, 0)), ((), 0), ((), -1), ((), 1),
                                        ((1, 3, 1), (0, 1))],
                         ids=_ids)
def test_squeeze_errors(device, shape, axis):
    """Errors as NumPy's (NumPy lets axis 0 and -1 through for 0-d arrays)."""
    n = np.zeros(shape)
    t = tp.array(n)
    same_outcome(lambda: n.squeeze(axis), lambda: t.squeeze(axis))
    same_outcome(lambda: np.squeeze(n, axis), lambda: tp.squeeze(t, axis))


# --------------------------------------------------------------------------------------------
# broadcasting

BROADCASTS = [
    ((3,), (2, 3)), ((1, 3), (4, 3)), ((), (2, 2)), ((3, 1), (3, 4)), ((2, 1, 3), (2, 4, 3)),
    ((3,), 3), ((1,), (0,)), ((2, 3), (2, 3)), ((1, 1), (5, 1, 1)), ((4,), [2, 1, 4]),
    ((), ()), ((2, 1), (2, 0)),
]


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.complex128],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("layout", ["contiguous", "fortran", "strided", "negative"])
@pytest.mark.parametrize("shape,target", BROADCASTS, ids=_ids)
def test_broadcast_to(device, shape, target, layout, dtype):
    nbase, tbase, n, t = make(shape, dtype, layout)
    expected = np.broadcast_to(n, target)
    got = tp.broadcast_to(t, target)
    assert_same(got, expected, strides=expected.size > 0)
    assert got.flags.writeable is False and expected.flags.writeable is False
    assert owner(got) is tbase
    assert not got.flags.owndata
    if expected.size:
        idx = (0,) * expected.ndim
        value = changed(expected[idx], dtype)
        with pytest.raises(ValueError) as np_info:
            expected[idx] = value
        with pytest.raises(type(np_info.value)) as tp_info:
            got[idx] = value
        assert str(tp_info.value).startswith("[")
    # the input stays writeable, and writes to it show through the broadcast view
    if expected.size and n.flags.writeable:
        idx = (0,) * n.ndim
        value = changed(n[idx], dtype)
        n[idx] = value
        t[idx] = value
        assert_same(got, expected)


def test_broadcast_to_takes_lists_and_scalars(device):
    # a list: converted on the CPU, refused on a CUDA device; scalars: accepted everywhere
    if not host_data_refused(lambda: tp.broadcast_to([1, 2, 3], (2, 3))):
        assert_same(tp.broadcast_to([1, 2, 3], (2, 3)), np.broadcast_to([1, 2, 3], (2, 3)))
    assert_same(tp.broadcast_to(tp.asarray([1, 2, 3]), (2, 3)),
                np.broadcast_to([1, 2, 3], (2, 3)))
    assert_same(tp.broadcast_to(5.0, (2,)), np.broadcast_to(5.0, (2,)))


@pytest.mark.parametrize("shape,target", [((3,), (2, 4)), ((3,), (-1, 3)), ((2, 3), (3,)),
                                          ((2,), ()), ((1,), ()), ((3,), (3, 2))], ids=_ids)
def test_broadcast_to_errors(device, shape, target):
    n = np.zeros(shape)
    t = tp.array(n)
    assert_raises_like(lambda: np.broadcast_to(n, target), lambda: tp.broadcast_to(t, target))


@pytest.mark.parametrize("shapes", [
    [(3,), (2, 3)], [(2, 1), (1, 3)], [(), (2, 2)], [(4, 1, 3), (5, 1), (3,)], [(2, 3), (2, 3)],
    [(3,)], [(0,), (1,)], [(1, 0), (3, 1)],
], ids=_ids)
def test_broadcast_arrays(device, shapes):
    ns = [data(s, np.float64, seed=i) for i, s in enumerate(shapes)]
    ts = [tp.array(x) for x in ns]
    expected = np.broadcast_arrays(*ns)
    got = tp.broadcast_arrays(*ts)
    assert isinstance(got, tuple)
    assert len(got) == len(expected)
    for g, e, t, n in zip(got, expected, ts, ns):
        assert_same(g, e, strides=e.size > 0)
        if e.size:
            assert np.shares_memory(e, n)
            assert owner(g) is owner(t), "broadcast_arrays must return views of its inputs"


def test_broadcast_arrays_mixed_inputs(device):
    expected = np.broadcast_arrays([1, 2, 3], 5, np.ones((2, 1), np.float32))
    # a list among the inputs: converted on the CPU, refused on a CUDA device
    if not host_data_refused(lambda: tp.broadcast_arrays([1, 2, 3], 5,
                                                         tp.ones((2, 1), np.float32))):
        got = tp.broadcast_arrays([1, 2, 3], 5, tp.ones((2, 1), np.float32))
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_same(g, e)
    # a Python scalar beside tessera arrays: accepted on every device
    got = tp.broadcast_arrays(tp.asarray([1, 2, 3]), 5, tp.ones((2, 1), np.float32))
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert_same(g, e)


def test_broadcast_arrays_errors(device):
    a, b = np.zeros(3), np.zeros(4)
    assert_raises_like(lambda: np.broadcast_arrays(a, b),
                       lambda: tp.broadcast_arrays(tp.array(a), tp.array(b)))


@pytest.mark.parametrize("shapes", [
    [(3,), (2, 3)], [(2, 1), (1, 3)], [(), (2, 2)], [(4, 1, 3), (5, 1), 3], [()], [],
    [(0,), (1,)], [5, (1,)],
], ids=_ids)
def test_broadcast_shapes(shapes):
    assert tp.broadcast_shapes(*shapes) == np.broadcast_shapes(*shapes)


@pytest.mark.parametrize("shapes", [[(3,), (4,)], [(2, 3), (3, 2)], [(-1,), (3,)]], ids=_ids)
def test_broadcast_shapes_errors(shapes):
    assert_raises_like(lambda: np.broadcast_shapes(*shapes), lambda: tp.broadcast_shapes(*shapes))


# --------------------------------------------------------------------------------------------
# atleast_1d / 2d / 3d

ATLEAST_INPUTS = [(), (3,), (1,), (2, 3), (2, 3, 4), (2, 1, 3, 2), (0,), (0, 2)]
ATLEAST = [(np.atleast_1d, tp.atleast_1d), (np.atleast_2d, tp.atleast_2d),
           (np.atleast_3d, tp.atleast_3d)]


@pytest.mark.parametrize("funcs", ATLEAST, ids=["1d", "2d", "3d"])
@pytest.mark.parametrize("shape,layout",
                         with_layouts(ATLEAST_INPUTS, ["contiguous", "fortran", "negative"]))
def test_atleast_single(device, shape, layout, funcs):
    np_f, tp_f = funcs
    nbase, tbase, n, t = make(shape, np.int16, layout)
    expected = np_f(n)
    got = tp_f(t)
    check_view_result(got, expected, nbase, tbase, check_strides=False)
    assert (got is t) == (expected is n)


@pytest.mark.parametrize("funcs", ATLEAST, ids=["1d", "2d", "3d"])
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 3, 4)], ids=_ids)
def test_atleast_strides(device, shape, funcs):
    np_f, tp_f = funcs
    n = sample(shape, np.float64)
    t = tp.array(n)
    assert_same(tp_f(t), np_f(n), strides=True)


@pytest.mark.parametrize("funcs", ATLEAST, ids=["1d", "2d", "3d"])
def test_atleast_multiple(device, funcs):
    np_f, tp_f = funcs
    ns = [sample(s, np.float32, seed=i) for i, s in enumerate([(), (3,), (2, 3), (2, 3, 4)])]
    ts = [tp.array(x) for x in ns]
    expected = np_f(*ns)
    got = tp_f(*ts)
    assert type(got) is type(expected)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert_same(g, e)
    # Python scalars and lists: lists are converted on the CPU, refused on a CUDA device
    expected = np_f(5, [1.5, 2.5], [[1, 2]])
    if not host_data_refused(lambda: tp_f(5, [1.5, 2.5], [[1, 2]])):
        got = tp_f(5, [1.5, 2.5], [[1, 2]])
        assert type(got) is type(expected)
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_same(g, e)
    # a Python scalar beside tessera arrays: accepted on every device
    got = tp_f(5, tp.asarray([1.5, 2.5]), tp.asarray([[1, 2]]))
    assert type(got) is type(expected)
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert_same(g, e)
    assert_same(tp_f(7), np_f(7))
    assert tp_f() == np_f()  # no arguments


# --------------------------------------------------------------------------------------------
# the shape setter

SHAPE_SETS = [((2, 3), (3, 2)), ((2, 3), (6,)), ((2, 3), -1), ((2, 3), 6), ((2, 3, 4), (6, 4)),
              ((2, 3, 4), (2, 12)), ((6,), (2, 3)), ((6,), (1, 6, 1)), ((4, 1, 3), (12,)),
              ((), (1, 1)), ((1,), ()), ((2, 3), (-1, 2))]


@pytest.mark.parametrize("shape,new,layout", with_layouts(SHAPE_SETS))
def test_shape_setter(device, shape, new, layout):
    nbase, tbase, n, t = make(shape, np.float64, layout)
    before_base = t.base
    try:
        n.shape = new
    except AttributeError:
        with pytest.raises(AttributeError) as info:
            t.shape = new
        assert str(info.value).startswith("[")
        assert t.shape == shape  # unchanged
        return
    t.shape = new
    assert_same(t, n, strides=True)
    assert t.base is before_base
    check_view_result(t, n, nbase, tbase)


@pytest.mark.parametrize("new", [(4,), (-1, 4), (2, -1, -1), (-2, 2), "ab", 2.5], ids=_ids)
def test_shape_setter_errors(device, new):
    n = np.zeros((2, 3))
    t = tp.array(n)

    def set_np():
        n.shape = new

    def set_tp():
        t.shape = new

    try:
        set_np()
    except Exception:
        assert_raises_like(set_np, set_tp)
        assert t.shape == (2, 3)
    else:
        set_tp()
        assert_same(t, n, strides=True)
