"""Views inside jit functions (Numba's basic indexing: a[i] of an n-d array, slices with any
bounds and steps), against Numba."""

import numpy as np
import pytest

import tessera as tp
from tessera.jit import TypingError

numba = pytest.importorskip("numba")

# Compiled for the CPU: make test's run on the CUDA device leaves out the tests taking no device.
pytestmark = pytest.mark.host_only


def _row_sums(a):
    out = np.zeros(a.shape[0])
    for i in range(a.shape[0]):
        row = a[i]
        s = 0.0
        for j in range(row.shape[0]):
            s += row[j]
        out[i] = s
    return out


def _slice_summary(a, lo, hi, step):
    b = a[lo:hi:step]
    total = 0.0
    for x in b:
        total += x
    return b.shape[0], total, a[::-1][0], a[-3:][0], a[:lo].shape[0]


def _write_through_views(a):
    a[1][2] = 99
    column = a[:, 1]
    for i in range(column.shape[0]):
        column[i] = -1
    a[0, ::2][1] = 7


def _inner_blocks(a):
    return a[1:-1, 1:-1].shape[0] * 10 + a[1:-1, 1:-1][0, 0]


@pytest.mark.parametrize("order", ["C", "F"])
def test_rows_of_a_matrix(order):
    a = np.asarray(np.arange(12.0).reshape(3, 4), order=order)
    np.testing.assert_array_equal(tp.jit(_row_sums)(a), numba.njit(_row_sums)(a))
    np.testing.assert_array_equal(tp.jit(_row_sums)(a[::-1, 1:]), numba.njit(_row_sums)(a[::-1, 1:]))


@pytest.mark.parametrize("lo, hi, step", [(1, -1, 1), (0, 10, 3), (8, 1, -2), (-4, 100, 1),
                                          (5, 2, 1), (-100, -2, 2), (9, -11, -1)])
def test_slices_with_python_bounds(lo, hi, step):
    a = np.arange(10.0)
    assert tp.jit(_slice_summary)(a, lo, hi, step) == numba.njit(_slice_summary)(a, lo, hi, step)


def test_writes_reach_the_array():
    ours, theirs = np.arange(12.0).reshape(3, 4), np.arange(12.0).reshape(3, 4)
    tp.jit(_write_through_views)(ours)
    numba.njit(_write_through_views)(theirs)
    np.testing.assert_array_equal(ours, theirs)


def test_two_dimensional_slices():
    a = np.arange(20.0).reshape(4, 5)
    assert tp.jit(_inner_blocks)(a) == numba.njit(_inner_blocks)(a)


def _zero_step(a, step):
    return a[::step].shape[0]


def _constant_zero_step(a):
    return a[::0].shape[0]




def test_view_errors():
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        tp.jit(_zero_step)(np.arange(3.0), 0)
    with pytest.raises(TypingError, match="slice step cannot be zero"):
        tp.jit(_constant_zero_step)(np.arange(3.0))


def _transposed_sum(a):
    t = a.T
    s = 0.0
    for i in range(t.shape[0]):
        for j in range(t.shape[1]):
            s += t[i, j] * (i + 1) - t[i, -1] * j
    return s, t.shape[0]


@pytest.mark.parametrize("order", ["C", "F"])
def test_transpose(order):
    a = np.asarray(np.arange(12.0).reshape(3, 4), order=order)
    assert tp.jit(_transposed_sum)(a) == numba.njit(_transposed_sum)(a)
    assert tp.jit(_transposed_sum)(a[::2, ::-1]) == numba.njit(_transposed_sum)(a[::2, ::-1])


# --- assignment to slices and rows (Numba's setitem: numbers, and arrays broadcast) --------------

def _fill_slice(a, v):
    a[1:3] = v


def _fill_columns(a, v):
    a[:, 1:] = v


def _shift_right(a):
    a[1:] = a[:-1]


def _reverse_in_place(a):
    a[::-1] = a


def _set_row(a, v):
    a[1] = v


def _clear(a):
    a[:] = 0


def _strided_block(a, v):
    a[::2, 1:-1] = v


SLICE_ASSIGNMENTS = {
    "number into a slice": (_fill_slice, lambda: (np.zeros(5), 7)),
    "array into a slice": (_fill_slice, lambda: (np.zeros(5), np.array([1.5, -2.0]))),
    "0-d array into a slice": (_fill_slice, lambda: (np.zeros(5), np.array(3.5))),
    "floats into ints (truncated)": (_fill_slice, lambda: (np.zeros(5, np.int64), np.array([1.7, -2.2]))),
    "row broadcast over columns": (_fill_columns, lambda: (np.zeros((3, 4)), np.arange(3.0))),
    "reversed block": (_fill_columns, lambda: (np.zeros((3, 4)), np.arange(9.0).reshape(3, 3)[::-1])),
    "column broadcast": (_fill_columns, lambda: (np.zeros((3, 4)), np.arange(3.0).reshape(3, 1))),
    "overlapping shift": (_shift_right, lambda: (np.arange(6.0),)),
    "overlapping reverse": (_reverse_in_place, lambda: (np.arange(7.0),)),
    "number into a row": (_set_row, lambda: (np.zeros((2, 3)), 5.0)),
    "array into a row": (_set_row, lambda: (np.zeros((2, 3)), np.arange(3.0))),
    "clear an F-ordered matrix": (_clear, lambda: (np.asfortranarray(np.ones((3, 2))),)),
    "strided block": (_strided_block, lambda: (np.zeros((5, 4)), np.float32(2.5))),
    "empty slice": (_fill_slice, lambda: (np.zeros(1), np.zeros(0))),
}


