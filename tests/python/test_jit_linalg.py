"""np.linalg inside tessera.jit functions, against numba.njit (the oracle): values, result
dtypes and the Python types of numbers, the errors (numpy.linalg.LinAlgError, ValueError,
TypingError), every float and complex dtype, C, Fortran and strided operands, and arrays
that are freed when a loop calls np.linalg again."""

import functools

import numpy as np
import pytest

import tessera as tp
from tessera import jit
from tessera.jit import TypingError

numba = pytest.importorskip("numba")

# Compiled for the CPU: make test's run on the CUDA device leaves out the tests taking no device.
pytestmark = pytest.mark.host_only

DTYPES = ["float32", "float64", "complex64", "complex128"]


def tolerance(dtype):
    return 2e-4 if np.dtype(dtype).itemsize in (4, 8) and dtype in ("float32", "complex64") else 1e-10


def matrix(n, dtype, seed=0, m=None):
    """A well-conditioned matrix: random, plus n on the diagonal."""
    rng = np.random.default_rng(seed)
    m = n if m is None else m
    a = rng.standard_normal((n, m))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal((n, m))
    a[np.arange(min(n, m)), np.arange(min(n, m))] += n
    return a.astype(dtype)


def hermitian(n, dtype, seed=0):
    a = matrix(n, dtype, seed)
    return ((a + a.conj().T) / 2 + n * np.eye(n)).astype(dtype)


def same(ours, theirs, dtype):
    """Equal Python types and dtypes, values within the dtype's tolerance."""
    if isinstance(theirs, tuple):
        assert isinstance(ours, tuple) and len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            same(a, b, dtype)
        return
    assert type(ours) is type(theirs), (type(ours), type(theirs))
    if isinstance(theirs, np.ndarray):
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    np.testing.assert_allclose(ours, theirs, rtol=tolerance(dtype), atol=tolerance(dtype))


@functools.cache
def twins(f):
    """`f` compiled by tessera.jit and by numba.njit, once per test session: each compiles
    a specialization per argument types, which later tests reuse (Numba's compiles of
    np.linalg take most of this file's time)."""
    return jit(f), numba.njit(f)


def numpy_run(f):
    """`f` run by NumPy itself, its NumPy scalars as the Python numbers Numba returns and
    its named tuples as tuples."""
    def plain(x):
        if isinstance(x, tuple):
            return tuple(plain(item) for item in x)
        return x.item() if isinstance(x, np.generic) else x

    return lambda *args: plain(f(*args))


def oracles(f, dtype):
    """tessera's `f` and the oracle's: Numba for float64, NumPy (whose np.linalg Numba
    follows, with Python numbers for NumPy scalars) for the other dtypes: Numba's compiles
    of np.linalg take seconds each, most of this file's time."""
    ours, theirs = twins(f)
    return ours, (theirs if dtype == "float64" else numpy_run(f))


def inv(a):
    return np.linalg.inv(a)


def solve(a, b):
    return np.linalg.solve(a, b)


def det(a):
    return np.linalg.det(a)


def slogdet(a):
    return np.linalg.slogdet(a)


def cholesky(a):
    return np.linalg.cholesky(a)


def eigvalsh(a):
    return np.linalg.eigvalsh(a)


def eigvals(a):
    return np.linalg.eigvals(a)


def svd_values(a):
    u, s, vh = np.linalg.svd(a)
    return s


def lstsq(a, b):
    return np.linalg.lstsq(a, b)


def lstsq_rcond(a, b, rcond):
    return np.linalg.lstsq(a, b, rcond)



def pinv_rcond(a, rcond):
    return np.linalg.pinv(a, rcond)



def matrix_rank_tol(a, tol):
    return np.linalg.matrix_rank(a, tol)





def square_suite(a):
    return (np.linalg.inv(a), np.linalg.det(a), np.linalg.slogdet(a), np.linalg.cond(a),
            np.linalg.cond(a, 1), np.linalg.cond(a, -np.inf))


