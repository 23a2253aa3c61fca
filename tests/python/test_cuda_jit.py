"""CUDA kernels written in Python (tessera.cuda.jit), run on the CUDA device (the simulator
in `make test`). The oracle is Numba: each kernel here also runs through numba.cuda.jit on
Numba's CUDA simulator (NUMBA_ENABLE_CUDASIM), from the same Python function, and the
results are compared; what Numba's simulator lacks (warp intrinsics, bit operations) is
checked against the CUDA semantics computed with NumPy. Every kernel tessera compiles here
is also compiled by NVRTC (the simulator's modules are checked by it), and a sample is
assembled by ptxas for sm_80 and sm_90."""

import math
import os
import types
import warnings

import numpy as np
import pytest

import tessera as tp
from tessera import cuda
from tessera.jit import TypingError
from tessera.jit.cuda_dispatcher import CUDADispatcher
from tessera.jit.types import ArrayType

pytestmark = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA device or simulator")

needs_toolkit = pytest.mark.skipif(
    not (tp._core._cuda.nvrtc_available() and tp._core._cuda.ptxas_available()),
    reason="NVRTC or ptxas not installed")


def numba_cuda():
    """Numba's CUDA target on its simulator (imported once, with the simulator on)."""
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
    numba = pytest.importorskip("numba")
    numba.config.reload_config()
    from numba import cuda as numba_cuda_module  # noqa: PLC0415
    if not numba.config.ENABLE_CUDASIM:
        pytest.skip("numba.cuda was imported without its simulator")
    return numba_cuda_module


def numba_twin(dispatcher):
    """The same Python function compiled by numba.cuda.jit: `cuda` in its globals is
    Numba's module, and the device functions it calls are their Numba twins."""
    nc = numba_cuda()
    f = dispatcher.py_func
    names = dict(f.__globals__)
    names["cuda"] = nc
    for name in f.__code__.co_names:
        if isinstance(names.get(name), CUDADispatcher):
            names[name] = numba_twin(names[name])
    clone = types.FunctionType(f.__code__, names, f.__name__, f.__defaults__, f.__closure__)
    return nc.jit(device=dispatcher.device)(clone)


def both(kernel, config, *arrays):
    """Runs `kernel[config]` on copies of the NumPy `arrays` through tessera (as device
    arrays) and through Numba; returns the two lists of results."""
    ours = [cuda.to_device(a) for a in arrays]
    kernel[config](*ours)
    theirs = [a.copy() for a in arrays]
    numba_twin(kernel)[config](*theirs)
    return [a.copy_to_host() for a in ours], theirs


# --- Numba's documented examples --------------------------------------------------------------

@cuda.jit
def increment_by_one(an_array):
    pos = cuda.grid(1)
    if pos < an_array.size:
        an_array[pos] += 1


@cuda.jit
def increment_a_2D_array(an_array):  # noqa: N802 (Numba's name)
    x, y = cuda.grid(2)
    if x < an_array.shape[0] and y < an_array.shape[1]:
        an_array[x, y] += 1


@cuda.jit
def matmul(A, B, C):  # noqa: N803
    """Naive matrix multiplication, C = A @ B."""
    i, j = cuda.grid(2)
    if i < C.shape[0] and j < C.shape[1]:
        tmp = 0.
        for k in range(A.shape[1]):
            tmp += A[i, k] * B[k, j]
        C[i, j] = tmp


TPB = 16


@cuda.jit
def fast_matmul(A, B, C):  # noqa: N803
    """Matrix multiplication in tiles staged through shared memory."""
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=np.float32)  # noqa: N806
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=np.float32)  # noqa: N806
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x
    tmp = np.float32(0.)
    for i in range(bpg):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


NELEM = 64


@cuda.jit
def array_sum(data):
    """Numba's shared-memory block reduction: the sum lands in data[0]."""
    tid = cuda.threadIdx.x
    size = len(data)
    if tid < size:
        i = cuda.grid(1)
        shr = cuda.shared.array(NELEM, np.int32)
        shr[tid] = data[i]
        cuda.syncthreads()
        s = 1
        while s < cuda.blockDim.x:
            if tid % (2 * s) == 0:
                shr[tid] += shr[tid + s]
            s *= 2
            cuda.syncthreads()
        if tid == 0:
            data[tid] = shr[tid]


RSQRT2PI = 0.39894228040143267793994605993438
A1, A2, A3, A4, A5 = 0.31938153, -0.356563782, 1.781477937, -1.821255978, 1.330274429


@cuda.jit(device=True)
def cnd_cuda(d):
    K = 1.0 / (1.0 + 0.2316419 * math.fabs(d))  # noqa: N806
    ret_val = (RSQRT2PI * math.exp(-0.5 * d * d) *
               (K * (A1 + K * (A2 + K * (A3 + K * (A4 + K * A5))))))
    if d > 0:
        ret_val = 1.0 - ret_val
    return ret_val


@cuda.jit
def black_scholes_cuda(callResult, putResult, S, X, T, R, V):  # noqa: N803
    i = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
    if i >= S.shape[0]:
        return
    sqrtT = math.sqrt(T[i])  # noqa: N806
    d1 = (math.log(S[i] / X[i]) + (R + 0.5 * V * V) * T[i]) / (V * sqrtT)
    d2 = d1 - V * sqrtT
    cndd1 = cnd_cuda(d1)
    cndd2 = cnd_cuda(d2)
    expRT = math.exp((-1. * R) * T[i])  # noqa: N806
    callResult[i] = (S[i] * cndd1 - X[i] * expRT * cndd2)
    putResult[i] = (X[i] * expRT * (1.0 - cndd2) - S[i] * (1.0 - cndd1))


@cuda.jit(device=True)
def mandel(x, y, max_iters):
    c = complex(x, y)
    z = 0.0j
    for i in range(max_iters):
        z = z * z + c
        if (z.real * z.real + z.imag * z.imag) >= 4:
            return i
    return max_iters


@cuda.jit
def create_fractal(min_x, max_x, min_y, max_y, image, iters):
    height = image.shape[0]
    width = image.shape[1]
    pixel_size_x = (max_x - min_x) / width
    pixel_size_y = (max_y - min_y) / height
    x, y = cuda.grid(2)
    if x < width and y < height:
        real = min_x + x * pixel_size_x
        imag = min_y + y * pixel_size_y
        image[y, x] = mandel(real, imag, iters)


def test_increment_by_one():
    a = np.arange(100, dtype=np.float64)
    ours, theirs = both(increment_by_one, (4, 32), a)
    np.testing.assert_array_equal(ours[0], theirs[0])
    np.testing.assert_array_equal(ours[0], a + 1)


@cuda.jit(device=True)
def fib_device(n):
    if n < 2:
        return n
    return fib_device(n - 1) + fib_device(n - 2)


