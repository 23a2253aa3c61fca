"""Python's operators on tessera arrays: binary (+ - * / // % ** divmod & | ^ << >>), the
comparisons, unary (- + ~ abs), their reflected forms (1 - t, np_scalar * t, np_array + t)
and their in-place forms (+= ... >>=, which write into the same array under NumPy's
same_kind casting), checked against the same expressions on NumPy arrays."""

import operator
import warnings

import numpy as np
import pytest

import tessera as tp

from conftest import ALL_DTYPES, assert_same, sample
from oracle import (PAIR_LAYOUTS, assert_refuses_host_data, compact_id as _ids, is_host_data,
                    make, make_pair, message_of, numpy_result, public_type, refuses_host_data)
from ufunc_oracle import (assert_close, caller_context, layout_of, outcome_like_numpy,
                          power_condition, raised_by, scalar_id)

# --------------------------------------------------------------------------------------------
# helpers

BINARY = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "divmod": divmod,
    "&": operator.and_, "|": operator.or_, "^": operator.xor, "<<": operator.lshift,
    ">>": operator.rshift,
}
COMPARISONS = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
}
ALL_BINARY = {**BINARY, **COMPARISONS}
INPLACE = {
    "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv,
    "//=": operator.ifloordiv, "%=": operator.imod, "**=": operator.ipow,
    "&=": operator.iand, "|=": operator.ior, "^=": operator.ixor, "<<=": operator.ilshift,
    ">>=": operator.irshift,
}
UNARY = {"-": operator.neg, "+": operator.pos, "~": operator.invert, "abs": abs}


def is_exact(symbol, dtype):
    """Whether NumPy's result is exact: not for powers, nor for complex products, quotients
    and magnitudes (NumPy's own depend on the memory layout: SIMD loops with fused
    multiply-adds for contiguous data)."""
    return not (symbol in ("**", "**=") or (symbol in ("*", "*=", "/", "/=", "abs")
                                            and np.dtype(dtype).kind == "c"))


def assert_result(got, expected, exact=True, condition=1.0):
    __tracebackhide__ = True

    def check(g, e):
        if exact:
            assert_same(g, e)
        else:
            assert_close(g, e, condition=condition)

    if isinstance(expected, tuple):
        assert isinstance(got, tuple) and len(got) == len(expected), f"got {got!r}"
        for g, e in zip(got, expected):
            check(g, e)
    else:
        check(got, expected)


def assert_raises_as(error, tp_call, prefix=True):
    """tessera raises NumPy's exception type (that of `error`); with the "[name]" prefix
    unless the error is Python's own (an operator that returned NotImplemented)."""
    __tracebackhide__ = True
    got = raised_by(tp_call, error)
    expected = public_type(error)
    assert isinstance(got, expected), (
        f"NumPy raises {expected.__name__}({error}), tessera raises "
        f"{type(got).__name__}({got})")
    if prefix:
        assert message_of(got).startswith("["), \
            f"message lacks the API prefix: {message_of(got)!r}"


def same_outcome(np_call, tp_call, exact=True, prefix=True, condition=1.0):
    """tessera's result equals NumPy's, or both raise alike."""
    __tracebackhide__ = True
    return outcome_like_numpy(
        np_call, tp_call, lambda got, expected: assert_result(got, expected, exact, condition),
        lambda error, call: assert_raises_as(error, call, prefix))


def same_or_refused(np_call, tp_call, exact=True):
    """For an operation with NumPy data (a NumPy array, a list) beside a tessera array:
    same_outcome where the device takes host data (the CPU); elsewhere (CUDA, as CuPy)
    TypeError, whatever NumPy does."""
    __tracebackhide__ = True
    if refuses_host_data():
        try:
            assert_refuses_host_data(tp_call)
        except AssertionError as failure:
            raise AssertionError(f"{failure}\n  case: {caller_context()}") from None
        return None
    return same_outcome(np_call, tp_call, exact)


