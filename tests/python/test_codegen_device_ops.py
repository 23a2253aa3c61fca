"""Reductions, scans, fills, indexing, sorting and matrix products on a CUDA device (the
simulator here, a GPU in tools/gpu/check) run as generated kernels (backend/cuda/
render_fold.h, fill_kernel.h, index_kernel.h, sort_kernel.h, product_kernel.h) and cuBLAS.
Their results against NumPy's and the CPU device's, on the shapes that choose each launch: a
block per output or threads across outputs, a walk split over blocks with its partials
merged, one chunk of a compaction or many, and the random streams that must give the CPU's
values. The same kernels compile for GPUs: tests/cpp/test_codegen_nvrtc.cpp assembles them
with NVRTC and ptxas."""

import numpy as np
import pytest

import tessera as tp

pytestmark = pytest.mark.skipif(not tp.cuda.is_available(), reason="needs a CUDA device "
                                "(TESSERA_CUDA_SIM=1 simulates one)")


def on_cuda(fn, *arrays):
    with tp.cuda.Device(0):
        return tp.asnumpy(fn(*[tp.asarray(a) for a in arrays]))


def on_cpu(fn, *arrays):
    return tp.asnumpy(fn(*[tp.asarray(a) for a in arrays]))


def rng():
    return np.random.default_rng(20261127)


# --------------------------------------------------------------------------------------------
# elementwise: the packed walk (wide loads) where every operand is contiguous and aligned,
# the plain walk where an offset breaks the alignment, the elements past the last whole
# pack, an output that is also read (in place), an input read as another dtype.


@pytest.mark.parametrize("n", [1, 3, 4, 5, 17, 1027])
@pytest.mark.parametrize("offset", [0, 1])
@pytest.mark.parametrize("dtype", ["bool", "int8", "float16", "float32", "float64", "complex64"])
def test_packed_and_plain_walks_agree_with_numpy(n, offset, dtype):
    g = rng()
    a = g.standard_normal(n + offset).astype(dtype)
    b = g.standard_normal(n + offset).astype(dtype)
    c = g.integers(-5, 5, n + offset).astype(np.int16)
    with tp.cuda.Device(0):
        ta, tb, tc = (tp.asarray(v)[offset:] for v in (a, b, c))
        a, b, c = a[offset:], b[offset:], c[offset:]
        assert np.array_equal(tp.asnumpy(ta * tb + ta), a * b + a)
        assert np.array_equal(tp.asnumpy(ta.real.astype(np.float64) * tc + 1.5),
                              a.real.astype(np.float64) * c + 1.5)
        tb += ta
        b += a
        assert np.array_equal(tp.asnumpy(tb), b)


# --------------------------------------------------------------------------------------------
# reductions


# Long walks with few outputs (split over blocks), outputs innermost in memory (threads
# across outputs), several walked axes merged or not, and more than four axes.
LAYOUTS = [((70000,), None), ((3, 40000), 1), ((40000, 3), 0), ((300, 200), 0),
           ((300, 200), 1), ((5, 6, 700), (0, 2)), ((2, 3, 4, 5, 6, 7), (1, 3, 5)),
           ((9, 1, 5), 1)]


@pytest.mark.parametrize("shape, axis", LAYOUTS, ids=str)
@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "any", "all", "mean"])
def test_reductions_over_every_launch_shape(name, shape, axis):
    x = rng().standard_normal(shape)
    if name == "prod":
        x = 1 + x / 1000
    if name in ("any", "all"):
        x = x > -2.5
    want = getattr(np, name)(x, axis=axis)
    got = on_cuda(lambda t: getattr(tp, name)(t, axis=axis), x)
    assert got.dtype == want.dtype and got.shape == want.shape
    if name in ("sum", "prod", "mean"):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("shape, axis", [((70000,), None), ((3, 40000), 1), ((40000, 3), 0),
                                         ((300, 200), 0), ((300, 200), 1)], ids=str)
@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_arg_reductions_over_every_launch_shape(name, shape, axis):
    # Few distinct values: ties everywhere, and the first of them must win across threads,
    # blocks and chunks.
    x = rng().integers(0, 5, size=shape).astype(np.float32)
    np.testing.assert_array_equal(on_cuda(lambda t: getattr(tp, name)(t, axis=axis), x),
                                  getattr(np, name)(x, axis=axis))


