"""The CUDA device (tessera.cuda, CuPy's API): devices, streams, events, the memory pools,
pinned memory, transfers and RawKernel/RawModule. Runs where a CUDA device exists: in
`make test` that is the simulator (TESSERA_CUDA_SIM=1, two devices). Without one, only the
"no device" behaviour is checked."""

import gc
import threading

import numpy as np
import pytest

import tessera as tp
from tessera import cuda

needs_cuda = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA device or simulator")


# --------------------------------------------------------------------------------------------
# without a device


@pytest.mark.skipif(cuda.is_available(), reason="a CUDA device is present")
def test_no_device():
    assert cuda.runtime.getDeviceCount() == 0
    assert tp.get_device().kind == "cpu"
    with pytest.raises(cuda.CUDARuntimeError, match="no CUDA device was found.*TESSERA_CUDA_SIM=1"):
        cuda.Device(0)
    with pytest.raises(RuntimeError):
        tp.zeros(3, device="cuda")


# --------------------------------------------------------------------------------------------
# devices


@needs_cuda
def test_device_object():
    d = cuda.Device(0)
    assert d.id == 0
    assert isinstance(d.compute_capability, str) and len(d.compute_capability) >= 2
    free, total = d.mem_info
    assert 0 < free <= total
    attrs = d.attributes
    assert attrs["WarpSize"] == 32
    assert attrs["MaxThreadsPerBlock"] >= 1024
    assert attrs["ComputeCapabilityMajor"] * 10 + attrs["ComputeCapabilityMinor"] == int(
        d.compute_capability)
    d.synchronize()
    assert cuda.Device() == d
    with pytest.raises(cuda.CUDARuntimeError, match="invalid device ordinal"):
        cuda.Device(cuda.runtime.getDeviceCount())


@needs_cuda
def test_default_device_is_cuda():
    assert tp.get_device() == tp.Device("cuda:0")
    assert tp.zeros(3).device == tp.Device("cuda:0")


@needs_cuda
@pytest.mark.skipif(cuda.is_available() and cuda.runtime.getDeviceCount() < 2,
                    reason="one CUDA device")
def test_arrays_follow_the_current_device():
    with cuda.Device(1):
        a = tp.arange(5)
        assert cuda.get_device_id() == 1
    assert a.device == tp.Device("cuda:1")
    b = tp.arange(5)
    assert b.device == tp.Device("cuda:0")
    with pytest.raises(ValueError, match="cuda:0.*cuda:1|cuda:1.*cuda:0"):
        a + b
    c = tp.asarray(a, device="cuda:0")
    np.testing.assert_array_equal((c + b).get(), np.arange(5) * 2)
    # copy() copies to the current device, as CuPy's ("even when a given array is located
    # in another device, you can copy it to the current device").
    assert a.copy().device == tp.Device("cuda:0")
    with cuda.Device(1):
        assert a.copy().device == tp.Device("cuda:1")


@needs_cuda
def test_transfers():
    host = np.arange(24, dtype=np.float32).reshape(4, 6)
    a = tp.asarray(host)
    assert a.device.kind == "cuda"
    np.testing.assert_array_equal(a.get(), host)
    np.testing.assert_array_equal(tp.asnumpy(a[::-1, 1::2]), host[::-1, 1::2])
    out = np.empty_like(host)
    a.get(out=out)
    np.testing.assert_array_equal(out, host)
    a.set(host * 2)
    np.testing.assert_array_equal(a.get(), host * 2)
    with pytest.raises(TypeError, match="float64 array cannot be set to float32"):
        a.set(host.astype(np.float64))
    with pytest.raises(ValueError, match="shape mismatch"):
        a.set(host[:2])
    c = tp.asarray(a, device="cpu")
    assert c.device.kind == "cpu"
    np.testing.assert_array_equal(np.asarray(c), host * 2)
    assert str(a) == str(host * 2)
    assert float(a[1, 2]) == 16.0
    assert bool(a[0, 1])


