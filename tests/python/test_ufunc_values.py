"""Ufunc values against NumPy: every ufunc, every input dtype (and dtype pair), ordinary and
special values, memory layouts, broadcasting, long arrays, Python/NumPy scalar operands, and
chains of calls (lazy, fused evaluation must give NumPy's step-by-step results).

Results must match NumPy exactly (dtype, shape, values, nan positions and signs of zero; not
the sign of nan), except for transcendental functions on float32/float64/complex results,
whose finite nonzero values may differ by up to 4 ULP (per part for complex; 1 ULP for
float16, which is computed through float32 and rounded once). Special results (nan, +-inf,
+-0) must match exactly there too. One more allowance: fmax/fmin of +0 and -0 in float32/64,
where NumPy's own sign depends on its code path (see zero_sign_free). NumPy's floating-point
warnings are silenced; tessera is not required to warn.

Helpers used by test_ufunc_accuracy.py / test_promotion.py live here: ulp_distance,
assert_exact, assert_close, check_call.
"""

import contextlib
import functools
import warnings

import numpy as np
import pytest

import tessera as tp

from conftest import ALL_DTYPES, sample
from oracle import (PAIR_LAYOUT_NAMES, PAIR_LAYOUTS, assert_refuses_host_data,
                    host_data_refused, is_host_data, message_of, numpy_result, public_type,
                    refuses_host_data)

DTYPES = [np.dtype(d) for d in ALL_DTYPES]

UFUNC_NAMES = (
    "add subtract multiply divide true_divide floor_divide remainder mod fmod divmod power "
    "float_power negative positive absolute fabs sign reciprocal square sqrt cbrt exp exp2 "
    "expm1 log log2 log10 log1p logaddexp logaddexp2 sin cos tan arcsin arccos arctan arctan2 "
    "hypot sinh cosh tanh arcsinh arccosh arctanh deg2rad rad2deg degrees radians floor ceil "
    "trunc rint equal not_equal less less_equal greater greater_equal maximum minimum fmax fmin "
    "logical_and logical_or logical_xor logical_not bitwise_and bitwise_or bitwise_xor invert "
    "bitwise_not left_shift right_shift gcd lcm isnan isinf isfinite signbit copysign nextafter "
    "spacing ldexp frexp modf heaviside conj conjugate"
).split()

# NumPy's aliases: the same object under two names.
ALIASES = {"mod": "remainder", "true_divide": "divide", "conj": "conjugate",
           "bitwise_not": "invert", "abs": "absolute"}
CANONICAL = [n for n in UFUNC_NAMES if n not in ALIASES]
UNARY = [n for n in CANONICAL if getattr(np, n).nin == 1]
BINARY = [n for n in CANONICAL if getattr(np, n).nin == 2]

# Functions whose float/complex results may differ from NumPy's by a few ULP (different but
# equally good libm algorithms). Everything else must be bit-exact.
TRANSCENDENTAL = {
    "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "logaddexp", "logaddexp2",
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "arctan2", "hypot", "sinh", "cosh",
    "tanh", "arcsinh", "arccosh", "arctanh", "power", "float_power",
}
# ... and these only on complex data (real sqrt is correctly rounded, so exact).
COMPLEX_TRANSCENDENTAL = {"sqrt"}
ULPS = {np.dtype(np.float16): 1, np.dtype(np.float32): 4, np.dtype(np.float64): 4}


# ... and on a CUDA device also these, whose complex loops divide by hypot(x, y): CUDA's
# hypot is not the C library's, which rounds correctly.
DEVICE_COMPLEX_TRANSCENDENTAL = {"sign"}


def tolerance(name, dtype):
    """ULPs allowed for `name` producing `dtype`, or None for exact."""
    dtype = np.dtype(dtype)
    if dtype.kind == "c":
        if (name in TRANSCENDENTAL or name in COMPLEX_TRANSCENDENTAL
                or (name in DEVICE_COMPLEX_TRANSCENDENTAL and tp.get_device().kind == "cuda")):
            return ULPS[np.dtype(dtype.char.lower())]
        return None
    if dtype.kind == "f" and name in TRANSCENDENTAL:
        return ULPS[dtype]
    return None


def restricted_types(ufunc):
    """NumPy's ufunc.types restricted to tessera's dtypes (order and repeats kept)."""
    return [t for t in ufunc.types
            if all(np.dtype(c) in DTYPES for c in t.replace("->", ""))]


# --------------------------------------------------------------------------------------------
# comparing


_ORDER_INT = {2: np.int16, 4: np.int32, 8: np.int64}


def ulp_distance(a, b):
    """|a - b| in units in the last place (float64 array), for same-dtype real float arrays.
    +0 and -0 are 0 apart; the distance is only meaningful where both are finite."""
    a = np.array(a, copy=True, order="C")
    b = np.array(b, copy=True, order="C")
    ints = _ORDER_INT[a.dtype.itemsize]
    mask = np.iinfo(ints).max

    def key(x):  # monotonic in x: -0 and +0 both map to 0
        bits = x.view(ints).astype(np.int64)
        return np.where(bits < 0, -(bits & mask), bits)

    ka, kb = key(a), key(b)
    # exact in uint64 (the difference of two int64 keys can exceed int64; float64 keys would
    # round away the low bits of float64 distances)
    with np.errstate(over="ignore"):
        diff = ka.view(np.uint64) - kb.view(np.uint64)
        diff = np.where(ka >= kb, diff, np.uint64(0) - diff)
    return diff.astype(np.float64)


