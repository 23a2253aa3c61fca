"""tessera.linalg: numpy.linalg on tessera arrays. The factorizations run in the backend's
LAPACK (OpenBLAS on the CPU), batched over the leading axes; what NumPy derives from them
(det, inv, pinv, norms, ranks, condition numbers) is composed here from tessera ops."""

import builtins
import math
import operator
from collections import namedtuple

import numpy as np

from .. import _core
from .._core import ndarray
from .._creation import arange, empty, eye, full, operand
from .._elementwise import (absolute, conjugate, divide, isnan, log, multiply,
                            sqrt, where)
from .._manipulation import broadcast_to, matrix_transpose, moveaxis
from .._matrices import diagonal as _diagonal
from .._numerics import cross as _cross
from .._numerics import outer as _outer
from .._joining import _axis
from .._products import _into, matmul, tensordot, vecdot

LinAlgError = np.linalg.LinAlgError

EigResult = namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
EighResult = namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
QRResult = namedtuple("QRResult", ["Q", "R"])
SlogdetResult = namedtuple("SlogdetResult", ["sign", "logabsdet"])
SVDResult = namedtuple("SVDResult", ["U", "S", "Vh"])

__all__ = [
    "LinAlgError", "cholesky", "cond", "cross", "det", "diagonal", "eig", "eigh", "eigvals",
    "eigvalsh", "inv", "lstsq", "matmul", "matrix_norm", "matrix_power", "matrix_rank",
    "matrix_transpose", "multi_dot", "norm", "outer", "pinv", "qr", "slogdet", "solve", "svd",
    "svdvals", "tensordot", "tensorinv", "tensorsolve", "trace", "vecdot", "vector_norm",
]


def _square(api, a):
    if a.ndim < 2:
        raise LinAlgError(f"[{api}] {a.ndim}-dimensional array given. Array must be at least "
                          "two-dimensional")
    if a.shape[-1] != a.shape[-2]:
        raise LinAlgError(f"[{api}] Last 2 dimensions of the array must be square")


def _work_dtype(api, *arrays):
    """NumPy's computation dtype: float16 refused, integers and bool as float64, then the
    widest of the operands."""
    return np.result_type(*[np.dtype(_core._linalg_dtype(a.dtype, api)) for a in arrays])


def _real(dtype):
    return np.dtype(dtype).type(0).real.dtype


# ------------------------------------------------------------------ determinants


def _lu_diagonal(api, a):
    """The diagonal of a's LU factors and the sign of its row permutation."""
    a = operand(a)
    _square(api, a)
    lu, pivots = _core._lu_factor(a)
    n = a.shape[-1]
    swaps = (pivots != arange(1, n + 1)).sum(axis=-1)
    sign = 1 - 2 * (swaps % 2)
    return _diagonal(lu, 0, -2, -1), sign


def det(a):
    """The determinant, from the LU factorization: the product of U's diagonal, signed by
    the permutation's parity."""
    diag, sign = _lu_diagonal("det", a)
    result = diag.prod(axis=-1)
    return multiply(result, sign.astype(result.dtype))


def slogdet(a):
    """The sign and the natural log of the absolute value of the determinant."""
    diag, sign = _lu_diagonal("slogdet", a)
    magnitude = absolute(diag)
    logabsdet = log(magnitude).sum(axis=-1)
    zero = magnitude == 0
    phase = where(zero, 0, divide(diag, where(zero, 1, magnitude)))
    sign = multiply(phase.prod(axis=-1), sign.astype(diag.dtype))
    return SlogdetResult(sign, logabsdet)


# ------------------------------------------------------------------ solvers and inverses


def solve(a, b):
    """x with a @ x = b; b is a stack of vectors only when it is 1-d (NumPy 2)."""
    a, b = operand(a), operand(b)
    _square("solve", a)
    return _core._solve(a, b)


def inv(a):
    """The inverse: a solved against the identity."""
    a = operand(a)
    _square("inv", a)
    t = _work_dtype("inv", a)
    n = a.shape[-1]
    return _core._solve(a, broadcast_to(eye(n, dtype=t), a.shape))


def matrix_power(a, n):
    """a multiplied by itself n times (n < 0: the inverse's power), by repeated squaring."""
    a = operand(a)
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError("[matrix_power] exponent must be an integer") from None
    _square("matrix_power", a)
    if n == 0:
        return broadcast_to(eye(a.shape[-1], dtype=a.dtype), a.shape).copy()
    if n < 0:
        a = inv(a)
        n = -n
    result, power = None, a
    while True:
        if n & 1:
            result = power if result is None else matmul(result, power)
        n >>= 1
        if not n:
            return result if result is not a else a.copy()
        power = matmul(power, power)


