"""The elementwise functions that are no ufuncs: where, clip, nan_to_num, isclose, allclose,
array_equal, array_equiv, round/around, fix, real, imag, angle, and the ndarray methods
astype (casting=, copy=, order=), clip, round, conj and conjugate, checked against NumPy."""

import inspect

import numpy as np
import pytest

import tessera as tp

from conftest import ALL_DTYPES, assert_same, sample
from oracle import (PAIR_LAYOUTS, assert_refuses_host_data, compact_id as _ids, is_host_data,
                    make_pair, message_of, public_type, refuses_host_data, shares)
from ufunc_oracle import (assert_close, dtype_id, layout_of, outcome_like_numpy,
                          raised_by)

LAYOUTS = list(PAIR_LAYOUTS)
SPECIAL = [0.0, -0.0, 1.0, -1.5, np.nan, np.inf, -np.inf, 2.5, 1e-300, -7.25, 0.5, 1e300]


# --------------------------------------------------------------------------------------------
# helpers


def assert_same_layout(t, n):
    __tracebackhide__ = True
    assert_same(t, n)
    n = np.asarray(n)
    if n.size:
        assert layout_of(t) == layout_of(n), f"strides {t.strides} != NumPy's {n.strides}"


def assert_raises_named(error, tp_call, names, signature=False):
    """tessera raises NumPy's exception type, with a "[name]" message naming one of `names`
    (with `signature`, Python's own "name() got an unexpected keyword" message will do)."""
    __tracebackhide__ = True
    got = raised_by(tp_call, error)
    expected = public_type(error)
    assert isinstance(got, expected), (
        f"NumPy raises {expected.__name__}({error}), tessera raises "
        f"{type(got).__name__}({got})")
    message = message_of(got)
    names = (names,) if isinstance(names, str) else names
    if signature and any(message.startswith(f"{n}()") for n in names):
        return
    assert message.startswith("["), f"message lacks the API prefix: {message!r}"
    assert any(n in message for n in names), f"message does not name {names}: {message!r}"


def same_outcome(np_call, tp_call, names, check=assert_same, signature=False):
    """tessera's result equals NumPy's (by `check`), or both raise alike, naming `names`."""
    __tracebackhide__ = True
    return outcome_like_numpy(np_call, tp_call, check, lambda error, call: assert_raises_named(
        error, call, names, signature))


def same_or_refused(np_call, tp_call, names, check=assert_same):
    """For a call given NumPy data (NumPy arrays, lists) as operands: same_outcome where the
    device takes host data (the CPU); elsewhere (CUDA, as CuPy) TypeError."""
    __tracebackhide__ = True
    if refuses_host_data():
        assert_refuses_host_data(tp_call)
        return None
    return same_outcome(np_call, tp_call, names, check)


def same_for_value(np_fn, tp_fn, value, names, check=assert_same):
    """np_fn(value) against tp_fn(value) for a scalar or NumPy data (a list, a NumPy array):
    scalars on every device (same_outcome); NumPy data as it is (same_or_refused: NumPy's
    outcome on the CPU, refused on CUDA) and as tessera.asarray(value) (same_outcome on every
    device). Returns tessera's result (the converted value's where NumPy data is refused)."""
    __tracebackhide__ = True
    if not is_host_data(value):
        return same_outcome(lambda: np_fn(value), lambda: tp_fn(value), names, check)
    got = same_or_refused(lambda: np_fn(value), lambda: tp_fn(value), names, check)
    converted = same_outcome(lambda: np_fn(value), lambda: tp_fn(tp.asarray(value)), names,
                             check)
    return converted if got is None else got


def with_specials(dtype, shape=(3, 4), seed=0):
    """sample() with nan, infinities and signed zeros mixed in (inexact dtypes)."""
    x = np.array(sample(shape, dtype, seed))
    dtype = np.dtype(dtype)
    if dtype.kind in "fc" and x.size:
        flat = x.reshape(-1)
        with np.errstate(over="ignore"):
            values = np.array(SPECIAL, dtype=dtype if dtype.kind == "f" else dtype.char.lower())
        flat[: min(len(values), flat.size)] = values[: flat.size]
        if dtype.kind == "c" and flat.size > 2:
            flat[1] = complex(1.0, np.nan)
            flat[2] = complex(-np.inf, 2.0)
    return x


# --------------------------------------------------------------------------------------------
# where


@pytest.mark.parametrize("layout", LAYOUTS)
def test_where_layouts(device, layout):
    tc, nc = make_pair(layout, np.bool_, seed=1)
    tx, nx = make_pair(layout, np.float64, seed=2)
    ty, ny = make_pair(layout, np.float64, seed=3)
    same_outcome(lambda: np.where(nc, nx, ny), lambda: tp.where(tc, tx, ty), "where",
                 assert_same_layout)
    same_outcome(lambda: np.where(nc, nx, 0.5), lambda: tp.where(tc, tx, 0.5), "where",
                 assert_same_layout)
    same_outcome(lambda: np.where(nc, -1, ny), lambda: tp.where(tc, -1, ty), "where",
                 assert_same_layout)
    same_outcome(lambda: np.where(nc, 1, 2), lambda: tp.where(tc, 1, 2), "where",
                 assert_same_layout)
    same_outcome(lambda: np.where(True, nx, ny), lambda: tp.where(True, tx, ty), "where",
                 assert_same_layout)


