"""Window functions, sinc, i0, unwrap, logspace and geomspace against the NumPy oracle:
values (within a tight tolerance where the math is transcendental), dtypes, shapes, the
device of the result, and NumPy's exception types for bad input."""

import warnings

import numpy as np
import pytest

import tessera as tp
from oracle import assert_raises_like, numpy_result

# Relative tolerances of transcendental results, by dtype (a few units in the last place).
RTOL = {np.dtype(np.float16): 2e-3, np.dtype(np.float32): 2e-6,
        np.dtype(np.float64): 1e-14, np.dtype(np.complex64): 2e-6,
        np.dtype(np.complex128): 1e-14}


def check(t, n, *, rtol=None, atol=0.0):
    """`t` (tessera) is NumPy's `n`: type, dtype, shape, device, values within rtol/atol
    (nan matches nan, infinities match exactly)."""
    __tracebackhide__ = True
    n = np.asarray(n)
    assert isinstance(t, tp.ndarray), f"expected tessera.ndarray, got {type(t).__name__}"
    assert t.dtype == n.dtype, f"dtype {t.dtype} != {n.dtype}"
    assert t.shape == n.shape, f"shape {t.shape} != {n.shape}"
    assert t.device == tp.get_device(), f"result on {t.device}, not {tp.get_device()}"
    got = tp.asnumpy(t)
    if n.dtype.kind in "fc":
        rtol = RTOL[n.dtype] if rtol is None else rtol
        np.testing.assert_allclose(got, n, rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, n)


def quiet(call):
    """call() with floating-point warnings silenced (NumPy's and tessera's alike)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        out = call()
        if isinstance(out, tp.ndarray):
            tp.asnumpy(out)  # evaluate pending work while warnings are silenced
        return out


# ----------------------------------------------------------------------------- windows

WINDOWS = ["bartlett", "blackman", "hamming", "hanning"]
INT_M = [-1, 0, 1, 2, 3, 5, 16]
FLOAT_M = [2.5, 5.5, 1.0, 0.5, -0.0, np.float32(4.0), np.int8(3), True, np.float64(7)]


@pytest.mark.parametrize("M", INT_M + FLOAT_M, ids=repr)
@pytest.mark.parametrize("name", WINDOWS)
def test_windows(device, name, M):
    t = getattr(tp, name)(M)
    n = getattr(np, name)(M)
    check(t, n, rtol=1e-14, atol=1e-15)


@pytest.mark.parametrize("beta", [0, 3.0, 8.6, 14, 100.0])
@pytest.mark.parametrize("M", INT_M + FLOAT_M, ids=repr)
def test_kaiser(device, M, beta):
    n = quiet(lambda: np.kaiser(M, beta))
    t = quiet(lambda: tp.kaiser(M, beta))
    check(t, n, rtol=1e-14, atol=1e-15)


@pytest.mark.parametrize("name", WINDOWS + ["kaiser"])
def test_windows_device_keyword(name):
    args = (5, 2.0) if name == "kaiser" else (5,)
    for M in (5, 1, 0):
        args = (M,) + args[1:]
        t = getattr(tp, name)(*args, device="cpu")
        assert t.device == tp.Device("cpu")
        np.testing.assert_allclose(tp.asnumpy(t), getattr(np, name)(*args), rtol=1e-14,
                                   atol=1e-15)
    if tp.cuda.is_available():
        args = (6,) + args[1:]
        t = getattr(tp, name)(*args, device="cuda")
        assert t.device.kind == "cuda"
        np.testing.assert_allclose(tp.asnumpy(t), getattr(np, name)(*args), rtol=1e-14,
                                   atol=1e-15)


@pytest.mark.parametrize("M", [None, "5", [3], [3, 4], np.nan, np.inf, -np.inf], ids=repr)
@pytest.mark.parametrize("name", WINDOWS + ["kaiser"])
def test_windows_odd_M(device, name, M):
    # NumPy's exception type, or (M = -inf) NumPy's result.
    args = (M, 3.0) if name == "kaiser" else (M,)
    check_call(name, args, {}, rtol=1e-14)


@pytest.mark.parametrize("beta", [1j, 2 + 0j])
def test_kaiser_complex_beta(device, beta):
    assert_raises_like(lambda: np.kaiser(5, beta), lambda: tp.kaiser(5, beta))
    check(tp.kaiser(1, beta), np.kaiser(1, beta))


# ----------------------------------------------------------------------------- sinc, i0

SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, 7.9, 8.0, 8.1, 30.0, 700.0, 800.0,
           np.inf, -np.inf, np.nan, 1e-300, 1e-8, -1e-8]


def inputs(dtype):
    """NumPy test inputs of `dtype`: special values, and a sample of ordinary ones."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return np.array([True, False, True])
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return np.arange(max(info.min, -20), min(info.max, 20), 3).astype(dtype)
    rng = np.random.default_rng(1)
    values = np.concatenate([np.array(SPECIAL), rng.standard_normal(40) * 6])
    if dtype.kind == "c":
        values = values + 1j * np.resize(np.array(SPECIAL[:10]), values.size)
    with np.errstate(over="ignore"):
        return values.astype(dtype)


