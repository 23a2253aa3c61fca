"""The `cuda.jit` benchmark group's kernels: CUDA kernels written in Python as Numba's users
write them, compiled by tessera.cuda.jit; the numba.cuda peer compiles the very same
functions with numba.cuda.jit (`numba_programs`). They run on a CUDA device only (on the
simulator their timings mean nothing); on the CPU device the group reports them missing."""

import math
import types

import numpy as np

from tessera import cuda

THREADS = 256
BLOCK_2D = (32, 8)
TILE = 16


def sin_kernel(x, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = math.sin(x[i])


def stencil_kernel(x, out):
    j, i = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = (x[i, j] + x[i, j + 1] + x[i, j + 2] + x[i + 1, j] + x[i + 1, j + 1]
                     + x[i + 1, j + 2] + x[i + 2, j] + x[i + 2, j + 1] + x[i + 2, j + 2])


def naive_matmul_kernel(a, b, c):
    j, i = cuda.grid(2)
    if i < c.shape[0] and j < c.shape[1]:
        tmp = 0.0
        for k in range(a.shape[1]):
            tmp += a[i, k] * b[k, j]
        c[i, j] = tmp


def tiled_matmul_kernel(a, b, c):
    sa = cuda.shared.array((TILE, TILE), np.float64)
    sb = cuda.shared.array((TILE, TILE), np.float64)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    tmp = 0.0
    for t in range((a.shape[1] + TILE - 1) // TILE):
        sa[ty, tx] = 0.0
        sb[ty, tx] = 0.0
        if y < a.shape[0] and tx + t * TILE < a.shape[1]:
            sa[ty, tx] = a[y, tx + t * TILE]
        if x < b.shape[1] and ty + t * TILE < b.shape[0]:
            sb[ty, tx] = b[ty + t * TILE, x]
        cuda.syncthreads()
        for k in range(TILE):
            tmp += sa[ty, k] * sb[k, tx]
        cuda.syncthreads()
    if y < c.shape[0] and x < c.shape[1]:
        c[y, x] = tmp


def distance_kernel(x, out):
    j, i = cuda.grid(2)
    n = x.shape[0]
    if i < n and j < n:
        d0 = x[i, 0] - x[j, 0]
        d1 = x[i, 1] - x[j, 1]
        d2 = x[i, 2] - x[j, 2]
        out[i, j] = math.sqrt(d0 * d0 + d1 * d1 + d2 * d2)


def block_sum_kernel(x, total):
    partial = cuda.shared.array(THREADS, np.float64)
    t = cuda.threadIdx.x
    acc = 0.0
    for i in range(cuda.grid(1), x.size, cuda.gridsize(1)):
        acc += x[i]
    partial[t] = acc
    cuda.syncthreads()
    active = THREADS // 2
    while active > 0:
        if t < active:
            partial[t] += partial[t + active]
        cuda.syncthreads()
        active //= 2
    if t == 0:
        cuda.atomic.add(total, 0, partial[0])


KERNELS = [sin_kernel, stencil_kernel, naive_matmul_kernel, tiled_matmul_kernel,
           distance_kernel, block_sum_kernel]


def _grid_2d(rows, cols, block=BLOCK_2D):
    return ((cols + block[0] - 1) // block[0], (rows + block[1] - 1) // block[1]), block


def programs(compiled, empty, zeros):
    """Case name -> program over device arrays, with each kernel as `compiled` made it,
    `empty(shape)` and `zeros(shape)` allocating float64 device arrays."""
    sin, stencil, naive, tiled, distance, block_sum = (compiled[k.__name__] for k in KERNELS)

    def run_sin(x):
        out = empty(x.shape)
        sin[(x.size + THREADS - 1) // THREADS, THREADS](x, out)
        return out

    def run_stencil(x):
        out = empty((x.shape[0] - 2, x.shape[1] - 2))
        stencil[_grid_2d(*out.shape)](x, out)
        return out

    def run_matmul(kernel, block):
        def run(a, b):
            c = empty((a.shape[0], b.shape[1]))
            kernel[_grid_2d(c.shape[0], c.shape[1], block)](a, b, c)
            return c
        return run

    def run_distance(x):
        out = empty((x.shape[0], x.shape[0]))
        distance[_grid_2d(*out.shape)](x, out)
        return out

    def run_sum(x):
        total = zeros((1,))
        blocks = min((x.size + THREADS - 1) // THREADS, 1024)
        block_sum[blocks, THREADS](x, total)
        return total

    return {
        "cuda.jit: math.sin": run_sin,
        "cuda.jit: 3x3 stencil": run_stencil,
        "cuda.jit: naive matmul": run_matmul(naive, BLOCK_2D),
        "cuda.jit: tiled matmul": run_matmul(tiled, (TILE, TILE)),
        "cuda.jit: distance matrix": run_distance,
        "cuda.jit: block sum": run_sum,
    }


def tessera_programs():
    import tessera as tp  # noqa: PLC0415
    return programs({k.__name__: cuda.jit(k) for k in KERNELS},
                    lambda shape: tp.empty(shape), lambda shape: tp.zeros(shape))


def numba_programs():
    """The same kernels through numba.cuda.jit: `cuda` in their globals is Numba's."""
    from numba import cuda as numba_cuda  # noqa: PLC0415
    names = dict(globals())
    names["cuda"] = numba_cuda
    compiled = {}
    for k in KERNELS:
        clone = types.FunctionType(k.__code__, names, k.__name__, k.__defaults__, k.__closure__)
        compiled[k.__name__] = numba_cuda.jit(clone)
    return programs(compiled, lambda shape: numba_cuda.device_array(shape),
                    lambda shape: numba_cuda.to_device(np.zeros(shape)))
