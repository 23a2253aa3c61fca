"""Helpers shared by the elementwise test files (ufunc API, operators, functions): result
comparison with a tolerance for inexact dtypes, layouts, raised exceptions, and naming the
case of a loop that failed."""

import sys
import warnings

import numpy as np

import tessera as tp
from conftest import assert_same
from oracle import numpy_result


def dtype_id(d):
    return np.dtype(d).name


def scalar_id(s):
    return f"{type(s).__name__}({s})"


def tolerance(dtype):
    return {"e": 4e-3, "f": 4e-6, "d": 1e-13, "F": 4e-6, "D": 1e-13}.get(np.dtype(dtype).char, 0)


def assert_close(t, n, exact=False, condition=1.0):
    """assert_same, but values of inexact dtypes may differ by a few ulp unless `exact`
    (times `condition`, the computation's condition number where that is large: see
    power_condition)."""
    __tracebackhide__ = True
    n = np.asarray(n)
    if exact or n.dtype.kind not in "fc":
        assert_same(t, n)
        return
    assert isinstance(t, tp.ndarray), f"expected tessera.ndarray, got {type(t).__name__}"
    assert t.dtype == n.dtype, f"dtype {t.dtype} != {n.dtype}"
    assert t.shape == n.shape, f"shape {t.shape} != {n.shape}"
    tol = tolerance(n.dtype) * condition
    got = tp.asnumpy(t)
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(got, n, rtol=tol, atol=tol, equal_nan=True)


def power_condition(base, exponent):
    """The condition number of a complex base ** exponent computed on a CUDA device,
    max(1, |exponent log base|), else 1. Both the C library (NumPy) and tessera's device
    code compute it as exp(exponent log base), whose relative error is that number times
    an ulp; on the CPU tessera calls the C library and matches NumPy exactly."""
    if tp.get_device().kind != "cuda":
        return 1.0
    b, e = np.asarray(base), np.asarray(exponent)
    if b.dtype.kind != "c" and e.dtype.kind != "c":
        return 1.0
    with np.errstate(all="ignore"):
        c = np.abs(e.astype(np.complex128) * np.log(b.astype(np.complex128)))
    c = c[np.isfinite(c)]
    return float(max(1.0, c.max())) if c.size else 1.0


def layout_of(a):
    """The strides of the axes longer than 1 (the others' strides are never used)."""
    return [s for s, d in zip(a.strides, a.shape) if d > 1]


def raised_by(tp_call, error):
    """The exception tp_call raises; a failure naming NumPy's error when it returns."""
    __tracebackhide__ = True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = tp_call()
    except Exception as exc:  # noqa: BLE001
        return exc
    shown = repr(result) if not isinstance(result, tp.ndarray) else \
        f"{result.dtype}{result.shape} {tp.asnumpy(result)!r}"[:300]
    raise AssertionError(f"NumPy raises {type(error).__name__}({error}); tessera returned "
                         f"{shown}")


def caller_context(depth=2):
    """The simple local variables of the test calling a checker (loop dtypes, names,
    keywords...), to say which case of a loop failed."""
    parts = []
    for key, value in sys._getframe(depth).f_locals.items():
        if key.startswith("_") or key == "device":
            continue
        if isinstance(value, type) and issubclass(value, np.generic):
            value = np.dtype(value)
        if isinstance(value, np.dtype):
            parts.append(f"{key}={value.name}")
        elif isinstance(value, (str, int, float, complex, np.generic)) or (
                isinstance(value, (tuple, dict, list)) and len(repr(value)) < 100
                and "array" not in repr(value)):
            parts.append(f"{key}={value!r}")
    return ", ".join(parts)[:500]


def outcome_like_numpy(np_call, tp_call, check, raises_like):
    """tessera's result equals NumPy's (by `check(got, expected)`), or, where NumPy raises,
    `raises_like(error, tp_call)` holds. Called by each test file's `same_outcome`; a
    failure names the case from the test's locals (two frames up)."""
    __tracebackhide__ = True
    try:
        expected, error = numpy_result(np_call)
        if error is not None:
            raises_like(error, tp_call)
            return None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = tp_call()
        check(got, expected)
        return got
    except AssertionError as failure:
        raise AssertionError(f"{failure}\n  case: {caller_context(3)}") from None
