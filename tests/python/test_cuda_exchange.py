"""The CUDA array interface (version 3) both ways (issue 22): tessera's CUDA arrays export it
without a copy, naming the stream their work is queued on; asarray takes any object that
exposes it (here a minimal foreign producer: Numba's simulator has no such arrays) as a view
of the producer's memory, after ordering its stream behind the producer's with an event.
CUDA only: the suite's second run covers it on the simulator (two simulated devices)."""

import numpy as np
import pytest

import tessera as tp
from tessera import _core, cuda


class Foreign:
    """Another library's device array: only the interface, and a reference to the memory."""

    def __init__(self, interface, keep=None):
        self.__cuda_array_interface__ = interface
        self.keep = keep


def foreign_view(t, **changes):
    interface = dict(t.__cuda_array_interface__, **changes)
    return Foreign(interface, keep=t)


@pytest.fixture
def cuda0():
    if not tp.cuda.is_available():
        pytest.skip("needs a CUDA device (the simulator in make test)")
    with tp.Device("cuda:0") as dev:
        yield dev


def test_cpu_arrays_have_no_cuda_interface():
    a = tp.ones(3, device="cpu")
    assert not hasattr(a, "__cuda_array_interface__")
    with pytest.raises(AttributeError, match="only CUDA arrays"):
        a.__cuda_array_interface__  # noqa: B018


def test_import_without_cuda_refuses():
    if tp.cuda.is_available():
        pytest.skip("for machines without CUDA")
    interface = {"shape": (2,), "typestr": "<f8", "data": (4096, False), "version": 3}
    with pytest.raises(ValueError, match="not in the memory of any CUDA device"):
        tp.asarray(Foreign(interface))


def test_export_describes_the_memory(cuda0):
    a = tp.asarray(np.arange(12.0).reshape(3, 4))
    interface = a.__cuda_array_interface__
    assert interface["version"] == 3
    assert interface["shape"] == (3, 4)
    assert interface["typestr"] == "<f8"
    assert interface["descr"] == (("", "<f8"),)
    assert interface["strides"] is None
    assert interface["data"] == (a.data_ptr, False)
    stream = tp.cuda.get_current_stream().ptr
    assert interface["stream"] == (stream or 1)  # the default stream is 1 in the interface
    view = a[:, ::-2]
    interface = view.__cuda_array_interface__
    assert interface["strides"] == view.strides == (32, -16)
    assert interface["data"][0] == view.data_ptr == a.data_ptr + 24
    a.flags.writeable = False
    assert a.__cuda_array_interface__["data"][1] is True
    for dtype, typestr in [(np.bool_, "|b1"), (np.int8, "|i1"), (np.uint16, "<u2"),
                           (np.complex64, "<c8"), (np.float16, "<f2")]:
        assert tp.zeros(2, dtype=dtype).__cuda_array_interface__["typestr"] == typestr
    assert tp.zeros((0, 3)).__cuda_array_interface__["data"][0] == 0


def test_export_computes_pending_work_on_the_exported_stream(cuda0):
    a = tp.asarray(np.arange(6.0))
    stream = tp.cuda.Stream(non_blocking=True)
    with stream:
        b = a * 2 + 1
        assert b._pending
        interface = b.__cuda_array_interface__
    assert not b._pending
    assert interface["stream"] == stream.ptr
    stream.synchronize()
    np.testing.assert_array_equal(tp.asarray(Foreign(interface, keep=b)).get(),
                                  np.arange(6.0) * 2 + 1)


@pytest.mark.parametrize("index", [(), (slice(None, None, -1),), (slice(1, None, 2), 1),
                                   (Ellipsis, slice(None, None, -2))])
def test_import_is_a_view_of_the_producers_memory(cuda0, index):
    host = np.arange(24, dtype=np.int32).reshape(4, 6)
    original = tp.asarray(host)
    source = original[index]
    shared = tp.asarray(foreign_view(source))
    assert shared.shape == host[index].shape and shared.dtype == np.int32
    assert shared.device == tp.Device("cuda:0")
    np.testing.assert_array_equal(shared.get(), host[index])
    original[...] = -original  # written through tessera, seen through the import
    np.testing.assert_array_equal(shared.get(), -host[index])
    if shared.size:
        shared[...] = 7  # and the other way
        np.testing.assert_array_equal(source.get(), np.full(host[index].shape, 7))


def test_import_keeps_the_producer_alive(cuda0):
    owner = foreign_view(tp.asarray(np.arange(5.0)))
    shared = tp.asarray(owner)
    assert shared.base is owner
    del owner
    np.testing.assert_array_equal((shared + 1).get(), np.arange(1.0, 6.0))


