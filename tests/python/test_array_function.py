"""NumPy's dispatch protocols on tessera arrays (issue 22): NEP 18's __array_function__ runs
tessera's function for a NumPy function called with tessera arrays, on their device, and
returns tessera arrays; a function tessera lacks raises NumPy's TypeError (no silent host
copy); NEP 35's like= creates tessera arrays on the like array's device."""

import numpy as np
import pytest

import tessera as tp

from conftest import assert_same

HOST = np.arange(12.0).reshape(3, 4) - 5.5

CALLS = {
    "mean": lambda m, a: m.mean(a, axis=0),
    "sum": lambda m, a: m.sum(a, axis=1, keepdims=True),
    "std": lambda m, a: m.std(a),
    "concatenate": lambda m, a: m.concatenate([a, a[::-1]], axis=1),
    "stack": lambda m, a: m.stack([a, a * 2]),
    "where": lambda m, a: m.where(a > 0, a, 0.0),
    "sort": lambda m, a: m.sort(a[:, ::-1], axis=1),
    "argsort": lambda m, a: m.argsort(a.ravel()),
    "transpose": lambda m, a: m.transpose(a),
    "reshape": lambda m, a: m.reshape(a, (4, 3)),
    "clip": lambda m, a: m.clip(a, -2, 3),
    "cumsum": lambda m, a: m.cumsum(a, axis=1),
    "diff": lambda m, a: m.diff(a, axis=0),
    "linalg.norm": lambda m, a: m.linalg.norm(a),
    "linalg.svd": lambda m, a: m.linalg.svd(a, compute_uv=False),
    "fft.fft": lambda m, a: m.fft.fft(a),
    "dot": lambda m, a: m.dot(a, a.T),
    "unique": lambda m, a: m.unique(m.floor(a)),
    "sliding_window_view": lambda m, a: m.lib.stride_tricks.sliding_window_view(a, (2, 2)),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_numpy_functions_run_tesseras_on_the_arrays_device(device, name):
    call = CALLS[name]
    got = call(np, tp.asarray(HOST))
    assert isinstance(got, tp.ndarray), type(got)
    assert got.device == device
    want = call(np, HOST)
    if name in ("linalg.svd", "linalg.norm", "std", "fft.fft"):
        np.testing.assert_allclose(tp.asnumpy(got), want, rtol=1e-12, atol=1e-12)
        assert got.dtype == want.dtype and got.shape == np.shape(want)
    else:
        assert_same(got, want)


def test_numpy_arrays_beside_tessera_arrays(device):
    """On the CPU NumPy data joins as tessera's functions take it; a CUDA device refuses to
    move it implicitly, as tessera's functions (and CuPy's) do when called directly."""
    if device.kind != "cpu":
        with pytest.raises(TypeError, match="not moved to cuda:0 implicitly"):
            np.concatenate([tp.asarray(HOST), HOST])
        return
    got = np.concatenate([tp.asarray(HOST), HOST])
    assert isinstance(got, tp.ndarray) and got.device == device
    assert_same(got, np.concatenate([HOST, HOST]))


def test_missing_functions_raise_numpys_type_error_without_copying(device):
    with pytest.raises(TypeError, match="no implementation found for 'numpy.apply_along_axis'"):
        np.apply_along_axis(np.sum, 0, tp.asarray(HOST))


def test_foreign_array_types_are_left_to_their_own_protocol():
    class Foreign:
        def __array_function__(self, func, types, args, kwargs):
            return "foreign"

    assert np.concatenate([tp.asarray(HOST), Foreign()]) == "foreign"


@pytest.mark.parametrize("make", [
    lambda like: np.zeros((2, 3), like=like),
    lambda like: np.ones(4, dtype=np.float32, like=like),
    lambda like: np.full(3, 7, like=like),
    lambda like: np.arange(5, like=like),
    lambda like: np.array([[1, 2], [3, 4]], like=like),
    lambda like: np.asarray([1.5, 2.5], like=like),
    lambda like: np.eye(3, like=like),
    lambda like: np.identity(2, like=like),
])
def test_like_creates_tessera_arrays_on_the_like_arrays_device(device, make):
    with tp.Device("cpu"):  # not the current device: like= decides
        got = make(tp.ones(1, device=str(device)))
    assert isinstance(got, tp.ndarray) and got.device == device
    assert_same(got, make(np.ones(1)))