def hermitian_suite(a):
    return np.linalg.cholesky(a), np.linalg.eigvalsh(a), np.sort(np.linalg.eigvals(a).real)


def rectangular_suite(a):
    u, s, vh = np.linalg.svd(a)
    return s, np.linalg.pinv(a), np.linalg.matrix_rank(a)


# Each suite is one function, so that each dtype costs one compile of each compiler.
@pytest.mark.parametrize("dtype", DTYPES)
def test_square_matrix_functions_match_numba(dtype):
    ours, theirs = oracles(square_suite, dtype)
    a = matrix(4, dtype)
    same(ours(a), theirs(a), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_hermitian_matrix_functions_match_numba(dtype):
    ours, theirs = oracles(hermitian_suite, dtype)
    a = hermitian(5, dtype)
    same(ours(a), theirs(a), dtype)


@pytest.mark.parametrize("dtype", ["float64", "complex128"])
def test_eigenvalues_of_a_general_matrix_match_numba(dtype):
    ours, theirs = oracles(eigvals, dtype)
    a = matrix(4, dtype) if dtype == "complex128" else hermitian(4, dtype)
    same(np.sort_complex(ours(a)), np.sort_complex(theirs(a)), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5), (4, 4)])
def test_rectangular_matrix_functions_match_numba(dtype, shape):
    a = matrix(shape[0], dtype, m=shape[1])
    ours, theirs = oracles(rectangular_suite, dtype)
    same(ours(a), theirs(a), dtype)
    b = matrix(shape[0], dtype, seed=1, m=2)
    for rhs in (b, b[:, 0]):
        ours, theirs = oracles(lstsq, dtype)
        same(ours(a, rhs), theirs(a, rhs), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_solve_with_vector_and_matrix_right_hand_sides(dtype):
    a = matrix(4, dtype)
    ours, theirs = oracles(solve, dtype)
    for b in (matrix(4, dtype, 1, 3), matrix(4, dtype, 2, 3)[:, 1]):
        same(ours(a, b), theirs(a, b), dtype)
    # Operands of any layout (the service copies them column-major), and empty systems
    # (which take the engine's general path); NumPy the oracle, as Numba compiles each
    # layout anew.
    b = matrix(4, dtype, 1, 3)
    for a_view, b_view in [(np.asfortranarray(a), b[:, ::-1]), (a[::-1, ::-1], b[::-1, 1]),
                           (a.T, np.asfortranarray(b)), (a[:1, :1], b[:1, :2])]:
        same(ours(a_view, b_view), numpy_run(solve)(a_view, b_view), dtype)
    empty_a, empty_b = np.zeros((0, 0), dtype), np.zeros((0, 2), dtype)
    same(ours(empty_a, empty_b), np.linalg.solve(empty_a, empty_b), dtype)


def decompositions(a):
    q, r = np.linalg.qr(a)
    u, s, vh = np.linalg.svd(a)
    u2, s2, vh2 = np.linalg.svd(a, False)
    return q @ r, (u[:, :s.size] * s) @ vh[:s.size], (u2 * s2) @ vh2


def hermitian_decompositions(a):
    w, v = np.linalg.eigh(a)
    w2, v2 = np.linalg.eig(a)
    return w, (v * w) @ v.conj().T, a @ v2 - v2 * w2


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(5, 3), (3, 5)])
def test_factors_rebuild_the_matrix(dtype, shape):
    # Factors are unique up to signs and phases: compare what they rebuild, and Numba's.
    a = matrix(shape[0], dtype, m=shape[1])
    ours, theirs = oracles(decompositions, dtype)
    got, want = ours(a), theirs(a)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, a, rtol=tolerance(dtype), atol=tolerance(dtype) * 10)
        assert g.dtype == w.dtype
    h = hermitian(4, dtype)
    ours, theirs = oracles(hermitian_decompositions, dtype)
    got, want = ours(h), theirs(h)
    same(got[0], want[0], dtype)
    np.testing.assert_allclose(got[1], h, rtol=tolerance(dtype), atol=tolerance(dtype) * 10)
    np.testing.assert_allclose(got[2], 0, atol=tolerance(dtype) * 100)