WHERE_DTYPES = [(np.int8, np.uint8), (np.int16, np.float32), (np.float32, np.float64),
                (np.bool_, np.bool_), (np.bool_, np.int64), (np.complex64, np.float64),
                (np.uint64, np.int64), (np.float16, np.int8), (np.uint16, np.uint16)]


@pytest.mark.parametrize("dtypes", WHERE_DTYPES, ids=lambda p: "-".join(map(dtype_id, p)))
def test_where_dtypes(device, dtypes):
    c = sample((3, 4), np.bool_, seed=1)
    x, y = sample((3, 4), dtypes[0], 2), sample((4,), dtypes[1], 3)
    tc, tx, ty = tp.array(c), tp.array(x), tp.array(y)
    same_outcome(lambda: np.where(c, x, y), lambda: tp.where(tc, tx, ty), "where")
    same_outcome(lambda: np.where(c, y, x), lambda: tp.where(tc, ty, tx), "where")
    # weak Python scalars, strong NumPy scalars, NumPy arrays and lists
    for other in (1, -1, 300, 1.5, 2j, True, np.float32(1.5), np.int64(3), np.uint8(7)):
        same_outcome(lambda: np.where(c, x, other), lambda: tp.where(tc, tx, other), "where")
        same_outcome(lambda: np.where(c, other, x), lambda: tp.where(tc, other, tx), "where")
    same_or_refused(lambda: np.where(c, x, y), lambda: tp.where(c, x, y), "where")
    same_or_refused(lambda: np.where(c.tolist(), x, y.tolist()),
                    lambda: tp.where(c.tolist(), tx, y.tolist()), "where")


@pytest.mark.parametrize("cond_dtype", [np.int8, np.uint32, np.float32, np.float64,
                                        np.complex64, np.float16], ids=dtype_id)
def test_where_condition_truthiness(device, cond_dtype):
    """A non-boolean condition counts non-zero values (nan included) as true."""
    c = with_specials(cond_dtype, (3, 4))
    x, y = sample((3, 4), np.int32, 1), sample((3, 4), np.int32, 2)
    same_outcome(lambda: np.where(c, x, y),
                 lambda: tp.where(tp.array(c), tp.array(x), tp.array(y)), "where")
    same_or_refused(lambda: np.where(c, x, y), lambda: tp.where(tp.array(c), tp.array(x), y),
                    "where")
    for cond in (0, 1, 0.0, np.nan, np.int8(0)):
        same_outcome(lambda: np.where(cond, x, y),
                     lambda: tp.where(cond, tp.array(x), tp.array(y)), "where")
    cond = [1, 0, 2, 0]
    same_outcome(lambda: np.where(cond, x, y),
                 lambda: tp.where(tp.array(cond), tp.array(x), tp.array(y)), "where")
    same_or_refused(lambda: np.where(cond, x, y),
                    lambda: tp.where(cond, tp.array(x), tp.array(y)), "where")


@pytest.mark.parametrize("shapes", [((3, 1), (1, 4), ()), ((), (2, 3), (3,)),
                                    ((0,), (1,), ()), ((2, 1, 1), (3, 1), (4,)), ((), (), ())],
                         ids=_ids)
def test_where_broadcasting(device, shapes):
    c, x, y = (sample(s, d, seed=i) for i, (s, d) in
               enumerate(zip(shapes, (np.bool_, np.float32, np.int16))))
    same_outcome(lambda: np.where(c, x, y),
                 lambda: tp.where(tp.array(c), tp.array(x), tp.array(y)), "where")
    same_outcome(lambda: np.where(c, y, x),
                 lambda: tp.where(tp.array(c), tp.array(y), tp.array(x)), "where")


def test_where_errors(device):
    c, x = sample((3, 4), np.bool_), sample((3, 4), np.float64)
    tc, tx = tp.array(c), tp.array(x)
    cases = [
        (lambda m, c, x: m.where(c, x)),                                # x without y
        (lambda m, c, x: m.where(c, x, m.ones(5))),                     # shapes
        (lambda m, c, x: m.where(c[:, :2], x, x)),
    ]
    for call in cases:
        same_outcome(lambda: call(np, c, x), lambda: call(tp, tc, tx), "where")


def test_where_result_is_new(device):
    c, x = tp.array(np.ones(4, bool)), tp.arange(4.0)
    got = tp.where(c, x, 0.0)
    assert isinstance(got, tp.ndarray) and got is not x
    assert not shares(got, x)
    got[0] = 100
    assert_same(x, np.arange(4.0))


# --------------------------------------------------------------------------------------------
# clip