def _describe(mask, got, expected, inputs, limit=6):
    idx = np.argwhere(mask)[:limit]
    lines = []
    for i in idx:
        i = tuple(int(k) for k in i)
        args = ", ".join(repr(np.broadcast_to(x, expected.shape)[i]) for x in inputs)
        lines.append(f"  at {i}: f({args}) -> {got[i]!r}, NumPy {expected[i]!r}")
    return f"{int(mask.sum())} of {mask.size} differ:\n" + "\n".join(lines)


def _header(t, n):
    assert isinstance(t, tp.ndarray), f"expected tessera.ndarray, got {type(t).__name__}"
    assert t.dtype == n.dtype, f"dtype {t.dtype} != NumPy {n.dtype}"
    assert t.shape == n.shape, f"shape {t.shape} != NumPy {n.shape}"


def _as_inputs(inputs):
    out = []
    for x in inputs:
        try:
            out.append(np.asarray(x))
        except Exception:  # noqa: BLE001
            pass
    return out


def assert_exact(t, n, inputs=(), sign_free=False):
    """Like conftest.assert_same (dtype, shape, values, nan, signed zeros; not the sign of
    nan), reporting only the differing elements with their inputs. `sign_free`: a mask of
    elements whose sign of zero is not compared."""
    __tracebackhide__ = True
    n = np.asarray(n)
    _header(t, n)
    got = tp.asnumpy(t)
    sign_free = np.asarray(sign_free, bool)
    if n.dtype.kind in "fc":
        parts = ("real", "imag") if n.dtype.kind == "c" else ("real",)
        bad = np.zeros(n.shape, bool)
        for part in parts:
            g, e = getattr(got, part), getattr(n, part)
            same = (g == e) | (np.isnan(g) & np.isnan(e))
            bad |= ~same | (np.signbit(g) != np.signbit(e)) & (e == 0) & ~sign_free
    else:
        bad = got != n
    if bad.any():
        raise AssertionError(_describe(bad, got, n, _as_inputs(inputs)))


def assert_close(t, n, ulps, inputs=()):
    """dtype and shape exact; nan, +-inf and +-0 results exactly where NumPy has them; other
    values within `ulps` ULP (each part of a complex value separately). Where NumPy's result
    underflowed to zero, a subnormal of the same sign within `ulps` ULP of it passes too:
    rounding into the subnormal range differs between a computation in the dtype (the C
    library's complex64 functions) and one in double rounded once (tessera's on CUDA)."""
    __tracebackhide__ = True
    n = np.asarray(n)
    _header(t, n)
    got = tp.asnumpy(t)
    parts = ("real", "imag") if n.dtype.kind == "c" else ("real",)
    bad = np.zeros(n.shape, bool)
    worst = 0.0
    for part in parts:
        g, e = np.asarray(getattr(got, part)), np.asarray(getattr(n, part))
        gnan, enan = np.isnan(g), np.isnan(e)
        tiny = np.finfo(e.dtype).tiny
        underflow = (e == 0) & (np.abs(g) < tiny) & (np.signbit(g) == np.signbit(e))
        special = enan | np.isinf(e) | np.isinf(g) | ((e == 0) & ~underflow)
        exact = (g == e) & (np.signbit(g) == np.signbit(e))
        bad |= (gnan != enan) | (special & ~enan & ~exact)
        finite = ~special & ~gnan
        if finite.any():
            dist = np.where(finite, ulp_distance(g, e), 0)
            worst = max(worst, float(dist.max()))
            bad |= dist > ulps
    if bad.any():
        raise AssertionError(f"more than {ulps} ULP apart (worst {worst:g}); "
                             + _describe(bad, got, n, _as_inputs(inputs)))


def zero_sign_free(name, inputs, dtype, shape):
    """fmax/fmin of +0 and -0 in float32/float64: NumPy's sign depends on the code path (its
    SIMD body and its scalar tail disagree: np.fmax(np.zeros(3), -np.zeros(3)) gives
    [0., 0., -0.]), so either sign is accepted where both operands are zeros. (float16 and
    complex, and maximum/minimum, are consistent in NumPy and compared.)"""
    if name not in ("fmax", "fmin") or len(inputs) != 2 or dtype.char not in "fd":
        return False
    a, b = (np.broadcast_to(x, shape) for x in inputs)
    return (a == 0) & (b == 0)


WIDER_COMPLEX = {np.dtype(np.complex64): np.complex128, np.dtype(np.complex128): np.clongdouble}


