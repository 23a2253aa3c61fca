"""tessera.stencil against Numba's @stencil: relative indexing, inferred and given
neighborhoods, cval, standard_indexing, extra scalar arguments, out=, dtypes."""

import numpy as np
import pytest

import tessera as tp
from tessera.jit import TypingError

numba = pytest.importorskip("numba")

# Compiled for the CPU: make test's run on the CUDA device leaves out the tests taking no device.
pytestmark = pytest.mark.host_only


def _four_point(a):
    return 0.25 * (a[0, 1] + a[1, 0] + a[0, -1] + a[-1, 0])


def _trailing_mean(a):
    cumul = 0
    for i in range(-3, 1):
        cumul += a[i]
    return cumul / 4


def _mixed(a, b, c):
    return a[0, 0] * c + b[1, 1] - a[-1, 0] * b[0, 0]


def _weighted(a, w):
    return a[-1, 0] * w[0, 0] + a[0, 1] * w[0, 1] + a[1, 0] * w[1, 0] + a[0, -1] * w[1, 1]


def _three_d(a):
    return a[-1, 0, 0] + a[0, 2, 0] - a[0, 0, -1]


def _variable_index(a):
    s = 0.0
    for i in range(-1, 2):
        s += a[i]
    return s


def same(got, expected):
    assert type(got) is type(expected)
    assert got.dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int16"])
def test_four_point_stencil(dtype):
    a = (np.arange(42) % 11).astype(dtype).reshape(6, 7)
    same(tp.stencil(_four_point)(a), numba.stencil(_four_point)(a))
    same(tp.stencil(_four_point)(a[::-1, 1::2]), numba.stencil(_four_point)(a[::-1, 1::2]))


def test_given_neighborhood_and_cval():
    x = np.arange(10.0)
    ours = tp.stencil(neighborhood=((-3, 0),))(_trailing_mean)
    theirs = numba.stencil(neighborhood=((-3, 0),))(_trailing_mean)
    same(ours(x), theirs(x))
    a = np.arange(30.0).reshape(5, 6)
    same(tp.stencil(cval=-1.0)(_four_point)(a), numba.stencil(cval=-1.0)(_four_point)(a))


def test_several_inputs_scalars_and_standard_indexing():
    a, b = np.arange(30.0).reshape(5, 6), np.ones((5, 6)) * 3
    same(tp.stencil(_mixed)(a, b, 2.0), numba.stencil(_mixed)(a, b, 2.0))
    w = np.array([[1.0, 2.0], [3.0, 4.0]])
    ours = tp.stencil(standard_indexing=("w",))(_weighted)
    theirs = numba.stencil(standard_indexing=("w",))(_weighted)
    same(ours(a, w), theirs(a, w))


def test_three_dimensions_and_out():
    a = np.arange(120.0).reshape(4, 5, 6)
    same(tp.stencil(_three_d)(a), numba.stencil(_three_d)(a))
    out = np.full((4, 5, 6), 7.0)
    assert tp.stencil(_three_d)(a, out=out) is out
    expected = numba.stencil(_three_d)(a)
    interior = (slice(1, None), slice(0, -2), slice(1, None))
    np.testing.assert_array_equal(out[interior], expected[interior])
    assert out[0, 0, 0] == 7.0  # the border of a given out is left as it was


def test_tessera_arrays_and_small_inputs():
    a = tp.asarray(np.arange(30.0).reshape(5, 6), device="cpu")
    got = tp.stencil(_four_point)(a)
    assert isinstance(got, tp.ndarray)
    np.testing.assert_array_equal(got.get(), numba.stencil(_four_point)(np.arange(30.0).reshape(5, 6)))
    tiny = np.ones((2, 2))
    same(tp.stencil(_four_point)(tiny), numba.stencil(_four_point)(tiny))


def test_errors():
    with pytest.raises(TypingError, match="give neighborhood="):
        tp.stencil(_variable_index)(np.arange(5.0))
    with pytest.raises(ValueError, match="standard_indexing names z"):
        tp.stencil(standard_indexing=("z",))(_four_point)
    with pytest.raises(ValueError, match="must be the same"):
        tp.stencil(_mixed)(np.ones((3, 3)), np.ones((3, 4)), 1.0)
    with pytest.raises(TypingError, match="a relative index per dimension"):
        tp.stencil(_four_point)(np.arange(5.0))
    with pytest.raises(TypeError, match="takes 1 arguments, 2 given"):
        tp.stencil(_four_point)(np.ones((3, 3)), 1)


def on(device, a):
    return tp.asarray(np.ascontiguousarray(a), device=str(device))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
def test_stencils_run_where_tessera_arrays_are(device, dtype):
    """On a CUDA device the stencil is a generated kernel (Numba's stencils take no device
    arrays); on the CPU the jit loop. Values and dtypes are Numba's either way."""
    a = (np.arange(42) % 11).astype(dtype).reshape(6, 7)
    got = tp.stencil(_four_point)(on(device, a))
    assert isinstance(got, tp.ndarray) and got.device == device
    same(got.get(), numba.stencil(_four_point)(a))
    view = on(device, a)[::-1, 1::2]
    same(tp.stencil(_four_point)(view).get(), numba.stencil(_four_point)(a[::-1, 1::2]))
    same(tp.stencil(cval=-1.0)(_four_point)(on(device, a)).get(),
         numba.stencil(cval=-1.0)(_four_point)(a))


def test_stencil_forms_on_each_device(device):
    x = np.arange(10.0)
    same(tp.stencil(neighborhood=((-3, 0),))(_trailing_mean)(on(device, x)).get(),
         numba.stencil(neighborhood=((-3, 0),))(_trailing_mean)(x))
    a, b = np.arange(30.0).reshape(5, 6), np.ones((5, 6)) * 3
    same(tp.stencil(_mixed)(on(device, a), on(device, b), 2.0).get(),
         numba.stencil(_mixed)(a, b, 2.0))
    w = np.array([[1.0, 2.0], [3.0, 4.0]])
    same(tp.stencil(standard_indexing=("w",))(_weighted)(on(device, a), on(device, w)).get(),
         numba.stencil(standard_indexing=("w",))(_weighted)(a, w))
    c = np.arange(120.0).reshape(4, 5, 6)
    out = tp.full((4, 5, 6), 7.0, device=str(device))
    assert tp.stencil(_three_d)(on(device, c), out=out) is out
    expected = numba.stencil(_three_d)(c)
    interior = (slice(1, None), slice(0, -2), slice(1, None))
    np.testing.assert_array_equal(out.get()[interior], expected[interior])
    assert float(out[0, 0, 0]) == 7.0
    same(tp.stencil(_four_point)(on(device, np.ones((2, 2)))).get(),
         numba.stencil(_four_point)(np.ones((2, 2))))


@pytest.mark.uses_cuda
def test_stencil_device_errors():
    if not tp.cuda.is_available():
        pytest.skip("no CUDA device or simulator")
    a = tp.ones((4, 4), device="cuda:0")
    with pytest.raises(ValueError, match="different devices"):
        tp.stencil(_mixed)(a, tp.ones((4, 4), device="cpu"), 1.0)
    with pytest.raises(ValueError, match="a NumPy array beside arrays on cuda:0"):
        tp.stencil(standard_indexing=("w",))(_weighted)(a, np.ones((2, 2)))
    with pytest.raises(ValueError, match="out has shape"):
        tp.stencil(_four_point)(a, out=tp.ones((3, 4), device="cuda:0"))
