"""Moving data between tessera and the host, against the NumPy oracle: asnumpy/get,
numpy.asarray, DLPack, tolist/item, Python scalar conversions, len/iter, pickling,
copy/deepcopy and repr/str."""

import copy
import math
import pickle
import warnings

import numpy as np
import pytest

import tessera as tp
from conftest import ALL_DTYPES, assert_same, sample
from oracle import (
    DTYPE_IDS,
    DLPackOnly,
    assert_device_copy,
    assert_raises_like,
    assert_raises_type,
    host_shared,
    make_pair,
    numpy_result,
    shares,
)
from oracle import PAIR_LAYOUT_NAMES as LAYOUT_NAMES


# ----------------------------------------------------------------------------- helpers

def assert_same_pyobj(got, expected):
    """Python objects (as from tolist/item) equal, with equal types all the way down; NaN
    equals NaN, -0.0 differs from 0.0."""
    assert type(got) is type(expected), f"type {type(got).__name__} != {type(expected).__name__}"
    if isinstance(expected, list):
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert_same_pyobj(g, e)
    elif isinstance(expected, float):
        assert (math.isnan(got) and math.isnan(expected)) or (
            got == expected and math.copysign(1, got) == math.copysign(1, expected)), \
            f"{got!r} != {expected!r}"
    elif isinstance(expected, complex):
        assert_same_pyobj(got.real, expected.real)
        assert_same_pyobj(got.imag, expected.imag)
    else:
        assert got == expected, f"{got!r} != {expected!r}"


WRITABLE_LAYOUTS = [name for name in LAYOUT_NAMES if name != "broadcast"]


