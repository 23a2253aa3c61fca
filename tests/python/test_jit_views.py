"""Views inside jit functions (Numba's basic indexing: a[i] of an n-d array, slices with any
bounds and steps), against Numba."""

import numpy as np
import pytest

import tessera as tp
from tessera.jit import TypingError

numba = pytest.importorskip("numba")


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


def _assign_slice(a):
    a[1:3] = 0.0


def test_view_errors():
    with pytest.raises(ValueError, match="slice step cannot be zero"):
        tp.jit(_zero_step)(np.arange(3.0), 0)
    with pytest.raises(TypingError, match="slice step cannot be zero"):
        tp.jit(_constant_zero_step)(np.arange(3.0))
    with pytest.raises(TypingError, match="slices are not supported yet"):
        tp.jit(_assign_slice)(np.arange(5.0))


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
