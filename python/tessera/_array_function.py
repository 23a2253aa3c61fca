"""NumPy's dispatch protocols for tessera arrays: NEP 18's `__array_function__` (a NumPy
function called with tessera arrays runs tessera's function of the same name and returns
tessera arrays: `np.mean(t)`, `np.concatenate([t, u])`, `np.linalg.svd(t)`, `np.fft.fft(t)`)
and NEP 35's `like=` (`np.zeros(3, like=t)` makes a tessera array on t's device).

A NumPy function tessera does not provide returns NotImplemented, so NumPy raises its
TypeError naming the function: nothing is copied to the host behind the caller's back. Nor
are arguments of other array libraries taken: their `__array_function__` decides."""

import importlib

import numpy as np

from . import _core

# NumPy's public modules whose functions tessera mirrors, and tessera's module of each.
_MODULES = {
    "numpy": "tessera",
    "numpy.linalg": "tessera.linalg",
    "numpy.fft": "tessera.fft",
    "numpy.lib.stride_tricks": "tessera.lib.stride_tricks",
}

_IMPLEMENTATIONS = {}  # NumPy function -> tessera's, or None


def _implementation(func):
    """Tessera's function of `func`'s module and name, or None: those tessera only re-exports
    from NumPy (dtype helpers) would dispatch back here, so they are not one."""
    try:
        return _IMPLEMENTATIONS[func]
    except (KeyError, TypeError):
        pass
    mine = None
    module = _MODULES.get(getattr(func, "__module__", None))
    if module is not None:
        candidate = getattr(importlib.import_module(module), getattr(func, "__name__", ""), None)
        owner = getattr(candidate, "__module__", "") or ""
        if callable(candidate) and candidate is not func and owner.startswith("tessera"):
            mine = candidate
    try:
        _IMPLEMENTATIONS[func] = mine
    except TypeError:  # an unhashable callable is not a NumPy function
        pass
    return mine


def __array_function__(self, func, types, args, kwargs):
    """NEP 18: `func` called with tessera arrays (and NumPy's, which tessera's functions
    take as host data) runs tessera's function of that name, on the arrays' device; NEP 35
    creation with `like=self` comes here too and creates on self's device."""
    if not all(issubclass(t, (_core.ndarray, np.ndarray)) for t in types):
        return NotImplemented
    mine = _implementation(func)
    if mine is None:
        return NotImplemented
    with self.device:
        return mine(*args, **kwargs)


def _install():
    _core.ndarray.__array_function__ = __array_function__


_install()
