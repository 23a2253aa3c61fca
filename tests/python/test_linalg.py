"""Linear algebra: tessera.linalg checked against numpy.linalg (NumPy 2.4). norm with every
vector and matrix order, axis and keepdims; det and slogdet; inv, pinv, solve, lstsq; the
decompositions cholesky, qr (every mode), svd and svdvals, eig, eigh, eigvals, eigvalsh;
matrix_rank, cond, tensorsolve, tensorinv; and LinAlgError. Over float32, float64, complex64
and complex128 (integer and boolean input is computed in float64, float16 input is refused
with TypeError by all but the elementwise norms, as NumPy does), 0x0, 1x1, square,
rectangular and stacked shapes, and non-contiguous and pending inputs.

Decompositions are not unique (the signs or phases of singular vectors, eigenvectors and of
Q's columns, the order of eig's eigenvalues), so they are checked by their invariants: the
factors rebuild the input, Q, U, Vh and eigh's V are unitary, eig's (w, V) satisfy
A V = V diag(w) with unit columns, R is upper triangular with |R| equal to NumPy's |R|;
singular values and eigenvalues are compared with NumPy's directly (eig's by nearest match).
Results that are unique (det, inv, solve, pinv, lstsq, cholesky, norm, cond, ...) are compared
with NumPy's values. Empty inputs, whose results NumPy defines exactly (det 1.0, identity
factors), are compared exactly. Every returned array has NumPy's dtype and shape; where NumPy
raises, tessera raises the same type (for LinAlgError: numpy.linalg.LinAlgError or a subclass)
with an "[api]" message prefix.

NumPy computes float32 and complex64 problems in double precision and rounds the results;
tessera may compute them in single precision, so the tolerances (TOL) are relative to the
magnitudes involved and loose enough for a backward-stable single-precision algorithm on the
well-conditioned matrices used. Rank decisions (matrix_rank, pinv, lstsq cut-offs) are tested
on matrices whose small singular values are exactly zero, or with explicit tolerances far
from every singular value, so that they do not depend on rounding."""

import numpy as np
import pytest

import tessera as tp

from conftest import sample
from oracle import (assert_refuses_host_data, host_data_refused, is_host_data, message_of,
                    numpy_result, public_type)
from ufunc_oracle import dtype_id, outcome_like_numpy, raised_by

LA = np.linalg
NAN, INF = np.nan, np.inf

# Relative tolerance of a result of each dtype. Absolute errors are allowed up to the tolerance
# times the magnitude the result is computed from (the input's largest entry times its size
# for rebuilt factors; the result's own largest value, at least 1, otherwise).
TOL = {"float16": 1e-2, "float32": 1e-4, "complex64": 1e-4, "float64": 1e-10,
       "complex128": 1e-10}

FLOATS = [np.float32, np.float64, np.complex64, np.complex128]


# --------------------------------------------------------------------------------------------
# data


def wide(dtype):
    """The double-precision dtype of dtype's kind."""
    return np.dtype(np.complex128 if np.dtype(dtype).kind == "c" else np.float64)


def rand(shape, dtype, seed=0):
    """Entries of about unit size (sample() / 10; complex: both parts) as `dtype`."""
    x = np.asarray(sample(shape, np.float64, seed)) / 10
    if np.dtype(dtype).kind == "c":
        x = x + 1j * np.asarray(sample(shape, np.float64, seed + 1000)) / 10
    return np.asarray(x).astype(dtype)


def data(shape, dtype, seed=0):
    """rand() for inexact dtypes; sample() (integers within +-100, booleans) for the others."""
    if np.dtype(dtype).kind in "fc":
        return rand(shape, dtype, seed)
    return np.asarray(sample(shape, dtype, seed))


def conj_t(x):
    return np.conj(np.swapaxes(x, -1, -2))


def well_conditioned(shape, dtype, seed=0):
    """Square matrices (or stacks) rand() + n I: condition numbers of a few units."""
    n = shape[-1]
    return (rand(shape, wide(dtype), seed) + n * np.eye(n)).astype(dtype)


def square(shape, dtype, seed=0):
    """well_conditioned() for inexact dtypes; integers: sample() + 300 I (diagonally
    dominant)."""
    if np.dtype(dtype).kind in "fc":
        return well_conditioned(shape, dtype, seed)
    n = shape[-1]
    return (np.asarray(sample(shape, np.int64, seed)) + 300 * np.eye(n, dtype=np.int64)
            ).astype(dtype)


def hermitian(shape, dtype, seed=0):
    """Hermitian (real: symmetric) matrices with eigenvalues of both signs, exactly
    Hermitian (real diagonal)."""
    a = rand(shape, wide(dtype), seed)
    return ((a + conj_t(a)) / 2).astype(dtype)


def hpd(shape, dtype, seed=0):
    """Hermitian positive definite matrices A A^H + n I, exactly Hermitian."""
    a = rand(shape, wide(dtype), seed)
    h = a @ conj_t(a) + shape[-1] * np.eye(shape[-1])
    return ((h + conj_t(h)) / 2).astype(dtype)


def product(shape, rank, dtype, seed=0):
    """Integer-valued matrices of `rank`: a product of small random integer factors, computed
    exactly (complex: times 1+2j, still exact)."""
    rng = np.random.default_rng(seed)
    m, n = shape
    a = rng.integers(-3, 4, (m, rank)) @ rng.integers(-3, 4, (rank, n))
    if np.dtype(dtype).kind == "c":
        a = a * (1 + 2j)
    return a.astype(dtype)


def with_kind(values, dtype):
    """values (NumPy array) as dtype, times 1+1j for complex dtypes."""
    values = np.asarray(values)
    if np.dtype(dtype).kind == "c":
        values = values * (1 + 1j)
    return values.astype(dtype)


# --------------------------------------------------------------------------------------------
# comparisons


def tol_of(dtype):
    return TOL.get(np.dtype(dtype).name, TOL["float64"])


def as_wide(x):
    """x in double precision (complex128 or float64), for computing invariants."""
    x = np.asarray(x)
    return x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)


def magnitude(x):
    """The largest finite |x| (0 for none)."""
    x = np.abs(as_wide(x))
    finite = x[np.isfinite(x)]
    return float(finite.max()) if finite.size else 0.0


def to_numpy(got):
    return tp.asnumpy(got) if isinstance(got, tp.ndarray) else np.asarray(got)


def meta(got, expected, what="result"):
    """tessera's `got` as a NumPy array, after checking that it is a tessera array where
    NumPy's `expected` is an array (a 0-d tessera array or a scalar where NumPy gives a
    scalar) and has NumPy's dtype and shape."""
    __tracebackhide__ = True
    if isinstance(expected, np.ndarray):
        assert isinstance(got, tp.ndarray), \
            f"{what}: expected tessera.ndarray, got {type(got).__name__}"
    else:
        assert isinstance(got, (tp.ndarray, np.generic, bool, int, float, complex)), \
            f"{what}: expected a 0-d tessera.ndarray or a scalar, got {type(got).__name__}"
    g, e = to_numpy(got), np.asarray(expected)
    assert (g.dtype, g.shape) == (e.dtype, e.shape), \
        f"{what}: dtype/shape {g.dtype}{g.shape} != {e.dtype}{e.shape}"
    return g


def close(g, e, scale=None, what="result", tol=None):
    """NumPy arrays g and e equal within tol relative plus tol * scale absolute (scale: the
    largest |e|, at least 1, by default); exactly for integer and boolean dtypes."""
    __tracebackhide__ = True
    e = np.asarray(e)
    if e.dtype.kind not in "fc":
        assert np.array_equal(g, e), f"{what}: values differ:\n{g}\n!=\n{e}"
        return
    tol = tol_of(e.dtype) if tol is None else tol
    scale = max(magnitude(e), 1.0) if scale is None else scale
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(g, e, rtol=tol, atol=tol * scale, equal_nan=True,
                                   err_msg=what)