def test_arg_reductions_first_nan_and_first_tie_across_chunks():
    x = np.zeros(100000)
    x[[30000, 90000]] = 5.0
    assert on_cuda(tp.argmax, x) == 30000
    x[[60000, 80000]] = np.nan
    assert on_cuda(tp.argmax, x) == 60000 and on_cuda(tp.argmin, x) == 60000


def test_float32_sum_keeps_pairwise_accuracy():
    """A long float32 sum (split over blocks, folded in runs of 32 by each thread) stays as
    accurate as NumPy's pairwise summation: a naive running sum of a million 0.1s is off by
    about 1%."""
    x = np.full(1_000_000, 0.1, np.float32)
    exact = float(np.float32(0.1)) * x.size
    got = float(on_cuda(tp.sum, x))
    assert abs(got - exact) / exact <= max(1e-6, 4 * abs(float(x.sum()) - exact) / exact)


def test_ordered_reduction_and_integer_sum():
    x = rng().standard_normal((50, 7))
    np.testing.assert_array_equal(on_cuda(lambda t: tp.subtract.reduce(t, axis=0), x),
                                  on_cpu(lambda t: tp.subtract.reduce(t, axis=0), x))
    b = rng().integers(0, 2, size=(3, 50001)).astype(bool)
    np.testing.assert_array_equal(on_cuda(lambda t: t.sum(axis=1), b), b.sum(axis=1))
    i8 = rng().integers(-128, 128, size=70000, dtype=np.int8)
    assert on_cuda(tp.sum, i8) == i8.sum()


# --------------------------------------------------------------------------------------------
# scans


@pytest.mark.parametrize("shape, axis", [((5000,), 0), ((40, 300), 1), ((300, 40), 0),
                                         ((4, 5, 6), 1)], ids=str)
def test_scans_along_each_axis_match_the_cpu_bit_for_bit(shape, axis):
    x = rng().standard_normal(shape)
    for fn in (lambda t: tp.cumsum(t, axis=axis), lambda t: tp.cumprod(1 + t / 100, axis=axis),
               lambda t: tp.maximum.accumulate(t, axis=axis)):
        assert on_cuda(fn, x).tobytes() == on_cpu(fn, x).tobytes()


# Integer and bool scans of lines of 2,048 values or more run as tiles chained by decoupled
# look-back: lines that end inside a tile, on its first value, or fill whole tiles; several
# lines; lines strided, reversed, or the output's own view (in place).
@pytest.mark.parametrize("n", [2048, 2049, 4096 + 255, 70001])
@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "int32", "uint32", "int64",
                                   "uint64"])
def test_long_integer_scans_in_tiles_match_numpy(n, dtype):
    x = rng().integers(-3, 4, n).astype(dtype)
    with tp.cuda.Device(0):
        t = tp.asarray(x)
        for name in ("cumsum", "cumprod"):
            got = tp.asnumpy(getattr(tp, name)(t))
            want = getattr(np, name)(x)
            assert got.dtype == want.dtype and np.array_equal(got, want), name
        for name in ("maximum", "minimum", "bitwise_xor", "logical_or", "logical_and"):
            got = tp.asnumpy(getattr(tp, name).accumulate(t))
            assert np.array_equal(got, getattr(np, name).accumulate(x)), name


@pytest.mark.parametrize("axis", [0, 1])
def test_long_integer_scans_of_several_lines_strided_and_in_place(axis):
    x = rng().integers(-1000, 1000, (5, 9000), dtype=np.int64)
    x = x if axis == 1 else x.T.copy()
    with tp.cuda.Device(0):
        t = tp.asarray(x)
        assert np.array_equal(tp.asnumpy(tp.cumsum(t, axis=axis)), np.cumsum(x, axis=axis))
        view = (slice(None), slice(None, None, -3)) if axis == 1 else (slice(None, None, -3),)
        assert np.array_equal(tp.asnumpy(tp.cumsum(t[view], axis=axis)),
                              np.cumsum(x[view], axis=axis))
        tp.cumsum(t, axis=axis, out=t)
        assert np.array_equal(tp.asnumpy(t), np.cumsum(x, axis=axis))


# --------------------------------------------------------------------------------------------
# fills


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64", "float16", "float32", "float64",
                                   "complex64", "complex128"])
