"""Eager signatures: @jit("float64(float64[:])"), lists of them, Numba's conversions of the
arguments and its error when none matches; against numba.njit with the same signatures."""

import numpy as np
import pytest

import tessera as tp

numba = pytest.importorskip("numba")

# Compiled for the CPU: make test's run on the CUDA device leaves out the tests taking no device.
pytestmark = pytest.mark.host_only


def _total(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    return s


def _scale(x, k):
    return x * k


def _identity(x):
    return x


def both(signatures, function):
    return tp.jit(signatures)(function), numba.njit(signatures)(function)


def same(got, expected):
    assert type(got) is type(expected), f"{type(got).__name__} != {type(expected).__name__}"
    assert got == expected


def test_an_array_signature_takes_any_layout_of_its_dtype():
    ours, theirs = both("float64(float64[:])", _total)
    a = np.arange(10.0)
    same(ours(a), theirs(a))
    same(ours(a[::-3]), theirs(a[::-3]))
    for bad in (np.arange(10), np.ones((2, 2))):
        with pytest.raises(TypeError, match="No matching definition"):
            theirs(bad)
        with pytest.raises(TypeError, match="No matching definition"):
            ours(bad)


def test_a_contiguous_signature_refuses_strided_arrays():
    ours, theirs = both("float64(float64[::1])", _total)
    same(ours(np.arange(4.0)), theirs(np.arange(4.0)))
    with pytest.raises(TypeError, match="No matching definition"):
        theirs(np.arange(8.0)[::2])
    with pytest.raises(TypeError, match="No matching definition"):
        ours(np.arange(8.0)[::2])


def test_the_first_signature_numbers_convert_to_safely():
    ours, theirs = both(["int64(int64, int64)", "float64(float64, float64)"], _scale)
    for args in [(2, 3), (2.0, 3), (np.int8(2), np.int16(3)), (np.float32(1.5), 2),
                 (True, 4)]:
        same(ours(*args), theirs(*args))
    with pytest.raises(TypeError, match="No matching definition"):
        ours(1j, 2)
    assert len(ours.signatures) == 2


def test_the_declared_return_type_is_kept():
    ours, theirs = both("float64(int64)", _identity)
    same(ours(7), theirs(7))
    ours32, theirs32 = both("float32(float64)", _identity)
    same(ours32(0.1), theirs32(0.1))


def test_bad_signatures():
    with pytest.raises(TypeError, match="'flaot64' is not a scalar type"):
        tp.jit("flaot64(float64)")(_identity)
    with pytest.raises(TypeError, match="dimensions are ':' or '::1'"):
        tp.jit("float64(float64[1:])")(_total)
