"""Views made from explicit strides and dtypes (issue 25): numpy.lib.stride_tricks'
as_strided and sliding_window_view, and ndarray.view(dtype), on every device. as_strided
refuses, with a ValueError, what NumPy leaves to the user: a view reaching outside the
array's memory."""

import numpy as np
import pytest

import tessera as tp
from numpy.lib import stride_tricks as np_tricks

from conftest import sample


def check_view(got, want):
    assert isinstance(got, tp.ndarray)
    assert got.dtype == want.dtype and got.shape == want.shape and got.strides == want.strides
    np.testing.assert_array_equal(tp.asnumpy(got), want)
    assert got.flags.writeable == want.flags.writeable


AS_STRIDED = {  # (base shape, view shape, strides in items)
    "overlapping rows": ((10,), (4, 4), (1, 1)),
    "broadcast": ((3,), (5, 3), (0, 1)),
    "every other": ((12,), (6,), (2,)),
    "transposed": ((3, 4), (4, 3), (1, 4)),
    "empty": ((5,), (0, 7), (1, 1)),
}


@pytest.mark.parametrize("case", list(AS_STRIDED))
def test_as_strided(device, case):
    base_shape, shape, steps = AS_STRIDED[case]
    a = sample(base_shape, np.int32)
    t = tp.asarray(a)
    strides = tuple(s * a.itemsize for s in steps)
    for writeable in (True, False):
        want = np_tricks.as_strided(a, shape, strides, writeable=writeable)
        got = tp.lib.stride_tricks.as_strided(t, shape, strides, writeable=writeable)
        check_view(got, want)
    check_view(tp.lib.stride_tricks.as_strided(t), np_tricks.as_strided(a))


def test_as_strided_writes_through(device):
    a = np.zeros(6)
    t = tp.asarray(a)
    np_tricks.as_strided(a, (3,), (16,))[...] = [1, 2, 3]
    tp.lib.stride_tricks.as_strided(t, (3,), (16,))[...] = tp.asarray([1.0, 2.0, 3.0])
    np.testing.assert_array_equal(tp.asnumpy(t), a)


@pytest.mark.parametrize("shape, strides", [((11,), (8,)), ((2,), (-8,)), ((3, 3), (8, 32)),
                                            ((2,), (8, 8))])
def test_as_strided_refuses_views_outside_the_memory(device, shape, strides):
    t = tp.arange(10.0)
    with pytest.raises(ValueError, match=r"\[as_strided\]"):
        tp.lib.stride_tricks.as_strided(t, shape, strides)


WINDOWS = {  # (shape, window_shape, axis)
    "1-d": ((8,), 3, None),
    "2-d all axes": ((4, 5), (2, 3), None),
    "one axis": ((4, 5), 2, 1),
    "negative axis": ((4, 5, 3), 2, -2),
    "same axis twice": ((9,), (2, 3), (0, 0)),
    "whole axis": ((4, 5), 5, 1),
    "empty window": ((4,), 0, None),
}


@pytest.mark.parametrize("case", list(WINDOWS))
def test_sliding_window_view(device, case):
    shape, window, axis = WINDOWS[case]
    a = sample(shape, np.float32)
    t = tp.asarray(a)
    for writeable in (False, True):
        want = np_tricks.sliding_window_view(a, window, axis, writeable=writeable)
        got = tp.lib.stride_tricks.sliding_window_view(t, window, axis, writeable=writeable)
        check_view(got, want)


@pytest.mark.parametrize("window, axis, error", [
    (5, None, ValueError), ((2, 2), None, ValueError), (-1, None, ValueError),
    (2, 3, np.exceptions.AxisError), ((2, 2), 0, ValueError)])
def test_sliding_window_view_errors(device, window, axis, error):
    a = np.arange(4.0)
    with pytest.raises(error):
        np_tricks.sliding_window_view(a, window, axis)
    with pytest.raises(error, match=r"\[sliding_window_view\]"):
        tp.lib.stride_tricks.sliding_window_view(tp.asarray(a), window, axis)


@pytest.mark.parametrize("to", [np.int64, np.uint8, np.int16, np.complex128, np.float32,
                                np.bool_, None])
@pytest.mark.parametrize("layout", ["contiguous", "rows stepped", "fortran", "0-d", "empty",
                                    "empty stepped", "empty 1-d"])
def test_view_as_dtype(device, to, layout):
    """The same bytes as another dtype (NumPy's values bit for bit), the last axis rescaled,
    or NumPy's ValueError where the layout does not allow it."""
    a = sample((4, 6), np.float64)
    a = {"contiguous": a, "rows stepped": a[::2], "fortran": np.asfortranarray(a),
         "0-d": a[0, 0], "empty": a[:0], "empty stepped": a[:, 2:2],
         "empty 1-d": np.zeros(0)}[layout]
    t = tp.asarray(a)
    # The NumPy array tessera holds: NumPy's own on the CPU, a copy of it on other devices.
    a = np.asarray(a) if device.kind == "cpu" else np.array(a, order="K")
    try:
        want = a.view() if to is None else a.view(to)
    except ValueError as error:
        with pytest.raises(ValueError, match=r"\[view\]") as got:
            t.view(to)
        assert str(error) in str(got.value)
        return
    got = t.view() if to is None else t.view(to)
    assert got is not t
    check_view(got, want)
    if want.size:
        flat = (0,) * want.ndim
        got[flat] = got[flat]  # writes through, as NumPy's views
        assert tp.asnumpy(t).tobytes() == a.tobytes()


def test_view_type_argument(device):
    t = tp.arange(3.0)
    assert t.view(tp.ndarray).dtype == np.float64
    with pytest.raises(TypeError, match=r"\[view\]"):
        t.view(np.ndarray)