def test_arange_and_linspace_match_the_cpu_bit_for_bit(dtype):
    for fn in (lambda: tp.arange(3, 300, 7, dtype=dtype),
               lambda: tp.linspace(-2, 5, 1001, dtype=dtype) if dtype[0] in "fc" else tp.arange(5),
               lambda: tp.linspace(0, 1e-310, 7) if dtype == "float64" else tp.arange(2)):
        with tp.cuda.Device(0):
            got = tp.asnumpy(fn())
        assert got.tobytes() == tp.asnumpy(fn()).tobytes()


SAME_BITS = {
    "random": lambda g: g.random(size=1001),
    "random-float32": lambda g: g.random(size=1003, dtype=np.float32),
    "integers": lambda g: g.integers(-5, 1000, size=1001),
    "integers-uint8": lambda g: g.integers(0, 256, size=999, dtype=np.uint8),
    "integers-full": lambda g: g.integers(-2**63, 2**63 - 1, size=100, endpoint=True),
}
CLOSE_VALUES = {
    "standard_normal": lambda g: g.standard_normal(size=1001),
    "standard_normal-float32": lambda g: g.standard_normal(size=1001, dtype=np.float32),
    "standard_exponential": lambda g: g.standard_exponential(size=1001),
    "gamma": lambda g: g.gamma(2.5, size=1001),
}


@pytest.mark.parametrize("name", list(SAME_BITS))
def test_same_seed_gives_the_cpus_bits(name):
    draw = SAME_BITS[name]
    want = tp.asnumpy(draw(tp.random.default_rng(7)))
    with tp.cuda.Device(0):
        got = tp.asnumpy(draw(tp.random.default_rng(7)))
    assert got.dtype == want.dtype and got.tobytes() == want.tobytes()


@pytest.mark.parametrize("name", list(CLOSE_VALUES))
def test_same_seed_gives_the_cpus_values_to_a_few_ulp(name):
    """Samplers that call log, sin or cos: CUDA's math library and the CPU's SIMD loops
    round differently in the last bits (docs/cuda.md)."""
    draw = CLOSE_VALUES[name]
    want = tp.asnumpy(draw(tp.random.default_rng(7)))
    with tp.cuda.Device(0):
        got = tp.asnumpy(draw(tp.random.default_rng(7)))
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=8 * np.finfo(want.dtype).eps, atol=0)


def test_discrete_samplers_agree_with_the_cpu():
    for draw in (lambda g: g.poisson(3.0, size=1000), lambda g: g.poisson(40.0, size=1000),
                 lambda g: g.binomial(30, 0.3, size=1000)):
        want = tp.asnumpy(draw(tp.random.default_rng(3)))
        with tp.cuda.Device(0):
            got = tp.asnumpy(draw(tp.random.default_rng(3)))
        # A rejection test on a value a last bit apart may go the other way, rarely.
        assert np.mean(got == want) >= 0.99


# --------------------------------------------------------------------------------------------
# indexing


def test_gathers():
    x = rng().standard_normal((6, 7, 8))
    idx = np.array([0, -1, 3, 3, 5])
    for fn in (lambda t: t[idx], lambda t: t[:, idx], lambda t: t[:, :, idx[:3]],
               lambda t: t[idx, :, idx], lambda t: t[1:5:2, idx[::-1]]):
        np.testing.assert_array_equal(on_cuda(fn, x), fn(x))


def test_out_of_bounds_index_names_the_first_bad_one():
    x = np.arange(10.0)
    with pytest.raises(IndexError) as on_host:
        tp.asarray(x)[np.array([1, 12, -30])]
    with tp.cuda.Device(0), pytest.raises(IndexError) as on_device:
        tp.asarray(x)[tp.asarray(np.array([1, 12, -30]))]
    assert str(on_device.value) == str(on_host.value) and "12" in str(on_device.value)


def test_scatters_keep_the_last_duplicate_and_apply_at_in_order():
    x = np.zeros((4, 5))
    idx = np.array([1, 3, 1, 1])
    vals = np.arange(20.0).reshape(4, 5)

    def assign(t, v):
        t[idx] = v
        return t

    np.testing.assert_array_equal(on_cuda(assign, x, vals), assign(x.copy(), vals))

    def add_at(t, v):
        tp.add.at(t, idx, v) if isinstance(t, tp.ndarray) else np.add.at(t, idx, v)
        return t

    np.testing.assert_array_equal(on_cuda(add_at, x, vals), add_at(x.copy(), vals))
    i = np.zeros(3, np.int16)
    np.testing.assert_array_equal(on_cuda(lambda t: (tp.negative.at(t, [0, 0, 2]), t)[1], i),
                                  i)