def assert_power_close(t, n, ulps, inputs):
    """Complex a**b on a CUDA device, computed as exp(b log a) like the C library's cpow but
    in double (complex64 too): NumPy's result has errors of its own, up to the condition
    number |b log a| times an ULP (more for complex64, computed in float). The result must
    be nan and infinite where NumPy's is, and otherwise within `ulps` * max(1, |b log a|)
    ULP of |a**b| of NumPy's result one precision up (complex128 for complex64, clongdouble
    for complex128), in the complex norm. The sign of a zero part is not compared: it is the
    sign of the last bit of a sine or cosine of the exponent (underflowed results, powers of
    -1), which CUDA's math library and the C library round differently; nor is the sign of
    an infinite part where that cosine or sine is below the angle's own rounding error."""
    __tracebackhide__ = True
    n = np.asarray(n)
    _header(t, n)
    got = tp.asnumpy(t)
    a, b = (np.broadcast_to(np.asarray(x), n.shape).astype(WIDER_COMPLEX[n.dtype])
            for x in _as_inputs(inputs))
    with silenced():
        reference = getattr(np, "power")(a, b)
        exponent = b * np.log(a)
        condition = np.maximum(1, np.abs(exponent)).astype(np.float64)
        angle = exponent.imag.astype(np.float64)
        # an infinite part's sign is that of cos or sin of the exponent's imaginary part,
        # known only where that is larger than the angle's own error
        angle_error = 8 * np.finfo(n.real.dtype).eps * condition
        meaningful = {"real": np.abs(np.cos(angle)) > angle_error,
                      "imag": np.abs(np.sin(angle)) > angle_error}
    bad = np.zeros(n.shape, bool)
    for part in ("real", "imag"):
        g, e = getattr(got, part), getattr(n, part)
        bad |= (np.isnan(g) != np.isnan(e)) | (np.isinf(g) != np.isinf(e))
        bad |= np.isinf(e) & (g != e) & meaningful[part]
    finite = np.isfinite(got) & np.isfinite(n) & np.isfinite(reference) & np.isfinite(condition)
    error = np.abs(got.astype(np.complex128) - reference.astype(n.dtype).astype(np.complex128))
    unit = np.spacing(np.abs(reference).astype(n.real.dtype)).astype(np.float64)
    bad |= finite & (error > ulps * condition * unit)
    if bad.any():
        raise AssertionError(f"more than {ulps} * max(1, |b log a|) ULP of |a**b| from the "
                             "wider reference; " + _describe(bad, got, n, _as_inputs(inputs)))


def assert_logaddexp_close(t, n, ulps, inputs):
    """logaddexp(a, b) = max + log1p(exp(-|a - b|)) on a CUDA device: where the result is far
    below max(a, b) the sum cancels, and CUDA's log1p and exp, rounded otherwise than the C
    library's, move it by an ulp of max(a, b), not of the result. Special values as
    assert_close; finite values within `ulps` ULP of the larger of |a|, |b| and |result|."""
    __tracebackhide__ = True
    n = np.asarray(n)
    _header(t, n)
    got = tp.asnumpy(t)
    a, b = (np.broadcast_to(np.asarray(x), n.shape) for x in _as_inputs(inputs))
    bad = (np.isnan(got) != np.isnan(n)) | ((np.isinf(got) | np.isinf(n)) & (got != n))
    finite = np.isfinite(got) & np.isfinite(n)
    with np.errstate(all="ignore"):
        scale = np.maximum(np.maximum(np.abs(a), np.abs(b)).astype(n.dtype), np.abs(n))
        error = np.abs(got.astype(np.float64) - n.astype(np.float64))
        bad |= finite & (error > ulps * np.spacing(scale).astype(np.float64))
    if bad.any():
        raise AssertionError(f"more than {ulps} ULP of max(|a|, |b|) apart; "
                             + _describe(bad, got, n, _as_inputs(inputs)))


def compare(name, t, n, inputs=()):
    __tracebackhide__ = True
    ulps = tolerance(name, np.asarray(n).dtype)
    if ulps is None:
        n = np.asarray(n)
        assert_exact(t, n, inputs, zero_sign_free(name, _as_inputs(inputs), n.dtype, n.shape))
    elif (name in ("power", "float_power") and np.asarray(n).dtype.kind == "c"
          and tp.get_device().kind == "cuda" and len(_as_inputs(inputs)) == 2):
        assert_power_close(t, n, ulps, inputs)
    elif (name in ("logaddexp", "logaddexp2") and tp.get_device().kind == "cuda"
          and len(_as_inputs(inputs)) == 2):
        assert_logaddexp_close(t, n, ulps, inputs)
    else:
        assert_close(t, n, ulps, inputs)


@contextlib.contextmanager
def silenced():
    """No warnings, and NumPy's floating-point errors ignored."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            yield


def quiet(call):
    with silenced():
        return call()


def assert_ufunc_raises(name, error, tp_call):
    """tessera raises NumPy's (public) exception type, with the "[...]" prefix and the
    ufunc's name in the message."""
    __tracebackhide__ = True
    expected = public_type(error)
    try:
        got = quiet(tp_call)
    except Exception as raised:  # noqa: BLE001
        assert type(raised) is expected, (
            f"NumPy raises {expected.__name__}({error}), tessera raises "
            f"{type(raised).__name__}({raised})")
        message = message_of(raised)
        assert message.startswith("["), f"message lacks the API prefix: {message!r}"
        assert getattr(np, name).__name__ in message, \
            f"message does not name the ufunc {name}: {message!r}"
    else:
        raise AssertionError(f"NumPy raises {expected.__name__}({error}), tessera returned "
                             f"{got!r}")


def to_tp(x):
    return tp.array(x) if isinstance(x, np.ndarray) else x


