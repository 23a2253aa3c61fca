"""Dask on tessera arrays, with Dask used as it is: tessera arrays as chunks of Dask arrays.

``dask.config.set({"array.backend": "tessera"})`` makes ``da.ones``, ``da.zeros``,
``da.empty``, ``da.full``, ``da.arange`` and ``da.random`` build tessera chunks (on the
current tessera device), and ``x.to_backend("tessera")`` moves a Dask array's chunks to
tessera. Dask finds this module through the ``dask.array.backends`` entry point of
tessera's package. Importing it (which ``import tessera`` does when Dask's arrays are
already imported) registers tessera's functions with Dask's per-type dispatch
(concatenate, take, tensordot, einsum, empty, divide, percentile, numel, nannumel,
to_numpy), which Dask otherwise answers with NumPy's.
"""

import functools

import numpy as np

import dask.array as da
from dask import config
from dask.array.backends import ArrayBackendEntrypoint
from dask.array.chunk_types import register_chunk_type
from dask.array.dispatch import (
    concatenate_lookup,
    divide_lookup,
    einsum_lookup,
    empty_lookup,
    nannumel_lookup,
    numel_lookup,
    percentile_lookup,
    take_lookup,
    tensordot_lookup,
    to_numpy_dispatch,
)
from dask.utils import Dispatch

import tessera as tp
from tessera._ndarray import _loading_device

__all__ = ["TesseraBackendEntrypoint", "cuda_cluster", "register", "to_tessera_dispatch"]

# What to_backend("tessera") calls on each chunk of another backend.
to_tessera_dispatch = Dispatch("to_tessera_dispatch")


def _numel(x, **kwargs):
    """Dask's count of elements, as an array of x's device (Dask's own builds a NumPy one,
    which a CUDA chunk cannot be combined with)."""
    axis, keepdims = kwargs.get("axis"), kwargs.get("keepdims", False)
    dtype = kwargs.get("dtype", np.float64)
    if axis is None:
        count = int(np.prod(x.shape, dtype=np.int64))
        shape = (1,) * x.ndim if keepdims else ()
    else:
        axes = (axis,) if isinstance(axis, int) else tuple(axis)
        axes = tuple(a % x.ndim for a in axes)
        count = int(np.prod([x.shape[a] for a in axes], dtype=np.int64))
        shape = tuple(1 if a in axes else n for a, n in enumerate(x.shape) if keepdims or
                      a not in axes)
    return tp.full(shape, count, dtype=dtype, device=x.device)


def _nannumel(x, **kwargs):
    return tp.sum(~tp.isnan(x), **kwargs)


def _percentile(a, q, method="linear"):
    """Dask's chunk percentile: the values at q, and the chunk's length."""
    n = len(a)
    if not n:
        return None, n
    return tp.percentile(a, tp.asarray(q, device=a.device), method=method), n


_registered = False


def register():
    """Registers tessera.ndarray with Dask: a chunk type, and tessera's functions for Dask's
    per-type dispatch. Idempotent; importing this module calls it."""
    global _registered
    if _registered:
        return
    register_chunk_type(tp.ndarray)
    concatenate_lookup.register(tp.ndarray, tp.concatenate)
    take_lookup.register(tp.ndarray, tp.take)
    tensordot_lookup.register(tp.ndarray, tp.tensordot)
    einsum_lookup.register(tp.ndarray, tp.einsum)
    empty_lookup.register(tp.ndarray, tp.empty)
    divide_lookup.register(tp.ndarray, tp.divide)
    percentile_lookup.register(tp.ndarray, _percentile)
    numel_lookup.register(tp.ndarray, _numel)
    nannumel_lookup.register(tp.ndarray, _nannumel)
    to_numpy_dispatch.register(tp.ndarray, tp.asnumpy)
    to_tessera_dispatch.register((object, np.ndarray), tp.asarray)
    to_tessera_dispatch.register(tp.ndarray, lambda data, **kwargs: data)
    _register_serialization()
    _registered = True


