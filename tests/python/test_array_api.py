"""The array API standard's names on tessera (issue 22): the namespace and its inspection API,
the functions NumPy spells differently (astype, concat, unstack, isdtype), finfo/iinfo with
Python-number fields, ndarray.to_device, and the keywords beyond NumPy's (sort/argsort
descending=, fftfreq dtype=). NumPy is the oracle wherever it has the function; the public
conformance suite runs in `make test` as well (tests/array_api/run)."""

import numpy as np
import pytest

import tessera as tp

from conftest import ALL_DTYPES, assert_same, sample

KINDS = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
         "complex floating", "numeric", ("bool", "complex floating"), np.float32,
         (np.int8, "real floating")]
API_DTYPES = [np.dtype(d) for d in ALL_DTYPES if np.dtype(d) != np.float16]


def test_namespace_is_the_tessera_module(device):
    a = tp.ones((2, 3))
    assert a.__array_namespace__() is tp
    for version in ("2021.12", "2022.12", "2023.12", "2024.12"):
        assert a.__array_namespace__(api_version=version) is tp
    assert tp.__array_api_version__ == "2024.12"
    with pytest.raises(ValueError, match=r"__array_namespace__.*'2019.01'"):
        a.__array_namespace__(api_version="2019.01")


def test_inspection_namespace(device):
    info = tp.__array_namespace_info__()
    assert info.capabilities() == {"boolean indexing": True, "data-dependent shapes": True,
                                   "max dimensions": 64}
    assert info.default_device() == device
    devices = info.devices()
    assert devices[0] == tp.Device("cpu")
    assert device in devices
    if tp.cuda.is_available():
        count = tp.cuda.runtime.getDeviceCount()
        assert devices[1:] == [tp.Device(f"cuda:{i}") for i in range(count)]
    assert info.default_dtypes(device=device) == {
        "real floating": np.float64, "complex floating": np.complex128,
        "integral": np.intp, "indexing": np.intp}
    every = info.dtypes()
    assert list(every.values()) == API_DTYPES
    assert all(every[name] == np.dtype(name) for name in every)
    for kind in KINDS:
        expected = [d for d in API_DTYPES if np.isdtype(d, kind)]
        assert list(info.dtypes(device=device, kind=kind).values()) == expected, kind
    with pytest.raises(ValueError, match="isdtype"):
        info.dtypes(kind="floating")
    with pytest.raises(TypeError, match="device"):
        info.dtypes(device="cpu")


def test_every_device_the_namespace_lists_holds_arrays():
    for dev in tp.__array_namespace_info__().devices():
        a = tp.arange(4, device=dev)
        assert a.device == dev
        assert_same(a, np.arange(4))


@pytest.mark.parametrize("kind", KINDS, ids=str)
def test_isdtype_as_numpy(kind):
    for dtype in ALL_DTYPES:
        assert tp.isdtype(np.dtype(dtype), kind) == np.isdtype(np.dtype(dtype), kind)


def test_isdtype_refuses_what_numpy_refuses():
    for dtype, kind, error in [(float, "real floating", TypeError),
                               (np.float64, "floating", ValueError),
                               (np.float64, 3, TypeError),
                               (tp.ones(2), "numeric", TypeError)]:
        with pytest.raises(error) as numpy_error:
            np.isdtype(dtype, kind)
        with pytest.raises(error, match=r"\[isdtype\]") as tessera_error:
            tp.isdtype(dtype, kind)
        assert str(numpy_error.value) in str(tessera_error.value)


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("to", [np.int8, np.uint16, np.float32, np.complex128, np.bool_])
def test_astype_function(device, some_dtype, to):
    x = sample((4, 5), some_dtype)
    t = tp.asarray(x)
    for tv, nv in [(t, x), (t[::-2, 1::2], x[::-2, 1::2]), (t[1, 2], x[1, 2]),
                   (t[:0], x[:0])]:
        assert_same(tp.astype(tv, to), nv.astype(to))
    same = tp.astype(t, some_dtype, copy=False)
    assert same is t
    copied = tp.astype(t, some_dtype)
    assert copied is not t
    assert_same(copied, x)


def test_astype_function_to_another_device(device):
    x = sample((3, 4), np.float32)
    t = tp.asarray(x)
    for dev in tp.__array_namespace_info__().devices():
        moved = tp.astype(t, np.float64, device=dev)
        assert moved.device == dev
        assert_same(moved, x.astype(np.float64))
    with pytest.raises(TypeError, match=r"\[astype\].*list"):
        tp.astype([1, 2], np.int8)


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_concat_as_concatenate(device, axis):
    x, y = sample((2, 3), np.int16), sample((2, 3), np.float32, seed=1)
    tx, ty = tp.asarray(x), tp.asarray(y)
    assert_same(tp.concat((tx, ty[:, ::-1]), axis=axis),
                np.concatenate((x, y[:, ::-1]), axis=axis))
    assert_same(tp.concat([tx], axis=axis), np.concatenate([x], axis=axis))
    with pytest.raises(ValueError, match="concat"):
        tp.concat((tx, tp.ones((3, 4))), axis=0)


