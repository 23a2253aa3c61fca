"""The legacy polynomial API (numpy.lib._polynomial_impl, NumPy 2.4) against NumPy: polyval,
polyfit (full=, cov=True/'unscaled', w=, rcond=, 2-d y, RankWarning), roots, poly (from roots
and from a square matrix), polyadd, polysub, polymul, polydiv, polyder, polyint, and the
poly1d class (construction from coefficients or roots, attributes, calls, arithmetic, ==,
len, indexing, deriv, integ, str and repr).

Inputs are Python lists, NumPy arrays and tessera arrays of int64, float32, float64 and
complex128. Lists and NumPy arrays are NumPy data: the CPU converts them as NumPy does, a
CUDA device refuses them as data operands (TypeError, as CuPy does), which the tests check
there; cases made of tessera arrays, poly1d and scalars are compared with NumPy on every
device. Results NumPy returns as arrays come back as tessera arrays with NumPy's dtype and
shape; NumPy's scalar results may come back as scalars or 0-d tessera arrays of NumPy's
dtype. poly1d's array attributes (coeffs, roots) may be NumPy or tessera arrays. Where NumPy
raises, tessera raises the same exception type with a message prefixed "[api]".

Values are compared with a tolerance relative to the magnitude involved (TOL by result
dtype); integer results exactly. Roots are matched to NumPy's one by one, nearest first
(their order is LAPACK's), within ROOT_TOL. polydiv remainders and polyfit ranks are tested
on data whose decisions (leading remainder zero or not, singular value cut-off) do not
depend on rounding."""

import numbers
import warnings

import numpy as np
import pytest

import tessera as tp

from oracle import (host_data_refused, is_host_data, message_of, numpy_result, public_type,
                    refuses_host_data)

# Relative tolerance of a result of each dtype; absolute errors up to the tolerance times
# the magnitude of the result (at least 1) or of the terms it is computed from.
TOL = {"float32": 1e-4, "complex64": 1e-4, "float64": 1e-10, "complex128": 1e-10}
# Roots (eigenvalues of the companion matrix) of polynomials with well-separated roots.
ROOT_TOL = {"float32": 1e-4, "complex64": 1e-4, "float64": 1e-8, "complex128": 1e-8}

DTYPES = [np.int64, np.float32, np.float64, np.complex128]
KINDS = ["list", "numpy", "tessera"]
NAMES = ["polyval", "polyfit", "roots", "poly", "polyadd", "polysub", "polymul", "polydiv",
         "polyder", "polyint", "poly1d"]
RankWarning = np.exceptions.RankWarning


def dtype_kind_params():
    """(dtype, kind) pairs: every dtype as NumPy and tessera arrays, and as a Python list
    where a list can hold it (int64, float64, complex128)."""
    out = []
    for d in DTYPES:
        for kind in KINDS:
            if kind == "list" and d is np.float32:
                continue
            out.append(pytest.param(np.dtype(d), kind, id=f"{np.dtype(d).name}-{kind}"))
    return out


DTYPE_KINDS = dtype_kind_params()


# --------------------------------------------------------------------------------------------
# data


def typed(values, dtype, twist=True):
    """values as a NumPy array of dtype; complex dtypes get imaginary parts (times 1+1j
    when twist, which keeps integer values exact)."""
    values = np.asarray(values)
    dtype = np.dtype(dtype)
    if dtype.kind == "c" and twist:
        values = values * (1 + 1j)
    return values.astype(dtype)


def as_input(a, kind):
    """(the NumPy call's argument, the tessera call's argument) of the NumPy array a given
    as `kind`: a Python list (both), a NumPy array (both) or a tessera array. The "list" and
    "numpy" kinds are NumPy data: a device that refuses host data refuses them as operands
    (see refused())."""
    if kind == "list":
        return a.tolist(), a.tolist()
    if kind == "numpy":
        return a, a
    if kind == "tessera":
        return a, tp.asarray(a)
    raise AssertionError(kind)


def inline(values):
    """Values a test writes inline (a list, a NumPy array) as the input of a computation that
    is not about the input's type: as they are where the device takes NumPy data (the CPU),
    converted with tessera.asarray where it refuses them, so that the computation stays
    checked there. (The refusal itself is checked by the tests of each function given the
    "list" and "numpy" kinds.)"""
    return tp.asarray(values) if refuses_host_data() else values


def is_host(x):
    """Whether x is NumPy data that a device refusing host data refuses as an operand: a
    list, tuple, NumPy array or other array-like -- but not a tessera poly1d (whose __array__
    is a host copy of its coefficients), a tessera array or a scalar."""
    return is_host_data(x) and not isinstance(x, getattr(tp, "poly1d", ()))


def refused(tp_call, *operands):
    """Whether the case ends with the refusal of NumPy data: where some of `operands` (the
    data operands tp_call gives tessera) is NumPy data and the current device refuses host
    data, checks that tp_call raises that TypeError and returns True. Otherwise (tessera
    arrays, poly1d and scalars only, or the CPU) returns False, and the caller checks the
    outcome against NumPy's."""
    __tracebackhide__ = True
    return any(is_host(x) for x in operands) and host_data_refused(tp_call)


# --------------------------------------------------------------------------------------------
# comparisons


def tol_of(dtype, table=TOL):
    return table.get(np.dtype(dtype).name, table["float64"])


def to_numpy(got):
    return tp.asnumpy(got) if isinstance(got, tp.ndarray) else np.asarray(got)


def magnitude(x):
    x = np.abs(np.asarray(x, dtype=np.complex128 if np.iscomplexobj(x) else np.float64))
    finite = x[np.isfinite(x)]
    return float(finite.max()) if finite.size else 0.0


def meta(got, expected, what="result", numpy_ok=False):
    """tessera's `got` as a NumPy array, after checking its type (a tessera array where NumPy
    gives an array -- or a NumPy array too when numpy_ok; a scalar or 0-d tessera array where
    NumPy gives a scalar), dtype and shape."""
    __tracebackhide__ = True
    if isinstance(expected, np.ndarray):
        allowed = (tp.ndarray, np.ndarray) if numpy_ok else (tp.ndarray,)
        assert isinstance(got, allowed), \
            f"{what}: expected tessera.ndarray, got {type(got).__name__}"
    else:
        assert isinstance(got, (tp.ndarray, np.generic, bool, int, float, complex)), \
            f"{what}: expected a 0-d tessera.ndarray or a scalar, got {type(got).__name__}"
        if isinstance(got, tp.ndarray):
            assert got.ndim == 0, f"{what}: expected a 0-d array, got shape {got.shape}"
    g, e = to_numpy(got), np.asarray(expected)
    assert (g.dtype, g.shape) == (e.dtype, e.shape), \
        f"{what}: dtype/shape {g.dtype}{g.shape} != {e.dtype}{e.shape}"
    return g


def close(g, e, scale=None, what="result", tol=None):
    """g equals e within tol relative plus tol * scale absolute (scale: the largest |e|, at
    least 1, by default); exactly for integer and boolean dtypes."""
    __tracebackhide__ = True
    e = np.asarray(e)
    if e.dtype.kind not in "fc":
        assert np.array_equal(g, e), f"{what}: values differ:\n{g}\n!=\n{e}"
        return
    tol = tol_of(e.dtype) if tol is None else tol
    scale = max(magnitude(e), 1.0) if scale is None else scale
    np.testing.assert_allclose(g, e, rtol=tol, atol=tol * scale, equal_nan=True, err_msg=what)