def norms(x):
    return (np.linalg.norm(x), np.linalg.norm(x, 1), np.linalg.norm(x, -1),
            np.linalg.norm(x, 2), np.linalg.norm(x, -2), np.linalg.norm(x, np.inf),
            np.linalg.norm(x, -np.inf))


def vector_norms(x):
    return (np.linalg.norm(x), np.linalg.norm(x, 1), np.linalg.norm(x, 0),
            np.linalg.norm(x, 3), np.linalg.norm(x, 0.5), np.linalg.norm(x, np.inf),
            np.linalg.norm(x, -np.inf))


@pytest.mark.parametrize("dtype", DTYPES)
def test_norms_match_numba(dtype):
    a = matrix(4, dtype, m=3)
    ours, theirs = oracles(norms, dtype)
    same(ours(a), theirs(a), dtype)
    v = a[:, 0].copy()
    v[1] = 0
    ours, theirs = oracles(vector_norms, dtype)
    same(ours(v), theirs(v), dtype)
    # A negatively strided vector: NumPy's values (Numba's 2-norm of this view is |x[0]|,
    # a bug of Numba's).
    x = a[::-2, 1]
    want = tuple(float(np.linalg.norm(x.astype(np.complex128), o))
                 for o in (None, 1, 0, 3, 0.5, np.inf, -np.inf))
    np.testing.assert_allclose(twins(vector_norms)[0](x), want, rtol=tolerance(dtype))


def string_norms(x):
    return np.linalg.norm(x, "fro"), np.linalg.norm(x, "nuc")


def test_frobenius_and_nuclear_norms_as_numpy():
    # Numba raises ValueError for string orders; NumPy's values here.
    a = matrix(4, "float64", m=3)
    got = jit(string_norms)(a)
    np.testing.assert_allclose(got, (np.linalg.norm(a, "fro"), np.linalg.norm(a, "nuc")),
                               rtol=1e-12)


def test_operands_in_any_layout_and_expressions():
    a = matrix(6, "float64")
    ours, theirs = twins(inv)
    for x in (np.asfortranarray(a), a[::2, ::2], a[::-1], tp.asarray(a).get()):
        same(ours(x), theirs(x), "float64")

    def of_expression(a):
        return np.linalg.det(a * 2.0 + 1.0), np.linalg.solve(a.T, a[0] - 1.0)

    same(jit(of_expression)(a), numba.njit(of_expression)(a), "float64")


def test_rcond_and_tol_arguments():
    a = np.diag([1.0, 1e-3, 1e-9])
    for rcond in (1e-2, 1e-6, 1e-12):
        same(twins(pinv_rcond)[0](a, rcond), twins(pinv_rcond)[1](a, rcond), "float64")
        same(twins(matrix_rank_tol)[0](a, rcond), twins(matrix_rank_tol)[1](a, rcond), "float64")
        b = np.ones(3)
        same(twins(lstsq_rcond)[0](a, b, rcond), twins(lstsq_rcond)[1](a, b, rcond), "float64")


def test_empty_and_one_by_one_matrices():
    for n in (0, 1):
        a = np.full((n, n), 2.0)
        for function in (inv, det, slogdet, eigvalsh):
            same(twins(function)[0](a), twins(function)[1](a), "float64")


def singular_det(a):
    return np.linalg.det(a), np.linalg.slogdet(a)


def test_a_singular_matrix():
    s = np.array([[1.0, 2.0], [2.0, 4.0]])
    got = jit(singular_det)(s)
    assert got == numba.njit(singular_det)(s)
    assert got[1] == (0.0, -np.inf)
    for function, args in [(inv, (s,)), (solve, (s, np.ones(2)))]:
        with pytest.raises(np.linalg.LinAlgError, match="Matrix is singular to machine precision"):
            twins(function)[0](*args)
        with pytest.raises(np.linalg.LinAlgError, match="singular"):
            twins(function)[1](*args)