def multi_dot(arrays, *, out=None):
    """The product of two or more matrices, multiplied in the cheapest order (the classic
    matrix-chain dynamic programme); a 1-d first or last operand is a vector."""
    arrays = [operand(a) for a in arrays]
    if len(arrays) < 2:
        raise ValueError("[multi_dot] Expecting at least two arrays.")
    first_vector, last_vector = arrays[0].ndim == 1, arrays[-1].ndim == 1
    if first_vector:
        arrays[0] = arrays[0][None, :]
    if last_vector:
        arrays[-1] = arrays[-1][:, None]
    for a in arrays:
        if a.ndim != 2:
            raise LinAlgError(f"[multi_dot] {a.ndim}-dimensional array given. Array must be "
                              "two-dimensional")
    n = len(arrays)
    dims = [a.shape[0] for a in arrays] + [arrays[-1].shape[1]]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k

    def product(i, j):
        if i == j:
            return arrays[i]
        k = split[i][j]
        return matmul(product(i, k), product(k + 1, j))

    result = product(0, n - 1)
    if first_vector:
        result = result[0]
    if last_vector:
        result = result[..., 0]
    return _into(result, out)


def lstsq(a, b, rcond=None):
    """The least-squares solution x of a @ x = b (minimum norm), the residual sums of
    squares, the rank of a and its singular values."""
    a, b = operand(a), operand(b)
    if a.ndim != 2:
        raise LinAlgError(f"[lstsq] {a.ndim}-dimensional array given. Array must be "
                          "two-dimensional")
    if b.ndim not in (1, 2):
        raise LinAlgError(f"[lstsq] {b.ndim}-dimensional array given. Array must be one or "
                          "two-dimensional")
    m, n = a.shape
    if b.shape[0] != m:
        raise LinAlgError("[lstsq] Incompatible dimensions: a has shape "
                          f"{a.shape} and b has shape {b.shape}")
    t = _work_dtype("lstsq", a, b)
    if rcond is None:
        rcond = np.finfo(t).eps * builtins.max(m, n)
    x, rank, s = _core._lstsq(a, b, float(rcond))
    rank_value = int(rank)
    if rank_value == n and m > n:
        residual = absolute(matmul(a, x) - b) ** 2
        residuals = residual.sum(axis=0)
        residuals = residuals.reshape(1) if b.ndim == 1 else residuals
    else:
        residuals = empty((0,), dtype=_real(t))
    return x, residuals.astype(_real(t)), rank.astype(np.int32)[()], s


# ------------------------------------------------------------------ decompositions


def cholesky(a, /, *, upper=False):
    """The Cholesky factor: lower (a = L @ L^H) or upper (a = U^H @ U)."""
    a = operand(a)
    _square("cholesky", a)
    _work_dtype("cholesky", a)
    return _core._cholesky(a, bool(upper))


def qr(a, mode="reduced"):
    """The QR decomposition; mode 'reduced', 'complete', 'r' or 'raw' as NumPy's."""
    if mode not in ("reduced", "complete", "r", "raw"):
        if mode in ("f", "full", "e", "economic"):
            raise ValueError(f"[qr] The '{mode}' option is deprecated and was removed")
        raise ValueError(f"[qr] Unrecognized mode '{mode}'")
    a = operand(a)
    if a.ndim < 2:
        raise LinAlgError(f"[qr] {a.ndim}-dimensional array given. Array must be at least "
                          "two-dimensional")
    _work_dtype("qr", a)
    factored, tau, q = _core._qr(a, mode in ("reduced", "complete"), mode == "complete")
    if mode == "raw":
        return matrix_transpose(factored).copy(), tau
    m, n = a.shape[-2:]
    k = n if mode == "complete" else builtins.min(m, n)
    r = _upper(factored[..., :k, :] if mode != "complete" else factored)
    if mode == "r":
        return r
    return QRResult(q, r)


