"""Host-side conversion of Python values to NumPy arrays tessera can take in."""

import builtins
import operator
import warnings

import numpy as np

_SUPPORTED = {
    ("b", 1), ("i", 1), ("i", 2), ("i", 4), ("i", 8), ("u", 1), ("u", 2), ("u", 4), ("u", 8),
    ("f", 2), ("f", 4), ("f", 8), ("c", 8), ("c", 16),
}


def prefixed(api, error):
    """The same exception type, its message prefixed with the API name."""
    return type(error)(f"[{api}] {error}")


def _check_kind(dtype, api):
    if (dtype.kind, dtype.itemsize) not in _SUPPORTED or dtype.fields is not None:
        raise TypeError(
            f"[{api}] unsupported dtype {dtype}; tessera supports bool, int8-64, uint8-64, "
            "float16/32/64, complex64/128"
        )


def check_dtype(dtype, api):
    """A dtype= argument as a numpy.dtype; TypeError for what tessera cannot store."""
    try:
        dtype = np.dtype(dtype)
    except TypeError as error:
        raise prefixed(api, error) from None
    _check_kind(dtype, api)
    if not dtype.isnative:
        raise TypeError(f"[{api}] unsupported dtype {dtype} (non-native byte order)")
    return dtype


def index(value, api, what):
    """operator.index with the API named in the error."""
    try:
        return operator.index(value)
    except TypeError as error:
        raise TypeError(f"[{api}] {what}: {error}") from None


# The int64 range: what the engine's integer arguments (and NumPy's C longs, npy_intp) hold.
INT64_MIN, INT64_MAX = -2**63, 2**63 - 1


def c_long(value, api, what):
    """An integer argument NumPy reads as a C long (an axis, an offset): TypeError for a
    non-integer, as `index`; OverflowError, as NumPy's, for one outside int64 (the engine's
    binding would otherwise refuse it with a bare "incompatible function arguments")."""
    value = index(value, api, what)
    if not INT64_MIN <= value <= INT64_MAX:
        raise OverflowError(f"[{api}] {what} {value} is outside int64 (Python int too large "
                            "to convert to C long)")
    return value


def axis_arg(axis, api, what="axis"):
    """A reduction's axis=: None, an integer or a tuple of integers, each checked by
    `c_long` (so axis={} or a list is a TypeError and an axis past int64 an OverflowError,
    as in NumPy's ufunc reductions); the bounds are the engine's to check."""
    if axis is None:
        return None
    if isinstance(axis, tuple):
        return tuple(c_long(ax, api, what) for ax in axis)
    return c_long(axis, api, what)


def axis_tuple(axis, api, what="axis"):
    """An axis= that NumPy reads with normalize_axis_tuple (median, flip, gradient, unique):
    an integer, or else any iterable of integers, so a set or a dict (its keys) is taken too
    and axis={} means no axes; each axis checked by `c_long`, the bounds and repeats left to
    the caller. Not iterable (axis=1.5) is NumPy's TypeError."""
    if not isinstance(axis, (tuple, list)):
        try:
            axis = [operator.index(axis)]
        except TypeError:
            pass
    try:
        axes = tuple(axis)
    except TypeError as error:
        raise TypeError(f"[{api}] {what}: {error}") from None
    return tuple(c_long(ax, api, what) for ax in axes)


def dimension(value, api, what):
    """An integer that becomes an array dimension (eye's N and M, vander's N): TypeError for
    a non-integer; outside int64, ValueError "Maximum allowed dimension exceeded" as NumPy's;
    a negative one is left to the caller (NumPy's answer to it differs by function)."""
    value = index(value, api, what)
    if not INT64_MIN <= value <= INT64_MAX:
        raise ValueError(f"[{api}] {what}={value}: Maximum allowed dimension exceeded "
                         f"(a dimension is at most {INT64_MAX})")
    return value


def range_length(value, api, what):
    """An integer NumPy builds arange(value) from (tri's N and M, tril_indices' n): TypeError
    for a non-integer; a negative one is an empty range (0), as NumPy's arange makes it; past
    int64 ValueError "Maximum allowed size exceeded" (NumPy's for one past uint64; below that
    its arange overflows to an empty range)."""
    value = builtins.max(index(value, api, what), 0)
    if value > INT64_MAX:
        raise ValueError(f"[{api}] {what}={value}: Maximum allowed size exceeded (at most "
                         f"{INT64_MAX})")
    return value


def sample_count(value, api, what):
    """A count of samples whose range NumPy builds with arange (linspace's num, histogram's
    bins): TypeError for a non-integer. Past int64, NumPy's own errors: a count that fits
    uint64 makes an empty arange, whose last element NumPy then indexes (IndexError);
    a larger one is ValueError "Maximum allowed size exceeded"."""
    value = index(value, api, what)
    if value > INT64_MAX:
        kind = IndexError if value < 2**64 else ValueError
        raise kind(f"[{api}] {what}={value}: Maximum allowed size exceeded (at most "
                   f"{INT64_MAX} elements)")
    return value


def native(array, api):
    """`array` with a supported dtype in native byte order, aligned (copied only if needed)."""
    _check_kind(array.dtype, api)
    if not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder("="))
    if not array.flags.aligned:
        array = array.copy()
    return array


def is_scalar(value):
    return isinstance(value, (bool, int, float, complex, str, bytes, np.generic))


def host_value(value, dtype, target_ndim, api, element=False, advanced=False):
    """The value of an assignment to an array of `dtype`, as a host array.

    Scalars, and anything assigned to a single element selected by integers (`element`),
    are converted by NumPy's element assignment (300 into int8 raises OverflowError, nan
    into an integer array ValueError, [[7]] into int16 TypeError); sequences by NumPy's
    array coercion for `dtype`, and may not have more dimensions than the destination;
    arrays keep their dtype, and the copy into the destination casts them. For `advanced`
    indexing NumPy treats NumPy scalars as arrays (cast unsafely, not range-checked).
    """
    try:
        if isinstance(value, np.ndarray):
            host = value
        elif advanced and isinstance(value, np.generic):
            host = np.asarray(value)
        elif element or is_scalar(value):
            host = np.empty((), dtype)
            host[()] = value
        elif np.ndim(value) > target_ndim:
            raise ValueError("setting an array element with a sequence. The requested array "
                             f"would exceed the maximum number of dimension of {target_ndim}.")
        else:
            host = np.asarray(value, dtype=dtype)
    except (OverflowError, ValueError, TypeError) as error:
        raise prefixed(api, error) from None
    return native(host, api)


def fill_value(value, dtype, api):
    """A fill value for full/full_like, converted as numpy.copyto(casting='unsafe') does:
    Python integers out of range raise OverflowError, complex values keep their real part."""
    try:
        if isinstance(value, np.ndarray) or not is_scalar(value):
            return native(np.asarray(value), api)
        host = np.empty((), dtype)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
            np.copyto(host, value, casting="unsafe")
        return host
    except (OverflowError, ValueError, TypeError) as error:
        raise prefixed(api, error) from None