@pytest.mark.parametrize("layout", LAYOUTS)
def test_clip_layouts(device, layout):
    t, n = make_pair(layout, np.float32)
    lo, nlo = make_pair(layout, np.float32, seed=1)
    same_outcome(lambda: np.clip(n, -3, 4), lambda: tp.clip(t, -3, 4), "clip", assert_same_layout)
    same_outcome(lambda: np.clip(n, nlo, nlo + 5), lambda: tp.clip(t, lo, lo + 5), "clip",
                 assert_same_layout)
    same_outcome(lambda: n.clip(-1.5), lambda: t.clip(-1.5), "clip", assert_same_layout)
    same_outcome(lambda: n.clip(None, 2), lambda: t.clip(None, 2), "clip", assert_same_layout)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_clip_dtypes(device, dtype):
    x = with_specials(dtype, (3, 4))
    t = tp.array(x)
    lo, hi = sample((4,), dtype, 1), sample((3, 1), dtype, 2)
    bounds = [(-5, 5), (0, None), (None, 3), (5, -5), (lo, hi), (lo, None), (lo, 10),
              (1.5, 2.5), (-1, 300), (np.int8(-3), np.int8(3)), (np.float32(0.5), None),
              (np.nan, None), (None, np.nan), (True, True), (-2**63, 2**64 - 1), (0, 1j),
              (lo.tolist(), 7)]
    for a_min, a_max in bounds:
        ta_min = tp.array(a_min) if isinstance(a_min, np.ndarray) else a_min
        ta_max = tp.array(a_max) if isinstance(a_max, np.ndarray) else a_max
        check = same_or_refused if isinstance(ta_min, list) else same_outcome
        check(lambda: np.clip(x, a_min, a_max), lambda: tp.clip(t, ta_min, ta_max), "clip")
        check(lambda: x.clip(a_min, a_max), lambda: t.clip(ta_min, ta_max), "clip")


def test_clip_keywords(device):
    x = sample((3, 4), np.int32)
    t = tp.array(x)
    calls = [
        lambda m, a: m.clip(a, min=-3, max=4),
        lambda m, a: m.clip(a, min=-3),
        lambda m, a: m.clip(a, max=4),
        lambda m, a: m.clip(a, a_min=-3, a_max=4),
        lambda m, a: m.clip(a, -3, a_max=4),
        lambda m, a: m.clip(a, a_min=-3),
        lambda m, a: m.clip(a),
        lambda m, a: m.clip(a, None, None),
        lambda m, a: m.clip(a, -3, 4, foo=1),
        lambda m, a: m.clip(a, -3, 4, a_min=-3),
        lambda m, a: m.clip(a, -3, a_min=-3, a_max=4),
        lambda m, a: a.clip(min=1, max=2),
        lambda m, a: a.clip(max=2),
        lambda m, a: a.clip(),
        lambda m, a: a.clip(-1, 1, None),
    ]
    for call in calls:
        same_outcome(lambda: call(np, x), lambda: call(tp, t), "clip", signature=True)


def test_clip_array_api_bounds(device):
    """The array API standard's clip(x, /, min=None, max=None): the second and third
    parameters are min and max, so one positional bound clips one side (NumPy raises)."""
    x = sample((3, 4), np.float32)
    t = tp.array(x)
    assert_same(tp.clip(t, -0.5), np.clip(x, -0.5, None))
    assert_same(tp.clip(t, None, 0.5), np.clip(x, None, 0.5))
    assert_same(tp.clip(t, max=0.5), np.clip(x, max=0.5))
    params = list(inspect.signature(tp.clip).parameters)
    assert params[1:3] == ["min", "max"]
    with pytest.raises(TypeError, match="clip"):
        tp.clip(t, -3, 4, min=-3)


def test_clip_out(device):
    x = sample((3, 4), np.float64)
    t = tp.array(x)
    out, nout = tp.zeros((3, 4)), np.zeros((3, 4))
    assert tp.clip(t, -2, 2, out=out) is out
    np.clip(x, -2, 2, out=nout)
    assert_same(out, nout)
    assert t.clip(-1, 1, out) is out
    x.clip(-1, 1, nout)
    assert_same(out, nout)
    assert tp.clip(t, -1, 1, out=t) is t  # in place
    np.clip(x, -1, 1, out=x)
    assert_same(t, x)
    for out_dtype in (np.int8, np.float32, np.complex64):
        same_outcome(lambda: np.clip(x, 0, 1, out=np.zeros((3, 4), out_dtype)),
                     lambda: tp.clip(t, 0, 1, out=tp.zeros((3, 4), out_dtype)), "clip")
    same_outcome(lambda: np.clip(x, 0, 1, out=np.zeros(4)),
                 lambda: tp.clip(t, 0, 1, out=tp.zeros(4)), "clip")


def test_clip_errors(device):
    x = sample((3, 4), np.float64)
    t = tp.array(x)
    for a_min, a_max in [(np.zeros(5), 1), (0, np.ones((2, 4))), ("a", 1)]:
        ta_min = tp.array(a_min) if isinstance(a_min, np.ndarray) else a_min
        ta_max = tp.array(a_max) if isinstance(a_max, np.ndarray) else a_max
        same_outcome(lambda: np.clip(x, a_min, a_max), lambda: tp.clip(t, ta_min, ta_max),
                     "clip")


