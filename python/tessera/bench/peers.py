"""The peers the suite compares against when they are installed (`make bench PEERS=1`).
On the CPU device: numexpr, Numba with `parallel=True`, and JAX on the CPU through `jax.jit`.
On a CUDA device: CuPy and Numba's CUDA target (`numba.cuda`), which run on the GPU; they
never join a CPU run, and the CPU peers never join a CUDA run.

Each peer runs only the cases it can express, written the way a user of that library would
write them; the others show as '-' in its column. Every peer result is checked against
NumPy's exactly as tessera's is, and a peer that disagrees is reported as failed."""

import importlib
import importlib.util

import numpy as np

from .cases import jacobi_dx, jacobi_max_iter, jacobi_tol
from .runner import host_copies


class Peer:
    """One comparison library: which cases it runs, and how its inputs, results and clocks
    are handled."""

    name = ""
    module = ""
    device_kind = "cpu"     # the tessera device whose runs this peer joins ("cpu" or "cuda")

    def available(self):
        return importlib.util.find_spec(self.module) is not None

    def version(self):
        return importlib.import_module(self.module).__version__

    def implementation(self, case):
        """The peer's program for `case` as a callable over the prepared inputs, or None."""
        raise NotImplementedError

    def prepare(self, host_inputs):
        return host_copies(host_inputs)

    def synchronize(self, result):
        pass

    def to_host(self, result):
        return result


def _jacobi_solve_with(step, max_abs_diff):
    """The case's solve loop around a peer's own step and convergence measure."""
    def solve(p, f):
        for _ in range(jacobi_max_iter):
            p_new = step(p, f)
            if max_abs_diff(p_new, p) < jacobi_tol:
                return p_new
            p = p_new
        return p
    return solve


class Numexpr(Peer):
    name = module = "numexpr"

    def implementation(self, case):
        import numexpr as ne

        def expression(text, *names):
            return lambda *arrays: ne.evaluate(text, local_dict=dict(zip(names, arrays)))

        def stencil(x):
            parts = {f"s{i}{j}": x[i:x.shape[0] - 2 + i, j:x.shape[1] - 2 + j]
                     for i in range(3) for j in range(3)}
            return ne.evaluate(" + ".join(parts), local_dict=parts)

        def jacobi_step(p, f):
            p_new = p.copy()
            p_new[1:-1, 1:-1] = ne.evaluate(
                "0.25 * (a + b + c + d + dx2 * g)",
                local_dict={"a": p[:-2, 1:-1], "b": p[2:, 1:-1], "c": p[1:-1, :-2],
                            "d": p[1:-1, 2:], "g": f[1:-1, 1:-1], "dx2": jacobi_dx**2})
            return p_new

        table = {
            "a + b": expression("a + b", "a", "b"),
            "a * b + c": expression("a * b + c", "a", "b", "c"),
            "exp": expression("exp(x)", "x"),
            "log": expression("log(x)", "x"),
            "sin": expression("sin(x)", "x"),
            "sin(x)**2+cos(x)**2": expression("sin(x)**2 + cos(x)**2", "x"),
            "3x3 box stencil": stencil,
            "Jacobi step": jacobi_step,
            "Jacobi solve": _jacobi_solve_with(
                jacobi_step, lambda a, b: float(ne.evaluate("max(abs(a - b))"))),
        }
        return table.get(case.name)