def check_call(name, np_args, tp_args=None, where=""):
    """tp.<name>(*tp_args) gives NumPy's np.<name>(*np_args): values (see compare) or the
    same exception type. tp_args defaults to np_args with NumPy arrays moved to tessera.
    NumPy data left in tp_args (lists) is refused on CUDA (TypeError, as in CuPy)."""
    __tracebackhide__ = True
    if tp_args is None:
        tp_args = [to_tp(a) for a in np_args]
    np_ufunc, tp_ufunc = getattr(np, name), getattr(tp, name)
    if refuses_host_data() and any(map(is_host_data, tp_args)):
        try:
            assert_refuses_host_data(lambda: tp_ufunc(*tp_args))
        except AssertionError as failure:
            kinds = ", ".join(describe_arg(a) for a in np_args)
            raise AssertionError(f"{name}({kinds}) {where}: {failure}") from None
        return
    with silenced():  # one context for the whole check (entering them costs)
        try:
            expected, error = np_ufunc(*np_args), None
        except Exception as raised:  # noqa: BLE001  (NumPy's error is the expectation)
            expected, error = None, raised
        try:
            _check_outcome(name, np_ufunc, tp_ufunc, np_args, tp_args, expected, error)
        except AssertionError as failure:
            kinds = ", ".join(describe_arg(a) for a in np_args)
            raise AssertionError(f"{name}({kinds}) {where}: {failure}") from None


def _check_outcome(name, np_ufunc, tp_ufunc, np_args, tp_args, expected, error):
    __tracebackhide__ = True
    if error is not None:
        assert_ufunc_raises(name, error, lambda: tp_ufunc(*tp_args))
        return
    try:
        got = tp_ufunc(*tp_args)
    except Exception as raised:  # noqa: BLE001
        raise AssertionError(f"NumPy returns {expected!r}, tessera raises "
                             f"{type(raised).__name__}({raised})") from None
    if np_ufunc.nout == 1:
        compare(name, got, expected, np_args)
    else:
        assert isinstance(got, tuple) and len(got) == np_ufunc.nout, \
            f"expected a tuple of {np_ufunc.nout} arrays, got {type(got).__name__}"
        for g, e in zip(got, expected):
            compare(name, g, e, np_args)


def describe_arg(x):
    if isinstance(x, np.ndarray):
        return f"{x.dtype}{list(x.shape)}"
    if isinstance(x, np.generic):
        return f"np.{x.dtype}({x!r})"
    return repr(x)


# --------------------------------------------------------------------------------------------
# data


def _uniq(values):
    out = []
    for v in values:
        if v not in out:
            out.append(v)
    return out


def cached_readonly(function):
    """Memoize a function returning a NumPy array; the array is shared, so made read-only."""
    @functools.lru_cache(maxsize=None)
    def cached(*args):
        out = function(*args)
        out.flags.writeable = False
        return out
    return functools.wraps(function)(cached)


@cached_readonly
def _sample(shape, dtype, seed):
    return np.array(sample(shape, dtype, seed))


@cached_readonly
def specials(dtype):
    """Edge values of `dtype`: zeros, units, halves, extremes, nan, infinities, subnormals,
    domain edges of the elementary functions, shift widths."""
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return np.array([False, True])
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        bits = 8 * dtype.itemsize
        cand = [0, 1, -1, 2, -2, 3, -3, 5, -7, 7, 8, 15, 16, 31, 32, 63, 64, 100, -100,
                info.max, info.max - 1, info.max >> 1, (info.max >> 1) + 1, info.min,
                info.min + 1, bits - 1, bits, bits + 1]
        return np.array(_uniq([v for v in cand if info.min <= v <= info.max]), dtype)
    if dtype.kind == "f":
        info = np.finfo(dtype)
        f = dtype.type
        one = f(1)
        big = float(np.log(info.max))  # exp overflow edge
        cand = [0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.0, -3.0, 0.1, 100.0,
                -100.0, np.inf, -np.inf, np.nan, -np.nan,
                info.tiny, -info.tiny, info.smallest_subnormal, -info.smallest_subnormal,
                info.max, -info.max, info.eps,
                np.nextafter(one, f(2)), -np.nextafter(one, f(2)),
                np.nextafter(one, f(0)), -np.nextafter(one, f(0)),
                1 / float(info.eps) + 1, 1 / (2 * float(info.eps)) + 0.5,
                big, -big, np.nextafter(f(big), f(np.inf)), np.pi, -np.pi / 2, 1e5]
        with np.errstate(over="ignore"):  # 1e5 is inf in float16
            return np.array(cand, dtype=np.float64).astype(dtype)
    part_dtype = np.dtype(dtype.char.lower())
    info = np.finfo(part_dtype)
    parts = np.array([0.0, -0.0, 1.0, -1.0, 0.5, -2.5, np.inf, -np.inf, np.nan,
                      float(info.max) / 4, float(info.smallest_subnormal)]).astype(part_dtype)
    re, im = np.meshgrid(parts, parts, indexing="ij")
    out = np.empty(re.size, dtype)
    out.real = re.ravel()
    out.imag = im.ravel()
    return out


def cross(a, b):
    """Every pair (a[i], b[j]) as two flat arrays."""
    return np.repeat(a, b.size), np.tile(b, a.size)


