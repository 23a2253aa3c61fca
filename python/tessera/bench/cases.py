"""The benchmark cases. Each is written once against an array module `xp` (numpy or
tessera), so both libraries run the very same program."""

from dataclasses import dataclass
from typing import Callable

import numpy as np

from . import _small, _user_kernels


@dataclass
class Case:
    name: str                        # what is computed, as a user would write it
    size: str                        # the size label shown in the table ("8 MB")
    make_inputs: Callable            # rng -> tuple of NumPy arrays
    run: Callable                    # (xp, *inputs) -> result
    rtol: float = 1e-12              # result tolerance against NumPy
    atol: float = 0.0
    bytes_moved: int | None = None   # memory traffic of one run (memory-bound cases)
    flops: float | None = None       # floating-point operations of one run
    flops_dtype: str = "float64"     # whose FMA peak the flop rate is measured against
    mutates: bool = False            # run() writes into its inputs
    statistical: bool = False        # random output: compared by its moments, not its values
    calls: int = 1                   # runs per timing, reported per call: a latency case's
                                     # op is shorter than the timer's own overhead
    ops: int = 1                     # operations one run repeats; timings are per operation
    values_defined: bool = True      # False: only the shape and dtype are NumPy's (empty)
    fresh_process: bool = False      # each run in a new Python process, as a user's script
    group: str = "core"


def _square(n):
    return lambda rng: (rng.standard_normal((n, n)),)


def _vector(n, dtype=np.float64):
    return lambda rng: (rng.standard_normal(n).astype(dtype),)


def _stencil(xp, x):
    return (x[:-2, :-2] + x[:-2, 1:-1] + x[:-2, 2:] + x[1:-1, :-2] + x[1:-1, 1:-1]
            + x[1:-1, 2:] + x[2:, :-2] + x[2:, 1:-1] + x[2:, 2:])


# The heat problem's grid spacing, and when its solve stops (shared with the peers).
jacobi_dx = 0.01
jacobi_tol = 1e-4
jacobi_max_iter = 2000


def _jacobi_step(xp, p, f):
    p_new = p.copy()
    p_new[1:-1, 1:-1] = 0.25 * (p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:]
                                + jacobi_dx**2 * f[1:-1, 1:-1])
    return p_new


def _jacobi_solve(xp, p, f):
    for _ in range(jacobi_max_iter):
        p_new = _jacobi_step(xp, p, f)
        if float(xp.abs(p_new - p).max()) < jacobi_tol:
            return p_new
        p = p_new
    return p


def _distance_matrix(xp, x):
    x2 = (x * x).sum(axis=1)
    return x2[:, None] - 2 * x @ x.T + x2[None, :]


def _symmetric(n):
    def make(rng):
        a = rng.standard_normal((n, n))
        return (a + a.T,)
    return make


def _points(n):
    return lambda rng: (rng.standard_normal((n, 3)),)


def _heat(n):
    def make(rng):
        p = np.zeros((n, n))
        p[0, :] = 1.0
        return p, rng.standard_normal((n, n))
    return make


