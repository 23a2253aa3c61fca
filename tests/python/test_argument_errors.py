"""Argument errors against NumPy (issue 25, item 5): an integer argument past int64, an axis
of the wrong type or past int64, a count too large for an array. The engine's bindings
refuse such values with nanobind's "incompatible function arguments" TypeError; the Python
wrappers check them first, so tessera raises NumPy's exception type, with a message that
names the function and none of the binding's or C++'s words."""

import numpy as np
import pytest

import tessera as tp

from oracle import message_of, numpy_result, public_type

BIG = 2**63  # one past int64
SMALL = -2**63 - 1  # one below int64
HUGE = 10**30  # past uint64 too


def _a(xp):
    """A 2-d float array."""
    return xp.asarray(np.arange(6.0).reshape(2, 3))


def _i(xp):
    """A 1-d integer array."""
    return xp.asarray(np.array([3, 1, 2]))


# (function name the message must contain, call on a module xp, exception type)
CASES = [
    # Counts of samples, built by arange: NumPy's IndexError where the count fits uint64
    # (its arange of it is empty, whose last element it then indexes), ValueError past it.
    ("linspace", lambda xp: xp.linspace(0, 1, BIG), IndexError),
    ("linspace", lambda xp: xp.linspace(0, 1, HUGE), ValueError),
    ("logspace", lambda xp: xp.logspace(0, 1, num=BIG), IndexError),
    ("logspace", lambda xp: xp.logspace(0, 1, num=HUGE), ValueError),
    ("geomspace", lambda xp: xp.geomspace(1, 10, num=BIG), IndexError),
    ("geomspace", lambda xp: xp.geomspace(1, 10, num=HUGE), ValueError),
    ("histogram", lambda xp: xp.histogram(_i(xp), bins=BIG), IndexError),
    ("histogram", lambda xp: xp.histogram(_i(xp), bins=HUGE), ValueError),
    ("histogram2d", lambda xp: xp.histogram2d(_i(xp), _i(xp), bins=BIG), IndexError),
    ("histogram2d", lambda xp: xp.histogram2d(_i(xp), _i(xp), bins=HUGE), ValueError),
    ("arange", lambda xp: xp.arange(HUGE), ValueError),
    ("tri", lambda xp: xp.tri(HUGE), ValueError),
    ("tri", lambda xp: xp.tri(3, M=HUGE), ValueError),
    ("tril_indices", lambda xp: xp.tril_indices(HUGE), ValueError),
    ("tril_indices", lambda xp: xp.tril_indices(3, m=HUGE), ValueError),
    ("triu_indices", lambda xp: xp.triu_indices(HUGE), ValueError),
    ("triu_indices", lambda xp: xp.triu_indices(3, m=HUGE), ValueError),
    ("diag_indices", lambda xp: xp.diag_indices(HUGE), ValueError),
    ("rfftfreq", lambda xp: xp.fft.rfftfreq(BIG), ValueError),
    # Dimensions: "Maximum allowed dimension exceeded".
    ("eye", lambda xp: xp.eye(BIG), ValueError),
    ("eye", lambda xp: xp.eye(SMALL), ValueError),
    ("eye", lambda xp: xp.eye(HUGE), ValueError),
    ("eye", lambda xp: xp.eye(3, M=BIG), ValueError),
    ("eye", lambda xp: xp.eye(3, M=SMALL), ValueError),
    ("eye", lambda xp: xp.eye(5, 4, BIG), None),  # k past the edge: all zeros, as NumPy
    ("identity", lambda xp: xp.identity(BIG), ValueError),
    ("identity", lambda xp: xp.identity(SMALL), ValueError),
    ("identity", lambda xp: xp.identity(HUGE), ValueError),
    ("vander", lambda xp: xp.vander(_i(xp), N=BIG), ValueError),
    ("vander", lambda xp: xp.vander(_i(xp), N=SMALL), ValueError),
    ("vander", lambda xp: xp.vander(_i(xp), N=HUGE), ValueError),
    ("vander", lambda xp: xp.vander(_i(xp), N=-1), ValueError),
    ("vander", lambda xp: xp.vander(_i(xp), N=2.0), TypeError),
    ("polyfit", lambda xp: xp.polyfit(_i(xp), _i(xp), BIG), ValueError),
    ("polyfit", lambda xp: xp.polyfit(_i(xp), _i(xp), HUGE), ValueError),
    ("polyfit", lambda xp: xp.polyfit(_i(xp), _i(xp), SMALL), ValueError),
    ("fftfreq", lambda xp: xp.fft.fftfreq(BIG), ValueError),
    ("fftfreq", lambda xp: xp.fft.fftfreq(SMALL), ValueError),
    ("fftfreq", lambda xp: xp.fft.fftfreq(HUGE), ValueError),
    # C longs: offsets and axes past int64 are NumPy's OverflowError.
    *[(name, call, OverflowError) for value in (BIG, SMALL, HUGE) for name, call in [
        ("diag", lambda xp, v=value: xp.diag(_a(xp), k=v)),
        ("diagonal", lambda xp, v=value: xp.diagonal(_a(xp), offset=v)),
        ("diagonal", lambda xp, v=value: xp.diagonal(_a(xp), axis1=v)),
        ("diagonal", lambda xp, v=value: xp.diagonal(_a(xp), axis2=v)),
        ("trace", lambda xp, v=value: xp.trace(_a(xp), offset=v)),
        ("trace", lambda xp, v=value: xp.trace(_a(xp), axis1=v)),
        ("trace", lambda xp, v=value: xp.trace(_a(xp), axis2=v)),
        ("cumsum", lambda xp, v=value: xp.cumsum(_a(xp), axis=v)),
        ("cumprod", lambda xp, v=value: xp.cumprod(_a(xp), axis=v)),
        ("nancumsum", lambda xp, v=value: xp.nancumsum(_a(xp), axis=v)),
        ("swapaxes", lambda xp, v=value: xp.swapaxes(_a(xp), v, 0)),
        ("moveaxis", lambda xp, v=value: xp.moveaxis(_a(xp), v, 0)),
        ("moveaxis", lambda xp, v=value: xp.moveaxis(_a(xp), 0, v)),
        ("expand_dims", lambda xp, v=value: xp.expand_dims(_a(xp), v)),
    ]],
    ("diagonal", lambda xp: xp.diagonal(_a(xp), offset=None), TypeError),
    ("cumsum", lambda xp: xp.cumsum(_a(xp), axis=1.5), TypeError),
    # Reductions and the other axis= functions: past int64 OverflowError, a dict TypeError.
    *[(name, lambda xp, f=name: getattr(xp, f)(_a(xp), axis=SMALL), OverflowError)
      for name in ("sum", "prod", "mean", "max", "min", "all", "any", "count_nonzero",
                   "argmax", "argmin", "std", "var", "ptp", "nansum", "nanprod", "nanmean",
                   "nanmax", "nanmin", "nanstd", "nanvar", "nanargmax", "nanargmin",
                   "average", "median", "nanmedian", "sort", "argsort", "flip", "squeeze",
                   "unique", "diff", "gradient")],
    *[(name, lambda xp, f=name: getattr(xp, f)(_a(xp), axis=BIG), OverflowError)
      for name in ("sum", "mean", "max", "argmax", "var", "nanmax", "sort", "squeeze")],
    *[(name, lambda xp, f=name: getattr(xp, f)(_a(xp), axis={}), TypeError)
      for name in ("sum", "prod", "mean", "max", "min", "all", "any", "count_nonzero",
                   "nanmax", "nanmin", "nanmean", "nansum", "nanprod", "nanstd", "nanvar",
                   "ptp", "squeeze", "std", "var")],
    ("sum", lambda xp: xp.sum(_a(xp), axis=(0, SMALL)), OverflowError),
    ("sum", lambda xp: xp.sum(_a(xp), axis=[0]), TypeError),
    ("concatenate", lambda xp: xp.concatenate([_a(xp), _a(xp)], axis=SMALL), OverflowError),
    ("stack", lambda xp: xp.stack([_a(xp), _a(xp)], axis=SMALL), OverflowError),
    ("append", lambda xp: xp.append(_a(xp), _a(xp), axis=SMALL), OverflowError),
    ("delete", lambda xp: xp.delete(_a(xp), 1, axis=SMALL), OverflowError),
    ("insert", lambda xp: xp.insert(_a(xp), 1, 5.0, axis=SMALL), OverflowError),
    ("roll", lambda xp: xp.roll(_a(xp), 1, axis=SMALL), OverflowError),
    ("repeat", lambda xp: xp.repeat(_a(xp), 2, axis=SMALL), OverflowError),
    ("take", lambda xp: xp.take(_a(xp), 1, axis=SMALL), OverflowError),
    ("partition", lambda xp: xp.partition(_a(xp), 1, axis=SMALL), OverflowError),
    ("argpartition", lambda xp: xp.argpartition(_a(xp), 1, axis=SMALL), OverflowError),
    ("quantile", lambda xp: xp.quantile(_a(xp), 0.5, axis=SMALL), OverflowError),
    ("percentile", lambda xp: xp.percentile(_a(xp), 50, axis=SMALL), OverflowError),
    ("linspace", lambda xp: xp.linspace(0, 1, 5, axis=SMALL), OverflowError),
    ("trapezoid", lambda xp: xp.trapezoid(_a(xp), axis=SMALL), IndexError),
    # Indices past int64.
    ("put", lambda xp: xp.put(_a(xp), BIG, 9.0), OverflowError),
    ("put", lambda xp: xp.put(_a(xp), SMALL, 9.0), OverflowError),
    ("put", lambda xp: xp.put(_a(xp), [1, BIG], 9.0), OverflowError),
    ("take", lambda xp: xp.take(_a(xp), BIG), OverflowError),
    # Arguments of the wrong type.
    ("can_cast", lambda xp: xp.can_cast(_a(xp), "f8", casting=None), TypeError),
    ("swapaxes", lambda xp: xp.swapaxes(_a(xp), None, 1), TypeError),
    ("swapaxes", lambda xp: xp.swapaxes(_a(xp), 0, None), TypeError),
    # The same through ndarray methods, which the engine binds directly.
    ("swapaxes", lambda xp: _a(xp).swapaxes(None, 1), TypeError),
    ("squeeze", lambda xp: _a(xp).squeeze(axis={}), TypeError),
    ("squeeze", lambda xp: _a(xp).squeeze(axis="0"), TypeError),
    ("trapezoid", lambda xp: xp.trapezoid(_a(xp), dx=None), TypeError),
    ("trapezoid", lambda xp: xp.trapezoid(_a(xp), dx="a"), TypeError),
    ("trapezoid", lambda xp: xp.trapezoid(_a(xp), dx={}), TypeError),
    ("std", lambda xp: xp.std(_a(xp), ddof="str"), TypeError),
    ("var", lambda xp: xp.var(_a(xp), ddof="str"), TypeError),
    ("var", lambda xp: xp.var(_a(xp), ddof=None), TypeError),
    ("split", lambda xp: xp.split(_a(xp), 1.5), ValueError),
    ("array_split", lambda xp: xp.array_split(xp.asarray(-1), 2), IndexError),
    ("split", lambda xp: xp.split(xp.asarray(-1), 3), IndexError),
]