@pytest.mark.parametrize("case", list(SLICE_ASSIGNMENTS))
def test_slice_assignment_as_numba(case):
    function, make = SLICE_ASSIGNMENTS[case]
    ours, theirs = make(), make()
    tp.jit(function)(*ours)
    numba.njit(function)(*theirs)
    assert ours[0].dtype == theirs[0].dtype
    np.testing.assert_array_equal(ours[0], theirs[0])


def test_slice_assignment_errors():
    with pytest.raises(ValueError, match="cannot assign slice from input of different shape"):
        tp.jit(_fill_slice)(np.zeros(5), np.ones(3))
    with pytest.raises(ValueError, match="different shape"):
        tp.jit(_fill_columns)(np.zeros((3, 4)), np.ones((2, 3)))
    with pytest.raises(TypingError, match="cannot assign complex128 values to a slice of a float64"):
        tp.jit(_fill_slice)(np.zeros(5), np.array([1j, 2j]))
    with pytest.raises(TypingError, match="cannot assign a 2-d array to a 1-d slice"):
        tp.jit(_fill_slice)(np.zeros(5), np.ones((1, 2)))
    readonly = np.zeros(5)
    readonly.flags.writeable = False
    with pytest.raises(TypingError, match="read-only"):
        tp.jit(_fill_slice)(readonly, 1.0)


# --- new axes (None, np.newaxis) and the parts of complex arrays -----------------------------

def _pairwise_differences(v):
    return v[:, None] - v[None, :]


def _new_axes_everywhere(a):
    return (a[None].shape, a[:, np.newaxis].shape, a[:, :, None].shape, a[1, None].shape,
            a[None, 1:, None, ::-1].shape, a[None, 1:, None, ::-1][0, 1, 0, 0])


def _distance_matrix(x):
    d = x[:, None, :] - x[None, :, :]
    return np.sqrt((d * d).sum(axis=2))


@pytest.mark.parametrize("function, make", [
    (_pairwise_differences, lambda: np.arange(5.0)),
    (_pairwise_differences, lambda: np.arange(10, dtype=np.int32)[::-3]),
    (_new_axes_everywhere, lambda: np.arange(12.0).reshape(3, 4)),
    (_new_axes_everywhere, lambda: np.asfortranarray(np.arange(12.0).reshape(3, 4))),
    (_distance_matrix, lambda: np.random.default_rng(1).random((6, 3))),
])
def test_new_axes_as_numba(function, make):
    got, want = tp.jit(function)(make()), numba.njit(function)(make())
    if isinstance(want, tuple):
        assert got == want
    else:
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=1e-14)


def _too_many_with_new_axes(a):
    return a[None, 1, 2, 3]


def test_new_axes_take_no_dimension_of_the_array():
    with pytest.raises(TypingError, match="too many indices for a 2-d array: 3"):
        tp.jit(_too_many_with_new_axes)(np.ones((2, 4)))


def _parts(z):
    return z.real * 2, z.imag.sum(), np.abs(z.real[::-1]).max(), z.real.shape


def _write_parts(z):
    z.imag[:] = 1.0
    z.real[1:] = 0.0
    return z


def _parts_of_real(x):
    return x.real + x.imag


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("order", ["C", "F", "strided"])
def test_real_and_imag_views_as_numba(dtype, order):
    z = (np.arange(12.0) + 1j * np.arange(12.0)[::-1]).reshape(3, 4).astype(dtype)
    z = {"C": z, "F": np.asfortranarray(z), "strided": z[:, ::2]}[order]
    got, want = tp.jit(_parts)(z), numba.njit(_parts)(z)
    for g, w in zip(got, want):
        assert np.asarray(g).dtype == np.asarray(w).dtype
        np.testing.assert_array_equal(g, w)
    ours, theirs = z.copy(order="K"), z.copy(order="K")
    tp.jit(_write_parts)(ours)
    numba.njit(_write_parts)(theirs)
    np.testing.assert_array_equal(ours, theirs)


def test_parts_of_a_real_array():
    x = np.arange(4.0)
    np.testing.assert_array_equal(tp.jit(_parts_of_real)(x), numba.njit(_parts_of_real)(x))


def _partial_indices(a, i, j):
    return a[i, j], a[i, j][1], a[-1, j].sum()


def test_partial_integer_indexing_gives_a_view_as_numba():
    a = np.arange(24.0).reshape(2, 3, 4)
    for x in (a, a[:, ::-1]):
        got, want = tp.jit(_partial_indices)(x, 1, 2), numba.njit(_partial_indices)(x, 1, 2)
        np.testing.assert_array_equal(got[0], want[0])
        assert got[1:] == want[1:]
