"""Device arrays exchanged with CuPy and PyTorch without copies (issue 22), through the CUDA
array interface and DLPack, both ways. These need a real GPU and the peers installed: they
run in the GPU check (tools/gpu/check runs the suite's cuda parameter there) and skip
elsewhere; test_cuda_exchange.py covers the same protocols on the simulator with a minimal
foreign producer."""

import numpy as np
import pytest

import tessera as tp


@pytest.fixture
def gpu():
    if not tp.cuda.is_available() or tp.cuda.runtime.is_simulated():
        pytest.skip("needs a real CUDA device (the GPU check)")
    with tp.Device("cuda:0") as dev:
        yield dev


def host(shape=(3, 5), dtype=np.float32):
    return (np.arange(np.prod(shape)).reshape(shape) * 0.5 - 2).astype(dtype)


def test_cupy_takes_tessera_arrays(gpu):
    cp = pytest.importorskip("cupy")
    t = tp.asarray(host())
    for view in (t, t[:, ::-2]):
        c = cp.asarray(view)  # __cuda_array_interface__
        assert c.data.ptr == view.data_ptr
        np.testing.assert_array_equal(cp.asnumpy(c), view.get())
        d = cp.from_dlpack(view)
        assert d.data.ptr == view.data_ptr
        np.testing.assert_array_equal(cp.asnumpy(d), view.get())
    cp.asarray(t)[0, 0] = 42
    assert t.get()[0, 0] == 42


def test_tessera_takes_cupy_arrays(gpu):
    cp = pytest.importorskip("cupy")
    c = cp.asarray(host())
    for view in (c, c[::-1, 1::2]):
        t = tp.asarray(view)
        assert t.data_ptr == view.data.ptr and t.device == gpu
        np.testing.assert_array_equal(t.get(), cp.asnumpy(view))
        d = tp.from_dlpack(view)
        assert d.data_ptr == view.data.ptr
        np.testing.assert_array_equal(d.get(), cp.asnumpy(view))
    tp.asarray(c)[0, 0] = -7
    assert float(c[0, 0]) == -7


def test_cupy_stream_work_is_ordered_before_tessera(gpu):
    cp = pytest.importorskip("cupy")
    stream = cp.cuda.Stream(non_blocking=True)
    with stream:
        c = cp.arange(1 << 22, dtype=cp.float64) * 2  # queued on the CuPy stream
        t = tp.asarray(c)  # the interface names that stream; tessera waits with an event
    assert float(tp.sum(t)) == float(((1 << 22) - 1) * (1 << 22))


def test_torch_takes_tessera_arrays(gpu):
    torch = pytest.importorskip("torch")
    t = tp.asarray(host())
    x = torch.from_dlpack(t)
    assert x.device.type == "cuda" and x.data_ptr() == t.data_ptr
    np.testing.assert_array_equal(x.cpu().numpy(), t.get())
    y = torch.as_tensor(t[:, ::2], device="cuda")  # __cuda_array_interface__
    assert y.data_ptr() == t[:, ::2].data_ptr
    np.testing.assert_array_equal(y.cpu().numpy(), t[:, ::2].get())


def test_tessera_takes_torch_tensors(gpu):
    torch = pytest.importorskip("torch")
    x = torch.arange(15, dtype=torch.float64, device="cuda").reshape(3, 5)
    for view in (x, x[:, 1::2]):
        t = tp.from_dlpack(view)
        assert t.data_ptr == view.data_ptr() and t.dtype == np.float64
        np.testing.assert_array_equal(t.get(), view.cpu().numpy())
        u = tp.asarray(view)  # __cuda_array_interface__
        assert u.data_ptr == view.data_ptr()
    tp.from_dlpack(x)[0, 0] = 99
    assert float(x[0, 0]) == 99