class Numba(Peer):
    name = module = "numba"
    _kernels = None

    @classmethod
    def kernels(cls):
        """Compiled once per process; Numba compiles each on its first call (the warm-up)."""
        if cls._kernels is None:
            from numba import njit, prange

            parallel = njit(parallel=True, cache=False)

            @parallel
            def stencil(x):
                n, m = x.shape
                out = np.empty((n - 2, m - 2))
                for i in prange(n - 2):
                    for j in range(m - 2):
                        out[i, j] = (x[i, j] + x[i, j + 1] + x[i, j + 2] + x[i + 1, j]
                                     + x[i + 1, j + 1] + x[i + 1, j + 2] + x[i + 2, j]
                                     + x[i + 2, j + 1] + x[i + 2, j + 2])
                return out

            @parallel
            def jacobi_step(p, f, dx2):
                n, m = p.shape
                p_new = p.copy()
                for i in prange(1, n - 1):
                    for j in range(1, m - 1):
                        p_new[i, j] = 0.25 * (p[i - 1, j] + p[i + 1, j] + p[i, j - 1]
                                              + p[i, j + 1] + dx2 * f[i, j])
                return p_new

            @parallel
            def max_abs_diff(a, b):
                return np.max(np.abs(a - b))

            @parallel
            def distance_matrix(x):
                n = x.shape[0]
                x2 = (x * x).sum(axis=1)
                out = np.empty((n, n))
                for i in prange(n):
                    for j in range(n):
                        dot = x[i, 0] * x[j, 0] + x[i, 1] * x[j, 1] + x[i, 2] * x[j, 2]
                        out[i, j] = x2[i] - 2 * dot + x2[j]
                return out

            cls._kernels = {
                "a + b": parallel(lambda a, b: a + b),
                "a * b + c": parallel(lambda a, b, c: a * b + c),
                "exp": parallel(lambda x: np.exp(x)),
                "log": parallel(lambda x: np.log(x)),
                "sin": parallel(lambda x: np.sin(x)),
                "sin(x)**2+cos(x)**2": parallel(lambda x: np.sin(x) ** 2 + np.cos(x) ** 2),
                "3x3 box stencil": stencil,
                "Jacobi step": lambda p, f: jacobi_step(p, f, jacobi_dx**2),
                "distance matrix": distance_matrix,
            }
            cls._kernels["Jacobi solve"] = _jacobi_solve_with(
                cls._kernels["Jacobi step"], lambda a, b: float(max_abs_diff(a, b)))
        return cls._kernels

    def implementation(self, case):
        from .cases import JIT_LOOPS, JIT_STENCILS, JIT_VECTORIZED, run_loop

        if case.name in JIT_LOOPS:  # the jit group: the very loops, through numba.njit
            import types

            import numba

            loop, _, parallel, _ = JIT_LOOPS[case.name]
            if parallel:  # the loop's prange, which is range for Python, is Numba's
                names = dict(loop.__globals__, prange=numba.prange)
                loop = types.FunctionType(loop.__code__, names, loop.__name__)
            compiled = numba.njit(parallel=parallel)(loop)
            return lambda *inputs: run_loop(compiled, np, case.name, *inputs)
        if case.name in JIT_VECTORIZED:  # the same scalar function through numba.vectorize
            import numba

            function, program = JIT_VECTORIZED[case.name]
            vectorized = numba.vectorize(function)
            return lambda *inputs: program(vectorized, *inputs)
        if case.name in JIT_STENCILS:  # and the very stencil kernels, through numba.stencil
            from numba import njit, stencil

            # Called from an njit function, as Numba's documentation shows (a stencil called
            # from Python is compiled again at each call).
            kernel = stencil(JIT_STENCILS[case.name])
            return njit(lambda x: kernel(x))
        return self.kernels().get(case.name)


class Jax(Peer):
    """`jax.jit` of each case's own program over `jax.numpy`; cases that mutate their inputs
    are written with `.at[].set()`, as JAX requires; host transfers are not JAX's to run."""

    name = module = "jax"
    _unsupported = {"x[::-1] = x (overlap)", "asnumpy", "asarray(list)"}

    def available(self):
        if not super().available():
            return False
        import jax

        jax.config.update("jax_enable_x64", True)   # float64 cases stay float64, as in NumPy
        jax.config.update("jax_platforms", "cpu")
        return True

    def implementation(self, case):
        if case.name in self._unsupported or case.group in ("jit", "cuda.jit"):  # loops, kernels
            return None
        import jax
        import jax.numpy as jnp
        from jax import lax

        def jacobi_step(p, f):
            update = 0.25 * (p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:]
                             + jacobi_dx**2 * f[1:-1, 1:-1])
            return p.at[1:-1, 1:-1].set(update)

        def jacobi_solve(p, f):
            def body(state):
                i, p, _ = state
                p_new = jacobi_step(p, f)
                return i + 1, p_new, jnp.max(jnp.abs(p_new - p))

            def more(state):
                i, _, diff = state
                return (i < jacobi_max_iter) & (diff >= jacobi_tol)

            return lax.while_loop(more, body, (0, p, jnp.inf))[1]

        class KeyedRandom:
            """NumPy's random calls on jax.random, whose generators take an explicit key."""

            key = jax.random.key(0)

            def normal(self, loc=0.0, scale=1.0, size=None):
                shape = (size,) if isinstance(size, int) else tuple(size)
                return loc + scale * jax.random.normal(self.key, shape, dtype=jnp.float64)

            def default_rng(self, seed=None):
                return self

        class WithRandom:
            random = KeyedRandom()

        special = {"Jacobi step": jacobi_step, "Jacobi solve": jacobi_solve,
                   "random.normal": lambda: case.run(WithRandom()),
                   "Generator.normal": lambda: case.run(WithRandom())}
        program = special.get(case.name) or (lambda *a: case.run(jnp, *a))
        return jax.jit(program)

    def prepare(self, host_inputs):
        import jax

        return tuple(jax.device_put(a).block_until_ready() if isinstance(a, np.ndarray) else a
                     for a in host_inputs)

    def synchronize(self, result):
        for r in result if isinstance(result, (tuple, list)) else (result,):
            r.block_until_ready()

    def to_host(self, result):
        if isinstance(result, (tuple, list)):
            return type(result)(np.asarray(r) for r in result)
        return np.asarray(result)