def _upper(a):
    rows = arange(a.shape[-2]).reshape(-1, 1)
    cols = arange(a.shape[-1]).reshape(1, -1)
    return where(rows <= cols, a, 0)


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """The singular value decomposition a = U @ diag(S) @ Vh, singular values descending.
    hermitian=True takes them from the eigendecomposition, as NumPy does."""
    a = operand(a)
    if a.ndim < 2:
        raise LinAlgError(f"[svd] {a.ndim}-dimensional array given. Array must be at least "
                          "two-dimensional")
    _work_dtype("svd", a)
    if a.size and not bool(_isfinite_all(a)):
        # LAPACK's iteration does not converge on NaN or inf; NumPy reports it as such.
        raise LinAlgError("[svd] SVD did not converge")
    if hermitian:
        _square("svd", a)
        if not compute_uv:
            s = absolute(_core._eigh(a, False, False)[0])
            return _core._sort(s, -1, True)[..., ::-1]
        w, v = _core._eigh(a, False, True)
        s = absolute(w)
        order = _core._argsort(s, -1)[..., ::-1]
        from .._indexing import take_along_axis
        s = take_along_axis(s, order, axis=-1)
        signs = where(w < 0, -1, 1).astype(v.dtype)
        w_sorted_sign = take_along_axis(signs, order, axis=-1)
        u = take_along_axis(v, order[..., None, :], axis=-1)
        vh = conjugate(matrix_transpose(u * w_sorted_sign[..., None, :]))
        return SVDResult(u, s, vh)
    if not compute_uv:
        return _core._svd(a, bool(full_matrices), False)[0]
    u, s, vh = _core._svd(a, bool(full_matrices), True)
    return SVDResult(u, s, vh)


def svdvals(x, /):
    """The singular values, descending."""
    return svd(x, compute_uv=False)


def eigh(a, UPLO="L"):
    """Eigenvalues (ascending) and eigenvectors of a Hermitian matrix, read from its lower
    ('L') or upper ('U') triangle."""
    upper = _uplo(UPLO)
    a = operand(a)
    _square("eigh", a)
    _work_dtype("eigh", a)
    w, v = _core._eigh(a, upper, True)
    return EighResult(w, v)


def eigvalsh(a, UPLO="L"):
    """The eigenvalues (ascending) of a Hermitian matrix."""
    upper = _uplo(UPLO)
    a = operand(a)
    _square("eigvalsh", a)
    _work_dtype("eigvalsh", a)
    return _core._eigh(a, upper, False)[0]


def _uplo(uplo):
    if not isinstance(uplo, str) or uplo.upper() not in ("L", "U"):
        raise ValueError("[eigh] UPLO argument must be 'L' or 'U'")
    return uplo.upper() == "U"


def _real_if_real(a, w, *vectors):
    """NumPy returns a real matrix's eigenvalues (and vectors) as reals when every
    eigenvalue is real."""
    if a.dtype.kind == "c" or bool((w.imag != 0).any()):
        return (w, *vectors)
    return (w.real.copy(), *(v.real.copy() for v in vectors))


def eig(a):
    """Eigenvalues and right eigenvectors (columns, unit norm) of a general matrix."""
    a = operand(a)
    _square("eig", a)
    _work_dtype("eig", a)
    if a.size and not bool(_isfinite_all(a)):
        raise LinAlgError("[eig] Array must not contain infs or NaNs")
    w, v = _core._eig(a, True)
    return EigResult(*_real_if_real(a, w, v))


def eigvals(a):
    """The eigenvalues of a general matrix."""
    a = operand(a)
    _square("eigvals", a)
    _work_dtype("eigvals", a)
    if a.size and not bool(_isfinite_all(a)):
        raise LinAlgError("[eigvals] Array must not contain infs or NaNs")
    return _real_if_real(a, _core._eig(a, False)[0])[0]


def _isfinite_all(a):
    from .._elementwise import isfinite
    return isfinite(a).all()


# ------------------------------------------------------------------ derived quantities


def pinv(a, rcond=None, hermitian=False, *, rtol=np._NoValue):
    """The Moore-Penrose pseudo-inverse, from the SVD with small singular values dropped."""
    a = operand(a)
    if rcond is None:
        if rtol is np._NoValue:
            rcond = 1e-15
        elif rtol is None:
            rcond = builtins.max(a.shape[-2:]) * np.finfo(_work_dtype("pinv", a)).eps
        else:
            rcond = rtol
    elif rtol is not np._NoValue:
        raise ValueError("[pinv] `rtol` and `rcond` can't be both set.")
    if a.ndim >= 2 and a.size == 0:
        # NumPy's empty result keeps the input's dtype, integer and bool ones too.
        return empty(a.shape[:-2] + (a.shape[-1], a.shape[-2]), dtype=a.dtype)
    u, s, vh = svd(conjugate(a) if a.dtype.kind == "c" else a, full_matrices=False,
                   hermitian=hermitian)
    cutoff = multiply(operand(rcond)[..., None], s.max(axis=-1, keepdims=True))
    large = s > cutoff
    inverse = where(large, divide(1, where(large, s, 1)), 0)
    return matmul(matrix_transpose(vh), multiply(inverse[..., None], matrix_transpose(u)))


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """The number of singular values above the tolerance."""
    if rtol is not None and tol is not None:
        raise ValueError("[matrix_rank] `tol` and `rtol` can't be both set.")
    A = operand(A)
    if A.ndim < 2:
        return int(bool((A != 0).any()))
    s = svd(A, compute_uv=False, hermitian=hermitian)
    if tol is None:
        if rtol is None:
            rtol = builtins.max(A.shape[-2:]) * np.finfo(s.dtype).eps
        else:
            rtol = operand(rtol)[..., None]
        tol = multiply(s.max(axis=-1, keepdims=True, initial=0), rtol)
    else:
        tol = operand(tol)[..., None]
    return (s > tol).sum(axis=-1)