# Where NumPy 2.4 returns a result built from an integer overflow (an empty arange of 2**63
# elements; a 3x0 tri), tessera refuses the count it cannot hold, with the ValueError NumPy
# raises for a larger one.
BEYOND_NUMPY = [
    ("arange", lambda xp: xp.arange(BIG), ValueError),
    ("tri", lambda xp: xp.tri(BIG), ValueError),
    ("tri", lambda xp: xp.tri(3, M=BIG), ValueError),
    ("tril_indices", lambda xp: xp.tril_indices(BIG), ValueError),
    ("tril_indices", lambda xp: xp.tril_indices(3, m=BIG), ValueError),
    ("triu_indices", lambda xp: xp.triu_indices(BIG), ValueError),
    ("triu_indices", lambda xp: xp.triu_indices(3, m=BIG), ValueError),
    ("diag_indices", lambda xp: xp.diag_indices(BIG), ValueError),
    ("rfftfreq", lambda xp: xp.fft.rfftfreq(HUGE), ValueError),
]

LEAKS = ("incompatible function arguments", "nanobind", "std::")


def _ids(cases):
    return [f"{name}-{i}" for i, (name, _, _) in enumerate(cases)]


def _assert_raises(name, call, expected):
    with pytest.raises(Exception) as got:
        call(tp)
    error = got.value
    message = message_of(error)
    assert type(error) is expected, f"expected {expected.__name__}, got {error!r}"
    assert name in message, f"message does not name {name}: {message!r}"
    for word in LEAKS:
        assert word not in message, f"message leaks {word!r}: {message!r}"