@cuda.jit
def fib_of_each_thread(out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = fib_device(i)


def test_recursive_device_function():
    """A device function calling itself (CUDA runs it on each thread's stack), typed from
    its other return, as Numba's."""
    out = cuda.device_array(20, np.int64)
    fib_of_each_thread[1, 32](out)
    fib = [0, 1]
    while len(fib) < 20:
        fib.append(fib[-1] + fib[-2])
    np.testing.assert_array_equal(out.copy_to_host(), fib)


@cuda.jit
def increment_through_module_chains(a):
    """cuda reached through the modules that hold it, as Numba allows `numba.cuda.grid`."""
    i = tp.cuda.grid(1)
    if i < a.size:
        a[i] += tp.cuda.threadIdx.x + tp.cuda.blockDim.x * 0 + 1


def test_cuda_reached_through_module_attributes():
    a = cuda.to_device(np.zeros(70, dtype=np.int64))
    increment_through_module_chains[3, 32](a)
    np.testing.assert_array_equal(a.copy_to_host(), np.arange(70) % 32 + 1)


def test_numba_cuda_reached_through_the_numba_module():
    numba = pytest.importorskip("numba")
    numba_cuda()

    def kernel(a):
        i = numba.cuda.grid(1)
        if i < a.size:
            a[i] = i * 2

    a = cuda.device_array(10, np.int64)
    cuda.jit(kernel)[1, 16](a)
    np.testing.assert_array_equal(a.copy_to_host(), np.arange(10) * 2)


def test_a_module_chain_that_reaches_no_cuda_name_is_refused():
    def kernel(a):
        a[0] = tp.linalg.norm(a)

    with pytest.raises(TypingError, match="not supported"):
        cuda.jit(kernel)[1, 1](cuda.device_array(3))


def test_increment_2d_with_a_host_array_copies_back_and_warns():
    a = np.arange(30, dtype=np.int64).reshape(5, 6)
    host = a.copy()
    with pytest.warns(cuda.NumbaPerformanceWarning, match="copy overhead"):
        increment_a_2D_array[(2, 2), (4, 4)](host)
    np.testing.assert_array_equal(host, a + 1)
    ours, theirs = both(increment_a_2D_array, ((2, 2), (4, 4)), a)
    np.testing.assert_array_equal(ours[0], theirs[0])


def test_naive_matmul():
    rng = np.random.default_rng(1)
    A, B = rng.random((9, 7)), rng.random((7, 11))  # noqa: N806
    ours, theirs = both(matmul, ((3, 3), (4, 4)), A, B, np.zeros((9, 11)))
    np.testing.assert_array_equal(ours[2], theirs[2])
    np.testing.assert_allclose(ours[2], A @ B, rtol=1e-13)


def test_shared_memory_matmul():
    rng = np.random.default_rng(2)
    n = 20
    A = rng.random((n, n), dtype=np.float32)  # noqa: N806
    B = rng.random((n, n), dtype=np.float32)  # noqa: N806
    blocks = (n + TPB - 1) // TPB
    ours, theirs = both(fast_matmul, ((blocks, blocks), (TPB, TPB)), A, B,
                        np.zeros((n, n), np.float32))
    assert ours[2].dtype == np.float32
    np.testing.assert_array_equal(ours[2], theirs[2])
    np.testing.assert_allclose(ours[2], A @ B, rtol=1e-5)


def test_shared_memory_reduction():
    data = np.arange(NELEM, dtype=np.int32)
    ours, theirs = both(array_sum, (1, NELEM), data)
    assert ours[0][0] == theirs[0][0] == data.sum()


def test_black_scholes_with_a_device_function():
    rng = np.random.default_rng(3)
    n = 100
    S = rng.uniform(5.0, 30.0, n)  # noqa: N806
    X = rng.uniform(1.0, 100.0, n)  # noqa: N806
    T = rng.uniform(0.25, 10.0, n)  # noqa: N806
    call, put = cuda.device_array(n), cuda.device_array(n)
    black_scholes_cuda[4, 32](call, put, cuda.to_device(S), cuda.to_device(X),
                              cuda.to_device(T), 0.02, 0.30)
    expected_call, expected_put = np.zeros(n), np.zeros(n)
    numba_twin(black_scholes_cuda)[4, 32](expected_call, expected_put, S, X, T, 0.02, 0.30)
    np.testing.assert_allclose(call.copy_to_host(), expected_call, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(put.copy_to_host(), expected_put, rtol=1e-12, atol=1e-12)


def test_mandelbrot_device_function_returning_early():
    image = np.zeros((24, 36), dtype=np.uint8)
    ours = cuda.to_device(image)
    create_fractal[(3, 2), (16, 16)](-2.0, 1.0, -1.0, 1.0, ours, 20)
    theirs = image.copy()
    numba_twin(create_fractal)[(3, 2), (16, 16)](-2.0, 1.0, -1.0, 1.0, theirs, 20)
    np.testing.assert_array_equal(ours.copy_to_host(), theirs)
    assert len(np.unique(theirs)) > 5


# --- atomics ----------------------------------------------------------------------------------

@cuda.jit
def arithmetic_atomics(added, subtracted, maxed, mined, nanmaxed, nanmined, values, old):
    i = cuda.grid(1)
    if i < values.size:
        k = i % added.size
        old[i] = cuda.atomic.add(added, k, values[i])
        cuda.atomic.sub(subtracted, k, values[i])
        cuda.atomic.max(maxed, k, values[i])
        cuda.atomic.min(mined, k, values[i])
        cuda.atomic.nanmax(nanmaxed, k, values[i])
        cuda.atomic.nanmin(nanmined, k, values[i])


@cuda.jit
def bitwise_atomics(anded, ored, xored, exchanged, swapped, values, old):
    i = cuda.grid(1)
    if i < values.size:
        k = i % anded.size
        cuda.atomic.and_(anded, k, values[i])
        cuda.atomic.or_(ored, k, values[i])
        cuda.atomic.xor(xored, k, values[i])
        cuda.atomic.exch(exchanged, k, values[i])
        # Each slot of `swapped` starts at 0: exactly one thread per slot swaps it.
        old[i] = cuda.atomic.cas(swapped, k, 0, values[i])


@cuda.jit
def counting_atomics(incremented, decremented, limit):
    i = cuda.grid(1)
    if i < 200:
        cuda.atomic.inc(incremented, i % 2, limit)
        cuda.atomic.dec(decremented, i % 2, limit)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "uint32", "int64", "uint64"])
def test_arithmetic_atomics_on_every_type(dtype):
    n, slots = 96, 4
    values = (np.arange(n) % 7 + 1).astype(dtype)
    floating = np.dtype(dtype).kind == "f"
    if floating:
        values[5] = np.nan  # max/min ignore a NaN operand; so do nanmax/nanmin
    start = np.full(slots, 1000, dtype=dtype)
    with_nan = start.copy()
    if floating:
        with_nan[1] = np.nan  # max/min keep a NaN in memory; nanmax/nanmin replace it
    arrays = [start, start, with_nan, with_nan, with_nan, with_nan, values, np.zeros(n, dtype)]
    ours, theirs = both(arithmetic_atomics, (3, 32), *arrays)
    for o, t in zip(ours[:6], theirs[:6]):
        assert o.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(o, t)
    if not floating:
        # The old values one slot returned chain its updates in some order: each old value
        # plus its operand is the next old value, or the final one.
        for k in range(slots):
            olds, operands = ours[7][k::slots].tolist(), values[k::slots].tolist()
            after = sorted(o + v for o, v in zip(olds, operands))
            assert sorted(olds)[1:] + [ours[0][k]] == after and min(olds) == start[k]


