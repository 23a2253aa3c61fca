"""NumPy's legacy polynomial API: polyval, polyfit, roots, poly, the coefficient arithmetic
(polyadd polysub polymul polydiv polyder polyint), vander, and the poly1d class.
Coefficients are tessera arrays, highest power first; fits go through linalg.lstsq and
roots through the eigenvalues of the companion matrix, as in NumPy."""

import warnings

import numpy as np

from ._convert import INT64_MAX, dimension
from ._core import ndarray
from ._creation import arange, asarray, ones, operand, zeros, zeros_like
from ._elementwise import divide, multiply, sqrt
from ._joining import concatenate
from ._manipulation import atleast_1d
from ._numerics import convolve

__all__ = ["poly", "poly1d", "polyadd", "polyder", "polydiv", "polyfit", "polyint", "polymul",
           "polysub", "polyval", "roots", "vander"]


def _coefficients(p):
    return p.coeffs if isinstance(p, poly1d) else operand(p)


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix: columns x**(N-1), ..., x, 1 (reversed when increasing)."""
    x = operand(x)
    if x.ndim != 1:
        raise ValueError("[vander] x must be a one-dimensional array or sequence.")
    n = x.shape[0] if N is None else dimension(N, "vander", "N")
    if n < 0:
        raise ValueError("[vander] negative dimensions are not allowed")
    # NumPy's dtype: x's promoted with int (float32 becomes float64, bool int64).
    x = x.astype(np.promote_types(x.dtype, np.int64), copy=False)
    powers = arange(n) if increasing else arange(n - 1, -1, -1)
    if n == 0:
        return zeros((x.shape[0], 0), dtype=x.dtype)
    return x[:, None] ** powers[None, :].astype(x.dtype)


def polyval(p, x):
    """p evaluated at x by Horner's rule (a poly1d x composes the polynomials)."""
    if isinstance(x, poly1d):
        result = poly1d(0)
        for c in _coefficients(p).tolist():
            result = result * x + c
        return result
    p = _coefficients(p)
    x = operand(x)
    y = zeros_like(x)
    for i in range(p.shape[0]):
        y = y * x + p[i]
    return y


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """The least-squares polynomial fit of degree deg (highest power first)."""
    from .linalg import inv, lstsq
    order = int(deg) + 1
    x = operand(x) + 0.0
    y = operand(y) + 0.0
    if deg < 0:
        raise ValueError("[polyfit] expected deg >= 0")
    if order > INT64_MAX:
        # NumPy's vander of deg + 1 columns refuses it.
        raise ValueError(f"[polyfit] deg={deg}: Maximum allowed dimension exceeded (deg + 1 "
                         f"columns; at most {INT64_MAX})")
    if x.ndim != 1:
        raise TypeError("[polyfit] expected 1D vector for x")
    if x.size == 0:
        raise TypeError("[polyfit] expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("[polyfit] expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("[polyfit] expected x and y to have same length")
    if rcond is None:
        rcond = x.shape[0] * np.finfo(x.dtype).eps
    lhs = vander(x, order)
    rhs = y
    if w is not None:
        w = operand(w) + 0.0
        if w.ndim != 1:
            raise TypeError("[polyfit] expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("[polyfit] expected w and y to have the same length")
        lhs = lhs * w[:, None]
        rhs = rhs * (w[:, None] if rhs.ndim == 2 else w)
    # Columns scaled to unit norm: the fit is then well conditioned in the powers.
    scale = sqrt((lhs * lhs).sum(axis=0))
    lhs = divide(lhs, scale)
    c, resids, rank, s = lstsq(lhs, rhs, rcond)
    c = divide(c.T, scale).T
    if int(rank) != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", np.exceptions.RankWarning,
                      stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if cov:
        base = divide(inv(lhs.T @ lhs), scale[:, None] * scale[None, :])
        if cov == "unscaled":
            factor = 1
        else:
            if x.shape[0] <= order:
                raise ValueError("[polyfit] the number of data points must exceed order to "
                                 "scale the covariance matrix")
            factor = resids / (x.shape[0] - order)
        if y.ndim == 1:
            return c, base * factor
        return c, base[:, :, None] * factor
    return c


def roots(p):
    """The roots of the polynomial: the eigenvalues of its companion matrix, plus a zero
    root for each trailing zero coefficient."""
    from .linalg import eigvals
    p = np.atleast_1d(np.asarray(_host(_coefficients(p))))
    if p.ndim != 1:
        raise ValueError("[roots] Input must be a rank-1 array.")
    nonzero = np.nonzero(np.ravel(p))[0]
    if len(nonzero) == 0:
        return asarray(np.array([]))
    trailing = len(p) - nonzero[-1] - 1
    p = p[int(nonzero[0]):int(nonzero[-1]) + 1]
    if not issubclass(p.dtype.type, (np.floating, np.complexfloating)):
        p = p.astype(float)
    n = len(p)
    if n > 1:
        companion = np.diag(np.ones((n - 2,), p.dtype), -1)
        companion[0, :] = -p[1:] / p[0]
        result = eigvals(asarray(companion))
    else:
        result = asarray(np.array([]))  # NumPy's: float64 whatever the coefficients
    if trailing:
        result = concatenate((result, zeros(trailing, dtype=result.dtype)))
    return result


def poly(seq_of_zeros):
    """The coefficients of the monic polynomial with these roots (or the characteristic
    polynomial of a square matrix)."""
    from .linalg import eigvals
    zeros_ = operand(seq_of_zeros)
    zeros_ = zeros_.reshape(1) if zeros_.ndim == 0 else zeros_
    shape = zeros_.shape
    if len(shape) == 2 and shape[0] == shape[1] and shape[0] != 0:
        zeros_ = eigvals(zeros_)
    elif len(shape) == 1:
        # NumPy's mintypecode: float32 and the complex types stay, the rest become float64.
        kept = (np.float32, np.float64, np.complex64, np.complex128)
        zeros_ = zeros_ if zeros_.dtype in kept else zeros_.astype(np.float64)
    else:
        raise ValueError("[poly] input must be 1d or non-empty square 2d array.")
    if zeros_.shape[0] == 0:
        return asarray(1.0)
    dtype = zeros_.dtype
    a = ones((1,), dtype=dtype)
    for k in range(zeros_.shape[0]):
        factor = concatenate((ones((1,), dtype=dtype), -zeros_[k:k + 1]))
        a = convolve(a, factor, mode="full")
    if a.dtype.kind == "c":
        host = zeros_.get().astype(complex)
        if np.all(np.sort(host) == np.sort(host.conjugate())):
            a = a.real.copy()
    return a


def _trim_leading(c):
    host = c.get() if isinstance(c, ndarray) else np.asarray(c)
    nonzero = np.nonzero(host)[0]
    return c[int(nonzero[0]):] if len(nonzero) else c[-1:] if c.shape[0] else c


def polyadd(a1, a2):
    """The sum of two polynomials."""
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    a1, a2 = atleast_1d(_coefficients(a1)), atleast_1d(_coefficients(a2))
    diff = a2.shape[0] - a1.shape[0]
    if diff > 0:
        a1 = concatenate((zeros(diff, dtype=a1.dtype), a1))
    elif diff < 0:
        a2 = concatenate((zeros(-diff, dtype=a2.dtype), a2))
    result = a1 + a2
    return poly1d(result) if truepoly else result


def polysub(a1, a2):
    """The difference of two polynomials."""
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    a1, a2 = atleast_1d(_coefficients(a1)), atleast_1d(_coefficients(a2))
    diff = a2.shape[0] - a1.shape[0]
    if diff > 0:
        a1 = concatenate((zeros(diff, dtype=a1.dtype), a1))
    elif diff < 0:
        a2 = concatenate((zeros(-diff, dtype=a2.dtype), a2))
    result = a1 - a2
    return poly1d(result) if truepoly else result


def polymul(a1, a2):
    """The product of two polynomials: the convolution of their coefficients."""
    truepoly = isinstance(a1, poly1d) or isinstance(a2, poly1d)
    # As NumPy, through poly1d: leading zeros dropped, an empty polynomial is [0.].
    result = convolve(poly1d(a1).coeffs, poly1d(a2).coeffs)
    return poly1d(result) if truepoly else result


def polydiv(u, v):
    """Quotient and remainder of the polynomial division u / v."""
    truepoly = isinstance(u, poly1d) or isinstance(v, poly1d)
    u = np.atleast_1d(np.asarray(_host(_coefficients(u)))) + 0.0
    v = np.atleast_1d(np.asarray(_host(_coefficients(v)))) + 0.0
    w = u[0] + v[0]
    m, n = len(u) - 1, len(v) - 1
    scale = 1.0 / v[0]
    q = np.zeros((max(m - n + 1, 1),), w.dtype)
    r = u.astype(w.dtype)
    for k in range(0, m - n + 1):
        d = scale * r[k]
        q[k] = d
        r[k:k + n + 1] -= d * v
    while np.allclose(r[0], 0, rtol=1e-14) and (r.shape[-1] > 1):
        r = r[1:]
    # The division ran on the host (a short, sequential recurrence): the results go back.
    q, r = asarray(q), asarray(r)
    return (poly1d(q), poly1d(r)) if truepoly else (q, r)


def _host(c):
    return c.get() if isinstance(c, ndarray) else c


def polyder(p, m=1):
    """The m-th derivative of the polynomial."""
    m = int(m)
    if m < 0:
        raise ValueError("[polyder] Order of derivative must be positive (see polyint)")
    truepoly = isinstance(p, poly1d)
    p = operand(_coefficients(p))
    n = p.shape[0] - 1
    y = multiply(p[:-1], arange(n, 0, -1))
    result = y if m == 1 else polyder(y, m - 1) if m > 1 else p
    return poly1d(result) if truepoly else result


def polyint(p, m=1, k=None):
    """The m-th antiderivative, with integration constants k (zeros by default)."""
    m = int(m)
    if m < 0:
        raise ValueError("[polyint] Order of integral must be positive (see polyder)")
    if k is None:
        k = np.zeros(m, float)
    k = np.atleast_1d(k)
    if len(k) == 1 and m > 1:
        k = k[0] * np.ones(m, float)
    if len(k) < m:
        raise ValueError("[polyint] k must be a scalar or a rank-1 array of length 1 or >m.")
    truepoly = isinstance(p, poly1d)
    p = operand(_coefficients(p))
    if m == 0:
        return poly1d(p) if truepoly else p
    y = concatenate((divide(p, arange(p.shape[0], 0, -1)), asarray(k[:1], dtype=None)))
    result = polyint(y, m - 1, k=k[1:])
    return poly1d(result) if truepoly else result


class poly1d:
    """A one-dimensional polynomial: coefficients highest power first (or roots, r=True)."""

    __hash__ = None

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable
            self._coeffs = c_or_r._coeffs
            if variable is not None:
                self._variable = variable
            return
        if r:
            c_or_r = poly(c_or_r)
        c = operand(c_or_r)
        if c.ndim > 1:
            raise ValueError("[poly1d] Polynomial must be 1d only.")
        c = c.reshape(-1) if c.ndim == 0 else c
        c = _trim_leading(c) if c.shape[0] else c
        if c.shape[0] == 0:
            c = asarray([0], dtype=c.dtype)
        self._coeffs = c
        self._variable = "x" if variable is None else variable

    @property
    def coeffs(self):
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value):
        if value is not self._coeffs:
            raise AttributeError("[poly1d] Cannot set attribute")

    c = coef = coefficients = coeffs

    @property
    def variable(self):
        return self._variable

    @property
    def order(self):
        return self._coeffs.shape[0] - 1

    o = order

    @property
    def roots(self):
        return roots(self._coeffs)

    r = roots

    def _numpy(self):
        return np.poly1d(self._coeffs.get(), variable=self._variable)

    def __repr__(self):
        return repr(self._numpy())

    def __str__(self):
        return str(self._numpy())

    def __len__(self):
        return self.order

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self._coeffs.get(), dtype=dtype)

    def __call__(self, val):
        return polyval(self._coeffs, val)

    def __neg__(self):
        return poly1d(-self._coeffs)

    def __pos__(self):
        return self

    def __mul__(self, other):
        if np.isscalar(other):
            return poly1d(self._coeffs * other)
        return poly1d(polymul(self._coeffs, poly1d(other)._coeffs))

    def __rmul__(self, other):
        return self.__mul__(other)

    def __add__(self, other):
        return poly1d(polyadd(self._coeffs, poly1d(other)._coeffs))

    __radd__ = __add__

    def __sub__(self, other):
        return poly1d(polysub(self._coeffs, poly1d(other)._coeffs))

    def __rsub__(self, other):
        return poly1d(polysub(poly1d(other)._coeffs, self._coeffs))

    def __pow__(self, exponent):
        if not np.isscalar(exponent) or int(exponent) != exponent or exponent < 0:
            raise ValueError("[poly1d] Power to non-negative integers only.")
        result = asarray([1])  # NumPy starts from the int list [1]
        for _ in range(int(exponent)):
            result = polymul(self._coeffs, result)
        return poly1d(result)

    def __truediv__(self, other):
        if np.isscalar(other):
            return poly1d(self._coeffs / other)
        return polydiv(self, poly1d(other))

    def __rtruediv__(self, other):
        if np.isscalar(other):
            return poly1d(other / self._coeffs)
        return polydiv(poly1d(other), self)

    def __eq__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return bool((self._coeffs == other._coeffs).all())

    def __ne__(self, other):
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    def __getitem__(self, power):
        index = self.order - power
        if index > self.order or index < 0:
            return self._coeffs.dtype.type(0)
        return self._coeffs[index]

    def __setitem__(self, power, value):
        if power < 0:
            raise ValueError("[poly1d] Does not support negative powers.")
        if power > self.order:
            grown = zeros(power - self.order, dtype=self._coeffs.dtype)
            self._coeffs = concatenate((grown, self._coeffs))
        self._coeffs[self.order - power] = value

    def __iter__(self):
        return iter(self._coeffs)

    def integ(self, m=1, k=0):
        return poly1d(polyint(self._coeffs, m=m, k=k))

    def deriv(self, m=1):
        return poly1d(polyder(self._coeffs, m=m))
