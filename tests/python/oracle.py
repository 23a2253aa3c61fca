"""Helpers shared by the NumPy-oracle test files: building the same data and memory layout
in NumPy and in tessera, and comparing outcomes (results or exceptions) with NumPy's."""

import warnings

import numpy as np
import pytest

import tessera as tp
from conftest import ALL_DTYPES, assert_same, sample

DTYPE_IDS = [np.dtype(d).name for d in ALL_DTYPES]


def compact_id(value):
    """A test id without spaces: (2, 3) -> (2,3)."""
    return str(value).replace(" ", "")


# ------------------------------------------------------------ owner/view pairs, by layout name

def data(shape, dtype, seed=0):
    """sample() as an ndarray that owns its data (0-d included)."""
    return np.array(sample(shape, dtype, seed))


def make(shape, dtype, layout, seed=0):
    """(numpy owner, tessera owner, numpy input, tessera input): the inputs have the same
    values and the same memory layout; the owners hold their data."""
    shape = tuple(shape)
    nd = len(shape)
    if layout == "contiguous" or nd == 0:
        base = data(shape, dtype, seed)
        tbase = tp.array(base)
        return base, tbase, base, tbase
    if layout == "fortran":
        base = data(shape[::-1], dtype, seed)
        tbase = tp.array(base)
        return base, tbase, base.T, tbase.T
    if layout == "strided":  # every axis stepped by 2 from offset 1
        base = data(tuple(2 * s + 1 for s in shape), dtype, seed)
        key = (slice(1, None, 2),) * nd
    elif layout == "negative":  # every axis reversed
        base = data(shape, dtype, seed)
        key = (slice(None, None, -1),) * nd
    elif layout == "partial":  # last axis cut short: rows are contiguous, not adjacent
        base = data(shape[:-1] + (shape[-1] + 2,), dtype, seed)
        key = (slice(None),) * (nd - 1) + (slice(1, shape[-1] + 1),)
    elif layout == "leading":  # first axis stepped by 2: each sub-block is contiguous
        base = data((2 * shape[0],) + shape[1:], dtype, seed)
        key = (slice(None, None, 2),)
    elif layout == "transposed_negative":  # axes reversed, then the (new) first axis reversed
        base = data(shape[::-1], dtype, seed)
        tbase = tp.array(base)
        return base, tbase, base.T[::-1], tbase.T[::-1]
    elif layout == "broadcast":  # first axis broadcast from length 1
        base = data((1,) + shape[1:], dtype, seed)
        tbase = tp.array(base)
        t = tp.broadcast_to(tbase, shape)
        # The NumPy input gets tessera's strides, so that the operation under test starts from
        # the same layout (test_views.py::test_broadcast_to checks broadcast_to's own strides).
        n = np.lib.stride_tricks.as_strided(base, shape, t.strides, writeable=False)
        return base, tbase, n, t
    else:
        raise AssertionError(layout)
    tbase = tp.array(base)
    return base, tbase, base[key], tbase[key]


def owner(t):
    """The tessera array that owns t's data."""
    return t if t.base is None else t.base