def test_import_honours_read_only_and_copy(cuda0):
    source = tp.asarray(np.arange(4.0))
    frozen = tp.asarray(foreign_view(source, data=(source.data_ptr, True)))
    assert not frozen.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        frozen[0] = 1.0
    copied = tp.asarray(foreign_view(source), copy=True)
    copied[0] = 9.0
    assert source.get()[0] == 0.0
    assert tp.asarray(foreign_view(source), copy=False).data_ptr == source.data_ptr
    cast = tp.asarray(foreign_view(source), dtype=np.float32)
    assert cast.dtype == np.float32
    np.testing.assert_array_equal(cast.get(), np.arange(4.0, dtype=np.float32))


def test_import_orders_the_current_stream_after_the_producers(cuda0):
    producer = tp.cuda.Stream(non_blocking=True)
    a = tp.asarray(np.arange(1000.0))
    with producer:
        b = a * 3
        interface = b.__cuda_array_interface__
    waits = _core._cuda.simulated_host_waits() if tp.cuda.runtime.is_simulated() else None
    shared = tp.asarray(Foreign(interface, keep=b))
    total = tp.sum(shared)
    if waits is not None:  # the import queued an event wait, nothing waited on the host
        assert _core._cuda.simulated_host_waits() == waits
    assert float(total) == 3 * 999 * 1000 / 2


def test_import_of_an_empty_array(cuda0):
    empty = tp.asarray(Foreign({"shape": (0, 4), "typestr": "<f4", "data": (0, False),
                                "version": 3, "strides": None}))
    assert empty.shape == (0, 4) and empty.dtype == np.float32
    assert str(empty.device).startswith("cuda")


def test_import_finds_the_device_of_the_memory():
    if not tp.cuda.is_available() or tp.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two CUDA devices")
    with tp.Device("cuda:1"):
        source = tp.asarray(np.arange(3.0))
        interface = source.__cuda_array_interface__
        here = tp.asarray(Foreign(interface, keep=source))
        assert here.device == tp.Device("cuda:1")
        assert here.data_ptr == source.data_ptr
    with tp.Device("cuda:0"):
        # As CuPy's asarray: an array of another device is moved to the current one.
        moved = tp.asarray(Foreign(interface, keep=source))
        assert moved.device == tp.Device("cuda:0")
        np.testing.assert_array_equal(moved.get(), np.arange(3.0))
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            tp.asarray(Foreign(interface, keep=source), copy=False)


def test_import_refuses_what_it_cannot_share(cuda0):
    source = tp.asarray(np.arange(4.0))
    host = np.arange(4.0)
    cases = [
        (dict(mask=object()), ValueError, "mask"),
        (dict(stream=0), ValueError, "stream 0"),
        (dict(version=4), ValueError, "version 4"),
        (dict(data=(host.ctypes.data, False)), ValueError, "not in the memory of any CUDA"),
        (dict(typestr=">f8"), TypeError, "asarray"),
        (dict(typestr="|O8"), TypeError, "asarray"),
        (dict(strides=(8, 8)), ValueError, "strides"),
        (dict(data=(source.data_ptr,)), ValueError, "'data'"),
    ]
    for changes, error, message in cases:
        with pytest.raises(error, match=message):
            tp.asarray(foreign_view(source, **changes))
    missing = dict(source.__cuda_array_interface__)
    del missing["shape"]
    with pytest.raises(ValueError, match="no 'shape' entry"):
        tp.asarray(Foreign(missing))
    with pytest.raises(TypeError, match="must be a dict"):
        tp.asarray(Foreign([1, 2]))


def test_cuda_jit_kernels_take_imported_and_exported_arrays(cuda0):
    @cuda.jit
    def double(x):
        i = cuda.grid(1)
        if i < x.size:
            x[i] *= 2

    source = tp.asarray(np.arange(8.0))
    double[1, 32](Foreign(source.__cuda_array_interface__, keep=source))
    imported = tp.asarray(foreign_view(source))
    double[1, 32](imported)
    np.testing.assert_array_equal(source.get(), np.arange(8.0) * 4)


# ---------------------------------------------------------------------------------------
# DLPack for CUDA arrays

class Producer:
    """Another library's DLPack producer: it hands out capsules of `array`'s memory, its work
    queued on its own `stream` (current while it exports, as in a library of its own)."""

    def __init__(self, array, device=None, stream=None):
        self.array, self.device, self.stream = array, device, stream
        self.asked = []

    def __dlpack__(self, **kwargs):
        self.asked.append(kwargs)
        if self.stream is None:
            return self.array.__dlpack__(**kwargs)
        with self.stream:
            return self.array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.device or self.array.__dlpack_device__()