@pytest.mark.parametrize("axis", [0, 1, 2, -1, -3])
def test_unstack(device, axis):
    x = sample((2, 3, 4), np.complex128)
    t = tp.asarray(x)
    parts = tp.unstack(t, axis=axis)
    expected = tuple(np.moveaxis(x, axis, 0))
    assert type(parts) is tuple and len(parts) == len(expected)
    for got, want in zip(parts, expected):
        assert_same(got, want)
    reversed_parts = tp.unstack(t[:, ::-1], axis=axis)
    for got, want in zip(reversed_parts, tuple(np.moveaxis(x[:, ::-1], axis, 0))):
        assert_same(got, want)
    assert tp.unstack(tp.ones((0, 2))) == ()


def test_unstack_refuses(device):
    with pytest.raises(ValueError, match=r"\[unstack\] a 0-d array"):
        tp.unstack(tp.asarray(1.0))
    with pytest.raises(np.exceptions.AxisError, match=r"\[unstack\].*axis 2"):
        tp.unstack(tp.ones((2, 3)), axis=2)
    with pytest.raises(TypeError, match=r"\[unstack\]"):
        tp.unstack(np.ones(3))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64,
                                   np.complex128])
def test_finfo_fields_are_python_numbers(device, dtype):
    expected = np.finfo(dtype)
    for arg in (dtype, np.dtype(dtype), tp.ones(2, dtype=dtype)):
        info = tp.finfo(arg)
        assert info.dtype == expected.dtype
        for name in ("eps", "epsneg", "max", "min", "resolution", "smallest_normal",
                     "smallest_subnormal", "tiny"):
            value = getattr(info, name)
            assert type(value) is float and value == float(getattr(expected, name)), name
        for name in ("bits", "precision", "nmant", "nexp", "maxexp", "minexp"):
            value = getattr(info, name)
            assert type(value) is int and value == getattr(expected, name), name
    with pytest.raises(ValueError, match=r"\[finfo\]"):
        tp.finfo(np.int32)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.uint64, np.int64])
def test_iinfo_fields_are_python_numbers(device, dtype):
    expected = np.iinfo(dtype)
    for arg in (dtype, np.dtype(dtype), tp.ones(2, dtype=dtype)):
        info = tp.iinfo(arg)
        assert info.dtype == expected.dtype
        assert (info.bits, info.min, info.max) == (expected.bits, expected.min, expected.max)
        assert all(type(v) is int for v in (info.bits, info.min, info.max))
    with pytest.raises(ValueError, match=r"\[iinfo\]"):
        tp.iinfo(np.float32)


def test_to_device(device):
    x = sample((3, 4), np.int32)
    t = tp.asarray(x)
    assert t.to_device(device) is t
    for dev in tp.__array_namespace_info__().devices():
        moved = t[:, ::-1].to_device(str(dev))
        assert moved.device == dev
        assert_same(moved, x[:, ::-1])
    if tp.cuda.is_available():
        stream = tp.cuda.Stream()
        moved = t.to_device(tp.Device("cuda:0") if device.kind == "cpu" else tp.Device("cpu"),
                            stream=stream)
        stream.synchronize()
        assert_same(moved, x)
    with pytest.raises(TypeError, match=r"\[to_device\].*int"):
        t.to_device(0)
    with pytest.raises(TypeError, match=r"\[to_device\] stream"):
        t.to_device("cpu", stream="fast")


def _stable_descending(row):
    # Python's sort keeps equal elements in order under reverse=True: an oracle independent
    # of how tessera computes the order.
    return sorted(range(len(row)), key=lambda i: row[i], reverse=True)


@pytest.mark.parametrize("axis", [0, 1, -1, None])
def test_argsort_descending_is_stable(device, axis):
    x = np.random.default_rng(3).integers(0, 4, size=(5, 7)).astype(np.int16)
    t = tp.asarray(x)
    got = tp.argsort(t, axis=axis, descending=True).get()
    if axis is None:
        expected = np.array(_stable_descending(x.ravel().tolist()))
    else:
        moved = np.moveaxis(x, axis, -1)
        expected = np.moveaxis(
            np.array([[*_stable_descending(r.tolist())] for r in moved.reshape(-1, moved.shape[-1])])
            .reshape(moved.shape), -1, axis)
    np.testing.assert_array_equal(got, expected)
    assert got.dtype == np.intp
    assert_same(tp.sort(t, axis=axis, descending=True),
                np.flip(np.sort(x, axis=axis), axis=-1 if axis is None else axis))
    assert_same(tp.argsort(t, axis=axis, descending=False), np.argsort(x, axis=axis,
                                                                       stable=True))


def test_sort_descending_special_values(device):
    x = np.array([1.0, np.nan, -np.inf, 0.0, np.inf, -1.0])
    assert_same(tp.sort(tp.asarray(x), descending=True), np.flip(np.sort(x)))
    assert_same(tp.argsort(tp.asarray(3.0), descending=True), np.argsort(np.asarray(3.0)))
    with pytest.raises(np.exceptions.AxisError, match="argsort"):
        tp.argsort(tp.ones((2, 2)), axis=2, descending=True)


@pytest.mark.parametrize("n,d", [(1, 1.0), (8, 0.1), (9, 2.5)])
@pytest.mark.parametrize("dtype", [None, np.float32, np.float64])
def test_fftfreq_dtype(device, n, d, dtype):
    for name in ("fftfreq", "rfftfreq"):
        got = getattr(tp.fft, name)(n, d, dtype=dtype)
        want = getattr(np.fft, name)(n, d).astype(dtype or np.float64)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got.get(), want, rtol=1e-6 if dtype == np.float32 else 0)
        with pytest.raises(ValueError, match=rf"\[{name}\] dtype must be a real floating"):
            getattr(tp.fft, name)(n, d, dtype=np.int32)
