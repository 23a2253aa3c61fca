"""Accuracy of the transcendental ufuncs in ULP against NumPy.

For each function and dtype (float32, float64; complex64, complex128 where NumPy has a complex
loop), about 10^5 arguments spread over the function's meaningful range at several scales
(tiny, around 1, large, near the domain edges and overflow thresholds; |x| well past 1e5 for
the trigonometric functions) are evaluated by tessera and by NumPy. Special results (nan,
+-inf, +-0) must be identical; every other result must be within MAX_ULPS of NumPy's (each
part separately for complex results), or within 1 ULP for the float64 functions of
FLOAT64_ONE_ULP (NumPy's validation data, test_umath_validation.py, checks them against the
correctly rounded results).

On a CUDA device the functions are not the C library's: the real ones are CUDA's math
library (libdevice), the complex ones tessera's own (src/kernels/complex_math.h). NumPy's
result is then only one of two references, since it has errors of its own (glibc's complex64
functions are up to 6 ULP off, its float64 ones up to 1): a device result that is not within
the limit of NumPy's also passes when it is within the device limit of the more accurate
reference, NumPy's result one precision up (float64 for float32, long double for float64,
likewise for complex) rounded to the dtype. The device limits are device_max_ulps (CUDA's
documented bounds, docs/cuda.md); logaddexp and logaddexp2 cancel (a + log1p(...) can be far
below a), so on a device their error is measured in ULP of the larger operand; complex power,
exp(b log a) as in the C library, has the condition number |b log a|, so on a device its error
is measured in ULP of |a^b| times max(1, |b log a|).

Each test prints the worst ULP difference it measured (the assertion message has it too).
To see the whole table:

    .venv/bin/python -m pytest tests/python/test_ufunc_accuracy.py -q -rP -p no:cacheprovider

(-rP shows the captured output of passing tests; it also works with -n 2.)
"""

import warnings
import zlib

import numpy as np
import pytest

import tessera as tp

from test_ufunc_values import ulp_distance

