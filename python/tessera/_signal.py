"""Signal-processing functions of NumPy's main namespace: the window functions (bartlett,
blackman, hamming, hanning, kaiser), sinc, the modified Bessel function i0, and unwrap."""

import operator

import numpy as np

from . import _core
from ._creation import arange, asarray, empty, ones, operand
from ._elementwise import (absolute, cos, exp, less_equal, logical_and, mod, result_type,
                           sin, sqrt, where)
from ._reduction import cumsum
from ._statistics import diff

__all__ = ["bartlett", "blackman", "hamming", "hanning", "kaiser", "sinc", "i0", "unwrap"]


def _reprefixed(api, error):
    """`error` (raised by a helper that named itself) as raised by `api`."""
    message = str(error)
    while message.startswith("[") and "] " in message:
        message = message.partition("] ")[2]
    return type(error)(f"[{api}] {message}")


def _window_parameters(api, *params):
    """The parameters of a window as NumPy takes them: M (and beta) converted together with
    0.0, so they are at least float64 (numpy.array([0.0, M, ...]))."""
    params = tuple(p.item() if isinstance(p, _core.ndarray) and p.ndim == 0 else p
                   for p in params)
    try:
        values = np.array((0.0,) + params)
    except (ValueError, TypeError) as error:
        raise _reprefixed(api, error) from None
    if values.dtype.kind not in "fc":
        raise TypeError(f"[{api}] window parameters must be numbers, got {values.dtype}")
    return values.dtype, values[1:]


def _symmetric_samples(M, dtype, device, api):
    """NumPy's window sample points: an empty array for M < 1, None for M == 1 (the window
    is [1.]), else arange(1 - M, M, 2)."""
    try:
        if M < 1:
            return empty(0, dtype, device=device)
        if M == 1:
            return None
        return arange(1 - M, M, 2, device=device)
    except (ValueError, TypeError, ZeroDivisionError) as error:
        raise _reprefixed(api, error) from None


def _window(api, M, device, formula):
    dtype, (M,) = _window_parameters(api, M)
    n = _symmetric_samples(M, dtype, device, api)
    if n is None:
        return ones(1, dtype=dtype, device=device)
    if n.size == 0:
        return n.astype(dtype, copy=False)
    return formula(n, M)


def bartlett(M, *, device=None):
    """The Bartlett (triangular) window of M points."""
    return _window("bartlett", M, device, lambda n, M: where(
        less_equal(n, 0), 1 + n / (M - 1), 1 - n / (M - 1)))


def blackman(M, *, device=None):
    """The Blackman window of M points."""
    return _window("blackman", M, device, lambda n, M: (
        0.42 + 0.5 * cos(np.pi * n / (M - 1)) + 0.08 * cos(2.0 * np.pi * n / (M - 1))))


def hamming(M, *, device=None):
    """The Hamming window of M points."""
    return _window("hamming", M, device, lambda n, M: 0.54 + 0.46 * cos(np.pi * n / (M - 1)))


def hanning(M, *, device=None):
    """The Hann window of M points."""
    return _window("hanning", M, device, lambda n, M: 0.5 + 0.5 * cos(np.pi * n / (M - 1)))


def kaiser(M, beta, *, device=None):
    """The Kaiser window of M points with shape parameter beta."""
    dtype, (M, beta) = _window_parameters("kaiser", M, beta)
    if M == 1:
        return ones(1, dtype=dtype, device=device)
    if dtype.kind == "c":
        raise TypeError("[kaiser] i0 not supported for complex values")
    try:
        n = arange(0, M, device=device)
    except (ValueError, TypeError) as error:
        raise _reprefixed("kaiser", error) from None
    if n.size == 0:
        return n.astype(dtype, copy=False)
    alpha = (M - 1) / 2.0
    return i0(beta * sqrt(1 - ((n - alpha) / alpha) ** 2.0)) / i0(asarray(beta, device=n.device))


# Chebyshev coefficients of exp(-x) I0(x) on [0, 8] and of exp(-x) sqrt(x) I0(x) on
# (8, inf], from Cephes, as numpy.i0 uses them.
_I0A = (
    -4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
    1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
    -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
    9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
    -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
    1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
    -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
    1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
    -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
    1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1,
)
_I0B = (
    -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
    3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
    1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
    -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
    7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
    -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
    3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
    2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
    8.04490411014108831608E-1,
)


def _chebyshev(x, coefficients):
    """The Chebyshev series at x, by Clenshaw's recurrence in NumPy's order of operations."""
    b0, b1, b2 = coefficients[0], 0.0, 0.0
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = x * b1 - b2 + c
    return 0.5 * (b0 - b2)


def i0(x):
    """The modified Bessel function of the first kind, order 0 (float64 for integers)."""
    x = operand(x)
    if x.dtype.kind == "c":
        raise TypeError("[i0] i0 not supported for complex values")
    if x.dtype.kind != "f":
        x = x.astype(np.float64)
    x = absolute(x)
    low = less_equal(x, 8.0)
    # Each branch sees only its own elements (a harmless stand-in elsewhere), so neither
    # reports a floating-point error NumPy's piecewise would not.
    x1 = where(low, x, 0.0)
    x2 = where(low, 32.0, x)
    small = exp(x1) * _chebyshev(x1 / 2.0 - 2, _I0A)
    large = exp(x2) * _chebyshev(32.0 / x2 - 2.0, _I0B) / sqrt(x2)
    return where(low, small, large)


def sinc(x):
    """sin(pi x) / (pi x), 1 at x == 0."""
    x = np.pi * operand(x)
    eps = float(np.finfo(x.dtype).eps) if x.dtype.kind == "f" else 1e-20
    y = where(x, x, eps)
    return sin(y) / y


def unwrap(p, discont=None, axis=-1, *, period=2 * np.pi):
    """`p` with jumps larger than max(discont, period / 2) along `axis` replaced by their
    period-complementary values."""
    p = operand(p)
    if p.ndim == 0:
        raise ValueError("[unwrap] diff requires input that is at least one dimensional")
    try:
        axis = operator.index(axis)
    except TypeError as error:
        raise TypeError(f"[unwrap] axis: {error}") from None
    if not -p.ndim <= axis < p.ndim:
        raise np.exceptions.AxisError(f"[unwrap] axis {axis} is out of bounds for array of "
                                      f"dimension {p.ndim}")
    axis %= p.ndim
    dd = diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    dtype = result_type(dd, period)
    if dtype.kind in "iu":
        interval_high, rem = divmod(period, 2)
        boundary_ambiguous = rem == 0
    else:
        interval_high = period / 2
        boundary_ambiguous = True
    interval_low = -interval_high
    ddmod = mod(dd - interval_low, period) + interval_low
    if boundary_ambiguous:
        # mod sends differences of exactly +period/2 to -period/2: keep their sign.
        ddmod = where(logical_and(ddmod == interval_low, dd > 0), interval_high,
                      ddmod).astype(ddmod.dtype, copy=False)
    ph_correct = ddmod - dd
    ph_correct = where(absolute(dd) < discont, 0, ph_correct)
    up = p.astype(dtype, copy=True)
    later = (slice(None),) * axis + (slice(1, None),)
    up[later] = p[later] + cumsum(ph_correct, axis)
    return up