def cond(x, p=None):
    """The condition number in the given norm (2-norm from the singular values)."""
    x = operand(x)
    if x.ndim >= 2 and x.size == 0 and 0 in x.shape[-2:]:
        raise LinAlgError("[cond] cond is not defined on empty arrays")
    if p is None or p in (2, -2):
        s = svd(x, compute_uv=False)
        r = divide(s[..., -1], s[..., 0]) if p == -2 else divide(s[..., 0], s[..., -1])
    else:
        _square("cond", x)
        t = _work_dtype("cond", x)
        n = x.shape[-1]
        inverse = _inverse_or_nan(x, t, n)
        r = multiply(norm(x, p, axis=(-2, -1)), norm(inverse, p, axis=(-2, -1)))
        r = r.astype(_real(t))
    nan = isnan(r)
    if bool(nan.any()):
        nan = nan & ~isnan(x).any(axis=(-2, -1))
        r = where(nan, np.inf, r)
    return r


def _inverse_or_nan(x, t, n):
    """inv(x) with a singular matrix's inverse NaN (NumPy's cond ignores the error)."""
    try:
        return inv(x)
    except LinAlgError:
        if x.ndim == 2:
            return full((n, n), np.nan, dtype=t)
    # A stack with some singular matrices: each is inverted on its own.
    flat = x.reshape((-1, n, n))
    from .._joining import stack
    return stack([_inverse_or_nan(flat[i], t, n) for i in range(flat.shape[0])]).reshape(x.shape)


def tensorsolve(a, b, axes=None):
    """x with tensordot(a, x, x.ndim) = b."""
    a, b = operand(a), operand(b)
    if axes is not None:
        axes = list(axes)
        order = [i for i in range(a.ndim) if i not in [x % a.ndim for x in axes]]
        a = a.transpose(order + [x % a.ndim for x in axes])
    x_shape = a.shape[b.ndim:]
    rows = math.prod(a.shape[:b.ndim])
    cols = math.prod(x_shape)
    if rows != cols:
        raise LinAlgError(f"[tensorsolve] Last 2 dimensions of the array must be square: the "
                          f"problem has {rows} equations and {cols} unknowns")
    return solve(a.reshape((rows, cols)), b.ravel()).reshape(x_shape)


def tensorinv(a, ind=2):
    """The inverse of a under tensordot over its first `ind` axes."""
    a = operand(a)
    if ind <= 0:
        raise ValueError("[tensorinv] Invalid ind argument.")
    out_shape = a.shape[ind:] + a.shape[:ind]
    rows = math.prod(a.shape[:ind])
    return inv(a.reshape((rows, -1))).reshape(out_shape)


# ------------------------------------------------------------------ norms


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """The vector norm over `axis` (all axes when None, as one flattened vector)."""
    x = operand(x)
    if x.dtype.kind not in "fc":
        x = x.astype(np.float64)
    if axis is None:
        flat = x.ravel()
        result = _vector_norm(flat, ord, 0, False)
        return result.reshape((1,) * x.ndim) if keepdims else result
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    if len(axes) == 1:
        return _vector_norm(x, ord, axes[0], keepdims)
    normalized = tuple(a % x.ndim for a in axes)
    rest = [i for i in range(x.ndim) if i not in normalized]
    moved = x.transpose(rest + list(normalized))
    merged = moved.reshape(moved.shape[:len(rest)] + (-1,))
    result = _vector_norm(merged, ord, -1, False)
    if keepdims:
        shape = [1 if i in normalized else n for i, n in enumerate(x.shape)]
        result = result.reshape(shape)
    return result


