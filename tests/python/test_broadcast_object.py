"""tessera.broadcast, NumPy's broadcast object: its shape, size, dimensions, per-operand
iterators and element tuples, reset(), and its errors, against numpy.broadcast."""

import numpy as np
import pytest

import tessera as tp

from conftest import sample
from oracle import refuses_host_data


def _same(x, m):
    return x


# Each case: operands as (shape, dtype, view), the view built the same way from the NumPy
# array and from its tessera copy (m is the module).
CASES = {
    "no_operands": [],
    "0d": [((), np.float64, _same)],
    "0d_and_1d": [((), np.int64, _same), ((5,), np.float32, _same)],
    "column_and_row": [((3, 1), np.int16, _same), ((4,), np.float64, _same)],
    "same_shape": [((2, 3), np.complex128, _same), ((2, 3), np.bool_, _same)],
    "empty": [((0, 3), np.float64, _same), ((3,), np.int8, _same)],
    "empty_broadcast": [((2, 0, 1), np.bool_, _same), ((4,), np.uint16, _same)],
    "negative_steps": [((4, 3), np.float64, lambda x, m: x.T[::-1]),
                       ((1, 4), np.int32, lambda x, m: x[:, ::-1])],
    "strided": [((6, 8), np.complex64, lambda x, m: x[::2, 1::3]),
                ((3, 1), np.uint8, _same)],
    "broadcast_views": [((1, 4), np.float64, lambda x, m: m.broadcast_to(x, (3, 4))),
                        ((3, 1, 1), np.int64, _same)],
    "three_operands": [((2, 1, 3), np.float32, _same), ((4, 1), np.int8, lambda x, m: x[::-1]),
                       ((), np.uint64, _same)],
}


def operands(case, m):
    """The case's operands as NumPy arrays (m is np) or tessera arrays (m is tp)."""
    out = []
    for i, (shape, dtype, view) in enumerate(CASES[case]):
        base = np.asarray(sample(shape, dtype, seed=i))
        out.append(view(base if m is np else tp.asarray(base), m))
    return out


def values(element_tuple):
    """An element tuple as Python values (assert_same_elements checks the elements' types)."""
    return tuple(v.item() for v in element_tuple)


def assert_same_elements(got, want):
    assert isinstance(got, tuple) and len(got) == len(want)
    for g, w in zip(got, want):
        assert isinstance(g, tp.ndarray) and g.shape == ()
        assert g.dtype == np.asarray(w).dtype
        assert g.item() == w.item()


@pytest.mark.parametrize("case", list(CASES))
def test_attributes(device, case):
    want = np.broadcast(*operands(case, np))
    got = tp.broadcast(*operands(case, tp))
    assert got.shape == want.shape and isinstance(got.shape, tuple)
    assert got.ndim == want.ndim and got.nd == want.nd
    assert got.size == want.size and got.numiter == want.numiter
    assert got.index == want.index == 0
    assert isinstance(got.iters, tuple) and len(got.iters) == len(want.iters)


@pytest.mark.parametrize("case", list(CASES))
def test_iteration(device, case):
    """Iterating yields each position's tuple of elements in C order; index counts the
    positions taken, and the operands' iterators move along; reset() starts over."""
    want = np.broadcast(*operands(case, np))
    got = tp.broadcast(*operands(case, tp))
    assert iter(got) is got
    expected = list(want)
    for w in expected:
        assert_same_elements(next(got), w)
    with pytest.raises(StopIteration):
        next(got)
    assert got.index == want.index == want.size
    assert [it.index for it in got.iters] == [it.index for it in want.iters]
    got.reset()
    want.reset()
    assert got.index == 0 and [it.index for it in got.iters] == [0] * got.numiter
    assert [values(t) for t in got] == [tuple(v.item() for v in t) for t in want]


@pytest.mark.parametrize("case", ["0d_and_1d", "negative_steps", "strided", "broadcast_views",
                                  "empty_broadcast", "three_operands"])
