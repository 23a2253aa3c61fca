"""The numba.cuda peer's programs (peers.NumbaCuda): `@cuda.jit` kernels as Numba's CUDA
users write them, one thread per output element, and `cuda.reduce` for the reductions.

Imported only when a CUDA run asks for the peer. The kernels live at module level, as in
Numba's own examples: its CUDA simulator (NUMBA_ENABLE_CUDASIM=1, which runs them on a
machine without a GPU) swaps the `cuda` module only where kernels reach it as a global."""

import math

from numba import cuda

from . import _cuda_kernels
from .cases import jacobi_dx
from .peers import _jacobi_solve_with

THREADS = 256        # per block, for the one-dimensional kernels
BLOCK_2D = (32, 8)   # (along a row, across rows): x is the fastest index, so warps read rows


@cuda.jit
def _add(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] + b[i]


@cuda.jit
def _multiply_add(a, b, c, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = a[i] * b[i] + c[i]


@cuda.jit
def _exp(x, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = math.exp(x[i])


@cuda.jit
def _log(x, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = math.log(x[i])


@cuda.jit
def _sin(x, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = math.sin(x[i])


@cuda.jit
def _sin2_cos2(x, out):
    i = cuda.grid(1)
    if i < out.size:
        s = math.sin(x[i])
        c = math.cos(x[i])
        out[i] = s * s + c * c


@cuda.jit
def _abs_diff(a, b, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = abs(a[i] - b[i])


@cuda.jit
def _stencil(x, out):
    j, i = cuda.grid(2)
    if i < out.shape[0] and j < out.shape[1]:
        out[i, j] = (x[i, j] + x[i, j + 1] + x[i, j + 2] + x[i + 1, j] + x[i + 1, j + 1]
                     + x[i + 1, j + 2] + x[i + 2, j] + x[i + 2, j + 1] + x[i + 2, j + 2])


@cuda.jit
def _jacobi_step(p, f, dx2, p_new):
    j, i = cuda.grid(2)
    n, m = p.shape
    if i < n and j < m:
        if 0 < i < n - 1 and 0 < j < m - 1:
            p_new[i, j] = 0.25 * (p[i - 1, j] + p[i + 1, j] + p[i, j - 1] + p[i, j + 1]
                                  + dx2 * f[i, j])
        else:
            p_new[i, j] = p[i, j]   # the boundary, copied in the same pass


@cuda.jit
def _distance_matrix(x, out):
    j, i = cuda.grid(2)
    n = x.shape[0]
    if i < n and j < n:
        xi2 = x[i, 0] * x[i, 0] + x[i, 1] * x[i, 1] + x[i, 2] * x[i, 2]
        xj2 = x[j, 0] * x[j, 0] + x[j, 1] * x[j, 1] + x[j, 2] * x[j, 2]
        dot = x[i, 0] * x[j, 0] + x[i, 1] * x[j, 1] + x[i, 2] * x[j, 2]
        out[i, j] = xi2 - 2 * dot + xj2


_sum = cuda.reduce(lambda a, b: a + b)
_max = cuda.reduce(lambda a, b: max(a, b))


def _elementwise(kernel):
    """The kernel over contiguous inputs of any shape, seen as one flat vector."""
    def run(*arrays):
        flat = [a.ravel() for a in arrays]
        out = cuda.device_array(flat[0].size, dtype=flat[0].dtype)
        kernel[(out.size + THREADS - 1) // THREADS, THREADS](*flat, out)
        return out.reshape(arrays[0].shape)
    return run


def _grid_2d(rows, cols):
    bx, by = BLOCK_2D
    return ((cols + bx - 1) // bx, (rows + by - 1) // by), BLOCK_2D


def _run_stencil(x):
    out = cuda.device_array((x.shape[0] - 2, x.shape[1] - 2), dtype=x.dtype)
    blocks, threads = _grid_2d(*out.shape)
    _stencil[blocks, threads](x, out)
    return out


def _run_jacobi_step(p, f):
    p_new = cuda.device_array_like(p)
    blocks, threads = _grid_2d(*p.shape)
    _jacobi_step[blocks, threads](p, f, jacobi_dx**2, p_new)
    return p_new


def _run_distance_matrix(x):
    n = x.shape[0]
    out = cuda.device_array((n, n), dtype=x.dtype)
    blocks, threads = _grid_2d(n, n)
    _distance_matrix[blocks, threads](x, out)
    return out


def _max_abs_diff(a, b):
    return _max(_elementwise(_abs_diff)(a, b).ravel())


# Case name -> program over the uploaded inputs (peers.NumbaCuda.prepare).
PROGRAMS = {
    "a + b": _elementwise(_add),
    "a * b + c": _elementwise(_multiply_add),
    "exp": _elementwise(_exp),
    "log": _elementwise(_log),
    "sin": _elementwise(_sin),
    "sin(x)**2+cos(x)**2": _elementwise(_sin2_cos2),
    "sum": lambda x: _sum(x.ravel()),
    "add latency": lambda x: _elementwise(_add)(x, x),
    "3x3 box stencil": _run_stencil,
    "Jacobi step": _run_jacobi_step,
    "Jacobi solve": _jacobi_solve_with(_run_jacobi_step, _max_abs_diff),
    "distance matrix": _run_distance_matrix,
}

# The cuda.jit group: the kernels tessera.cuda.jit compiles, through numba.cuda.jit.
PROGRAMS.update(_cuda_kernels.numba_programs())
