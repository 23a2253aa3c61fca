"""NumPy functions tessera lacked (issue 25, part 2): rollaxis, row_stack, copyto,
fill_diagonal and mask_indices, on every device, against NumPy's values, dtypes, shapes,
warnings and errors."""

import warnings

import numpy as np
import pytest

import tessera as tp

from conftest import sample


@pytest.mark.parametrize("axis, start", [(3, 1), (0, 4), (-1, 0), (2, -2), (1, 1), (1, 2),
                                         (0, 0), (3, 4)])
def test_rollaxis(device, axis, start):
    a = sample((2, 3, 4, 5), np.float32)
    got = tp.rollaxis(tp.asarray(a), axis, start)
    want = np.rollaxis(a, axis, start)
    assert got.shape == want.shape
    np.testing.assert_array_equal(tp.asnumpy(got), want)


@pytest.mark.parametrize("axis, start", [(4, 0), (-5, 0), (0, 5), (0, -5)])
def test_rollaxis_errors(device, axis, start):
    a = np.zeros((2, 3, 4, 5))
    with pytest.raises(np.exceptions.AxisError):
        np.rollaxis(a, axis, start)
    with pytest.raises(np.exceptions.AxisError, match=r"\[rollaxis\]"):
        tp.rollaxis(tp.asarray(a), axis, start)


def test_row_stack(device):
    parts = [sample((3,), np.int16), sample((2, 3), np.int16, seed=1)]
    with pytest.warns(DeprecationWarning, match="row_stack"):
        want = np.row_stack(parts)
    with pytest.warns(DeprecationWarning, match="row_stack"):
        got = tp.row_stack([tp.asarray(p) for p in parts])
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(tp.asnumpy(got), want)


COPYTO_CASES = {  # (dst dtype, src, casting, where)
    "array": (np.float64, sample((3, 4), np.float32), "same_kind", True),
    "broadcast row": (np.int64, sample((4,), np.int16), "same_kind", True),
    "where mask": (np.float32, sample((3, 4), np.float32), "same_kind",
                   sample((3, 4), np.bool_)),
    "where broadcast": (np.int32, sample((3, 1), np.int32), "same_kind",
                        np.array([True, False, True, False])),
    "weak float into float32 safe": (np.float32, 1.5, "safe", True),
    "weak int into int8": (np.int8, 7, "same_kind", True),
    "unsafe float into int": (np.int64, sample((3, 4), np.float64), "unsafe", True),
}


@pytest.mark.parametrize("case", list(COPYTO_CASES))
def test_copyto(device, case):
    dtype, src, casting, where = COPYTO_CASES[case]
    want = sample((3, 4), dtype, seed=5)
    got = tp.asarray(want)
    np.copyto(want, src, casting=casting, where=where)
    t_src = tp.asarray(src) if isinstance(src, np.ndarray) else src
    t_where = tp.asarray(where) if isinstance(where, np.ndarray) else where
    tp.copyto(got, t_src, casting=casting, where=t_where)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(tp.asnumpy(got), want)


@pytest.mark.parametrize("dtype, src, casting", [
    (np.int64, np.float64, "same_kind"), (np.int64, 1.5, "same_kind"),
    (np.float32, np.float64, "safe"), (np.int8, np.int16, "equiv")])
def test_copyto_casting_errors(device, dtype, src, casting):
    """NumPy's TypeError, naming the dtypes and the rule, and the destination untouched."""
    dst = np.zeros(3, dtype)
    value = np.ones(3, src) if isinstance(src, type) else src
    with pytest.raises(TypeError) as want:
        np.copyto(dst, value, casting=casting)
    t = tp.zeros(3, dtype=dtype)
    with pytest.raises(TypeError) as got:
        tp.copyto(t, tp.asarray(value) if isinstance(value, np.ndarray) else value,
                  casting=casting)
    assert str(want.value) in str(got.value)
    assert tp.asnumpy(t).tolist() == [0, 0, 0]


def test_copyto_bad_destination_and_shape(device):
    with pytest.raises(TypeError, match=r"\[copyto\] argument 1 must be tessera.ndarray"):
        tp.copyto([1, 2], tp.asarray([1, 2]))
    with pytest.raises(ValueError):
        np.copyto(np.zeros(3), np.ones(2))
    with pytest.raises(ValueError):
        tp.copyto(tp.zeros(3), tp.ones(2))


@pytest.mark.parametrize("shape", [(3, 3), (5, 3), (3, 5), (4, 4, 4), (1, 1), (0, 0), (6, 2)],
                         ids=str)