def changed(value, dtype):
    """A value of `dtype` different from `value` (as NumPy computes it)."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return np.logical_not(value)
    return (np.asarray(value, dtype) + np.asarray(1, dtype)).astype(dtype)[()]


# ------------------------------------------------------- (tessera, NumPy) views of one layout

# Each layout: the base shape, and a view built the same way from a NumPy or tessera array.
PAIR_LAYOUTS = {
    "0d": ((), lambda x, m: x),
    "empty": ((0, 3), lambda x, m: x),
    "1d": ((7,), lambda x, m: x),
    "c2d": ((3, 4), lambda x, m: x),
    "fortran": ((3, 4), lambda x, m: m.asfortranarray(x)),
    "transposed": ((4, 3), lambda x, m: x.T),
    "strided": ((6, 8), lambda x, m: x[::2, 1::3]),
    "negative": ((5, 6), lambda x, m: x[::-1, ::-2]),
    "broadcast": ((1, 4), lambda x, m: m.broadcast_to(x, (3, 4))),
    "permuted3d": ((2, 3, 4), lambda x, m: x.transpose(2, 0, 1)),
    "empty_negative": ((4, 0), lambda x, m: x[::-1]),
}
PAIR_LAYOUT_NAMES = list(PAIR_LAYOUTS)


def make_numpy(layout, dtype, seed=0):
    shape, view = PAIR_LAYOUTS[layout]
    return view(np.asarray(sample(shape, dtype, seed)), np)


def make_pair(layout, dtype, seed=0):
    """(tessera view, NumPy view) of the same data and layout."""
    shape, view = PAIR_LAYOUTS[layout]
    base = np.asarray(sample(shape, dtype, seed))  # sample() gives NumPy scalars for 0-d
    return view(tp.array(base), tp), view(base, np)


def host_shared(device):
    """Whether arrays on `device` share memory with NumPy (zero-copy numpy.asarray, DLPack,
    writes through either side): on the CPU only. A CUDA array never shares memory with a
    NumPy array (as in CuPy): NumPy gets a host copy, tessera a device copy."""
    return device.kind == "cpu"


def refuses_host_data(device=None):
    """Whether `device` (the current device by default) refuses NumPy data (NumPy arrays,
    array-likes, lists, tuples) mixed into its operations, as CuPy does: every device but the
    CPU. Python and NumPy scalars are accepted on every device."""
    return not host_shared(tp.get_device() if device is None else device)


def is_host_data(x):
    """Whether `x` is NumPy data that a device refusing host data rejects (a NumPy array, a
    list or tuple, an object with __array__), not a tessera array or a scalar."""
    if isinstance(x, (tp.ndarray, np.generic, str, bytes)):
        return False
    return isinstance(x, (np.ndarray, list, tuple)) or hasattr(x, "__array__")


def host_data_refused(tp_call):
    """For a call given NumPy data beside (or instead of) tessera arrays: where the current
    device refuses host data (CUDA, as CuPy), checks that tp_call raises that TypeError and
    returns True; on the CPU returns False, and the caller checks the outcome against NumPy."""
    __tracebackhide__ = True
    if not refuses_host_data():
        return False
    assert_refuses_host_data(tp_call)
    return True


def assert_refuses_host_data(tp_call):
    """tp_call raises TypeError, saying that NumPy data is not moved to the device
    implicitly (with the API-name prefix "[...]")."""
    __tracebackhide__ = True
    with pytest.raises(TypeError) as got:
        tp_call()
    text = message_of(got.value)
    assert "not moved to" in text and text.startswith("["), \
        f"expected the refusal of NumPy data, got TypeError({text!r})"


class _Addresses:
    """The memory of a device array as a NumPy array over its device addresses: for
    numpy.shares_memory only, which compares addresses and never reads them."""

    def __init__(self, t):
        self.__array_interface__ = {"data": (t.data_ptr, True), "shape": t.shape,
                                    "strides": t.strides, "typestr": t.dtype.str, "version": 3}


def memory(x):
    """What numpy.shares_memory should see of `x`: NumPy arrays as they are, a CPU tessera
    array's zero-copy view, a device array's addresses (numpy.asarray would copy it)."""
    if isinstance(x, tp.ndarray) and not host_shared(x.device):
        return np.asarray(_Addresses(x))
    return np.asarray(x)


def shares(a, b):
    """numpy.shares_memory for any mix of NumPy and tessera arrays, on every device."""
    return np.shares_memory(memory(a), memory(b))


def assert_device_copy(t, n):
    """`t` (imported from the NumPy array `n` onto a device that shares no memory with the
    host) is an independent, writeable copy, laid out as numpy.array lays out a copy."""
    __tracebackhide__ = True
    assert t.flags.writeable and t.flags.owndata
    assert t.strides == np.array(n).strides, f"strides {t.strides} != {np.array(n).strides}"
    if n.size:
        assert not shares(t, n)
        if n.flags.writeable:
            before = n.copy()
            n[...] = sample(n.shape, n.dtype, seed=1)
            assert_same(t, before)


class DLPackOnly:
    """A DLPack producer that is nothing else (no __array__, no buffer protocol)."""

    def __init__(self, array):
        self._array = array

    def __dlpack__(self, **kwargs):
        return self._array.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self._array.__dlpack_device__()


# ------------------------------------------------------------------------ comparing outcomes

def message_of(error):
    return str(error.args[0]) if error.args else ""


def public_type(error):
    """The exception type NumPy documents: private subclasses (numpy._core's
    _ArrayMemoryError) count as their public builtin base."""
    cls = type(error)
    if cls.__module__.startswith("numpy._"):
        cls = next(c for c in cls.__mro__ if c.__module__ == "builtins")
    return cls


def numpy_result(np_call):
    """NumPy's answer, or the exception it raises (warnings silenced)."""
    __tracebackhide__ = True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return np_call(), None
        except Exception as error:  # noqa: BLE001  (any NumPy error is the expectation)
            return None, error


def on_device(error_type):
    """The exception type the current device raises where NumPy raises `error_type`: the
    same, except that a CUDA device runs out of memory with tessera.cuda.OutOfMemoryError
    (a MemoryError, as CuPy's)."""
    if error_type is MemoryError and tp.get_device().kind == "cuda":
        return tp.cuda.OutOfMemoryError
    return error_type


def assert_raises_type(error_type, tp_call):
    """tessera raises exactly `error_type`, with a message starting with the API prefix."""
    __tracebackhide__ = True
    with pytest.raises(Exception) as got:
        tp_call()
    assert type(got.value) is error_type, (
        f"NumPy raises {error_type.__name__}, tessera raises "
        f"{type(got.value).__name__}({got.value})")
    assert message_of(got.value).startswith("["), \
        f"message lacks the API prefix: {message_of(got.value)!r}"


def assert_raises_like(np_call, tp_call):
    """tessera raises the exception type NumPy raises for the same call, with a message
    that starts with the API-name prefix "[...]"."""
    __tracebackhide__ = True
    expected, error = numpy_result(np_call)
    assert error is not None, f"NumPy did not raise (returned {expected!r})"
    assert_raises_type(on_device(public_type(error)), tp_call)
