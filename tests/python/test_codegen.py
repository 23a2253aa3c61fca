"""The code generator on the simulated CUDA device: elementwise trees rendered as CUDA
kernels (backend/cuda/render_cuda.h) give the CPU device's results, for every loop of every
ufunc and for the layouts and trees the renderer distinguishes. The same kernels compile for
GPUs: tests/cpp/test_codegen_nvrtc.cpp assembles them all with NVRTC and ptxas."""

import numpy as np
import pytest

import tessera as tp

from conftest import sample

pytestmark = pytest.mark.skipif(not tp.cuda.is_available() or not tp.cuda.runtime.is_simulated(),
                                reason="the generated kernels run on the simulated CUDA device")

UFUNCS = {name: u for name, u in tp._core._ufuncs.items()}
# Exponents and shifts that are refused or undefined when negative or too large.
SMALL_NONNEGATIVE_SECOND = {"power", "left_shift", "right_shift", "ldexp"}


def tolerance(dtype):
    return {"e": 1e-3, "f": 2e-6, "F": 2e-6, "d": 1e-14, "D": 1e-14}.get(np.dtype(dtype).char)


def assert_device_matches_cpu(got, want):
    """`got` (computed on cuda:0) equals `want` (the CPU device's result): dtype, shape, and
    values, exactly for integers and bools, within a few ulps for floating dtypes (the CPU
    runs some functions through SIMD loops, the kernels through the scalar functors)."""
    got, want = tp.asnumpy(got), tp.asnumpy(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    rtol = tolerance(want.dtype)
    if rtol is None:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=rtol, atol=0, equal_nan=True)


def inputs_for(name, types, n, seed=1):
    arrays = []
    for k, code in enumerate(types):
        values = sample((n,), np.dtype(code), seed=seed + k)
        if k == 1 and name in SMALL_NONNEGATIVE_SECOND:
            values = (np.abs(values.real) % 5).astype(values.dtype) if values.dtype.kind != "b" else values
        arrays.append(values)
    return arrays


def run_both(fn, host_inputs):
    """fn over the inputs on the CPU device and on cuda:0; the same exception, or both results."""
    results = []
    for device in ("cpu", "cuda"):
        with tp.Device(device):
            try:
                results.append(fn(*[tp.asarray(a) for a in host_inputs]))
            except Exception as e:  # noqa: BLE001 - the devices must agree on errors too
                results.append(e)
    cpu, cuda = results
    if isinstance(cpu, Exception) or isinstance(cuda, Exception):
        assert type(cpu) is type(cuda), f"cpu: {cpu!r}, cuda: {cuda!r}"
        return None
    return cpu, cuda


@pytest.mark.parametrize("name", sorted(UFUNCS))
def test_every_loop_of_every_ufunc(name):
    ufunc = UFUNCS[name]
    for signature in ufunc.types:
        types, outs = signature.split("->")
        host_inputs = inputs_for(name, types, 257)
        call = (lambda *a: ufunc(*a, dtype=np.dtype(outs[0]))) if ufunc.nout == 1 else ufunc
        with np.errstate(all="ignore"), tp.errstate(all="ignore"):
            both = run_both(call, host_inputs)
        if both is None:
            continue
        cpu, cuda = both
        for c, g in zip(cpu if ufunc.nout == 2 else [cpu], cuda if ufunc.nout == 2 else [cuda]):
            assert_device_matches_cpu(g, c)


LAYOUTS = {
    "contiguous": lambda x: x,
    "strided": lambda x: x[::3],
    "negative": lambda x: x[::-2],
    "transposed": lambda x: x.reshape(6, 8, 10).transpose(2, 0, 1),
    "reversed 2-d": lambda x: x.reshape(24, 20)[::-1, 1::3],
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.complex128, np.float16])
def test_layouts(layout, dtype):
    view = LAYOUTS[layout]
    a, b = sample((480,), dtype, seed=3), sample((480,), dtype, seed=4)
    both = run_both(lambda x, y: view(x) * view(y) - view(x), [a, b])
    assert_device_matches_cpu(both[1], both[0])
    np.testing.assert_array_equal(tp.asnumpy(both[0]), view(a) * view(b) - view(a))


