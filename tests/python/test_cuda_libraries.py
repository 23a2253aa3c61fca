"""FFTs and decompositions on a CUDA device go to CUDA's libraries: cuFFT
(backend/cuda/cufft.h) and cuSOLVER (backend/cuda/cusolver.h), simulated here by tables of
the same entries that run the CPU's FFTW and LAPACK on the very arguments the libraries
would get. These tests choose the layouts that take each path of the descriptor code: more
than three transformed axes (split into passes), strides that do not nest in cuFFT's
advanced layout (packed copies), batch axes that do not merge (looped), and check the
values against NumPy's and that the host waits for none of it."""

import numpy as np
import pytest

import tessera as tp

pytestmark = pytest.mark.skipif(not tp.cuda.is_available(), reason="needs a CUDA device "
                                "(TESSERA_CUDA_SIM=1 simulates one)")


def rng():
    return np.random.default_rng(20261127)


def signal(shape, dtype):
    x = rng().standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng().standard_normal(shape)
    return x.astype(dtype)


def close(got, want, dtype):
    assert got.dtype == want.dtype and got.shape == want.shape
    eps = np.finfo(np.dtype(dtype)).eps
    scale = max(1.0, float(np.max(np.abs(want), initial=0)))
    np.testing.assert_allclose(got, want, rtol=0, atol=64 * eps * scale)


# --------------------------------------------------------------------------------------------
# cuFFT

# (shape, axes, view): views whose strides nest in cuFFT's advanced layout or do not.
FFT_LAYOUTS = [
    ((64,), None, None),
    ((6, 10), None, None),
    ((6, 10), (0,), None),                     # the batch innermost (idist 1)
    ((3, 4, 5, 6), None, None),                # four axes: two passes
    ((2, 3, 4, 5, 6), (0, 2, 3, 4), None),     # four of five axes, a batch axis between
    ((4, 6, 8), (0, 2), None),                 # a transformed axis inside the batch
    ((8, 12), None, "transposed"),             # complex axes reordered; real ones packed
    ((6, 8, 10), (0, 2), "transposed"),
    ((10, 12), None, "stepped"),               # every stride doubled
    ((5, 6, 7), (1,), "middle"),               # batch axes that do not merge: looped
    ((4, 1, 6), None, None),                   # an axis of length 1
]


def make_view(x, view):
    if view == "transposed":
        return x.T
    if view == "stepped":
        return x[::2, ::2]
    if view == "middle":
        return x[:, :, ::2]
    return x


@pytest.mark.parametrize("shape, axes, view", FFT_LAYOUTS, ids=str)
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_transforms(shape, axes, view, dtype):
    x = signal(shape, dtype)
    with tp.cuda.Device(0):
        t = make_view(tp.asarray(x), view)
        for name in ("fftn", "ifftn"):
            got = tp.asnumpy(getattr(tp.fft, name)(t, axes=axes))
            close(got, getattr(np.fft, name)(make_view(x, view), axes=axes), dtype)


