"""The short paths of the calls a loop over small arrays makes (issue 23): reductions and
argmax/argmin called without arguments, empty/zeros/ones bound directly, and keys of plain
ints and slices. Each is held to NumPy, and to tessera's general path where that must give
the same bits: the short paths skip work, never change what is computed."""

import numpy as np
import pytest

import tessera as tp
from conftest import ALL_DTYPES, ENGINE_LAZY_MIN, assert_same, lazy_min_elements, sample
from oracle import assert_raises_like

FOLDINGS = ["sum", "prod", "max", "min", "any", "all"]
@pytest.fixture(autouse=True)
def small_results_computed_at_once():
    # conftest lowers the engine's threshold to 0, which would leave the short paths untried.
    with lazy_min_elements(ENGINE_LAZY_MIN):
        yield
# Around the evaluator's block of 512 values and the reductions' pairwise halving.
SIZES = [1, 2, 3, 7, 8, 9, 100, 511, 512, 513, 1500]


def special_values(dtype, n, seed):
    """sample() with zeros of both signs, and NaN and infinities for float dtypes."""
    values = np.array(sample((n,), dtype, seed))
    if values.dtype.kind in "fc" and n >= 4:
        values[n // 4] = -0.0
        values[n // 3] = np.inf
        values[n // 2] = -np.inf
    return values


def bits(t):
    return tp.asnumpy(t).tobytes()


@pytest.mark.parametrize("name", FOLDINGS)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def test_folding_methods_match_numpy(device, name, dtype):
    for n in SIZES:
        values = sample((n,), dtype, seed=n)
        if name == "prod" and values.dtype.kind in "fc":
            values = (values / 10).astype(dtype)  # keep products finite
        got = getattr(tp.asarray(values), name)()
        want = getattr(values, name)()
        if values.dtype.kind in "fc" and name in ("sum", "prod"):
            assert got.dtype == want.dtype and got.shape == ()
            rtol = {16: 1e-2, 32: 1e-5, 64: 1e-12}[np.finfo(values.dtype).bits]
            np.testing.assert_allclose(tp.asnumpy(got), want, rtol=rtol)
        else:
            assert_same(got, want)


@pytest.mark.parametrize("name", FOLDINGS)
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64, np.complex64, np.int32, np.bool_],
                         ids=lambda d: np.dtype(d).name)
def test_folding_of_dense_memory_agrees_with_the_general_walk(device, name, dtype):
    # The same values dense (read straight from memory) and as a strided view (folded by
    # the general walk over the evaluator's blocks). Folds whose value does not depend on
    # the order of the values give the same bits; float sums and products agree to rounding.
    for n in SIZES:
        values = special_values(dtype, n, seed=n)
        if name == "prod" and values.dtype.kind in "fc":
            values = (sample((n,), dtype, seed=n) / 10).astype(dtype)  # finite products
        base = np.zeros(2 * n, dtype)
        base[::2] = values
        dense, walked = tp.asarray(values), tp.asarray(base)[::2]
        with np.errstate(all="ignore"), tp.errstate(all="ignore"):
            got, want = getattr(dense, name)(), getattr(walked, name)()
        if values.dtype.kind in "fc" and name in ("sum", "prod"):
            rtol = {16: 1e-2, 32: 1e-5, 64: 1e-12}[np.finfo(values.dtype).bits]
            np.testing.assert_allclose(tp.asnumpy(got), tp.asnumpy(want), rtol=rtol)
        else:
            assert bits(got) == bits(want), n


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def test_any_all_of_nan_and_signed_zero(device, dtype):
    values = np.zeros(5, dtype)
    if values.dtype.kind in "fc":
        values[1] = -0.0
        assert_same(tp.asarray(values).any(), values.any())
        values[3] = np.nan
    else:
        values[3] = 1
    assert_same(tp.asarray(values).any(), values.any())
    assert_same(tp.asarray(values).all(), values.all())
    assert_same(tp.asarray(values + 1).all(), (values + 1).all())


@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def test_arg_methods_match_numpy(device, name, dtype):
    for n in SIZES:
        values = special_values(dtype, n, seed=n)
        assert_same(getattr(tp.asarray(values), name)(), getattr(values, name)())
    if np.dtype(dtype).kind in "fc":
        # The first NaN wins; ties go to the first occurrence.
        values = np.array([1, 5, np.nan, 5, np.nan, -3], dtype)
        assert_same(getattr(tp.asarray(values), name)(), getattr(values, name)())
    values = np.array([2, 7, 7, 0, 0, 2], dtype)
    assert_same(getattr(tp.asarray(values), name)(), getattr(values, name)())


@pytest.mark.parametrize("name", ["argmax", "argmin"])
def test_arg_methods_of_views_and_other_shapes(device, name):
    base = sample((6, 5), np.float64, seed=3)
    for key in [(slice(None), 1), (slice(None, None, -1),), (1,), (Ellipsis,)]:
        view = base[key]
        assert_same(getattr(tp.asarray(base)[key], name)(), getattr(view, name)())
    assert_same(getattr(tp.asarray(base).T, name)(), getattr(base.T, name)())
    assert_same(getattr(tp.asarray(np.float64(2.5)), name)(), getattr(np.float64(2.5), name)())
    assert_raises_like(lambda: getattr(np.zeros(0), name)(), lambda: getattr(tp.zeros(0), name)())


@pytest.mark.parametrize("name", FOLDINGS + ["argmax", "argmin"])
def test_methods_with_arguments_take_numpys_signature(device, name):
    values = sample((4, 3), np.float64, seed=1)
    t = tp.asarray(values)

    def check(got, want):
        if name in ("sum", "prod"):  # folded in another order than NumPy's
            assert got.dtype == want.dtype and got.shape == want.shape
            np.testing.assert_allclose(tp.asnumpy(got), want, rtol=1e-12)
        else:
            assert_same(got, want)

    check(getattr(t, name)(0), getattr(values, name)(0))
    check(getattr(t, name)(axis=1, keepdims=True), getattr(values, name)(axis=1, keepdims=True))
    check(getattr(t, name)(None), getattr(values, name)(None))
    assert_raises_like(lambda: getattr(values, name)(axis=2), lambda: getattr(t, name)(axis=2))
    with pytest.raises(TypeError, match=name):
        getattr(t, name)(bad=1)
    out = tp.empty(3, dtype=getattr(values, name)(0).dtype)
    assert getattr(t, name)(0, out=out) is out
    check(out, getattr(values, name)(0))


def test_reductions_of_pending_and_empty_arrays(device):
    values = sample((10,), np.float64)
    t = tp.asarray(values)
    np.testing.assert_allclose(tp.asnumpy((t * t).sum()), (values * values).sum(), rtol=1e-12)
    assert_same(tp.zeros(0).sum(), np.zeros(0).sum())
    assert_same(tp.zeros(0, dtype=bool).any(), np.zeros(0, dtype=bool).any())
    assert_raises_like(lambda: np.zeros(0).max(), lambda: tp.zeros(0).max())


def test_sum_overflow_warns_as_numpy(device):
    values = np.full(3, np.finfo(np.float64).max)
    with pytest.warns(RuntimeWarning, match="overflow"):
        np.add.reduce(values)
    if device.kind == "cpu":
        with pytest.warns(RuntimeWarning, match="overflow"):
            tp.asarray(values).sum()


@pytest.mark.parametrize("name", ["empty", "zeros", "ones"])
def test_creation_signatures(device, name):
    for shape in [3, (2, 3), [2, 3], (), 0, np.int64(4), (np.int32(2), 1)]:
        for dtype in [None, float, "int32", np.complex64, np.dtype("bool")]:
            got = getattr(tp, name)(shape, dtype)
            want = getattr(np, name)(shape, dtype)
            assert got.shape == want.shape and got.dtype == want.dtype
            assert got.device == device
            if name != "empty":
                assert_same(got, want)
    for order in ["C", "F", "c", "f"]:
        got = getattr(tp, name)((2, 3), order=order)
        assert got.flags.f_contiguous == getattr(np, name)((2, 3), order=order).flags.f_contiguous
    assert getattr(tp, name)(2, device="cpu").device == tp.Device("cpu")
    for bad in [dict(shape=None), dict(shape="a"), dict(shape=(2, -1)), dict(shape=3, order="A"),
                dict(shape=3, order="Z"), dict(shape=3, order=""), dict(shape=3, dtype="nope"),
                dict(shape=(2**62, 2**62))]:
        assert_raises_like(lambda: getattr(np, name)(**bad), lambda: getattr(tp, name)(**bad))


def test_arange_signatures(device):
    # arange(n) is made in C++; every other call takes the general path: both NumPy's.
    calls = [((5,), {}), ((0,), {}), ((-3,), {}), ((True,), {}), ((np.int64(4),), {}),
             ((5.0,), {}), ((2, 9, 3), {}), ((1, 2, 0.25), {}), ((), dict(stop=4)),
             ((3,), dict(dtype=np.float32)), ((9, 2, -2), {})]
    for args, kwargs in calls:
        got, want = tp.arange(*args, **kwargs), np.arange(*args, **kwargs)
        assert_same(got, want)
        assert got.device == device
    for args in [(), ("a",), (2**70,), (1, 2, 0), (None,)]:
        assert_raises_like(lambda: np.arange(*args), lambda: tp.arange(*args))


def test_array_signatures(device):
    # array(list of numbers) is made in C++; every other call takes the general path.
    for args, kwargs in [(([1.0, 2.5],), {}), (((1, 2),), {}), (([[1, 2], [3, 4.5]],), {}),
                         (([],), {}), ((5,), {}), ((np.arange(3),), {}),
                         (([1, 2],), dict(dtype=np.float32)), (([1.0],), dict(ndmin=2)),
                         ((), dict(obj=[1j, 2]))]:
        np_kwargs = {("object" if k == "obj" else k): v for k, v in kwargs.items()}
        got, want = tp.array(*args, **kwargs), np.array(*args, **np_kwargs)
        assert_same(got, want)
        assert got.device == device
    assert_raises_like(lambda: np.array([[1], [2, 3]]), lambda: tp.array([[1], [2, 3]]))
    with pytest.raises(TypeError, match=r"\[array\] missing the required argument"):
        tp.array()


def test_plain_keys(device):
    values = sample((4, 5), np.float64)
    t = tp.asarray(values)
    for key in [1, -1, (1, 2), (-1, -5), slice(1, None), (slice(None), slice(None, None, -2)),
                (Ellipsis, 1), (None, 1), (), (1, Ellipsis, None), True, slice(10**30, None),
                slice(None, -10**30), (slice(0, 4, 10**30),)]:
        assert_same(t[key], values[key])
    for key in [4, -5, (1, 5), 2**63, -2**64, (1, 2, 3), slice(None, None, 0), (1.5,),
                (Ellipsis, Ellipsis)]:
        assert_raises_like(lambda: values[key], lambda: t[key])


def test_plain_key_assignment(device):
    values = sample((4, 5), np.float64)
    t = tp.asarray(values.copy())
    for key, value in [(1, 7.0), ((2, 3), -1.5), (slice(1, 3), 2.0), ((slice(None), 0), 3),
                       ((), 0.5), ((Ellipsis, -1), 9)]:
        values[key] = value
        t[key] = value
        assert_same(t, values)
    for key in [4, (1, 5), 2**63, slice(None, None, 0)]:
        assert_raises_like(lambda: values.__setitem__(key, 1.0), lambda: t.__setitem__(key, 1.0))


def test_protocol_slots_take_every_case(device):
    # len(), float(), int(), bool(), t[key] and t[key] = v are the type's own slots, with a
    # fast path for the common case and the general method for the rest: both give NumPy's
    # values and errors, whichever the case takes.
    values = sample((3, 4), np.float64)
    t = tp.asarray(values.copy())
    assert len(t) == len(values) and t.__len__() == 3
    assert_raises_like(lambda: len(values[0, 0]), lambda: len(t[0, 0]))
    for convert in (float, int, bool, complex):
        assert convert(t[1, 2]) == convert(values[1, 2])
        assert type(convert(t[1, 2])) is convert
        assert_raises_like(lambda: convert(values), lambda: convert(t))
    assert bool(t[1:2, 2:3]) == bool(values[1:2, 2:3])
    with lazy_min_elements(0):
        x = tp.array(values[1, 2])  # a copy: no outside writer, so its results may wait
        for convert in (float, int, bool):
            pending = x * 2.0 + 1.0
            assert pending._pending
            assert convert(pending) == convert(values[1, 2] * 2.0 + 1.0)
        pending = tp.array(values[:1, :1]) > 10.0
        assert pending._pending and bool(pending) is bool(values[:1, :1] > 10.0)
    assert_same(t.__getitem__((1, slice(None, None, -1))), values[1, ::-1])
    t.__setitem__((0, 1), 4.5)
    values[0, 1] = 4.5
    assert_same(t, values)

    # Element stores the fast path leaves: a number needing NumPy's conversion, a value
    # that is no Python number, a read-only target, deletion.
    small = tp.asarray(np.arange(4, dtype=np.int8))
    small[1] = 2.9
    small[2] = np.float32(-3.5)
    assert_same(small, np.array([0, 2, -3, 3], np.int8))
    assert_raises_like(lambda: np.arange(4, dtype=np.int8).__setitem__(0, 300),
                       lambda: small.__setitem__(0, 300))
    view = tp.broadcast_to(tp.asarray(np.arange(3.0)), (2, 3))
    assert_raises_like(lambda: np.broadcast_to(np.arange(3.0), (2, 3)).__setitem__((0, 0), 1.0),
                       lambda: view.__setitem__((0, 0), 1.0))

    def delete(a):
        del a[0]

    assert_raises_like(lambda: delete(values), lambda: delete(t))
    assert_raises_like(lambda: values.__delitem__(0), lambda: t.__delitem__(0))


def test_getters_and_item_take_every_case(device):
    # shape, dtype, ndim, size and T are the type's own getters, item() its own method: the
    # same values, errors and writes as NumPy's, on views and on pending arrays too.
    values = sample((2, 3), np.float64)
    t = tp.array(values)
    assert (t.shape, t.dtype, t.ndim, t.size) == (values.shape, values.dtype, values.ndim,
                                                  values.size)
    assert_same(t.T, values.T)
    assert t.T.base is t and t.T.T.base is t
    assert (t[0].shape, t[0, 0].shape, t[::-1, 1:].T.shape) == ((3,), (), (2, 2))
    for args in [(), (4,), (1, 2), (-1,), ((0, 1),)]:
        if args:
            assert t.item(*args) == values.item(*args)
    assert t[1, 1].item() == values[1, 1].item() and type(t[1, 1].item()) is float
    assert type(tp.asarray(np.arange(3))[2].item()) is int
    assert type(tp.asarray(np.array([True]))[0].item()) is bool
    assert tp.asarray(np.array([1 + 2j]))[0].item() == 1 + 2j
    with lazy_min_elements(0):
        pending = tp.array(values[1, 2]) * 2.0
        assert pending._pending and pending.item() == values[1, 2] * 2.0
    for args in [(), (6,), (1, 2, 3), (1.5,)]:
        assert_raises_like(lambda: values.item(*args), lambda: t.item(*args))

    reshaped = values.copy()
    reshaped.shape = (3, 2)
    t.shape = (3, 2)
    assert_same(t, reshaped)
    assert_raises_like(lambda: setattr(reshaped, "shape", (4, 2)),
                       lambda: setattr(t, "shape", (4, 2)))
    assert_raises_like(lambda: setattr(reshaped.T, "shape", (6,)),
                       lambda: setattr(t.T, "shape", (6,)))
    assert_raises_like(lambda: delattr(reshaped, "shape"), lambda: delattr(t, "shape"))
    for name in ("ndim", "size", "T"):
        with pytest.raises(AttributeError):
            setattr(reshaped, name, 1)
        with pytest.raises(AttributeError):
            setattr(t, name, 1)


NUMBER_OPS = ["add", "subtract", "multiply", "true_divide", "floor_divide", "power", "maximum",
              "greater", "less_equal", "equal", "logical_and", "bitwise_or", "arctan2"]
NUMBERS = [2.0, -0.0, float("nan"), float("inf"), 1e300, 3, 0, 127, 128, -1, 300, 2**70,
           True, 1.5 - 2j]


@pytest.mark.parametrize("name", NUMBER_OPS)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def test_array_and_python_number(device, name, dtype):
    # `t * 2.0`, `2 ** t`: the number weak (NEP 50) on either side, as NumPy reads it; the
    # values in [0, 127] of the short path and the ones beyond it give NumPy's results,
    # warnings and errors alike.
    values = sample((3,), dtype)
    t = tp.asarray(values)
    for number in NUMBERS:
        for args, targs in [((values, number), (t, number)), ((number, values), (number, t))]:
            np_call = lambda: getattr(np, name)(*args)  # noqa: E731
            tp_call = lambda: getattr(tp, name)(*targs)  # noqa: E731
            with np.errstate(all="ignore"), tp.errstate(all="ignore"):
                try:
                    want = np_call()
                except Exception:  # noqa: BLE001 - the same exception is expected
                    assert_raises_like(np_call, tp_call)
                    continue
                got = tp_call()
            if (device.kind != "cpu" and want.dtype.kind == "c" and name == "power"
                    and not np.isfinite(want).all()):
                # The signs of a complex power's infinite parts are rounding residues on
                # CUDA devices (docs/cuda.md; test_ufunc_accuracy holds the finite ones).
                continue
            if want.dtype.kind in "fc" and name in ("power", "true_divide", "arctan2"):
                assert got.dtype == want.dtype
                rtol = {16: 1e-2, 32: 1e-5, 64: 1e-12}[np.finfo(want.dtype).bits]
                np.testing.assert_allclose(tp.asnumpy(got), want, rtol=rtol)
            else:
                assert_same(got, want)


def test_operators_with_python_numbers_warn_as_numpy(device):
    t = tp.asarray([1.0, 0.0, -1.0])
    with np.errstate(divide="raise"), tp.errstate(divide="raise"):
        with pytest.raises(FloatingPointError):
            np.asarray([1.0, 0.0, -1.0]) / 0.0
        if device.kind == "cpu":
            with pytest.raises(FloatingPointError):
                t / 0.0
    assert_same(t * 2.0, np.asarray([1.0, 0.0, -1.0]) * 2.0)
    assert_same(1 - t, 1 - np.asarray([1.0, 0.0, -1.0]))
    assert_same(tp.asarray([1, 2], dtype=np.uint8) + 1, np.asarray([1, 2], dtype=np.uint8) + 1)
    assert_raises_like(lambda: np.asarray([1, 2], dtype=np.uint8) + 300,
                       lambda: tp.asarray([1, 2], dtype=np.uint8) + 300)


LISTS = [[1.0, 2.0, 3.0], [1, 2, 3], [True, False], [True, 2], [1, 2.5], [True, 1.5], [1j, True],
         (1.0, 2.0), [[1, 2], [3, 4.5]], ([1, 2], (3, 4)), [[[1.0]], [[2.0]]],
         [-0.0, float("nan"), float("inf"), -float("inf")], [2**63 - 1, -2**63], [2**53 + 1, 0.5],
         [2**63], [2**64, 1.5], [-2**63 - 1], [], [[]], [[1, 2], [3]], [1, "a"], [1, None],
         [np.float32(1.5), 2.0], [np.int8(3)], [[1, 2], 3], [1, [2, 3]]]


@pytest.mark.parametrize("obj", LISTS, ids=[str(i) for i in range(len(LISTS))])
@pytest.mark.parametrize("make", ["array", "asarray"])
def test_arrays_from_lists_of_python_numbers(device, make, obj):
    np_call = lambda: getattr(np, make)(obj)  # noqa: E731
    tp_call = lambda: getattr(tp, make)(obj)  # noqa: E731
    try:
        want = np_call()
    except (ValueError, TypeError):
        assert_raises_like(np_call, tp_call)
        return
    if want.dtype.kind not in "biufc":  # object or string arrays: tessera has no such dtype
        with pytest.raises(TypeError):
            tp_call()
        return
    got = tp_call()
    assert_same(got, want)
    assert got.device == device and got.flags.c_contiguous


def test_arrays_from_lists_with_arguments(device):
    values = [[1, 2], [3, 4]]
    assert_same(tp.array(values, dtype=np.float32), np.array(values, dtype=np.float32))
    assert_same(tp.array(values, order="F"), np.array(values, order="F"))
    assert tp.array(values, order="F").flags.f_contiguous
    assert_same(tp.array([1.0], ndmin=3), np.array([1.0], ndmin=3))
    assert_raises_like(lambda: np.array(values, copy=False), lambda: tp.array(values, copy=False))
    assert_raises_like(lambda: np.asarray(values, order="X"), lambda: tp.asarray(values, order="X"))
    assert tp.asarray(values, device="cpu").device == tp.Device("cpu")


def test_astype_method(device):
    values = sample((3, 4), np.float64)
    t = tp.asarray(values)
    for dtype in [np.float32, "int16", complex, np.dtype("bool"), None]:
        assert_same(t.astype(dtype), values.astype(dtype))
    for order in ["C", "F", "A", "K", "c", "f"]:
        for view_key in [(Ellipsis,), (slice(None, None, 2),), (slice(None), slice(None, None, -1))]:
            got, want = t[view_key].astype(np.float32, order=order), values[view_key].astype(np.float32, order=order)
            assert_same(got, want)
            assert got.flags.c_contiguous == want.flags.c_contiguous
            assert got.flags.f_contiguous == want.flags.f_contiguous
    assert_same(tp.arange(3).astype(None), np.arange(3).astype(None))
    assert t.astype(np.float64, copy=False) is t
    assert t.astype(np.float64, copy=0) is t
    assert t.astype(np.float64) is not t
    assert t.T.astype(np.float64, order="A", copy=False) is not None
    assert_same(t.astype(np.float32, casting="same_kind", subok=False), values.astype(np.float32, casting="same_kind"))
    for bad in [dict(dtype=np.int32, casting="safe"), dict(dtype=np.float32, casting="nope"),
                dict(dtype=np.float32, order="X"), dict(dtype="nope"), dict(dtype=np.float32, casting=3)]:
        assert_raises_like(lambda: values.astype(**bad), lambda: t.astype(**bad))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def test_where_of_small_arrays(device, dtype):
    values = special_values(dtype, 8, seed=2)
    other = sample((8,), dtype, seed=5)
    t, u = tp.asarray(values), tp.asarray(other)
    mask = np.array([True, False] * 4)
    cases = [(mask, values, other), (mask, values, 0), (mask, 2.5, values), (mask, True, values),
             (values, values, other), (mask.astype(np.int8), values, other), (True, values, 1),
             (mask[:1], values, other), (mask, values[:1], other), (mask, 1, 1.5j)]
    for cond, x, y in cases:
        conv = [tp.asarray(a) if isinstance(a, np.ndarray) else a for a in (cond, x, y)]
        with np.errstate(all="ignore"), tp.errstate(all="ignore"):
            assert_same(tp.where(*conv), np.where(cond, x, y))
    assert_same(tp.where(t > u, t, u) if values.dtype.kind != "c" else tp.where(t != u, t, u),
                np.where(values > other, values, other) if values.dtype.kind != "c"
                else np.where(values != other, values, other))


def test_small_ops_on_slices(device):
    # Slices whose rows are contiguous and evenly spaced run the loop row by row; other
    # layouts take the general path. Both give NumPy's values.
    base = sample((6, 7, 8), np.float64, seed=4)
    t = tp.asarray(base)
    keys = [(slice(1, -1), slice(None), slice(2, None)), (1, slice(None, -2), slice(1, -1)),
            (slice(None), 0, slice(None)), (slice(None, None, -1), slice(1, 3), slice(None)),
            (slice(None, None, 2), slice(None, None, 3), slice(None, 5)),
            (slice(None), slice(None), slice(None, None, -1)), (slice(0, 1), slice(2, 3), slice(None)),
            (Ellipsis, slice(4, 5)), (slice(2, 3), slice(None), 3)]
    for key in keys:
        x, tx = base[key], t[key]
        for y, ty in [(x, tx), (2.5, 2.5), (x[..., :1], tx[..., :1])]:
            assert_same(tx + ty, x + y)
            assert_same(ty * tx, y * x)
            assert_same(tx > ty, x > y)
        np.testing.assert_allclose(tp.asnumpy(tp.sin(tx)), np.sin(x), rtol=4e-16, atol=0)
        assert_same(tx.T - tx.T, x.T - x.T)
    ints = sample((5, 6), np.int32)
    ti = tp.asarray(ints)
    assert_same(ti[1:, ::-1] // 3, ints[1:, ::-1] // 3)
    assert_same(ti[1:, 1:] + ti[:-1, :-1], ints[1:, 1:] + ints[:-1, :-1])


def test_small_ops_on_slices_report_fp_errors_once(device):
    base = np.zeros((4, 5))
    t = tp.asarray(base)
    if device.kind == "cpu":
        with pytest.warns(RuntimeWarning, match="divide by zero") as record:
            t[1:, 1:] / t[:-1, :-1] ** 0 * 0 + 1 / t[1:, :-1]
        assert sum("divide by zero" in str(w.message) for w in record) == 1
        with tp.errstate(invalid="raise"), pytest.raises(FloatingPointError):
            t[1:, 1:] / t[:-1, :-1]


def test_box_stencil_of_a_small_grid(device):
    x = sample((32, 32), np.float64, seed=7)
    t = tp.asarray(x)

    def stencil(a):
        return (a[:-2, :-2] + a[:-2, 1:-1] + a[:-2, 2:] + a[1:-1, :-2] + a[1:-1, 1:-1]
                + a[1:-1, 2:] + a[2:, :-2] + a[2:, 1:-1] + a[2:, 2:])

    assert_same(stencil(t), stencil(x))


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=lambda d: np.dtype(d).name)
def test_small_ops_with_one_element_arrays(device, dtype):
    # A 0-d array, or one kept as (1,) or (1, 1), joins a small op as a scalar where it adds
    # no axes; where it would add axes, or the op needs a cast, the general path runs.
    values = sample((2, 3), dtype, seed=8)
    t = tp.asarray(values)
    for one in [values[0, 1], values[:1, :1], values[0, :1], values[:1, 0], values.reshape(-1)[:1]]:
        one = np.asarray(one)
        for x, y, tx, ty in [(values, one, t, tp.asarray(one)), (one, values, tp.asarray(one), t),
                             (one, one, tp.asarray(one), tp.asarray(one)),
                             (values[0], one, t[0], tp.asarray(one))]:
            for name in ["add", "multiply", "maximum", "not_equal", "arctan2"]:
                np_call = lambda: getattr(np, name)(x, y)  # noqa: E731
                tp_call = lambda: getattr(tp, name)(tx, ty)  # noqa: E731
                with np.errstate(all="ignore"), tp.errstate(all="ignore"):
                    try:
                        want = np_call()
                    except TypeError:
                        assert_raises_like(np_call, tp_call)
                        continue
                    got = tp_call()
                if name == "arctan2":
                    assert got.dtype == want.dtype and got.shape == want.shape
                    rtol = {16: 1e-2, 32: 1e-5, 64: 1e-12}[np.finfo(want.dtype).bits]
                    np.testing.assert_allclose(tp.asnumpy(got), want, rtol=rtol)
                else:
                    assert_same(got, want)
    x = sample((2, 3), np.float64, seed=8)
    assert_same(tp.asarray(x) - tp.asarray(x).mean(), x - x.mean())
    assert_same(tp.asarray(x) - tp.asarray(x).mean(axis=1, keepdims=True), x - x.mean(axis=1, keepdims=True))