def _vector_norm(x, ord, axis, keepdims):
    magnitude = absolute(x)
    if ord == np.inf:
        return magnitude.max(axis=axis, keepdims=keepdims, initial=0)
    if ord == -np.inf:
        return magnitude.min(axis=axis, keepdims=keepdims)
    if ord == 0:
        return (x != 0).astype(magnitude.dtype).sum(axis=axis, keepdims=keepdims)
    if ord == 1:
        return magnitude.sum(axis=axis, keepdims=keepdims)
    if ord is None or ord == 2:
        return sqrt((magnitude * magnitude).sum(axis=axis, keepdims=keepdims))
    if isinstance(ord, str):
        raise ValueError(f"[norm] Invalid norm order '{ord}' for vectors")
    ord = float(ord)
    return ((magnitude ** ord).sum(axis=axis, keepdims=keepdims)) ** (1.0 / ord)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """The matrix norm of the last two axes."""
    return norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims)


def norm(x, ord=None, axis=None, keepdims=False):
    """numpy.linalg.norm: vector norms over one axis (or the whole array flattened when
    ord is None), matrix norms over two."""
    x = operand(x)
    if x.dtype.kind not in "fc":
        x = x.astype(np.float64)
    if axis is None:
        if ord is None or (ord in ("f", "fro") and x.ndim == 2) or (ord == 2 and x.ndim == 1):
            result = _vector_norm(x.ravel(), None, 0, False)
            return result.reshape((1,) * x.ndim) if keepdims else result
        axis = tuple(range(x.ndim))
    elif not isinstance(axis, tuple):
        try:
            axis = (operator.index(axis),)
        except TypeError:
            raise TypeError("[norm] 'axis' must be None, an integer or a tuple of "
                            "integers") from None
    if len(axis) == 1:
        if isinstance(ord, str):
            raise ValueError(f"[norm] Invalid norm order '{ord}' for vectors")
        return _vector_norm(x, ord, axis[0], keepdims)
    if len(axis) != 2:
        raise ValueError("[norm] Improper number of dimensions to norm.")
    row, col = (_axis("norm", a, x.ndim) for a in axis)
    if row == col:
        raise ValueError("[norm] Duplicate axes given.")
    result = _matrix_norm(x, ord, row, col)
    if keepdims:
        shape = list(x.shape)
        shape[row] = shape[col] = 1
        result = result.reshape(shape)
    return result


def _matrix_norm(x, ord, row, col):
    magnitude = absolute(x)
    if ord in (2, -2):
        s = svd(moveaxis(x, (row, col), (-2, -1)), compute_uv=False)
        return s.max(axis=-1, initial=0) if ord == 2 else s.min(axis=-1)
    if ord == 1 or ord == -1:
        summed = magnitude.sum(axis=row)
        c = col - 1 if col > row else col
        return summed.max(axis=c, initial=0) if ord == 1 else summed.min(axis=c)
    if ord == np.inf or ord == -np.inf:
        summed = magnitude.sum(axis=col)
        r = row - 1 if row > col else row
        return summed.max(axis=r, initial=0) if ord == np.inf else summed.min(axis=r)
    if ord in (None, "fro", "f"):
        return sqrt((magnitude * magnitude).sum(axis=(row, col)))
    if ord == "nuc":
        return svd(moveaxis(x, (row, col), (-2, -1)), compute_uv=False).sum(axis=-1)
    raise ValueError(f"[norm] Invalid norm order {ord!r} for matrices.")


# ------------------------------------------------------------------ array API forms


def outer(x1, x2, /):
    """The outer product of two vectors (1-d only, as the array API requires)."""
    a, b = operand(x1), operand(x2)
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(f"[outer] Input arrays must be one-dimensional, but they are "
                         f"{a.ndim}-dimensional and {b.ndim}-dimensional")
    return _outer(a, b)


def cross(x1, x2, /, *, axis=-1):
    """The cross product of 3-vectors along `axis`."""
    a, b = operand(x1), operand(x2)
    if a.shape[axis] != 3 or b.shape[axis] != 3:
        raise ValueError(f"[cross] Both input arrays must be (arrays of) 3-dimensional "
                         f"vectors, but they are {a.shape[axis]} and {b.shape[axis]} "
                         "dimensional instead.")
    return _cross(a, b, axis=axis)


def diagonal(x, /, *, offset=0):
    """The diagonals of the last two axes."""
    return _diagonal(x, offset, -2, -1)


def trace(x, /, *, offset=0, dtype=None):
    """The sums along the diagonals of the last two axes."""
    return _diagonal(x, offset, -2, -1).sum(axis=-1, dtype=dtype)


del ndarray