@pytest.mark.parametrize("val", [7, [1, 2], 2.75, [9, 8, 7, 6, 5, 4, 3]], ids=str)
@pytest.mark.parametrize("wrap", [False, True])
def test_fill_diagonal(device, shape, val, wrap):
    """NumPy's flat stride: values repeated as needed, cast into the array's dtype, and with
    wrap a tall matrix's diagonal continued below its first square."""
    want = sample(shape, np.int32)
    got = tp.asarray(want)
    np.fill_diagonal(want, val, wrap=wrap)
    tp.fill_diagonal(got, val, wrap=wrap)
    np.testing.assert_array_equal(tp.asnumpy(got), want)


def test_fill_diagonal_views_and_errors(device):
    base = sample((6, 6), np.float64)
    want = base.copy()
    got = tp.asarray(base)
    np.fill_diagonal(want[::2, 1:], -1.0)
    tp.fill_diagonal(got[::2, 1:], -1.0)
    np.testing.assert_array_equal(tp.asnumpy(got), want)
    for bad in [np.zeros(3), np.zeros((2, 3, 2))]:
        with pytest.raises(ValueError):
            np.fill_diagonal(bad, 1)
        with pytest.raises(ValueError, match=r"\[fill_diagonal\]"):
            tp.fill_diagonal(tp.asarray(bad), 1)


@pytest.mark.parametrize("func", ["triu", "tril"])
@pytest.mark.parametrize("n, k", [(3, 0), (4, 1), (4, -2), (1, 0), (0, 0)])
def test_mask_indices(device, func, n, k):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = tp.mask_indices(n, getattr(tp, func), k)
    want = np.mask_indices(n, getattr(np, func), k)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(tp.asnumpy(g), w)


def test_fromfunction(device):
    """The function sees tessera coordinate arrays (so it runs on the device) of the dtype."""
    seen = []

    def f(i, j, scale=1):
        seen.append(type(i))
        return (i * 10 + j) * scale

    for dtype in (float, int, np.float32):
        got = tp.fromfunction(f, (3, 4), dtype=dtype, scale=2)
        want = np.fromfunction(lambda i, j: (i * 10 + j) * 2, (3, 4), dtype=dtype)
        assert got.dtype == want.dtype and got.device == device
        np.testing.assert_array_equal(tp.asnumpy(got), want)
    assert set(seen) == {tp.ndarray}
    assert tp.fromfunction(lambda i: i, (0,)).shape == (0,)


def test_reading_host_data(device, tmp_path):
    """NumPy parses on the host; the array lands on the current device, dtype and values
    NumPy's; NumPy's errors keep their types."""
    import io

    raw = np.arange(12, dtype=np.int32).tobytes()
    path = tmp_path / "data.bin"
    np.arange(5, dtype=np.float32).tofile(path)
    text = "1 2 3\n4 5 6\n"
    cases = [
        (lambda m: m.frombuffer(raw, dtype=np.int32, count=5, offset=8)),
        (lambda m: m.fromfile(path, dtype=np.float32)),
        (lambda m: m.fromstring("1, 2, 3.5", sep=",")),
        (lambda m: m.fromiter((x * x for x in range(6)), np.int16)),
        (lambda m: m.loadtxt(io.StringIO(text), dtype=int)),
        (lambda m: m.genfromtxt(io.StringIO("1,2\n3,nan"), delimiter=",")),
    ]
    for make in cases:
        want, got = make(np), make(tp)
        assert isinstance(got, tp.ndarray) and got.device == device
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(tp.asnumpy(got), want)
    with pytest.raises(ValueError, match=r"\[frombuffer\]"):
        tp.frombuffer(b"\x01\x02\x03", dtype=np.int16)
    with pytest.raises(ValueError, match=r"\[fromiter\]"):
        tp.fromiter(range(2), int, count=5)
    with pytest.raises(FileNotFoundError):
        tp.loadtxt(tmp_path / "missing.txt")


