"""Issue 24's cases: CuPy's user kernels beside the built-in expressions they compute, in
the same run. Each kernel is what a CuPy user writes (`xp.ElementwiseKernel`,
`xp.ReductionKernel`, `xp.fuse`), so the CuPy peer runs the very same code on a GPU; NumPy
runs the equivalent array expression."""

import numpy as np

# One kernel object per array module, as a program makes it once.
_KERNELS = {}


def _kernel(xp, name, make):
    key = (xp.__name__, name)
    if key not in _KERNELS:
        _KERNELS[key] = make(xp)
    return _KERNELS[key]


def _squared_diff_kernel(xp):
    return xp.ElementwiseKernel("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff")


def _l2norm_kernel(xp):
    return xp.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")


def _squared_diff(x, y):
    return (x - y) * (x - y)


def _run_elementwise(xp, x, y):
    if xp is np:
        return _squared_diff(x, y)
    return _kernel(xp, "squared_diff", _squared_diff_kernel)(x, y)


def _run_fused(xp, x, y):
    if xp is np:
        return _squared_diff(x, y)
    return _kernel(xp, "fused", lambda xp: xp.fuse(_squared_diff))(x, y)


def _run_l2norm(xp, x):
    if xp is np:
        return np.sqrt((x * x).sum(axis=1))
    return _kernel(xp, "l2norm", _l2norm_kernel)(x, axis=1)


def _two_vectors(n):
    return lambda rng: (rng.standard_normal(n), rng.standard_normal(n))


def cases(Case, quick):
    n = 10**7 if not quick else 10**6
    label = f"1e{len(str(n)) - 1}"
    side = 3162 if not quick else 1000
    rows = lambda rng: (rng.standard_normal((side, side)),)  # noqa: E731
    return [
        Case("ElementwiseKernel (x-y)*(x-y)", label, _two_vectors(n), _run_elementwise,
             rtol=0, bytes_moved=3 * 8 * n, group="kernels"),
        Case("fuse (x-y)*(x-y)", label, _two_vectors(n), _run_fused, rtol=0,
             bytes_moved=3 * 8 * n, group="kernels"),
        Case("(x-y)*(x-y)", label, _two_vectors(n), lambda xp, x, y: _squared_diff(x, y),
             rtol=0, bytes_moved=3 * 8 * n, group="kernels"),
        Case("ElementwiseKernel (x-y)*(x-y)", "1e3", _two_vectors(1000), _run_elementwise,
             rtol=0, calls=100, group="kernels"),
        Case("(x-y)*(x-y)", "1e3", _two_vectors(1000), lambda xp, x, y: _squared_diff(x, y),
             rtol=0, calls=100, group="kernels"),
        Case("ReductionKernel L2 norm of rows", f"{side}x{side}", rows, _run_l2norm,
             rtol=1e-12, bytes_moved=8 * side * side, group="kernels"),
        Case("sqrt((x*x).sum(axis=1))", f"{side}x{side}", rows,
             lambda xp, x: xp.sqrt((x * x).sum(axis=1)), rtol=1e-12,
             bytes_moved=8 * side * side, group="kernels"),
    ]