def near(got, expected, scale=None, what="result", numpy_ok=False):
    """meta() and close() of a result, or of each array of a tuple result."""
    __tracebackhide__ = True
    if isinstance(expected, tuple):
        assert isinstance(got, tuple), \
            f"{what}: expected a tuple of {len(expected)}, got {type(got).__name__}"
        assert len(got) == len(expected), f"{what}: {len(got)} results != {len(expected)}"
        for i, (g, e) in enumerate(zip(got, expected)):
            near(g, e, scale, f"{what}[{i}]", numpy_ok)
        return
    close(meta(got, expected, what, numpy_ok), expected, scale, what)


def same_roots(got, expected, what="roots", numpy_ok=False):
    """NumPy's dtype and shape; each of NumPy's roots has its own tessera root within
    ROOT_TOL times the largest root (at least 1)."""
    __tracebackhide__ = True
    g = meta(got, expected, what, numpy_ok)
    e = np.asarray(expected)
    atol = tol_of(e.dtype, ROOT_TOL) * max(magnitude(e), 1.0)
    left = list(g)
    for x in e:
        dist = [abs(x - y) for y in left]
        j = int(np.argmin(dist))
        assert dist[j] <= atol, (f"{what}: NumPy's root {x} has no match in tessera's {g} "
                                 f"(nearest off by {dist[j]:.3g} > {atol:.3g}); NumPy's: {e}")
        left.pop(j)


def raises_like(np_call, tp_call, *operands):
    """NumPy raises; tessera raises the same (public) exception type, with a message
    prefixed "[api]" -- or, where `operands` (tp_call's data operands) hold NumPy data that
    the device refuses, the refusal of that data (see refused())."""
    __tracebackhide__ = True
    expected, error = numpy_result(np_call)
    assert error is not None, f"NumPy does not raise (returns {expected!r}): the case is wrong"
    if refused(tp_call, *operands):
        return
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = tp_call()
    except Exception as exc:  # noqa: BLE001
        got = exc
    else:
        raise AssertionError(f"NumPy raises {type(error).__name__}({error}); tessera returned "
                             f"{result!r}"[:400])
    assert type(got) is public_type(error), \
        (f"NumPy raises {type(error).__name__}({error}), tessera raises "
         f"{type(got).__name__}({got})")
    assert message_of(got).startswith("["), f"message lacks the API prefix: {message_of(got)!r}"


def np_result(np_call):
    """NumPy's result (warnings silenced); the case is wrong if NumPy raises."""
    __tracebackhide__ = True
    expected, error = numpy_result(np_call)
    assert error is None, f"NumPy raises {type(error).__name__}({error}): the case is wrong"
    return expected


