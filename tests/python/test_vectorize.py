"""tessera.vectorize against Numba's @vectorize (the oracle for values and dtypes) and NumPy's
ufunc rules (broadcasting, out=, dtype=, reduce, outer, errors), on NumPy arrays, tessera
arrays on each device, and numbers."""

import math

import numpy as np
import pytest

import tessera as tp
from tessera.jit import TypingError

numba = pytest.importorskip("numba")

# Compiled for the CPU: make test's run on the CUDA device leaves out the tests taking no device.
pytestmark = pytest.mark.host_only


def both(signatures=None, **options):
    """A decorator making (tessera's, Numba's) vectorized versions of a function."""
    def make(function):
        if signatures is None:
            return tp.vectorize(**options)(function), numba.vectorize(**options)(function)
        return (tp.vectorize(signatures, **options)(function),
                numba.vectorize(signatures, **options)(function))
    return make


def same(got, expected):
    assert type(got) is type(expected), f"{type(got).__name__} != {type(expected).__name__}"
    got, expected = np.asarray(got), np.asarray(expected)
    assert got.dtype == expected.dtype, f"dtype {got.dtype} != {expected.dtype}"
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


def _multiply_add(x, y):
    return x * y + 1


def _add(x, y):
    return x + y


def _hypot_like(x, y):
    return math.sqrt(x * x + y * y)


def _rel_diff(x, y):
    return 2 * (x - y) / (x + y)


EAGER_ADD = both(["int32(int32, int32)", "int64(int64, int64)", "float32(float32, float32)",
                  "float64(float64, float64)"])(_add)


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint16", "int64", "float32", "float64",
                                   "complex128", "bool"])
def test_lazy_types_come_from_the_arguments(dtype):
    ours, theirs = both()(_multiply_add)
    a = (np.arange(12) % 5).astype(dtype).reshape(3, 4)
    b = (np.arange(4) % 3).astype(dtype)
    same(ours(a, b), theirs(a, b))


def test_eager_signatures_pick_the_first_safe_loop():
    ours, theirs = EAGER_ADD
    assert ours.types == theirs.types == ["ii->i", "ll->l", "ff->f", "dd->d"]
    assert ours.ntypes == 4 and ours.nin == 2 and ours.nout == 1 and ours.nargs == 3
    for a, b in [(np.arange(6, dtype=np.int8), np.arange(6, dtype=np.int16)),
                 (np.arange(6), np.arange(6)),
                 (np.linspace(0, 1, 6, dtype=np.float32), np.float32(2)),
                 (np.linspace(0, 1, 6), 2.5),
                 (np.arange(6, dtype=np.uint32), np.arange(6, dtype=np.int8))]:
        same(ours(a, b), theirs(a, b))
    with pytest.raises(TypeError, match="not supported for the input types"):
        ours(np.ones(3, np.complex64), np.ones(3, np.complex64))


def test_numbers_in_give_a_number_out():
    ours, theirs = both()(_multiply_add)
    same(ours(3, 4), theirs(3, 4))
    same(ours(2.5, np.float32(2)), theirs(2.5, np.float32(2)))


def test_lazy_loops_serve_later_calls_as_numbas_do():
    ours, theirs = both()(_multiply_add)
    for a in (np.arange(4.0), np.arange(4, dtype=np.int8), np.arange(4, dtype=np.int64),
              np.arange(4, dtype=np.float32)):
        same(ours(a, a), theirs(a, a))
    assert ours.types == theirs.types
    same(EAGER_ADD[0](np.int32(3), np.int32(4)), EAGER_ADD[1](np.int32(3), np.int32(4)))


@pytest.mark.parametrize("target", ["cpu", "parallel"])
def test_broadcasting_views_and_empty_arrays(target):
    f = tp.vectorize(target=target)(_hypot_like)
    reference = numba.vectorize(_hypot_like)
    base = np.random.default_rng(0).standard_normal((6, 8))
    for a, b in [(base[:, :1], base[0]), (base[::2, ::-3], base[1::2, 1::3]),
                 (base.T, base.T[::-1]), (np.asfortranarray(base), base),
                 (np.array(3.0), base), (base[:0], base[:0]), (base[None, :, 2], base[:, 2, None])]:
        same(f(a, b), reference(a, b))