def near(got, expected, scale=None, what="result"):
    """meta() and close() of one tessera result, or of each array of a tuple result."""
    __tracebackhide__ = True
    if isinstance(expected, tuple):
        assert isinstance(got, tuple), \
            f"{what}: expected a tuple of {len(expected)}, got {type(got).__name__}"
        assert len(got) == len(expected), f"{what}: {len(got)} results != {len(expected)}"
        for i, (g, e) in enumerate(zip(got, expected)):
            near(g, e, scale, f"{what}[{i}]")
        return
    close(meta(got, expected, what), expected, scale, what)


def exact(got, expected, what="result"):
    """meta() and equal values (NaN matching NaN) of a result or of each array of a tuple."""
    __tracebackhide__ = True
    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected), \
            f"{what}: expected a tuple of {len(expected)}, got {type(got).__name__}"
        for i, (g, e) in enumerate(zip(got, expected)):
            exact(g, e, f"{what}[{i}]")
        return
    g, e = meta(got, expected, what), np.asarray(expected)
    assert np.array_equal(g, e, equal_nan=e.dtype.kind in "fc"), \
        f"{what}: values differ:\n{g}\n!=\n{e}"


def values(scale=None):
    """The check of a unique result: near() NumPy's."""
    def check(got, expected):
        __tracebackhide__ = True
        near(got, expected, scale)
    return check


def parts(got, expected, names):
    """The arrays of a tuple result, each meta()-checked against NumPy's."""
    __tracebackhide__ = True
    assert isinstance(got, tuple), \
        f"expected a tuple ({', '.join(names)}), got {type(got).__name__}"
    assert len(got) == len(expected), f"{len(got)} results != {len(expected)}"
    return [meta(g, e, n) for g, e, n in zip(got, expected, names)]


def size_of(a):
    return max(np.shape(a)[-2:] + (1,))


def assert_unitary(q, tol, what, rows=False):
    """q's columns (rows) are orthonormal: Q^H Q = I (Q Q^H = I)."""
    __tracebackhide__ = True
    q = as_wide(q)
    gram = q @ conj_t(q) if rows else conj_t(q) @ q
    k = gram.shape[-1]
    err = np.abs(gram - np.eye(k)).max(initial=0)
    assert err <= tol * max(k, 1), f"{what} is not unitary: max |Q^H Q - I| = {err:.3g}"


def assert_rebuilds(rebuilt, a, tol, what):
    """The factors' product `rebuilt` equals the input a within tol * |a| * size."""
    __tracebackhide__ = True
    err = np.abs(rebuilt - as_wide(a)).max(initial=0)
    bound = tol * max(magnitude(a), 1.0) * size_of(a)
    assert err <= bound, f"{what} does not rebuild the input: max error {err:.3g} > {bound:.3g}"


def match_eigenvalues(got, expected, atol):
    """Each of NumPy's eigenvalues (per matrix) has its own tessera eigenvalue within atol."""
    __tracebackhide__ = True
    n = expected.shape[-1]
    for g, e in zip(got.reshape(-1, n), expected.reshape(-1, n)):
        left = list(g)
        for x in e:
            dist = [abs(x - y) for y in left]
            j = int(np.argmin(dist))
            assert dist[j] <= atol, (f"NumPy's eigenvalue {x} has no match in tessera's {g} "
                                     f"(nearest off by {dist[j]:.3g} > {atol:.3g})")
            left.pop(j)


def svd_check(a, compute_uv=True, full_matrices=True):
    """svd: NumPy's singular values; U and Vh unitary (square when full_matrices) and
    U diag(S) Vh = a."""
    def check(got, expected):
        __tracebackhide__ = True
        if not compute_uv:
            near(got, expected, what="S")
            return
        u, s, vh = parts(got, expected, ("U", "S", "Vh"))
        if a.size == 0:  # NumPy's answer is exact: empty or identity factors
            exact(got, expected, "svd")
            return
        close(s, expected[1], what="S")
        tol, k = tol_of(s.dtype), s.shape[-1]
        assert_unitary(u, tol, "U")
        assert_unitary(vh, tol, "Vh", rows=True)
        if full_matrices:
            assert_unitary(u, tol, "U (full)", rows=True)
            assert_unitary(vh, tol, "Vh (full)")
        rebuilt = (as_wide(u)[..., :, :k] * s[..., None, :]) @ as_wide(vh)[..., :k, :]
        assert_rebuilds(rebuilt, a, tol, "U diag(S) Vh")
    return check


def qr_from_raw(h, tau):
    """Q @ R rebuilt from qr(mode='raw')'s (h, tau) of one matrix: h^T holds R on and above
    its diagonal and the Householder vectors below it (LAPACK's geqrf), Q = H_1 ... H_k with
    H_i = I - tau_i v_i v_i^H."""
    a = as_wide(h).T
    m = a.shape[0]
    q = np.eye(m, dtype=np.complex128)
    for i, t in enumerate(as_wide(tau)):
        v = np.zeros(m, dtype=np.complex128)
        v[i] = 1
        v[i + 1:] = a[i + 1:, i]
        q = q @ (np.eye(m) - t * np.outer(v, v.conj()))
    return q @ np.triu(a)


def qr_check(a, mode):
    """qr: Q unitary (square for 'complete'), R upper triangular with NumPy's |R|, Q R = a;
    'raw' rebuilds a from the Householder reflectors."""
    def check(got, expected):
        __tracebackhide__ = True
        if mode == "r":
            r = meta(got, expected, "R")
        elif mode == "raw":
            h, tau = parts(got, expected, ("h", "tau"))
        else:
            q, r = parts(got, expected, ("Q", "R"))
        if a.size == 0:
            exact(got, expected, f"qr(mode={mode!r})")
            return
        tol = tol_of(a.dtype if a.dtype.kind in "fc" else np.float64)
        if mode == "raw":
            for index in np.ndindex(a.shape[:-2]):
                assert_rebuilds(qr_from_raw(h[index], tau[index]), a[index], tol,
                                f"raw (h, tau) of matrix {index}")
            return
        assert np.all(np.tril(r, -1) == 0), f"R is not upper triangular:\n{r}"
        e_r = expected if mode == "r" else expected[1]
        close(np.abs(r), np.abs(e_r), max(magnitude(a), 1.0) * size_of(a), "|R|")
        if mode == "r":
            return
        assert_unitary(q, tol, "Q")
        if mode == "complete":
            assert_unitary(q, tol, "Q (complete)", rows=True)
        assert_rebuilds(as_wide(q) @ as_wide(r), a, tol, "Q R")
    return check


def eig_check(a, vectors):
    """eig/eigvals: NumPy's eigenvalue dtype (real when every eigenvalue of real input is
    real) and values (matched in any order); A V = V diag(w) with unit columns."""
    def check(got, expected):
        __tracebackhide__ = True
        if vectors:
            w, v = parts(got, expected, ("eigenvalues", "eigenvectors"))
            ew = expected[0]
        else:
            w, ew = meta(got, expected, "eigenvalues"), expected
        if a.size == 0:
            exact(got, expected, "eig")
            return
        tol = tol_of(w.dtype)
        scale = max(magnitude(a), 1.0) * size_of(a)
        match_eigenvalues(w, ew, tol * scale)
        if vectors:
            vw = as_wide(v)
            err = np.abs(as_wide(a) @ vw - vw * as_wide(w)[..., None, :]).max()
            assert err <= tol * scale, f"A V != V diag(w): max error {err:.3g}"
            norms = np.sqrt((np.abs(vw) ** 2).sum(axis=-2))
            assert np.abs(norms - 1).max() <= tol * size_of(a), \
                f"eigenvectors are not unit vectors: norms {norms}"
    return check