def test_iters(device, case):
    """Each operand's iterator reads the operand broadcast to the common shape, in C order:
    by position (negative ones too), by slice, and as an iterator."""
    want = np.broadcast(*operands(case, np))
    got = tp.broadcast(*operands(case, tp))
    for g, w in zip(got.iters, want.iters):
        assert len(g) == len(w) == want.size
        assert g.base.shape == want.shape
        expected = np.array(list(w), dtype=w.base.dtype)
        np.testing.assert_array_equal(tp.asnumpy(g[:]), expected)
        if want.size:
            # Against the values listed above, not NumPy's iterator: indexing np.broadcast's
            # iters after iterating them crashes NumPy 2.4.6 now and then (SIGFPE in
            # iter_subscript, seen in this suite under xdist).
            for k in (0, want.size - 1, -1, -want.size):
                assert g[k].item() == expected[k].item()
            with pytest.raises(IndexError, match=r"\[broadcast\]"):
                g[want.size]
        assert [v.item() for v in g] == expected.tolist()


def test_python_scalars_and_nested_objects(device):
    """Python scalars are 0-d operands; a broadcast object stands for its own operands."""
    row, column = np.arange(3.0), np.array([[1], [2]], dtype=np.int32)
    t_row, t_column = tp.asarray(row), tp.asarray(column)
    want = np.broadcast(np.broadcast(row, 7), column, 2.5)
    got = tp.broadcast(tp.broadcast(t_row, 7), t_column, 2.5)
    assert (got.shape, got.numiter, got.size) == (want.shape, want.numiter, want.size)
    assert [values(t) for t in got] == [tuple(v.item() for v in t) for t in want]
    assert [e.dtype for e in tp.broadcast(True, 1, 1.5, 1j).iters[0][:1]] == [np.bool_]


def test_shape_mismatch(device):
    """NumPy's ValueError, naming the operands that do not broadcast and their shapes."""
    shapes = [(2, 3), (4, 1), (5,)]
    with pytest.raises(ValueError) as want:
        np.broadcast(*(np.zeros(s) for s in shapes))
    with pytest.raises(ValueError) as got:
        tp.broadcast(*(tp.zeros(s) for s in shapes))
    assert str(got.value) == f"[broadcast] {want.value}"
    assert "arg 0 with shape (2, 3) and arg 1 with shape (4, 1)" in str(got.value)


def test_operand_limit(device):
    """At most 64 operands, nested objects' operands counted, as NumPy's NPY_MAXARGS."""
    assert tp.broadcast(*[tp.zeros(1)] * 64).numiter == np.broadcast(*[np.zeros(1)] * 64).numiter
    for make in (lambda m: m.broadcast(*[1] * 65),
                 lambda m: m.broadcast(m.broadcast(*[1] * 40), *[1] * 25)):
        with pytest.raises(ValueError, match="at most 64 array objects"):
            make(np)
        with pytest.raises(ValueError, match=r"\[broadcast\] Need at least 0 and at most 64"):
            make(tp)


def test_refused_arguments(device):
    for m in (np, tp):
        with pytest.raises(ValueError, match="keyword arguments not accepted"):
            m.broadcast(x=m.zeros(2))
        b = m.broadcast(m.zeros(2))
        for name in ("shape", "ndim", "nd", "size", "numiter", "iters", "index"):
            with pytest.raises(AttributeError):
                setattr(b, name, getattr(b, name))
    # None is an object array to NumPy: a dtype tessera has not (refused as host data on a
    # CUDA device).
    with pytest.raises(TypeError, match=r"^\["):
        tp.broadcast(None)


def test_host_data(device):
    """NumPy arrays and lists are operands on the CPU; a CUDA device refuses them, as every
    tessera function does, naming broadcast."""
    a = np.arange(4.0)
    if refuses_host_data(device):
        with pytest.raises(TypeError, match=r"^\[broadcast\] .*not moved to"):
            tp.broadcast(a, [1.0])
        return
    got = tp.broadcast(a, [[1.0], [2.0]])
    assert got.shape == (2, 4)
    assert [values(t) for t in got] == [tuple(v.item() for v in t)
                                        for t in np.broadcast(a, [[1.0], [2.0]])]