def _device_arrays(result, is_device_array, download):
    """`result` (an array, a scalar, or a tuple of them) with device arrays downloaded."""
    if isinstance(result, (tuple, list)):
        return type(result)(_device_arrays(r, is_device_array, download) for r in result)
    return download(result) if is_device_array(result) else np.asarray(result)


class Cupy(Peer):
    """CuPy follows NumPy's API, so a CuPy user writes each case's own program with
    `xp = cupy`: it runs every case, inputs uploaded before the clock starts."""

    name = module = "cupy"
    device_kind = "cuda"

    def available(self):
        if not super().available():
            return False
        try:
            import cupy

            return cupy.cuda.runtime.getDeviceCount() > 0
        except Exception:  # no driver, no GPU, or a CuPy built for another CUDA
            return False

    def implementation(self, case):
        import cupy

        if case.group in ("jit", "cuda.jit"):  # loops and kernels written for Numba
            return None
        return lambda *inputs: case.run(cupy, *inputs)

    def prepare(self, host_inputs):
        import cupy

        inputs = tuple(cupy.asarray(a) if isinstance(a, np.ndarray) else a for a in host_inputs)
        cupy.cuda.Device().synchronize()
        return inputs

    def synchronize(self, result):
        import cupy

        cupy.cuda.Device().synchronize()

    def to_host(self, result):
        import cupy

        return _device_arrays(result, lambda r: isinstance(r, cupy.ndarray), cupy.asnumpy)


class NumbaCuda(Peer):
    """Numba's CUDA target as its users write it: `@cuda.jit` kernels and `cuda.reduce`
    (`_numba_cuda.py`), on the cases such kernels express: elementwise math, the stencil,
    Jacobi, the distance matrix and the sum."""

    name = "numba.cuda"
    module = "numba"
    device_kind = "cuda"

    def available(self):
        if not super().available():
            return False
        try:
            from numba import cuda

            return cuda.is_available()
        except Exception:  # numba without numba-cuda, or no usable driver
            return False

    def version(self):
        import importlib.metadata

        import numba

        try:
            return f"{numba.__version__} (numba-cuda {importlib.metadata.version('numba-cuda')})"
        except importlib.metadata.PackageNotFoundError:
            return numba.__version__

    def implementation(self, case):
        from . import _numba_cuda  # imports numba.cuda: only once a CUDA run asks for it

        return _numba_cuda.PROGRAMS.get(case.name)

    def prepare(self, host_inputs):
        from numba import cuda

        inputs = tuple(cuda.to_device(a) if isinstance(a, np.ndarray) else a for a in host_inputs)
        cuda.synchronize()
        return inputs

    def synchronize(self, result):
        from numba import cuda

        cuda.synchronize()

    def to_host(self, result):
        return _device_arrays(result, lambda r: hasattr(r, "copy_to_host"),
                              lambda r: r.copy_to_host())


ALL = (Numexpr(), Numba(), Jax(), Cupy(), NumbaCuda())


def installed(device_kind="cpu"):
    """The peers that join a run on `device_kind` ("cpu" or "cuda") and are importable
    here, and the names of those that are not."""
    candidates = [p for p in ALL if p.device_kind == device_kind]
    present = [p for p in candidates if p.available()]
    return present, [p.name for p in candidates if p not in present]