@pytest.mark.parametrize("dtype", ["int32", "uint32", "int64", "uint64"])
def test_bitwise_exchange_and_cas_atomics(dtype):
    n, slots = 64, 4
    values = (np.arange(n) * 2654435761 % 65536 + 1).astype(dtype)
    start = np.full(slots, 0x5A5A, dtype=dtype)
    arrays = [start, start, start, start, np.zeros(slots, dtype), values, np.zeros(n, dtype)]
    ours, _ = both(bitwise_atomics, (2, 32), *arrays)
    anded, ored, xored, exchanged, swapped, _, old = ours
    for k in range(slots):
        mine = values[k::slots]
        assert anded[k] == np.bitwise_and.reduce(np.append(mine, start[k]))
        assert ored[k] == np.bitwise_or.reduce(np.append(mine, start[k]))
        assert xored[k] == np.bitwise_xor.reduce(np.append(mine, start[k]))
        assert exchanged[k] in mine
        winners = mine[old[k::slots] == 0]
        assert len(winners) == 1 and swapped[k] == winners[0]
        assert set(old[k::slots][old[k::slots] != 0].tolist()) == {int(winners[0])}


@pytest.mark.parametrize("dtype", ["uint32", "uint64"])
def test_inc_and_dec_atomics_wrap_at_the_limit(dtype):
    incremented = cuda.to_device(np.array([0, 5], dtype))
    decremented = cuda.to_device(np.array([0, 5], dtype))
    counting_atomics[1, 256](incremented, decremented, np.dtype(dtype).type(9))
    # 100 updates each: inc counts 0..9 and wraps to 0; dec counts down to 0, then to 9.
    np.testing.assert_array_equal(incremented.copy_to_host(), [100 % 10, (5 + 100) % 10])
    np.testing.assert_array_equal(decremented.copy_to_host(), [(0 - 100) % 10, (5 - 100) % 10])


@cuda.jit
def compare_and_swap_first(flag, out):
    i = cuda.grid(1)
    out[i] = cuda.atomic.compare_and_swap(flag, 0, i + 1)


def test_compare_and_swap_lets_one_thread_win():
    flag, out = cuda.to_device(np.zeros(1, np.int32)), cuda.device_array(64, np.int32)
    compare_and_swap_first[2, 32](flag, out)
    won = flag.copy_to_host()[0]
    old = out.copy_to_host()
    assert (old == 0).sum() == 1 and old.argmin() + 1 == won
    assert set(old[old != 0].tolist()) == {won}


# --- warps, bits, barriers --------------------------------------------------------------------

@cuda.jit
def warp_exchanges(x, out):
    i = cuda.grid(1)
    v = x[i]
    out[0, i] = cuda.shfl_sync(0xffffffff, v, 3)
    out[1, i] = cuda.shfl_up_sync(0xffffffff, v, 2)
    out[2, i] = cuda.shfl_down_sync(0xffffffff, v, 5)
    out[3, i] = cuda.shfl_xor_sync(0xffffffff, v, 1)
    out[4, i] = cuda.match_any_sync(0xffffffff, v)