@pytest.mark.parametrize("view", ["contiguous", "transposed", "stepped", "reversed"])
def test_flat(device, view):
    """a.flat reads and writes in C order whatever the layout; assigned values repeat as
    needed; it iterates, has a length, and `a.flat = v` fills the array."""
    base = sample((4, 6), np.float64)
    make = {"contiguous": lambda x: x, "transposed": lambda x: x.T,
            "stepped": lambda x: x[::2, 1::2], "reversed": lambda x: x[::-1, ::-2]}[view]
    want, t = base.copy(), tp.asarray(base)
    a, got = make(want), make(t)
    for key in [3, -1, slice(2, 9, 3), slice(None, None, -2), [0, 5, 2],
                np.arange(a.size) % 3 == 0, Ellipsis]:
        t_key = tp.asarray(key) if isinstance(key, (list, np.ndarray)) else key
        np.testing.assert_array_equal(tp.asnumpy(got.flat[t_key]), a.flat[key])
    a.flat[1::4] = [-1.0, -2.0]
    got.flat[1::4] = tp.asarray([-1.0, -2.0])
    np.testing.assert_array_equal(tp.asnumpy(t), want)
    a.flat[[0, 3]] = 9
    got.flat[tp.asarray([0, 3])] = 9
    np.testing.assert_array_equal(tp.asnumpy(t), want)
    assert len(got.flat) == len(a.flat)
    np.testing.assert_array_equal([float(v) for v in got.flat], list(a.flat))
    np.testing.assert_array_equal(tp.asnumpy(got.flat.copy()), a.flat.copy())
    a.flat = [5, 6, 7]
    got.flat = tp.asarray([5, 6, 7])
    np.testing.assert_array_equal(tp.asnumpy(t), want)
    it = got.flat
    next(it), next(it)
    assert it.index == 2 and it.coords == np.unravel_index(2, a.shape) and it.base is got


def same_result(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            same_result(g, w)
        return
    assert isinstance(got, tp.ndarray)
    g = tp.asnumpy(got)
    assert g.dtype == want.dtype and g.shape == want.shape
    np.testing.assert_allclose(g, want, rtol=1e-15, atol=0)


GRID_KEYS = {
    "one range": np.s_[0:5], "two ranges": np.s_[0:5, 0:3], "points": np.s_[-1:1:5j],
    "points and range": np.s_[0:1:3j, 0:4], "float steps": np.s_[0.5:2:0.5, 1:3],
    "downward": np.s_[2:0:-1, 0:2], "one point": np.s_[3:7:1j], "three axes": np.s_[0:2, 0:3, 1:2],
}


@pytest.mark.parametrize("key", list(GRID_KEYS))
@pytest.mark.parametrize("name", ["mgrid", "ogrid"])
def test_grids(device, name, key):
    got = getattr(tp, name)[GRID_KEYS[key]]
    same_result(got, getattr(np, name)[GRID_KEYS[key]])
    for g in got if isinstance(got, tuple) else [got]:
        assert g.device == device


CONCAT_KEYS = {  # entries; arrays become tessera arrays for tessera
    "slices and scalars": ("r_", (slice(1, 4), 0, 4)),
    "points, list and ints": ("r_", (slice(-1, 1, 6j), [0, 0, 0], 5, 6)),
    "axis and ndmin": ("r_", ("0,2", np.array([1, 2, 3]), np.array([4, 5, 6]))),
    "trans1d 0": ("r_", ("0,2,0", np.array([1, 2, 3]), np.array([4, 5, 6]))),
    "along axis 1": ("r_", ("1,2,0", np.array([1, 2, 3]), np.array([4, 5, 6]))),
    "axis only": ("r_", ("-1", np.ones((2, 2)), np.zeros((2, 1)))),
    "float scalar widens ints": ("r_", (np.array([1, 2], np.int8), 3.5)),
    "weak int keeps int8": ("r_", (np.array([1, 2], np.int8), 3)),
    "columns": ("c_", (np.array([1, 2, 3]), np.array([4, 5, 6]))),
    "rows with scalars": ("c_", (np.array([[1, 2, 3]]), 0, 0, np.array([[4, 5, 6]]))),
    "column slice": ("c_", (slice(0, 3), np.array([7.0, 8.0, 9.0]))),
}


@pytest.mark.parametrize("key", list(CONCAT_KEYS))
def test_concatenators(device, key):
    name, entries = CONCAT_KEYS[key]
    want = getattr(np, name)[entries]
    ours = tuple(tp.asarray(e) if isinstance(e, np.ndarray) else e for e in entries)
    got = getattr(tp, name)[ours]
    same_result(got, want)
    assert got.device == device


def test_concatenator_errors(device):
    for entries in [(np.array([1]), "0,2"), ("x", np.array([1])), ("0,1,x", np.array([1]))]:
        with pytest.raises(ValueError):
            np.r_[entries]
        with pytest.raises(ValueError, match=r"\[r_\]"):
            tp.r_[tuple(tp.asarray(e) if isinstance(e, np.ndarray) else e for e in entries)]
    with pytest.raises(ValueError, match="numpy.matrix"):
        tp.r_["r", tp.asarray([1, 2])]