@pytest.mark.parametrize("shape, axes, view", FFT_LAYOUTS, ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_real_transforms(shape, axes, view, dtype):
    x = signal(shape, dtype)
    with tp.cuda.Device(0):
        t = make_view(tp.asarray(x), view)
        spectrum = tp.fft.rfftn(t, axes=axes)
        want = np.fft.rfftn(make_view(x, view), axes=axes)
        close(tp.asnumpy(spectrum), want.astype(np.result_type(dtype, np.complex64)), dtype)
        every = axes or tuple(range(t.ndim))
        last = every[-1]
        n = t.shape[last]
        back = tp.fft.irfftn(spectrum, s=[t.shape[a] for a in every], axes=every)
        close(tp.asnumpy(back), make_view(x, view), dtype)
        assert back.shape[last] == n


def test_plan_reuse_and_other_devices():
    """The same transform twice (a kept plan) gives the same bits; a second device has
    its own plans."""
    x = signal((16, 24), "complex128")
    results = []
    for device in (0, 1, 0):
        if device >= tp.cuda.runtime.getDeviceCount():
            continue
        with tp.cuda.Device(device):
            results.append(tp.asnumpy(tp.fft.fft2(tp.asarray(x))))
    for r in results[1:]:
        np.testing.assert_array_equal(r, results[0])
    close(results[0], np.fft.fft2(x), "complex128")


@pytest.mark.skipif(tp.cuda.is_available() and not tp.cuda.runtime.is_simulated(),
                    reason="the simulator counts the host's waits")
def test_transforms_are_queued():
    waits = tp._core._cuda.simulated_host_waits
    x = signal((2, 3, 4, 5), "float64")
    with tp.cuda.Device(0):
        t = tp.asarray(x)
        before = waits()
        y = tp.fft.irfftn(tp.fft.rfftn(t.T), s=t.T.shape, axes=(0, 1, 2, 3)) + tp.fft.fftn(t.T).real
        assert waits() == before, "the host waited for queued work"
        got = tp.asnumpy(y)
    np.testing.assert_allclose(got, x.T + np.fft.fftn(x.T).real, atol=1e-9)


# --------------------------------------------------------------------------------------------
# cuSOLVER


def solve_close(got, want, dtype, scale=1.0):
    eps = np.finfo(np.dtype(dtype)).eps
    np.testing.assert_allclose(got, want, rtol=0, atol=1e4 * eps * scale)


@pytest.mark.parametrize("shape", [(3, 5), (2, 4, 6), (5, 3)], ids=str)
@pytest.mark.parametrize("dtype", ["float32", "complex128"])
def test_svd_of_wide_and_tall_matrices(shape, dtype):
    """gesvd takes m >= n only: a wide matrix is factored as its conjugate transpose. The
    factors rebuild the matrix, their columns are orthonormal, the values are NumPy's."""
    a = signal(shape, dtype)
    with tp.cuda.Device(0):
        t = tp.asarray(a)
        for full in (False, True):
            u, s, vh = (tp.asnumpy(r) for r in tp.linalg.svd(t, full_matrices=full))
            k = min(shape[-2:])
            assert u.shape == shape[:-2] + (shape[-2], shape[-2] if full else k)
            assert vh.shape == shape[:-2] + (shape[-1] if full else k, shape[-1])
            solve_close(s, np.linalg.svd(a, compute_uv=False), dtype, np.abs(s).max())
            rebuilt = (u[..., :, :k] * s[..., None, :]) @ vh[..., :k, :]
            solve_close(rebuilt, a, dtype, np.abs(a).max())
            eye = np.eye(u.shape[-1])
            solve_close(np.conj(np.swapaxes(u, -1, -2)) @ u, np.broadcast_to(eye, u.shape[:-2] + eye.shape), dtype)
        values = tp.asnumpy(tp.linalg.svd(t, compute_uv=False))
        solve_close(values, np.linalg.svd(a, compute_uv=False), dtype, np.abs(values).max())


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_eig_of_real_matrices_with_conjugate_pairs(dtype):
    """A real matrix's eigenvalues and vectors come from geev packed as LAPACK's; unpacked on
    the device into NumPy's complex results: conjugate pairs in order, A v = w v."""
    rotation = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 2.0]])
    a = np.stack([rotation, signal((3, 3), "float64"), np.diag([1.0, 2.0, 3.0])]).astype(dtype)
    with tp.cuda.Device(0):
        w, v = (tp.asnumpy(r) for r in tp.linalg.eig(tp.asarray(a)))
    want_w, _ = np.linalg.eig(a)
    assert w.dtype == want_w.dtype
    solve_close(np.sort_complex(w.ravel()), np.sort_complex(want_w.ravel()), dtype, 10)
    solve_close(a.astype(w.dtype) @ v, v * w[..., None, :], dtype, 10)
    solve_close(np.linalg.norm(v, axis=-2), np.ones(w.shape), dtype)


@pytest.mark.parametrize("dtype", ["float64", "complex64"])
@pytest.mark.parametrize("shape", [(6, 4), (4, 6), (5, 5)], ids=str)
def test_lstsq_from_the_svd(dtype, shape):
    """cuSOLVER has no gelsd: the minimum-norm solution, singular values and rank from its
    SVD, rank-deficient systems included, as NumPy's."""
    a = signal(shape, dtype)
    a[:, -1] = a[:, 0]  # rank-deficient where tall or square
    b = signal((shape[0], 2), dtype)
    with tp.cuda.Device(0):
        x, residuals, rank, s = tp.linalg.lstsq(tp.asarray(a), tp.asarray(b), rcond=None)
    want = np.linalg.lstsq(a, b, rcond=None)
    assert int(rank) == want[2]
    assert tp.asnumpy(residuals).shape == want[1].shape
    solve_close(tp.asnumpy(x), want[0], dtype, 10)
    solve_close(tp.asnumpy(s), want[3], dtype, 10)
