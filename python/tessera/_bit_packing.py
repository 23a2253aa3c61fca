"""NumPy's packbits and unpackbits, built from array operations so that they run on the
array's device (the CPU or a CUDA GPU) without bringing the data to the host."""

import numpy as np

from ._convert import c_long
from ._creation import asarray, empty, operand, zeros
from ._elementwise import bitwise_and, not_equal, right_shift
from ._joining import concatenate
from ._manipulation import moveaxis

__all__ = ["packbits", "unpackbits"]

# The value of each bit of a byte, first bit first, in either order.
_BIT_VALUES = {"big": [128, 64, 32, 16, 8, 4, 2, 1], "little": [1, 2, 4, 8, 16, 32, 64, 128]}
# The shift that brings each bit of a byte to the lowest place, first bit first.
_BIT_SHIFTS = {"big": [7, 6, 5, 4, 3, 2, 1, 0], "little": [0, 1, 2, 3, 4, 5, 6, 7]}


def _c_long(api, name, value):
    """An integer argument as NumPy's packbits reads it: a C long (convert.c_long), and not
    a bool (NumPy refuses bools here, where operator.index would take them)."""
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(f"[{api}] an integer is required for {name}, got {value!r}")
    return c_long(value, api, name)


def _bitorder(api, bitorder, accepted, message):
    """'big' or 'little' for the bitorder argument: NumPy compares only the beginning of the
    string (`accepted` maps each prefix it checks to the order)."""
    if not isinstance(bitorder, str):
        raise TypeError(f"[{api}] bitorder must be a str, got {type(bitorder).__name__!r}")
    for prefix, order in accepted.items():
        if bitorder.startswith(prefix):
            return order
    raise ValueError(f"[{api}] {message}; got bitorder={bitorder!r}")


def _axis(api, a, axis):
    """(the array with `axis` moved last, the axis as a non-negative number). axis=None
    flattens; a 0-d array counts as 1-d, as NumPy's PyArray_CheckAxis takes it."""
    if axis is None:
        return a.reshape(-1), 0
    if a.ndim == 0:
        a = a.reshape(1)
    if not -a.ndim <= axis < a.ndim:
        raise np.exceptions.AxisError(f"[{api}] axis {axis} is out of bounds for array of "
                                      f"dimension {a.ndim}")
    axis %= a.ndim
    return moveaxis(a, axis, -1), axis


def _zero_bits(shape, device):
    return zeros(shape, dtype=np.uint8, device=device)


def _layout(a, axis):
    """The memory order of the result: NumPy's is Fortran where the input is Fortran (and
    not C) contiguous and is not flattened."""
    return "F" if axis is not None and a.flags.fnc else "C"


def _restored(result, axis, order):
    """The last axis put back at `axis`, laid out as NumPy's new array of that order: its
    strides, those of length-1 axes and of empty arrays included."""
    result = moveaxis(result, -1, axis)
    out = empty(result.shape, dtype=np.uint8, order=order, device=result.device)
    if out.strides == result.strides:
        return result
    out[...] = result
    return out


def packbits(a, /, axis=None, bitorder="big"):
    """Packs the truth of each element (nonzero or not) of an integer or bool array into
    uint8 bytes along `axis` (the flattened array when None), 8 to a byte, the last byte
    padded with zero bits."""
    if axis is not None:
        axis = _c_long("packbits", "the axis", axis)
    bit_order = _bitorder("packbits", bitorder, {"little": "little", "big": "big"},
                          "'order' must be either 'little' or 'big'")
    a = operand(a)
    if a.dtype.kind not in "biu":
        raise TypeError(f"[packbits] Expected an input array of integer or boolean data type, "
                        f"got {a.dtype}")
    layout = _layout(a, axis)
    bits, axis = _axis("packbits", a, axis)
    bits = not_equal(bits, 0).astype(np.uint8)
    padding = -bits.shape[-1] % 8
    if padding:
        bits = concatenate((bits, _zero_bits(bits.shape[:-1] + (padding,), a.device)), axis=-1)
    groups = bits.reshape(bits.shape[:-1] + (bits.shape[-1] // 8, 8))
    values = asarray(np.array(_BIT_VALUES[bit_order], dtype=np.uint8), device=a.device)
    # Each byte is a sum of distinct powers of two: at most 255, exact in uint8.
    packed = (groups * values).sum(axis=-1, dtype=np.uint8)
    return _restored(packed, axis, layout)


def _counted(bits, count):
    """The first `count` bits along the last axis (zero bits added past the end), or all but
    the last -count when negative."""
    available = bits.shape[-1]
    if count < 0:
        if -count > available:
            raise ValueError(f"[unpackbits] -count larger than number of elements: count="
                             f"{count} for {available} bits along the axis")
        return bits[..., :available + count]
    if count <= available:
        return bits[..., :count]
    extra = _zero_bits(bits.shape[:-1] + (count - available,), bits.device)
    return concatenate((bits, extra), axis=-1)


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """The bits of a uint8 array as a uint8 array of 0 and 1, 8 per byte along `axis` (the
    flattened array when None); `count` keeps that many (zero bits added as needed), or
    drops -count at the end."""
    if axis is not None:
        axis = _c_long("unpackbits", "the axis", axis)
    bit_order = _bitorder("unpackbits", bitorder, {"l": "little", "b": "big"},
                          "'order' must begin with 'l' or 'b'")
    a = operand(a)
    if a.dtype != np.uint8:
        raise TypeError(f"[unpackbits] Expected an input array of unsigned byte data type, "
                        f"got {a.dtype}")
    layout = _layout(a, axis)
    data, axis = _axis("unpackbits", a, axis)
    if count is not None:
        count = _c_long("unpackbits", "count", count)
    shifts = asarray(np.array(_BIT_SHIFTS[bit_order], dtype=np.uint8), device=a.device)
    bits = bitwise_and(right_shift(data[..., None], shifts), 1)
    bits = bits.reshape(data.shape[:-1] + (8 * data.shape[-1],))
    if count is not None:
        bits = _counted(bits, count)
    return _restored(bits, axis, layout)