# More offsets than rows: the offsets are sorted (stably) and each run of equal ones is
# applied by one thread, in order: the last duplicate wins an assignment, and ufunc.at adds
# in index order, NumPy's rounding.
@pytest.mark.parametrize("shape, index", [((50,), (slice(None),)), ((7, 3), (slice(None),)),
                                          ((6, 8), "pair")], ids=str)
def test_scatters_with_more_offsets_than_rows_keep_numpys_order(shape, index):
    g = rng()
    x = g.standard_normal(shape)
    if index == "pair":
        key = (g.integers(0, shape[0], 500), g.integers(-shape[1], shape[1], 500))
        vals = g.standard_normal(500) * 10.0 ** g.integers(-8, 8, 500)
    else:
        key = g.integers(-shape[0], shape[0], 3000)
        vals = g.standard_normal((3000,) + shape[1:]) * 10.0 ** g.integers(-8, 8, 3000).reshape(
            (3000,) + (1,) * (len(shape) - 1))
    with tp.cuda.Device(0):
        t = tp.asarray(x)
        tkey = tuple(tp.asarray(k) for k in key) if index == "pair" else tp.asarray(key)
        t[tkey] = tp.asarray(vals)
        want = x.copy()
        want[key] = vals
        assert np.array_equal(tp.asnumpy(t), want)
        t = tp.asarray(x)
        tp.add.at(t, tkey, tp.asarray(vals))
        want = x.copy()
        np.add.at(want, key, vals)
        assert tp.asnumpy(t).tobytes() == want.tobytes()


@pytest.mark.parametrize("n", [0, 1, 4095, 4096, 3 * 4096 + 17])
def test_masks_and_nonzero_over_chunks(n):
    x = rng().standard_normal(n).astype(np.float32)
    mask = x > 0.3
    np.testing.assert_array_equal(on_cuda(lambda t, m: t[m], x, mask), x[mask])
    np.testing.assert_array_equal(on_cuda(tp.flatnonzero, mask), np.flatnonzero(mask))
    assert on_cuda(tp.count_nonzero, mask) == np.count_nonzero(mask)
    c = (x + 1j * x).astype(np.complex128)
    np.testing.assert_array_equal(on_cuda(lambda t, m: t[m], c, mask), c[mask])


# --------------------------------------------------------------------------------------------
# sorting


# Rows within one tile of 1,024 (sorted by a block in shared memory), and longer ones that
# the merge passes over global memory finish: whole tiles, a short last tile, several rows.
@pytest.mark.parametrize("shape", [(1,), (7,), (1000,), (3, 333), (4, 5, 129), (1024,),
                                   (5000,), (3, 2049)], ids=str)
@pytest.mark.parametrize("dtype", ["int8", "uint32", "int64", "float16", "float32", "float64",
                                   "complex64", "complex128", "bool"])
def test_sort_and_argsort(shape, dtype):
    x = (rng().integers(-20, 20, size=shape) / 3).astype(dtype)
    if dtype[0] in "fc" and x.size > 3:
        x.flat[::5] = np.nan
    if dtype.startswith("complex"):
        x = x + 1j * (rng().integers(-2, 2, size=shape)).astype(dtype)
    got = on_cuda(lambda t: tp.sort(t, axis=-1), x)
    np.testing.assert_array_equal(got, np.sort(x, axis=-1))
    # Stable: of equal keys the first index comes first, as NumPy's stable sort.
    np.testing.assert_array_equal(on_cuda(lambda t: tp.argsort(t, axis=-1, kind="stable"), x),
                                  np.argsort(x, axis=-1, kind="stable"))
    np.testing.assert_array_equal(on_cuda(lambda t: tp.sort(t, axis=0), x), np.sort(x, axis=0))


def test_sort_in_place_of_a_strided_view_and_searchsorted():
    x = rng().standard_normal((6, 10))

    def sort_view(t):
        t[:, ::2].sort()
        return t

    np.testing.assert_array_equal(on_cuda(sort_view, x), sort_view(x.copy()))
    a = np.sort(rng().integers(0, 50, size=300)).astype(np.float64)
    a[-3:] = np.nan
    v = np.array([-1.0, 0.0, 7.0, 7.5, 49.0, 60.0, np.nan])
    for side in ("left", "right"):
        np.testing.assert_array_equal(on_cuda(lambda s, t: tp.searchsorted(s, t, side=side), a, v),
                                      np.searchsorted(a, v, side=side))


