"""NumPy's floating-point error handling: seterr, geterr, errstate, seterrcall, geterrcall.

The modes live in the engine, per thread, and every op keeps the modes of its call: a
result computed later (tessera's ops are lazy) still warns, raises or stays silent as its
caller asked. Modes other than 'ignore' and 'warn' make ops compute at once, so an error is
raised or called back where the op is written, as in NumPy."""

import contextlib
import sys

from . import _core

_MODES = ("ignore", "warn", "raise", "call", "print", "log")
_KINDS = ("divide", "over", "under", "invalid")
_FLAGS = {"divide by zero": 1, "overflow": 2, "underflow": 4, "invalid value": 8}
_errcall = None


def geterr():
    """The current floating-point error modes, as numpy.geterr."""
    return dict(zip(_KINDS, (_MODES[m] for m in _core._fp_modes())))


def _mode(value):
    if value not in _MODES:
        raise ValueError(f"invalid error mode {value!r}")
    return _MODES.index(value)


def seterr(all=None, divide=None, over=None, under=None, invalid=None):
    """Sets how floating-point errors are handled; returns the old settings (numpy.seterr)."""
    old = geterr()
    modes = list(_core._fp_modes())
    given = {"divide": divide, "over": over, "under": under, "invalid": invalid}
    for k, kind in enumerate(_KINDS):
        value = given[kind] if given[kind] is not None else all
        if value is not None:
            modes[k] = _mode(value)
    _core._set_fp_modes(tuple(modes))
    return old


def geterrcall():
    """The function (or object with a write method) of the 'call' and 'log' modes."""
    return _errcall


def seterrcall(func):
    """Sets the callback of the 'call' mode, or the log object of 'log'; returns the old."""
    global _errcall
    if func is not None and not callable(func) and not callable(getattr(func, "write", None)):
        raise TypeError("python object must be callable or have a callable write method")
    old, _errcall = _errcall, func
    return old


class _Unspecified:
    pass


class errstate(contextlib.ContextDecorator):
    """Context manager (and decorator) for floating-point error handling, as
    numpy.errstate: ``with tessera.errstate(divide='ignore'): ...``."""

    def __init__(self, *, call=_Unspecified, all=None, divide=None, over=None, under=None,
                 invalid=None):
        self._call = call
        self._modes = dict(all=all, divide=divide, over=over, under=under, invalid=invalid)
        self._saved = []

    def __enter__(self):
        old_modes = seterr(**self._modes)
        old_call = seterrcall(self._call) if self._call is not _Unspecified else _Unspecified
        self._saved.append((old_modes, old_call))

    def __exit__(self, *exc_info):
        old_modes, old_call = self._saved.pop()
        seterr(**old_modes)
        if old_call is not _Unspecified:
            seterrcall(old_call)


def _report(op, words, mode):
    """The engine's 'call', 'print' and 'log' modes (it warns and raises by itself)."""
    if mode == "print":
        sys.stdout.write(f"Warning: {words} encountered in {op}\n")
        return
    target = _errcall
    if mode == "call" and callable(target):
        target(words, _FLAGS[words])
    elif mode == "log" and callable(getattr(target, "write", None)):
        target.write(f"Warning: {words} encountered in {op}\n")
    else:
        raise NameError(f"python callback specified for {words} (in {op}) but no function "
                        "found.")