@cuda.jit
def warp_votes(x, out):
    i = cuda.grid(1)
    v = x[i]
    out[0, i] = cuda.all_sync(0xffffffff, v > 0)
    out[1, i] = cuda.any_sync(0xffffffff, v > 60)
    out[2, i] = cuda.eq_sync(0xffffffff, v < 32)
    out[3, i] = cuda.ballot_sync(0xffffffff, v % 3 == 0)
    mask, same = cuda.match_all_sync(0xffffffff, v // 32)
    out[4, i] = mask
    out[5, i] = same
    out[6, i] = cuda.laneid
    out[7, i] = cuda.activemask()
    out[8, i] = cuda.lanemask_lt()
    out[9, i] = cuda.warpsize


def _int32_bits(mask):
    return int(np.array(mask, np.uint32).astype(np.int32))


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
def test_warp_shuffles_and_match(dtype):
    x = (np.arange(64) % 5).astype(dtype)
    out = cuda.device_array((5, 64), dtype)
    warp_exchanges[2, 32](cuda.to_device(x), out)
    got = out.copy_to_host()
    lane = np.arange(64) % 32
    base = np.arange(64) - lane
    np.testing.assert_array_equal(got[0], x[base + 3])
    np.testing.assert_array_equal(got[1], np.where(lane >= 2, x[np.arange(64) - 2], x))
    np.testing.assert_array_equal(got[2], np.where(lane + 5 < 32, x[np.minimum(np.arange(64) + 5, 63)], x))
    np.testing.assert_array_equal(got[3], x[np.arange(64) ^ 1])
    for i in range(64):
        warp = x[base[i]:base[i] + 32]
        mask = sum(1 << j for j in range(32) if warp[j] == x[i])
        assert got[4, i] == np.array(_int32_bits(mask)).astype(dtype)


def test_warp_votes_ballots_and_lanes():
    x = np.arange(64, dtype=np.int64)
    out = cuda.device_array((10, 64), np.int64)
    warp_votes[1, 64](cuda.to_device(x), out)
    got = out.copy_to_host()
    for w in range(2):
        lanes = slice(32 * w, 32 * w + 32)
        v = x[lanes]
        assert (got[0, lanes] == int((v > 0).all())).all()
        assert (got[1, lanes] == int((v > 60).any())).all()
        assert (got[2, lanes] == int(len(set(v < 32)) == 1)).all()
        ballot = sum(1 << j for j in range(32) if v[j] % 3 == 0)
        assert (got[3, lanes] == _int32_bits(ballot)).all()
        assert (got[4, lanes] == _int32_bits(0xFFFFFFFF)).all() and (got[5, lanes] == 1).all()
    np.testing.assert_array_equal(got[6], np.arange(64) % 32)
    assert (got[7] == 0xFFFFFFFF).all()
    np.testing.assert_array_equal(got[8], (1 << (np.arange(64) % 32)) - 1)
    assert (got[9] == 32).all()


@cuda.jit
def bit_operations(x, counts, leading, first, reversed_bits):
    i = cuda.grid(1)
    if i < x.size:
        counts[i] = cuda.popc(x[i])
        leading[i] = cuda.clz(x[i])
        first[i] = cuda.ffs(x[i])
        reversed_bits[i] = cuda.brev(x[i])


@pytest.mark.parametrize("dtype", ["int8", "int32", "uint32", "int64", "uint64"])
def test_bit_operations(dtype):
    width = 8 * np.dtype(dtype).itemsize
    info = np.iinfo(dtype)
    x = np.array([0, 1, 2, 3, 96, info.max, info.min, 12345 % (info.max + 1)], dtype)
    reversed_dtype = np.uint64 if width == 64 else np.uint32
    outs = [cuda.device_array(8, dtype), cuda.device_array(8, dtype),
            cuda.device_array(8, np.uint32), cuda.device_array(8, reversed_dtype)]
    bit_operations[1, 8](cuda.to_device(x), *outs)
    counts, leading, first, reversed_bits = (o.copy_to_host() for o in outs)
    for k, v in enumerate(x.tolist()):
        bits = v & ((1 << width) - 1)
        assert counts[k] == bin(bits).count("1")
        assert leading[k] == width - bits.bit_length()
        assert first[k] == (bits & -bits).bit_length()
        rwidth = 64 if width == 64 else 32
        wide = v & ((1 << rwidth) - 1)
        assert int(reversed_bits[k]) == int(f"{wide:0{rwidth}b}"[::-1], 2)


@cuda.jit
def arithmetic_intrinsics(a, b, c, out):
    i = cuda.grid(1)
    if i < a.size:
        out[0, i] = cuda.fma(a[i], b[i], c[i])
        out[1, i] = cuda.cbrt(a[i])
        out[2, i] = cuda.selp(a[i] > b[i], a[i], b[i])


def test_fma_cbrt_selp():
    rng = np.random.default_rng(4)
    a, b, c = (rng.standard_normal(40) for _ in range(3))
    out = cuda.device_array((3, 40))
    arithmetic_intrinsics[1, 64](cuda.to_device(a), cuda.to_device(b), cuda.to_device(c), out)
    got = out.copy_to_host()
    np.testing.assert_allclose(got[0], a * b + c, rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(got[1], np.cbrt(a), rtol=1e-15)
    np.testing.assert_array_equal(got[2], np.maximum(a, b))


@cuda.jit
def barrier_votes(x, out):
    t = cuda.threadIdx.x
    out[0, t] = cuda.syncthreads_count(x[t] > 10)
    out[1, t] = cuda.syncthreads_and(x[t] >= 0)
    out[2, t] = cuda.syncthreads_or(x[t] > 100)


def test_barrier_counts_and_votes():
    x = np.arange(48, dtype=np.int32)
    out = cuda.device_array((3, 48), np.int32)
    barrier_votes[1, 48](cuda.to_device(x), out)
    ours = out.copy_to_host()
    theirs = np.zeros((3, 48), np.int32)
    numba_twin(barrier_votes)[1, 48](x, theirs)
    assert (ours[0] == 37).all() and (ours[1] == 1).all() and (ours[2] == 0).all()
    np.testing.assert_array_equal(ours != 0, theirs != 0)


# --- shared, dynamic and local memory ---------------------------------------------------------

@cuda.jit
def reverse_blocks(x, out):
    s = cuda.shared.array(0, dtype=np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    s[t] = x[i]
    cuda.syncthreads()
    out[i] = s[s.shape[0] - 1 - t]


@cuda.jit
def sort_fours(x, out):
    i = cuda.grid(1)
    scratch = cuda.local.array(4, dtype=np.int64)
    for k in range(4):
        scratch[k] = x[4 * i + k]
    for a in range(4):
        for b in range(3 - a):
            if scratch[b] > scratch[b + 1]:
                scratch[b], scratch[b + 1] = scratch[b + 1], scratch[b]
    for k in range(4):
        out[4 * i + k] = scratch[k]


def test_dynamic_shared_memory_has_the_launch_size():
    x = np.arange(128.0)
    out = cuda.device_array(128)
    stream = cuda.stream()
    reverse_blocks[4, 32, stream, 32 * 8](cuda.to_device(x), out)
    stream.synchronize()
    np.testing.assert_array_equal(out.copy_to_host(), x.reshape(4, 32)[:, ::-1].ravel())


def test_local_arrays_are_per_thread():
    x = np.random.default_rng(5).integers(-50, 50, 128)
    out = cuda.device_array(128, np.int64)
    sort_fours[1, 32](cuda.to_device(x), out)
    np.testing.assert_array_equal(out.copy_to_host(), np.sort(x.reshape(32, 4), axis=1).ravel())


@cuda.jit
def fill_rows(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i, 1:] = i * 0.5
        a[i][:1] = -1


def test_numbers_assigned_to_slices_in_kernels():
    ours, theirs = both(fill_rows, (2, 4), np.zeros((7, 3)))
    np.testing.assert_array_equal(ours[0], theirs[0])


def test_arrays_assigned_to_slices_in_kernels_are_refused():
    @cuda.jit
    def copy_rows(a, b):
        a[1:] = b

    with pytest.raises(TypingError, match="not supported in CUDA kernels yet"):
        copy_rows[1, 1](cuda.device_array(3), cuda.device_array(2))


# --- cooperative groups: grid synchronization --------------------------------------------------

@cuda.jit
def sequential_rows(M):
    # Numba's documented example: each row from the previous one, read reversed, so every
    # row needs every block's part of the row before it.
    col = cuda.grid(1)
    g = cuda.cg.this_grid()
    rows = M.shape[0]
    cols = M.shape[1]
    for row in range(1, rows):
        opposite = cols - col - 1
        M[row, col] = M[row - 1, opposite] + 1
        g.sync()


def _sequential_rows_numpy(m):
    for row in range(1, m.shape[0]):
        m[row] = m[row - 1][::-1] + 1
    return m


def test_grid_sync_orders_the_blocks_of_a_cooperative_launch():
    start = np.arange(512, dtype=np.int32) % 7
    m = np.zeros((128, 512), dtype=np.int32)
    m[0] = start
    ours = cuda.to_device(m)
    sequential_rows[4, 128](ours)
    np.testing.assert_array_equal(ours.copy_to_host(), _sequential_rows_numpy(m.copy()))
    most = sequential_rows.max_cooperative_grid_blocks(128)
    assert most >= 4
    assert most == sequential_rows.max_cooperative_grid_blocks((128, 1, 1))
    # Directly synchronized, with a 2-d grid of blocks.
    @cuda.jit
    def ping_pong(a):
        i = cuda.grid(1) + cuda.blockIdx.y * cuda.gridDim.x * cuda.blockDim.x
        for step in range(8):
            value = a[a.shape[0] - 1 - i] + step
            cuda.cg.this_grid().sync()  # every read of this step before any write
            a[i] = value
            cuda.cg.this_grid().sync()

    x = np.arange(256.0)
    want = x.copy()
    for step in range(8):
        want = want[::-1] + step
    got = cuda.to_device(x)
    ping_pong[(2, 2), 64](got)
    np.testing.assert_array_equal(got.copy_to_host(), want)


@cuda.jit
def solve_heat_equation(buf_0, buf_1, timesteps, k):
    # Numba's documented 1-d heat equation, as written there: threads past the end of the
    # domain return before the grid synchronizes (they take no part, as on a GPU).
    i = cuda.grid(1)
    if i >= len(buf_0):
        return
    grid = cuda.cg.this_grid()
    for step in range(timesteps):
        if (step % 2) == 0:
            data = buf_0
            next_data = buf_1
        else:
            data = buf_1
            next_data = buf_0
        curr_temp = data[i]
        if i == 0:
            next_temp = curr_temp + k * (data[i + 1] - (2 * curr_temp))
        elif i == len(data) - 1:
            next_temp = curr_temp + k * (data[i - 1] - (2 * curr_temp))
        else:
            next_temp = curr_temp + k * (data[i - 1] - (2 * curr_temp) + data[i + 1])
        next_data[i] = next_temp
        grid.sync()


def test_numbas_heat_equation_example():
    size, niter, k = 1001, 200, 0.25
    data = np.zeros(size)
    data[500] = 10000
    buf_0 = cuda.to_device(data)
    buf_1 = cuda.device_array_like(buf_0)
    solve_heat_equation.forall(len(data))(buf_0, buf_1, niter, k)
    want = data.copy()
    for _ in range(niter):
        nxt = want.copy()
        nxt[0] = want[0] + k * (want[1] - 2 * want[0])
        nxt[-1] = want[-1] + k * (want[-2] - 2 * want[-1])
        nxt[1:-1] = want[1:-1] + k * (want[:-2] - 2 * want[1:-1] + want[2:])
        want = nxt
    np.testing.assert_allclose(buf_0.copy_to_host(), want, rtol=1e-12, atol=1e-9)


def test_cooperative_launch_errors():
    d = cuda.to_device(np.zeros((2, 64), dtype=np.int32))
    sequential_rows[1, 64](d)
    too_many = sequential_rows.max_cooperative_grid_blocks(64) + 1
    with pytest.raises(tp.cuda.CUDARuntimeError, match="COOPERATIVE_LAUNCH_TOO_LARGE"):
        sequential_rows[too_many, 64](cuda.to_device(np.zeros((2, 64 * too_many), np.int32)))
    with pytest.raises(TypingError, match="this_grid"):
        @cuda.jit
        def loose(a):
            a[0] = cuda.cg.this_grid()

        loose[1, 1](cuda.device_array(1))
    with pytest.raises(RuntimeError, match="inside a kernel"):
        cuda.cg.this_grid()


@pytest.mark.skipif(not tp.cuda.runtime.is_simulated(),
                    reason="a grid.sync() some blocks never reach hangs a GPU; the simulator reports it")
def test_grid_sync_not_reached_by_every_block_is_reported():
    @cuda.jit
    def uneven(a):
        g = cuda.cg.this_grid()
        if cuda.blockIdx.x == 0:
            return
        g.sync()
        a[0] = 1

    with pytest.raises(tp.cuda.CUDARuntimeError, match=r"grid.sync\(\) reached by \d of 3 blocks"):
        uneven[3, 32](cuda.device_array(1))
        cuda.synchronize()

    @cuda.jit
    def split_barriers(a):
        if cuda.threadIdx.x == 5:
            cuda.syncthreads()
        else:
            cuda.cg.this_grid().sync()

    with pytest.raises(tp.cuda.CUDARuntimeError,
                       match=r"grid.sync\(\) in block \(\d,0,0\).*not by \(5,0,0\), which wait at __syncthreads"):
        split_barriers[2, 32](cuda.device_array(1))
        cuda.synchronize()


# --- cuda.fp16: half-precision arithmetic (the oracle: NumPy's float16, each result rounded
# once from float; Numba's simulator rounds hfloor up) ----------------------------------------

@cuda.jit
def half_ops(a, b, c, out, flags):
    i = cuda.grid(1)
    if i < a.shape[0]:
        x = a[i]
        y = b[i]
        out[i, 0] = cuda.fp16.hadd(x, y)
        out[i, 1] = cuda.fp16.hsub(x, y)
        out[i, 2] = cuda.fp16.hmul(x, y)
        out[i, 3] = cuda.fp16.hdiv(x, y)
        out[i, 4] = cuda.fp16.hfma(x, y, c[i])
        out[i, 5] = cuda.fp16.hneg(x)
        out[i, 6] = cuda.fp16.habs(x)
        out[i, 7] = cuda.fp16.hsin(x)
        out[i, 8] = cuda.fp16.hcos(x)
        out[i, 9] = cuda.fp16.hexp(x)
        out[i, 10] = cuda.fp16.hsqrt(cuda.fp16.habs(x))
        out[i, 11] = cuda.fp16.hfloor(x)
        out[i, 12] = cuda.fp16.hceil(x)
        out[i, 13] = cuda.fp16.hrint(x)
        out[i, 14] = cuda.fp16.htrunc(x)
        out[i, 15] = cuda.fp16.hrcp(y)
        out[i, 16] = cuda.fp16.hmax(x, y)
        out[i, 17] = cuda.fp16.hmin(x, y)
        out[i, 18] = cuda.fp16.hlog(cuda.fp16.habs(x))
        out[i, 19] = cuda.fp16.hexp2(x)
        out[i, 20] = cuda.fp16.hexp10(x)
        out[i, 21] = cuda.fp16.hrsqrt(cuda.fp16.habs(y))
        out[i, 22] = cuda.fp16.hlog2(cuda.fp16.habs(x))
        out[i, 23] = cuda.fp16.hlog10(cuda.fp16.habs(x))
        flags[i, 0] = cuda.fp16.heq(x, y)
        flags[i, 1] = cuda.fp16.hne(x, y)
        flags[i, 2] = cuda.fp16.hlt(x, y)
        flags[i, 3] = cuda.fp16.hle(x, y)
        flags[i, 4] = cuda.fp16.hgt(x, y)
        flags[i, 5] = cuda.fp16.hge(x, y)


def test_fp16_functions_round_as_numpy_float16():
    rng = np.random.default_rng(0)
    a = (rng.standard_normal(300) * 3).astype(np.float16)
    b = (rng.standard_normal(300) * 3).astype(np.float16)
    c = rng.standard_normal(300).astype(np.float16)
    b[:5] = a[:5]
    a[5], b[6], a[7], b[8] = np.nan, np.nan, np.inf, 0
    out = cuda.device_array((300, 24), np.float16)
    flags = cuda.device_array((300, 6), np.bool_)
    half_ops[2, 256](cuda.to_device(a), cuda.to_device(b), cuda.to_device(c), out, flags)
    f32 = lambda v: v.astype(np.float32)  # noqa: E731
    with np.errstate(all="ignore"):
        want = [a + b, a - b, a * b, a / b,
                (f32(a).astype(np.float64) * f32(b) + f32(c)).astype(np.float16),
                -a, np.abs(a), np.sin(a), np.cos(a), np.exp(a), np.sqrt(np.abs(a)), np.floor(a),
                np.ceil(a), np.rint(a), np.trunc(a), np.reciprocal(b), np.fmax(a, b),
                np.fmin(a, b), np.log(np.abs(a)), np.exp2(a),
                (np.float32(10) ** f32(a)).astype(np.float16),
                (1 / np.sqrt(f32(np.abs(b)))).astype(np.float16), np.log2(np.abs(a)),
                np.log10(np.abs(a))]
    got = out.copy_to_host()
    assert got.dtype == np.float16
    for k, column in enumerate(want):
        np.testing.assert_array_equal(got[:, k], column, err_msg=f"column {k}")
    np.testing.assert_array_equal(flags.copy_to_host(),
                                  np.stack([a == b, a != b, a < b, a <= b, a > b, a >= b], axis=1))


def test_fp16_functions_take_float16_only():
    @cuda.jit
    def widened(a):
        a[0] = cuda.fp16.hadd(a[0], 1.0)

    with pytest.raises(TypingError, match=r"cuda.fp16.hadd takes float16 values, not float64"):
        widened[1, 1](cuda.device_array(1, np.float16))

    @cuda.jit
    def short(a):
        a[0] = cuda.fp16.hfma(a[0], a[0])

    with pytest.raises(TypingError, match="cuda.fp16.hfma takes 3 arguments, 2 given"):
        short[1, 1](cuda.device_array(1, np.float16))


# --- device functions written in CUDA C++: declare_device and link= ---------------------------

FOREIGN_CU = """
// Numba's ABI: the result through a pointer, a status returned (Numba's documented example).
extern "C" __device__ int mul(float* return_value, float x, float y) {
  *return_value = x * y;
  return 0;
}
// The C ABI.
extern "C" __device__ double hypot3(double x, double y, double z) {
  return sqrt(x * x + y * y + z * z);
}
extern "C" __device__ int clamp_index(long long* out, long long i, long long n) {
  *out = i < 0 ? 0 : (i >= n ? n - 1 : i);
  return 0;
}
"""

mul = cuda.declare_device("mul", "float32(float32, float32)")
hypot3 = cuda.declare_device("hypot3", "float64(float64, float64, float64)", abi="c")


def _foreign_file(tmp_path):
    path = tmp_path / "functions.cu"
    path.write_text(FOREIGN_CU)
    return str(path)


def _multiply_vectors(r, x, y):
    i = cuda.grid(1)
    if i < len(r):
        r[i] = mul(x[i], y[i]) + hypot3(x[i], y[i], 2)


def test_device_functions_written_in_cuda_cpp(tmp_path):
    kernel = cuda.jit(link=[_foreign_file(tmp_path)])(_multiply_vectors)
    rng = np.random.default_rng(1)
    x, y = rng.random(40).astype(np.float32), rng.random(40).astype(np.float32)
    r = cuda.device_array(40, np.float32)
    kernel[1, 64](r, cuda.to_device(x), cuda.to_device(y))
    wide = np.sqrt(x.astype(np.float64) ** 2 + y.astype(np.float64) ** 2 + 4)
    np.testing.assert_allclose(r.copy_to_host(), x * y + wide.astype(np.float32), rtol=1e-6)
    # The file named by the declaration instead of the kernel; integer arguments converted
    # to the declared types.
    clamp = cuda.declare_device("clamp_index", "int64(int64, int64)", link=[_foreign_file(tmp_path)])

    @cuda.jit
    def gather_clamped(out, a, offset):
        i = cuda.grid(1)
        if i < out.shape[0]:
            out[i] = a[clamp(i + offset, a.shape[0])]

    a = np.arange(10.0)
    out = cuda.device_array(10)
    gather_clamped[1, 32](out, cuda.to_device(a), np.int32(-3))
    np.testing.assert_array_equal(out.copy_to_host(), a[np.clip(np.arange(10) - 3, 0, 9)])


@needs_toolkit
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_linked_cuda_cpp_compiles_with_nvrtc_and_ptxas(tmp_path, arch):
    kernel = cuda.jit(link=[_foreign_file(tmp_path)])(_multiply_vectors)
    source = kernel.inspect_cuda(np.zeros(4, np.float32), np.zeros(4, np.float32),
                                 np.zeros(4, np.float32))
    ptx, _ = tp._core._cuda.nvrtc_compile(source, tp._core._cuda.generated_kernel_options(), [], arch)
    assert len(tp._core._cuda.ptxas_assemble(ptx, arch)) > 0


def test_declared_device_function_errors(tmp_path):
    with pytest.raises(TypeError, match="complex128 values are not supported"):
        cuda.declare_device("f", "complex128(float64)")
    with pytest.raises(ValueError, match="abi must be 'numba' or 'c'"):
        cuda.declare_device("f", "float64(float64)", abi="cpp")
    with pytest.raises(RuntimeError, match="call it from a kernel"):
        mul(1.0, 2.0)

    @cuda.jit(link=[_foreign_file(tmp_path)])
    def wrong_count(r):
        r[0] = mul(r[0])

    with pytest.raises(TypingError, match=r"mul\(\) is declared with 2 arguments, 1 given"):
        wrong_count[1, 1](cuda.device_array(1, np.float32))

    ptx = tmp_path / "functions.ptx"
    ptx.write_text("// not source")
    with pytest.raises(NotImplementedError, match="only CUDA C\\+\\+ source"):
        cuda.jit(link=[str(ptx)])(_multiply_vectors)[1, 1](
            *(cuda.device_array(1, np.float32) for _ in range(3)))
    with pytest.raises(FileNotFoundError, match="cannot read link file"):
        cuda.jit(link=[str(tmp_path / "absent.cu")])(_multiply_vectors)[1, 1](
            *(cuda.device_array(1, np.float32) for _ in range(3)))

    def host_caller(x):
        return mul(x, x)

    with pytest.raises(TypingError, match="only in CUDA kernels"):
        tp.jit(host_caller)(1.0)


WEIGHTS = np.array([[0.25, 0.5, 0.25], [1.0, -np.inf, 2.0]])


@cuda.jit
def weighted(x, out):
    w = cuda.const.array_like(WEIGHTS)
    i = cuda.grid(1)
    if i < x.size:
        out[i] = x[i] * w[i % 2, i % 3]


def test_const_array_like_freezes_a_global_array():
    x = np.arange(1.0, 13.0)
    ours, theirs = both(weighted, (1, 16), x, np.zeros(12))
    np.testing.assert_array_equal(ours[1], theirs[1])
    assert np.isneginf(ours[1][1])


@cuda.jit(fastmath=True)
def fast_divide(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] / b[i] + math.sqrt(a[i])


def test_fastmath_compiles_with_fast_division():
    a = np.linspace(1, 2, 10, dtype=np.float32)
    out = cuda.device_array(10, np.float32)
    fast_divide[1, 16](cuda.to_device(a), cuda.to_device(a + 1), out)
    np.testing.assert_allclose(out.copy_to_host(), a / (a + 1) + np.sqrt(a), rtol=1e-6)
    spec = fast_divide.specialization(fast_divide.signatures[0])
    assert "--use_fast_math" in spec.options and "--fmad=false" not in spec.options
    if tp._core._cuda.nvrtc_available():
        ptx, _ = tp._core._cuda.nvrtc_compile(spec.source, spec.options, [], "sm_80")
        assert "div.approx" in ptx or "div.full" in ptx
    with pytest.raises(TypeError, match="unexpected option"):
        cuda.jit(fastmat=True)


# --- arguments --------------------------------------------------------------------------------

@cuda.jit
def store_scalars(out, a, b, c, d):
    out[0] = a
    out[1] = b
    out[2] = c.real
    out[3] = c.imag
    out[4] = d


def test_scalar_arguments_of_each_kind():
    out = cuda.device_array(5)
    store_scalars[1, 1](out, 7, np.float32(2.5), 1.5 - 3j, True)
    np.testing.assert_array_equal(out.copy_to_host(), [7, 2.5, 1.5, -3, 1])
    store_scalars[1, 1](out, np.uint8(255), -2.0, np.complex64(4j), np.int16(-9))
    np.testing.assert_array_equal(out.copy_to_host(), [255, -2, 0, 4, -9])
    assert len(store_scalars.signatures) == 2


@cuda.jit
def double_in_place(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] *= 2


@cuda.jit
def transpose_into(a, out):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        out[j, i] = a[i, j]


def test_views_strided_reversed_and_fortran():
    base = cuda.to_device(np.arange(20.0))
    double_in_place[1, 32](base[::3])
    double_in_place[1, 32](base[::-2])
    expected = np.arange(20.0)
    expected[::3] *= 2
    expected[::-2] *= 2
    np.testing.assert_array_equal(base.copy_to_host(), expected)
    f = tp.asarray(np.asfortranarray(np.arange(12.0).reshape(3, 4)), device=base.device)
    out = cuda.device_array((4, 3))
    transpose_into[(1, 1), (4, 4)](f, out)
    np.testing.assert_array_equal(out.copy_to_host(), np.arange(12.0).reshape(3, 4).T)
    layouts = {types_[0].layout for types_ in double_in_place.signatures}
    assert layouts == {"A"}


@cuda.jit
def increment_scalar_array(a):
    a[()] += 1


def test_zero_dimensional_array():
    a = cuda.to_device(np.array(41.0))
    increment_scalar_array[1, 1](a)
    assert a.copy_to_host()[()] == 42.0


class _Interface:
    """Only __cuda_array_interface__, as another library's device array exposes it."""

    def __init__(self, a):
        self.keep = a
        self.__cuda_array_interface__ = {"shape": a.shape, "typestr": a.dtype.str, "version": 3,
                                         "data": (a.data_ptr, False), "strides": None}


def test_cuda_array_interface_arguments():
    a = cuda.to_device(np.arange(10, dtype=np.int32))
    increment_by_one[1, 32](_Interface(a))
    np.testing.assert_array_equal(a.copy_to_host(), np.arange(1, 11))


def test_mapped_arrays_are_written_by_kernels_directly():
    a = cuda.mapped_array(10, dtype=np.float64)
    a[:] = np.arange(10.0)
    increment_by_one[1, 32](a)  # no copy, no warning: the kernel reads and writes host memory
    cuda.synchronize()
    np.testing.assert_array_equal(a, np.arange(1.0, 11.0))
    np.testing.assert_array_equal(a.copy_to_host(), np.arange(1.0, 11.0))


def test_device_array_host_api():
    d = cuda.device_array((3, 4), np.float32)
    assert isinstance(d, tp.ndarray) and d.shape == (3, 4) and d.dtype == np.float32
    assert str(d.device).startswith("cuda")
    like = cuda.device_array_like(np.zeros((2, 5), order="F"))
    assert like.flags["F_CONTIGUOUS"] and like.shape == (2, 5)
    host = np.empty((3, 4), np.float32)
    cuda.to_device(np.ones((3, 4), np.float32), to=d)
    assert d.copy_to_host(host) is host and (host == 1).all()
    d.copy_to_device(np.full((3, 4), 2, np.float32))
    cuda.synchronize()
    assert (d.copy_to_host() == 2).all()
    assert cuda.detect()


# --- cuda.random ------------------------------------------------------------------------------

from tessera.cuda.random import (  # noqa: E402
    create_xoroshiro128p_states,
    xoroshiro128p_normal_float32,
    xoroshiro128p_normal_float64,
    xoroshiro128p_uniform_float32,
    xoroshiro128p_uniform_float64,
)


@cuda.jit
def draw_numbers(states, out):
    i = cuda.grid(1)
    if i < out.shape[1]:
        out[0, i] = xoroshiro128p_uniform_float32(states, i)
        out[1, i] = xoroshiro128p_uniform_float64(states, i)
        out[2, i] = xoroshiro128p_normal_float32(states, i)
        out[3, i] = xoroshiro128p_normal_float64(states, i)


@cuda.jit(device=True)
def square(x):
    return x ** 2


@cuda.jit
def mc_integrator_kernel(out, rng_states, lower_lim, upper_lim):
    """Numba's Monte Carlo integration example: one sample of square() per thread."""
    size = len(out)
    gid = cuda.grid(1)
    if gid < size:
        samp = xoroshiro128p_uniform_float32(rng_states, gid)
        samp = samp * (upper_lim - lower_lim) + lower_lim
        y = square(samp)
        out[gid] = y


def test_random_states_and_draws_match_numbas_bit_for_bit():
    numba_cuda()
    with warnings.catch_warnings():  # its decorators pass options Numba 0.59 deprecated
        warnings.simplefilter("ignore")
        import numba.cuda.random as numba_random  # noqa: PLC0415
    n = 50
    states = create_xoroshiro128p_states(n, seed=1234, subsequence_start=1)
    theirs = np.empty(n, dtype=numba_random.xoroshiro128p_dtype)
    # Numba's simulator runs its generators in Python: uint64 arithmetic that wraps (as it
    # should) and object-mode compilation, which it warns about.
    with np.errstate(over="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        numba_random.init_xoroshiro128p_states_cpu(theirs, 1234, 1)
    ours = states.copy_to_host()
    assert ours.shape == (n, 2) and ours.dtype == np.uint64
    np.testing.assert_array_equal(ours[:, 0], theirs["s0"])
    np.testing.assert_array_equal(ours[:, 1], theirs["s1"])
    out = cuda.device_array((4, n))
    draw_numbers[2, 32](states, out)
    got = out.copy_to_host()
    # Numba's draws, in its order, on the host (its simulator runs them in Python).
    with np.errstate(over="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        draws = [[f(theirs, i) for f in (numba_random.xoroshiro128p_uniform_float32,
                                         numba_random.xoroshiro128p_uniform_float64,
                                         numba_random.xoroshiro128p_normal_float32,
                                         numba_random.xoroshiro128p_normal_float64)]
                 for i in range(n)]
    expected = np.array(draws).T
    np.testing.assert_array_equal(got[:2], expected[:2])
    # Numba types math.log of a float32 as float32 (as tessera does); its simulator computes
    # it in float64, hence float32-level agreement for the normals.
    np.testing.assert_allclose(got[2:], expected[2:], rtol=2e-6, atol=2e-6)
    np.testing.assert_array_equal(states.copy_to_host()[:, 0] != ours[:, 0], True)


def test_monte_carlo_integration_example():
    n = 4096
    states = create_xoroshiro128p_states(n, seed=42)
    out = cuda.device_array(n, dtype=np.float32)
    mc_integrator_kernel[(n + 127) // 128, 128](out, states, 0.0, 1.0)
    samples = out.copy_to_host()
    assert samples.dtype == np.float32
    assert abs(samples.mean() - 1 / 3) < 0.02  # the integral of x**2 over [0, 1]


# --- errors -----------------------------------------------------------------------------------

@cuda.jit
def returns_a_value(a):
    return 1


@cuda.jit
def allocates(a):
    b = np.empty(3)
    a[0] = b[0]


@cuda.jit
def four_dimensional_grid(a):
    a[0] = cuda.grid(4)


@cuda.jit
def float_bitwise_atomic(a):
    cuda.atomic.and_(a, 0, 1)


@cuda.jit
def variable_shared_shape(a):
    s = cuda.shared.array(a.shape[0], np.float64)
    s[0] = 1


@cuda.jit
def too_much_shared(a):
    s = cuda.shared.array((100, 100), np.float64)
    s[0, 0] = a[0]


@cuda.jit
def divergent_barrier(a):
    if cuda.threadIdx.x < 16:
        cuda.syncthreads()
    a[0] = 1


def test_barrier_divergence_is_reported():
    if not cuda.runtime.is_simulated():
        pytest.skip("a GPU hangs or misbehaves on divergent barriers; the simulator names them")
    a = cuda.device_array(4)
    with pytest.raises(cuda.CUDARuntimeError, match=r"__syncthreads in block \(0,0,0\): reached by "
                                                     r"threads \(0,0,0\)..\(15,0,0\)"):
        divergent_barrier[1, 32](a)
        cuda.synchronize()
    b = cuda.to_device(np.zeros(4))
    increment_by_one[1, 4](b)  # the device goes on
    np.testing.assert_array_equal(b.copy_to_host(), np.ones(4))


def test_kernel_errors_name_the_kernel_and_the_construct():
    a = cuda.device_array(4)
    with pytest.raises(ValueError, match="launch configuration"):
        increment_by_one(a)
    with pytest.raises(TypeError, match="griddim must be a sequence of integers"):
        increment_by_one[1.5, 32](a)
    with pytest.raises(ValueError, match="blockdim must be a sequence of 1, 2 or 3"):
        increment_by_one[1, (1, 1, 1, 1)](a)
    with pytest.raises(TypingError, match="returns nothing"):
        returns_a_value[1, 1](a)
    with pytest.raises(TypingError, match="cuda.local.array"):
        allocates[1, 1](a)
    with pytest.raises(TypingError, match="must be 1, 2 or 3"):
        four_dimensional_grid[1, 1](a)
    with pytest.raises(TypingError, match=r"and_ takes arrays of int32.*not of float64"):
        float_bitwise_atomic[1, 1](a)
    with pytest.raises(TypingError, match="constant"):
        variable_shared_shape[1, 1](a)
    with pytest.raises(TypingError, match="takes 1 arguments, 2 given"):
        increment_by_one[1, 1](a, a)
    with pytest.raises(TypingError, match="80000 bytes of static shared memory"):
        too_much_shared[1, 1](a)
    with pytest.raises(TypeError, match="device function"):
        cnd_cuda(0.5)
    with pytest.raises(TypeError, match="device function"):
        cnd_cuda[1, 1]
    # The driver's error (the simulator adds the shape to it; a GPU's driver does not).
    with pytest.raises(cuda.CUDARuntimeError, match="CUDA_ERROR_INVALID_VALUE"):
        increment_by_one[1, 2048](a)
    with pytest.raises(RuntimeError, match="inside a kernel"):
        cuda.grid(1)


def test_host_jit_functions_cannot_use_the_cuda_module():
    from tessera.jit.frontend import FunctionSource, lower_function  # noqa: PLC0415
    source = FunctionSource.from_text("def f(a):\n    a[0] = cuda.threadIdx.x\n",
                                      {"cuda": cuda}, "host.py")
    with pytest.raises(TypingError, match=r"host.py:2.*only in CUDA kernels"):
        lower_function(source, [ArrayType("float64", 1, "C")])


# --- the generated CUDA compiles for real GPUs -------------------------------------------------

@needs_toolkit
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_generated_kernels_compile_with_nvrtc_and_ptxas(arch):
    samples = [
        (fast_matmul, (np.zeros((4, 4), np.float32),) * 3),
        (arithmetic_atomics, (np.zeros(4, np.float32),) * 8),
        (bitwise_atomics, (np.zeros(4, np.int64),) * 7),
        (warp_exchanges, (np.zeros(64), np.zeros((5, 64)))),
        (reverse_blocks, (np.zeros(4), np.zeros(4))),
        (fill_rows, (np.zeros((4, 3)),)),
        (sequential_rows, (np.zeros((4, 4), np.int32),)),
        (half_ops, (np.zeros(4, np.float16),) * 3 + (np.zeros((4, 24), np.float16),
                                                     np.zeros((4, 6), np.bool_))),
        (black_scholes_cuda, (np.zeros(4),) * 5 + (0.02, 0.3)),
    ]
    for kernel, args in samples:
        source = kernel.inspect_cuda(*args)
        ptx, _ = tp._core._cuda.nvrtc_compile(source, tp._core._cuda.generated_kernel_options(),
                                              [], arch)
        assert ".entry ts_python_kernel" in ptx
        assert len(tp._core._cuda.ptxas_assemble(ptx, arch)) > 0


# --- eager signatures -------------------------------------------------------------------------

@cuda.jit("void(float64[:], float64)")
def add_scalar_eager(a, v):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += v


def test_eager_kernel_signature_converts_numbers():
    a = cuda.to_device(np.arange(5.0))
    add_scalar_eager[1, 32](a, 2)  # an int, passed as the signature's float64
    np.testing.assert_array_equal(a.copy_to_host(), np.arange(5.0) + 2)
    add_scalar_eager[1, 32](a[::2], np.float32(0.5))
    np.testing.assert_array_equal(a.copy_to_host()[::2], np.arange(5.0)[::2] + 2.5)
    assert len(add_scalar_eager.signatures) == 1
    with pytest.raises(TypeError, match="No matching definition"):
        add_scalar_eager[1, 32](cuda.to_device(np.arange(5, dtype=np.float32)), 1.0)


# --- print ------------------------------------------------------------------------------------

@cuda.jit
def report(a, n):
    i = cuda.grid(1)
    if i < n:
        print("thread", i, "has", a[i], a[i] > 1.0, "100%")


def test_print_in_kernels(capfd):
    report[1, 4](cuda.to_device(np.array([0.5, 1.5, 2.25])), 3)
    cuda.synchronize()
    lines = sorted(capfd.readouterr().out.splitlines())
    assert lines == ["thread 0 has 0.500000 False 100%", "thread 1 has 1.500000 True 100%",
                     "thread 2 has 2.250000 True 100%"]