# --------------------------------------------------------------------------------------------
# nan_to_num


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_nan_to_num(device, dtype):
    x = with_specials(dtype)
    t = tp.array(x)
    same_outcome(lambda: np.nan_to_num(x), lambda: tp.nan_to_num(t), "nan_to_num")
    for kwargs in ({"nan": 5.0}, {"posinf": 1e3, "neginf": -1e3}, {"nan": -1, "posinf": 7},
                   {"neginf": 0}, {"nan": np.nan}, {"posinf": np.inf, "neginf": -np.inf},
                   {"nan": 1e6}, {"nan": 2.5, "posinf": 100.25, "neginf": -100.25}):
        same_outcome(lambda: np.nan_to_num(x, **kwargs), lambda: tp.nan_to_num(t, **kwargs),
                     "nan_to_num")
    got = tp.nan_to_num(t)
    assert got is not t
    assert_same(t, x)  # the input is left alone


@pytest.mark.parametrize("dtype", [np.float16, np.float64, np.complex64, np.int32, np.bool_],
                         ids=dtype_id)
def test_nan_to_num_copy_false(device, dtype):
    """copy=False replaces in place and returns the same array (as NumPy does)."""
    x = with_specials(dtype)
    t = tp.array(x)
    ptr = t.data_ptr
    expected = np.nan_to_num(x, copy=False, nan=3.0, posinf=4.0)
    got = tp.nan_to_num(t, copy=False, nan=3.0, posinf=4.0)
    assert got is t and t.data_ptr == ptr
    assert_same(t, expected)
    assert_same(t, x)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_nan_to_num_layouts(device, layout):
    t, n = make_pair(layout, np.float64)
    with np.errstate(all="ignore"):
        n_special = np.log(n)  # nan for negative values, -inf for zeros
    t_special = tp.array(n_special)
    same_outcome(lambda: np.nan_to_num(n), lambda: tp.nan_to_num(t), "nan_to_num",
                 assert_same_layout)
    same_outcome(lambda: np.nan_to_num(n_special), lambda: tp.nan_to_num(t_special),
                 "nan_to_num")


def test_nan_to_num_scalars_and_lists(device):
    for value in (np.nan, np.inf, -np.inf, 1.5, 3, True, complex(np.nan, np.inf),
                  [1.0, np.nan, -np.inf], np.float32(np.inf), np.array(np.nan)):
        got = same_for_value(np.nan_to_num, tp.nan_to_num, value, "nan_to_num")
        assert got is None or isinstance(got, tp.ndarray)


# --------------------------------------------------------------------------------------------
# isclose, allclose, array_equal, array_equiv


ISCLOSE_DTYPES = [(np.float64, np.float64), (np.float32, np.float32), (np.float16, np.float16),
                  (np.complex128, np.complex128), (np.complex64, np.float32),
                  (np.int32, np.int32), (np.uint8, np.uint8), (np.bool_, np.bool_),
                  (np.int64, np.float32), (np.uint64, np.int8), (np.float32, np.float64)]
TOLERANCES = [{}, {"rtol": 0, "atol": 0}, {"rtol": 0.1}, {"atol": 1.0}, {"rtol": 1e-3, "atol": 0},
              {"equal_nan": True}, {"rtol": 0.5, "atol": 0.5, "equal_nan": True}]


def close_pair(d1, d2, seed=0):
    x = with_specials(d1, (4, 5), seed)
    y = x.astype(d2) if np.can_cast(d1, d2, "same_kind") else sample((4, 5), d2, seed)
    y = np.array(y)
    if y.dtype.kind in "fc":
        with np.errstate(all="ignore"):
            y[1] = y[1] * (1 + 1e-6)
            y[2] = y[2] + 1e-9
            y[3] = y[3] * 1.05
    elif y.dtype.kind in "iu":
        y[1] = y[1] + 1
    return x, y


@pytest.mark.parametrize("dtypes", ISCLOSE_DTYPES, ids=lambda p: "-".join(map(dtype_id, p)))
def test_isclose(device, dtypes):
    x, y = close_pair(*dtypes)
    tx, ty = tp.array(x), tp.array(y)
    for kwargs in TOLERANCES:
        same_outcome(lambda: np.isclose(x, y, **kwargs), lambda: tp.isclose(tx, ty, **kwargs),
                     "isclose")
        same_outcome(lambda: np.isclose(y, x, **kwargs), lambda: tp.isclose(ty, tx, **kwargs),
                     "isclose")
        same_outcome(lambda: np.isclose(x, y[0], **kwargs),
                     lambda: tp.isclose(tx, ty[0], **kwargs), "isclose")
        # a NumPy operand beside a tessera array: NumPy's result on the CPU, refused on CUDA
        same_or_refused(lambda: np.isclose(x, y, **kwargs), lambda: tp.isclose(tx, y, **kwargs),
                        "isclose")