def eigh_check(h, vectors):
    """eigh/eigvalsh of the Hermitian matrix h (the triangle read): NumPy's ascending real
    eigenvalues; V unitary and h V = V diag(w)."""
    def check(got, expected):
        __tracebackhide__ = True
        if vectors:
            w, v = parts(got, expected, ("eigenvalues", "eigenvectors"))
            ew = expected[0]
        else:
            w, ew = meta(got, expected, "eigenvalues"), expected
        if h.size == 0:
            exact(got, expected, "eigh")
            return
        scale = max(magnitude(h), 1.0) * size_of(h)
        close(w, ew, scale, "eigenvalues")
        if vectors:
            tol = tol_of(w.dtype)
            assert_unitary(v, tol, "eigenvectors")
            vw = as_wide(v)
            err = np.abs(as_wide(h) @ vw - vw * w[..., None, :]).max()
            assert err <= tol * scale, f"H V != V diag(w): max error {err:.3g}"
    return check


def cholesky_check(a, upper):
    """cholesky: NumPy's factor (unique: positive real diagonal), exact zeros in the other
    triangle, and L L^H = a (U^H U = a)."""
    def check(got, expected):
        __tracebackhide__ = True
        g = meta(got, expected, "factor")
        close(g, expected, max(magnitude(a), 1.0) * size_of(a), "factor")
        other = np.tril(g, -1) if upper else np.triu(g, 1)
        assert np.all(other == 0), f"the other triangle is not zero:\n{g}"
        w = as_wide(g)
        rebuilt = conj_t(w) @ w if upper else w @ conj_t(w)
        assert_rebuilds(rebuilt, a, tol_of(g.dtype), "U^H U" if upper else "L L^H")
    return check


def slogdet_check(a):
    """slogdet: NumPy's sign (a unit number, 0 when singular) and log|det| (absolute error
    of the order of det's relative error)."""
    def check(got, expected):
        __tracebackhide__ = True
        sign, logabsdet = parts(got, expected, ("sign", "logabsdet"))
        close(sign, expected[0], 1.0, "sign")
        close(logabsdet, expected[1], size_of(a), "logabsdet")
    return check


def det_scale(a):
    """Hadamard's bound on |det a| (the largest over a stack, at least 1) times the size: the
    magnitude det's rounding error is relative to, even when det cancels to about 0."""
    rows = np.sqrt((np.abs(as_wide(a)) ** 2).sum(axis=-1))
    return max(float(np.max(np.prod(rows, axis=-1), initial=1.0)), 1.0) * size_of(a)


def lstsq_check(a, b):
    """lstsq: x (unique: the minimum-norm solution), residuals, rank and singular values as
    NumPy's."""
    def check(got, expected):
        __tracebackhide__ = True
        x, residuals, rank, s = parts(got, expected, ("x", "residuals", "rank", "s"))
        close(x, expected[0], max(magnitude(expected[0]), 1.0) * size_of(a), "x")
        close(residuals, expected[1], max(magnitude(b), 1.0) ** 2 * size_of(a), "residuals")
        close(rank, expected[2], what="rank")
        close(s, expected[3], what="s")
    return check


def huge(dtype):
    """A lower bound of cond(singular matrix): NumPy's finite answer is rounding noise; any
    value beyond 1 / (1000 eps), inf included, is as right."""
    def check(got, expected):
        __tracebackhide__ = True
        g = meta(got, expected)
        bound = 1 / (1000 * np.finfo(dtype).eps)
        assert np.all(g >= bound), f"cond of a singular matrix {g} < {bound:.3g}"
    return check


# --------------------------------------------------------------------------------------------
# running a call in both libraries


def raises_same(error, tp_call):
    """tp_call raises the type of NumPy's `error` (LinAlgError: numpy.linalg.LinAlgError or a
    subclass), with a message prefixed "[api]"."""
    __tracebackhide__ = True
    got = raised_by(tp_call, error)
    expected = public_type(error)
    if issubclass(expected, LA.LinAlgError):
        ok = isinstance(got, LA.LinAlgError)
    else:
        ok = type(got) is expected
    assert ok, (f"NumPy raises {type(error).__name__}({error}), tessera raises "
                f"{type(got).__name__}({got})")
    assert message_of(got).startswith("["), f"message lacks the API prefix: {message_of(got)!r}"


def to_tp(x):
    return tp.asarray(x) if isinstance(x, (np.ndarray, np.generic)) else x


def run(name, check, *args, tp_args=None, **kwargs):
    """numpy.linalg.<name>(*args, **kwargs) against tessera.linalg.<name> of the same
    arguments, NumPy arrays given as tessera arrays (or of tp_args): check(got, expected) on
    NumPy's result, or where NumPy raises, the same exception type. A failure names the case
    from the calling test's local variables."""
    __tracebackhide__ = True
    targs = tuple(to_tp(x) for x in args) if tp_args is None else tp_args
    tkwargs = {k: to_tp(v) for k, v in kwargs.items()}
    return outcome_like_numpy(lambda: getattr(LA, name)(*args, **kwargs),
                              lambda: getattr(tp.linalg, name)(*targs, **tkwargs),
                              check, raises_same)


def run_host(name, check, *args, **kwargs):
    """run() for arguments that are NumPy data (lists) given to tessera as they are: converted
    as NumPy converts them on the CPU; on a device that refuses host data (CUDA) refused, alone
    or beside tessera arrays. Then given as tessera.asarray of them, checked against NumPy's
    result on every device."""
    __tracebackhide__ = True
    function = getattr(tp.linalg, name)
    converted = tuple(tp.asarray(x) if is_host_data(x) else to_tp(x) for x in args)
    if host_data_refused(lambda: function(*args, **kwargs)):
        hosts = [i for i, x in enumerate(args) if is_host_data(x)]
        for i in hosts if len(hosts) > 1 else ():  # one host operand among tessera arrays
            mixed = converted[:i] + (args[i],) + converted[i + 1:]
            assert_refuses_host_data(lambda: function(*mixed, **kwargs))
    else:
        run(name, check, *args, **kwargs)
    run(name, check, *args, tp_args=converted, **kwargs)


# --------------------------------------------------------------------------------------------
# names


NAMES = ["norm", "det", "slogdet", "inv", "pinv", "solve", "lstsq", "cholesky", "qr", "svd",
         "svdvals", "eig", "eigh", "eigvals", "eigvalsh", "matrix_rank", "cond", "tensorsolve",
         "tensorinv"]


def test_function_names():
    linalg = getattr(tp, "linalg", None)
    assert linalg is not None, "tessera.linalg is missing"
    missing = [name for name in NAMES if not callable(getattr(linalg, name, None))]
    assert not missing, f"tessera.linalg lacks {missing}"


def test_linalg_error(device):
    """tessera.linalg.LinAlgError is NumPy's (or a subclass): `except np.linalg.LinAlgError`
    catches tessera's errors."""
    assert issubclass(tp.linalg.LinAlgError, LA.LinAlgError)
    with pytest.raises(LA.LinAlgError):
        tp.linalg.inv(tp.asarray(np.array([[1.0, 2.0], [0.0, 0.0]])))
    with pytest.raises(tp.linalg.LinAlgError):
        tp.linalg.cholesky(tp.asarray(-np.eye(3)))


# --------------------------------------------------------------------------------------------
# norm


VECTOR_ORDS = [None, INF, -INF, 0, 1, -1, 2, -2, 3, 0.5, -1.5]
MATRIX_ORDS = [None, "fro", "nuc", INF, -INF, 1, -1, 2, -2]
NORM_DTYPES = [np.float16, np.float32, np.float64, np.complex64, np.complex128, np.int64,
               np.bool_]
# (shape, axis): vectors, and the vectors along one axis of 2-d and 3-d arrays
VECTOR_CASES = [((7,), None), ((1,), None), ((0,), None), ((), None), ((2, 3, 4), 0),
                ((2, 3, 4), -1), ((3, 5), 1)]