def _register_serialization():
    """distributed's serializers for tessera arrays: "dask" sends the bytes as host frames
    (a contiguous CPU array's own memory, no copy); "cuda" sends a CUDA array's memory as a
    device frame (what distributed's UCX transport moves between devices). Arrays load as
    they unpickle: a CPU array on the CPU, a CUDA array on the current CUDA device."""
    try:
        from distributed.protocol import (cuda_deserialize, cuda_serialize, dask_deserialize,
                                          dask_serialize)
    except ImportError:
        return

    def header_of(x):
        return {"typestr": x.dtype.str, "shape": x.shape, "device": x.device.kind}

    def bytes_of(x):
        """x's elements in C order, as a flat uint8 array of x's device."""
        flat = tp.ascontiguousarray(x).reshape(-1)
        return flat.view(np.uint8) if flat.size else tp.empty(0, dtype=np.uint8,
                                                               device=x.device)

    def loaded(flat_bytes, header):
        dtype = np.dtype(header["typestr"])
        out = flat_bytes.view(dtype) if flat_bytes.size else tp.empty(0, dtype=dtype,
                                                                      device=flat_bytes.device)
        return out.reshape(header["shape"])

    @dask_serialize.register(tp.ndarray)
    def _host_frames(x):
        flat = bytes_of(x)
        host = np.asarray(flat) if x.device.kind == "cpu" else tp.asnumpy(flat)
        return header_of(x), [memoryview(host)]

    @dask_deserialize.register(tp.ndarray)
    def _from_host_frames(header, frames):
        host = np.frombuffer(frames[0], dtype=np.uint8)
        return loaded(tp.array(host, device=_loading_device(header["device"])), header)

    @cuda_serialize.register(tp.ndarray)
    def _device_frames(x):
        if x.device.kind == "cpu":
            raise TypeError("[tessera.dask] the cuda serializer takes CUDA arrays; this one "
                            "is on the CPU")
        return header_of(x), [bytes_of(x)]

    @cuda_deserialize.register(tp.ndarray)
    def _from_device_frames(header, frames):
        # A frame exposes __cuda_array_interface__ (tessera's, or the transport's buffer,
        # which the array then views: no device copy).
        return loaded(tp.asarray(frames[0], dtype=np.uint8), header)


def _meta():
    """An empty tessera array of the current device: what marks a Dask array's chunks as
    tessera's."""
    return tp.empty((0,))


def _with_tessera_meta(name, *args, meta=None, **kwargs):
    with config.set({"array.backend": "numpy"}):
        return getattr(da, name)(*args, meta=_meta() if meta is None else meta, **kwargs)


class TesseraBackendEntrypoint(ArrayBackendEntrypoint):
    """Dask's array backend "tessera" (``dask.config.set({"array.backend": "tessera"})``)."""

    def __init__(self):
        register()

    @classmethod
    def to_backend_dispatch(cls):
        return to_tessera_dispatch

    @classmethod
    def to_backend(cls, data, **kwargs):
        if isinstance(data._meta, tp.ndarray):
            return data
        return data.map_blocks(cls.to_backend_dispatch(), meta=_meta(), **kwargs)

    @property
    def RandomState(self):  # noqa: N802 - Dask's name
        return tp.random.RandomState

    @property
    def default_bit_generator(self):
        """Dask's Generator API (da.random.default_rng) spawns one per chunk."""
        return tp.random.Philox

    ones = staticmethod(functools.partial(_with_tessera_meta, "ones"))
    zeros = staticmethod(functools.partial(_with_tessera_meta, "zeros"))
    empty = staticmethod(functools.partial(_with_tessera_meta, "empty"))
    full = staticmethod(functools.partial(_with_tessera_meta, "full"))

    @staticmethod
    def arange(*args, like=None, **kwargs):
        with config.set({"array.backend": "numpy"}):
            return da.arange(*args, like=_meta() if like is None else like, **kwargs)


def cuda_cluster(devices=None, threads_per_worker=1, **kwargs):
    """A ``distributed`` cluster on this machine with one worker process per CUDA device,
    each worker's default tessera device its own (TESSERA_DEVICE=cuda:N in its process), so
    the chunks a worker computes live on its device. `devices`: the device indices (all by
    default); other keywords go to ``distributed.SpecCluster``.

    >>> from distributed import Client
    >>> with cuda_cluster() as cluster, Client(cluster) as client:
    ...     ...
    """
    from distributed import Nanny, Scheduler, SpecCluster

    if devices is None:
        if not tp.cuda.is_available():
            raise RuntimeError("[cuda_cluster] no CUDA device (and no simulator) is available")
        devices = range(tp.cuda.runtime.getDeviceCount())
    workers = {
        f"cuda-{index}": {"cls": Nanny, "options": {
            "nthreads": threads_per_worker,
            "env": {"TESSERA_DEVICE": f"cuda:{index}"},
            "preload": ["tessera.dask"],  # tessera's dispatch before the first task
        }}
        for index in devices
    }
    if not workers:
        raise ValueError("[cuda_cluster] no device given")
    scheduler = {"cls": Scheduler, "options": {"dashboard_address": None}}
    return SpecCluster(workers=workers, scheduler=scheduler, **kwargs)


register()