def test_isclose_positional_tolerances(device):
    x, y = close_pair(np.float64, np.float64)
    tx, ty = tp.array(x), tp.array(y)
    same_outcome(lambda: np.isclose(x, y, 0.1, 0.01, True),
                 lambda: tp.isclose(tx, ty, 0.1, 0.01, True), "isclose")


def test_isclose_scalars(device):
    """Python scalars are weak: isclose(float32 array, 0.1) compares in float32."""
    x = np.array([0.1, 0.1 + 1e-9, 0.3, np.nan, np.inf, 1e-8, 0.0], np.float32)
    t = tp.array(x)
    for other in (0.1, 0, 1, np.inf, -np.inf, np.nan, 1e-8, np.float64(0.1), np.float32(0.1),
                  0.3, 1 + 0j, True):
        for kwargs in ({}, {"rtol": 0, "atol": 0}, {"rtol": 0, "atol": 1e-9}, {"equal_nan": True}):
            same_outcome(lambda: np.isclose(x, other, **kwargs),
                         lambda: tp.isclose(t, other, **kwargs), "isclose")
            same_outcome(lambda: np.isclose(other, x, **kwargs),
                         lambda: tp.isclose(other, t, **kwargs), "isclose")
    # scalars only: a 0-d tessera array
    got = same_outcome(lambda: np.isclose(1.0, 1.0 + 1e-9), lambda: tp.isclose(1.0, 1.0 + 1e-9),
                       "isclose")
    assert isinstance(got, tp.ndarray) and got.ndim == 0


def test_isclose_integers(device):
    """Unsigned differences do not wrap; the most negative integer does not overflow."""
    for dtype in (np.uint8, np.uint64, np.int8, np.int64):
        info = np.iinfo(dtype)
        x = np.array([0, 1, info.max, info.min, 5], dtype)
        y = np.array([1, 0, info.min, info.max, 5], dtype)
        for kwargs in ({}, {"atol": 1}, {"rtol": 0, "atol": 0}):
            same_outcome(lambda: np.isclose(x, y, **kwargs),
                         lambda: tp.isclose(tp.array(x), tp.array(y), **kwargs), "isclose")


@pytest.mark.parametrize("layout", LAYOUTS)
def test_isclose_layouts(device, layout):
    t, n = make_pair(layout, np.float64)
    t2, n2 = make_pair(layout, np.float64, seed=1)
    same_outcome(lambda: np.isclose(n, n2, atol=5), lambda: tp.isclose(t, t2, atol=5), "isclose")
    same_outcome(lambda: np.isclose(n, n), lambda: tp.isclose(t, t), "isclose")


def test_isclose_array_tolerances(device):
    x, y = close_pair(np.float64, np.float64)
    rtol = np.linspace(0, 0.1, 5)
    # NumPy arrays as tolerances: NumPy's result on the CPU, refused on CUDA; as tessera
    # arrays, NumPy's result on every device
    same_or_refused(lambda: np.isclose(x, y, rtol=rtol),
                    lambda: tp.isclose(tp.array(x), tp.array(y), rtol=rtol), "isclose")
    same_or_refused(lambda: np.isclose(x, y, atol=rtol[:, None].T),
                    lambda: tp.isclose(tp.array(x), tp.array(y), atol=rtol[:, None].T), "isclose")
    trtol = tp.asarray(rtol)
    same_outcome(lambda: np.isclose(x, y, rtol=rtol),
                 lambda: tp.isclose(tp.array(x), tp.array(y), rtol=trtol), "isclose")
    same_outcome(lambda: np.isclose(x, y, atol=rtol[:, None].T),
                 lambda: tp.isclose(tp.array(x), tp.array(y), atol=trtol[:, None].T), "isclose")


def test_isclose_errors(device):
    x = sample((3,), np.float64)
    same_outcome(lambda: np.isclose(x, np.ones(4)),
                 lambda: tp.isclose(tp.array(x), tp.ones(4)), "isclose")


def assert_bool(got, expected):
    assert type(got) is bool, f"expected a Python bool, got {type(got).__name__}"
    assert got == expected


@pytest.mark.parametrize("dtypes", ISCLOSE_DTYPES, ids=lambda p: "-".join(map(dtype_id, p)))
def test_allclose(device, dtypes):
    x, y = close_pair(*dtypes)
    tx, ty = tp.array(x), tp.array(y)
    for kwargs in TOLERANCES:
        for rows in (slice(None), slice(0, 1), slice(1, 2), slice(2, 3), slice(4, 4)):
            same_outcome(lambda: np.allclose(x[rows], y[rows], **kwargs),
                         lambda: tp.allclose(tx[rows], ty[rows], **kwargs), "allclose",
                         assert_bool)
    same_outcome(lambda: np.allclose(x, 0.0), lambda: tp.allclose(tx, 0.0), "allclose",
                 assert_bool)
    same_or_refused(lambda: np.allclose(x, x), lambda: tp.allclose(tx, x), "allclose",
                    assert_bool)
    same_outcome(lambda: np.allclose(x, x), lambda: tp.allclose(tx, tp.asarray(x)), "allclose",
                 assert_bool)
    same_outcome(lambda: np.allclose(x, np.ones(3)), lambda: tp.allclose(tx, tp.ones(3)),
                 "allclose", assert_bool)


