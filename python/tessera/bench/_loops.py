"""The loops of the `jit` benchmark group, as users write them for Numba: plain Python,
compiled by tessera.jit and by numba.njit from this very source (cases.py, peers.py)."""

import math
import random

import numpy as np

# Numba's prange in Numba's runs (the peer swaps it in); range, as Python reads it, here.
prange = range


def sum_loop(x):
    s = 0.0
    for i in range(x.shape[0]):
        s += x[i]
    return s


def add_one(x):
    """A call's own cost: a function that does almost nothing (the dispatch is the rest)."""
    return x + 1.0


def array_expression(x, y):
    """Whole-array arithmetic inside a jit function (Numba fuses it into one loop)."""
    return np.sqrt(x * x + y * y) * 0.5 + x


def squared_distance(x, y):
    """A reduction of an array expression inside a jit function."""
    return ((x - y) ** 2).sum()


def monte_carlo_pi(nsamples):
    """Numba's front-page example: Python's random module inside the loop."""
    random.seed(0)
    acc = 0
    for i in range(nsamples):
        x = random.random()
        y = random.random()
        if (x ** 2 + y ** 2) < 1.0:
            acc += 1
    return 4.0 * acc / nsamples


def sin_loop(x, out):
    for i in range(x.shape[0]):
        out[i] = math.sin(x[i])


def smooth_loop(x, out):
    n, m = x.shape
    for i in range(1, n - 1):
        for j in range(1, m - 1):
            out[i, j] = (x[i - 1, j - 1] + x[i - 1, j] + x[i - 1, j + 1]
                         + x[i, j - 1] + x[i, j] + x[i, j + 1]
                         + x[i + 1, j - 1] + x[i + 1, j] + x[i + 1, j + 1]) / 9.0


def smooth_kernel(x):
    """The same smoothing as a stencil kernel (relative indices), for @stencil."""
    return (x[-1, -1] + x[-1, 0] + x[-1, 1] + x[0, -1] + x[0, 0] + x[0, 1]
            + x[1, -1] + x[1, 0] + x[1, 1]) / 9.0


def sin_prange_loop(x, out):
    for i in prange(x.shape[0]):
        out[i] = math.sin(x[i])


def smooth_prange_loop(x, out):
    n, m = x.shape
    for i in prange(1, n - 1):
        for j in range(1, m - 1):
            out[i, j] = (x[i - 1, j - 1] + x[i - 1, j] + x[i - 1, j + 1]
                         + x[i, j - 1] + x[i, j] + x[i, j + 1]
                         + x[i + 1, j - 1] + x[i + 1, j] + x[i + 1, j + 1]) / 9.0


def matmul_loop(a, b, out):
    n, k = a.shape
    m = b.shape[1]
    for i in range(n):
        for j in range(m):
            s = 0.0
            for p in range(k):
                s += a[i, p] * b[p, j]
            out[i, j] = s


def distance_loop(x, out):
    n = x.shape[0]
    for i in range(n):
        for j in range(n):
            d = 0.0
            for k in range(x.shape[1]):
                t = x[i, k] - x[j, k]
                d += t * t
            out[i, j] = math.sqrt(d)


def solve_loop(a, b, out):
    """Many small systems, one np.linalg.solve each: the cost of a LAPACK call from a loop."""
    for i in range(a.shape[0]):
        out[i] = np.linalg.solve(a[i], b[i])


def soft_threshold(x, t):
    """A scalar function with branches, for @vectorize (NumPy spells it with np.where)."""
    if x > t:
        return x - t
    if x < -t:
        return x + t
    return 0.0