def capsule_name(capsule):
    import ctypes
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype, get_name.argtypes = ctypes.c_char_p, [ctypes.py_object]
    return get_name(capsule).decode()


def test_dlpack_export_of_a_cuda_array(cuda0):
    a = tp.asarray(np.arange(6.0))
    assert a.__dlpack_device__() == (2, 0)
    assert capsule_name(a.__dlpack__()) == "dltensor"
    assert capsule_name(a.__dlpack__(max_version=(1, 0))) == "dltensor_versioned"
    assert capsule_name(a.__dlpack__(max_version=(0, 8))) == "dltensor"
    host = a.__dlpack__(dl_device=(1, 0), max_version=(1, 0))
    np.testing.assert_array_equal(np.from_dlpack(capsule_source(host, (1, 0))),
                                  np.arange(6.0))
    with pytest.raises(BufferError, match="copy=False"):
        a.__dlpack__(dl_device=(1, 0), copy=False)
    with pytest.raises(BufferError, match=r"\(2, 0\)"):
        a.__dlpack__(dl_device=(2, 5))
    with pytest.raises(ValueError, match="stream 0"):
        a.__dlpack__(stream=0)


def capsule_source(capsule, device):
    """A producer around an already made capsule of `device` (DLPack's (type, id))."""
    class Once:
        def __dlpack__(self, **kwargs):
            return capsule

        def __dlpack_device__(self):
            return device
    return Once()


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint64, np.float16, np.float32,
                                   np.complex64, np.complex128])
@pytest.mark.parametrize("index", [(), (slice(None, None, -1), slice(1, None, 2)), (1, 2),
                                   (slice(0, 0),)])
def test_dlpack_round_trip_shares_memory(cuda0, dtype, index):
    host = (np.arange(24).reshape(4, 6) % 5).astype(dtype)
    original = tp.asarray(host)
    source = original[index]
    producer = Producer(source)
    shared = tp.from_dlpack(producer)
    assert producer.asked[0]["max_version"] == (1, 0)
    assert shared.dtype == dtype and shared.shape == host[index].shape
    assert shared.device == tp.Device("cuda:0")
    np.testing.assert_array_equal(shared.get(), host[index])
    if source.size:  # an empty array has no memory to share
        assert shared.data_ptr == source.data_ptr
        assert shared.base is producer
        original[...] = 0
        np.testing.assert_array_equal(shared.get(), np.zeros_like(host[index]))


def test_dlpack_read_only_copy_and_device(cuda0):
    source = tp.asarray(np.arange(4.0))
    source.flags.writeable = False
    frozen = tp.from_dlpack(Producer(source))
    assert not frozen.flags.writeable
    source.flags.writeable = True
    copied = tp.from_dlpack(Producer(source), copy=True)
    assert copied.data_ptr != source.data_ptr
    np.testing.assert_array_equal(copied.get(), np.arange(4.0))
    on_host = tp.from_dlpack(Producer(source), device="cpu")
    assert on_host.device == tp.Device("cpu")
    np.testing.assert_array_equal(on_host.get(), np.arange(4.0))
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        tp.from_dlpack(Producer(source), device="cpu", copy=False)


def test_dlpack_orders_the_consumers_stream(cuda0):
    producer_stream = tp.cuda.Stream(non_blocking=True)
    a = tp.asarray(np.arange(1000.0))
    a.get()  # written before either stream starts
    with producer_stream:
        b = a * 3  # computed on the producer's stream (when the capsule is made)
    producer = Producer(b, stream=producer_stream)
    waits = _core._cuda.simulated_host_waits() if tp.cuda.runtime.is_simulated() else None
    consumer = tp.cuda.Stream(non_blocking=True)
    with consumer:
        shared = tp.from_dlpack(producer)
        total = tp.sum(shared)
        if waits is not None:  # ordered by an event: the host did not wait
            assert _core._cuda.simulated_host_waits() == waits
        assert float(total) == 3 * 999 * 1000 / 2
    assert producer.asked[0]["stream"] == consumer.ptr
    b.__dlpack__(stream=-1)  # the consumer orders nothing itself


def test_dlpack_refuses_devices_and_capsules_it_cannot_take(cuda0):
    source = tp.asarray(np.arange(3.0))
    with pytest.raises(BufferError, match="cuda:7"):
        tp.from_dlpack(Producer(source, device=(2, 7)))
    capsule = source.__dlpack__()
    tp.from_dlpack(capsule_source(capsule, (2, 0)))
    with pytest.raises(TypeError, match="already consumed"):
        tp.from_dlpack(capsule_source(capsule, (2, 0)))
