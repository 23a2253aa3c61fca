"""NumPy's floating-point error handling: seterr, geterr, errstate, seterrcall, geterrcall.

The modes live in the engine, per thread, and every op keeps the modes of its call: a
result computed later (tessera's ops are lazy) still warns, raises or stays silent as its
caller asked. Modes other than 'ignore' and 'warn' make ops compute at once, so an error is
raised or called back where the op is written, as in NumPy."""

import functools
import sys

from . import _core

_MODES = ("ignore", "warn", "raise", "call", "print", "log")
_KINDS = ("divide", "over", "under", "invalid")
_errcall = None


def geterr():
    """The current floating-point error modes, as numpy.geterr."""
    return dict(zip(_KINDS, (_MODES[m] for m in _core._fp_modes())))


def _mode(value):
    if value not in _MODES:
        raise ValueError(f"invalid error mode {value!r}")
    return _MODES.index(value)


def _new_modes(all, divide, over, under, invalid):
    """The modes seterr would set (validated, nothing changed yet)."""
    modes = list(_core._fp_modes())
    given = {"divide": divide, "over": over, "under": under, "invalid": invalid}
    for k, kind in enumerate(_KINDS):
        value = given[kind] if given[kind] is not None else all
        if value is not None:
            modes[k] = _mode(value)
    return tuple(modes)


def seterr(all=None, divide=None, over=None, under=None, invalid=None):
    """Sets how floating-point errors are handled; returns the old settings (numpy.seterr)."""
    old = geterr()
    _core._set_fp_modes(_new_modes(all, divide, over, under, invalid))
    return old


def geterrcall():
    """The function (or object with a write method) of the 'call' and 'log' modes."""
    return _errcall


def _check_errcall(func):
    if func is not None and not callable(func) and not callable(getattr(func, "write", None)):
        raise TypeError("python object must be callable or have a callable write method")


def seterrcall(func):
    """Sets the callback of the 'call' mode, or the log object of 'log'; returns the old."""
    global _errcall
    _check_errcall(func)
    old, _errcall = _errcall, func
    return old


class _Unspecified:
    pass


class errstate:
    """Context manager (and decorator) for floating-point error handling, as
    numpy.errstate: ``with tessera.errstate(divide='ignore'): ...``."""

    def __init__(self, *, call=_Unspecified, all=None, divide=None, over=None, under=None,
                 invalid=None):
        self._call = call
        self._modes = dict(all=all, divide=divide, over=over, under=under, invalid=invalid)
        self._saved = None

    def __enter__(self):
        if self._saved is not None:
            raise TypeError("Cannot enter `tessera.errstate` twice.")
        modes = _new_modes(**self._modes)  # everything is checked before anything changes
        if self._call is not _Unspecified:
            _check_errcall(self._call)
        old_modes = _core._fp_modes()
        _core._set_fp_modes(modes)
        old_call = seterrcall(self._call) if self._call is not _Unspecified else _Unspecified
        self._saved = (old_modes, old_call)

    def __call__(self, func):
        """As a decorator: each call of `func` runs under a fresh errstate of these settings."""
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with errstate(call=self._call, **self._modes):
                return func(*args, **kwargs)
        return wrapper

    def __exit__(self, *exc_info):
        old_modes, old_call = self._saved
        _core._set_fp_modes(old_modes)
        if old_call is not _Unspecified:
            seterrcall(old_call)


def _report(op, words, mode, status):
    """The engine's 'call', 'print' and 'log' modes (it warns and raises by itself), as
    NumPy's: the callback gets every kind the op raised as one status word."""
    if mode == "print":
        sys.stderr.write(f"Warning: {words} encountered in {op}\n")
        return
    target = _errcall
    if mode == "call":
        if target is None:
            raise NameError(f"python callback specified for {words} (in  {op}) but no "
                            "function found.")
        target(words, status)
    elif mode == "log":
        if not callable(getattr(target, "write", None)):
            raise NameError(f"log specified for {words} (in {op}) but no object with write "
                            "method found.")
        target.write(f"Warning: {words} encountered in {op}\n")