def second_operand(symbol, x, y):
    """Keeps integer exponents and shift counts where NumPy defines them (non-negative and
    below the bit width): those edges are value tests, not operator tests."""
    if symbol.rstrip("=") in ("**", "<<", ">>") and y.dtype.kind in "iu" \
            and x.dtype.kind in "biu":
        return (np.abs(y) % (5 if symbol.startswith("**") else 8)).astype(y.dtype)
    return y


SAME = [np.dtype(d) for d in ALL_DTYPES]
MIXED = [(np.int8, np.uint8), (np.int16, np.float16), (np.uint64, np.int64), (np.int32, np.float32),
         (np.float16, np.float32), (np.float32, np.complex64), (np.float64, np.complex64),
         (np.bool_, np.int8), (np.bool_, np.float16), (np.uint32, np.float32),
         (np.int64, np.complex128), (np.uint16, np.int32), (np.uint8, np.bool_)]
PAIRS = [(d, d) for d in SAME] + [(np.dtype(a), np.dtype(b)) for a, b in MIXED]


# --------------------------------------------------------------------------------------------
# binary operators: every dtype pair, tessera or NumPy arrays on either side


@pytest.mark.parametrize("symbol", list(ALL_BINARY))
def test_binary_operator(device, symbol):
    op = ALL_BINARY[symbol]
    for d1, d2 in PAIRS:
        exact = is_exact(symbol, d1) and is_exact(symbol, d2)
        for x, y in ((sample((3, 4), d1, 1), sample((3, 4), d2, 2)),
                     (sample((3, 4), d1, 1), sample((4,), d2, 2)),
                     (sample((2, 1, 3), d2, 3), sample((4, 1), d1, 4))):
            y = second_operand(symbol, x, y)
            tx, ty = tp.array(x), tp.array(y)
            same_outcome(lambda: op(x, y), lambda: op(tx, ty), exact)
            same_or_refused(lambda: op(x, y), lambda: op(tx, y), exact)   # NumPy array right
            same_or_refused(lambda: op(x, y), lambda: op(x, ty), exact)   # NumPy array left
            same_or_refused(lambda: op(x, y.tolist()), lambda: op(tx, y.tolist()), exact)
            same_or_refused(lambda: op(x.tolist(), y), lambda: op(x.tolist(), ty), exact)


PY_SCALARS = [0, 3, -2, 100, 300, -129, 2**63, 1.5, -0.0, float("inf"), float("nan"), 2j,
              True, False]
NP_SCALARS = [np.int8(-3), np.uint8(5), np.int64(7), np.uint64(3), np.float16(1.5),
              np.float32(-2.5), np.float64(0.5), np.complex64(1 - 1j), np.bool_(True)]
SCALAR_OPERAND_DTYPES = (np.bool_, np.int8, np.uint8, np.int64, np.float16, np.float32,
                         np.complex128)


@pytest.mark.parametrize("scalar", PY_SCALARS + NP_SCALARS, ids=scalar_id)
def test_scalar_operands(device, scalar):
    """Python scalars are weak (NEP 50), NumPy scalars strong; on either side of each
    operator (t + 1, 1 + t, np.float32(2) * t). A NumPy scalar left of a comparison:
    test_numpy_scalar_left_of_comparison."""
    for dtype in SCALAR_OPERAND_DTYPES:
        x = sample((2, 3), dtype)
        t = tp.array(x)
        for symbol, op in ALL_BINARY.items():
            exact = is_exact(symbol, dtype) and is_exact(symbol, np.asarray(scalar).dtype)
            powers = symbol == "**"
            same_outcome(lambda: op(x, scalar), lambda: op(t, scalar), exact,
                         condition=power_condition(x, scalar) if powers else 1.0)
            if not (symbol in COMPARISONS and isinstance(scalar, np.generic)):
                same_outcome(lambda: op(scalar, x), lambda: op(scalar, t), exact,
                             condition=power_condition(scalar, x) if powers else 1.0)