def ordinary(name, dtype, arg=0, shape=(24,), seed=0):
    """Sample data for operand `arg` of `name`, moved into the function's domain where the
    ordinary sample would mostly give nan (or raise, for integer powers)."""
    dtype = np.dtype(dtype)
    x = _sample(tuple(shape), dtype, seed)
    if dtype.kind == "f":
        v = x.astype(np.float64)
        if name in ("arcsin", "arccos", "arctanh"):
            v = np.sin(v)
        elif name == "arccosh":
            v = 1 + np.abs(v)
        elif name in ("log", "log2", "log10", "log1p", "sqrt") or (
                name in ("power", "float_power") and arg == 0):
            v = np.abs(v)
        elif name in ("power", "float_power") and arg == 1:
            v = v / 8
        elif name in ("exp", "exp2", "expm1", "sinh", "cosh"):
            v = v / 3
        x = v.astype(dtype)
    elif dtype.kind in "iu":
        if name == "power" and arg == 1:
            x = (np.abs(x.astype(np.int64)) % 6).astype(dtype)
        elif name in ("left_shift", "right_shift") and arg == 1:
            x = (np.abs(x.astype(np.int64)) % (8 * dtype.itemsize + 2)).astype(dtype)
        elif name == "reciprocal":
            # the integer reciprocal of 0 converts inf to an integer: undefined in C, so
            # NumPy's answer is the platform's
            x = np.where(x == 0, dtype.type(1), x)
    return x


def nonneg_exponents(name, a, b):
    """Integer powers: NumPy refuses negative exponents for the whole array, so the value
    tests keep only nonnegative ones (the error has its own test)."""
    if name == "power" and a.dtype.kind in "biu" and b.dtype.kind in "biu":
        keep = b >= 0
        if b.dtype.kind in "iu":
            return a[keep], b[keep]
    return a, b


# --------------------------------------------------------------------------------------------
# the ufunc objects


def test_aliases_are_the_same_object():
    for alias, name in ALIASES.items():
        assert getattr(tp, alias) is getattr(tp, name), f"tp.{alias} is not tp.{name}"


def loop_dtypes(types):
    """A types list as a set of dtype tuples ('ll->l' and 'qq->q' are the same loop)."""
    return {tuple(np.dtype(c) for c in t.replace("->", "")) for t in types}


@pytest.mark.parametrize("name", UFUNC_NAMES + ["abs"])
def test_ufunc_attributes(name):
    u, nu = getattr(tp, name), getattr(np, name)
    assert isinstance(u, tp.ufunc)
    assert u.__name__ == nu.__name__
    assert (u.nin, u.nout, u.nargs) == (nu.nin, nu.nout, nu.nargs)
    # NumPy's loops restricted to tessera's dtypes (NumPy lists some twice, and int64 both
    # as 'l' and 'q': compared as sets of dtype signatures)
    assert loop_dtypes(u.types) == loop_dtypes(restricted_types(nu))
    assert u.ntypes == len(u.types)
    assert u.identity == nu.identity or (u.identity is None and nu.identity is None)
    assert type(u.identity) is type(nu.identity)


# --------------------------------------------------------------------------------------------
# every dtype (unary) / dtype pair (binary): ordinary values and special values


@pytest.mark.parametrize("name", UNARY)
def test_unary_dtypes(name, device):
    for dtype in DTYPES:
        check_call(name, [ordinary(name, dtype)], where="(ordinary values)")
        x = specials(dtype)
        if name == "reciprocal" and dtype.kind in "iu":
            x = x[x != 0]
        check_call(name, [x], where="(special values)")
        # each value in a run of 19: whole vector blocks of one value, then a tail
        check_call(name, [np.repeat(x, 19)], where="(special values, repeated)")


@pytest.mark.parametrize("name", BINARY)
def test_binary_dtype_pairs(name, device):
    for da in DTYPES:
        for db in DTYPES:
            a = ordinary(name, da, 0, seed=1)
            b = ordinary(name, db, 1, seed=2)
            check_call(name, [a, b], where="(ordinary values)")


@pytest.mark.parametrize("name", BINARY)
def test_binary_special_cross_product(name, device):
    for da in DTYPES:
        for db in DTYPES:
            a, b = nonneg_exponents(name, *cross(specials(da), specials(db)))
            check_call(name, [a, b], where="(special values)")


# --------------------------------------------------------------------------------------------
# integer arithmetic edges (also inside the cross products above; here by name, so a failure
# says what went wrong)