@pytest.mark.parametrize("function, args, error, message", [
    (inv, (np.ones((2, 3)),), np.linalg.LinAlgError, "must be square"),
    (det, (np.ones((3, 2)),), np.linalg.LinAlgError, "must be square"),
    (inv, (np.array([[1.0, np.nan], [0.0, 1.0]]),), np.linalg.LinAlgError, "infs or NaNs"),
    (svd_values, (np.array([[np.inf, 1.0]]),), np.linalg.LinAlgError, "infs or NaNs"),
    (solve, (np.eye(2), np.ones(3)), np.linalg.LinAlgError, "Incompatible array sizes"),
    (solve, (np.ones((2, 3)), np.ones(2)), np.linalg.LinAlgError, "must be square"),
    (solve, (np.eye(2), np.array([1.0, np.inf])), np.linalg.LinAlgError, "infs or NaNs"),
    (cholesky, (-np.eye(2),), np.linalg.LinAlgError, "not positive definite"),
    (eigvals, (np.array([[0.0, -1.0], [1.0, 0.0]]),), ValueError, "domain change"),
])
def test_errors_as_numba_raises_them(function, args, error, message):
    ours, theirs = twins(function)
    with pytest.raises(error, match=message):
        ours(*args)
    with pytest.raises(error):
        theirs(*args)


def invalid_matrix_order(a):
    return np.linalg.norm(a, 3)


def test_an_invalid_matrix_order_is_a_value_error():
    with pytest.raises(ValueError, match="Invalid norm order for matrices"):
        jit(invalid_matrix_order)(np.eye(2))
    with pytest.raises(ValueError, match="Invalid norm order for matrices"):
        numba.njit(invalid_matrix_order)(np.eye(2))


def norm_of_variable_order(a, order):
    return np.linalg.norm(a, order)


def of_integers(a):
    return np.linalg.inv(a)


def of_three_dimensions(a):
    return np.linalg.det(a)


def test_what_the_compiler_refuses():
    with pytest.raises(TypingError, match=r"np.linalg.inv\(\) is only supported on float and "
                                          "complex arrays, not int64"):
        jit(of_integers)(np.eye(2, dtype=np.int64))
    with pytest.raises(TypingError, match=r"np.linalg.det\(\) takes 2-d arrays, not a 3-d one"):
        jit(of_three_dimensions)(np.ones((2, 2, 2)))
    with pytest.raises(TypingError, match="order must be a constant"):
        jit(norm_of_variable_order)(np.eye(2), 1)


def repeated_decompositions(a, times):
    total = 0.0
    for _ in range(times):
        w, v = np.linalg.eigh(a)
        x = np.linalg.inv(a)
        total += w[0] + v[0, 0] * 0.0 + x[0, 0]
    return total


def test_a_loop_of_calls_frees_its_arrays():
    # 6000 iterations of three new arrays each: past the arena's 4096 blocks unless each
    # iteration frees the last one's.
    a = hermitian(3, "float64")
    got = jit(repeated_decompositions)(a, 6000)
    assert got == pytest.approx(6000 * (np.linalg.eigvalsh(a)[0] + np.linalg.inv(a)[0, 0]),
                                rel=1e-9)


def parallel_determinants(stack):
    out = np.empty(stack.shape[0])
    for i in tp.prange(stack.shape[0]):
        out[i] = np.linalg.det(stack[i]) + np.linalg.norm(np.linalg.inv(stack[i]))
    return out


def test_linalg_inside_prange():
    stack = np.stack([matrix(4, "float64", seed) for seed in range(64)])
    want = [np.linalg.det(m) + np.linalg.norm(np.linalg.inv(m)) for m in stack]
    np.testing.assert_allclose(jit(parallel=True)(parallel_determinants)(stack), want,
                               rtol=1e-12)