def test_out_and_dtype():
    ours, theirs = EAGER_ADD
    a = np.arange(5, dtype=np.int32)
    out = np.zeros(5, np.int64)
    assert ours(a, a, out=out) is out
    np.testing.assert_array_equal(out, 2 * a)
    out2 = np.zeros(5, np.float64)
    assert ours(a, a, out2) is out2
    np.testing.assert_array_equal(out2, 2 * a)
    same(ours(a, a, dtype=np.float64), theirs(a, a, dtype=np.float64))
    with pytest.raises(TypeError, match="Cannot cast ufunc '_add' output"):
        ours(np.ones(3), np.ones(3), out=np.zeros(3, np.int32))
    with pytest.raises(ValueError, match="out has shape"):
        ours(a, a, out=np.zeros(4, np.int32))


def test_reduce_and_outer():
    ours, theirs = EAGER_ADD
    a = np.arange(24, dtype=np.int64).reshape(2, 3, 4)
    for axis in (0, 1, 2, -1, None, (0, 2)):
        np.testing.assert_array_equal(ours.reduce(a, axis=axis), np.add.reduce(a, axis=axis))
    same(ours.reduce(a, axis=1), theirs.reduce(a, axis=1))
    assert ours.reduce(np.arange(10.0)) == theirs.reduce(np.arange(10.0)) == 45.0
    np.testing.assert_array_equal(ours.reduce(a, axis=1, keepdims=True),
                                  np.add.reduce(a, axis=1, keepdims=True))
    with pytest.raises(ValueError, match="zero-size array to reduction operation _add"):
        ours.reduce(np.zeros((0, 3)))
    with_identity = tp.vectorize(["float64(float64, float64)"], identity=0)(_add)
    np.testing.assert_array_equal(with_identity.reduce(np.zeros((0, 3))), [0.0, 0.0, 0.0])
    same(ours.outer(np.arange(3), np.arange(4)), np.add.outer(np.arange(3), np.arange(4)))