ARRAYS_EQUAL = [
    ([1, 2, 3], [1, 2, 3]), ([1, 2, 3], [1, 2, 4]), ([1, 2, 3], [1, 2]), ([1, 2], [[1, 2]]),
    ([[1, 2], [1, 2]], [1, 2]), ([1.0, np.nan], [1.0, np.nan]), ([], []), ([[]], []),
    (1, 1), (1, 1.0), (0.0, -0.0), (np.nan, np.nan), ([1 + np.nan * 1j], [1 + np.nan * 1j]),
    ([complex(np.nan, 1)], [complex(1, np.nan)]), ([True, False], [1, 0]), ([1, 2], [1.0, 2.0]),
    ([[1, 2, 3]] * 2, [[1, 2, 3]] * 3), ([2**63], [2**63]), ([np.inf], [np.inf]),
    ([1, 2], (1, 2)), ([1, 2], [3, 4, 5]),
]


@pytest.mark.parametrize("pair", ARRAYS_EQUAL, ids=_ids)
def test_array_equal_and_equiv(device, pair):
    a, b = pair
    for ta, tb in ((tp.asarray(a), tp.asarray(b)), (tp.asarray(a), b), (a, tp.asarray(b)),
                   (np.asarray(a), tp.asarray(b))):
        # NumPy data (lists, NumPy arrays, 0-d ones included) beside a tessera array: NumPy's
        # result on the CPU, refused on CUDA; Python scalars: NumPy's result everywhere
        same = same_or_refused if is_host_data(ta) or is_host_data(tb) else same_outcome
        same(lambda: np.array_equal(a, b), lambda: tp.array_equal(ta, tb),
             "array_equal", assert_bool)
        same(lambda: np.array_equal(a, b, equal_nan=True),
             lambda: tp.array_equal(ta, tb, equal_nan=True), "array_equal", assert_bool)
        same(lambda: np.array_equiv(a, b), lambda: tp.array_equiv(ta, tb),
             "array_equiv", assert_bool)


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.complex128, np.bool_], ids=dtype_id)
def test_array_equal_layouts(device, layout, dtype):
    t, n = make_pair(layout, dtype)
    t2, n2 = make_pair(layout, dtype, seed=1)
    copy = tp.array(n)
    for a, b, na, nb in ((t, copy, n, n), (t, t2, n, n2), (t, t, n, n)):
        for equal_nan in (False, True):
            assert_bool(tp.array_equal(a, b, equal_nan=equal_nan),
                        np.array_equal(na, nb, equal_nan=equal_nan))
        assert_bool(tp.array_equiv(a, b), np.array_equiv(na, nb))
        assert_bool(tp.allclose(a, b), np.allclose(na, nb))


# --------------------------------------------------------------------------------------------
# round / around, fix


ROUND_VALUES = [0.5, 1.5, 2.5, -0.5, -2.5, 0.125, 0.135, 1.005, 2.675, -0.4, 1234.5678,
                -98765.4321, 1e-5, 5e-324, 1e300, 12345678.9, np.nan, np.inf, -np.inf, -0.0,
                0.045, 15.0, 25.0, 35.0, -150.0]


@pytest.mark.parametrize("decimals", [0, 1, 2, 3, 5, 10, -1, -2, -3, 400, -400], ids=_ids)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_round(device, dtype, decimals):
    dtype = np.dtype(dtype)
    if dtype.kind in "fc":
        with np.errstate(all="ignore"):
            x = np.array(ROUND_VALUES, dtype=dtype)
            if dtype.kind == "c":
                x = x + 1j * np.array(ROUND_VALUES[::-1], dtype=dtype)
    elif dtype.kind in "iu":
        info = np.iinfo(dtype)
        x = [0, 5, 15, 25, 35, 45, 99, min(info.max, 125), min(info.max, 1234)]
        if dtype.itemsize <= 2:  # rounding the extremes wraps around (wider types: undefined)
            x += [info.max, info.max - 5, info.min, info.min + 5]
        x = np.array(x, dtype=dtype)
        if dtype.kind == "i":
            x = np.concatenate([x, np.array([-5, -15, -25, -35, -125], dtype=dtype)])
    else:
        x = np.array([True, False])
    if dtype.kind in "biu" and decimals == -400:
        return  # NumPy casts nan (0 * inf) to the integer type: no defined answer
    t = tp.array(x)
    names = ("round", "around")
    same_outcome(lambda: np.round(x, decimals), lambda: tp.round(t, decimals), names)
    same_outcome(lambda: np.around(x, decimals), lambda: tp.around(t, decimals), names)
    same_outcome(lambda: x.round(decimals), lambda: t.round(decimals), names)
    same_outcome(lambda: np.round(x, decimals=decimals), lambda: tp.round(t, decimals=decimals),
                 names)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_round_layouts(device, layout):
    t, n = make_pair(layout, np.float64)
    same_outcome(lambda: np.round(n), lambda: tp.round(t), "round", assert_same_layout)
    same_outcome(lambda: np.round(n, 1), lambda: tp.round(t, 1), "round", assert_same_layout)
    same_outcome(lambda: n.round(-1), lambda: t.round(-1), "round", assert_same_layout)