def special_values(dtype):
    """A 1-d NumPy array of the dtype's edge values: nan, inf, -0.0, extremes."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return np.array([True, False], dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return np.array([info.min, info.max, 0, 1], dtype)
    if dtype.kind == "f":
        info = np.finfo(dtype)
        return np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, info.tiny, info.max, -info.max,
                         info.eps, 1 / 3], dtype)
    parts = np.array([np.nan, np.inf, -0.0, 0.0, 1.5, -np.inf])
    out = np.empty((parts.size, parts.size), dtype)
    out.real = parts[:, None]
    out.imag = parts[None, ::-1]
    return out.ravel()


def assert_host_copy(out, t, n):
    """`out` (NumPy's view of `t` on a device that shares no memory with the host) is an
    independent, writeable copy, laid out as numpy.array lays out a copy of `n`."""
    __tracebackhide__ = True
    assert out.strides == np.array(n).strides, f"strides {out.strides} != {np.array(n).strides}"
    assert out.flags.writeable
    if out.size:
        assert not shares(out, t)
        before = tp.asnumpy(t)
        out[...] = sample(out.shape, out.dtype, seed=9)
        assert_same(t, before)


@pytest.mark.parametrize("how", ["asnumpy", "get"])
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_asnumpy_and_get_are_independent_copies(device, dtype, layout, how):
    t, n = make_pair(layout, dtype)
    before = n.copy()
    out = tp.asnumpy(t) if how == "asnumpy" else t.get()
    expected = np.array(n, order="C", copy=True)
    assert type(out) is np.ndarray
    assert out.dtype == expected.dtype and out.shape == expected.shape
    assert out.strides == expected.strides
    assert np.array_equal(out, expected, equal_nan=True)
    assert out.flags.writeable and out.flags.owndata
    if out.size:
        assert not shares(out, t)
        out[...] = sample(out.shape, dtype, seed=9)
        assert_same(t, before)


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("layout", ["c2d", "fortran", "negative", "permuted3d", "0d"])
@pytest.mark.parametrize("how", ["asnumpy", "get"])
def test_asnumpy_and_get_order(device, layout, order, how):
    t, n = make_pair(layout, np.float32)
    out = tp.asnumpy(t, order=order) if how == "asnumpy" else t.get(order=order)
    expected = np.array(n, order=order, copy=True)
    assert out.strides == expected.strides
    assert np.array_equal(out, expected)


@pytest.mark.parametrize("obj", [[1, 2, 3], 2.5, "numpy"], ids=repr)
def test_asnumpy_of_host_objects(device, obj):
    obj = np.arange(4.0) if obj == "numpy" else obj
    out = tp.asnumpy(obj)
    expected = np.asarray(obj)
    assert type(out) is np.ndarray
    assert out.dtype == expected.dtype
    assert np.array_equal(out, expected)


@pytest.mark.parametrize("layout", ["c2d", "negative", "0d", "broadcast"])
def test_get_into_out(device, dtype, layout):
    t, n = make_pair(layout, dtype)
    out = np.empty(n.shape, n.dtype)
    assert t.get(out=out) is out
    assert np.array_equal(out, n, equal_nan=True)
    out[...] = sample(n.shape, dtype, seed=4)
    assert_same(t, n)


# --------------------------------------------------------------------------- numpy.asarray

@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_numpy_asarray_is_zero_copy(device, dtype, layout):
    t, n = make_pair(layout, dtype)
    view = np.asarray(t)
    assert type(view) is np.ndarray
    assert view.dtype == n.dtype and view.shape == n.shape
    assert np.array_equal(view, n, equal_nan=True)
    if not host_shared(device):
        # A host copy, laid out as NumPy lays out a copy of the same array.
        assert_host_copy(view, t, n)
        return
    assert view.strides == t.strides
    assert view.flags.writeable == n.flags.writeable
    if view.flags.writeable and view.size:
        new = sample(n.shape, dtype, seed=1)
        view[...] = new
        assert_same(t, new)
        assert np.asarray(t).__array_interface__["data"][0] == view.__array_interface__["data"][0]


@pytest.mark.parametrize("layout", ["c2d", "negative", "0d", "strided"])
def test_numpy_asarray_of_read_only_array(device, dtype, layout):
    t, n = make_pair(layout, dtype)
    t.flags.writeable = False
    n.flags.writeable = False
    view = np.asarray(t)
    if not host_shared(device):
        assert_host_copy(view, t, n)
        return
    assert view.flags.writeable == np.asarray(n).flags.writeable
    with pytest.raises(ValueError):
        view[...] = 0
    assert_same(t, n)


def test_numpy_asarray_of_read_only_numpy_source(device, dtype):
    n = sample((3, 4), dtype)
    n.flags.writeable = False
    t = tp.asarray(n)
    if not host_shared(device):  # a device copy, writeable as a NumPy copy is
        assert t.flags.writeable and np.asarray(t).flags.writeable
        return
    assert not t.flags.writeable
    assert np.asarray(t).flags.writeable == np.asarray(n).flags.writeable


@pytest.mark.parametrize("target", ALL_DTYPES, ids=DTYPE_IDS)
def test_numpy_asarray_with_dtype(device, dtype, target):
    t, n = make_pair("negative", dtype)
    if dtype.kind in "fc" and np.dtype(target).kind == "u":
        t, n = make_pair("negative", np.uint8)
        t, n = t.astype(dtype), n.astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        out = np.asarray(t, dtype=target)
        expected = np.asarray(n, dtype=target)
    assert out.dtype == expected.dtype
    assert np.array_equal(out, expected, equal_nan=True)
    if target != dtype:
        assert not shares(out, t)


@pytest.mark.parametrize("copy_flag", [True, False, None])
@pytest.mark.parametrize("layout", ["c2d", "negative", "0d"])
def test_numpy_asarray_copy_keyword(device, dtype, layout, copy_flag):
    t, n = make_pair(layout, dtype)
    if copy_flag is False and not host_shared(device):
        assert_raises_type(ValueError, lambda: np.asarray(t, copy=False))
        return
    out = np.asarray(t, copy=copy_flag)
    expected = np.asarray(n, copy=copy_flag)
    assert np.array_equal(out, expected, equal_nan=True)
    assert shares(out, t) == (np.shares_memory(expected, n) and host_shared(device))


def test_numpy_asarray_copy_false_with_cast_raises(device):
    t, n = make_pair("c2d", np.float64)
    expected, error = numpy_result(lambda: np.asarray(n, dtype=np.float32, copy=False))
    assert error is not None
    with pytest.raises(type(error)):
        np.asarray(t, dtype=np.float32, copy=False)


@pytest.mark.parametrize("layout", ["c2d", "negative", "fortran", "0d"])
def test_numpy_array_copies(device, dtype, layout):
    t, n = make_pair(layout, dtype)
    out = np.array(t)
    expected = np.array(n)
    assert out.strides == expected.strides
    assert np.array_equal(out, expected, equal_nan=True)
    out[...] = sample(out.shape, dtype, seed=2)
    assert_same(t, n)


# ---------------------------------------------------------------------------------- DLPack

KDL_CUDA = 2  # DLPack's device type for CUDA memory


def test_dlpack_device(device):
    t, n = make_pair("c2d", np.float32)
    if host_shared(device):
        assert tuple(t.__dlpack_device__()) == tuple(n.__dlpack_device__())
    else:
        assert tuple(t.__dlpack_device__()) == (KDL_CUDA, device.id)


def assert_numpy_cannot_import(t, **kwargs):
    """NumPy imports host memory only: a CUDA array exports a capsule of its device memory
    (as CuPy's and PyTorch's do), which NumPy refuses with its RuntimeError."""
    __tracebackhide__ = True
    with pytest.raises(RuntimeError, match="Unsupported device in DLTensor"):
        np.from_dlpack(t, **kwargs)


@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_numpy_from_dlpack_of_tessera(device, dtype, layout):
    t, n = make_pair(layout, dtype)
    if not host_shared(device):
        assert_numpy_cannot_import(t)
        return
    out = np.from_dlpack(t)
    expected = np.from_dlpack(n)
    assert out.dtype == expected.dtype and out.shape == expected.shape
    assert np.array_equal(out, expected, equal_nan=True)
    assert out.flags.writeable == expected.flags.writeable
    if out.size:
        assert out.strides == t.strides
        assert shares(out, t)
    if out.flags.writeable and out.size:
        new = sample(n.shape, dtype, seed=1)
        out[...] = new
        assert_same(t, new)


@pytest.mark.parametrize("copy_flag", [True, False, None])
def test_numpy_from_dlpack_copy_keyword(device, dtype, copy_flag):
    t, n = make_pair("negative", dtype)
    if not host_shared(device):
        assert_numpy_cannot_import(t, copy=copy_flag)
        return
    out = np.from_dlpack(t, copy=copy_flag)
    expected = np.from_dlpack(n, copy=copy_flag)
    assert np.array_equal(out, expected, equal_nan=True)
    assert shares(out, t) == np.shares_memory(expected, n)


@pytest.mark.parametrize("layout", LAYOUT_NAMES)
@pytest.mark.parametrize("producer", ["numpy", "dlpack_only"])
def test_tessera_from_dlpack_of_numpy(device, dtype, layout, producer):
    _, n = make_pair(layout, dtype)
    src = n if producer == "numpy" else DLPackOnly(n)
    t = tp.from_dlpack(src)
    expected = np.from_dlpack(n if producer == "numpy" else DLPackOnly(n))
    assert_same(t, expected)
    assert t.device == device
    if not host_shared(device):
        assert_device_copy(t, n)
        return
    assert t.flags.writeable == expected.flags.writeable
    if n.size:
        assert t.strides == expected.strides
        assert shares(t, n) == np.shares_memory(expected, n)
    if n.flags.writeable and n.size:
        n[...] = sample(n.shape, dtype, seed=1)
        assert_same(t, n)


@pytest.mark.parametrize("copy_flag", [True, False, None])
def test_tessera_from_dlpack_copy_keyword(device, dtype, copy_flag):
    _, n = make_pair("strided", dtype)
    if copy_flag is False and not host_shared(device):
        assert_raises_type(ValueError, lambda: tp.from_dlpack(n, copy=False))
        return
    t = tp.from_dlpack(n, copy=copy_flag)
    expected = np.from_dlpack(n, copy=copy_flag)
    assert_same(t, expected)
    assert shares(t, n) == (np.shares_memory(expected, n) and host_shared(device))


@pytest.mark.parametrize("layout", ["c2d", "negative", "0d", "empty", "broadcast"])
def test_dlpack_round_trips(device, dtype, layout):
    t, n = make_pair(layout, dtype)
    if not host_shared(device):  # no way through NumPy; tessera's own copy has n's values
        assert_numpy_cannot_import(t)
        assert_numpy_cannot_import(tp.from_dlpack(n))
        assert_same(tp.from_dlpack(n), n)
        return
    back = tp.from_dlpack(np.from_dlpack(t))
    assert_same(back, n)
    if n.size:
        assert shares(back, t)
    there = np.from_dlpack(tp.from_dlpack(n))
    assert np.array_equal(there, n, equal_nan=True) and there.dtype == n.dtype
    if n.size:
        assert np.shares_memory(there, n)


def test_tessera_from_dlpack_of_tessera(device, dtype):
    t, n = make_pair("negative", dtype)
    out = tp.from_dlpack(t)
    assert_same(out, n)
    assert shares(out, t)
    copied = tp.from_dlpack(t, copy=True)
    assert_same(copied, n)
    assert not shares(copied, t)


def test_dlpack_of_read_only(device):
    t, n = make_pair("c2d", np.float64)
    t.flags.writeable = False
    n.flags.writeable = False
    expected, error = numpy_result(lambda: np.from_dlpack(n))
    if error is not None:
        with pytest.raises(type(error)):
            np.from_dlpack(t)
        return
    if not host_shared(device):
        assert_numpy_cannot_import(t)
        assert_device_copy(tp.from_dlpack(n), n)
        return
    out = np.from_dlpack(t)
    assert out.flags.writeable == expected.flags.writeable
    back = tp.from_dlpack(n)
    assert back.flags.writeable == expected.flags.writeable


@pytest.mark.parametrize("obj", [[1, 2], 3.0, "text"], ids=repr)
def test_from_dlpack_of_non_producer_raises(device, obj):
    assert_raises_like(lambda: np.from_dlpack(obj), lambda: tp.from_dlpack(obj))


# ------------------------------------------------------------------------------ tolist / item

@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_tolist(device, dtype, layout):
    t, n = make_pair(layout, dtype)
    assert_same_pyobj(t.tolist(), n.tolist())


def test_tolist_special_values(device, dtype):
    n = special_values(dtype)
    t = tp.asarray(n)
    assert_same_pyobj(t.tolist(), n.tolist())
    assert_same_pyobj(t[::-1].tolist(), n[::-1].tolist())


@pytest.mark.parametrize("shape", [(), (1,), (1, 1, 1)], ids=repr)
def test_item_without_arguments(device, dtype, shape):
    n = np.asarray(sample(shape, dtype, seed=2))
    t = tp.asarray(n)
    assert_same_pyobj(t.item(), n.item())
    b = np.broadcast_to(n, (1,) * (len(shape) + 1))
    assert_same_pyobj(tp.broadcast_to(t, b.shape).item(), b.item())


def test_item_special_values(device, dtype):
    n = special_values(dtype)
    t = tp.asarray(n)
    for i in range(n.size):
        assert_same_pyobj(t.item(i), n.item(i))
        assert_same_pyobj(t[i].item(), n[i].item())


# Valid for every layout below (shapes (3, 4) and (5, 3)).
ITEM_ARGS = [(5,), (-12,), ((1, 2),), ((0, -1),), (-3, -3), (np.uint8(2), np.int16(1))]


@pytest.mark.parametrize("args", ITEM_ARGS, ids=repr)
@pytest.mark.parametrize("layout", ["fortran", "negative", "broadcast"])
def test_item_with_arguments(device, dtype, layout, args):
    t, n = make_pair(layout, dtype)
    assert_same_pyobj(t.item(*args), n.item(*args))


@pytest.mark.parametrize("args", [(), (12,), (-13,), (1, 2, 3), ((3, 0),), ((0, 4),), (1.5,),
                                  ("0",), ((0, 1, 2),), (None,), (0, 1.0)], ids=repr)
@pytest.mark.parametrize("layout", ["c2d", "fortran"])
def test_item_errors(device, layout, args):
    t, n = make_pair(layout, np.float64)  # shape (3, 4): every argument list above is invalid
    assert_raises_like(lambda: n.item(*args), lambda: t.item(*args))


@pytest.mark.parametrize("layout", ["empty", "0d"])
@pytest.mark.parametrize("args", [(), (0,), (1,), ((0, 0),)], ids=repr)
def test_item_errors_small(device, layout, args):
    t, n = make_pair(layout, np.int32)
    expected, error = numpy_result(lambda: n.item(*args))
    if error is None:
        assert_same_pyobj(t.item(*args), expected)
    else:
        assert_raises_type(type(error), lambda: t.item(*args))


# ------------------------------------------------------------ float() / int() / bool() / complex()

CONVERSIONS = {"float": float, "int": int, "bool": bool, "complex": complex}


def check_conversion(convert, t, n):
    __tracebackhide__ = True
    expected, error = numpy_result(lambda: convert(n))
    if error is not None:
        assert_raises_type(type(error), lambda: convert(t))
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = convert(t)
    assert_same_pyobj(got, expected)


@pytest.mark.parametrize("conversion", list(CONVERSIONS))
def test_scalar_conversions_0d(device, dtype, conversion):
    for seed in range(3):
        n = np.asarray(sample((), dtype, seed=seed))
        check_conversion(CONVERSIONS[conversion], tp.asarray(n), n)


@pytest.mark.parametrize("conversion", list(CONVERSIONS))
def test_scalar_conversions_special_values(device, dtype, conversion):
    values = special_values(dtype)
    t = tp.asarray(values)
    for i in range(values.size):
        check_conversion(CONVERSIONS[conversion], t[i], values[i:i + 1].reshape(()))


@pytest.mark.parametrize("shape", [(1,), (1, 1), (2,), (0,), (2, 3)], ids=repr)
@pytest.mark.parametrize("conversion", list(CONVERSIONS))
def test_scalar_conversions_ndim_positive(device, dtype, conversion, shape):
    n = np.asarray(sample(shape, dtype, seed=3))
    expected, error = numpy_result(lambda: CONVERSIONS[conversion](n))
    if conversion != "bool":
        # NumPy 2.4 refuses to convert arrays with ndim > 0 to Python scalars.
        assert isinstance(error, TypeError)
    check_conversion(CONVERSIONS[conversion], tp.asarray(n), n)


@pytest.mark.parametrize("conversion", list(CONVERSIONS))
def test_scalar_conversions_of_views(device, conversion):
    t, n = make_pair("negative", np.float64)
    check_conversion(CONVERSIONS[conversion], t[1, 2], np.asarray(n[1, 2]))
    check_conversion(CONVERSIONS[conversion], t[1:2, 2:3], n[1:2, 2:3])


# ---------------------------------------------------------------------------- len / iteration

@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_len(device, dtype, layout):
    t, n = make_pair(layout, dtype)
    expected, error = numpy_result(lambda: len(n))
    if error is not None:
        assert_raises_type(type(error), lambda: len(t))
    else:
        assert len(t) == expected


@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_iteration_over_first_axis(device, dtype, layout):
    t, n = make_pair(layout, dtype)
    expected, error = numpy_result(lambda: iter(n))
    if error is not None:
        assert_raises_type(type(error), lambda: iter(t))
        assert_raises_type(type(error), lambda: list(t))
        return
    rows = list(t)
    expected_rows = list(n)
    assert len(rows) == len(expected_rows)
    for row, expected_row in zip(rows, expected_rows):
        assert_same(row, expected_row)
        assert row.device == device


@pytest.mark.parametrize("layout", ["c2d", "fortran", "negative", "permuted3d"])
def test_iteration_yields_views(device, layout):
    t, n = make_pair(layout, np.int32)
    for i, (row, expected_row) in enumerate(zip(t, n)):
        row[...] = i * 10
        expected_row[...] = i * 10
    assert_same(t, n)


def test_iteration_in_comprehension_and_unpacking(device, dtype):
    t, n = make_pair("c2d", dtype)
    a, b, c = t
    x, y, z = n
    for got, expected in ((a, x), (b, y), (c, z)):
        assert_same(got, expected)
    assert [r.tolist() for r in t] == [r.tolist() for r in n]


# ------------------------------------------------------------------------------------ pickle

@pytest.mark.parametrize("protocol", [2, pickle.HIGHEST_PROTOCOL])
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_pickle_round_trip(device, dtype, layout, protocol):
    t, n = make_pair(layout, dtype)
    loaded = pickle.loads(pickle.dumps(t, protocol=protocol))
    expected = pickle.loads(pickle.dumps(n, protocol=protocol))
    assert type(loaded) is tp.ndarray
    # Layout as NumPy's own round trip gives it (NumPy's unpickled zero-size arrays carry
    # arbitrary strides, so only non-empty layouts are compared).
    assert_same(loaded, expected, strides=n.size > 0)
    assert loaded.device == t.device == device
    assert loaded.flags.writeable and loaded.flags.owndata
    if n.size:
        assert not shares(loaded, t)


def test_pickle_special_values(device, dtype):
    n = special_values(dtype)
    loaded = pickle.loads(pickle.dumps(tp.asarray(n)))
    assert_same(loaded, n)
    assert tp.asnumpy(loaded).tobytes() == n.tobytes()


def test_pickle_inside_containers(device):
    t, n = make_pair("negative", np.complex64)
    payload = {"a": t, "b": [t, 3]}
    loaded = pickle.loads(pickle.dumps(payload))
    assert_same(loaded["a"], n)
    assert_same(loaded["b"][0], n)
    assert loaded["b"][1] == 3


def test_pickled_cuda_arrays_load_on_the_current_cuda_device():
    """As CuPy's: what matters on loading is where the loading process works (a Dask
    worker's device), not where the array was."""
    if not tp.cuda.is_available() or tp.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two CUDA devices (the simulator's in make test)")
    with tp.Device("cuda:1"):
        data = pickle.dumps(tp.arange(5.0))
        assert pickle.loads(data).device == tp.Device("cuda:1")
    with tp.Device("cuda:0"):
        loaded = pickle.loads(data)
        assert loaded.device == tp.Device("cuda:0")
        assert_same(loaded, np.arange(5.0))
    with tp.Device("cpu"):
        assert pickle.loads(data).device == tp.Device("cuda:0")
        assert pickle.loads(pickle.dumps(tp.arange(2))).device == tp.Device("cpu")


def test_pickle_device(device):
    assert pickle.loads(pickle.dumps(device)) == device


# ----------------------------------------------------------------------- copy.copy / deepcopy

@pytest.mark.parametrize("how", ["copy", "deepcopy"])
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_copy_module(device, some_dtype, layout, how):
    dtype = some_dtype
    t, n = make_pair(layout, dtype)
    func = copy.copy if how == "copy" else copy.deepcopy
    out = func(t)
    expected = func(n)
    assert type(out) is tp.ndarray
    assert out is not t
    assert_same(out, expected, strides=True)
    assert out.device == t.device
    assert out.flags.owndata and out.flags.writeable
    if n.size:
        assert not shares(out, t)
        out[...] = sample(n.shape, dtype, seed=6)
        assert_same(t, n)
        if t.flags.writeable:
            snapshot = tp.asnumpy(out)
            t[...] = sample(n.shape, dtype, seed=7)
            assert_same(out, snapshot)


def test_deepcopy_keeps_identity_within_containers(device):
    t, n = make_pair("c2d", np.float32)
    out = copy.deepcopy([t, t])
    expected = copy.deepcopy([n, n])
    assert (out[0] is out[1]) == (expected[0] is expected[1])
    assert_same(out[0], n)


# ------------------------------------------------------------------------------ repr / str

@pytest.mark.parametrize("text", [repr, str])
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_repr_str_layouts(device, dtype, layout, text):
    t, n = make_pair(layout, dtype)
    assert text(t) == text(n)


@pytest.mark.parametrize("text", [repr, str])
def test_repr_str_special_values(device, dtype, text):
    n = special_values(dtype)
    t = tp.asarray(n)
    assert text(t) == text(n)
    for i in range(n.size):
        assert text(t[i]) == text(n[i:i + 1].reshape(()))


@pytest.mark.parametrize("shape", [(2000,), (10, 20, 30), (3, 1001), (0,), (3, 0, 2), (1, 1),
                                   (2, 2, 2, 2)], ids=repr)
@pytest.mark.parametrize("text", [repr, str])
def test_repr_str_shapes(device, dtype, shape, text):
    n = np.asarray(sample(shape, dtype, seed=8))
    t = tp.asarray(n)
    assert text(t) == text(n)
    assert text(t[..., ::-1]) == text(n[..., ::-1])


@pytest.mark.parametrize("text", [repr, str])
def test_repr_str_summarized_with_specials(device, text):
    n = np.linspace(-1e6, 1e6, 3000)
    n[[0, 5, 1500, 2999]] = [np.nan, -0.0, np.inf, -np.inf]
    t = tp.asarray(n)
    assert text(t) == text(n)
    assert text(tp.array(n).reshape(30, 100)) == text(n.reshape(30, 100))


def test_repr_follows_print_options(device):
    n = np.asarray(sample((4, 5), np.float64))
    t = tp.asarray(n)
    with np.printoptions(precision=2, threshold=5, edgeitems=1):
        assert repr(t) == repr(n)
        assert str(t) == str(n)


# ------------------------------------------------ NumPy data is not moved to a device implicitly

_N = np.arange(1.0, 7.0).reshape(2, 3)
# (name, (function named in the error, call(m, t, n))): n is NumPy data (a NumPy array or a
# list) given with, or instead of, the tessera array t; m is numpy or tessera.
HOST_DATA_CALLS = {
    "where": ("where", lambda m, t, n: m.where(t > 2, t, n)),
    "matmul": ("matmul", lambda m, t, n: m.matmul(t, n.T)),
    "matmul_operator": ("matmul", lambda m, t, n: t @ n.T),
    "dot": ("dot", lambda m, t, n: m.dot(t, n[0])),
    "dot_method": ("dot", lambda m, t, n: t.dot(n[0])),
    "concatenate": ("concatenate", lambda m, t, n: m.concatenate([t, n])),
    "stack": ("stack", lambda m, t, n: m.stack([t, n])),
    "vstack_of_lists": ("vstack", lambda m, t, n: m.vstack([t, n.tolist()])),
    "isclose": ("isclose", lambda m, t, n: m.isclose(t, n)),
    "array_equal": ("array_equal", lambda m, t, n: m.array_equal(t, n)),
    "searchsorted": ("searchsorted", lambda m, t, n: m.searchsorted(t[0], n[0])),
    "polyval": ("polyval", lambda m, t, n: m.polyval(n[0], t)),
    "kron": ("kron", lambda m, t, n: m.kron(t, n)),
    "linalg_solve": ("solve", lambda m, t, n: m.linalg.solve(t[:, :2] + m.eye(2), n[:, 0])),
    "sum_of_numpy": ("sum", lambda m, t, n: m.sum(n, axis=0)),
    "sort_of_list": ("sort", lambda m, t, n: m.sort(n.tolist())),
    "fft_of_numpy": ("fft", lambda m, t, n: m.fft.fft(n)),
    "reshape_of_numpy": ("reshape", lambda m, t, n: m.reshape(n, 6)),
    "broadcast_arrays": ("broadcast_arrays", lambda m, t, n: m.broadcast_arrays(t, n[0])[1]),
    "digitize_bins": ("digitize", lambda m, t, n: m.digitize(t, n[0])),
    "random_permutation": ("permutation", lambda m, t, n: m.sort(m.random.permutation(n[0]))),
}


@pytest.mark.parametrize("name", list(HOST_DATA_CALLS))
def test_functions_take_numpy_data_on_host_devices_only(device, name):
    """On the CPU, NumPy data given to a function (beside a tessera array, or alone) is taken
    as NumPy takes it; on a CUDA device it is refused with TypeError ("not moved to cuda:0
    implicitly") naming the function called, as CuPy refuses it and docs/cuda.md says."""
    api, call = HOST_DATA_CALLS[name]
    t = tp.asarray(_N)
    if host_shared(device):
        got = call(tp, t, _N)
        expected = call(np, _N, _N)
        if isinstance(expected, (bool, np.bool_)):  # array_equal
            assert type(got) is bool and got == expected
            return
        assert isinstance(got, tp.ndarray)
        np.testing.assert_allclose(tp.asnumpy(got), expected, rtol=1e-12)
        return
    with pytest.raises(TypeError) as info:
        call(tp, t, _N)
    assert str(info.value).startswith(f"[{api}] Unsupported type "), str(info.value)
    assert f"NumPy data is not moved to {device} implicitly" in str(info.value)


# (name, call(m, t)): a host parameter (indices, counts, quantiles, bin edges, values to write)
# beside the tessera array t, taken from the host on every device as index arrays are.
HOST_PARAMETER_CALLS = {
    "take_indices": lambda m, t: m.take(t, [5, 0, 2]),
    "repeat_counts": lambda m, t: m.repeat(t[0], [1, 0, 2]),
    "roll_shifts": lambda m, t: m.roll(t, [1, -1], axis=[0, 1]),
    "resize_shape": lambda m, t: m.resize(t, [3, 3]),
    "quantile_q": lambda m, t: m.quantile(t, [0.25, 0.5]),
    "percentile_q": lambda m, t: m.percentile(t, np.array([10.0, 90.0])),
    "histogram_edges": lambda m, t: m.histogram(t, bins=[0.0, 2.5, 7.0])[0],
    "compress_condition": lambda m, t: m.compress([True, False, True], t, axis=1),
    "searchsorted_sorter": lambda m, t: m.searchsorted(t[0][::-1], t[1], sorter=[2, 1, 0]),
    "ix_": lambda m, t: t[m.ix_([1, 0], [2, 0])],
    "choose_index": lambda m, t: m.choose([[0, 1, 0], [1, 0, 1]], [t, -t]),
}


@pytest.mark.parametrize("name", list(HOST_PARAMETER_CALLS))
def test_host_parameters_taken_on_every_device(device, name):
    """Parameters that are host values by nature are taken from NumPy data and lists on every
    device, the result on the device of the data (docs/cuda.md)."""
    call = HOST_PARAMETER_CALLS[name]
    got = call(tp, tp.asarray(_N))
    assert isinstance(got, tp.ndarray) and got.device == device
    np.testing.assert_array_equal(tp.asnumpy(got), call(np, _N))


def test_values_written_and_random_parameters_from_the_host(device):
    """Values written into an array, choice's p and distribution parameters are host values."""
    t = tp.zeros(6)
    tp.put(t, [0, 5], np.array([1.5, 2.5]))
    tp.putmask(t, np.array([0, 1, 0, 0, 0, 0], bool), [7.0])
    np.testing.assert_array_equal(tp.asnumpy(t), [1.5, 7.0, 0, 0, 0, 2.5])
    drawn = tp.random.default_rng(5).choice(3, size=200, p=[0.0, 1.0, 0.0])
    assert drawn.device == device and set(tp.asnumpy(drawn).tolist()) == {1}
    scaled = tp.random.default_rng(5).normal([0.0, 100.0], np.array([0.0, 0.0]))
    assert scaled.device == device
    np.testing.assert_array_equal(tp.asnumpy(scaled), [0.0, 100.0])


def test_shape_of_numpy_data_is_read_on_the_host(device):
    """shape, ndim and size of NumPy data and lists: NumPy's answers, no copy, any device."""
    ragged_free = [[1, 2, 3], [4, 5, 6]]
    for x in (_N, ragged_free, np.float32(2.0), 3):
        assert tp.shape(x) == np.shape(x) and tp.ndim(x) == np.ndim(x)
        assert tp.size(x) == np.size(x)
    assert tp.size(_N, 1) == 3 and tp.size(tp.asarray(_N), 0) == 2