def tp_result(tp_call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return tp_call()


def run(name, np_args, tp_args, check, tp_kwargs=None, **kwargs):
    """numpy.<name>(*np_args, **kwargs) against tessera.<name>(*tp_args, **kwargs) (the
    keyword arguments in tp_kwargs replacing those of kwargs), compared by
    check(got, expected) -- or, where tessera's arguments hold NumPy data (the "list" and
    "numpy" kinds) and the device refuses host data, tessera's call must raise that refusal.
    Every array passed through run is a data operand of the function (coefficients, points,
    roots, matrices, x, y, weights); none is a host parameter such as polyint's k."""
    __tracebackhide__ = True
    expected = np_result(lambda: getattr(np, name)(*np_args, **kwargs))
    tp_kwargs = {**kwargs, **(tp_kwargs or {})}

    def tp_call():
        return fn(name)(*tp_args, **tp_kwargs)

    if refused(tp_call, *tp_args, *tp_kwargs.values()):
        return
    check(tp_result(tp_call), expected)


def fn(name):
    f = getattr(tp, name, None)
    if f is None:
        pytest.fail(f"tessera.{name} is missing")
    return f


def coeffs_of(p, what="coeffs"):
    """The coefficients of a tessera poly1d as a NumPy array (NumPy or tessera arrays
    accepted)."""
    __tracebackhide__ = True
    c = p.coeffs
    assert isinstance(c, (tp.ndarray, np.ndarray)), \
        f"{what}: expected an array, got {type(c).__name__}"
    return to_numpy(c)


def same_poly(got, expected, what="poly1d", scale=None):
    """got is a tessera poly1d with NumPy's coefficients (dtype, length, values) and
    variable."""
    __tracebackhide__ = True
    assert isinstance(got, fn("poly1d")), \
        f"{what}: expected tessera.poly1d, got {type(got).__name__}"
    assert isinstance(expected, np.poly1d)
    e = expected.coeffs
    g = coeffs_of(got, f"{what}.coeffs")
    assert (g.dtype, g.shape) == (e.dtype, e.shape), \
        f"{what}.coeffs: dtype/shape {g.dtype}{g.shape} != {e.dtype}{e.shape} ({g} vs {e})"
    close(g, e, scale, f"{what}.coeffs")
    assert got.variable == expected.variable, \
        f"{what}.variable: {got.variable!r} != {expected.variable!r}"


# --------------------------------------------------------------------------------------------
# names


def test_function_names(device):
    missing = [name for name in NAMES if not callable(getattr(tp, name, None))]
    assert not missing, f"tessera lacks {missing}"
    assert isinstance(tp.poly1d, type), "tessera.poly1d is not a class"


# --------------------------------------------------------------------------------------------
# polyval


P4 = [2, -3, 0, 5]            # 2 x**3 - 3 x**2 + 5
X5 = [-2, -1, 0, 1, 3]


@pytest.mark.parametrize("p_dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("x_dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("kind", ["numpy", "tessera"])
def test_polyval_dtypes(device, p_dtype, x_dtype, kind):
    """NumPy's result dtype for every pair of coefficient and point dtypes."""
    p = typed(P4, p_dtype)
    x = typed(X5, x_dtype) / (2 if np.dtype(x_dtype).kind != "i" else 1)
    x = x.astype(x_dtype)
    np_p, tp_p = as_input(p, kind)
    np_x, tp_x = as_input(x, kind)
    scale = max(float(np.max(np.polyval(np.abs(p), np.abs(x).astype(float)))), 1.0)
    run("polyval", (np_p, np_x), (tp_p, tp_x), lambda got, expected: near(got, expected, scale))


POLYVAL_CASES = {
    "1d": (P4, X5),
    "2d-x": (P4, [[0.5, -1.5, 2.0], [1.0, 0.0, -0.25]]),
    "0d-x": (P4, np.array(1.5)),
    "empty-x": (P4, np.zeros(0)),
    "empty-2d-x": (P4, np.zeros((2, 0))),
    "constant-p": ([7.5], X5),
    "empty-p": (np.zeros(0), [1.5, 2.5]),
    "linear": ([1.5, -2.0], [0.0, 4.0, -8.0]),
    "complex-x": ([1.0, 0.0, 1.0], np.array([1j, 2 + 1j, -1])),
    "degree-8": ([1, -2, 3, -4, 5, -6, 7, -8, 9], np.linspace(-1.5, 1.5, 7)),
}


@pytest.mark.parametrize("case", list(POLYVAL_CASES))
@pytest.mark.parametrize("kind", KINDS)
def test_polyval_shapes(device, case, kind):
    """Points of any shape (0-d, empty, 2-d) keep their shape; empty coefficients give
    zeros of the points' dtype."""
    p, x = (np.asarray(v) for v in POLYVAL_CASES[case])
    np_p, tp_p = as_input(p, kind)
    if x.ndim == 0 and kind == "list":
        np_x, tp_x = x, x
    else:
        np_x, tp_x = as_input(x, kind)
    scale = max(magnitude(np.polyval(np.abs(p), np.abs(x))), 1.0)
    run("polyval", (np_p, np_x), (tp_p, tp_x), lambda got, expected: near(got, expected, scale))


@pytest.mark.parametrize("x", [2, -3, 2.5, 1 + 2j, np.float32(1.5), np.int64(4)], ids=repr)
@pytest.mark.parametrize("dtype, kind", DTYPE_KINDS)
def test_polyval_scalar_x(device, x, dtype, kind):
    """A scalar point gives a scalar (or 0-d array) of NumPy's dtype."""
    p = typed(P4, dtype)
    np_p, tp_p = as_input(p, kind)
    scale = max(magnitude(np.polyval(np.abs(p), abs(x))), 1.0)
    run("polyval", (np_p, x), (tp_p, x), lambda got, expected: near(got, expected, scale))


# --------------------------------------------------------------------------------------------
# polyfit


def fit_data(x_dtype, y_dtype, n=12, columns=None):
    """(x, y): n points of a cubic plus deterministic noise; integer dtypes get rounded
    values; complex y gets an imaginary quadratic; columns: 2-d y of that many columns."""
    rng = np.random.default_rng(7)
    if np.dtype(x_dtype).kind == "i":
        x = np.arange(n) - n // 2
    else:
        x = np.linspace(-2.0, 3.0, n)
    x = x.astype(x_dtype)
    xf = x.astype(np.float64)
    ys = []
    for j in range(columns or 1):
        y = 0.5 * xf ** 3 - (1 + j) * xf + 2 + rng.standard_normal(n) * 0.3
        if np.dtype(y_dtype).kind == "c":
            y = y + 1j * (xf ** 2 - 1 + rng.standard_normal(n) * 0.2)
        if np.dtype(y_dtype).kind == "i":
            y = np.round(y * 4)
        ys.append(y)
    y = np.stack(ys, axis=1) if columns else ys[0]
    return x, y.astype(y_dtype)


FIT_X_DTYPES = [np.int64, np.float32, np.float64]


def fit_check(full=False, cov=False):
    def check(got, expected):
        __tracebackhide__ = True
        if full:
            assert isinstance(got, tuple) and len(got) == 5, \
                f"full=True: expected (coeffs, residuals, rank, s, rcond), got {got!r}"[:300]
            near(got[0], expected[0], what="coeffs")
            near(got[1], expected[1], what="residuals")
            rank = got[2]
            if isinstance(rank, tp.ndarray):
                assert rank.ndim == 0 and np.dtype(rank.dtype).kind in "iu", \
                    f"rank: {rank.dtype}{rank.shape}"
                rank = tp.asnumpy(rank)[()]
            assert isinstance(rank, (numbers.Integral, np.integer)), \
                f"rank: expected an integer, got {type(rank).__name__}"
            assert int(rank) == int(expected[2]), f"rank {rank} != {expected[2]}"
            near(got[3], expected[3], what="singular values")
            rcond = float(to_numpy(got[4]))
            assert rcond == pytest.approx(float(expected[4]), rel=1e-6), \
                f"rcond {rcond} != {expected[4]}"
        elif cov:
            assert isinstance(got, tuple) and len(got) == 2, \
                f"cov: expected (coeffs, covariance), got {got!r}"[:300]
            near(got[0], expected[0], what="coeffs")
            near(got[1], expected[1], what="covariance")
        else:
            near(got, expected, what="coeffs")
    return check


def run_fit(np_args, tp_args, check, tp_kwargs=None, **kwargs):
    __tracebackhide__ = True
    run("polyfit", np_args, tp_args, check, tp_kwargs, **kwargs)


FIT_DTYPE_PARAMS = [
    pytest.param(np.dtype(xd), np.dtype(yd), kind,
                 id=f"x-{np.dtype(xd).name}-y-{np.dtype(yd).name}-{kind}")
    for xd in FIT_X_DTYPES for yd in DTYPES for kind in KINDS
    if not (kind == "list" and np.float32 in (xd, yd))]  # a list does not hold float32


@pytest.mark.parametrize("x_dtype, y_dtype, kind", FIT_DTYPE_PARAMS)
def test_polyfit_dtypes(device, x_dtype, y_dtype, kind):
    """float64 coefficients (complex128 for complex y) from any input dtype; float32 x is
    widened before its powers are taken (NumPy's vander promotes with int: float64)."""
    x, y = fit_data(x_dtype, y_dtype)
    np_x, tp_x = as_input(x, kind)
    np_y, tp_y = as_input(y, kind)
    run_fit((np_x, np_y, 3), (tp_x, tp_y, 3), fit_check())


@pytest.mark.parametrize("deg", [0, 1, 2, 3, 5])
@pytest.mark.parametrize("columns", [None, 1, 3], ids=["1d-y", "2d-y-1", "2d-y-3"])
def test_polyfit_degrees(device, deg, columns):
    """Degrees 0..5 (coefficients of length deg + 1), and several fits at once: y of shape
    (n, k) gives coefficients of shape (deg + 1, k)."""
    x, y = fit_data(np.float64, np.float64, columns=columns)
    run_fit((x, y, deg), (tp.asarray(x), tp.asarray(y), deg), fit_check())


@pytest.mark.parametrize("columns", [None, 2], ids=["1d-y", "2d-y"])
@pytest.mark.parametrize("y_dtype", [np.float64, np.complex128], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("deg", [1, 3, 11, 13], ids=lambda d: f"deg{d}")
def test_polyfit_full(device, columns, y_dtype, deg):
    """full=True: (coeffs, residuals, rank, singular values, rcond); residuals empty when
    the fit is exact (deg + 1 >= n) or rank-deficient; no RankWarning."""
    x, y = fit_data(np.float64, y_dtype, columns=columns)
    tx, ty = tp.asarray(x), tp.asarray(y)
    if deg <= 3:
        run_fit((x, y, deg), (tx, ty, deg), fit_check(full=True), full=True)
        run_fit((x, y, deg), (tx, ty, deg), fit_check(full=True), full=True, rcond=1e-3)
        return
    # deg 11: 12 points, square system (no residuals); deg 13: underdetermined, rank 12 < 14.
    # The coefficients are then ill-conditioned: compare rank, s, rcond and residual shape.
    expected = np_result(lambda: np.polyfit(x, y, deg, full=True))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = fn("polyfit")(tx, ty, deg, full=True)
    assert not [w for w in caught if issubclass(w.category, RankWarning)], \
        "full=True must not warn"
    assert isinstance(got, tuple) and len(got) == 5
    meta(got[0], expected[0], "coeffs")
    near(got[1], expected[1], what="residuals")
    assert int(to_numpy(got[2])) == int(expected[2]), f"rank {got[2]} != {expected[2]}"
    meta(got[3], expected[3], "singular values")
    close(to_numpy(got[3]), expected[3], what="singular values", tol=1e-8)
    assert float(to_numpy(got[4])) == pytest.approx(float(expected[4]), rel=1e-6)


@pytest.mark.parametrize("cov", [True, "unscaled"], ids=["cov", "unscaled"])
@pytest.mark.parametrize("columns", [None, 2], ids=["1d-y", "2d-y"])
@pytest.mark.parametrize("weighted", [False, True], ids=["", "w"])
def test_polyfit_cov(device, cov, columns, weighted):
    """cov=True: (coeffs, covariance scaled by residuals / (n - deg - 1)); 'unscaled': the
    unscaled covariance; 2-d y: covariance of shape (deg + 1, deg + 1, k)."""
    x, y = fit_data(np.float64, np.float64, columns=columns)
    kwargs = {"cov": cov}
    tkwargs = {"cov": cov}
    if weighted:
        w = np.linspace(0.5, 2.0, len(x))
        kwargs["w"], tkwargs["w"] = w, tp.asarray(w)
    expected = np_result(lambda: np.polyfit(x, y, 2, **kwargs))
    got = tp_result(lambda: fn("polyfit")(tp.asarray(x), tp.asarray(y), 2, **tkwargs))
    fit_check(cov=True)(got, expected)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("columns", [None, 2], ids=["1d-y", "2d-y"])
def test_polyfit_weights(device, kind, columns):
    """w= weights each point's residual."""
    x, y = fit_data(np.float64, np.float64, columns=columns)
    w = np.linspace(0.2, 3.0, len(x))
    np_x, tp_x = as_input(x, kind)
    np_y, tp_y = as_input(y, kind)
    np_w, tp_w = as_input(w, kind)
    run_fit((np_x, np_y, 3), (tp_x, tp_y, 3), fit_check(), {"w": tp_w}, w=np_w)
    run_fit((np_x, np_y, 3), (tp_x, tp_y, 3), fit_check(full=True), {"w": tp_w}, w=np_w,
            full=True)


def test_polyfit_exact(device):
    """Data on a polynomial: its coefficients back; one point, degree 0: the value."""
    x = np.array([-1.0, 0.0, 1.0, 2.0, 4.0])
    y = 3 * x ** 2 - 2 * x + 1
    run_fit((x, y, 2), (tp.asarray(x), tp.asarray(y), 2), fit_check())
    run_fit(([2.0], [5.0], 0), (inline([2.0]), inline([5.0]), 0), fit_check())
    run_fit(([1, 2, 3], [2, 4, 6], 1), (inline([1, 2, 3]), inline([2, 4, 6]), 1), fit_check())


def rank_warnings(tp_call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = tp_call()
    return result, [w for w in caught if issubclass(w.category, Warning)]


@pytest.mark.parametrize("case", ["underdetermined", "repeated-x"])
def test_polyfit_rank_warning(device, case):
    """A rank-deficient fit warns with numpy.exceptions.RankWarning itself (and still returns
    NumPy's minimum-norm coefficients); full=True and well-conditioned fits do not warn."""
    if case == "underdetermined":
        x, y, deg = np.array([0.0, 1.0, 2.0]), np.array([1.0, -1.0, 2.0]), 5
    else:
        x, y, deg = np.ones(4), np.array([1.0, 2.0, 3.0, 4.0]), 1
    with warnings.catch_warnings(record=True) as np_caught:
        warnings.simplefilter("always")
        expected = np.polyfit(x, y, deg)
    assert [w for w in np_caught if w.category is RankWarning], "NumPy does not warn"
    got, caught = rank_warnings(lambda: fn("polyfit")(tp.asarray(x), tp.asarray(y), deg))
    categories = [w.category for w in caught]
    assert RankWarning in categories, f"no numpy.exceptions.RankWarning; warnings: {categories}"
    near(got, expected, what="coeffs")
    _, caught = rank_warnings(lambda: fn("polyfit")(tp.asarray(x), tp.asarray(y), deg,
                                                    full=True))
    assert not [w for w in caught if issubclass(w.category, RankWarning)], \
        "full=True must not warn"
    xf, yf = fit_data(np.float64, np.float64)
    _, caught = rank_warnings(lambda: fn("polyfit")(tp.asarray(xf), tp.asarray(yf), 3))
    assert not [w for w in caught if issubclass(w.category, RankWarning)], \
        "a well-conditioned fit must not warn"


POLYFIT_ERRORS = {
    "deg-negative": (([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], -1), {}),
    "x-empty": (([], [], 1), {}),
    "x-2d": (([[1.0, 2.0], [3.0, 4.0]], [1.0, 2.0], 1), {}),
    "length-mismatch": (([1.0, 2.0, 3.0], [1.0, 2.0], 1), {}),
    "y-3d": (([1.0, 2.0], np.ones((2, 1, 1)), 1), {}),
    "w-2d": (([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], 1), {"w": np.ones((3, 1))}),
    "w-length": (([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], 1), {"w": np.ones(2)}),
    "cov-too-few-points": (([1.0, 2.0, 3.0], [1.0, 5.0, 2.0], 2), {"cov": True}),
}


@pytest.mark.parametrize("case", list(POLYFIT_ERRORS))
@pytest.mark.parametrize("kind", ["list", "tessera"])
def test_polyfit_errors(device, case, kind):
    """deg < 0 and too few points for cov=True: ValueError; empty or 2-d x, x/y length
    mismatch, y not 1-d or 2-d, bad weights: TypeError."""
    args, kwargs = POLYFIT_ERRORS[case]
    if kind == "tessera":
        targs = tuple(tp.asarray(np.asarray(a, dtype=float)) if not isinstance(a, int) else a
                      for a in args)
        tkwargs = {k: (tp.asarray(v) if isinstance(v, np.ndarray) else v)
                   for k, v in kwargs.items()}
    else:
        targs, tkwargs = args, kwargs
    raises_like(lambda: np.polyfit(*args, **kwargs), lambda: fn("polyfit")(*targs, **tkwargs),
                *targs, *tkwargs.values())


# --------------------------------------------------------------------------------------------
# roots


ROOT_CASES = {
    "three-real": [1, -6, 11, -6],           # 1, 2, 3
    "complex-pair": [1, -2, 5],              # 1 +- 2j
    "imaginary-pair": [1, 0, 4],             # +- 2j
    "mixed": [1, -1, 2, -2],                 # 1, +- sqrt(2) j
    "quintic": [1, -4, -5, 20, 4, -16],      # -2, -1, 1, 2, 4
    "leading-zeros": [0, 0, 1, -3, 2],
    "trailing-zeros": [1, -3, 2, 0, 0],
    "both-zeros": [0, 2, -6, 4, 0],
    "linear": [2, -4],
    "constant": [5],
    "constant-trailing-zeros": [5, 0, 0],
    "zero-root-only": [3, 0],
    "all-zero": [0, 0, 0],
    "empty": [],
}


@pytest.mark.parametrize("case", list(ROOT_CASES))
@pytest.mark.parametrize("dtype, kind", DTYPE_KINDS)
def test_roots(device, case, dtype, kind):
    """Eigenvalues of the companion matrix: real dtype when every root is real (float32 input
    stays single precision), complex otherwise; trailing zeros give roots at 0, leading zeros
    are dropped; constant, all-zero and empty polynomials have no roots (float64)."""
    p = typed(ROOT_CASES[case], dtype)
    np_p, tp_p = as_input(p, kind)
    run("roots", (np_p,), (tp_p,), same_roots)


def test_roots_complex_coefficients(device):
    """Complex coefficients: the roots they were built from."""
    zeros = np.array([1j, 2.0, -1 - 1j, 0.5 + 2j])
    p = np.poly(zeros)
    expected = np_result(lambda: np.roots(p))
    for arg in (p, tp.asarray(p), p.tolist()):
        if not refused(lambda: fn("roots")(arg), arg):
            same_roots(tp_result(lambda: fn("roots")(arg)), expected)


@pytest.mark.parametrize("bad", ["2d", "3d"])
def test_roots_errors(device, bad):
    """Input that is not 1-d after atleast_1d: ValueError."""
    a = np.ones((2, 3)) if bad == "2d" else np.ones((2, 2, 2))
    raises_like(lambda: np.roots(a), lambda: fn("roots")(tp.asarray(a)))
    raises_like(lambda: np.roots(a.tolist()), lambda: fn("roots")(a.tolist()), a.tolist())


# --------------------------------------------------------------------------------------------
# poly


POLY_ROOT_CASES = {
    "real": ([1, 2, 3], DTYPES),
    "repeated": ([2, 2, -1, 0], DTYPES),
    "single": ([4], DTYPES),
    "conjugate-pairs": ([1 + 1j, 1 - 1j, 3, -2j, 2j], [np.complex128]),
    "not-conjugate": ([1j, 2, -1], [np.complex128]),
    "empty": ([], DTYPES),
}


def poly_params():
    out = []
    for case, (_, dtypes) in POLY_ROOT_CASES.items():
        for d in dtypes:
            for kind in KINDS:
                if kind == "list" and d is np.float32:
                    continue
                out.append(pytest.param(case, np.dtype(d), kind,
                                        id=f"{case}-{np.dtype(d).name}-{kind}"))
    return out


def poly_check(got, expected):
    """NumPy's coefficients; poly([]) is the number 1.0."""
    __tracebackhide__ = True
    scale = max(magnitude(expected), 1.0)
    near(got, expected, scale, what="coeffs")


@pytest.mark.parametrize("case, dtype, kind", poly_params())
def test_poly_from_roots(device, case, dtype, kind):
    """Coefficients of the monic polynomial with these roots: float64 for integer roots,
    float32 kept; complex roots in conjugate pairs give real (float64) coefficients."""
    zeros = np.asarray(POLY_ROOT_CASES[case][0]).astype(dtype)
    np_z, tp_z = as_input(zeros, kind)
    run("poly", (np_z,), (tp_z,), poly_check)


POLY_MATRICES = {
    "2x2": ([[1, 2], [3, 4]], DTYPES[:3]),
    "rotation": ([[0, -1], [1, 0]], [np.int64, np.float64]),   # eigenvalues +- 1j: real poly
    "1x1": ([[3]], DTYPES[:3]),
    "3x3": ([[4, 1, 0], [1, 3, 1], [0, 1, 2]], DTYPES[:3]),
    "complex-triangular": ([[1j, 1], [0, 2]], [np.complex128]),
    "3x3-complex-pair": ([[2, -3, 0], [3, 2, 0], [0, 0, 1]], [np.float64]),
}


def poly_matrix_params():
    out = []
    for case, (_, dtypes) in POLY_MATRICES.items():
        for d in dtypes:
            for kind in KINDS:
                if kind == "list" and d is np.float32:
                    continue
                out.append(pytest.param(case, np.dtype(d), kind,
                                        id=f"{case}-{np.dtype(d).name}-{kind}"))
    return out


@pytest.mark.parametrize("case, dtype, kind", poly_matrix_params())
def test_poly_from_matrix(device, case, dtype, kind):
    """A square matrix: its characteristic polynomial (from its eigenvalues)."""
    a = np.asarray(POLY_MATRICES[case][0]).astype(dtype)
    np_a, tp_a = as_input(a, kind)

    def check(got, expected):
        # error relative to the eigenvalues' magnitudes, compounded over the degree
        near(got, expected, max(magnitude(expected), 1.0) * a.shape[0], what="coeffs")

    run("poly", (np_a,), (tp_a,), check)


@pytest.mark.parametrize("shape", [(2, 3), (0, 0), (2, 2, 2)], ids=str)
def test_poly_errors(device, shape):
    """Neither 1-d nor a non-empty square matrix: ValueError."""
    a = np.ones(shape)
    raises_like(lambda: np.poly(a), lambda: fn("poly")(tp.asarray(a)))


def test_poly_roots_roundtrip(device):
    """poly(roots(p)) is p / p[0]."""
    p = np.array([2.0, -2.0, -4.0, 6.0, 1.0])
    expected = np.poly(np.roots(p))
    got = fn("poly")(fn("roots")(tp.asarray(p)))
    near(got, expected, max(magnitude(expected), 1.0) * 4)


# --------------------------------------------------------------------------------------------
# polyadd, polysub, polymul


ARITH_LENGTHS = {"3+3": ([1, -2, 3], [4, 0, -1]), "2+5": ([3, -1], [1, 2, -3, 0, 5]),
                 "5+2": ([2, 0, -1, 4, 1], [-2, 3]), "1+4": ([7], [1, -1, 2, -2]),
                 "0+3": ([], [1, 2, 3]), "leading-zeros": ([0, 0, 1, 2], [0, 3, -1])}
ARITH = ["polyadd", "polysub", "polymul"]


@pytest.mark.parametrize("name", ARITH)
@pytest.mark.parametrize("a_dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("b_dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("kind", ["numpy", "tessera"])
def test_arithmetic_dtypes(device, name, a_dtype, b_dtype, kind):
    """NumPy's promotion of the two coefficient dtypes."""
    a = typed([1, -2, 3, 4], a_dtype)
    b = typed([5, 0, -1], b_dtype) / (2 if np.dtype(b_dtype).kind != "i" else 1)
    b = b.astype(b_dtype)
    np_a, tp_a = as_input(a, kind)
    np_b, tp_b = as_input(b, kind)
    run(name, (np_a, np_b), (tp_a, tp_b), lambda got, expected: near(got, expected, what=name))
    run(name, (np_b, np_a), (tp_b, tp_a),
        lambda got, expected: near(got, expected, what=f"{name} (swapped)"))


@pytest.mark.parametrize("name", ARITH)
@pytest.mark.parametrize("case", list(ARITH_LENGTHS))
@pytest.mark.parametrize("kinds", [("list", "list"), ("tessera", "tessera"),
                                   ("list", "tessera"), ("numpy", "tessera")], ids="-".join)
def test_arithmetic_lengths(device, name, case, kinds):
    """Different lengths are aligned at the constant term; polymul drops leading zeros
    (polyadd and polysub keep them)."""
    a, b = (np.asarray(v) for v in ARITH_LENGTHS[case])
    if a.size == 0:
        a = a.astype(np.float64)
    np_a, tp_a = as_input(a, kinds[0])
    np_b, tp_b = as_input(b, kinds[1])
    run(name, (np_a, np_b), (tp_a, tp_b), lambda got, expected: near(got, expected, what=name))


# --------------------------------------------------------------------------------------------
# polydiv


# Exact in binary floating point (divisor leading coefficients 1, 2, 0.5, 1+1j), so the
# remainder's leading zeros are exact and its trimming does not depend on rounding.
POLYDIV_CASES = {
    "exact": ([2, -6, 4], [1, -1]),                    # 2 (x - 1)(x - 2) / (x - 1)
    "remainder": ([1, 2, 3, 4], [1, 1]),
    "quadratic-divisor": ([3, 0, -2, 5, 1], [2, 1, -1]),
    "half": ([1, 2, 3], [0.5, 1]),
    "lower-degree": ([1, 2], [1, 2, 3]),               # q = [0.], r = u
    "constant-divisor": ([4, -2, 6], [2]),
    "equal-degree": ([3, 1, 2], [1, 0, 1]),
    "zero-remainder-trimmed": ([1, 0, 0, -1], [1, -1]),
}


@pytest.mark.parametrize("case", list(POLYDIV_CASES))
@pytest.mark.parametrize("dtype, kind", DTYPE_KINDS)
def test_polydiv(device, case, dtype, kind):
    """(quotient, remainder) in the common inexact dtype, the remainder's (near) zero leading
    coefficients trimmed."""
    u, v = (np.asarray(x, dtype=np.float64) for x in POLYDIV_CASES[case])
    u = typed(u, dtype)
    if np.all(v == np.round(v)) or np.dtype(dtype).kind != "i":
        v = typed(v, dtype)     # an integer divisor of an integer case stays integer
    # complex: u and v both times 1+1j (1 / (1+1j) = (1-1j)/2 is exact)
    np_u, tp_u = as_input(u, kind)
    np_v, tp_v = as_input(v, kind)
    run("polydiv", (np_u, np_v), (tp_u, tp_v),
        lambda got, expected: near(got, expected, what="polydiv"))


@pytest.mark.parametrize("u_dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("v_dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_polydiv_dtypes(device, u_dtype, v_dtype):
    u = typed([2, -6, 4, 1], u_dtype)
    v = typed([1, -1], v_dtype, twist=False)
    expected = np_result(lambda: np.polydiv(u, v))
    got = tp_result(lambda: fn("polydiv")(tp.asarray(u), tp.asarray(v)))
    near(got, expected, what="polydiv")


# --------------------------------------------------------------------------------------------
# polyder, polyint


DER_POLYS = {"cubic": [2, -3, 1, 5], "quintic": [1, 0, -2, 0, 3, -1], "linear": [4, 1],
             "constant": [5], "empty": []}


@pytest.mark.parametrize("case", list(DER_POLYS))
@pytest.mark.parametrize("m", [0, 1, 2, 4])
@pytest.mark.parametrize("dtype, kind", DTYPE_KINDS)
def test_polyder(device, case, m, dtype, kind):
    """The m-th derivative (NumPy's dtype: coefficients times int64 powers); m = 0 returns
    the input; a constant's derivative is empty."""
    p = typed(DER_POLYS[case], dtype)
    np_p, tp_p = as_input(p, kind)
    run("polyder", (np_p, m), (tp_p, m), lambda got, expected: near(got, expected, what="polyder"))
    if m == 1:
        run("polyder", (np_p,), (tp_p,),
            lambda got, expected: near(got, expected, what="polyder default m"))


@pytest.mark.parametrize("case", list(DER_POLYS))
@pytest.mark.parametrize("m", [0, 1, 2, 3])
@pytest.mark.parametrize("dtype, kind", DTYPE_KINDS)
def test_polyint(device, case, m, dtype, kind):
    """The m-th antiderivative with zero constants (k=None); m = 0 returns the input."""
    p = typed(DER_POLYS[case], dtype)
    np_p, tp_p = as_input(p, kind)
    run("polyint", (np_p, m), (tp_p, m), lambda got, expected: near(got, expected, what="polyint"))
    if m == 1:
        run("polyint", (np_p,), (tp_p,),
            lambda got, expected: near(got, expected, what="polyint default m"))


POLYINT_K = {
    "scalar-m1": (1, 3.0),
    "scalar-m3": (3, 2),             # one constant for every integration
    "list-m2": (2, [1.0, -2.0]),
    "list-longer": (2, [1.0, -2.0, 7.0]),
    "array-m2": (2, np.array([0.5, 4.0])),
    "complex-k": (1, 1 + 2j),
    "tessera-k": (2, "tessera"),
}


@pytest.mark.parametrize("case", list(POLYINT_K))
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_polyint_constants(device, case, dtype):
    """Integration constants k: a scalar (used for every integration) or one per
    integration, the first for the first integration."""
    m, k = POLYINT_K[case]
    p = typed([3, -2, 1], dtype)
    if isinstance(k, str):
        np_k = np.array([1.5, -1.0])
        tp_k = tp.asarray(np_k)
    else:
        np_k, tp_k = k, (tp.asarray(k) if isinstance(k, np.ndarray) else k)
    expected = np_result(lambda: np.polyint(p, m, k=np_k))
    got = tp_result(lambda: fn("polyint")(tp.asarray(p), m, k=tp_k))
    near(got, expected, what="polyint")


@pytest.mark.parametrize("case", ["polyder-m-negative", "polyint-m-negative",
                                  "polyint-k-short"])
def test_der_int_errors(device, case):
    """Negative orders and too few integration constants: ValueError."""
    p = np.array([1.0, 2.0, 3.0])
    if case == "polyder-m-negative":
        raises_like(lambda: np.polyder(p, -1), lambda: fn("polyder")(tp.asarray(p), -1))
    elif case == "polyint-m-negative":
        raises_like(lambda: np.polyint(p, -1), lambda: fn("polyint")(tp.asarray(p), -1))
    else:
        raises_like(lambda: np.polyint(p, 3, k=[1.0, 2.0]),
                    lambda: fn("polyint")(tp.asarray(p), 3, k=[1.0, 2.0]))


def test_der_int_roundtrip(device):
    """polyder(polyint(p, m), m) is p (as float64)."""
    p = np.array([3, -1, 4, 1, -5])
    for m in (1, 2, 3):
        expected = np.polyder(np.polyint(p, m), m)
        got = fn("polyder")(fn("polyint")(tp.asarray(p), m), m)
        near(got, expected, what=f"m={m}")


# --------------------------------------------------------------------------------------------
# poly1d: construction and attributes


CONSTRUCT_CASES = {
    "int": ([1, 2, 3], {}),
    "float": ([1.5, -2.0, 0.0, 3.25], {}),
    "leading-zeros": ([0, 0, 1, 2], {}),
    "all-zero": ([0, 0], {}),
    "empty": ([], {}),
    "complex": ([1j, 2 + 3j, -1], {}),
    "float32": (np.array([1, -2, 0.5], np.float32), {}),
    "variable": ([1, -1, 2], {"variable": "z"}),
    "from-roots": ([1, 2], {"r": True}),
    "from-roots-complex-pair": ([1 + 1j, 1 - 1j], {"r": True}),
    "from-roots-variable": ([3, -1, 0.5], {"r": True, "variable": "t"}),
    "from-float32-roots": (np.array([1, 2], np.float32), {"r": True}),
}


def construct(case, kind, check):
    """check(tessera poly1d, NumPy poly1d) of a construction case, the coefficients given as
    `kind` (refused as NumPy data where the device refuses it)."""
    __tracebackhide__ = True
    c, kwargs = CONSTRUCT_CASES[case]
    c = np.asarray(c)
    if c.size == 0:
        c = c.astype(np.float64)
    if kind == "list" and c.dtype == np.float32:
        kind = "numpy"
    np_c, tp_c = as_input(c, kind)
    run("poly1d", (np_c,), (tp_c,), check, **kwargs)


@pytest.mark.parametrize("case", list(CONSTRUCT_CASES))
@pytest.mark.parametrize("kind", KINDS)
def test_poly1d_construct(device, case, kind):
    """coeffs (.c, .coef, .coefficients) with leading zeros trimmed ([0] when none are
    left), order (.o), variable, roots (.r), len."""
    construct(case, kind, same_attributes)


def same_attributes(got, expected):
    """The tessera poly1d got has the NumPy poly1d expected's coefficients (and their
    aliases), order, variable, length and roots."""
    __tracebackhide__ = True
    same_poly(got, expected)
    for alias in ("c", "coef", "coefficients"):
        g = to_numpy(getattr(got, alias))
        assert g.dtype == expected.coeffs.dtype and np.array_equal(g, expected.coeffs), \
            f".{alias} != .coeffs"
    for attr in ("order", "o"):
        value = getattr(got, attr)
        assert isinstance(value, numbers.Integral), f".{attr} is {type(value).__name__}"
        assert value == expected.order, f".{attr} {value} != {expected.order}"
    assert len(got) == len(expected), f"len {len(got)} != {len(expected)}"
    same_roots(got.roots, expected.roots, "roots", numpy_ok=True)
    same_roots(got.r, expected.r, "r", numpy_ok=True)


def test_poly1d_copy_and_errors(device):
    """poly1d(poly1d) copies (variable= overrides); 2-d coefficients: ValueError."""
    p = fn("poly1d")(inline([1, 2, 3]), variable="s")
    same_poly(fn("poly1d")(p), np.poly1d([1, 2, 3], variable="s"))
    same_poly(fn("poly1d")(p, variable="y"), np.poly1d([1, 2, 3], variable="y"))
    a = [[1, 2], [3, 4]]
    raises_like(lambda: np.poly1d(a), lambda: fn("poly1d")(a), a)
    raises_like(lambda: np.poly1d(np.array(a)), lambda: fn("poly1d")(tp.asarray(np.array(a))))


# --------------------------------------------------------------------------------------------
# poly1d: str and repr


PRINT_CASES = {
    "int": [1, 2, 3],
    "float": [1.5, -2, 0, 3.25],
    "leading-zeros": [0, 0, 1, 2],
    "zero": [0],
    "empty": np.zeros(0),
    "complex": [1j, 2 + 3j, -1],
    "negative-lead": [-1, 0, 0],
    "float32": np.array([1, 2], np.float32),
    "float32-frac": np.array([0.25, -1.5, 3], np.float32),
    "wide-range": [1e-5, 12345.678, -0.5],
    "imaginary": [2.5j, 0, 1],
    "linear": [1, -1],
    "constant": [7],
    "negative-constant": [-7.5],
    "wrapped": list(range(1, 25)),
    "wrapped-float": list(np.linspace(-3, 3, 15)),
    "roots-float": np.poly([1, 2, 3.5]),
}


@pytest.mark.parametrize("case", list(PRINT_CASES))
@pytest.mark.parametrize("kind", ["list", "numpy", "tessera"])
def test_poly1d_str_repr(device, case, kind):
    """str() and repr() exactly as NumPy prints a poly1d of the same coefficients
    (powers on the line above, wrapped at 70 columns)."""
    c = np.asarray(PRINT_CASES[case])
    if kind == "list" and c.dtype == np.float32:
        kind = "numpy"
    np_c, tp_c = as_input(c, kind)
    run("poly1d", (np_c,), (tp_c,), same_str_repr)


def same_str_repr(got, expected):
    __tracebackhide__ = True
    assert str(got) == str(expected), f"str:\n{str(got)}\n!=\n{str(expected)}"
    assert repr(got) == repr(expected), f"repr: {repr(got)} != {repr(expected)}"


def test_poly1d_str_variable(device):
    for variable in ("z", "t", "lam"):
        expected = np.poly1d([1, -2, 3], variable=variable)
        got = fn("poly1d")(inline([1, -2, 3]), variable=variable)
        assert str(got) == str(expected), f"str:\n{str(got)}\n!=\n{str(expected)}"
        assert repr(got) == repr(expected)


# --------------------------------------------------------------------------------------------
# poly1d: calls, indexing, equality


CALL_POINTS = {
    "int": 2,
    "negative-int": -3,
    "float": 2.5,
    "complex": 1 - 1j,
    "np-float32": np.float32(0.5),
    "1d": np.array([-1.0, 0.0, 0.5, 2.0]),
    "1d-int": np.array([-2, 0, 3]),
    "2d": np.array([[1.0, 2.0], [-0.5, 3.0]]),
    "empty": np.zeros(0),
    "list": [1.0, -2.0, 4.0],
}


@pytest.mark.parametrize("point", list(CALL_POINTS))
@pytest.mark.parametrize("coeffs", [[2, -3, 0, 5], [0.5, 1.5, -2.0], [1j, 2, -1]],
                         ids=["int", "float", "complex"])
def test_poly1d_call(device, point, coeffs):
    """p(x) is polyval(p.coeffs, x): a scalar for a scalar, an array of x's shape."""
    x = CALL_POINTS[point]
    expected = np.poly1d(coeffs)(x)
    p = fn("poly1d")(inline(coeffs))
    tx = tp.asarray(x) if isinstance(x, np.ndarray) else x   # a list stays NumPy data
    scale = max(magnitude(np.poly1d(np.abs(coeffs))(np.abs(np.asarray(x)))), 1.0)
    if not refused(lambda: p(tx), tx):
        near(tp_result(lambda: p(tx)), expected, scale, what="p(x)")
    if isinstance(x, np.ndarray) and not refused(lambda: p(x), x):
        near(tp_result(lambda: p(x)), expected, scale, what="p(numpy x)")


def test_poly1d_call_float32(device):
    c = np.array([1.5, -2, 0.25], np.float32)
    x = np.array([0.5, -1.0, 3.0], np.float32)
    expected = np.poly1d(c)(x)
    got = fn("poly1d")(tp.asarray(c))(tp.asarray(x))
    near(got, expected)


def test_poly1d_compose(device):
    """Calling (or polyval) with a poly1d composes: p(q)."""
    p, q = [1, 0, -2], [2, 1]
    expected = np.poly1d(p)(np.poly1d(q))
    got = fn("poly1d")(inline(p))(fn("poly1d")(inline(q)))
    same_poly(got, expected, "p(q)")
    got = fn("polyval")(inline(p), fn("poly1d")(inline(q)))
    same_poly(got, np.polyval(p, np.poly1d(q)), "polyval(p, q)")


@pytest.mark.parametrize("coeffs", [[4, -3, 2, 1], [0.5, 0.0, -2.0], [1j, 2 - 1j], [0]],
                         ids=["int", "float", "complex", "zero"])
def test_poly1d_getitem(device, coeffs):
    """p[k] is the coefficient of x**k; 0 of the coefficients' dtype beyond the order and
    for negative k."""
    expected_p = np.poly1d(coeffs)
    got_p = fn("poly1d")(tp.asarray(np.asarray(coeffs)))
    for k in range(-2, expected_p.order + 3):
        near(got_p[k], expected_p[k], what=f"p[{k}]")


def test_poly1d_equality(device):
    """== and != compare coefficients (of equal length, any dtype); other types are not
    equal."""
    P = fn("poly1d")
    pairs = [([1, 2, 3], [1, 2, 3]), ([1, 2, 3], [1.0, 2.0, 3.0]), ([1, 2, 3], [1, 2, 4]),
             ([1, 2], [1, 2, 3]), ([0, 1, 2], [1, 2]), ([1j, 2], [1j, 2]), ([0], [])]
    for a, b in pairs:
        expected = np.poly1d(a) == np.poly1d(b)
        got = P(inline(a)) == P(inline(b))
        assert bool(got) == bool(expected), f"poly1d({a}) == poly1d({b}): {got} != {expected}"
        got = P(inline(a)) != P(inline(b))
        assert bool(got) == (not bool(expected)), f"poly1d({a}) != poly1d({b}): {got}"
        inexact = np.asarray(a) + 0.0
        got = P(tp.asarray(inexact)) == P(inline(b))
        assert bool(got) == bool(np.poly1d(inexact) == np.poly1d(b)), \
            f"poly1d(tessera {inexact}) == poly1d({b}): {got}"
    assert bool(P(inline([1, 2])) == 3) is False
    assert bool(P(inline([3])) == 3) is False
    assert bool(P(inline([1, 2])) != "x") is True


@pytest.mark.parametrize("coeffs", [[1, 2, 3], [0, 0, 5], [0], [], [1.5, 0, 0, 0, 2]],
                         ids=str)
def test_poly1d_len(device, coeffs):
    assert len(fn("poly1d")(inline(coeffs))) == len(np.poly1d(coeffs))


# --------------------------------------------------------------------------------------------
# poly1d: arithmetic, powers, deriv and integ


A_COEFFS = {"int": [1, -2, 3], "float": [0.5, 0.0, -1.5, 2.0], "complex": [1j, 2 - 1j],
            "float32": np.array([2.0, -0.5], np.float32)}
OTHERS = {"poly-int": ("poly", [2, 1]), "poly-float": ("poly", [1.5, 0, -2]),
          "poly-complex": ("poly", [1 + 1j, -1]), "int": ("scalar", 3),
          "float": ("scalar", -2.5), "complex": ("scalar", 2j),
          "np-float32": ("np-scalar", np.float32(0.5)), "list": ("list", [1, 0, -1]),
          "numpy": ("array", np.array([2.0, -1.0])),
          "tessera": ("tessera", np.array([3, 0, 1, -4]))}


def other_pair(name):
    """(NumPy operand, tessera operand)."""
    what, value = OTHERS[name]
    if what == "poly":
        return np.poly1d(value), fn("poly1d")(inline(value))
    if what == "tessera":
        return value, tp.asarray(value)
    return value, value


@pytest.mark.parametrize("op", ["+", "-", "*"])
@pytest.mark.parametrize("other", list(OTHERS))
@pytest.mark.parametrize("a", list(A_COEFFS))
def test_poly1d_operators(device, op, other, a):
    """p + q, p - q, p * q with a poly1d, a scalar, a list or an array on the right, and
    with a poly1d or a scalar on the left: a poly1d of NumPy's coefficients and dtype."""
    c = np.asarray(A_COEFFS[a])
    np_p, tp_p = np.poly1d(c), fn("poly1d")(tp.asarray(c))
    np_o, tp_o = other_pair(other)
    f = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y}[op]
    expected = f(np_p, np_o)
    if refused(lambda: f(tp_p, tp_o), tp_o):   # a list or NumPy array on the right
        return
    got = tp_result(lambda: f(tp_p, tp_o))
    same_poly(got, expected, f"p {op} {other}")
    if OTHERS[other][0] in ("poly", "scalar"):
        expected = f(np_o, np_p)
        got = tp_result(lambda: f(tp_o, tp_p))
        same_poly(got, expected, f"{other} {op} p")


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5])
@pytest.mark.parametrize("a", list(A_COEFFS))
def test_poly1d_power(device, n, a):
    """p ** n for non-negative integers n (p ** 0 is poly1d([1]))."""
    c = np.asarray(A_COEFFS[a])
    expected = np.poly1d(c) ** n
    got = fn("poly1d")(tp.asarray(c)) ** n
    same_poly(got, expected, f"p ** {n}")


@pytest.mark.parametrize("n", [-1, 1.5, -2.0])
def test_poly1d_power_errors(device, n):
    """Negative or non-integer powers: ValueError."""
    raises_like(lambda: np.poly1d([1, 2]) ** n, lambda: fn("poly1d")(inline([1, 2])) ** n)


@pytest.mark.parametrize("m", [0, 1, 2, 3, 6])
@pytest.mark.parametrize("a", list(A_COEFFS) + ["constant"])
def test_poly1d_deriv(device, m, a):
    c = np.asarray(A_COEFFS.get(a, [5]))
    expected = np.poly1d(c).deriv(m)
    got = fn("poly1d")(tp.asarray(c)).deriv(m)
    same_poly(got, expected, f"deriv({m})")
    if m == 1:
        same_poly(fn("poly1d")(tp.asarray(c)).deriv(), np.poly1d(c).deriv(), "deriv()")


@pytest.mark.parametrize("m, k", [(1, 0), (1, 2.5), (2, 0), (2, [1.0, -1.0]), (3, 1), (0, 0)],
                         ids=str)
@pytest.mark.parametrize("a", list(A_COEFFS))
def test_poly1d_integ(device, m, k, a):
    c = np.asarray(A_COEFFS[a])
    expected = np.poly1d(c).integ(m, k)
    got = fn("poly1d")(tp.asarray(c)).integ(m, k)
    same_poly(got, expected, f"integ({m}, {k})")
    if (m, k) == (1, 0):
        same_poly(fn("poly1d")(tp.asarray(c)).integ(), np.poly1d(c).integ(), "integ()")


@pytest.mark.parametrize("name", ["polyadd", "polysub", "polymul", "polyder", "polyint",
                                  "polydiv"])
def test_functions_of_poly1d(device, name):
    """The functions given a poly1d return poly1d (polydiv: a pair of them)."""
    a, b = [2, -3, 1], [1, -1]
    np_args = (np.poly1d(a), b) if name in ("polyadd", "polysub", "polymul", "polydiv") \
        else (np.poly1d(a),)
    tp_a, tp_b = fn("poly1d")(inline(a)), inline(b)
    tp_args = (tp_a, tp_b) if len(np_args) == 2 else (tp_a,)
    expected = getattr(np, name)(*np_args)
    got = fn(name)(*tp_args)
    if name == "polydiv":
        assert isinstance(got, tuple) and len(got) == 2, f"polydiv: {got!r}"
        same_poly(got[0], expected[0], "quotient")
        same_poly(got[1], expected[1], "remainder")
    else:
        same_poly(got, expected, name)
    if name in ("polyadd", "polysub", "polymul"):
        expected = getattr(np, name)(b, np.poly1d(a))
        same_poly(fn(name)(tp_b, tp_a), expected, f"{name} (poly1d second)")


def test_poly1d_roots_attribute(device):
    """.roots of poly1d built from roots gives them back."""
    zeros = [-2.0, 0.5, 3.0]
    expected = np.poly1d(zeros, r=True).roots
    same_roots(fn("poly1d")(inline(zeros), r=True).roots, expected, numpy_ok=True)
    same_roots(fn("poly1d")(tp.asarray(np.array(zeros)), r=True).r, expected, numpy_ok=True)