def test_round_out_and_errors(device):
    x = sample((3, 4), np.float64) * 10
    t = tp.array(x)
    out, nout = tp.zeros((3, 4)), np.zeros((3, 4))
    assert tp.round(t, 1, out) is out
    np.round(x, 1, nout)
    assert_same(out, nout)
    assert tp.around(t, -1, out=out) is out
    np.around(x, -1, out=nout)
    assert_same(out, nout)
    assert t.round(2, out=out) is out
    x.round(2, out=nout)
    assert_same(out, nout)
    names = ("round", "around")
    for out_dtype in (np.float32, np.int64, np.complex128):
        same_outcome(lambda: np.round(x, 1, out=np.zeros((3, 4), out_dtype)),
                     lambda: tp.round(t, 1, out=tp.zeros((3, 4), out_dtype)), names)
    same_outcome(lambda: np.round(x, 1, out=np.zeros(4)),
                 lambda: tp.round(t, 1, out=tp.zeros(4)), names)
    for decimals in (1.5, "1", None):
        same_outcome(lambda: np.round(x, decimals), lambda: tp.round(t, decimals), names)


def test_round_scalars_and_lists(device):
    for value in (2.5, 3, -1.25, [1.55, 2.45], True, np.float32(1.25), 1 + 2.5j):
        got = same_for_value(lambda v: np.round(v, 1), lambda v: tp.round(v, 1), value,
                             ("round", "around"))
        assert got is None or isinstance(got, tp.ndarray)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_fix(device, dtype):
    x = with_specials(dtype, (3, 4))
    if np.dtype(dtype).kind == "f":
        x.reshape(-1)[-3:] = np.array([-0.5, 0.5, -2.7]).astype(dtype)
    t = tp.array(x)
    same_outcome(lambda: np.fix(x), lambda: tp.fix(t), "fix")
    out_dtype = dtype if np.dtype(dtype).kind != "b" else np.float32
    same_outcome(lambda: np.fix(x, out=np.zeros((3, 4), out_dtype)),
                 lambda: tp.fix(t, out=tp.zeros((3, 4), out_dtype)), "fix")


def test_fix_layouts_and_scalars(device):
    for layout in LAYOUTS:
        t, n = make_pair(layout, np.float32)
        same_outcome(lambda: np.fix(n), lambda: tp.fix(t), "fix", assert_same_layout)
    for value in (-2.5, 2.5, -0.5, 3):
        same_outcome(lambda: np.fix(value), lambda: tp.fix(value), "fix")
    same_for_value(np.fix, tp.fix, [1.5, -1.5], "fix")
    out = tp.zeros(3)
    assert tp.fix(tp.array([1.5, -1.5, 2.0]), out=out) is out
    assert_same(out, np.fix(np.array([1.5, -1.5, 2.0])))


# --------------------------------------------------------------------------------------------
# real, imag, angle


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_real_imag(device, dtype):
    x = with_specials(dtype, (3, 4))
    t = tp.array(x)
    same_outcome(lambda: np.real(x), lambda: tp.real(t), "real")
    same_outcome(lambda: np.imag(x), lambda: tp.imag(t), "imag")
    real = tp.real(t)
    assert shares(real, t), "real() must be a view"
    if np.dtype(dtype).kind == "c":
        imag = tp.imag(t)
        assert shares(imag, t), "imag() must be a view"
        # writes through the views reach the array, as in NumPy
        x = x.copy()
        real[0, 0] = 42
        imag[1, 1] = -42
        np.real(x)[0, 0] = 42
        np.imag(x)[1, 1] = -42
        assert_same(t, x)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_real_imag_layouts(device, layout):
    t, n = make_pair(layout, np.complex64)
    same_outcome(lambda: np.real(n), lambda: tp.real(t), "real", assert_same_layout)
    same_outcome(lambda: np.imag(n), lambda: tp.imag(t), "imag", assert_same_layout)


def test_real_imag_scalars_and_lists(device):
    for value in (1 + 2j, 3.5, 7, [1 + 1j, 2], np.complex64(2 - 3j), np.float32(2)):
        for name in ("real", "imag"):
            got = same_for_value(getattr(np, name), getattr(tp, name), value, name)
            assert got is None or isinstance(got, tp.ndarray)


@pytest.mark.parametrize("deg", [False, True])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_angle(device, dtype, deg):
    x = with_specials(dtype, (3, 4))
    if np.dtype(dtype).kind == "c":
        x.reshape(-1)[-4:] = np.array([-1 + 0j, complex(-1, -0.0), complex(-0.0, 0), 0j])
    t = tp.array(x)
    same_outcome(lambda: np.angle(x, deg), lambda: tp.angle(t, deg), "angle", assert_close)
    same_outcome(lambda: np.angle(x, deg=deg), lambda: tp.angle(t, deg=deg), "angle",
                 assert_close)