def test_broadcast_and_mixed_dtypes():
    col = sample((30, 1), np.int8, seed=5)
    row = sample((1, 17), np.float32, seed=6)
    both = run_both(lambda c, r: tp.sqrt(tp.abs(c + r)) * 2.5 + c, [col, row])
    assert_device_matches_cpu(both[1], both[0])
    assert tp.asnumpy(both[1]).shape == (30, 17)


def test_zero_dimensional_and_empty():
    for shape in [(), (0,), (3, 0, 2)]:
        x = sample(shape, np.float64, seed=7)
        both = run_both(lambda t: tp.exp(t) - t * 3, [x])
        assert_device_matches_cpu(both[1], both[0])
        assert tp.asnumpy(both[1]).shape == shape


@pytest.mark.parametrize("value", [True, -7, 2**63 + 5, 0.1, np.float16(1.5), np.float32(2.5),
                                   1.5 - 2j, np.complex64(3 + 4j)])
def test_constants(value):
    """Constants are kernel parameters of every dtype, not part of the source."""
    for dtype in (np.uint64, np.float16, np.float64, np.complex64):
        x = sample((50,), dtype, seed=8)
        with np.errstate(all="ignore"), tp.errstate(all="ignore"):
            both = run_both(lambda t: t * value + value, [x])
        if both is not None:
            assert_device_matches_cpu(both[1], both[0])


def test_fused_chain_and_two_outputs():
    x = sample((1000,), np.float64, seed=9)
    both = run_both(lambda t: tp.sin(t) ** 2 + tp.cos(t) ** 2, [x])
    assert_device_matches_cpu(both[1], both[0])
    a, b = sample((999,), np.int32, seed=10), sample((999,), np.int32, seed=11)
    both = run_both(lambda s, t: tp.divmod(s * 3, t + 200), [a, b])
    for c, g in zip(*both):
        assert_device_matches_cpu(g, c)


def test_where_and_out_into_a_view():
    x = sample((40, 30), np.float32, seed=12)

    def fn(t):
        out = tp.zeros((40, 60), dtype=np.float64)
        tp.multiply(tp.where(t > 0, t, -t), 2, out=out[:, ::2])
        return out

    both = run_both(fn, [x])
    assert_device_matches_cpu(both[1], both[0])


def test_few_term_product():
    x, y = sample((64, 3), np.float64, seed=13), sample((3, 48), np.float64, seed=14)
    both = run_both(lambda s, t: (s @ t) * 2 - 1, [x, y])
    np.testing.assert_array_equal(tp.asnumpy(both[1]), tp.asnumpy(both[0]))


def test_one_kernel_per_signature():
    """Constant values and shapes are parameters: new values and sizes reuse the kernel."""
    with tp.Device("cuda"):
        for n, c in [(100, 1.5), (1000, -2.0), (77, 3.25)]:
            x = tp.asarray(np.arange(n, dtype=np.float64))
            np.testing.assert_array_equal(tp.asnumpy(x * c + 1), np.arange(n) * c + 1)


def test_a_kernel_that_fails_to_compile_is_reported_with_its_source(tmp_path):
    """A generated kernel that does not compile is tessera's bug: the error says so and names
    the file in the cache directory that keeps its source. (A host compiler that always
    fails stands in for the bug.)"""
    import os
    import subprocess
    import sys

    program = (
        "import numpy as np, tessera as tp\n"
        "x = tp.asarray(np.arange(5000.0), device='cuda')\n"
        "try:\n"
        "    (tp.sin(x) * 3).get()\n"
        "except Exception as e:\n"
        "    print(type(e).__name__)\n"
        "    print(e)\n")
    env = dict(os.environ, TESSERA_CACHE_DIR=str(tmp_path), TESSERA_CXX="/bin/false")
    out = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True,
                         text=True, timeout=120).stdout
    assert out.startswith("CUDARuntimeError"), out
    assert "a generated kernel failed to compile or load, a bug in tessera" in out
    saved = [line for line in out.split() if line.endswith(".cu:") or line.endswith(".cu")]
    path = saved[0].rstrip(":")
    assert os.path.dirname(path) == str(tmp_path)
    assert "ts_expr" in open(path).read()
