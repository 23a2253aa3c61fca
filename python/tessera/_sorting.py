"""Sorting: sort, argsort, partition, argpartition, sort_complex and ndarray.sort, with
NumPy's order (NaN last, complex lexicographic). Sorting runs on the device: vqsort on the
CPU, threads sharing one long row."""

import builtins
import operator

import numpy as np

from . import _core
from ._convert import c_long
from ._core import ndarray
from ._creation import operand


def _is_stable(api, kind, stable):
    """NumPy's kind/stable rules: kinds by first letter (quick, merge, heap, stable)."""
    if kind is not None and stable is not None:
        raise ValueError(f"[{api}] `kind` and keyword parameters can't be provided at the same "
                         "time. Use only one of them.")
    if stable is not None:
        return builtins.bool(stable)
    if kind is None:
        return False
    if isinstance(kind, bytes):
        kind = kind.decode()
    if not isinstance(kind, str):
        raise TypeError(f"[{api}] sort kind must be str, not {type(kind).__name__}")
    if not kind or kind[0].lower() not in "qhms":
        raise ValueError(f"[{api}] sort kind must be one of 'quick', 'heap', or 'stable' "
                         f"(got {kind!r})")
    return kind[0].lower() in "ms"


def _axis_error(api, axis, ndim):
    return np.exceptions.AxisError(f"[{api}] axis {axis} is out of bounds for array of "
                                   f"dimension {ndim}")


def _no_order(api, order):
    if order is not None:
        raise ValueError(f"[{api}] Cannot specify order when the array has no fields.")


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """A sorted copy along `axis` (None: flattened); NaN sorts last (first when
    `descending`, the array API standard's keyword NumPy lacks)."""
    stable = _is_stable("sort", kind, stable)
    _no_order("sort", order)
    axis = None if axis is None else _index("sort", axis, "axis")
    out = _core._sort(operand(a), axis, stable)
    return _reversed(out, -1 if axis is None else axis) if descending else out


def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    """Indices that sort `a` along `axis` (None: flattened). Always the stable order, which
    every kind may return; `descending` (the array API standard's keyword) keeps equal
    elements in their order too."""
    _is_stable("argsort", kind, stable)
    _no_order("argsort", order)
    axis = None if axis is None else _index("argsort", axis, "axis")
    a, axis = _zero_d("argsort", operand(a), axis)
    if not descending:
        return _core._argsort(a, axis)
    if axis is None:
        a, axis = a.ravel(), -1
    if not -a.ndim <= axis < a.ndim:
        raise _axis_error("argsort", axis, a.ndim)
    # The stable ascending order of the reversed row, read backwards, is the stable
    # descending order of the row, counted from the row's other end.
    order_of_reversed = _core._argsort(_reversed(a, axis), axis)
    return (a.shape[axis] - 1) - _reversed(order_of_reversed, axis)


def _reversed(a, axis):
    from ._joining import flip
    return flip(a, axis)


def sort_complex(a):
    """A copy sorted along the last axis, as complex: NumPy's dtypes (complex64 for 8- and
    16-bit integers, complex128 for the other real dtypes)."""
    b = _core._sort(operand(a), -1, False)
    if b.dtype.kind == "c":
        return b
    return b.astype("complex64" if b.dtype.char in "bhBH" else "complex128")


def _zero_d(api, a, axis):
    """A 0-d array ranks as the 1-d array of its element (axis -1, 0 or None)."""
    if a.ndim == 0 and (axis is None or _index(api, axis, "axis") in (0, -1)):
        return a.reshape(1), -1
    return a, axis


def _index(api, value, what):
    try:
        value = operator.index(value)
    except TypeError:
        raise TypeError(f"[{api}] '{type(value).__name__}' object cannot be interpreted as "
                        f"an integer ({what})") from None
    return c_long(value, api, what)


def _selection(api, kind):
    if kind != "introselect":
        raise ValueError(f"[{api}] Unknown selection kind: {kind!r}")


def _kth(api, kth, n, size):
    """kth checked as NumPy checks it (its range not at all for an empty array)."""
    kth_host = np.asarray(kth.get() if isinstance(kth, ndarray) else kth)
    if kth_host.dtype == bool:
        raise ValueError(f"[{api}] Booleans unacceptable as partition index")
    if kth_host.ndim > 1:
        raise ValueError(f"[{api}] kth array must have dimension <= 1")
    if kth_host.size == 0 and kth_host.ndim == 1:
        raise TypeError(f"[{api}] Partition index must be integer")
    if kth_host.dtype.kind not in "iu":
        raise TypeError(f"[{api}] Partition index must be integer")
    if size == 0:
        return
    for k in kth_host.ravel():
        if not -n <= int(k) < n:
            raise ValueError(f"[{api}] kth(={int(k)}) out of bounds ({n})")


def _partition_input(api, a, kth, axis, kind, order):
    _no_order(api, order)
    _selection(api, kind)
    a = operand(a)
    if axis is None:
        a, axis = a.ravel(), -1
    if a.ndim == 0:
        raise _axis_error(api, axis, 0)
    axis = _index(api, axis, "axis")
    if not -a.ndim <= axis < a.ndim:
        raise _axis_error(api, axis, a.ndim)
    _kth(api, kth, a.shape[axis], a.size)
    return a, axis


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """A copy with the kth element(s) where sorting would put them, smaller elements before
    and larger after. Computed by a full sort, which satisfies that contract."""
    a, axis = _partition_input("partition", a, kth, axis, kind, order)
    return _core._sort(a, axis, False)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """Indices that partition `a` (see partition): a stable argsort."""
    a = operand(a)
    if a.ndim == 0:
        a, axis = _zero_d("argpartition", a, axis)
    a, axis = _partition_input("argpartition", a, kth, axis, kind, order)
    return _core._argsort(a, axis)


def _sort_method(self, axis=-1, kind=None, order=None, *, stable=None):
    """Sorts the array in place along `axis`."""
    stable = _is_stable("sort", kind, stable)
    _no_order("sort", order)
    _core._sort_in_place(self, _index("sort", axis, "axis"), stable)


def _argsort_method(self, axis=-1, kind=None, order=None, *, stable=None):
    return argsort(self, axis, kind, order, stable=stable)


def _partition_method(self, kth, axis=-1, kind="introselect", order=None):
    """Partitions the array in place (by sorting it)."""
    _, axis = _partition_input("partition", self, kth, axis, kind, order)
    _core._sort_in_place(self, axis, False)


ndarray.sort = _sort_method
ndarray.argsort = _argsort_method
ndarray.partition = _partition_method
ndarray.argpartition = lambda self, kth, axis=-1, kind="introselect", order=None: (
    argpartition(self, kth, axis, kind, order))
