"""Dask with tessera chunks (issue 22): Dask used as it is, tessera arrays as its chunks. The
backend entry point ("array.backend": "tessera"), chunk-type and dispatch registration
(meta arrays keep their type through Dask's operations), to_backend both ways, sizeof and
tokenize without touching the data. NumPy is the oracle for the values; Dask's own tests of
CuPy chunks show what must hold. On the CUDA device the chunks live there."""

import numpy as np
import pytest

import tessera as tp

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
import tessera.dask  # noqa: E402,F401  (registers tessera with Dask)

HOST = np.arange(48.0).reshape(12, 4) * 0.25 - 3


def is_tessera(x, device):
    return isinstance(x, tp.ndarray) and x.device == device


def assert_tessera_dask(x, device):
    assert isinstance(x._meta, tp.ndarray), type(x._meta)
    out = x.compute()
    assert is_tessera(out, device), type(out)
    return out


def close(got, expected, rtol=1e-12):
    np.testing.assert_allclose(tp.asnumpy(got), expected, rtol=rtol, atol=1e-12)


@pytest.mark.parametrize("name,args", [("ones", ((6, 4),)), ("zeros", ((6, 4),)),
                                       ("empty", ((6, 4),)), ("full", ((6, 4), 2.5)),
                                       ("arange", (10,))])
def test_backend_creates_tessera_chunks(device, name, args):
    with dask.config.set({"array.backend": "tessera"}):
        x = getattr(da, name)(*args, chunks=3)
    out = assert_tessera_dask(x, device)
    expected = getattr(np, name)(*args)
    assert out.shape == expected.shape and out.dtype == expected.dtype
    if name != "empty":
        close(out, expected)


def test_from_array_keeps_tessera_chunks_through_operations(device):
    t = tp.asarray(HOST)
    x = da.from_array(t, chunks=(5, 2))
    assert isinstance(x._meta, tp.ndarray)
    cases = {
        "elementwise": (lambda m: m.sin(HOST_OR(x, m)) * 2 + 1),
        "sum0": (lambda m: HOST_OR(x, m).sum(axis=0)),
        "mean": (lambda m: HOST_OR(x, m).mean()),
        "std1": (lambda m: HOST_OR(x, m).std(axis=1)),
        "max": (lambda m: HOST_OR(x, m).max(axis=1)),
        "argmax": (lambda m: HOST_OR(x, m).argmax(axis=0)),
        "cumsum": (lambda m: HOST_OR(x, m).cumsum(axis=0)),
        "transpose_matmul": (lambda m: HOST_OR(x, m).T @ HOST_OR(x, m)),
        "slice": (lambda m: HOST_OR(x, m)[::2, 1:]),
        "fancy": (lambda m: HOST_OR(x, m)[[1, 7, 3]]),
        "concatenate": (lambda m: m.concatenate([HOST_OR(x, m), HOST_OR(x, m)[:3]])),
        "einsum": (lambda m: m.einsum("ij,ij->j", HOST_OR(x, m), HOST_OR(x, m))),
        "where": (lambda m: m.where(HOST_OR(x, m) > 0, HOST_OR(x, m), 0)),
        "nanmean": (lambda m: m.nanmean(HOST_OR(x, m), axis=0)),
    }
    for name, case in cases.items():
        got = case(da)
        assert isinstance(got._meta, tp.ndarray), name
        out = got.compute()
        assert is_tessera(out, device), name
        close(out, case(np), rtol=1e-10)


def HOST_OR(x, module):  # noqa: N802 - reads as a marker in the cases above
    """The Dask array for Dask's module, its NumPy twin for NumPy's."""
    return HOST if module is np else x


def test_reductions_count_on_the_chunks_device(device):
    x = da.from_array(tp.asarray(HOST), chunks=(5, 3))
    for got, expected in [(x.mean(axis=0, keepdims=True), HOST.mean(axis=0, keepdims=True)),
                          (x.var(), HOST.var()), (da.nanstd(x, axis=1), np.nanstd(HOST, 1))]:
        out = assert_tessera_dask(got, device)
        close(out, expected, rtol=1e-10)


def test_percentile_of_tessera_chunks(device):
    # Dask merges the chunks' percentiles (an approximation): the oracle is the same program
    # on NumPy chunks.
    x = da.from_array(tp.asarray(HOST.ravel()), chunks=10)
    out = assert_tessera_dask(da.percentile(x, [10, 50, 90]), device)
    expected = da.percentile(da.from_array(HOST.ravel(), chunks=10), [10, 50, 90]).compute()
    close(out, expected, rtol=1e-10)


def test_tall_skinny_svd(device):
    rng = np.random.default_rng(0)
    host = rng.standard_normal((200, 6))
    x = da.from_array(tp.asarray(host), chunks=(50, 6))
    u, s, v = da.linalg.svd(x)
    s_out = assert_tessera_dask(s, device)
    close(s_out, np.linalg.svd(host, compute_uv=False), rtol=1e-10)
    rebuilt = (u * s) @ v
    close(assert_tessera_dask(rebuilt, device), host, rtol=1e-9)


def test_to_backend_both_ways(device):
    x = da.ones((6, 4), chunks=3)
    assert isinstance(x._meta, np.ndarray)
    t = x.to_backend("tessera")
    out = assert_tessera_dask(t, device)
    close(out, np.ones((6, 4)))
    back = t.to_backend("numpy")
    assert isinstance(back._meta, np.ndarray)
    assert isinstance(back.compute(), np.ndarray)
    np.testing.assert_array_equal(back.compute(), np.ones((6, 4)))