INT_DTYPES = [d for d in DTYPES if d.kind in "iu"]


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=str)
def test_integer_overflow_wraps(dtype, device):
    info = np.iinfo(dtype)
    a = np.array([info.max, info.min, info.max, info.min, info.max // 2 + 1], dtype)
    b = np.array([1, 1, info.max, info.min, 2], dtype)
    for name in ("add", "subtract", "multiply", "square", "negative", "absolute", "left_shift",
                 "lcm"):
        args = [a] if getattr(np, name).nin == 1 else [a, b]
        check_call(name, args, where="(overflow)")
    check_call("power", [a, np.array([2, 3, 2, 3, 2], dtype)], where="(overflow)")
    check_call("power", [np.array([3, -3, 7, 2, 2], dtype) if info.min < 0
                         else np.array([3, 5, 7, 2, 2], dtype),
                         np.array([40, 41, 100, 8 * dtype.itemsize, 8 * dtype.itemsize - 1],
                                  dtype)], where="(overflow)")


@pytest.mark.parametrize("dtype", INT_DTYPES, ids=str)
def test_integer_division_by_zero_and_minus_one(dtype, device):
    info = np.iinfo(dtype)
    a = np.array(_uniq([info.min, info.max, 7, 1, 0] + ([-7, -1] if info.min else [])), dtype)
    for divisor in ([0, 1, -1] if info.min else [0, 1]):
        b = np.full(a.shape, divisor, dtype)
        for name in ("floor_divide", "remainder", "fmod", "divmod", "true_divide", "gcd",
                     "lcm"):
            check_call(name, [a, b], where=f"(divisor {divisor})")


def test_integer_negative_power_raises(device):
    for dtype in INT_DTYPES:
        if dtype.kind == "u":
            continue
        a = np.array([2, 3, 4], dtype)
        for b in (np.array([1, -1, 2], dtype), np.array(-1, dtype)):
            check_call("power", [a, b])
        check_call("power", [a, -2])
        check_call("power", [2, np.array([1, -1], dtype)])
    # float exponents or bases are fine
    check_call("power", [np.array([2, 4], np.int64), np.array([-1.0, -2.0])])
    check_call("power", [np.array([2.0, 4.0]), np.array([-1, -2])])


def test_bool_subtract_and_negative_raise(device):
    a, b = np.array([True, False]), np.array([False, False])
    check_call("subtract", [a, b])
    check_call("subtract", [a, True])
    check_call("negative", [a])
    check_call("negative", [np.bool_(True)])


# --------------------------------------------------------------------------------------------
# layouts and broadcasting


LAYOUT_DTYPES = [np.dtype(d) for d in (np.float64, np.int32, np.complex64, np.bool_,
                                       np.uint8, np.float32)]
EXTRA_UNARY_SHAPES = {"empty1d": (0,), "empty_trailing": (3, 0)}


def layout_dtypes(name, count=2):
    """Up to `count` dtypes NumPy takes for `name`, of different kinds."""
    out = []
    nu = getattr(np, name)
    for d in LAYOUT_DTYPES:
        probe = [np.ones(2, d)] * nu.nin
        if numpy_result(lambda p=probe: nu(*p))[1] is None:
            if all(o.kind != d.kind for o in out):
                out.append(d)
        if len(out) == count:
            break
    return out


def layout_pair(name, layout, dtype, arg=0, seed=0):
    """(tessera view, NumPy view) of layout `layout` (oracle.PAIR_LAYOUTS) over in-domain
    data for operand `arg` of `name`."""
    shape, view = PAIR_LAYOUTS[layout]
    base = ordinary(name, dtype, arg, shape, seed)
    if name == "power" and dtype.kind in "biu":
        base = (np.abs(base.astype(np.int64)) % 5).astype(dtype)
    return view(tp.array(base), tp), view(base, np)


@pytest.mark.parametrize("name", UNARY)
def test_unary_layouts(name, device):
    for dtype in layout_dtypes(name):
        for layout in PAIR_LAYOUT_NAMES:
            t, n = layout_pair(name, layout, dtype)
            check_call(name, [n], [t], where=f"(layout {layout})")
        for label, shape in EXTRA_UNARY_SHAPES.items():
            n = np.zeros(shape, dtype)
            check_call(name, [n], where=f"(shape {label})")


@pytest.mark.parametrize("name", BINARY)
def test_binary_layouts(name, device):
    for dtype in layout_dtypes(name):
        for layout in PAIR_LAYOUT_NAMES:
            t1, n1 = layout_pair(name, layout, dtype, 0, seed=1)
            t2, n2 = layout_pair(name, layout, dtype, 1, seed=2)
            check_call(name, [n1, n2], [t1, t2], where=f"(both {layout})")
            c2 = np.ascontiguousarray(n2)
            check_call(name, [n1, c2], [t1, tp.array(c2)], where=f"({layout}, contiguous)")
            c1 = np.ascontiguousarray(n1)
            check_call(name, [c1, n2], [tp.array(c1), t2], where=f"(contiguous, {layout})")


BROADCAST_SHAPES = [((3, 1), (1, 4)), ((2, 3, 4), (4,)), ((4,), (2, 3, 4)), ((0, 3), (1, 3)),
                    ((3, 0), (3, 1)), ((), (3,)), ((2, 1), ()), ((4, 1, 3), (2, 1)),
                    ((5,), (1,)), ((1, 1), (2, 3, 1))]


@pytest.mark.parametrize("name", BINARY)
def test_binary_broadcasting(name, device):
    for dtype in layout_dtypes(name):
        for sa, sb in BROADCAST_SHAPES:
            a = ordinary(name, dtype, 0, sa, seed=3)
            b = ordinary(name, dtype, 1, sb, seed=4)
            check_call(name, [a, b], where=f"(broadcast {sa} with {sb})")
            # a broadcast view as an input
            ta = tp.broadcast_to(tp.array(a), np.broadcast_shapes(sa, sb))
            na = np.broadcast_to(a, np.broadcast_shapes(sa, sb))
            check_call(name, [na, b], [ta, tp.array(b)], where="(broadcast_to input)")
        # shapes that do not broadcast
        for sa, sb in [((3,), (4,)), ((2, 3), (3, 2)), ((0,), (2,))]:
            check_call(name, [np.ones(sa, dtype), np.ones(sb, dtype)], where="(mismatch)")


LARGE = 100_003  # odd, past any vector width and thread chunk


@pytest.mark.parametrize("name", CANONICAL)
def test_large_arrays(name, device):
    """Long contiguous, strided and broadcast inputs (vectorized bodies, remainders, thread
    chunks)."""
    nu = getattr(np, name)
    for dtype in layout_dtypes(name, count=1):
        bases = [ordinary(name, dtype, arg, (3 * LARGE,), seed=10 + arg)
                 for arg in range(nu.nin)]
        check_call(name, [b[:LARGE] for b in bases], where="(contiguous)")
        check_call(name, [b[1::3] for b in bases], [tp.array(b)[1::3] for b in bases],
                   where="(step 3)")
        check_call(name, [b[::-2] for b in bases], [tp.array(b)[::-2] for b in bases],
                   where="(step -2)")
        if nu.nin == 2:
            a, b = bases[0][:301].reshape(301, 1), bases[1][:299].reshape(1, 299)
            check_call(name, [a, b], where="(broadcast 301x1 with 1x299)")
            check_call(name, [bases[0][:LARGE], bases[1][5]], where="(array, 0-d)")


# --------------------------------------------------------------------------------------------
# scalars: weak Python scalars (NEP 50) and strong NumPy scalars, on either side


PY_SCALARS = [True, 0, 3, -3, 2.5, -0.0, float("nan"), float("inf"), 1.5j, 2**40]
NP_SCALARS = [np.dtype(d).type(3 if np.dtype(d).kind != "b" else True) for d in ALL_DTYPES]


# (test_promotion.py checks the result dtype for every NumPy scalar type on every array dtype;
# values use a few)
SOME_NP_SCALARS = [np.bool_(True), np.int8(3), np.uint64(3), np.float16(3), np.float32(3),
                   np.complex128(3)]


@pytest.mark.parametrize("name", BINARY)
def test_binary_with_scalars(name, device):
    for dtype in DTYPES:
        x = ordinary(name, dtype, 0, (5,), seed=5)
        y = ordinary(name, dtype, 1, (5,), seed=6)
        for s in PY_SCALARS + SOME_NP_SCALARS:
            check_call(name, [x, s], where="(array, scalar)")
            check_call(name, [s, y], where="(scalar, array)")
    for s in PY_SCALARS:
        for r in PY_SCALARS:
            check_call(name, [s, r], where="(scalar, scalar)")
    for s in NP_SCALARS[::3]:
        for r in (3, 2.5, 1.5j, NP_SCALARS[2]):
            check_call(name, [s, r], where="(scalar, scalar)")
            check_call(name, [r, s], where="(scalar, scalar)")
    # 0-d arrays and lists, then the lists converted by tessera.asarray
    for args in ([np.array(2, np.int16), [1, 2, 3]], [[1.5, -2.0], np.array(3, np.float32)],
                 [[1, 2, 3], [4, 5, 6]]):
        check_call(name, args, where="(lists)")
        check_call(name, args, [tp.asarray(a) for a in args], where="(converted lists)")


@pytest.mark.parametrize("name", UNARY)
def test_unary_with_scalars(name, device):
    for s in PY_SCALARS + NP_SCALARS + [False, 0.5, -1, 1, 1e300, -0.5j + 0.25]:
        check_call(name, [s], where="(scalar)")
    for values in ([1, 2, 3], [0.5, -1.5]):
        check_call(name, [values], where="(list)")
        check_call(name, [values], [tp.asarray(values)], where="(converted list)")
    check_call(name, [np.array(0.75, np.float32)], where="(0-d NumPy array)")


# --------------------------------------------------------------------------------------------
# inputs tessera refuses, and calling errors


@pytest.mark.parametrize("bad", [np.array([1.0], np.longdouble), np.array(["a"]),
                                 np.array([1], "datetime64[s]"), np.array([1], "timedelta64[s]"),
                                 np.array([None], object)],
                         ids=["longdouble", "str", "datetime64", "timedelta64", "object"])
def test_unsupported_dtype_inputs_raise_type_error(bad, device):
    for name in ("add", "negative", "sin", "equal"):
        u = getattr(tp, name)
        args = [bad] * u.nin
        with pytest.raises(TypeError) as got:
            u(*args)
        assert message_of(got.value).startswith("["), message_of(got.value)


def test_wrong_argument_count_raises(device):
    for name, args in [("add", (1,)), ("sin", ()), ("add", ())]:
        expected, error = numpy_result(lambda n=name, a=args: getattr(np, n)(*a))
        assert error is not None
        with pytest.raises(type(error)):
            getattr(tp, name)(*args)


# --------------------------------------------------------------------------------------------
# lazy (fused) evaluation must be unobservable: chains of ufuncs give NumPy's step-by-step
# results (each intermediate rounded/wrapped to its own dtype), and inputs written after a
# call do not change its result


CHAIN_DTYPES = [np.dtype(d) for d in (np.float16, np.float32, np.float64, np.int8, np.uint8,
                                      np.int32, np.uint64, np.complex64, np.bool_)]


def _chain(m, a, b, c):
    """A chain of exact operations over three arrays of one dtype (module m is np or tp)."""
    if a.dtype.kind == "b":
        x = m.logical_xor(m.bitwise_and(a, b), c)
        return m.logical_or(m.logical_not(x), m.bitwise_or(a, m.invert(c)))
    if a.dtype.kind in "iu":
        x = m.add(m.multiply(a, b), c)          # wraps in the dtype
        y = m.subtract(m.square(x), m.left_shift(b, 3))
        q, r = m.divmod(y, m.maximum(c, 1))
        return m.add(m.bitwise_xor(q, r), m.negative(m.absolute(a)))
    x = m.subtract(m.multiply(a, b), c)          # each step rounded to the dtype
    y = m.add(m.divide(x, m.add(b, 3)), m.multiply(x, x))
    return m.subtract(m.multiply(y, a), m.square(m.add(c, 0.1)))


@pytest.mark.parametrize("dtype", CHAIN_DTYPES, ids=str)
def test_chains_round_each_step(dtype, device):
    a, b, c = (ordinary("add", dtype, seed=s) for s in (7, 8, 9))
    with np.errstate(all="ignore"):
        expected = _chain(np, a, b, c)
    got = quiet(lambda: _chain(tp, tp.array(a), tp.array(b), tp.array(c)))
    assert_exact(got, expected, (a, b, c))


def test_chains_with_mixed_dtypes_and_scalars(device):
    h = sample((4, 5), np.float16, 1)
    i8 = sample((5,), np.int8, 2)
    u8 = sample((4, 1), np.uint8, 3)
    f4 = sample((4, 5), np.float32, 4)

    def chain(m, h, i8, u8, f4):
        x = m.add(m.multiply(h, 3), i8)        # float16 (weak 3), then float16 + int8: float16
        y = m.subtract(m.add(u8, i8), 1)       # int16, broadcast to (4, 5)
        z = m.multiply(m.true_divide(x, m.add(y, 0.5)), 2.5)   # float16 / float32 -> float32
        return m.add(m.floor(m.multiply(z, 4.0)), m.greater(y, 0)), m.maximum(z, f4)

    with np.errstate(all="ignore"):
        expected = chain(np, h, i8, u8, f4)
    got = quiet(lambda: chain(tp, *(tp.array(x) for x in (h, i8, u8, f4))))
    assert_exact(got[0], expected[0])
    assert_exact(got[1], expected[1])


def test_intermediate_reused_and_evaluated_in_any_order(device):
    a, b = sample((6,), np.float32, 1), sample((6,), np.float32, 2)
    ta, tb = tp.array(a), tp.array(b)
    x, tx = np.add(a, b), tp.add(ta, tb)
    y, ty = np.multiply(x, x), tp.multiply(tx, tx)
    z, tz = np.subtract(y, x), tp.subtract(ty, tx)
    w, tw = np.divide(z, x), tp.divide(tz, tx)
    assert_exact(tz, z)
    assert_exact(tx, x)
    assert_exact(tw, w)
    assert_exact(ty, y)
    q, r = np.divmod(z, 3.0)
    tq, trr = tp.divmod(tz, 3.0)
    assert_exact(tp.add(tq, trr), q + r)
    assert_exact(trr, r)


def test_long_chain(device):
    a = sample((3, 4), np.float64, 5)
    x, tx = a, tp.array(a)
    for i in range(300):
        op = ("add", "multiply", "subtract")[i % 3]
        v = (0.5, 1.0001, 0.25)[i % 3]
        x, tx = getattr(np, op)(x, v), getattr(tp, op)(tx, v)
    assert_exact(tx, x)
    k = np.arange(12, dtype=np.int8).reshape(3, 4)
    tk = tp.array(k)
    for _ in range(200):
        k, tk = np.multiply(np.add(k, 7), 3), tp.multiply(tp.add(tk, 7), 3)
    assert_exact(tk, k)


def test_inputs_written_after_the_call(device):
    a, b = sample((8,), np.int32, 1), sample((8,), np.int32, 2)
    ta, tb = tp.array(a), tp.array(b)
    expected = np.add(a, b)
    got = tp.add(ta, tb)
    chained = tp.multiply(got, 2)
    ta[0] = 1000
    ta[1:3] = tb[1:3]
    tb[...] = 0
    assert_exact(got, expected)
    assert_exact(chained, expected * 2)
    # a view of the input written through its base
    base = sample((4, 6), np.float64, 3)
    tbase = tp.array(base)
    view = tbase[::2, 1::2]
    got = tp.sqrt(tp.absolute(view))
    expected = np.sqrt(np.absolute(base[::2, 1::2]))
    tbase[...] = -1.0
    assert_exact(got, expected)
    # an input that is a NumPy array written after the call
    n = sample((5,), np.float32, 4)
    expected = np.negative(n)
    if host_data_refused(lambda: tp.negative(n)):  # no NumPy input on CUDA (CuPy's rule)
        return
    got = tp.negative(n)
    n[:] = 7
    assert_exact(got, expected)


def test_result_written_then_reused(device):
    a = sample((6,), np.int16, 1)
    ta = tp.array(a)
    tx = tp.add(ta, 1)
    ty = tp.multiply(tx, 2)        # may still be pending
    tx[0] = 100                    # writing tx must not change ty
    x = a + 1
    y = x * 2
    x[0] = 100
    assert_exact(ty, y)
    assert_exact(tx, x)
    assert_exact(tp.add(tx, ty), x + y)