MAX_ULPS = 4
# float64 functions held to 1 ULP of the correctly rounded result (docs/accuracy.md): NumPy
# calls glibc for them, itself nearly always correctly rounded, so tessera stays within
# 1 ULP of NumPy too.
FLOAT64_ONE_ULP = {"sin", "cos", "tan", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p"}


def max_ulps(op, dtype):
    return 1 if np.dtype(dtype) == np.float64 and op in FLOAT64_ONE_ULP else MAX_ULPS


def device_max_ulps(op, dtype):
    """The limit against the wider reference on a CUDA device: CUDA's stated maximum errors
    for the float64 functions of FLOAT64_ONE_ULP (2 ULP for sin, cos and tan, 1 for the
    others) plus one for the reference's own rounding; for complex128, tessera's own
    functions' bound (6 ULP on the host, tests/cpp/test_complex_math.cpp) plus two for
    CUDA's sinh, cosh, sin and cos under them (docs/cuda.md); MAX_ULPS otherwise."""
    dtype = np.dtype(dtype)
    if dtype == np.float64 and op in FLOAT64_ONE_ULP:
        return 3 if op in ("sin", "cos", "tan") else 2
    if dtype == np.complex128:
        return 8
    return MAX_ULPS


WIDER = {np.dtype(np.float32): np.float64, np.dtype(np.float64): np.longdouble,
         np.dtype(np.complex64): np.complex128, np.dtype(np.complex128): np.clongdouble}
N = 100_000

REAL_OPS = ["sin", "cos", "tan", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
            "sinh", "cosh", "tanh", "arcsin", "arccos", "arctan", "arcsinh", "arccosh",
            "arctanh", "cbrt", "sqrt", "hypot", "arctan2", "logaddexp", "logaddexp2", "power"]
COMPLEX_OPS = [op for op in REAL_OPS
               if any(t.split("->")[0] == "F" * getattr(np, op).nin for t in getattr(np, op).types)]

CASES = ([(op, np.dtype(d)) for op in REAL_OPS for d in (np.float32, np.float64)]
         + [(op, np.dtype(d)) for op in COMPLEX_OPS for d in (np.complex64, np.complex128)])


# --------------------------------------------------------------------------------------------
# arguments


class Gen:
    """Random arguments in float64, for a real dtype with limits `info`."""

    def __init__(self, op, dtype, n):
        self.rng = np.random.default_rng(zlib.crc32(f"{op}-{dtype}".encode()))
        self.info = np.finfo(dtype)
        self.n = n
        self.max = float(self.info.max)
        self.tiny = float(self.info.tiny)
        self.sub = float(self.info.smallest_subnormal)
        self.eps = float(self.info.eps)

    def lin(self, lo, hi):
        return self.rng.uniform(lo, hi, self.n)

    def logu(self, lo, hi):
        """|x| log-uniform in [lo, hi]."""
        return np.exp(self.rng.uniform(np.log(lo), np.log(hi), self.n))

    def sign(self, x):
        return x * self.rng.choice([-1.0, 1.0], self.n)

    def slog(self, lo, hi):
        return self.sign(self.logu(lo, hi))

    def ints(self, lo, hi):
        return self.rng.integers(lo, hi, self.n, endpoint=True).astype(np.float64)


def _near_multiples(g, step, kmax):
    """Representable neighbours of k*step (where sin/cos/tan have zeros and poles)."""
    x = g.ints(-kmax, kmax) * step
    return x * (1 + g.rng.integers(-4, 5, g.n) * g.eps)


def real_segments(op, g):
    """Lists of arguments (one array per operand) for `op`: each item a tuple of arrays."""
    big = np.log(g.max)          # exp overflow threshold
    small = np.log(g.sub)        # exp underflow to zero
    near1 = 1 - g.logu(g.eps / 2, 0.5)
    if op in ("sin", "cos", "tan"):
        return [(g.lin(-10, 10),), (g.slog(g.tiny, 1),), (g.slog(1, 1e5),),
                (g.slog(1e5, g.max),), (_near_multiples(g, np.pi / 2, 10**5),)]
    if op == "exp":
        return [(g.lin(small, big),), (g.slog(g.tiny, 1),), (g.lin(big - 2, big + 0.01),),
                (g.lin(small - 1, small + 5),)]
    if op == "exp2":
        lo, hi = np.log2(g.sub), np.log2(g.max)
        return [(g.lin(lo, hi),), (g.slog(g.tiny, 1),), (g.lin(hi - 2, hi + 0.01),),
                (g.lin(lo - 1, lo + 5),)]
    if op == "expm1":
        return [(g.slog(g.tiny, 1),), (g.lin(-40, big),), (g.lin(-1, 1),),
                (g.lin(big - 2, big + 0.01),)]
    if op in ("log", "log2", "log10"):
        return [(g.logu(g.sub, g.max),), (g.lin(0.5, 2),), (1 + g.slog(g.eps, 0.1),),
                (g.logu(g.sub, g.tiny),)]
    if op == "log1p":
        return [(g.logu(g.tiny, g.max),), (-1 + g.logu(g.eps, 1),), (g.slog(g.tiny, 0.5),),
                (g.lin(-0.9, 3),)]
    if op in ("sinh", "cosh"):
        return [(g.lin(-big - 0.7, big + 0.7),), (g.slog(g.tiny, 1),), (g.lin(-5, 5),)]
    if op == "tanh":
        return [(g.lin(-20, 20),), (g.slog(g.tiny, 1),), (g.slog(1, g.max),), (g.lin(-1, 1),)]
    if op in ("arcsin", "arccos", "arctanh"):
        return [(g.lin(-1, 1),), (g.slog(g.tiny, 1),), (g.sign(near1),)]
    if op in ("arctan", "arcsinh"):
        return [(g.slog(g.tiny, g.max),), (g.lin(-10, 10),), (g.slog(g.tiny, 1e-3),)]
    if op == "arccosh":
        return [(1 + g.logu(g.eps, g.max / 2),), (g.lin(1, 10),), (1 + g.logu(g.eps, 1e-3),)]
    if op == "cbrt":
        return [(g.slog(g.sub, g.max),), (g.lin(-10, 10),)]
    if op == "sqrt":
        return [(g.logu(g.sub, g.max),), (g.lin(0, 4),)]
    if op == "hypot":
        a = g.slog(g.sub, g.max)
        return [(a, g.slog(g.sub, g.max)),
                (a, a * g.sign(g.lin(0.1, 10))),
                (g.lin(-10, 10), g.lin(-10, 10)),
                (g.slog(g.max / 16, g.max), g.slog(g.max / 16, g.max))]
    if op == "arctan2":
        a = g.slog(g.tiny, g.max)
        return [(a, g.slog(g.tiny, g.max)), (a, a * g.sign(g.lin(0.1, 10))),
                (g.lin(-10, 10), g.lin(-10, 10))]
    if op in ("logaddexp", "logaddexp2"):
        span = 1000.0 if g.max > 1e300 else 100.0
        x = g.lin(-span, span)
        return [(x, g.lin(-span, span)), (x, x + g.slog(1e-10, 100)), (g.lin(-3, 3),
                g.lin(-3, 3))]
    if op == "power":
        lim = 1e10 if g.max > 1e300 else 1e4
        return [(g.logu(1 / lim, lim), g.lin(-30, 30)),
                (1 + g.slog(g.eps, 0.1), g.slog(1, 1e6)),
                (-g.logu(0.1, 10), g.ints(-20, 20)),
                (g.logu(g.tiny, g.max), g.rng.choice([0.5, 2.0, -1.0, 3.0, -0.5, 1 / 3], g.n)),
                (g.lin(0, 5), g.lin(-5, 5))]
    raise AssertionError(op)


def complex_segments(op, g):
    """Complex arguments: (real parts, imaginary parts) per operand."""
    theta = g.lin(-np.pi, np.pi)
    lim = 1e8 if g.max > 1e300 else 1e4

    def polar(lo, hi):
        r = g.logu(lo, hi)
        return r * np.cos(theta) + 1j * r * np.sin(theta)

    if op in ("sin", "cos", "tan", "exp", "exp2", "expm1", "sinh", "cosh", "tanh"):
        span = 50.0 if g.max > 1e300 else 20.0
        segs = [(g.lin(-span, span) + 1j * g.lin(-span, span),), (polar(g.tiny, 1e-3),),
                (g.lin(-2, 2) + 1j * g.lin(-2, 2),)]
    elif op == "power":
        segs = [(polar(1e-2, 1e2), g.lin(-5, 5) + 1j * g.lin(-5, 5)),
                (polar(0.1, 10), g.ints(-4, 4) + 0j),
                (g.lin(-3, 3) + 1j * g.lin(-3, 3), g.lin(-2, 2) + 0j)]
    else:
        segs = [(polar(1 / lim, lim),), (polar(g.tiny, 1e-3),),
                (g.lin(-2, 2) + 1j * g.lin(-2, 2),), (g.lin(-2, 2) + 0j,)]
    return segs


def arguments(op, dtype):
    """The operands (NumPy arrays of `dtype`), about N values in all."""
    dtype = np.dtype(dtype)
    part = np.dtype(dtype.char.lower())
    segments = complex_segments if dtype.kind == "c" else real_segments
    with np.errstate(over="ignore"):  # a few products overflow to inf: special values
        count = len(segments(op, Gen(op, part, 1)))
        segs = segments(op, Gen(op, part, N // count))
        return [np.concatenate([s[i] for s in segs]).astype(dtype) for i in range(len(segs[0]))]


# --------------------------------------------------------------------------------------------
# measuring


def measure(got, expected, limit=MAX_ULPS):
    """(worst ULP over the finite nonzero results, mask of special-value mismatches,
    mask of results beyond `limit`)."""
    parts = ("real", "imag") if expected.dtype.kind == "c" else ("real",)
    special_bad = np.zeros(expected.shape, bool)
    far = np.zeros(expected.shape, bool)
    worst = 0.0
    for part in parts:
        g, e = getattr(got, part), getattr(expected, part)
        gnan, enan = np.isnan(g), np.isnan(e)
        special = enan | np.isinf(e) | np.isinf(g) | (e == 0)
        exact = (g == e) & (np.signbit(g) == np.signbit(e))
        special_bad |= (gnan != enan) | (special & ~enan & ~exact)
        finite = ~special & ~gnan
        dist = np.where(finite, ulp_distance(g, e), 0.0)
        if dist.size:
            worst = max(worst, float(dist.max()))
        far |= dist > limit
    return worst, special_bad, far


def _examples(mask, got, expected, args, limit=5):
    idx = np.flatnonzero(mask)[:limit]
    return "\n".join(f"  f({', '.join(repr(a[i]) for a in args)}) -> {got[i]!r}, "
                     f"NumPy {expected[i]!r}" for i in idx)


def device_far(op, dtype, args, got, far):
    """Of the results `far` from NumPy's, those also beyond device_max_ulps of the wider
    reference (in ULP of the larger operand for logaddexp and logaddexp2)."""
    dtype = np.dtype(dtype)
    idx = np.flatnonzero(far)
    wide_args = [a[idx].astype(WIDER[dtype]) for a in args]
    with np.errstate(all="ignore"):
        reference = getattr(np, op)(*wide_args).astype(dtype)
    g = got[idx]
    limit = device_max_ulps(op, dtype)
    if op in ("logaddexp", "logaddexp2"):
        scale = np.maximum(np.abs(args[0][idx]), np.abs(args[1][idx]))
        error = np.abs(g.astype(np.float64) - reference.astype(np.float64))
        beyond = error > limit * np.spacing(scale).astype(np.float64)
    elif op == "power" and dtype.kind == "c":
        a, b = (x.astype(WIDER[dtype]) for x in wide_args)
        with np.errstate(all="ignore"):
            condition = np.maximum(1, np.abs(b * np.log(a))).astype(np.float64)
        error = np.abs(g.astype(np.complex128) - reference.astype(np.complex128))
        unit = np.spacing(np.abs(reference)).astype(np.float64)
        beyond = ~np.isfinite(error) | (error > limit * condition * unit)
    else:
        beyond = np.zeros(idx.size, bool)
        for part in ("real", "imag") if dtype.kind == "c" else ("real",):
            gp, rp = getattr(g, part), getattr(reference, part)
            finite = np.isfinite(gp) & np.isfinite(rp)
            beyond |= ~finite | (np.where(finite, ulp_distance(gp, rp), 0) > limit)
    out = np.zeros_like(far)
    out[idx[beyond]] = True
    return out


@pytest.mark.parametrize("op,dtype", CASES, ids=[f"{op}-{d}" for op, d in CASES])
def test_ulp_accuracy(op, dtype, device):
    args = arguments(op, dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            expected = getattr(np, op)(*args)
            got_t = getattr(tp, op)(*[tp.array(a) for a in args])
    assert got_t.dtype == expected.dtype, f"dtype {got_t.dtype} != NumPy {expected.dtype}"
    got = tp.asnumpy(got_t)
    limit = max_ulps(op, dtype)
    worst, special_bad, far = measure(got, expected, limit)
    print(f"{op:>10} {str(dtype):>10}: worst {worst:g} ULP over {expected.size} values")
    if device.kind == "cuda" and far.any():
        far = device_far(op, dtype, args, got, far)
    assert not special_bad.any(), (
        f"{op} {dtype}: {int(special_bad.sum())} special results (nan/inf/0) differ from "
        f"NumPy's:\n{_examples(special_bad, got, expected, args)}")
    assert not far.any(), (
        f"{op} {dtype}: worst {worst:g} ULP (> {limit}) in {int(far.sum())} of "
        f"{expected.size} values" + (" (and beyond the device limit of the wider reference)"
                                     if device.kind == "cuda" else "")
        + f":\n{_examples(far, got, expected, args)}")