@needs_cuda
@pytest.mark.parametrize("layout", ["C", "F", "T3", "sliced", "reversed"])
def test_transfers_keep_the_layout(layout):
    """asarray onto a device and back keeps NumPy's order='K' layout."""
    base = np.arange(60, dtype=np.int16).reshape(3, 4, 5)
    host = {"C": base, "F": np.asfortranarray(base), "T3": base.transpose(2, 0, 1),
            "sliced": base[:, ::2], "reversed": base[::-1]}[layout]
    expected = np.array(host)  # what order='K' gives in NumPy
    a = tp.asarray(host)
    assert a.device.kind == "cuda"
    assert a.strides == expected.strides
    back = tp.asarray(a, device="cpu")
    assert back.strides == expected.strides
    np.testing.assert_array_equal(np.asarray(back), host)


@needs_cuda
def test_array_operations_on_device():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((50, 40))
    y = rng.standard_normal((40, 30))
    tx, ty = tp.asarray(x), tp.asarray(y)
    np.testing.assert_allclose((tp.sin(tx) * 2 + 1).get(), np.sin(x) * 2 + 1, rtol=1e-14,
                               atol=1e-15)
    np.testing.assert_allclose(tx.sum(axis=0).get(), x.sum(axis=0), rtol=1e-12)
    np.testing.assert_allclose((tx @ ty).get(), x @ y, rtol=1e-12)
    np.testing.assert_array_equal(tp.sort(tx, axis=1).get(), np.sort(x, axis=1))
    np.testing.assert_array_equal(tx[tx > 0].get(), x[x > 0])
    tx[::2, 1] = 7.0
    x[::2, 1] = 7.0
    np.testing.assert_array_equal(tx.get(), x)
    np.testing.assert_allclose(tp.fft.fft(tx[0]).get(), np.fft.fft(x[0]), rtol=1e-12)


# --------------------------------------------------------------------------------------------
# streams and events


@needs_cuda
def test_streams_and_events():
    s = cuda.Stream(non_blocking=True)
    assert s != cuda.get_current_stream()
    with s:
        assert cuda.get_current_stream() == s
        a = tp.arange(1000, dtype=np.float64)
        start = s.record()
        b = (a * 2).get()
        end = cuda.Event()
        end.record(s)
    assert cuda.get_current_stream() != s
    end.synchronize()
    assert end.done and s.done
    assert cuda.get_elapsed_time(start, end) >= 0
    np.testing.assert_array_equal(b, np.arange(1000) * 2.0)
    s.synchronize()
    null = cuda.Stream(null=True)
    assert null.ptr == 0
    null.wait_event(end)
    with pytest.raises(cuda.CUDARuntimeError):
        cuda.get_elapsed_time(cuda.Event(disable_timing=True), end)


@needs_cuda
def test_stream_per_thread():
    results = []

    def work(k):
        s = cuda.Stream()
        with s:
            results.append(float((tp.arange(100) * k).sum().get()))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(results) == [4950.0 * k for k in range(4)]


# --------------------------------------------------------------------------------------------
# memory pools


@needs_cuda
def test_memory_pool():
    pool = tp.get_default_memory_pool()
    assert pool is cuda.get_default_memory_pool()
    gc.collect()  # arrays earlier tests left in reference cycles go back before counting
    pool.free_all_blocks()
    base = pool.used_bytes()
    a = tp.empty(4 << 20, dtype=np.uint8)
    assert pool.used_bytes() == base + (4 << 20)
    total = pool.total_bytes()
    del a
    gc.collect()
    assert pool.used_bytes() == base
    assert pool.free_bytes() >= 4 << 20 and pool.total_bytes() == total
    b = tp.empty(4 << 20, dtype=np.uint8)  # served from the cache
    assert pool.total_bytes() == total
    del b
    pool.free_all_blocks()  # the 4 MiB segment goes back to the device
    assert pool.total_bytes() == total - (4 << 20)
    assert pool.total_bytes() == pool.used_bytes() + pool.free_bytes()


