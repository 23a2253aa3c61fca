"""User kernels from CUDA C++ (RawKernel, RawModule), run on the CUDA device (the simulator
in `make test`). Every kernel source here is also compiled by NVRTC for sm_80 and sm_90 and
assembled by ptxas, so what runs on the simulator is proven to compile for real GPUs."""

import numpy as np
import pytest

import tessera as tp
from tessera import cuda

pytestmark = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA device or simulator")

needs_toolkit = pytest.mark.skipif(
    not (tp._core._cuda.nvrtc_available() and tp._core._cuda.ptxas_available()),
    reason="NVRTC or ptxas not installed")

BLOCK_REDUCE = r'''
extern "C" __global__ void block_sum(const int* x, long long* out, int n) {
  extern __shared__ long long partial[];
  const int t = threadIdx.x;
  long long acc = 0;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) acc += x[i];
  partial[t] = acc;
  __syncthreads();
  for (int active = blockDim.x; active > 1;) {  // any block size, not only powers of two
    const int half = (active + 1) / 2;
    if (t < active - half) partial[t] += partial[t + half];
    __syncthreads();
    active = half;
  }
  if (t == 0) atomicAdd(reinterpret_cast<unsigned long long*>(out),
                        static_cast<unsigned long long>(partial[0]));
}
'''

TILED_MATMUL = r'''
template <int TILE>
__global__ void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float ta[TILE][TILE];
  __shared__ float tb[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t0 = 0; t0 < k; t0 += TILE) {
    ta[threadIdx.y][threadIdx.x] =
        (row < m && t0 + threadIdx.x < k) ? a[row * k + t0 + threadIdx.x] : 0.0f;
    tb[threadIdx.y][threadIdx.x] =
        (col < n && t0 + threadIdx.y < k) ? b[(t0 + threadIdx.y) * n + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < TILE; ++i) acc += ta[threadIdx.y][i] * tb[i][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = acc;
}
'''

HISTOGRAM = r'''
extern "C" __global__ void histogram(const unsigned char* x, int n, unsigned int* bins) {
  __shared__ unsigned int local[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) local[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    atomicAdd(&local[x[i]], 1u);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x) atomicAdd(&bins[i], local[i]);
}
'''

WARP_SCAN = r'''
extern "C" __global__ void warp_scan(const int* x, int* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31;
  int v = i < n ? x[i] : 0;
  for (int d = 1; d < 32; d *= 2) {
    const int up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += up;
  }
  if (i < n) out[i] = v;
}
'''

FLOAT_ATOMICS = r'''
__device__ double atomic_max_double(double* address, double value) {
  unsigned long long* bits = reinterpret_cast<unsigned long long*>(address);
  unsigned long long old = *bits, assumed;
  do {
    assumed = old;
    if (__longlong_as_double(assumed) >= value) break;
    old = atomicCAS(bits, assumed, __double_as_longlong(value));
  } while (assumed != old);
  return __longlong_as_double(old);
}
extern "C" __global__ void float_atomics(const double* x, int n, double* sum, double* max) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(sum, x[i]);
    atomic_max_double(max, x[i]);
  }
}
'''

SOURCES = {"block_reduce": (BLOCK_REDUCE, ()), "tiled_matmul": (TILED_MATMUL, ("matmul<16>",)),
           "histogram": (HISTOGRAM, ()), "warp_scan": (WARP_SCAN, ()),
           "float_atomics": (FLOAT_ATOMICS, ())}


@needs_toolkit
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
@pytest.mark.parametrize("name", list(SOURCES))
def test_sources_compile_for_gpus(name, arch):
    source, expressions = SOURCES[name]
    ptx, lowered = tp._core._cuda.nvrtc_compile(source, [], list(expressions), arch)
    assert f".target {arch}" in ptx
    assert len(lowered) == len(expressions)
    cubin = tp._core._cuda.ptxas_assemble(ptx, arch)
    assert cubin[:4] == b"\x7fELF"


