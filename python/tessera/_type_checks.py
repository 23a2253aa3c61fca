"""NumPy's type and value checks of arrays (iscomplex, isreal, isscalar, isfortran, ...) and
the conversions that check as they go (asarray_chkfinite, real_if_close, require)."""

import numbers

import numpy as np

from ._creation import array, asanyarray, asarray, operand, zeros
from ._elementwise import absolute, imag, isfinite, not_equal

__all__ = ["isscalar", "iscomplex", "isreal", "iscomplexobj", "isrealobj", "isfortran",
           "asarray_chkfinite", "real_if_close", "require"]


def isscalar(element):
    """Whether element is a scalar (a Python number, str or bytes, or a NumPy scalar); arrays,
    0-d ones included, are not."""
    return (isinstance(element, np.generic) or type(element) in np.ScalarType
            or isinstance(element, numbers.Number))


def iscomplex(x):
    """Elementwise: whether the imaginary part is nonzero (False everywhere for real
    dtypes)."""
    x = operand(x)
    if x.dtype.kind == "c":
        return not_equal(imag(x), 0)
    return zeros(x.shape, dtype=bool, device=x.device)


def isreal(x):
    """Elementwise: whether the imaginary part is zero (True everywhere for real dtypes)."""
    return imag(operand(x)) == 0


def _dtype_of(x):
    """The dtype of x: its own, or that NumPy gives the host value."""
    try:
        return np.dtype(x.dtype)
    except (AttributeError, TypeError):
        return np.asarray(x).dtype


def iscomplexobj(x):
    """Whether x has a complex dtype (or, without a dtype, converts to one), whatever its
    values."""
    return _dtype_of(x).kind == "c"


def isrealobj(x):
    """Whether x has no complex dtype."""
    return not iscomplexobj(x)


def isfortran(a):
    """Whether the array is Fortran-contiguous and not C-contiguous."""
    return a.flags.fnc


def asarray_chkfinite(a, dtype=None, order=None):
    """asarray, raising ValueError when a floating or complex result holds an inf or a NaN."""
    a = asarray(a, dtype=dtype, order=order)
    if a.dtype.char in np.typecodes["AllFloat"] and not bool(isfinite(a).all()):
        raise ValueError("[asarray_chkfinite] array must not contain infs or NaNs")
    return a


def real_if_close(a, tol=100):
    """The real part of a complex array whose imaginary parts are all below tol (in machine
    epsilons when tol > 1); a itself otherwise."""
    a = operand(a)
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = np.finfo(a.dtype).eps * tol
    if bool((absolute(a.imag) < tol).all()):
        a = a.real
    return a


_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F",
                 "F_CONTIGUOUS": "F", "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W",
                 "WRITEABLE": "W", "O": "O", "OWNDATA": "O", "E": "E", "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    """An array of a's values (of dtype) with the flags asked for: 'C' or 'F' contiguous,
    'A' aligned, 'W' writeable, 'O' owning its data (a copy where a does not), 'E' a base
    class array. like is accepted and changes nothing (the result is a tessera array)."""
    if not requirements:
        return asanyarray(a, dtype=dtype)
    flags = set()
    for name in requirements:
        try:
            flags.add(_REQUIREMENTS[name.upper()])
        except KeyError:
            raise KeyError(f"[require] unknown requirement {name!r}") from None
    flags.discard("E")  # tessera arrays have no subclasses to pass through
    if flags >= {"C", "F"}:
        raise ValueError('[require] Cannot specify both "C" and "F" order')
    order = "F" if "F" in flags else "C" if "C" in flags else "A"
    flags -= {"C", "F"}
    arr = array(a, dtype=dtype, order=order, copy=None)
    if any(not arr.flags[flag] for flag in flags):
        return arr.copy(order)
    return arr