FUNC_DTYPES = [np.bool_, np.int8, np.uint8, np.int32, np.int64, np.float16, np.float32,
               np.float64]


@pytest.mark.parametrize("dtype", FUNC_DTYPES + [np.complex64, np.complex128],
                         ids=lambda d: np.dtype(d).name)
def test_sinc(device, dtype):
    x = inputs(dtype)
    n = quiet(lambda: np.sinc(x))
    t = quiet(lambda: tp.sinc(tp.asarray(x)))
    check(t, n, atol=RTOL[np.asarray(n).dtype])


@pytest.mark.parametrize("dtype", FUNC_DTYPES, ids=lambda d: np.dtype(d).name)
def test_i0(device, dtype):
    x = inputs(dtype)
    n = quiet(lambda: np.i0(x))
    t = quiet(lambda: tp.i0(tp.asarray(x)))
    check(t, n)


@pytest.mark.parametrize("name", ["sinc", "i0"])
@pytest.mark.parametrize("value", [0.0, -0.0, 1.5, -9.0, 0, 3, np.inf, np.nan, True],
                         ids=repr)
def test_scalar_input(device, name, value):
    n = quiet(lambda: getattr(np, name)(value))
    t = quiet(lambda: getattr(tp, name)(value))
    check(t, n)
    t = quiet(lambda: getattr(tp, name)(tp.asarray(np.asarray(value))))
    check(t, n)


@pytest.mark.parametrize("name", ["sinc", "i0"])
@pytest.mark.parametrize("shape", [(0,), (3, 0), (2, 3, 4)], ids=str)
def test_shapes_and_strides(device, name, shape):
    x = (np.random.default_rng(2).standard_normal(shape) * 10)
    check(getattr(tp, name)(tp.asarray(x)), getattr(np, name)(x))
    if x.ndim:
        rev = x[..., ::-1]
        check(getattr(tp, name)(tp.asarray(x)[..., ::-1]), getattr(np, name)(rev))
    if x.ndim == 3:
        sub = x[::-2, :, 1::2]
        check(getattr(tp, name)(tp.asarray(x)[::-2, :, 1::2]), getattr(np, name)(sub))


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=lambda d: np.dtype(d).name)
def test_i0_complex(device, dtype):
    x = np.array([1 + 1j, 0], dtype)
    assert_raises_like(lambda: np.i0(x), lambda: tp.i0(tp.asarray(x)))


# ----------------------------------------------------------------------------- unwrap

def wrapped_phase(shape, period=2 * np.pi, seed=3):
    rng = np.random.default_rng(seed)
    phase = np.cumsum(rng.standard_normal(shape) * period / 3, axis=-1)
    return np.mod(phase, period) - period / 2


@pytest.mark.parametrize("axis", [-1, 0, 1, -2])
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=lambda d: np.dtype(d).name)
def test_unwrap_axis(device, axis, dtype):
    p = wrapped_phase((6, 25)).astype(dtype)
    check(tp.unwrap(tp.asarray(p), axis=axis), np.unwrap(p, axis=axis))


@pytest.mark.parametrize("discont", [None, 1.0, np.pi, 4.0, 6.5])
def test_unwrap_discont(device, discont):
    p = wrapped_phase((3, 40))
    check(tp.unwrap(tp.asarray(p), discont=discont), np.unwrap(p, discont=discont))


@pytest.mark.parametrize("period", [2 * np.pi, 360, 360.0, 2.0, 1])
def test_unwrap_period(device, period):
    p = wrapped_phase((4, 30), period=period)
    check(tp.unwrap(tp.asarray(p), period=period), np.unwrap(p, period=period))
    p3 = np.stack([p, p[::-1]], axis=0)
    check(tp.unwrap(tp.asarray(p3), axis=1, period=period, discont=period * 0.75),
          np.unwrap(p3, axis=1, period=period, discont=period * 0.75))