@pytest.mark.parametrize("n, block", [(1, 32), (1000, 128), (4099, 96), (65536, 1024)])
def test_block_reduction(n, block):
    x = np.arange(n, dtype=np.int32) % 1000 - 300
    kernel = tp.RawKernel(BLOCK_REDUCE, "block_sum")
    out = tp.zeros(1, dtype=np.int64)
    grid = min(8, (n + block - 1) // block)
    kernel((grid,), (block,), (tp.asarray(x), out, np.int32(n)), shared_mem=block * 8)
    assert int(out.get()[0]) == int(x.astype(np.int64).sum())


@pytest.mark.parametrize("m, n, k", [(16, 16, 16), (37, 29, 53), (64, 48, 80)])
def test_tiled_matmul(m, n, k):
    rng = np.random.default_rng(1)
    a = rng.integers(-4, 5, size=(m, k)).astype(np.float32)  # exact in float32
    b = rng.integers(-4, 5, size=(k, n)).astype(np.float32)
    module = tp.RawModule(code=TILED_MATMUL, name_expressions=["matmul<16>"])
    kernel = module.get_function("matmul<16>")
    c = tp.zeros((m, n), dtype=np.float32)
    kernel(((n + 15) // 16, (m + 15) // 16), (16, 16),
           (tp.asarray(a), tp.asarray(b), c, np.int32(m), np.int32(n), np.int32(k)))
    np.testing.assert_array_equal(c.get(), a @ b)


def test_histogram_with_atomics():
    rng = np.random.default_rng(2)
    x = rng.integers(0, 256, size=100_003).astype(np.uint8)
    bins = tp.zeros(256, dtype=np.uint32)
    tp.RawKernel(HISTOGRAM, "histogram")((16,), (256,), (tp.asarray(x), np.int32(x.size), bins))
    np.testing.assert_array_equal(bins.get(), np.bincount(x, minlength=256))


@pytest.mark.parametrize("n", [32, 100, 1024])
def test_warp_shuffle_scan(n):
    x = (np.arange(n, dtype=np.int32) * 7) % 13 - 6
    out = tp.empty(n, dtype=np.int32)
    blocks = (n + 127) // 128
    tp.RawKernel(WARP_SCAN, "warp_scan")((blocks,), (128,), (tp.asarray(x), out, np.int32(n)))
    expected = np.concatenate([np.cumsum(x[i:i + 32]) for i in range(0, n, 32)])
    np.testing.assert_array_equal(out.get(), expected)


def test_float_atomics_and_cas_loop():
    x = np.linspace(-3, 5, 777)
    total = tp.zeros(1)
    biggest = tp.asarray(np.array([-np.inf]))
    tp.RawKernel(FLOAT_ATOMICS, "float_atomics")(
        (7,), (128,), (tp.asarray(x), np.int32(x.size), total, biggest))
    np.testing.assert_allclose(total.get()[0], x.sum(), rtol=1e-12)
    assert biggest.get()[0] == 5.0


def test_scalar_arguments_by_type():
    source = r'''
    extern "C" __global__ void put(double* out, long long i, double f, float g, short s,
                                   bool b) {
      out[0] = (double)i; out[1] = f; out[2] = g; out[3] = s; out[4] = b ? 1.0 : 0.0;
    }'''
    out = tp.zeros(5)
    tp.RawKernel(source, "put")((1,), (1,), (out, 2**40, 0.25, np.float32(1.5), np.int16(-7),
                                             True))
    np.testing.assert_array_equal(out.get(), [2.0**40, 0.25, 1.5, -7.0, 1.0])


def test_compile_error_carries_the_log_and_line():
    source = 'extern "C" __global__ void broken(float* x) {\n  x[0] = undefined_name;\n}\n'
    with pytest.raises(cuda.compiler.CompileException, match="undefined_name") as info:
        tp.RawKernel(source, "broken")((1,), (1,), (tp.zeros(1, dtype=np.float32),))
    assert "x[0] = undefined_name;" in str(info.value)


def test_bad_launches():
    kernel = tp.RawKernel(WARP_SCAN, "warp_scan")
    x = tp.zeros(4, dtype=np.int32)
    with pytest.raises(cuda.CUDARuntimeError, match="invalid"):
        kernel((1,), (2048,), (x, x, np.int32(4)))
    with pytest.raises(TypeError, match="argument 2"):
        kernel((1,), (32,), (x, x, "four"))
    with pytest.raises(cuda.CUDARuntimeError, match="no kernel named 'nope'"):
        tp.RawKernel(WARP_SCAN, "nope")((1,), (32,), (x, x, np.int32(4)))
    with pytest.raises(ValueError, match="backend"):
        tp.RawKernel(WARP_SCAN, "warp_scan", backend="nvcc")


def test_kernel_on_a_stream_orders_with_copies():
    s = cuda.Stream(non_blocking=True)
    x = np.arange(64, dtype=np.int32)
    with s:
        tx = tp.asarray(x)
        out = tp.empty(64, dtype=np.int32)
        tp.RawKernel(WARP_SCAN, "warp_scan")((2,), (32,), (tx, out, np.int32(64)), stream=s)
        got = out.get(stream=s)
    expected = np.concatenate([np.cumsum(x[:32]), np.cumsum(x[32:])])
    np.testing.assert_array_equal(got, expected)


@pytest.mark.skipif(not (cuda.is_available() and cuda.runtime.is_simulated()),
                    reason="the simulator's check")
def test_partial_barrier_is_reported():
    source = r'''
    extern "C" __global__ void early_exit(int* x) {
      if (threadIdx.x >= 16) return;
      __syncthreads();
      x[threadIdx.x] = 1;
    }'''
    x = tp.zeros(32, dtype=np.int32)
    tp.RawKernel(source, "early_exit")((1,), (32,), (x,))
    with pytest.raises(cuda.CUDARuntimeError, match=r"__syncthreads.*block \(0,0,0\)"):
        cuda.Device().synchronize()