def test_division_by_zero_follows_numbas_ufuncs():
    # Numba's vectorized functions take NumPy's error model: inf, nan or 0, no exception.
    ours, theirs = both(["float64(float64, float64)", "int64(int64, int64)"])(_rel_diff)
    floor = both(["int64(int64, int64)"])(_floor_divide)
    a = np.array([1.0, 2.0, 3.0])
    same(ours(a, a + 1), theirs(a, a + 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        same(ours(np.array([1.0, 0.0]), np.array([-1.0, 0.0])),
             theirs(np.array([1.0, 0.0]), np.array([-1.0, 0.0])))
        same(floor[0](np.array([7, -7]), np.array([0, 2])),
             floor[1](np.array([7, -7]), np.array([0, 2])))


def _floor_divide(x, y):
    return x // y


def test_tessera_arrays_stay_on_their_device(device):
    f = tp.vectorize(["float64(float64, float64)", "int64(int64, int64)"])(_multiply_add)
    a = tp.arange(12.0).reshape(3, 4)
    b = tp.arange(4.0)
    got = f(a, b)
    assert isinstance(got, tp.ndarray) and got.device == a.device
    np.testing.assert_array_equal(got.get(), np.arange(12.0).reshape(3, 4) * np.arange(4.0) + 1)
    reversed_got = f(a[::-1, ::2], 2.0)
    np.testing.assert_array_equal(reversed_got.get(), np.arange(12.0).reshape(3, 4)[::-1, ::2] * 2 + 1)
    out = tp.zeros((3, 4))
    assert f(a, b, out=out) is out
    np.testing.assert_array_equal(out.get(), got.get())
    rows = np.arange(12.0).reshape(3, 4)
    reduced = f.reduce(a, axis=0)
    assert isinstance(reduced, tp.ndarray) and reduced.device == a.device
    np.testing.assert_array_equal(reduced.get(), (rows[0] * rows[1] + 1) * rows[2] + 1)


@pytest.mark.uses_cuda
def test_cuda_target_moves_numpy_operands_and_back():
    if not tp.cuda.is_available():
        pytest.skip("no CUDA device or simulator")
    f = tp.vectorize(["float32(float32, float32)", "float64(float64, float64)"], target="cuda")(
        _hypot_like)
    a = np.linspace(-3, 3, 50)
    got = f(a, a[::-1])
    assert isinstance(got, np.ndarray) and got.dtype == np.float64
    np.testing.assert_allclose(got, np.hypot(a, a[::-1]), rtol=1e-15)
    assert f(3.0, 4.0) == 5.0


def test_errors():
    ours, _ = EAGER_ADD
    with pytest.raises(TypeError, match="takes from 2 to 3 positional arguments but 1"):
        ours(np.ones(3))
    with pytest.raises(TypeError, match="'flot64' is not a scalar type"):
        tp.vectorize(["flot64(float64, float64)"])(_add)
    with pytest.raises(TypeError, match="has 1 inputs"):
        tp.vectorize(["float64(float64)"])(_add)
    with pytest.raises(ValueError, match="target must be one of"):
        tp.vectorize(target="gpu")(_add)
    with pytest.raises(TypingError, match="List expressions are not supported"):
        tp.vectorize(["float64(float64, float64)"])(_as_list)


def _as_list(x, y):
    return [x, y]


# --- guvectorize ------------------------------------------------------------------------------

def _move_mean(a, window_arr, out):
    window_width = window_arr[0]
    asum = 0.0
    count = 0
    for i in range(window_width):
        asum += a[i]
        count += 1
        out[i] = asum / count
    for i in range(window_width, len(a)):
        asum += a[i] - a[i - window_width]
        out[i] = asum / count


def _matmul_core(a, b, c):
    for i in range(a.shape[0]):
        for j in range(b.shape[1]):
            s = 0.0
            for k in range(a.shape[1]):
                s += a[i, k] * b[k, j]
            c[i, j] = s


def _add_scalar(x, y, res):
    for i in range(x.shape[0]):
        res[i] = x[i] + y


def _gu_both(signatures, layout, function, **options):
    return (tp.guvectorize(signatures, layout, **options)(function),
            numba.guvectorize(signatures, layout, **options)(function))


def test_guvectorize_moving_mean_example():
    ours, theirs = _gu_both(["void(float64[:], intp[:], float64[:])"], "(n),()->(n)", _move_mean)
    arr = np.arange(20, dtype=np.float64).reshape(2, 10)
    same(ours(arr, 3), theirs(arr, 3))
    same(ours(arr[:, ::-1], np.array([2, 4])[:, None]), theirs(arr[:, ::-1], np.array([2, 4])[:, None]))


@pytest.mark.parametrize("target", ["cpu", "parallel"])
def test_guvectorize_core_matrices_and_broadcast_loops(target):
    signatures = ["void(float64[:,:], float64[:,:], float64[:,:])"]
    ours = tp.guvectorize(signatures, "(m,n),(n,p)->(m,p)", target=target)(_matmul_core)
    theirs = numba.guvectorize(signatures, "(m,n),(n,p)->(m,p)")(_matmul_core)
    rng = np.random.default_rng(6)
    a, b = rng.random((4, 2, 3)), rng.random((3, 5))
    same(ours(a, b), theirs(a, b))
    np.testing.assert_allclose(ours(a, b), a @ b, rtol=1e-14)
    out = np.zeros((4, 2, 5))
    ours(a, b, out)
    np.testing.assert_allclose(out, a @ b, rtol=1e-14)
    with pytest.raises(ValueError, match="mismatch in its core dimension 0"):
        ours(a, rng.random((4, 5)))


def test_guvectorize_scalar_core_inputs():
    ours, theirs = _gu_both(["void(float64[:], float64, float64[:])",
                             "void(int64[:], int64, int64[:])"], "(n),()->(n)", _add_scalar)
    x = np.arange(6.0).reshape(2, 3)
    for y in (10.0, np.array([10.0, 20.0]), np.array([10.0, 20.0])[:, None]):
        same(ours(x, y), theirs(x, y))
    same(ours(np.arange(4), 3), theirs(np.arange(4), 3))


def test_guvectorize_on_tessera_arrays(device):
    g = tp.guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)")(_add_scalar)
    x = tp.arange(6.0).reshape(2, 3)
    got = g(x, 1.5)
    assert isinstance(got, tp.ndarray) and got.device == x.device
    np.testing.assert_array_equal(got.get(), np.arange(6.0).reshape(2, 3) + 1.5)


def test_guvectorize_errors():
    with pytest.raises(TypeError, match="takes 3 arguments; the layout"):
        tp.guvectorize(["void(float64[:], float64[:])"], "(n)->(n)")(_add_scalar)
    with pytest.raises(ValueError, match="a layout looks like"):
        tp.guvectorize(["void(float64[:], float64, float64[:])"], "(n),()")(_add_scalar)
    with pytest.raises(TypeError, match="has 2 arguments"):
        tp.guvectorize(["void(float64[:], float64[:])"], "(n),()->(n)")(_add_scalar)
    g = tp.guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)")(_add_scalar)
    with pytest.raises(TypeError, match="not supported for the input types"):
        g(np.ones(3, np.complex128), 1.0)
    with pytest.raises(ValueError, match="does not have enough dimensions"):
        g(1.0, 1.0)


