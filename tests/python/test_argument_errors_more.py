"""More argument edge cases against NumPy: axis= as any iterable (NumPy's
normalize_axis_tuple), split into zero sections, triangle offsets and diagonal sizes past
int64. Where NumPy raises, tessera raises the same type with a message starting with the
function's name in brackets; where NumPy succeeds, tessera gives the same result."""

import warnings

import numpy as np
import pytest

import tessera as tp

from conftest import assert_same
from oracle import message_of, numpy_result, public_type

BIG = 2**63  # one past int64
SMALL = -2**63 - 1  # one below int64
HUGE = 10**30  # past uint64 too
AxisError = np.exceptions.AxisError


def _a(xp):
    """A 2-d float array."""
    return xp.asarray(np.arange(6.0).reshape(2, 3))


def _v(xp):
    """A 1-d float array of 6."""
    return xp.asarray(np.arange(6.0))


def _m(xp):
    """A 3x4 float array."""
    return xp.asarray(np.arange(12.0).reshape(3, 4))


# (function name, call on a module xp, NumPy's exception type or None where it succeeds)
CASES = [
    # median, nanmedian, flip and gradient read axis= as NumPy's normalize_axis_tuple does:
    # an integer, else any iterable of integers (a dict gives its keys: {} is no axes).
    *[(name, lambda xp, f=name, ax=axis: getattr(xp, f)(_a(xp), axis=ax), expected)
      for name in ("median", "nanmedian", "flip", "gradient")
      for axis, expected in [
          ({}, None), ({0: 1}, None), ({1: 0, 0: 0}, None), (set(), None),
          (frozenset({1}), None), ("", None), (np.array([0]), None),
          (1.5, TypeError), ("ab", TypeError), ({"a": 1}, TypeError),
          ({SMALL: 1}, OverflowError), ({BIG: 1}, OverflowError),
          ([0, 0], ValueError), ({5: 1}, AxisError)]],
    # unique's axis goes through moveaxis(ar, axis, 0) first: any number of axes but one is
    # its ValueError; one axis in an iterable gets past it and fails as a list index.
    *[("unique", lambda xp, ax=axis: xp.unique(_a(xp), axis=ax), expected)
      for axis, expected in [
          ({}, ValueError), (set(), ValueError), ((), ValueError), ((0, 1), ValueError),
          ([0, 0], ValueError), ({0: 1}, TypeError), ([0], TypeError),
          (frozenset({1}), TypeError), (1.5, TypeError), ({SMALL: 1}, OverflowError),
          (SMALL, OverflowError), (np.array(1), None)]],
    # Zero sections: split's N % sections divides by zero first; array_split refuses it.
    ("array_split", lambda xp: xp.array_split(_v(xp), -1), ValueError),
    ("array_split", lambda xp: xp.array_split(_v(xp), 0), ValueError),
    ("array_split", lambda xp: xp.array_split(_v(xp), 0.0), ValueError),
    ("split", lambda xp: xp.split(_v(xp), 0), ZeroDivisionError),
    ("split", lambda xp: xp.split(_v(xp), 0.0), ZeroDivisionError),
    ("split", lambda xp: xp.split(_v(xp), False), ZeroDivisionError),
    ("split", lambda xp: xp.split(xp.asarray(np.array([])), 0), ZeroDivisionError),
    ("split", lambda xp: xp.split(_v(xp), -1), ValueError),
    ("split", lambda xp: xp.split(_v(xp), -6), ValueError),
    ("split", lambda xp: xp.split(_v(xp), 2.0), None),
    # Triangle offsets: NumPy builds the columns as arange(-k, M - k) of int64, converting
    # -k and (for M > 1) -k + 1: OverflowError where one is past int64. triu's is k - 1.
    *[(name, call, expected) for k, tri_expected, triu_expected in [
        (HUGE, OverflowError, OverflowError), (-HUGE, OverflowError, OverflowError),
        (2**64, OverflowError, OverflowError), (BIG + 1, OverflowError, None),
        (BIG, None, None), (BIG - 1, None, None), (-BIG + 5, None, None),
        (-BIG + 1, OverflowError, OverflowError), (-BIG, OverflowError, OverflowError)]
      for name, call, expected in [
          ("tri", lambda xp, k=k: xp.tri(3, 4, k), tri_expected),
          ("tril", lambda xp, k=k: xp.tril(_m(xp), k), tri_expected),
          ("triu", lambda xp, k=k: xp.triu(_m(xp), k), triu_expected)]],
    ("triu", lambda xp: xp.triu(_m(xp), -BIG + 2), OverflowError),
    ("tri", lambda xp: xp.tri(3, k=HUGE), OverflowError),
    ("tri", lambda xp: xp.tri(3, 1, -BIG + 1), None),  # one column: only -k is converted
    ("tri", lambda xp: xp.tri(3, 1, -BIG), OverflowError),
    ("tri", lambda xp: xp.tri(3, 0, HUGE), None),  # no columns: nothing is converted
    ("tri", lambda xp: xp.tri(3, -1, -HUGE), None),
    ("tril", lambda xp: xp.tril(_v(xp), k=HUGE), OverflowError),
    # A 1-d diag's (n, n) result, n = len(v) + |k|: zeros' errors, named for the function.
    *[(name, lambda xp, f=name, k=k: getattr(xp, f)(_v(xp), k=k), ValueError)
      for name in ("diag", "diagflat")
      for k in (BIG, BIG - 6, SMALL, HUGE, -HUGE, 2**62, 2**31)],
    ("diag", lambda xp: xp.diag(xp.asarray(np.array([])), k=BIG), ValueError),
    ("diag", lambda xp: xp.diag(_v(xp), k=-2), None),
]