@pytest.mark.parametrize("scalar", NP_SCALARS, ids=scalar_id)
def test_numpy_scalar_left_of_comparison(device, scalar):
    """np.float32(2) < t: NumPy passes the scalar to tessera as a 0-d NumPy array
    (numpy#12142), which is still a scalar, taken on every device (as CuPy does since
    cupy#1694); the result is a tessera array on the device."""
    for dtype in SCALAR_OPERAND_DTYPES:
        x = sample((2, 3), dtype)
        t = tp.array(x)
        for op in COMPARISONS.values():
            got = same_outcome(lambda: op(scalar, x), lambda: op(scalar, t))
            assert got is None or got.device == device
    n0 = tp.array(np.float64(2.0))
    got = scalar < n0
    assert isinstance(got, tp.ndarray) and got.device == device


@pytest.mark.parametrize("layout", list(PAIR_LAYOUTS))
def test_operator_layouts(device, layout):
    """Operators on every operand layout: values and NumPy's result layout."""
    t, n = make_pair(layout, np.int32)
    t2, n2 = make_pair(layout, np.int32, seed=3)
    results = [(t + t2, n + n2), (t * 2, n * 2), (3 - t, 3 - n), (-t, -n), (t < t2, n < n2),
               (t // 3, n // 3), (abs(t), abs(n)), (t ** 2, n ** 2), (~t, ~n),
               (t.T + 1, n.T + 1), (t & t2, n & n2)]
    for got, expected in results:
        assert_same(got, expected)
        if expected.size:
            assert layout_of(got) == layout_of(np.asarray(expected)), \
                f"strides {got.strides} != NumPy's {np.asarray(expected).strides}"


@pytest.mark.parametrize("shapes", [((), ()), ((0,), ()), ((0, 3), (3,)), ((2, 0), (2, 1)),
                                    ((3, 1), (1, 4)), ((1,), (5,))], ids=_ids)
def test_operator_shapes(device, shapes):
    x, y = (sample(s, np.float64, seed=i) for i, s in enumerate(shapes))
    tx, ty = tp.array(x), tp.array(y)
    for symbol, op in ALL_BINARY.items():
        if symbol in ("&", "|", "^", "<<", ">>"):
            continue
        same_outcome(lambda: op(x, y), lambda: op(tx, ty))
        same_outcome(lambda: op(y, x), lambda: op(ty, tx))


@pytest.mark.parametrize("shapes", [((3,), (4,)), ((2, 3), (3, 2)), ((2, 0), (3,))], ids=_ids)
def test_operator_shape_mismatch(device, shapes):
    x, y = (sample(s, np.int16, seed=i) for i, s in enumerate(shapes))
    tx, ty = tp.array(x), tp.array(y)
    for op in ALL_BINARY.values():
        same_outcome(lambda: op(x, y), lambda: op(tx, ty))
        same_or_refused(lambda: op(x, y), lambda: op(tx, y))


def test_results_are_tessera(device):
    """(np.int8(1) < n0: test_numpy_scalar_left_of_comparison.)"""
    t = tp.array(sample((3,), np.float32))
    n0 = tp.array(np.float64(2.0))
    for got in (t + 1, 1 + t, np.float32(2) * t, t == 1, 2 ** t, n0 + 1, 1 - n0,
                np.int8(1) + n0, divmod(t, 2)[0], divmod(5, t)[1], -n0, np.float64(3) / n0):
        assert isinstance(got, tp.ndarray), type(got)
        assert got.device == device
    for host_call in (lambda: np.arange(3) + t, lambda: [1, 2, 3] - t):
        if refuses_host_data():
            assert_refuses_host_data(host_call)
        else:
            got = host_call()
            assert isinstance(got, tp.ndarray) and got.device == device


def test_divmod_builtin(device):
    x = sample((3, 4), np.float64)
    y = sample((4,), np.int16, 1)
    t = tp.array(x)
    for args_np, args_tp in [((x, y), (t, tp.array(y))), ((x, 3), (t, 3)), ((7, x), (7, t)),
                             ((np.int8(7), x), (np.int8(7), t)), ((x, y), (t, y)),
                             ((y, x), (y, t))]:
        if refuses_host_data() and any(map(is_host_data, args_tp)):
            assert_refuses_host_data(lambda: divmod(*args_tp))
            continue
        got = divmod(*args_tp)
        assert type(got) is tuple and len(got) == 2
        assert_result(got, divmod(*args_np))


def test_pow_with_modulo(device):
    """pow(t, 2, 5) is no NumPy operation: TypeError (Python's own message)."""
    n = np.arange(4)
    expected, error = numpy_result(lambda: pow(n, 2, 5))
    assert_raises_as(error, lambda: pow(tp.array(n), 2, 5), prefix=False)


# --------------------------------------------------------------------------------------------
# unary operators


@pytest.mark.parametrize("symbol", list(UNARY))
def test_unary_operator(device, symbol):
    op = UNARY[symbol]
    for dtype in ALL_DTYPES:
        for layout in ("0d", "c2d", "negative", "broadcast", "empty"):
            t, n = make_pair(layout, dtype)
            got = same_outcome(lambda: op(n), lambda: op(t), is_exact(symbol, dtype))
            if got is not None and n.size:
                assert layout_of(got) == layout_of(np.asarray(op(n)))


@pytest.mark.parametrize("value", [np.iinfo(np.int8).min, np.iinfo(np.int64).min, 0],
                         ids=_ids)
def test_unary_integer_edges(device, value):
    for dtype in (np.int8, np.int16, np.int32, np.int64):
        if value < np.iinfo(dtype).min:
            continue
        n = np.array([value, -1, 1], dtype)
        t = tp.array(n)
        for op in UNARY.values():
            same_outcome(lambda: op(n), lambda: op(t))
    n = np.array([0, 1, 255], np.uint8)
    for op in UNARY.values():
        same_outcome(lambda: op(n), lambda: op(tp.array(n)))


def test_bool_arithmetic(device):
    """Booleans: + and * work (or, and), - and unary - raise TypeError, ~ is not."""
    x, y = sample((6,), np.bool_, 1), sample((6,), np.bool_, 2)
    tx, ty = tp.array(x), tp.array(y)
    for op in (operator.add, operator.mul, operator.sub, operator.truediv, operator.floordiv,
               operator.mod, operator.pow, operator.and_, operator.or_, operator.xor,
               operator.lshift, operator.lt):
        same_outcome(lambda: op(x, y), lambda: op(tx, ty))
        same_outcome(lambda: op(x, True), lambda: op(tx, True))
    for op in (operator.neg, operator.pos, operator.invert, abs):
        same_outcome(lambda: op(x), lambda: op(tx))
    with pytest.raises(TypeError):
        tx - ty
    with pytest.raises(TypeError):
        -tx
    with pytest.raises(TypeError):
        tx -= ty
    assert_same(tx, x)


# --------------------------------------------------------------------------------------------
# in-place operators


def _same_inplace(symbol, n, t, other_np, other_tp, exact=True, condition=1.0):
    """`n op= other_np` on a copy of n, and `t op= other_tp`: the same exception, or the
    same values written into the same tessera array object and buffer."""
    __tracebackhide__ = True
    op = INPLACE[symbol]
    expected, error = numpy_result(lambda: op(n.copy(), other_np))
    before = tp.asnumpy(t)
    ptr = t.data_ptr
    if is_host_data(other_tp) and refuses_host_data():  # NumPy data, on CUDA as in CuPy
        assert_refuses_host_data(lambda: op(t, other_tp))
        assert_same(t, before)  # nothing written
        return
    if error is not None:
        assert_raises_as(error, lambda: op(t, other_tp))
        assert_same(t, before)  # nothing written
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = op(t, other_tp)
    assert got is t, "an in-place operator must return the same array"
    assert t.data_ptr == ptr, "an in-place operator must write into the same buffer"
    assert_result(t, expected, exact, condition)

def same_inplace(*args, **kwargs):
    """`n op= other_np` and `t op= other_tp` end alike (see _same_inplace)."""
    __tracebackhide__ = True
    try:
        return _same_inplace(*args, **kwargs)
    except AssertionError as error:
        raise AssertionError(f"{error}\n  case: {caller_context()}") from None


INPLACE_PAIRS = [(d, d) for d in (np.bool_, np.int8, np.uint16, np.int64, np.float16,
                                  np.float32, np.complex128)] + [
    (np.float32, np.float64), (np.int32, np.float64), (np.int8, np.int64), (np.uint8, np.int8),
    (np.float64, np.complex128), (np.complex64, np.float64), (np.bool_, np.int8),
    (np.int16, np.bool_), (np.uint64, np.int64), (np.float16, np.int64), (np.int32, np.uint32),
]


@pytest.mark.parametrize("symbol", list(INPLACE))
def test_inplace_operator(device, symbol):
    for d1, d2 in INPLACE_PAIRS:
        d1, d2 = np.dtype(d1), np.dtype(d2)
        exact = is_exact(symbol, d1) and is_exact(symbol, d2)
        x = sample((3, 4), d1, 1)
        for y in (sample((3, 4), d2, 2), sample((4,), d2, 3), sample((), d2, 4)):
            y = np.asarray(second_operand(symbol, x, np.asarray(y)))
            same_inplace(symbol, x, tp.array(x), y, tp.array(y), exact)  # tessera operand
            same_inplace(symbol, x, tp.array(x), y, y, exact)            # NumPy array operand
            same_inplace(symbol, x, tp.array(x), y.tolist(), y.tolist(), exact)  # list/scalar


@pytest.mark.parametrize("symbol", list(INPLACE))
def test_inplace_scalars(device, symbol):
    for dtype in (np.bool_, np.int8, np.uint8, np.int64, np.float16, np.float32, np.complex64):
        x = sample((2, 3), dtype)
        for scalar in PY_SCALARS + NP_SCALARS:
            exact = is_exact(symbol, dtype) and is_exact(symbol, np.asarray(scalar).dtype)
            condition = power_condition(x, scalar) if symbol == "**=" else 1.0
            same_inplace(symbol, x, tp.array(x), scalar, scalar, exact, condition)


def test_inplace_issue_examples(device):
    """int /= 2 raises TypeError (NumPy's UFuncTypeError); float32 += float64 stays float32."""
    n, t = np.arange(5), tp.arange(5)
    same_inplace("/=", n, t, 2, 2)
    f32 = tp.array(np.arange(5, dtype=np.float32))
    f64 = tp.array(np.linspace(0, 1, 5))
    ptr = f32.data_ptr
    alias = f32
    f32 += f64
    assert f32 is alias and f32.data_ptr == ptr and f32.dtype == np.float32
    assert_same(f32, np.arange(5, dtype=np.float32) + np.linspace(0, 1, 5).astype(np.float32))


@pytest.mark.parametrize("layout", ["contiguous", "fortran", "strided", "negative",
                                    "transposed_negative", "broadcast"])
def test_inplace_layouts(device, layout):
    """In-place operators on views write through to the owner (or raise, on read-only
    broadcast views)."""
    for symbol in ("+=", "*=", "//=", "<<="):
        nbase, tbase, n, t = make((3, 4), np.int64, layout)
        other = sample((4,), np.int64, seed=5) % 3
        op = INPLACE[symbol]
        expected, error = numpy_result(lambda: op(n, other))
        if error is not None:
            assert_raises_as(error, lambda: op(t, tp.array(other)))
            continue
        ptr = t.data_ptr
        got = op(t, tp.array(other))
        assert got is t and t.data_ptr == ptr
        assert_same(t, n)
        assert_same(tbase, nbase)


def test_inplace_broadcasting(device):
    x = sample((3, 4), np.float64)
    t = tp.array(x)
    same_inplace("+=", x, t, np.ones((3, 1)), tp.ones((3, 1)))
    same_inplace("+=", x, t, np.ones((2, 3, 4)), tp.ones((2, 3, 4)))  # output cannot grow
    same_inplace("+=", x, t, np.ones(5), tp.ones(5))
    z = tp.array(np.float32(2.5))
    same_inplace("*=", np.array(np.float32(2.5)), z, 3, 3)
    same_inplace("*=", np.array(np.float32(2.5)), z, np.ones(3), tp.ones(3))
    e = tp.zeros((0, 4))
    same_inplace("-=", np.zeros((0, 4)), e, np.ones(4), tp.ones(4))


def test_inplace_through_getitem(device):
    """t[key] op= v: Python runs getitem, the in-place operator, then setitem."""
    nbase = sample((4, 5), np.int32)
    n, t = nbase.copy(), tp.array(nbase)
    n[1:] += 1
    t[1:] += 1
    assert_same(t, n)
    n[0] *= 3
    t[0] *= 3
    assert_same(t, n)
    n[2, 3] -= 7
    t[2, 3] -= 7
    assert_same(t, n)
    n[:, ::-2] <<= 2
    t[:, ::-2] <<= 2
    assert_same(t, n)
    n[..., 1] //= 2
    t[..., 1] //= 2
    assert_same(t, n)


# --------------------------------------------------------------------------------------------
# interoperability: NumPy objects on the left, objects that take over, unsupported operands


def test_numpy_on_the_left(device):
    x = sample((3, 4), np.float32)
    t = tp.array(x)
    y = sample((3, 4), np.int16, 1)
    for symbol, op in ALL_BINARY.items():
        if symbol in ("&", "|", "^", "<<", ">>"):
            continue
        got = same_or_refused(lambda: op(y, x), lambda: op(y, t), is_exact(symbol, x.dtype))
        assert got is None or isinstance(got, (tp.ndarray, tuple))
        if symbol in COMPARISONS:
            continue  # test_numpy_scalar_left_of_comparison
        for s in (np.float64(1.5), np.int8(-2), np.bool_(True)):
            same_outcome(lambda: op(s, x), lambda: op(s, t), is_exact(symbol, x.dtype))


class TakesOver:
    """An operand that opts out of NumPy's ufuncs: ndarray operators return NotImplemented
    so that Python calls this object's reflected method."""

    __array_ufunc__ = None

    def __radd__(self, other):
        return "radd"

    def __rsub__(self, other):
        return "rsub"

    def __rmul__(self, other):
        return "rmul"

    def __rtruediv__(self, other):
        return "rtruediv"

    def __rpow__(self, other):
        return "rpow"

    def __rand__(self, other):
        return "rand"

    def __gt__(self, other):  # reflected <
        return "gt"

    def __eq__(self, other):
        return "eq"

    __hash__ = None


def test_operand_that_takes_over(device):
    n, t, o = np.arange(3), tp.arange(3), TakesOver()
    for op in (operator.add, operator.sub, operator.mul, operator.truediv, operator.pow,
               operator.and_, operator.lt, operator.eq):
        assert op(t, o) == op(n, o)

    def inplace(x):
        x += o
        return x

    expected, error = numpy_result(lambda: inplace(n))  # NumPy: in-place operators do not defer
    if error is not None:
        with pytest.raises(public_type(error)):
            inplace(t)
    else:
        assert inplace(t) == expected


@pytest.mark.parametrize("other", ["a", None, object(), {1: 2}, b"x"],
                         ids=["str", "None", "object", "dict", "bytes"])
def test_unsupported_operands(device, other):
    """Arithmetic with objects that are no numbers: TypeError, as NumPy's."""
    n, t = np.arange(3.0), tp.arange(3.0)
    for symbol in ("+", "-", "*", "/", "**", "<"):
        op = ALL_BINARY[symbol]
        expected, error = numpy_result(lambda: op(n, other))
        if error is None:
            continue
        assert_raises_as(error, lambda: op(t, other), prefix=False)
        assert_raises_as(error, lambda: op(other, t), prefix=False)
    with pytest.raises(TypeError):
        t += other
    assert_same(t, np.arange(3.0))


def test_hash(device):
    with pytest.raises(TypeError):
        hash(tp.arange(3))
    with pytest.raises(TypeError):
        hash(tp.array(1.0))


def test_truth_of_comparisons(device):
    assert bool(tp.array(1) == 1) is True
    assert bool(tp.array([2]) > 1) is True
    expected, error = numpy_result(lambda: bool(np.arange(3) == 1))
    with pytest.raises(type(error)):
        bool(tp.arange(3) == 1)


def test_operator_errors_name_the_ufunc(device):
    """An operator's error message names the operation (the ufunc, or the operator)."""
    a, b = tp.ones(3), tp.ones(4)
    with pytest.raises(ValueError) as info:
        a + b
    message = message_of(info.value)
    assert message.startswith("[") and ("add" in message or "+" in message), message
    i = tp.arange(3)
    with pytest.raises(TypeError) as info:
        i /= 2
    message = message_of(info.value)
    assert message.startswith("[") and ("divide" in message or "/" in message), message


# --------------------------------------------------------------------------------------------
# the small-array path: arrays of one shape and dtype, contiguous and computed, go straight
# to the op's loop (the per-op latency). Every call form, each twice (the second reads the
# loop cache), must give NumPy's answer; everything else falls through to the general path.

SMALL_CALLS = {
    "a + b": lambda xp, a, b: a + b,
    "add(a, b)": lambda xp, a, b: xp.add(a, b),
    "a < b": lambda xp, a, b: a < b,
    "maximum(a, b)": lambda xp, a, b: xp.maximum(a, b),
    "a // b": lambda xp, a, b: a // b,
    "-a": lambda xp, a, b: -a,
    "sin(a)": lambda xp, a, b: xp.sin(a),
    "isnan(a)": lambda xp, a, b: xp.isnan(a),
    "a ** b": lambda xp, a, b: a ** b,
    "a - b": lambda xp, a, b: a - b,
}
SMALL_DTYPES = ["bool", "int8", "uint16", "int32", "int64", "float16", "float32", "float64",
                "complex128"]


@pytest.mark.parametrize("dtype", SMALL_DTYPES)
@pytest.mark.parametrize("call", SMALL_CALLS)
def test_small_array_path(device, call, dtype):
    values_a = np.array([3, 0, 1], dtype=dtype)
    values_b = np.array([2, 1, 1], dtype=dtype)
    for _ in range(2):
        a, b = tp.array(values_a), tp.array(values_b)
        same_outcome(lambda: SMALL_CALLS[call](np, values_a, values_b),
                     lambda: SMALL_CALLS[call](tp, a, b), exact=call != "sin(a)")


def test_small_array_path_falls_through(device):
    a = np.array([1.5, -2.0, 4.0])
    i = np.array([2, -1, 3])
    # mixed dtypes, strided views, 0-d and broadcast shapes take the general path
    assert_same(tp.array(a) + tp.array(i), a + i)
    assert_same(tp.array(np.arange(6.0))[::2] * tp.array(a), np.arange(6.0)[::2] * a)
    assert_same(tp.array(2.5) * tp.array(4.0), np.array(2.5) * np.array(4.0))
    assert_same(tp.array(a)[::-1] - tp.array(a), a[::-1] - a)
    # checks the general path makes are still made
    with pytest.raises(ValueError, match="negative integer powers"):
        tp.array(i) ** tp.array(i)
    with pytest.raises(TypeError, match="boolean subtract"):
        tp.array([True]) - tp.array([False])
    with pytest.raises(ValueError):
        tp.array(a) + tp.array(a[:2])
    # the result is a new array: writing to an input leaves it alone
    x = tp.array(a)
    y = x + x
    x[0] = 100.0
    assert_same(y, a + a)