UNWRAP_INTEGER_CASES = [
    ([0, 1, 2, -1, 0], {"period": 4}),
    ([1, 2, 3, 4, 5, 6, 1, 2, 3], {"period": 6}),
    ([2, 3, 4, 5, 2, 3, 4, 5], {"period": 4}),
    ([0, 5, 1, 7, 2, 9, -4], {}),
    ([0, 5, 1, 7, 2, 9, -4], {"period": 5}),
    ([0, 5, 1, 7, 2, 9, -4], {"period": 6, "discont": 2}),
    ([0, 5, 1, 7, 2, 9, -4], {"period": 7, "discont": 5}),
    ([0, 5, 1, 7, 2, 9, -4], {"period": 4.5}),
]


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("case", range(len(UNWRAP_INTEGER_CASES)))
def test_unwrap_integer(device, dtype, case):
    values, kwargs = UNWRAP_INTEGER_CASES[case]
    p = np.array(values, dtype)
    check(tp.unwrap(tp.asarray(p), **kwargs), np.unwrap(p, **kwargs))
    p2 = np.stack([p, p[::-1]])
    check(tp.unwrap(tp.asarray(p2)[:, ::-1], axis=1, **kwargs),
          np.unwrap(p2[:, ::-1], axis=1, **kwargs))


@pytest.mark.parametrize("shape", [(0,), (1,), (2, 0), (3, 1), (1, 5)], ids=str)
def test_unwrap_small(device, shape):
    p = wrapped_phase(shape) if 0 not in shape else np.zeros(shape)
    check(tp.unwrap(tp.asarray(p)), np.unwrap(p))
    check(tp.unwrap(tp.asarray(p), axis=0), np.unwrap(p, axis=0))


def test_unwrap_lists_and_boundaries(device):
    # Differences of exactly +-period/2 keep their sign, as NumPy's.
    p = np.array([0.0, np.pi, 0.0, -np.pi, 0.0, 3 * np.pi])
    check(tp.unwrap(tp.asarray(p)), np.unwrap(p))
    p = np.array([0, 2, 0, -2, 0, 6, 1])
    check(tp.unwrap(tp.asarray(p), period=4), np.unwrap(p, period=4))
    p = np.array([0.0, np.nan, 1.0, 7.0, np.inf, 2.0])
    check(quiet(lambda: tp.unwrap(tp.asarray(p))), quiet(lambda: np.unwrap(p)))


@pytest.mark.parametrize("case", ["0-d", "axis", "axis-neg", "axis-float"])
def test_unwrap_errors(device, case):
    p = np.float64(1.5) if case == "0-d" else np.zeros((2, 3))
    kwargs = {"0-d": {}, "axis": {"axis": 2}, "axis-neg": {"axis": -3},
              "axis-float": {"axis": 1.0}}[case]
    assert_raises_like(lambda: np.unwrap(p, **kwargs),
                       lambda: tp.unwrap(tp.asarray(p), **kwargs))


# ----------------------------------------------------------------------------- logspace

def to_tp(x):
    return tp.asarray(x) if isinstance(x, np.ndarray) else x


def check_call(name, args, kwargs, rtol=None):
    """tessera's `name` gives NumPy's result (or raises NumPy's exception type)."""
    __tracebackhide__ = True
    n, error = numpy_result(lambda: getattr(np, name)(*args, **kwargs))
    targs = [to_tp(a) for a in args]
    tkwargs = {k: to_tp(v) for k, v in kwargs.items()}
    if error is not None:
        assert_raises_like(lambda: getattr(np, name)(*args, **kwargs),
                           lambda: getattr(tp, name)(*targs, **tkwargs))
        return
    t = quiet(lambda: getattr(tp, name)(*targs, **tkwargs))
    check(t, n, rtol=rtol)


LOGSPACE_CASES = [
    ((0, 3), {}),
    ((0, 3, 4), {}),
    ((0, 3, 4), {"endpoint": False}),
    ((2, -1, 7), {}),
    ((0, 3, 4), {"base": 2.0}),
    ((0, 3, 4), {"base": 2}),
    ((0.5, 2.5, 6), {"base": np.e, "endpoint": False}),
    ((0, 3, 7), {"dtype": int}),
    ((0, 3, 7), {"dtype": np.float32}),
    ((0, 2, 5), {"dtype": complex}),
    ((0, 3, 0), {}),
    ((0, 3, 1), {}),
    ((0, 3, 1), {"endpoint": False}),
    ((0j, 1 + 1j, 4), {}),
    ((np.array([0.0, 1.0]), np.array([2.0, 3.0]), 5), {}),
    ((np.array([0.0, 1.0]), np.array([2.0, 3.0]), 5), {"axis": -1}),
    ((np.array([0.0, 1.0]), 3, 5), {"axis": 1, "endpoint": False}),
    ((np.array([[0.0], [1.0]]), np.array([2.0, 3.0, 4.0]), 4), {"axis": 1}),
    ((np.array([0.0, 1.0], np.float32), 3, 5), {}),
    ((np.array([0, 1]), np.array([2, 3]), 5), {"dtype": int}),
    ((0, 3, 4), {"base": np.array([2.0, 3.0, 10.0])}),
    ((0, np.array([[1.0], [2.0]]), 4), {"base": np.array([2.0, 3.0, 10.0]), "axis": -1}),
    ((0, 3, 4), {"base": np.array([2.0, 3.0]), "axis": 1}),
    ((np.array([0.0, 1.0]), 3, 0), {"axis": -1}),
    # errors
    ((0, 3, -1), {}),
    ((0, 3, 2.5), {}),
    ((np.array([0.0, 1.0]), 3, 4), {"axis": 3}),
    ((0, 3, 4), {"base": np.array([2.0, 3.0]), "axis": 3}),
    ((np.array([0.0, 1.0]), np.array([1.0, 2.0, 3.0]), 4), {}),
]