def test_sizeof_and_tokenize_without_a_host_copy(device):
    from dask.base import tokenize
    from dask.sizeof import sizeof
    t = tp.ones((100, 3))
    simulated = tp.cuda.is_available() and tp.cuda.runtime.is_simulated()
    waits = tp._core._cuda.simulated_host_waits() if simulated else None
    assert sizeof(t) == 2400
    assert tokenize(t) == tokenize(t)
    assert tokenize(t) != tokenize(t[1:])
    assert tokenize(t) != tokenize(t.astype(np.float32))
    if device.kind == "cpu":  # the contents' token, as for NumPy arrays
        assert tokenize(t) == tokenize(tp.ones((100, 3)))
        assert tokenize(t) != tokenize(tp.zeros((100, 3)))
    else:  # the identity's: nothing crossed to the host
        assert tokenize(t) != tokenize(tp.ones((100, 3)))
        if waits is not None:
            assert tp._core._cuda.simulated_host_waits() == waits


def test_random_state_backend(device):
    with dask.config.set({"array.backend": "tessera"}):
        rs = da.random.RandomState(42)
        x = rs.standard_normal((100, 4), chunks=(25, 4))
    out = assert_tessera_dask(x, device)
    assert out.shape == (100, 4)
    assert abs(float(tp.mean(out))) < 0.5


def test_generator_backend(device):
    """da.random.default_rng with tessera's Philox: a child bit generator per chunk (spawned
    from its SeedSequence), the same numbers for the same seed, different chunks."""
    with dask.config.set({"array.backend": "tessera"}):
        draws = [da.random.default_rng(7).standard_normal((100, 4), chunks=(25, 4))
                 for _ in range(2)]
    first = assert_tessera_dask(draws[0], device)
    np.testing.assert_array_equal(tp.asnumpy(first), tp.asnumpy(draws[1].compute()))
    host = tp.asnumpy(first)
    assert not np.array_equal(host[:25], host[25:50])
    assert abs(host.mean()) < 0.3 and 0.7 < host.std() < 1.3


def test_one_worker_per_cuda_device():
    """tessera.dask.cuda_cluster: a worker process per device, each computing on its own."""
    if not tp.cuda.is_available() or tp.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two CUDA devices (the simulator's in make test)")
    distributed = pytest.importorskip("distributed")

    def where_chunks_go():
        import tessera
        return str(tessera.get_device()), str(tessera.ones(3).device)

    with tessera.dask.cuda_cluster() as cluster, distributed.Client(cluster) as client:
        seen = client.run(where_chunks_go)
        assert sorted(seen.values()) == [("cuda:0", "cuda:0"), ("cuda:1", "cuda:1")]
        x = da.from_array(tp.asarray(HOST), chunks=(3, 4))
        close(x.sum(axis=0).compute(), HOST.sum(axis=0), rtol=1e-12)


def test_a_graph_mixing_devices_is_refused():
    """Chunks on two devices meet when the result is assembled: a clear error, no implicit
    copy. (Chunks that Dask takes from an array of another device, with da.from_array, move
    to the current device, as tessera.asarray and CuPy's asarray move them.)"""
    if not tp.cuda.is_available() or tp.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two CUDA devices (the simulator's in make test)")

    def on_alternate_devices(block, block_id=None):
        return tp.asarray(block, device=f"cuda:{block_id[0] % 2}")

    with tp.Device("cuda:0"):
        x = da.from_array(tp.ones(4), chunks=2).map_blocks(on_alternate_devices,
                                                           meta=tp.empty((0,)))
        with pytest.raises(ValueError, match=r"\[concatenate\] arrays are on different "
                                             r"devices"):
            x.compute()
        moved = da.from_array(tp.ones(4, device="cuda:1"), chunks=2).compute()
        assert moved.device == tp.Device("cuda:0")


@pytest.mark.parametrize("layout", ["c", "f", "reversed", "0d", "empty"])
def test_distributed_serialization(device, layout):
    """distributed's "dask" serializer sends host frames, its "cuda" serializer device frames
    (a CUDA array's memory, as UCX moves it); both load equal arrays, writable, on the CPU
    for CPU arrays and on the current CUDA device for CUDA arrays."""
    protocol = pytest.importorskip("distributed.protocol")
    host = {"c": HOST, "f": np.asfortranarray(HOST), "reversed": HOST[::-1, ::2],
            "0d": np.asarray(2.5), "empty": HOST[:0]}[layout].astype(np.float32)
    t = tp.asarray(host)
    kinds = [("dask",)] + ([("cuda",)] if device.kind == "cuda" else [])
    for serializers in kinds:
        header, frames = protocol.serialize(t, serializers=serializers)
        assert header["serializer"] == serializers[0]
        if serializers == ("cuda",):
            assert all(hasattr(f, "__cuda_array_interface__") for f in frames)
        back = protocol.deserialize(header, frames)
        assert is_tessera(back, device) and back.dtype == np.float32
        np.testing.assert_array_equal(tp.asnumpy(back), host)
        assert back.flags.writeable
    if device.kind == "cpu":
        with pytest.raises(TypeError):
            protocol.serialize(t, serializers=("cuda",), on_error="raise")
