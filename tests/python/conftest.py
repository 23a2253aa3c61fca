"""Shared fixtures: the devices every test runs on, and NumPy-oracle comparisons."""

import contextlib

import numpy as np
import pytest

import tessera as tp

# Small results are normally computed at once; the suite makes every elementwise result
# pending, so that lazy evaluation is what the NumPy comparisons check (test_fusion.py,
# test_fp_errors.py and test_small_calls.py check the eager path of small arrays).
ENGINE_LAZY_MIN = tp._core._lazy_min_elements()
tp._core._set_lazy_min_elements(0)


@contextlib.contextmanager
def lazy_min_elements(n):
    """Results smaller than `n` elements computed at once while inside."""
    old = tp._core._lazy_min_elements()
    tp._core._set_lazy_min_elements(n)
    try:
        yield
    finally:
        tp._core._set_lazy_min_elements(old)


# Devices the Python suite runs on: the CPU, and CUDA device 0 when one is usable. In
# `make test` that is the simulator (TESSERA_CUDA_SIM=1), in a second run of the suite.
DEVICES = ["cpu"] + (["cuda"] if tp.cuda.is_available() else [])

ALL_DTYPES = [
    np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
    np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128,
]


@pytest.fixture(params=DEVICES)
def device(request):
    """The device under test; arrays created inside the test land there by default."""
    dev = tp.Device(request.param)
    with dev:
        yield dev


@pytest.fixture(params=ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def dtype(request):
    return np.dtype(request.param)


# One dtype per kind and item size, for tests whose other parameters multiply quickly.
@pytest.fixture(params=[np.bool_, np.int16, np.float32, np.int64, np.complex128],
                ids=lambda d: np.dtype(d).name)
def some_dtype(request):
    return np.dtype(request.param)


def sample(shape, dtype, seed=0):
    """Deterministic NumPy data of `shape` and `dtype`, with negative values where the dtype
    has them and non-trivial imaginary parts for complex dtypes."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -100), min(info.max, 100), size=shape, endpoint=True).astype(dtype)
    values = rng.standard_normal(size=shape) * 10
    if dtype.kind == "c":
        values = values + 1j * rng.standard_normal(size=shape)
    return values.astype(dtype)


def assert_same(t, n, *, strides=False):
    """`t` (a tessera array) equals `n` (NumPy's answer): type, dtype, shape, values (nan
    matches nan, -0.0 differs from 0.0), and optionally strides. The sign of a nan is not
    compared: IEEE 754 leaves it unspecified, and it differs between machines (x86 makes
    new nans negative, a GPU's float32 arithmetic makes every nan positive)."""
    assert isinstance(t, tp.ndarray), f"expected tessera.ndarray, got {type(t).__name__}"
    n = np.asarray(n)
    assert t.dtype == n.dtype, f"dtype {t.dtype} != {n.dtype}"
    assert t.shape == n.shape, f"shape {t.shape} != {n.shape}"
    got = tp.asnumpy(t)
    assert np.array_equal(got, n, equal_nan=n.dtype.kind in "fc"), f"values differ:\n{got}\n!=\n{n}"
    if n.dtype.kind in "fc":
        for part in ("real", "imag") if n.dtype.kind == "c" else ("real",):
            g, e = getattr(got, part), getattr(n, part)
            assert not ((np.signbit(g) != np.signbit(e)) & ~np.isnan(e)).any(), \
                f"signs of zero differ:\n{got}\n!=\n{n}"
    if strides:
        assert t.strides == n.strides, f"strides {t.strides} != {n.strides}"


def reports_fp_errors(device=None):
    """Whether generated work on `device` (by default the current one) reports floating-point
    errors as NumPy does: on the CPU. Generated CUDA kernels (ufuncs, operators, fused trees,
    casts, reductions and scans, few-term product chains, small arrays' ufuncs) report none,
    as CuPy's: no RuntimeWarning, no FloatingPointError under 'raise', nothing for 'call',
    'log' or 'print'; their values are IEEE's, as NumPy's (docs/cuda.md). Matrix products on
    the CPU derive NumPy's warnings from their values; on CUDA devices, through cuBLAS, they
    report none."""
    device = device if device is not None else tp.get_device()
    return device.kind == "cpu"


# Known differences from NumPy, each named with its reason. strict=True: when tessera is
# fixed, the test passes, the xfail fails, and the entry must be removed.
KNOWN_DIFFERENCES: dict[str, str] = {}


def pytest_addoption(parser):
    parser.addoption(
        "--device-run", action="store_true",
        help="the suite's run on the CUDA device (make test's second run, the GPU check): the "
             "tests of modules marked host_only that take no device, which the CPU run has "
             "run, are left out")


def _runs_on_the_host_only(item):
    """A test of a host_only module (Python kernels compiled for the CPU) that takes no
    device and is not marked uses_cuda: a second run on the CUDA device repeats it."""
    return (item.get_closest_marker("host_only") is not None
            and "device" not in getattr(item, "fixturenames", ())
            and item.get_closest_marker("uses_cuda") is None)


def pytest_collection_modifyitems(config, items):
    if config.getoption("--device-run"):
        kept, left_out = [], []
        for item in items:
            (left_out if _runs_on_the_host_only(item) else kept).append(item)
        if left_out:
            config.hook.pytest_deselected(items=left_out)
            items[:] = kept
    for item in items:
        # Keyed by test name, or by file::name where the name alone is ambiguous.
        reason = (KNOWN_DIFFERENCES.get(item.name)
                  or KNOWN_DIFFERENCES.get(f"{item.path.name}::{item.name}"))
        if reason:
            item.add_marker(pytest.mark.xfail(reason=reason, strict=True))