LEAKS = ("incompatible function arguments", "nanobind", "std::")


def _ids(cases):
    return [f"{name}-{i}" for i, (name, _, _) in enumerate(cases)]


def _assert_same_result(got, want):
    if isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want), f"{got!r} != {want!r}"
        for g, w in zip(got, want):
            assert_same(g, w)
    else:
        assert_same(got, want)


@pytest.mark.parametrize("name, call, expected", CASES, ids=_ids(CASES))
def test_like_numpy(device, name, call, expected):
    want, np_error = numpy_result(lambda: call(np))
    if expected is None:
        assert np_error is None, f"NumPy raised {np_error!r}"
        _assert_same_result(call(tp), want)
        return
    assert np_error is not None, f"NumPy did not raise (returned {want!r})"
    assert public_type(np_error) is expected, \
        f"the case expects {expected.__name__}, NumPy raises {np_error!r}"
    with pytest.raises(Exception) as got:
        call(tp)
    message = message_of(got.value)
    assert type(got.value) is expected, f"expected {expected.__name__}, got {got.value!r}"
    assert message.startswith(f"[{name}] "), f"message does not start with [{name}]: {message!r}"
    for word in LEAKS:
        assert word not in message, f"message leaks {word!r}: {message!r}"


@pytest.mark.parametrize("k", [-BIG + 2, -BIG + 3])
def test_offset_just_above_int64_min(device, k):
    # NumPy's int64 column offsets -k .. M - k wrap around here (its tri(3, 4, -2**63 + 2)
    # has ones); tessera's mask is the true one, nothing at or below so low a diagonal.
    np.testing.assert_array_equal(tp.asnumpy(tp.tri(3, 4, k)), np.zeros((3, 4)))
    m = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(tp.asnumpy(tp.tril(tp.asarray(m), k)), np.zeros((3, 4)))
    np.testing.assert_array_equal(tp.asnumpy(tp.triu(tp.asarray(m), k + 1)), m)


def test_split_by_numpy_zero(device):
    # N % np.int64(0) is NumPy's 0 with a warning, not ZeroDivisionError: array_split's
    # check then refuses zero sections, in split's name.
    with pytest.warns(RuntimeWarning), pytest.raises(ValueError, match=r"^\[split\] "):
        tp.split(_v(tp), np.int64(0))
    with warnings.catch_warnings(), pytest.raises(ValueError):
        warnings.simplefilter("ignore")
        np.split(_v(np), np.int64(0))


def test_arange_below_int64(device):
    # NumPy makes an (empty) object array of a Python int below int64; tessera has no
    # object dtype, and refuses it as it refuses any dtype it cannot hold.
    assert np.arange(SMALL).dtype == object
    with pytest.raises(TypeError, match=r"^\[arange\] unsupported dtype object"):
        tp.arange(SMALL)


@pytest.mark.parametrize("stop", [-10**30, 10**30, -2**70], ids=repr)
def test_arange_lengths_past_int64_either_way(device, stop):
    # NumPy checks the length against intp before it clamps a negative one to 0.
    with pytest.raises(ValueError, match="Maximum allowed size exceeded"):
        np.arange(stop)
    with pytest.raises(ValueError, match=r"^\[arange\] Maximum allowed size exceeded"):
        tp.arange(stop)