# (shape, axis): matrices, and the matrices over two axes of 3-d arrays. ord=None with
# axis=None flattens any array; other orders raise for 3-d, and -2, -1, -inf for some empties.
MATRIX_CASES = [((3, 4), None), ((4, 3), (1, 0)), ((1, 1), None), ((0, 3), None),
                ((3, 0), (0, 1)), ((2, 3, 4), (1, 2)), ((2, 3, 4), (2, 0)),
                ((2, 3, 4), (-1, -3)), ((2, 3, 4), None)]


@pytest.mark.parametrize("order", VECTOR_ORDS, ids=str)
@pytest.mark.parametrize("dtype", NORM_DTYPES, ids=dtype_id)
def test_vector_norm(device, dtype, order):
    """Vector norms of every order, of 1-d arrays and along one axis, with keepdims: values,
    dtype (float64 for integers and booleans, the real type of complex input, float16
    kept), shape; ValueError where NumPy raises (-inf of an empty vector, orders of 0-d)."""
    for shape, axis in VECTOR_CASES:
        x = data(shape, dtype)
        for keepdims in (False, True):
            run("norm", values(), x, ord=order, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("order", MATRIX_ORDS, ids=str)
@pytest.mark.parametrize("dtype", NORM_DTYPES[:-1], ids=dtype_id)
def test_matrix_norm(device, dtype, order):
    """Matrix norms of every order over two axes (given in either order, negative), with
    keepdims; TypeError for the SVD-based orders of float16 as NumPy."""
    for shape, axis in MATRIX_CASES:
        x = data(shape, dtype)
        for keepdims in (False, True):
            run("norm", values(), x, ord=order, axis=axis, keepdims=keepdims)


# --------------------------------------------------------------------------------------------
# det, slogdet, inv, solve


SQUARE_SHAPES = [(0, 0), (1, 1), (3, 3), (4, 4), (2, 3, 4, 4), (2, 0, 0)]


@pytest.mark.parametrize("dtype", FLOATS + [np.int64], ids=dtype_id)
def test_det(device, dtype):
    """det of empty (1.0), 1x1, square and stacked matrices; float64 for integers."""
    for shape in SQUARE_SHAPES:
        a = square(shape, dtype)
        run("det", values(det_scale(a)), a)


@pytest.mark.parametrize("dtype", FLOATS + [np.int64], ids=dtype_id)
def test_slogdet(device, dtype):
    """slogdet: sign of a's dtype (float64 for integers), logabsdet of its real dtype;
    (1, 0) for empty matrices."""
    for shape in SQUARE_SHAPES:
        a = square(shape, dtype)
        run("slogdet", slogdet_check(a), a)
    a = square((4, 4), dtype) * -1  # negative sign
    run("slogdet", slogdet_check(a), a)


@pytest.mark.parametrize("dtype", FLOATS + [np.int64], ids=dtype_id)
def test_inv(device, dtype):
    """inv of empty, 1x1, square and stacked matrices (unique: compared with NumPy's)."""
    for shape in SQUARE_SHAPES:
        a = square(shape, dtype)
        run("inv", values(), a)


def singular_matrices(dtype):
    """Exactly singular integer-valued matrices (a zero row or column, or proportional rows
    for real dtypes: LU meets an exact zero pivot) and a stack with one of them."""
    out = [with_kind([[1, 2], [0, 0]], dtype),
           with_kind([[0, 0, 0], [1, 2, 3], [4, 5, 6]], dtype),
           with_kind([[1, 0, 3], [2, 0, 5], [4, 0, 1]], dtype),
           np.stack([with_kind(2 * np.eye(3), dtype),
                     with_kind([[1, 2, 3], [4, 5, 6], [0, 0, 0]], dtype)])]
    if np.dtype(dtype).kind != "c":
        out.append(np.array([[1, 2], [2, 4]]).astype(dtype))
    return out


@pytest.mark.parametrize("dtype", FLOATS + [np.int64], ids=dtype_id)
def test_singular(device, dtype):
    """Exactly singular matrices: det 0, slogdet (0, -inf); inv, solve and tensorinv raise
    LinAlgError ("Singular matrix"), for a whole stack when one matrix is singular."""
    for a in singular_matrices(dtype):
        shape = a.shape  # noqa: F841  (named by a failure's case)
        run("det", values(det_scale(a)), a)
        run("slogdet", values(), a)
        run("inv", values(), a)
        run("solve", values(), a, np.ones(a.shape[-1], dtype))
        run("solve", values(), a, np.ones(a.shape[-1:] + (2,), dtype))
        if a.ndim == 2:
            run("tensorinv", values(), a, ind=1)


SOLVE_CASES = {  # (a's shape, b's shape): b is a vector only when b.ndim == 1 (NumPy 2)
    "vector": ((4, 4), (4,)),
    "matrix": ((4, 4), (4, 2)),
    "1x1": ((1, 1), (1,)),
    "stack-vector": ((2, 3, 4, 4), (4,)),
    "stack-columns": ((2, 3, 4, 4), (2, 3, 4, 1)),
    "stack-broadcast-matrix": ((2, 3, 4, 4), (4, 2)),
    "broadcast-a": ((4, 4), (2, 4, 3)),
    "stack-square-b": ((3, 4, 4), (4, 4)),
    "stack-of-vectors-is-a-matrix": ((3, 4, 4), (3, 4)),  # ValueError in NumPy 2
    "stack-b-ndim-minus-1": ((2, 3, 4, 4), (2, 3, 4)),  # ValueError in NumPy 2
    "no-rhs": ((4, 4), (4, 0)),
    "empty": ((0, 0), (0,)),
    "empty-stack": ((2, 0, 0), (2, 0, 3)),
    "mismatch-vector": ((4, 4), (3,)),
    "mismatch-matrix": ((4, 4), (3, 2)),
    "0-d-b": ((4, 4), ()),
}


@pytest.mark.parametrize("case", list(SOLVE_CASES))
def test_solve(device, case):
    """solve with b as a vector (b.ndim == 1) or as (a stack of) matrices, broadcast batch
    dimensions, empty systems; ValueError for mismatched shapes."""
    a_shape, b_shape = SOLVE_CASES[case]
    for dtype in FLOATS:
        a, b = square(a_shape, dtype), rand(b_shape, dtype, seed=1)
        run("solve", values(), a, b)


SOLVE_DTYPES = [(np.float32, np.float64), (np.float64, np.float32), (np.float32, np.complex64),
                (np.int64, np.complex64), (np.int32, np.int64), (np.bool_, np.float32),
                (np.complex64, np.float64), (np.float32, np.float16), (np.float16, np.float64)]


@pytest.mark.parametrize("a_dtype,b_dtype", SOLVE_DTYPES, ids=lambda d: dtype_id(d))
def test_solve_mixed_dtypes(device, a_dtype, b_dtype):
    """solve's result type: float32 only when both are float32 (or complex64), float64 for
    integers and booleans, TypeError for float16."""
    a = np.eye(4, dtype=bool) if a_dtype is np.bool_ else square((4, 4), a_dtype)
    for b_shape in ((4,), (4, 2)):
        b = data(b_shape, b_dtype, seed=1)
        run("solve", values(), a, b)


# --------------------------------------------------------------------------------------------
# lstsq, pinv, matrix_rank


LSTSQ_CASES = {  # a, and lstsq's rcond
    "tall": (lambda dt: data((6, 3), dt), None),
    "wide": (lambda dt: data((3, 5), dt), None),
    "square": (lambda dt: square((4, 4), dt), None),
    "rank-deficient-tall": (lambda dt: product((6, 4), 2, dt), 1e-5),
    "rank-deficient-wide": (lambda dt: product((3, 5), 2, dt, seed=1), 1e-5),
    "1x1": (lambda dt: square((1, 1), dt), None),
    "empty": (lambda dt: data((0, 0), dt), None),
    "no-rows": (lambda dt: data((0, 3), dt), None),
    "no-columns": (lambda dt: data((3, 0), dt), None),
}


@pytest.mark.parametrize("rhs", ["vector", "matrix", "no-rhs"])
@pytest.mark.parametrize("dtype", FLOATS + [np.int64], ids=dtype_id)
def test_lstsq(device, dtype, rhs):
    """lstsq: the minimum-norm least-squares solution, residuals ((1,) or (K,) when full
    rank and tall, else (0,)), rank (int32) and singular values, for tall, wide, square,
    rank-deficient and empty a."""
    for case, (make_a, rcond) in LSTSQ_CASES.items():
        a = make_a(dtype)
        m = a.shape[0]
        b = data({"vector": (m,), "matrix": (m, 2), "no-rhs": (m, 0)}[rhs], dtype, seed=2)
        run("lstsq", lstsq_check(a, b), a, b, rcond=rcond)


PINV_CASES = {  # a and pinv's keywords
    "square": (lambda dt: square((4, 4), dt), {}),
    "tall": (lambda dt: data((5, 3), dt), {}),
    "wide": (lambda dt: data((3, 5), dt), {}),
    "stack": (lambda dt: data((2, 3, 4, 2), dt), {}),
    "1x1": (lambda dt: square((1, 1), dt), {}),
    "empty": (lambda dt: data((0, 0), dt), {}),
    "no-rows": (lambda dt: data((0, 3), dt), {}),
    "no-columns": (lambda dt: data((3, 0), dt), {}),
    "empty-stack": (lambda dt: data((2, 0, 3), dt), {}),
    "rtol-none": (lambda dt: square((4, 4), dt), {"rtol": None}),
    "rank-deficient-rcond": (lambda dt: product((6, 4), 2, dt), {"rcond": 1e-5}),
    "rank-deficient-rtol": (lambda dt: product((4, 6), 2, dt), {"rtol": 1e-5}),
    "rcond-cuts": (lambda dt: with_kind(np.diag([10.0, 1.0, 0.1, 0.01]), dt), {"rcond": 0.05}),
    "rcond-array": (lambda dt: with_kind(np.stack([np.diag([10.0, 1.0, 0.1])] * 2), dt),
                    {"rcond": np.array([0.05, 0.005])}),
    "hermitian": (lambda dt: hermitian((4, 4), dt), {"hermitian": True}),
    "hermitian-stack": (lambda dt: hermitian((2, 3, 3), dt), {"hermitian": True}),
}


@pytest.mark.parametrize("case", list(PINV_CASES))
def test_pinv(device, case):
    """pinv (unique: compared with NumPy's) with the default, rcond, rtol (None: max(M, N)
    eps) and array cut-offs, hermitian=True, stacks and empty matrices ((N, M) result)."""
    make_a, kwargs = PINV_CASES[case]
    for dtype in FLOATS:
        a = make_a(dtype)
        run("pinv", values(), a, **kwargs)


RANK_CASES = {  # a and matrix_rank's keywords
    "full": (lambda dt: square((4, 4), dt), {}),
    "stack": (lambda dt: square((2, 3, 4, 4), dt), {}),
    "zero-singular-values": (lambda dt: with_kind(np.diag([3.0, 0.0, -1.0, 0.0]), dt), {}),
    "permuted-diagonal": (lambda dt: with_kind([[0, 2, 0, 0], [0, 0, 0, 0], [5, 0, 0, 0],
                                                [0, 0, 0, 1], [0, 0, 0, 0]], dt), {}),
    "zeros": (lambda dt: with_kind(np.zeros((3, 3)), dt), {}),
    "product-rtol": (lambda dt: product((6, 4), 2, dt), {"rtol": 1e-5}),
    "product-tol": (lambda dt: product((4, 6), 1, dt), {"tol": 1e-3}),
    "spread-tol": (lambda dt: with_kind(np.diag([10.0, 1.0, 0.1, 0.01]), dt), {"tol": 0.5}),
    "spread-rtol": (lambda dt: with_kind(np.diag([10.0, 1.0, 0.1, 0.01]), dt),
                    {"rtol": 0.05}),
    "tol-array": (lambda dt: with_kind(np.stack([np.diag([10.0, 1.0, 0.1, 0.01])] * 2), dt),
                  {"tol": np.array([0.5, 0.05])}),
    "hermitian": (lambda dt: hpd((4, 4), dt), {"hermitian": True}),
    "hermitian-tol": (lambda dt: with_kind(np.diag([10.0, -1.0, 0.1, -0.01]), dt),
                      {"hermitian": True, "tol": 0.5}),
    "vector": (lambda dt: data((5,), dt), {}),
    "zero-vector": (lambda dt: np.zeros(5, dt), {}),
    "0-d": (lambda dt: np.asarray(data((), dt)), {}),
    "empty": (lambda dt: data((0, 0), dt), {}),
    "no-rows": (lambda dt: data((0, 3), dt), {}),
}


@pytest.mark.parametrize("case", list(RANK_CASES))
def test_matrix_rank(device, case):
    """matrix_rank (int64; a Python int for 1-d and 0-d input, which is any element nonzero)
    with the default, tol, rtol and array tolerances, hermitian=True, stacks and empties."""
    make_a, kwargs = RANK_CASES[case]
    for dtype in FLOATS + [np.int64, np.bool_]:
        if dtype is np.bool_ and case in ("full", "stack", "hermitian"):
            continue  # their 0/1 versions may be singular, a rounding-dependent rank
        a = make_a(dtype)
        run("matrix_rank", values(), a, **kwargs)


# --------------------------------------------------------------------------------------------
# decompositions


@pytest.mark.parametrize("upper", [None, False, True])
@pytest.mark.parametrize("dtype", FLOATS, ids=dtype_id)
def test_cholesky(device, dtype, upper):
    """cholesky (lower by default, upper=True: U with U^H U = a)."""
    kwargs = {} if upper is None else {"upper": upper}
    for shape in [(0, 0), (1, 1), (4, 4), (2, 3, 4, 4), (2, 0, 0)]:
        a = hpd(shape, dtype)
        run("cholesky", cholesky_check(a, bool(upper)), a, **kwargs)


QR_SHAPES = [(4, 4), (5, 3), (3, 5), (2, 3, 4, 2), (2, 2, 3), (1, 1), (0, 0), (0, 3), (3, 0),
             (2, 0, 0)]


@pytest.mark.parametrize("mode", [None, "reduced", "complete", "r", "raw"], ids=str)
@pytest.mark.parametrize("dtype", FLOATS, ids=dtype_id)
def test_qr(device, dtype, mode):
    """qr in every mode of square, tall, wide, stacked and empty matrices: Q (M, K) or
    (M, M), R (K, N) or (M, N), 'r' R alone, 'raw' (h (N, M), tau (K,))."""
    kwargs = {} if mode is None else {"mode": mode}
    for shape in QR_SHAPES:
        a = data(shape, dtype)
        run("qr", qr_check(a, mode or "reduced"), a, **kwargs)


SVD_SHAPES = [(4, 4), (5, 3), (3, 5), (2, 3, 4, 2), (1, 1), (0, 0), (0, 3), (3, 0), (2, 0, 0)]
HERMITIAN_SHAPES = [(4, 4), (2, 3, 3, 3), (1, 1), (0, 0)]
SVD_VARIANTS = {  # function, keywords, Hermitian input
    "full": ("svd", {}, False),
    "reduced": ("svd", {"full_matrices": False}, False),
    "values": ("svd", {"compute_uv": False}, False),
    "svdvals": ("svdvals", {}, False),
    "hermitian": ("svd", {"hermitian": True}, True),
    "hermitian-values": ("svd", {"hermitian": True, "compute_uv": False}, True),
}


@pytest.mark.parametrize("variant", list(SVD_VARIANTS))
@pytest.mark.parametrize("dtype", FLOATS, ids=dtype_id)
def test_svd(device, dtype, variant):
    """svd with full and reduced U, Vh, singular values only (compute_uv=False, svdvals),
    and hermitian=True (singular values |eigenvalues|, descending)."""
    name, kwargs, herm = SVD_VARIANTS[variant]
    for shape in HERMITIAN_SHAPES if herm else SVD_SHAPES:
        a = hermitian(shape, dtype) if herm else data(shape, dtype)
        check = svd_check(a, kwargs.get("compute_uv", name == "svd"),
                          kwargs.get("full_matrices", True))
        run(name, check, a, **kwargs)


EIG_SHAPES = [(4, 4), (5, 5), (2, 3, 4, 4), (1, 1), (0, 0), (2, 0, 0)]
EIG_KINDS = {  # general: complex eigenvalues; symmetric, triangular: real ones
    "general": lambda shape, dt: data(shape, dt),
    "symmetric": hermitian,
    "triangular": lambda shape, dt: np.triu(data(shape, dt)),
}


@pytest.mark.parametrize("kind", list(EIG_KINDS))
@pytest.mark.parametrize("dtype", FLOATS, ids=dtype_id)
@pytest.mark.parametrize("name", ["eig", "eigvals"])
def test_eig(device, name, dtype, kind):
    """eig and eigvals: complex results for complex input; for real input, real results
    when every eigenvalue of the whole stack is real, complex otherwise."""
    for shape in EIG_SHAPES:
        a = EIG_KINDS[kind](shape, dtype)
        run(name, eig_check(a, name == "eig"), a)


EIGH_SHAPES = [(4, 4), (5, 5), (2, 3, 4, 4), (1, 1), (0, 0)]


@pytest.mark.parametrize("uplo", [None, "L", "U"], ids=str)
@pytest.mark.parametrize("dtype", FLOATS, ids=dtype_id)
@pytest.mark.parametrize("name", ["eigh", "eigvalsh"])
def test_eigh(device, name, dtype, uplo):
    """eigh and eigvalsh read only the UPLO triangle (the default 'L'): the other one holds
    unrelated values, which change nothing."""
    kwargs = {} if uplo is None else {"UPLO": uplo}
    for shape in EIGH_SHAPES:
        h = hermitian(shape, dtype)
        junk = rand(shape, dtype, seed=7)
        a = np.triu(h) + np.tril(junk, -1) if uplo == "U" else np.tril(h) + np.triu(junk, 1)
        run(name, eigh_check(h, name == "eigh"), a, **kwargs)


# --------------------------------------------------------------------------------------------
# cond, tensorsolve, tensorinv


@pytest.mark.parametrize("p", MATRIX_ORDS, ids=str)
@pytest.mark.parametrize("dtype", FLOATS, ids=dtype_id)
def test_cond(device, dtype, p):
    """cond of square and stacked matrices; of rectangular ones for p None, 2, -2
    (LinAlgError otherwise); inf for singular matrices (huge for p None and 2, about 0 for
    -2); NaN input gives NaN for the non-SVD orders; LinAlgError for empty matrices."""
    cases = [square((4, 4), dtype), square((2, 3, 4, 4), dtype), square((1, 1), dtype),
             data((3, 5), dtype), data((5, 3), dtype), data((0, 0), dtype)]
    for a in cases:
        case = f"shape {a.shape}"  # noqa: F841  (named by a failure's case)
        run("cond", values(), a, p)
    case = "singular"  # noqa: F841
    singular = with_kind([[1, 0, 3], [2, 0, 5], [4, 0, 1]], dtype)
    if p in (None, 2):
        run("cond", huge(dtype), singular, p)
    elif p != "nuc":  # 'nuc': NumPy's SVD of the failed inverse's NaNs does not converge
        run("cond", values(), singular, p)
    if p not in (None, 2, -2, "nuc"):  # the SVD orders: see test_non_finite's svd-nan
        case = "nan"  # noqa: F841
        run("cond", values(), with_kind([[1, NAN], [0, 1]], dtype), p)


TENSORSOLVE_CASES = {  # a's shape (from one well-conditioned 6x6 matrix), b's shape, axes
    "a(2,3,6)": ((2, 3, 6), (2, 3), None),
    "a(6,2,3)": ((6, 2, 3), (6,), None),
    "a(2,3,2,3)": ((2, 3, 2, 3), (2, 3), None),
    "axes": ((6, 2, 3), (2, 3), (0,)),
}


@pytest.mark.parametrize("case", list(TENSORSOLVE_CASES))
def test_tensorsolve(device, case):
    a_shape, b_shape, axes = TENSORSOLVE_CASES[case]
    for dtype in FLOATS:
        a = well_conditioned((6, 6), dtype).reshape(a_shape)
        b = rand(b_shape, dtype, seed=1)
        run("tensorsolve", values(), a, b, axes=axes)


TENSORINV_CASES = {  # a's shape (from one well-conditioned 24x24 matrix), ind
    "ind=2": ((4, 6, 8, 3), 2),
    "ind=1": ((24, 8, 3), 1),
    "ind=3": ((2, 3, 4, 24), 3),
    "default": ((6, 4, 24), None),
}


@pytest.mark.parametrize("case", list(TENSORINV_CASES))
def test_tensorinv(device, case):
    shape, ind = TENSORINV_CASES[case]
    for dtype in FLOATS:
        a = well_conditioned((24, 24), dtype).reshape(shape)
        kwargs = {} if ind is None else {"ind": ind}
        run("tensorinv", values(), a, **kwargs)


# --------------------------------------------------------------------------------------------
# one standard call of every function: layouts, integer, boolean and float16 input, larger n


HERMITIAN_KEYS = {"cholesky", "eigh", "eigvalsh"}


def standard_call(key, a):
    """(function, args, kwargs, check) of the call `key` on square matrices (or a stack) a;
    the right-hand sides are of a's dtype."""
    rhs = data(a.shape[:-1] + (2,), a.dtype, seed=3)
    vec = data(a.shape[:-1], a.dtype, seed=4)
    return {
        "norm": ("norm", (a,), {}, values()),
        "norm-fro": ("norm", (a,), {"ord": "fro", "axis": (-2, -1)}, values()),
        "norm-nuc": ("norm", (a,), {"ord": "nuc", "axis": (-2, -1)}, values()),
        "norm-inf": ("norm", (a,), {"ord": INF, "axis": (-2, -1)}, values()),
        "norm-2": ("norm", (a,), {"ord": 2, "axis": (-1, -2)}, values()),
        "norm--2": ("norm", (a,), {"ord": -2, "axis": (-2, -1)}, values()),
        "norm-vectors": ("norm", (a,), {"ord": 1, "axis": -1}, values()),
        "det": ("det", (a,), {}, values(det_scale(a))),
        "slogdet": ("slogdet", (a,), {}, slogdet_check(a)),
        "inv": ("inv", (a,), {}, values()),
        "pinv": ("pinv", (a,), {}, values()),
        "solve": ("solve", (a, rhs), {}, values()),
        "lstsq": ("lstsq", (a, vec), {"rcond": None}, lstsq_check(a, vec)),
        "cholesky": ("cholesky", (a,), {}, cholesky_check(a, False)),
        "qr": ("qr", (a,), {}, qr_check(a, "reduced")),
        "qr-r": ("qr", (a,), {"mode": "r"}, qr_check(a, "r")),
        "svd": ("svd", (a,), {}, svd_check(a)),
        "svdvals": ("svdvals", (a,), {}, values()),
        "eig": ("eig", (a,), {}, eig_check(a, True)),
        "eigvals": ("eigvals", (a,), {}, eig_check(a, False)),
        "eigh": ("eigh", (a,), {}, eigh_check(a, True)),
        "eigvalsh": ("eigvalsh", (a,), {}, eigh_check(a, False)),
        "matrix_rank": ("matrix_rank", (a,), {}, values()),
        "cond": ("cond", (a,), {}, values()),
        "cond-1": ("cond", (a, 1), {}, values()),
        "tensorsolve": ("tensorsolve", (a, vec), {}, values()),
        "tensorinv": ("tensorinv", (a,), {"ind": 1}, values()),
    }[key]


KEYS = ["norm", "norm-fro", "norm-nuc", "norm-inf", "norm-2", "norm--2", "norm-vectors", "det",
        "slogdet", "inv", "pinv", "solve", "lstsq", "cholesky", "qr", "qr-r", "svd", "svdvals",
        "eig", "eigvals", "eigh", "eigvalsh", "matrix_rank", "cond", "cond-1", "tensorsolve",
        "tensorinv"]


def standard_input(key, shape, dtype, seed=0):
    """Hermitian positive definite matrices for cholesky and eigh, well-conditioned general
    ones for the others."""
    return hpd(shape, dtype, seed) if key in HERMITIAN_KEYS else square(shape, dtype, seed)


def layout_views(a, layout):
    """(tessera input, NumPy input) with a's values in the memory layout: 'fortran' (every
    axis reversed in memory), 'negative' (every axis reversed), 'strided' (every other
    element of a larger array, from offset 1), 'pending' (a lazy tessera expression)."""
    nd = a.ndim
    if layout == "fortran":
        base = np.ascontiguousarray(a.T)
        return tp.asarray(base).T, base.T
    if layout == "negative":
        key = (slice(None, None, -1),) * nd
        base = np.ascontiguousarray(a[key])
        return tp.asarray(base)[key], base[key]
    if layout == "strided":
        key = (slice(1, None, 2),) * nd
        base = np.zeros(tuple(2 * s + 1 for s in a.shape), a.dtype)
        base[key] = a
        return tp.asarray(base)[key], base[key]
    assert layout == "pending"
    return tp.asarray(a) * 1, a


@pytest.mark.parametrize("layout", ["fortran", "negative", "strided", "pending"])
@pytest.mark.parametrize("key", KEYS)
def test_layouts(device, key, layout):
    """Every function on Fortran-ordered, reversed, strided and pending inputs (single
    matrices and stacks), which it leaves unchanged."""
    for dtype in (np.float64, np.complex64):
        for shape in ((4, 4), (2, 3, 4, 4)):
            a = standard_input(key, shape, dtype)
            name, args, kwargs, check = standard_call(key, a)
            t, n = layout_views(a, layout)
            run(name, check, n, *args[1:], tp_args=(t,) + tuple(map(to_tp, args[1:])),
                **kwargs)
            assert np.array_equal(tp.asnumpy(t), a), f"{key} changed its {layout} input"


def small_integer_matrix(key, dtype):
    """Integer input: general diagonally dominant integers, or symmetric positive definite
    ones for cholesky and eigh. Boolean input: a symmetric nonsingular 0/1 matrix, or the
    identity."""
    rng = np.random.default_rng(5)
    if np.dtype(dtype).kind == "b":
        if key in HERMITIAN_KEYS:
            return np.eye(4, dtype=bool)
        return (np.eye(4, k=-1) + np.eye(4) + np.eye(4, k=1)).astype(bool)
    b = rng.integers(-1, 2, (4, 4))
    a = b + b.T + 8 * np.eye(4, dtype=np.int64) if key in HERMITIAN_KEYS else \
        b + 4 * np.eye(4, dtype=np.int64)
    return a.astype(dtype)


@pytest.mark.parametrize("dtype", [np.int64, np.bool_], ids=dtype_id)
@pytest.mark.parametrize("key", KEYS)
def test_integer_and_bool_input(device, key, dtype):
    """Integer and boolean input is computed in float64 (float64 and complex128 results;
    matrix_rank's int64)."""
    a = small_integer_matrix(key, dtype)
    name, args, kwargs, check = standard_call(key, a)
    run(name, check, *args, **kwargs)


@pytest.mark.parametrize("key", KEYS)
def test_float16_input(device, key):
    """float16 input: TypeError ("array type float16 is unsupported in linalg") from every
    function but the elementwise norms, which compute in float16."""
    a = standard_input(key, (4, 4), np.float64).astype(np.float16)
    name, args, kwargs, check = standard_call(key, a)
    run(name, check, *args, **kwargs)


LARGE_KEYS = ["solve", "inv", "slogdet", "cholesky", "qr", "svd", "svdvals", "eig", "eigvalsh",
              "eigh", "lstsq", "pinv", "norm-nuc", "matrix_rank"]


@pytest.mark.parametrize("n", [33, 64])
@pytest.mark.parametrize("key", LARGE_KEYS)
def test_larger_matrices(device, key, n):
    """Sizes beyond any small-matrix path or block size (33: odd; 64)."""
    for dtype in (np.float32, np.complex128):
        a = standard_input(key, (n, n), dtype, seed=n)
        name, args, kwargs, check = standard_call(key, a)
        run(name, check, *args, **kwargs)


# --------------------------------------------------------------------------------------------
# result types, array-likes, non-finite values, errors


RESULT_FIELDS = {  # NumPy's fields (lstsq: a plain tuple), and whether b is given
    "slogdet": (("sign", "logabsdet"), False),
    "svd": (("U", "S", "Vh"), False),
    "qr": (("Q", "R"), False),
    "eig": (("eigenvalues", "eigenvectors"), False),
    "eigh": (("eigenvalues", "eigenvectors"), False),
    "lstsq": ((), True),
}


@pytest.mark.parametrize("name", list(RESULT_FIELDS))
def test_result_fields(device, name):
    """Tuple results: NumPy's length, named fields (SlogdetResult, SVDResult, QRResult,
    EigResult, EighResult) equal to the items, and unpacking."""
    fields, with_b = RESULT_FIELDS[name]
    a = hpd((3, 3), np.float64)
    args = (a, np.ones(3)) if with_b else (a,)
    expected = getattr(LA, name)(*args)
    got = getattr(tp.linalg, name)(*map(tp.asarray, args))
    assert isinstance(got, tuple), f"expected a tuple, got {type(got).__name__}"
    assert len(got) == len(expected)
    for i, field in enumerate(fields):
        value = getattr(got, field)
        assert np.array_equal(to_numpy(value), to_numpy(got[i])), f"{field} != item {i}"
    first, *rest = got
    assert len(rest) == len(expected) - 1


def test_array_like_input(device):
    """Python lists are accepted as NumPy accepts them (integers: float64 results) on the
    CPU, refused on CUDA; given as tessera.asarray of them, NumPy's results everywhere."""
    m = [[4, 1], [2, 3]]
    run_host("norm", values(), [3, 4])
    run_host("norm", values(), m, ord="fro")
    run_host("det", values(), m)
    run_host("inv", values(), m)
    run_host("solve", values(), m, [1, 2])
    run_host("svdvals", values(), m)
    run_host("eigvalsh", values(), [[2, 1], [1, 2]])
    run_host("matrix_rank", values(), m)


NONFINITE_CASES = {  # function, a, more arguments and keywords
    "det-nan": ("det", [[1.0, NAN], [0.0, 1.0]], (), {}),
    "det-inf": ("det", [[INF, 0.0], [0.0, 1.0]], (), {}),
    "inv-nan": ("inv", np.full((3, 3), NAN), (), {}),
    "solve-nan": ("solve", np.full((3, 3), NAN), (np.ones(3),), {}),
    "norm-vector-nan": ("norm", [1.0, NAN, 3.0], (), {}),
    "norm-vector-inf": ("norm", [1.0, INF, 3.0], (), {}),
    "norm-vector-inf-ord1": ("norm", [1.0, -INF, 3.0], (1,), {}),
    "norm-vector-inf-ord-inf": ("norm", [1.0, -INF, 3.0], (INF,), {}),
    "norm-vector-inf-ord--inf": ("norm", [1.0, -INF, 3.0], (-INF,), {}),
    "norm-vector-nan-ord-inf": ("norm", [1.0, NAN, 3.0], (INF,), {}),
    "norm-matrix-inf-fro": ("norm", [[1.0, INF], [0.0, 1.0]], ("fro",), {}),
    "norm-matrix-nan-1": ("norm", [[1.0, NAN], [0.0, 1.0]], (1,), {}),
    "eig-nan": ("eig", [[1.0, NAN], [0.0, 1.0]], (), {}),
    "eigvals-inf": ("eigvals", [[1.0, INF], [0.0, 1.0]], (), {}),
    "svd-nan": ("svd", np.full((3, 3), NAN), (), {}),
    "svdvals-nan": ("svdvals", np.full((3, 3), NAN), (), {}),
    "eigvalsh-nan": ("eigvalsh", np.full((3, 3), NAN), (), {}),
}


@pytest.mark.parametrize("case", list(NONFINITE_CASES))
def test_non_finite(device, case):
    """NaN and inf input: NaN or inf results as NumPy's, or LinAlgError where NumPy raises
    (eig of non-finite input; SVD and eigvalsh that do not converge)."""
    name, a, more, kwargs = NONFINITE_CASES[case]
    for dtype in (np.float64, np.complex64):
        x = with_kind(a, dtype)
        run(name, values(), x, *more, **kwargs)


ONES34, ONES3, EYE3 = np.ones((3, 4)), np.ones(3), np.eye(3)
ERROR_CASES = [  # (id, function, args, keywords): NumPy raises
    ("det-nonsquare", "det", (ONES34,), {}),
    ("slogdet-nonsquare", "slogdet", (ONES34,), {}),
    ("inv-nonsquare", "inv", (ONES34,), {}),
    ("solve-nonsquare", "solve", (ONES34, ONES3), {}),
    ("cholesky-nonsquare", "cholesky", (ONES34,), {}),
    ("eig-nonsquare", "eig", (ONES34,), {}),
    ("eigvals-nonsquare", "eigvals", (ONES34,), {}),
    ("eigh-nonsquare", "eigh", (ONES34,), {}),
    ("eigvalsh-nonsquare", "eigvalsh", (ONES34,), {}),
    ("cond-1-nonsquare", "cond", (ONES34, 1), {}),
    ("cond-fro-nonsquare", "cond", (ONES34, "fro"), {}),
    ("svd-hermitian-nonsquare", "svd", (ONES34,), {"hermitian": True}),
    ("pinv-hermitian-nonsquare", "pinv", (ONES34,), {"hermitian": True}),
    ("matrix_rank-hermitian-nonsquare", "matrix_rank", (ONES34,), {"hermitian": True}),
    ("tensorinv-nonsquare", "tensorinv", (np.ones((2, 3, 4)),), {"ind": 1}),
    ("tensorsolve-nonsquare", "tensorsolve", (np.ones((2, 3, 4)), np.ones((2, 3))), {}),
    ("det-1d", "det", (ONES3,), {}),
    ("det-0d", "det", (np.float64(2.0),), {}),
    ("inv-1d", "inv", (ONES3,), {}),
    ("solve-1d", "solve", (ONES3, ONES3), {}),
    ("cholesky-1d", "cholesky", (ONES3,), {}),
    ("qr-1d", "qr", (ONES3,), {}),
    ("svd-1d", "svd", (ONES3,), {}),
    ("svdvals-1d", "svdvals", (ONES3,), {}),
    ("eig-1d", "eig", (ONES3,), {}),
    ("eigvalsh-0d", "eigvalsh", (np.float64(2.0),), {}),
    ("pinv-1d", "pinv", (ONES3,), {}),
    ("lstsq-1d", "lstsq", (ONES3, ONES3), {}),
    ("lstsq-3d", "lstsq", (np.ones((2, 3, 3)), ONES3), {}),
    ("lstsq-b-3d", "lstsq", (EYE3, np.ones((3, 2, 2))), {}),
    ("lstsq-incompatible", "lstsq", (EYE3, np.ones(4)), {}),
    ("cond-1d", "cond", (ONES3,), {}),
    ("cond-empty", "cond", (np.ones((0, 0)),), {}),
    ("cond-empty-2", "cond", (np.ones((0, 0)), 2), {}),
    ("cholesky-indefinite", "cholesky", (np.array([[1.0, 2.0], [2.0, 1.0]]),), {}),
    ("cholesky-negative", "cholesky", (-np.eye(3),), {}),
    ("cholesky-upper-indefinite", "cholesky", (np.array([[1.0, 2.0], [2.0, 1.0]]),),
     {"upper": True}),
    ("cholesky-stack-one-indefinite", "cholesky",
     (np.stack([np.eye(2), np.array([[1.0, 2.0], [2.0, 1.0]])]),), {}),
    ("inv-singular-int", "inv", (np.array([[1, 2], [2, 4]]),), {}),
    ("solve-singular-complex", "solve", (np.array([[1j, 2], [0, 0]]), np.ones(2)), {}),
    ("tensorsolve-singular", "tensorsolve", (np.ones((2, 3, 6)), np.ones((2, 3))), {}),
    ("solve-vector-mismatch", "solve", (np.eye(4), ONES3), {}),
    ("solve-0d-b", "solve", (np.eye(4), np.float64(1.0)), {}),
    ("solve-numpy2-vector-rule", "solve", (np.ones((3, 4, 4)) + np.eye(4), np.ones((3, 4))),
     {}),
    ("norm-fro-vector", "norm", (ONES3, "fro"), {}),
    ("norm-nuc-vector", "norm", (ONES3, "nuc"), {}),
    ("norm-str-vector", "norm", (ONES3, "abc"), {}),
    ("norm-3-matrix", "norm", (EYE3, 3), {}),
    ("norm-0-matrix", "norm", (EYE3, 0), {}),
    ("norm-str-matrix", "norm", (EYE3, "abc"), {}),
    ("norm-inf-string-matrix", "norm", (EYE3, "inf"), {}),
    ("norm-duplicate-axes", "norm", (EYE3,), {"axis": (0, 0)}),
    ("norm-duplicate-negative-axes", "norm", (EYE3,), {"axis": (1, -1)}),
    ("norm-three-axes", "norm", (np.ones((2, 3, 4)),), {"axis": (0, 1, 2)}),
    ("norm-3d-ord", "norm", (np.ones((2, 3, 4)), 2), {}),
    ("norm-axis-out-of-bounds", "norm", (EYE3,), {"axis": 5}),
    ("norm-axes-out-of-bounds", "norm", (EYE3,), {"axis": (0, 5)}),
    ("norm-axis-list", "norm", (EYE3,), {"axis": [0, 1]}),
    ("norm-empty-ord--2", "norm", (np.ones((0, 3)), -2), {}),
    ("norm-empty-vector-ord--inf", "norm", (np.ones(0), -INF), {}),
    ("cond-bad-p", "cond", (EYE3, 3), {}),
    ("cond-bad-p-string", "cond", (EYE3, "foo"), {}),
    ("qr-bad-mode", "qr", (EYE3,), {"mode": "xx"}),
    ("eigh-bad-uplo", "eigh", (EYE3,), {"UPLO": "X"}),
    ("eigvalsh-bad-uplo", "eigvalsh", (EYE3,), {"UPLO": "X"}),
    ("tensorinv-ind-0", "tensorinv", (EYE3,), {"ind": 0}),
    ("matrix_rank-tol-and-rtol", "matrix_rank", (EYE3,), {"tol": 1e-3, "rtol": 1e-3}),
    ("pinv-rcond-and-rtol", "pinv", (EYE3,), {"rcond": 1e-3, "rtol": 1e-3}),
]


@pytest.mark.parametrize("case", ERROR_CASES, ids=lambda c: c[0])
def test_errors(device, case):
    """NumPy's exception type: LinAlgError for non-square, 1-d and 0-d input to matrix
    functions, singular and indefinite matrices, empty cond; ValueError for bad orders, axes,
    modes, UPLO and shapes; AxisError and TypeError for bad axes."""
    _, name, args, kwargs = case
    _, error = numpy_result(lambda: getattr(LA, name)(*args, **kwargs))
    assert error is not None, "NumPy does not raise: the case is wrong"
    run(name, values(), *args, **kwargs)
