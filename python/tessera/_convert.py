"""Host-side conversion of Python values to NumPy arrays tessera can take in."""

import numpy as np

_SUPPORTED = {
    ("b", 1), ("i", 1), ("i", 2), ("i", 4), ("i", 8), ("u", 1), ("u", 2), ("u", 4), ("u", 8),
    ("f", 2), ("f", 4), ("f", 8), ("c", 8), ("c", 16),
}


def prefixed(api, error):
    """The same exception type, its message prefixed with the API name."""
    return type(error)(f"[{api}] {error}")


def check_dtype(dtype, api):
    dtype = np.dtype(dtype)
    if (dtype.kind, dtype.itemsize) not in _SUPPORTED or dtype.fields is not None:
        raise TypeError(
            f"[{api}] unsupported dtype {dtype}; tessera supports bool, int8-64, uint8-64, "
            "float16/32/64, complex64/128"
        )
    return dtype


def native(array, api):
    """`array` with a supported dtype in native byte order, aligned (copied only if needed)."""
    check_dtype(array.dtype, api)
    if not array.dtype.isnative:
        array = array.astype(array.dtype.newbyteorder("="))
    if not array.flags.aligned:
        array = array.copy()
    return array


def is_scalar(value):
    return isinstance(value, (bool, int, float, complex, np.generic))


def host_value(value, dtype, api):
    """The value of an assignment to an array of `dtype`, as a host array.

    Scalars and sequences are converted with NumPy's assignment rules for `dtype` (so 300
    into int8 raises OverflowError and nan into an integer array raises ValueError, as in
    NumPy); arrays keep their dtype, and the copy into the destination casts them.
    """
    try:
        if isinstance(value, np.ndarray):
            host = value
        elif is_scalar(value):
            host = np.empty((), dtype)
            host[()] = value
        else:
            host = np.asarray(value, dtype=dtype)
    except (OverflowError, ValueError, TypeError) as error:
        raise prefixed(api, error) from None
    return native(host, api)