@needs_cuda
def test_array_outlives_its_stream():
    """An array allocated on a stream that is destroyed first is freed back to the pool (its
    block moves to the default stream) and its values stay readable."""
    pool = tp.get_default_memory_pool()
    gc.collect()
    base = pool.used_bytes()
    stream = cuda.Stream(non_blocking=True)
    with stream:
        x = tp.arange(1000.0) * 2
        y = tp.ones(1 << 20, dtype=np.uint8)
    del stream
    gc.collect()
    np.testing.assert_array_equal(tp.asnumpy(x), np.arange(1000.0) * 2)
    assert pool.used_bytes() > base
    del x, y
    gc.collect()
    assert pool.used_bytes() == base
    z = tp.ones(1 << 20, dtype=np.uint8)  # the freed block serves the default stream
    assert int(z.sum()) == 1 << 20


@needs_cuda
def test_memory_pool_limit_and_out_of_memory():
    pool = cuda.get_default_memory_pool()
    pool.free_all_blocks()
    pool.set_limit(size=64 << 20)
    try:
        assert pool.get_limit() == 64 << 20
        with pytest.raises(cuda.OutOfMemoryError, match="out of memory") as info:
            tp.empty(128 << 20, dtype=np.uint8)
        assert isinstance(info.value, MemoryError)
        kept = [tp.empty(16 << 20, dtype=np.uint8) for _ in range(3)]
        del kept
        x = tp.empty(48 << 20, dtype=np.uint8)  # the freed blocks are released and reused
        del x
    finally:
        pool.set_limit(size=0)
    assert pool.get_limit() == 0
    with pytest.raises(ValueError):
        pool.set_limit(fraction=1.5)


# --------------------------------------------------------------------------------------------
# pinned memory


@needs_cuda
def test_pinned_memory():
    pool = tp.get_default_pinned_memory_pool()
    mem = cuda.alloc_pinned_memory(800)
    view = np.frombuffer(mem, dtype=np.float64, count=100)
    view[:] = np.arange(100)
    assert pool.used_bytes() >= 800
    a = tp.empty(100)
    a.set(view)
    np.testing.assert_array_equal(a.get(), np.arange(100.0))
    p = cuda.pinned_array((3, 4), dtype=np.int32)
    p[...] = 5
    assert p.shape == (3, 4) and p.dtype == np.int32
    s = cuda.Stream()
    b = tp.empty((3, 4), dtype=np.int32)
    b.set(p, stream=s)
    back = cuda.pinned_array((3, 4), dtype=np.int32)
    b.get(stream=s, out=back)
    s.synchronize()
    np.testing.assert_array_equal(back, 5)
    del view, mem
    gc.collect()
    pool.free_all_blocks()


@needs_cuda
def test_mapped_array():
    host = cuda.mapped_array((8,), dtype=np.float32)  # Numba's: one array, host and device
    assert isinstance(host, np.ndarray) and host.dtype == np.float32
    host[:] = np.arange(8)
    kernel = tp.RawKernel(r'''
    extern "C" __global__ void twice(float* x, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) x[i] *= 2.0f;
    }''', "twice")
    kernel((1,), (8,), (host.device_array, np.int32(8)))
    cuda.Device().synchronize()
    np.testing.assert_array_equal(host, np.arange(8) * 2.0)
    kernel((1,), (4,), (host[4:].device_array, np.int32(4)))
    cuda.Device().synchronize()
    np.testing.assert_array_equal(host, np.arange(8) * np.array([2.0] * 4 + [4.0] * 4))
    interface = host[2:].__cuda_array_interface__
    assert interface["data"][0] == host.__cuda_array_interface__["data"][0] + 8
    assert interface["shape"] == (6,) and interface["typestr"] == "<f4"


@needs_cuda
def test_memory_pointer_and_ndarray_memptr():
    mp = cuda.alloc(64)
    a = tp.ndarray((4, 2), dtype=np.float64, memptr=mp)
    a[...] = 3.0
    b = tp.ndarray((8,), dtype=np.float64, memptr=mp)
    np.testing.assert_array_equal(b.get(), np.full(8, 3.0))
    with pytest.raises(ValueError, match="needs 128 bytes"):
        tp.ndarray((16,), dtype=np.float64, memptr=mp)