def classic_cases(quick):
    """The classic GPU-vs-CPU set at 8 MB (1000²) and 800 MB (10000²) of float64."""
    sizes = [("8 MB", 1000), ("800 MB", 10000)] if not quick else [("8 MB", 1000), ("80 MB", 3162)]
    out = []
    for label, n in sizes:
        nbytes = n * n * 8
        out += [
            Case("sin(x)**2+cos(x)**2", label, _square(n),
                 lambda xp, x: xp.sin(x) ** 2 + xp.cos(x) ** 2, rtol=1e-12, atol=1e-14,
                 bytes_moved=2 * nbytes),
            Case("sum", label, _square(n), lambda xp, x: x.sum(), rtol=1e-9, bytes_moved=nbytes),
            Case("std", label, _square(n), lambda xp, x: x.std(), rtol=1e-9, bytes_moved=nbytes),
            Case("matmul x@x", label, _square(min(n, 4096) if quick else n),
                 lambda xp, x: x @ x, rtol=1e-9, atol=1e-9,
                 flops=2.0 * min(n, 4096 if quick else n) ** 3),
            Case("x[::2,::2].copy()", label, _square(n), lambda xp, x: x[::2, ::2].copy(),
                 bytes_moved=nbytes // 2, rtol=0),
            Case("fft.fft2", label, _square(n), lambda xp, x: xp.fft.fft2(x), rtol=1e-9, atol=1e-6),
            Case("3x3 box stencil", label, _square(n), _stencil, rtol=1e-12, atol=1e-12,
                 bytes_moved=2 * nbytes),
        ]
    svd_shapes = [("1000x1000", (1000, 1000)), ("10000x1000", (10000, 1000) if not quick else (3000, 1000))]
    for label, shape in svd_shapes:
        out.append(Case("linalg.svd", label, lambda rng, s=shape: (rng.standard_normal(s),),
                        lambda xp, x: xp.linalg.svd(x, full_matrices=False)[1], rtol=1e-8))
    # The other library calls of a CUDA device: LU (cuSOLVER's getrf/getrs), the symmetric
    # eigensolver (syevd), and a 3-d real FFT (cuFFT's R2C over three axes).
    n = 1000
    out.append(Case("linalg.solve", f"{n}x{n}",
                    lambda rng: (rng.standard_normal((n, n)), rng.standard_normal((n, 16))),
                    lambda xp, a, b: xp.linalg.solve(a, b), rtol=1e-7, atol=1e-9))
    out.append(Case("linalg.eigh", "500x500", _symmetric(500),
                    lambda xp, a: xp.linalg.eigh(a)[0], rtol=1e-9, atol=1e-9))
    side = 128 if not quick else 64
    out.append(Case("fft.rfftn", f"{side}^3", lambda rng: (rng.standard_normal((side,) * 3),),
                    lambda xp, x: xp.fft.rfftn(x), rtol=1e-9, atol=1e-6))
    return out


def course_cases(quick):
    """Workloads GPU courses teach with."""
    out = [
        Case("distance matrix", "4096x3", _points(4096), _distance_matrix, rtol=1e-9, atol=1e-9),
    ]
    for n in (256, 2048) if not quick else (256, 1024):
        out.append(Case("Jacobi step", f"N={n}", _heat(n), _jacobi_step, rtol=1e-12, atol=1e-15,
                        bytes_moved=3 * n * n * 8))
    out.append(Case("Jacobi solve", "N=256", _heat(256), _jacobi_solve, rtol=1e-9, atol=1e-9))
    for n in (512, 1024, 2048, 4096) if not quick else (512, 1024):
        out.append(Case("matmul float32", f"N={n}",
                        lambda rng, n=n: (rng.standard_normal((n, n)).astype(np.float32),),
                        lambda xp, x: x @ x, rtol=1e-3, atol=1e-3, flops=2.0 * n**3,
                        flops_dtype="float32"))
    for n in (10**6, 10**7, 10**8) if not quick else (10**6, 10**7):
        out.append(Case("sin", f"1e{len(str(n)) - 1}", _vector(n), lambda xp, x: xp.sin(x),
                        rtol=1e-14, bytes_moved=16 * n))
    out.append(Case("add latency", "3 elems", _vector(3), lambda xp, x: x + x, rtol=0,
                    calls=1000))
    # Random numbers: the legacy call the issue names, and the Generator API. tessera's
    # stream is Philox, NumPy's MT19937/PCG64: the results agree in distribution only.
    n = 10**7 if not quick else 10**6
    out.append(Case("random.normal", f"1e{len(str(n)) - 1}", lambda rng: (),
                    lambda xp: xp.random.normal(size=n), atol=0.01, statistical=True))
    out.append(Case("Generator.normal", f"1e{len(str(n)) - 1}", lambda rng: (),
                    lambda xp, g={}: g.setdefault(xp, xp.random.default_rng(0)).normal(size=n),
                    atol=0.01, statistical=True))
    return out


def foundation_cases(quick):
    """Creation, copies and transfers: what every program does before it computes."""
    n = 10**7 if not quick else 10**6
    label = f"1e{len(str(n)) - 1}"
    nbytes = n * 8
    return [
        Case("zeros", label, lambda rng: (), lambda xp: xp.zeros(n), rtol=0, bytes_moved=nbytes,
             group="foundation"),
        Case("arange", label, lambda rng: (), lambda xp: xp.arange(n, dtype=xp.float64), rtol=0,
             bytes_moved=nbytes, group="foundation"),
        Case("linspace", label, lambda rng: (), lambda xp: xp.linspace(0, 1, n), rtol=0,
             bytes_moved=nbytes, group="foundation"),
        Case("copy", label, _vector(n), lambda xp, x: x.copy(), rtol=0, bytes_moved=2 * nbytes,
             group="foundation"),
        Case("astype float32", label, _vector(n), lambda xp, x: x.astype(xp.float32), rtol=0,
             bytes_moved=nbytes + nbytes // 2, group="foundation"),
        Case("transpose copy", "1000²", _square(1000), lambda xp, x: x.T.copy(), rtol=0,
             bytes_moved=2 * 8 * 10**6, group="foundation"),
        Case("x[::-1] = x (overlap)", label, _vector(n), _reverse_assign, rtol=0,
             bytes_moved=3 * nbytes, mutates=True, group="foundation"),
        Case("asarray(list)", "1e4", lambda rng: (list(rng.standard_normal(10**4)),),
             lambda xp, x: xp.asarray(x), rtol=0, group="foundation"),
        Case("asnumpy", label, _vector(n), lambda xp, x: _to_host(xp, x), rtol=0,
             bytes_moved=2 * nbytes, group="foundation"),
    ]


def _vectors(n, k, positive=False):
    def make(rng):
        arrays = [rng.standard_normal(n) for _ in range(k)]
        return tuple(np.abs(a) + 0.5 for a in arrays) if positive else tuple(arrays)
    return make


def elementwise_cases(quick):
    """Issue 4's targets: memory-bound arithmetic, transcendentals, a fused expression, and
    the per-op cost on tiny arrays."""
    out = []
    for n in (10**7, 10**8) if not quick else (10**6, 10**7):
        label = f"1e{len(str(n)) - 1}"
        out += [
            Case("a + b", label, _vectors(n, 2), lambda xp, a, b: a + b, rtol=0,
                 bytes_moved=3 * 8 * n, group="elementwise"),
            Case("a * b + c", label, _vectors(n, 3), lambda xp, a, b, c: a * b + c,
                 rtol=0, atol=_FMA_ATOL,
                 bytes_moved=4 * 8 * n, group="elementwise"),
        ]
    n = 10**7 if not quick else 10**6
    label = f"1e{len(str(n)) - 1}"
    out += [
        Case("exp", label, _vectors(n, 1), lambda xp, x: xp.exp(x), rtol=1e-14,
             bytes_moved=16 * n, group="elementwise"),
        Case("log", label, _vectors(n, 1, positive=True), lambda xp, x: xp.log(x), rtol=1e-14,
             bytes_moved=16 * n, group="elementwise"),
        Case("sin(x)**2+cos(x)**2", label, _vectors(n, 1),
             lambda xp, x: xp.sin(x) ** 2 + xp.cos(x) ** 2, rtol=1e-12, atol=1e-14,
             bytes_moved=16 * n, group="elementwise"),
        Case("a * b + c", "3 elems", _vectors(3, 3), lambda xp, a, b, c: a * b + c,
             rtol=0, atol=_FMA_ATOL, calls=1000, group="elementwise"),
    ]
    return out


def reduction_cases(quick):
    """Issue 5's targets at 1e7 float64: reductions, sorting, mask selection and gathers."""
    n = 10**7 if not quick else 10**6
    label = f"1e{len(str(n)) - 1}"
    nbytes = 8 * n
    side = 3162 if not quick else 1000
    rows = lambda rng: (rng.standard_normal((side, side)),)  # noqa: E731
    return [
        Case("sum", label, _vector(n), lambda xp, x: x.sum(), rtol=1e-9, bytes_moved=nbytes,
             group="reductions"),
        Case("std", label, _vector(n), lambda xp, x: x.std(), rtol=1e-9, bytes_moved=nbytes,
             group="reductions"),
        Case("max", label, _vector(n), lambda xp, x: x.max(), rtol=0, bytes_moved=nbytes,
             group="reductions"),
        Case("argmax", label, _vector(n), lambda xp, x: x.argmax(), rtol=0, bytes_moved=nbytes,
             group="reductions"),
        Case("(x*x).sum()", label, _vector(n), lambda xp, x: (x * x).sum(), rtol=1e-9,
             bytes_moved=nbytes, group="reductions"),
        Case("sum(axis=0)", f"{side}²", rows, lambda xp, x: x.sum(axis=0), rtol=1e-9,
             bytes_moved=8 * side * side, group="reductions"),
        Case("sum(axis=1)", f"{side}²", rows, lambda xp, x: x.sum(axis=1), rtol=1e-9,
             bytes_moved=8 * side * side, group="reductions"),
        Case("sort", label, _vector(n), lambda xp, x: xp.sort(x), rtol=0, group="reductions"),
        Case("x[x > 0]", label, _vector(n), lambda xp, x: x[x > 0], rtol=0, group="reductions"),
        Case("take(x, random idx)", label,
             lambda rng: (rng.standard_normal(n), rng.integers(0, n, n)),
             lambda xp, x, i: xp.take(x, i), rtol=0, group="reductions"),
    ]


# a*b+c contracted to one fused multiply-add (as XLA does) skips the rounding of a*b: up to
# one unit in the last place of a*b, which for these standard-normal inputs (|a*b| < 64) is
# below 2**-46, however much a*b and c cancel.
_FMA_ATOL = 2.0**-46


def _reverse_assign(xp, x):
    x[::-1] = x
    return x


def _to_host(xp, x):
    return xp.asnumpy(x) if hasattr(xp, "asnumpy") else x.copy()


# The `jit` group: loops written for Numba (_loops.py), compiled by tessera.jit; NumPy runs
# the same computation as whole-array operations, and the Numba peer the same loops through
# numba.njit (serial, as written).
# case name -> (loop, the output's shape from the inputs' or None, parallel, calls per run)
JIT_LOOPS = {}
_JIT_COMPILED = {}  # case name -> the loop through tessera.jit


def _jit_case(name, size, make_inputs, loop, out_shape, numpy_program, parallel=False, repeat=1,
              **kwargs):
    JIT_LOOPS[name] = (loop, out_shape, parallel, repeat)

    def run(xp, *inputs):
        if xp is np:
            return numpy_program(*inputs)
        if name not in _JIT_COMPILED:  # once per process, as the Numba peer's
            import tessera
            _JIT_COMPILED[name] = tessera.jit(loop, parallel=parallel)
        return run_loop(_JIT_COMPILED[name], xp, name, *inputs)

    return Case(name, size, make_inputs, run, group="jit", **kwargs)


# The stencil cases of the jit group: name -> the kernel both sides compile with @stencil.
JIT_STENCILS = {}


def _stencil_case(name, size, make_inputs, kernel, numpy_program, **kwargs):
    JIT_STENCILS[name] = kernel

    def run(xp, *inputs):
        if xp is np:
            return numpy_program(*inputs)
        if name not in _JIT_COMPILED:
            import tessera
            _JIT_COMPILED[name] = tessera.stencil(kernel)
        return _JIT_COMPILED[name](*inputs)

    return Case(name, size, make_inputs, run, group="jit", **kwargs)


# The vectorize cases of the jit group: name -> (the scalar function both sides vectorize,
# the program over the vectorized function f and the inputs).
JIT_VECTORIZED = {}


def _vectorize_case(name, size, make_inputs, function, program, numpy_f, **kwargs):
    JIT_VECTORIZED[name] = (function, program)

    def run(xp, *inputs):
        if xp is np:
            return program(numpy_f, *inputs)
        if name not in _JIT_COMPILED:
            import tessera
            _JIT_COMPILED[name] = tessera.vectorize(function)
        return program(_JIT_COMPILED[name], *inputs)

    return Case(name, size, make_inputs, run, group="jit", **kwargs)


def _monte_carlo_pi_numpy(n):
    """The same estimate vectorized (other random numbers: it agrees within its error)."""
    rng = np.random.default_rng(0)
    x, y = rng.random(n), rng.random(n)
    return 4.0 * np.count_nonzero(x * x + y * y < 1.0) / n


def _soft_threshold_numpy(x, t):
    return np.where(x > t, x - t, np.where(x < -t, x + t, 0.0))


def run_loop(compiled, xp, name, *inputs):
    """Runs a jit group's loop compiled by `compiled`: into a zeroed output of the case's
    shape, or for its return value."""
    _, out_shape, _, repeat = JIT_LOOPS[name]
    if out_shape is None:
        for _ in range(repeat - 1):  # a latency case: the calls themselves are what is timed
            compiled(*inputs)
        return compiled(*inputs)
    out = xp.zeros(out_shape(*inputs))
    compiled(*inputs, out)
    return out


def _systems(count):
    """`count` well-conditioned 4x4 systems and their right-hand sides."""
    def make(rng):
        a = rng.standard_normal((count, 4, 4)) + 4 * np.eye(4)
        return a, rng.standard_normal((count, 4))
    return make


def _smooth_numpy(x):
    out = np.zeros_like(x)
    n, m = x.shape
    out[1:-1, 1:-1] = sum(x[i:n - 2 + i, j:m - 2 + j] for i in range(3) for j in range(3)) / 9.0
    return out


def jit_cases(quick):
    from . import _loops

    n = 10**6 if quick else 10**7
    side = 1000 if quick else 2000
    k = 128 if quick else 256
    points = 1024 if quick else 2048
    systems = 10**4 if quick else 10**5
    return [
        _jit_case("jit: 1000 calls", "1 float", lambda rng: (1.5,), _loops.add_one, None,
                  lambda x: x + 1.0, repeat=1000),
        _jit_case("jit: sum loop", f"{n:.0e}", _vector(n), _loops.sum_loop, None,
                  lambda x: x.sum(), rtol=1e-9),
        _jit_case("jit: array expression sqrt(x*x + y*y) * 0.5 + x", f"{n:.0e}", _vectors(n, 2),
                  _loops.array_expression, None, _loops.array_expression, rtol=1e-15,
                  bytes_moved=24 * n),
        _jit_case("jit: ((x - y) ** 2).sum()", f"{n:.0e}", _vectors(n, 2),
                  _loops.squared_distance, None, _loops.squared_distance, rtol=1e-9,
                  bytes_moved=16 * n),
        _jit_case("jit: monte_carlo_pi", f"{n:.0e}", lambda rng: (n,), _loops.monte_carlo_pi,
                  None, _monte_carlo_pi_numpy, rtol=1e-2),
        _jit_case("jit: math.sin loop", f"{n:.0e}", _vector(n), _loops.sin_loop,
                  lambda x: x.shape, np.sin, rtol=1e-15, bytes_moved=16 * n),
        _jit_case("jit: 3x3 smoothing loops", f"{side}x{side}", _square(side), _loops.smooth_loop,
                  lambda x: x.shape, _smooth_numpy, rtol=1e-12, atol=1e-14),
        _jit_case("jit: math.sin prange loop", f"{n:.0e}", _vector(n), _loops.sin_prange_loop,
                  lambda x: x.shape, np.sin, parallel=True, rtol=1e-15, bytes_moved=16 * n),
        _jit_case("jit: 3x3 smoothing prange loops", f"{side}x{side}", _square(side),
                  _loops.smooth_prange_loop, lambda x: x.shape, _smooth_numpy, parallel=True,
                  rtol=1e-12, atol=1e-14),
        # On tessera arrays the vectorized function joins the expression tree: f(x) * 2 + c
        # is one pass over memory (Numba's ufunc and NumPy make three).
        _vectorize_case("jit: vectorize f(x, t) * 2 + c", f"{n:.0e}", _vectors(n, 2),
                        _loops.soft_threshold, lambda f, x, c: f(x, 0.5) * 2 + c,
                        _soft_threshold_numpy, rtol=0, bytes_moved=24 * n),
        _stencil_case("jit: 3x3 smoothing stencil", f"{side}x{side}", _square(side),
                      _loops.smooth_kernel, _smooth_numpy, rtol=1e-12, atol=1e-14),
        _jit_case("jit: naive matmul", f"{k}x{k}",
                  lambda rng: (rng.standard_normal((k, k)), rng.standard_normal((k, k))),
                  _loops.matmul_loop, lambda a, b: (a.shape[0], b.shape[1]),
                  lambda a, b: a @ b, rtol=1e-10, atol=1e-10, flops=2.0 * k**3),
        _jit_case("jit: np.linalg.solve loop", f"{systems}x4x4", _systems(systems),
                  _loops.solve_loop, lambda a, b: b.shape,
                  lambda a, b: np.linalg.solve(a, b[..., None])[..., 0], rtol=1e-10,
                  atol=1e-12),
        _jit_case("jit: distance matrix loops", f"{points}x3", _points(points),
                  _loops.distance_loop, lambda x: (x.shape[0], x.shape[0]),
                  lambda x: np.sqrt(((x[:, None, :] - x[None, :, :]) ** 2).sum(axis=-1)),
                  rtol=1e-10, atol=1e-10),
    ]


_CUDA_PROGRAMS = {}


def _cuda_jit_case(name, size, make_inputs, numpy_program, **kwargs):
    """A kernel of _cuda_kernels.py through tessera.cuda.jit (numba.cuda.jit for its peer)."""
    def run(xp, *inputs):
        if xp is np:
            return numpy_program(*inputs)
        if any(str(a.device) == "cpu" for a in inputs if hasattr(a, "device")):
            raise NotImplementedError("cuda.jit kernels run on a CUDA device (--device cuda)")
        if not _CUDA_PROGRAMS:
            from . import _cuda_kernels
            _CUDA_PROGRAMS.update(_cuda_kernels.tessera_programs())
        return _CUDA_PROGRAMS[name](*inputs)

    return Case(name, size, make_inputs, run, group="cuda.jit", **kwargs)


def cuda_jit_cases(quick):
    n = 10**6 if quick else 10**7
    side = 1000 if quick else 4000
    k = 256 if quick else 1024
    points = 1024 if quick else 4096
    return [
        _cuda_jit_case("cuda.jit: math.sin", f"{n:.0e}", _vector(n), np.sin, rtol=1e-15,
                       bytes_moved=16 * n),
        _cuda_jit_case("cuda.jit: 3x3 stencil", f"{side}x{side}", _square(side),
                       lambda x: _stencil(np, x), rtol=1e-12, bytes_moved=16 * side * side),
        _cuda_jit_case("cuda.jit: naive matmul", f"{k}x{k}",
                       lambda rng: (rng.standard_normal((k, k)), rng.standard_normal((k, k))),
                       lambda a, b: a @ b, rtol=1e-10, atol=1e-10, flops=2.0 * k**3),
        _cuda_jit_case("cuda.jit: tiled matmul", f"{k}x{k}",
                       lambda rng: (rng.standard_normal((k, k)), rng.standard_normal((k, k))),
                       lambda a, b: a @ b, rtol=1e-10, atol=1e-10, flops=2.0 * k**3),
        _cuda_jit_case("cuda.jit: distance matrix", f"{points}x3", _points(points),
                       lambda x: np.sqrt(((x[:, None, :] - x[None, :, :]) ** 2).sum(axis=-1)),
                       rtol=1e-10, atol=1e-10),
        _cuda_jit_case("cuda.jit: block sum", f"{n:.0e}", _vector(n),
                       lambda x: np.array([x.sum()]), rtol=1e-9, bytes_moved=8 * n),
    ]


_DASK_CLUSTER = {}


def _dask_client():
    """The course's set-up: a LocalCluster of worker processes (one per core, at most 4),
    started once for the group; distributed closes it at exit."""
    if "client" not in _DASK_CLUSTER:
        import os

        from distributed import Client, LocalCluster
        cluster = LocalCluster(n_workers=min(os.cpu_count() or 1, 4), threads_per_worker=1,
                               processes=True, dashboard_address=None)
        _DASK_CLUSTER["cluster"], _DASK_CLUSTER["client"] = cluster, Client(cluster)
    return _DASK_CLUSTER["client"]


def _on_cluster(x):
    """`x` as a Dask array whose chunks (xp's arrays) already live in the workers, as data
    loaded there would: the timing is the SVD's, not the one-off transfer of the input."""
    import dask.array as da
    from distributed import wait
    key = id(x)
    if key not in _DASK_CLUSTER:
        client = _dask_client()
        chunks = client.persist(da.from_array(x, chunks=(x.shape[0] // 8, x.shape[1])))
        wait(chunks)
        _DASK_CLUSTER[key] = (x, chunks)  # x kept alive: its id stays its own
    return _DASK_CLUSTER[key][1]


def _dask_svd(compressed):
    """Singular values of a tall-skinny Dask array whose chunks are xp's arrays (tessera's
    or NumPy's), computed on the cluster; the compressed SVD draws its test matrix from
    Dask's NumPy-backed random (the same for both)."""
    def run(xp, x):
        import dask.array as da
        if xp is not np:
            import tessera.dask  # noqa: F401  (tessera's functions in Dask's dispatch)
        a = _on_cluster(x)
        if compressed:
            return da.linalg.svd_compressed(a, k=10, n_power_iter=2, seed=0)[1].compute()
        return da.linalg.svd(a)[1].compute()
    return run


def dask_cases(quick):
    """The course's scale-out demo: Dask's SVD over chunks on a LocalCluster of processes
    (where dask and distributed are installed)."""
    import importlib.util
    if importlib.util.find_spec("distributed") is None:
        return []
    rows, cols = (100_000, 50) if not quick else (20_000, 50)
    size = f"{rows}x{cols}"
    inputs = lambda rng: (rng.standard_normal((rows, cols)),)  # noqa: E731
    return [Case("dask svd (tall-skinny)", size, inputs, _dask_svd(False), rtol=1e-9,
                 group="dask"),
            Case("dask svd_compressed k=10", size, inputs, _dask_svd(True), rtol=1e-9,
                 group="dask")]


def small_cases(quick):
    """Issue 23: the latency table, the size sweep, the course's solve in a fresh process."""
    return (_small.latency_cases(Case) + _small.sweep_cases(Case, quick, _FMA_ATOL)
            + _small.course_cases(Case, _heat, _jacobi_solve))


def user_kernel_cases(quick):
    """Issue 24: ElementwiseKernel, ReductionKernel and fuse beside the built-in expressions."""
    return _user_kernels.cases(Case, quick)


def all_cases(quick):
    return (foundation_cases(quick) + elementwise_cases(quick) + reduction_cases(quick)
            + classic_cases(quick) + course_cases(quick) + small_cases(quick) + jit_cases(quick)
            + cuda_jit_cases(quick) + user_kernel_cases(quick) + dask_cases(quick))