# --------------------------------------------------------------------------------------------
# On tessera arrays a vectorized function is a node of the lazy expression tree: the ops
# around it fuse with it (one pass on the CPU, one kernel on a CUDA device), its result is
# computed only when read, and the values are Numba's.

def _branchy(x, y):
    return x * y + 1.0 if x > 0 else y - x


def _scale_plus(z, k):
    return z * 0.5 + k


def test_vectorized_calls_join_the_expression_tree(device):
    ours, theirs = both()(_branchy)
    rng = np.random.default_rng(7)
    a, b, c = (rng.standard_normal((40, 30)) for _ in range(3))
    ta, tb, tc = tp.array(a), tp.array(b), tp.array(c)  # copies: no outside writer
    inner = ours(ta, tb)
    assert inner._pending and inner.device == ta.device
    result = inner * 2 + tc
    result._evaluate()
    assert inner._pending, "the chain computed f's result into its own array"
    same(tp.asnumpy(result), theirs(a, b) * 2 + c)
    same(tp.asnumpy(inner), theirs(a, b))
    # Views of every layout, numbers, and another vectorized function of the first's result.
    same(tp.asnumpy(ours(ta[::-2, 1::3], 2.5)), theirs(a[::-2, 1::3], 2.5))
    same(tp.asnumpy(ours(ta.T, tb[:, 0])), theirs(a.T, b[:, 0]))
    same(tp.asnumpy(ours(ours(ta, tb), tc)), theirs(theirs(a, b), c))
    np.testing.assert_allclose(float(ours(ta, tb).sum()), theirs(a, b).sum(), rtol=1e-13)
    same(tp.asnumpy(ours(ta, tb, dtype=np.float32)), theirs(a, b).astype(np.float32))


def test_vectorized_nodes_keep_types_and_values(device):
    eager, eager_numba = both(["float32(float32, float32)", "int64(int64, int64)"])(_multiply_add)
    x = np.linspace(-4, 4, 1001, dtype=np.float32)
    got = eager(tp.asarray(x), tp.asarray(x[::-1])) - 1
    assert got.dtype == np.float32
    same(tp.asnumpy(got), eager_numba(x, x[::-1]) - np.float32(1))
    ints = np.arange(-500, 501)
    same(tp.asnumpy(eager(tp.asarray(ints), 3)), eager_numba(ints, 3))
    ours, theirs = both()(_scale_plus)
    z = (x + 1j * x[::-1]).astype(np.complex64)
    same(tp.asnumpy(ours(tp.asarray(z), 3)), theirs(z, 3))
    # 0-d and empty operands.
    zero_d = ours(tp.asarray(np.float64(1.5)), tp.asarray(np.float64(2.0)))
    assert isinstance(zero_d, tp.ndarray) and zero_d.shape == ()
    assert float(zero_d) == theirs(1.5, 2.0)
    empty = ours(tp.empty((0, 3)), tp.ones(3))
    assert empty.shape == (0, 3) and empty.dtype == np.float64


def test_vectorized_node_reads_its_operands_as_they_were(device):
    ours, theirs = both()(_branchy)
    a = np.linspace(-1, 1, 5000)
    ta = tp.array(a)
    pending = ours(ta, 0.5)
    assert pending._pending
    ta[:100] = 7.0               # written after the call: the result keeps the old values
    ta += 1
    same(tp.asnumpy(pending), theirs(a, 0.5))


@pytest.mark.uses_cuda
def test_vectorized_nodes_on_two_devices_are_refused():
    if not tp.cuda.is_available():
        pytest.skip("no CUDA device or simulator")
    f = tp.vectorize(_add)
    with pytest.raises(ValueError, match="different devices"):
        f(tp.ones(3, device="cpu"), tp.ones(3, device="cuda:0"))