@pytest.mark.parametrize("name, call, expected", CASES, ids=_ids(CASES))
def test_argument_error_like_numpy(device, name, call, expected):
    result, np_error = numpy_result(lambda: call(np))
    if expected is None:
        assert np_error is None
        np.testing.assert_array_equal(tp.asnumpy(call(tp)), result)
        return
    assert np_error is not None, f"NumPy did not raise (returned {result!r})"
    assert public_type(np_error) is expected or isinstance(np_error, expected), \
        f"the case expects {expected.__name__}, NumPy raises {np_error!r}"
    _assert_raises(name, call, expected)


@pytest.mark.parametrize("name, call, expected", BEYOND_NUMPY, ids=_ids(BEYOND_NUMPY))
def test_argument_error_past_int64(device, name, call, expected):
    _assert_raises(name, call, expected)


@pytest.mark.parametrize("k", [BIG, 2**62, -2**62, 5, -5])
def test_offsets_past_the_edge(device, k):
    # An offset past the matrix's edge selects all or nothing (no overflow in the mask).
    np.testing.assert_array_equal(tp.asnumpy(tp.tri(3, 4, k)), np.tri(3, 4, k))
    a = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(tp.asnumpy(tp.tril(tp.asarray(a), k)), np.tril(a, k))
    np.testing.assert_array_equal(tp.asnumpy(tp.triu(tp.asarray(a), k)), np.triu(a, k))
    for got, want in zip(tp.tril_indices(3, k, 4), np.tril_indices(3, k, 4)):
        np.testing.assert_array_equal(tp.asnumpy(got), want)