# --------------------------------------------------------------------------------------------
# several devices


@pytest.fixture
def two_devices():
    if tp.cuda.runtime.getDeviceCount() < 2:
        pytest.skip("needs two CUDA devices (the suite's simulator run has two)")


def test_arrays_follow_the_current_device(two_devices):
    """asarray, array, copy() and astype of an array on device 0 under `with Device(1)` give
    an array on device 1 (CuPy's "move the array to GPU 1"), copied device to device."""
    host = np.arange(24.0).reshape(4, 6)[:, ::-2]
    with tp.cuda.Device(0):
        x = tp.asarray(host)
        x = x + 0  # work queued on device 0 before the copies
    with tp.cuda.Device(1):
        for y, dtype in ((tp.asarray(x), host.dtype), (tp.array(x), host.dtype),
                         (x.copy(), host.dtype), (x.astype(np.float32), np.float32)):
            assert str(y.device) == "cuda:1"
            np.testing.assert_array_equal(tp.asnumpy(y), host.astype(dtype))
        assert str(tp.asarray(x, device="cuda:0").device) == "cuda:0"
        y = tp.asarray(x)
    with pytest.raises(ValueError) as error:
        x + y
    assert "cuda:0" in str(error.value) and "cuda:1" in str(error.value)


# --------------------------------------------------------------------------------------------
# asynchrony


@pytest.mark.skipif(tp.cuda.is_available() and not tp.cuda.runtime.is_simulated(),
                    reason="the simulator counts the host's waits")
def test_a_chain_of_kernels_makes_the_host_wait_only_for_its_result():
    """Elementwise trees, casts, reductions, argmax, scans, a sort, matrix products (cuBLAS,
    and the integer kernel), fills and random numbers are queued on the stream: the host
    waits for none of them (the simulator counts every stream, event and context
    synchronization), only to read the result. An index array's bounds check waits:
    docs/cuda.md, "Where the host waits"."""
    waits = tp._core._cuda.simulated_host_waits
    with tp.cuda.Device(0):
        x = tp.asarray(rng().standard_normal((64, 50)))
        before = waits()
        y = tp.sin(x) ** 2 + tp.cos(x) ** 2 * 0.5
        s = y.astype(np.float32).sum(axis=0) + y.max(axis=1)[:50]
        t = tp.cumsum(s) + tp.sort(s)[::2].sum() + tp.argmax(y, axis=0) + tp.arange(50)
        t = t + tp.random.default_rng(1).random(50) + tp.linspace(0, 1, 50)
        t = t + (y.T @ y)[0] + (tp.arange(50) @ tp.ones((50, 50), dtype=np.int64))
        assert waits() == before, "the host waited for queued work"
        result = tp.asnumpy(t)
        assert waits() > before
    assert result.shape == (50,)


# --------------------------------------------------------------------------------------------
# matrix products


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128", "int8",
                                   "uint16", "int64", "bool"])
@pytest.mark.parametrize("shapes", [((7, 5), (5, 3)), ((4, 7, 5), (5, 3)),
                                    ((2, 1, 6, 4), (3, 4, 2)), ((70, 50), (50, 60))], ids=str)
def test_matrix_products(dtype, shapes):
    """cuBLAS (simulated: the CPU's BLAS on cuBLAS's arguments) for floats and complex
    numbers, the integer kernel for the rest (wrapping as NumPy's); transposed operands
    too, and broadcast stacks."""
    a, b = (np.abs(rng().standard_normal(shape) * 40).astype(dtype) for shape in shapes)
    for product in (lambda x, y: x @ y, lambda x, y: y.swapaxes(-1, -2) @ x.swapaxes(-1, -2)):
        got, want = on_cuda(product, a, b), product(a, b)
        assert got.dtype == want.dtype and got.shape == want.shape
        if dtype[0] in "fc":
            rtol = 1e-5 if dtype in ("float32", "complex64") else 1e-12
            np.testing.assert_allclose(got, want, rtol=rtol)
        else:
            np.testing.assert_array_equal(got, want)
