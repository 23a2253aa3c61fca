"""packbits and unpackbits against NumPy: values, dtype, shape and strides for every axis,
bit order and count, on 0-d, empty, non-contiguous, broadcast and reversed inputs; NumPy's
errors for dtypes, axes, counts and bit orders."""

import numpy as np
import pytest

import tessera as tp

from conftest import assert_same, sample
from oracle import (assert_raises_like, assert_raises_type, make_pair, numpy_result,
                    refuses_host_data)

LAYOUTS = ["0d", "empty", "1d", "c2d", "fortran", "transposed", "strided", "negative",
           "broadcast", "permuted3d", "empty_negative"]
PACK_DTYPES = [np.bool_, np.int8, np.uint8, np.int32, np.uint64, np.int64]


def _axes(ndim):
    return [None] + list(range(-max(ndim, 1), max(ndim, 1)))


@pytest.mark.parametrize("bitorder", ["big", "little"])
@pytest.mark.parametrize("dtype", PACK_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("layout", LAYOUTS)
def test_packbits(device, layout, dtype, bitorder):
    t, n = make_pair(layout, dtype)
    for axis in _axes(n.ndim):
        assert_same(tp.packbits(t, axis=axis, bitorder=bitorder),
                    np.packbits(n, axis=axis, bitorder=bitorder), strides=True)


@pytest.mark.parametrize("bitorder", ["big", "little"])
@pytest.mark.parametrize("layout", LAYOUTS)
def test_unpackbits(device, layout, bitorder):
    t, n = make_pair(layout, np.uint8)
    for axis in _axes(n.ndim):
        available = 8 * (n.size if axis is None or n.ndim == 0 else n.shape[axis])
        for count in (None, 0, 3, 8, -1, -available, available + 5):
            want, error = numpy_result(
                lambda: np.unpackbits(n, axis=axis, count=count, bitorder=bitorder))
            call = lambda: tp.unpackbits(t, axis=axis, count=count, bitorder=bitorder)  # noqa: E731
            if error is not None:  # -1 bits of none
                assert_raises_type(type(error), call)
                continue
            got = call()
            if n.size == 0 and count is not None and count > 0:
                # NumPy leaves the bits past an empty input unwritten (whatever its memory
                # held); tessera's are zero.
                want = np.zeros_like(want)
            assert_same(got, want, strides=True)


@pytest.mark.parametrize("bitorder", ["big", "little"])
def test_round_trip(device, bitorder):
    bits = np.asarray(sample((3, 13, 2), np.bool_))
    packed = tp.packbits(tp.asarray(bits), axis=1, bitorder=bitorder)
    assert_same(packed, np.packbits(bits, axis=1, bitorder=bitorder))
    back = tp.unpackbits(packed, axis=1, count=13, bitorder=bitorder)
    assert_same(back, bits.astype(np.uint8))


def test_bitorder_prefixes(device):
    """NumPy compares only the beginning: packbits wants 'big' or 'little' there, unpackbits
    only 'b' or 'l'; case matters."""
    t, n = make_pair("1d", np.int16)
    u = tp.asarray(np.array([6, 129], dtype=np.uint8))
    for order in ["bigger", "littleendian", "b", "l", "lit", "Big", "L", "", "x"]:
        for func, m_arg, t_arg in (("packbits", n, t), ("unpackbits", tp.asnumpy(u), u)):
            try:
                want = getattr(np, func)(m_arg, bitorder=order)
            except ValueError:
                with pytest.raises(ValueError, match=rf"^\[{func}\] 'order' must"):
                    getattr(tp, func)(t_arg, bitorder=order)
                continue
            assert_same(getattr(tp, func)(t_arg, bitorder=order), want)


ERROR_CASES = {
    "pack_float": ("packbits", np.float64, {}),
    "pack_complex": ("packbits", np.complex64, {}),
    "pack_float16": ("packbits", np.float16, {}),
    "unpack_int8": ("unpackbits", np.int8, {}),
    "unpack_bool": ("unpackbits", np.bool_, {}),
    "unpack_uint16": ("unpackbits", np.uint16, {}),
    "pack_axis_out_of_range": ("packbits", np.int64, {"axis": 2}),
    "pack_axis_negative_out_of_range": ("packbits", np.int64, {"axis": -3}),
    "pack_axis_float": ("packbits", np.int64, {"axis": 1.0}),
    "pack_axis_bool": ("packbits", np.int64, {"axis": True}),
    "pack_axis_string": ("packbits", np.int64, {"axis": "0"}),
    "pack_axis_huge": ("packbits", np.int64, {"axis": 2**63}),
    "pack_axis_tuple": ("packbits", np.int64, {"axis": (0, 1)}),
    "pack_bitorder_none": ("packbits", np.int64, {"bitorder": None}),
    "pack_bitorder_bytes": ("packbits", np.int64, {"bitorder": b"big"}),
    "pack_bitorder_bad": ("packbits", np.int64, {"bitorder": "middle"}),
    "pack_float_bad_bitorder": ("packbits", np.float64, {"bitorder": "x"}),
    "unpack_axis_out_of_range": ("unpackbits", np.uint8, {"axis": 5}),
    "unpack_axis_float": ("unpackbits", np.uint8, {"axis": 0.5}),
    "unpack_count_float": ("unpackbits", np.uint8, {"count": 1.5}),
    "unpack_count_bool": ("unpackbits", np.uint8, {"count": True}),
    "unpack_count_string": ("unpackbits", np.uint8, {"count": "3"}),
    "unpack_count_huge": ("unpackbits", np.uint8, {"count": 2**63}),
    "unpack_count_too_negative": ("unpackbits", np.uint8, {"count": -97}),
    "unpack_count_most_negative": ("unpackbits", np.uint8, {"count": -2**63}),
    "unpack_bitorder_none": ("unpackbits", np.uint8, {"bitorder": None}),
    "unpack_bitorder_bad": ("unpackbits", np.uint8, {"bitorder": "x"}),
    "unpack_axis_before_count": ("unpackbits", np.uint8, {"axis": 5, "count": 1.5}),
}


@pytest.mark.parametrize("case", list(ERROR_CASES))
def test_errors(device, case):
    func, dtype, kwargs = ERROR_CASES[case]
    t, n = make_pair("c2d", dtype)
    assert_raises_like(lambda: getattr(np, func)(n, **kwargs),
                       lambda: getattr(tp, func)(t, **kwargs))


@pytest.mark.parametrize("value", [None, "abc", 5, 2.5, True])
def test_scalars_and_objects(device, value):
    """Python values are 0-d operands; what is no integer, bool or uint8 array is NumPy's
    TypeError."""
    for func in ("packbits", "unpackbits"):
        try:
            want = getattr(np, func)(value)
        except TypeError:
            with pytest.raises(TypeError, match=r"^\["):
                getattr(tp, func)(value)
            continue
        assert_same(getattr(tp, func)(value), want)


def test_host_data(device):
    """Lists are converted on the CPU and refused by a CUDA device, as other operands."""
    bits = [[1, 0, 1], [0, 0, 1]]
    if refuses_host_data(device):
        with pytest.raises(TypeError, match=r"^\[packbits\] .*not moved to"):
            tp.packbits(bits)
        return
    assert_same(tp.packbits(bits, axis=1), np.packbits(bits, axis=1))


def test_result_stays_on_the_device(device):
    t = tp.asarray(np.array([1, 0, 1, 1], dtype=np.int8))
    assert tp.packbits(t).device == t.device
    assert tp.unpackbits(tp.packbits(t), count=4).device == t.device