def test_angle_layouts_and_scalars(device):
    for layout in LAYOUTS:
        t, n = make_pair(layout, np.complex128)
        got = same_outcome(lambda: np.angle(n), lambda: tp.angle(t), "angle", assert_close)
        if n.size:
            assert layout_of(got) == layout_of(np.angle(n))
    for value in (-1, 1j, -1 - 0j, complex(-1, -0.0), -0.0, [1, -1j], np.float32(-2)):
        got = same_for_value(np.angle, tp.angle, value, "angle", assert_close)
        assert got is None or isinstance(got, tp.ndarray)


# --------------------------------------------------------------------------------------------
# astype: casting=, copy=, order=


CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]


def cast_source(dtype):
    """Values every dtype can hold after an unsafe cast without undefined behaviour (no
    negative or out-of-range floats into integers)."""
    x = sample((3, 4), dtype)
    if np.dtype(dtype).kind in "iufc":
        x = np.abs(x)
    return np.array(x)


@pytest.mark.parametrize("casting", CASTINGS)
@pytest.mark.parametrize("src", ALL_DTYPES, ids=dtype_id)
def test_astype_casting(device, src, casting):
    x = cast_source(src)
    t = tp.array(x)
    for dst in ALL_DTYPES:
        same_outcome(lambda: x.astype(dst, casting=casting), lambda: t.astype(dst, casting=casting),
                     "astype")
        same_outcome(lambda: x.astype(dst, casting=casting, copy=False),
                     lambda: t.astype(dst, casting=casting, copy=False), "astype")


def test_astype_casting_invalid(device):
    x = sample((3,), np.float64)
    t = tp.array(x)
    for casting in ("bogus", "Safe", None, 3):
        same_outcome(lambda: x.astype(np.int32, casting=casting),
                     lambda: t.astype(np.int32, casting=casting), "astype")


@pytest.mark.parametrize("dtype", ["f4", "float32", np.float32, float, int, bool, complex,
                                   np.dtype("u2"), "<i8", "c8", "?"], ids=str)
def test_astype_dtype_forms(device, dtype):
    x = cast_source(np.float64)
    t = tp.array(x)
    same_outcome(lambda: x.astype(dtype), lambda: t.astype(dtype), "astype")
    same_outcome(lambda: x.astype(dtype, casting="same_kind"),
                 lambda: t.astype(dtype, casting="same_kind"), "astype")


@pytest.mark.parametrize("layout", LAYOUTS)
def test_astype_copy(device, layout):
    """copy=False returns the array itself when neither dtype nor layout changes; otherwise,
    and always with copy=True, a new array that shares nothing."""
    t, n = make_pair(layout, np.int32)
    for dtype in (np.int32, np.int64, np.float32):
        for order in ("K", "A", "C", "F"):
            expected = n.astype(dtype, order=order, copy=False)
            got = t.astype(dtype, order=order, copy=False)
            assert (got is t) == (expected is n), \
                f"copy=False, {np.dtype(dtype)}, order={order}: NumPy returns " + \
                ("the array" if expected is n else "a copy")
            assert_same_layout(got, expected)
            got = t.astype(dtype, order=order)
            expected = n.astype(dtype, order=order)
            assert got is not t
            assert_same_layout(got, expected)
            if got.size:
                assert not shares(got, t)


def test_astype_result_independent(device):
    n = np.arange(6.0)
    t = tp.array(n)
    c = t.astype(np.float64)
    c[0] = 100
    assert_same(t, n)
    v = t.astype(np.float64, copy=False)
    assert v is t


def test_astype_unsupported_keywords(device):
    x = sample((3,), np.float64)
    t = tp.array(x)
    same_outcome(lambda: x.astype(np.int32, order="X"), lambda: t.astype(np.int32, order="X"),
                 "astype")
    same_outcome(lambda: x.astype(), lambda: t.astype(), "astype", signature=True)
    same_outcome(lambda: x.astype(np.int32, foo=1), lambda: t.astype(np.int32, foo=1), "astype",
                 signature=True)


# --------------------------------------------------------------------------------------------
# conj / conjugate methods


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_conj_methods(device, dtype):
    x = with_specials(dtype)
    t = tp.array(x)
    same_outcome(lambda: x.conj(), lambda: t.conj(), ("conj", "conjugate"))
    same_outcome(lambda: x.conjugate(), lambda: t.conjugate(), ("conj", "conjugate"))
    same_outcome(lambda: np.conj(x), lambda: tp.conj(t), ("conj", "conjugate"))


@pytest.mark.parametrize("layout", LAYOUTS)
def test_conj_layouts(device, layout):
    t, n = make_pair(layout, np.complex128)
    same_outcome(lambda: n.conj(), lambda: t.conj(), "conj", assert_same_layout)
    got = t.conjugate()
    assert got is not t
    if got.size:
        assert not shares(got, t)