@pytest.mark.parametrize("case", range(len(LOGSPACE_CASES)))
def test_logspace(device, case):
    args, kwargs = LOGSPACE_CASES[case]
    check_call("logspace", args, kwargs)


GEOMSPACE_CASES = [
    ((1, 1000, 4), {}),
    ((1, 256, 9), {}),
    ((1, 1000), {}),
    ((1, 1000, 3), {"endpoint": False}),
    ((1, 256, 9), {"dtype": int}),
    ((1, 256, 9), {"dtype": np.int32, "endpoint": False}),
    ((1000, 1, 4), {}),
    ((-1000, -1, 4), {}),
    ((-1, 1000, 4), {}),
    ((1j, 1000j, 4), {}),
    ((-1 + 0j, 1 + 0j, 5), {}),
    ((1 + 2j, 3 - 1j, 5), {}),
    ((1, 100, 5), {"dtype": np.float32}),
    ((1, 100, 5), {"dtype": complex}),
    ((1, 100, 0), {}),
    ((1, 100, 1), {}),
    ((1, 100, 1), {"endpoint": False}),
    ((np.nan, 100, 3), {}),
    ((0.5, np.inf, 3), {}),
    ((np.array([1.0, 2.0]), np.array([100.0, -200.0]), 5), {}),
    ((np.array([1.0, 2.0]), np.array([100.0, 200.0]), 5), {"axis": 1}),
    ((np.array([[1.0, 2.0]]), np.array([100.0, 200.0]), 5), {"axis": -1}),
    ((np.array([1, 2]), np.array([[10], [100]]), 3), {"axis": 2}),
    ((np.array(1.0, np.float32), np.array(100, np.float32), 5), {}),
    ((np.array([1, -2], np.int8), 64, 4), {}),
    ((np.array([1.0, 1j]), np.array([8.0, 8j]), 4), {"endpoint": False}),
    ((np.array([1.0, 2.0]), 100, 0), {"axis": -1}),
    # errors
    ((0, 100, 3), {}),
    ((1, 0.0, 3), {}),
    ((np.array([1.0, 0.0]), 100, 3), {}),
    ((1, 100, -3), {}),
    ((1, 100, 2.5), {}),
    ((1, 100, 5), {"axis": 2}),
    ((np.array([1.0, 2.0]), 100, 5), {"axis": 3}),
]


@pytest.mark.parametrize("case", range(len(GEOMSPACE_CASES)))
def test_geomspace(device, case):
    args, kwargs = GEOMSPACE_CASES[case]
    check_call("geomspace", args, kwargs)


@pytest.mark.parametrize("name", ["logspace", "geomspace"])
def test_ranges_device_keyword(name):
    t = getattr(tp, name)(1, 3, 5, device="cpu")
    assert t.device == tp.Device("cpu")
    np.testing.assert_allclose(tp.asnumpy(t), getattr(np, name)(1, 3, 5), rtol=1e-14)
    if tp.cuda.is_available():
        t = getattr(tp, name)(1, 3, 5, device="cuda")
        assert t.device.kind == "cuda"
        np.testing.assert_allclose(tp.asnumpy(t), getattr(np, name)(1, 3, 5), rtol=1e-14)


def test_geomspace_exact_endpoints(device):
    # The endpoints are start and stop themselves, not 10 ** log10(x).
    for start, stop in [(3, 7), (-0.3, -70.0), (1e-5, 123.456)]:
        t = tp.asnumpy(tp.geomspace(start, stop, 11))
        n = np.geomspace(start, stop, 11)
        assert t[0] == n[0] and t[-1] == n[-1]
