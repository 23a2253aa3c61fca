"""Array creation against the NumPy oracle: array/asarray, empty/zeros/ones/full and their
*_like variants, arange, linspace, eye/identity, copy, ascontiguousarray, asfortranarray."""

import warnings

import numpy as np
import pytest

import tessera as tp
from conftest import ALL_DTYPES, assert_same, sample
from oracle import (
    DTYPE_IDS,
    DLPackOnly,
    assert_device_copy,
    assert_raises_like,
    assert_raises_type,
    host_shared,
    make_numpy,
    make_pair,
    numpy_result,
    shares,
)
from oracle import PAIR_LAYOUT_NAMES as LAYOUT_NAMES


# ----------------------------------------------------------------------------- helpers

def check_like_numpy(np_call, tp_call, *, strides=False, bits=False):
    """Runs both; tessera must give NumPy's result, or raise NumPy's exception type."""
    __tracebackhide__ = True
    expected, error = numpy_result(np_call)
    if error is not None:
        with pytest.raises(Exception) as got:
            tp_call()
        assert type(got.value) is type(error), (
            f"NumPy raises {type(error).__name__}({error}), tessera raises "
            f"{type(got.value).__name__}({got.value})")
        assert str(got.value).startswith("["), f"message lacks the API prefix: {got.value!r}"
        return None
    out = tp_call()
    if bits:
        assert_bits(out, expected)
    else:
        assert_same(out, expected, strides=strides)
    return out


def assert_bits(t, n):
    """`t` equals `n` bit for bit (NaN payloads and signed zeros included)."""
    __tracebackhide__ = True
    assert_same(t, n)
    assert tp.asnumpy(t).tobytes() == np.ascontiguousarray(n).tobytes(), \
        f"bits differ:\n{tp.asnumpy(t)!r}\n!=\n{n!r}"


def assert_layout(t, n):
    """Shape, dtype, strides and contiguity flags equal NumPy's."""
    __tracebackhide__ = True
    assert t.dtype == n.dtype, f"dtype {t.dtype} != {n.dtype}"
    assert t.shape == n.shape, f"shape {t.shape} != {n.shape}"
    assert t.strides == n.strides, f"strides {t.strides} != {n.strides}"
    assert t.flags.c_contiguous == n.flags.c_contiguous
    assert t.flags.f_contiguous == n.flags.f_contiguous


@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_asarray_numpy_layouts_share_memory(device, dtype, layout):
    n = make_numpy(layout, dtype)
    t = tp.asarray(n)
    expected = np.asarray(n)
    assert_same(t, expected)
    assert t.device == device
    if not host_shared(device):
        assert t.base is None
        assert_device_copy(t, n)
        return
    assert t.strides == expected.strides
    # Intended: on the CPU asarray shares the caller's memory (base is the NumPy array).
    assert t.base is n
    assert not t.flags.owndata
    assert t.flags.writeable == n.flags.writeable
    if n.flags.writeable and n.size:
        n[...] = sample(n.shape, dtype, seed=1)
        assert_same(t, n)


@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_array_numpy_layouts_copy(device, dtype, layout):
    n = make_numpy(layout, dtype)
    t = tp.array(n)
    expected = np.array(n)
    assert_same(t, expected, strides=True)
    assert t.device == device
    assert t.flags.owndata
    assert t.flags.writeable
    assert not (n.size and shares(t, n))
    if n.flags.writeable and n.size:
        n[...] = sample(n.shape, dtype, seed=1)
        assert_same(t, expected)


@pytest.mark.parametrize("func", ["array", "asarray"])
def test_non_native_byte_order_becomes_native(device, dtype, func):
    n = sample((3, 5), dtype)[:, ::2]
    swapped = n.astype(n.dtype.newbyteorder(">" if np.little_endian else "<"))
    assert not swapped.dtype.isnative or swapped.dtype.itemsize == 1
    t = getattr(tp, func)(swapped)
    assert t.dtype.isnative
    assert_same(t, getattr(np, func)(swapped).astype(swapped.dtype.newbyteorder("=")))


def test_non_native_byte_order_with_dtype(device):
    swapped = sample((4,), np.float64).astype(">f8")
    assert_same(tp.asarray(swapped, dtype=np.float32), np.asarray(swapped, dtype=np.float32))
    assert_same(tp.asarray(swapped, dtype="<f8"), np.asarray(swapped, dtype="<f8"))


@pytest.mark.parametrize("target", ALL_DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("func", ["array", "asarray"])
def test_dtype_conversion_from_numpy(device, dtype, target, func):
    n = sample((4, 6), dtype)[::-1, ::2]
    if dtype.kind in "fc" and np.dtype(target).kind == "u":
        n = np.where(n.real < 0, -n, n)  # negative floats into unsigned ints are undefined
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        expected = getattr(np, func)(n, dtype=target)
        t = getattr(tp, func)(n, dtype=target)
    assert_same(t, expected)
    assert t.device == device


@pytest.mark.parametrize("spec", [int, float, complex, bool, "f4", "i2", "u8", "c8", "float16",
                                  np.intp, np.dtype("int32")], ids=repr)
def test_dtype_spellings(device, spec):
    values = [[1, 2, 3], [4, 5, 6]]
    assert_same(tp.asarray(values, dtype=spec), np.asarray(values, dtype=spec))
    assert_same(tp.array(values, dtype=spec), np.array(values, dtype=spec))


# ----------------------------------------------------------- sequences and scalars as input

SEQUENCES = [
    [1, 2, 3],
    [[1, 2], [3, 4]],
    ((1.5, 2), (3, 4)),
    [(1, 2), (3, 4)],
    ([1, 2], (3, 4)),
    [True, False, True],
    [],
    [[]],
    [[], []],
    [1, 2.5],
    [1, 2j],
    [True, 2],
    [-1, 2**63 - 1],
    [2**63, 1],
    [float("nan"), float("inf"), -0.0, -float("inf")],
    [complex(0, -0.0), complex(float("nan"), 1)],
    [np.float32(1.5), np.float32(2)],
    [np.int8(1), np.int16(300)],
    [np.uint8(200), 3],
    [np.float16(1), 2.5],
    [[[1], [2]], [[3], [4]]],
    [np.array([1, 2]), np.array([3, 4])],
    [np.array(1.5), 2],
]


@pytest.mark.parametrize("func", ["array", "asarray"])
@pytest.mark.parametrize("seq", SEQUENCES, ids=repr)
def test_nested_sequences(device, func, seq):
    t = getattr(tp, func)(seq)
    assert_same(t, getattr(np, func)(seq), strides=True)
    assert t.device == device
    assert t.flags.owndata


@pytest.mark.parametrize("seq", [[1, 2, 3], [[1.5, -2], [3, 4]], [True, False], [[1 + 1j]]],
                         ids=repr)
def test_nested_sequences_with_dtype(device, dtype, seq):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        check_like_numpy(lambda: np.asarray(seq, dtype=dtype),
                         lambda: tp.asarray(seq, dtype=dtype))


def test_sequence_of_tessera_arrays(device, dtype):
    parts = [sample((3,), dtype, seed=s) for s in range(2)]
    t = tp.asarray([tp.asarray(p) for p in parts])
    assert_same(t, np.asarray(parts))


@pytest.mark.parametrize("seq", [[[1, 2], [3]], [1, [2, 3]], [[1], [[2]]]], ids=repr)
def test_ragged_sequences_raise(device, seq):
    assert_raises_like(lambda: np.asarray(seq), lambda: tp.asarray(seq))
    assert_raises_like(lambda: np.array(seq), lambda: tp.array(seq))


PY_SCALARS = [True, False, 0, -7, 2**62, 2**63, -2**63, 2.5, -0.0, float("nan"), float("inf"),
              1 + 2j, complex(0, -0.0)]


@pytest.mark.parametrize("func", ["array", "asarray"])
@pytest.mark.parametrize("value", PY_SCALARS, ids=repr)
def test_python_scalars(device, func, value):
    t = getattr(tp, func)(value)
    assert t.ndim == 0
    assert_same(t, getattr(np, func)(value), strides=True)
    assert t.device == device


@pytest.mark.parametrize("value", [0, 5, -3, 2.5, True, 1 - 1j], ids=repr)
def test_python_scalars_with_dtype(device, dtype, value):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        check_like_numpy(lambda: np.asarray(value, dtype=dtype),
                         lambda: tp.asarray(value, dtype=dtype))


@pytest.mark.parametrize("func", ["array", "asarray"])
def test_numpy_scalars(device, dtype, func):
    for value in (dtype.type(3), dtype.type(0), sample((), dtype)[()]):
        t = getattr(tp, func)(value)
        assert_same(t, getattr(np, func)(value), strides=True)


# -------------------------------------------------------------------- tessera arrays as input

@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_asarray_tessera_is_identity(device, dtype, layout):
    t, n = make_pair(layout, dtype)
    assert (tp.asarray(t) is t) == (np.asarray(n) is n)
    assert (tp.asarray(t, dtype=dtype) is t) == (np.asarray(n, dtype=dtype) is n)


@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_array_of_tessera_copies(device, dtype, layout):
    t, n = make_pair(layout, dtype)
    out = tp.array(t)
    expected = np.array(n)
    assert_same(out, expected, strides=True)
    assert out is not t
    assert out.flags.owndata
    assert not (n.size and shares(out, t))


@pytest.mark.parametrize("layout", ["negative", "0d"])
@pytest.mark.parametrize("target", ALL_DTYPES, ids=DTYPE_IDS)
def test_array_of_tessera_with_dtype(device, dtype, target, layout):
    t, n = make_pair(layout, dtype)
    if dtype.kind in "fc" and np.dtype(target).kind == "u":
        t, n = make_pair(layout, np.float64)
        t, n = abs(tp.asnumpy(t)), abs(n)
        t = tp.asarray(t).astype(dtype)
        n = n.astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        assert_same(tp.asarray(t, dtype=target), np.asarray(n, dtype=target))
        assert_same(tp.array(t, dtype=target), np.array(n, dtype=target), strides=True)


# ------------------------------------------------------------------------- DLPack producers

@pytest.mark.parametrize("layout", LAYOUT_NAMES)
def test_dlpack_producer_input(device, dtype, layout):
    n = make_numpy(layout, dtype)
    t = tp.asarray(DLPackOnly(n))
    assert_same(t, np.from_dlpack(DLPackOnly(n)))
    assert t.device == device


@pytest.mark.parametrize("target", [np.float64, np.int32, np.complex64], ids=repr)
def test_dlpack_producer_input_with_dtype(device, dtype, target):
    n = sample((3, 4), dtype)
    if dtype.kind in "fc":
        n = np.where(n.real < 0, -n, n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        expected = np.asarray(np.from_dlpack(DLPackOnly(n)), dtype=target)
        assert_same(tp.asarray(DLPackOnly(n), dtype=target), expected)


# ------------------------------------------------------------------------------ copy= / order=

COPY_KWARGS = [
    {},
    {"dtype": "same"},
    {"dtype": "other"},
    {"order": "C"},
    {"order": "F"},
    {"order": "A"},
    {"order": "K"},
]


@pytest.mark.parametrize("kwargs", COPY_KWARGS, ids=lambda k: repr(k))
@pytest.mark.parametrize("copy", [True, False, None])
@pytest.mark.parametrize("func", ["array", "asarray"])
@pytest.mark.parametrize("layout", ["c2d", "fortran", "strided", "negative", "0d", "empty"])
@pytest.mark.parametrize("source", ["numpy", "tessera"])
def test_copy_and_order_semantics(device, source, layout, func, copy, kwargs):
    t_in, n = make_pair(layout, np.float64)
    src = n if source == "numpy" else t_in
    kwargs = dict(kwargs)
    if kwargs.get("dtype") == "same":
        kwargs["dtype"] = np.float64
    elif kwargs.get("dtype") == "other":
        kwargs["dtype"] = np.float32
    numpy_copy = copy
    if source == "numpy" and not host_shared(device):
        # A NumPy array reaches the device by copy only: NumPy's result when it copies.
        if copy is False:
            assert_raises_type(ValueError, lambda: getattr(tp, func)(src, copy=False, **kwargs))
            return
        numpy_copy = True
    expected, error = numpy_result(lambda: getattr(np, func)(n, copy=numpy_copy, **kwargs))
    if error is not None:
        assert_raises_like(lambda: getattr(np, func)(n, copy=numpy_copy, **kwargs),
                           lambda: getattr(tp, func)(src, copy=copy, **kwargs))
        return
    out = getattr(tp, func)(src, copy=copy, **kwargs)
    assert_same(out, expected, strides=True)
    if source == "tessera":
        assert (out is src) == (expected is n)
    if n.size:
        assert shares(out, src) == np.shares_memory(expected, n)


@pytest.mark.parametrize("func", ["array", "asarray"])
@pytest.mark.parametrize("obj", [[1, 2, 3], [[1.5], [2.5]], 3, 2.5, (1, 2)], ids=repr)
def test_copy_false_needs_copy_raises(device, func, obj):
    assert_raises_like(lambda: getattr(np, func)(obj, copy=False),
                       lambda: getattr(tp, func)(obj, copy=False))


@pytest.mark.parametrize("func", ["array", "asarray"])
def test_copy_false_dlpack_producer_shares_or_raises(device, func):
    # numpy.from_dlpack shares memory with the producer; asarray(copy=False) must either
    # share it as well or refuse with ValueError, never copy silently.
    n = np.arange(6.0)
    try:
        t = getattr(tp, func)(DLPackOnly(n), copy=False)
    except ValueError as error:
        assert str(error).startswith("[")
        return
    assert shares(t, n)


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("seq", [[[1, 2, 3], [4, 5, 6]], [[[1, 2]], [[3, 4]]], [1, 2], 5],
                         ids=repr)
def test_order_from_sequences(device, seq, order):
    t = tp.array(seq, order=order)
    expected = np.array(seq, order=order)
    assert_same(t, expected, strides=True)
    assert t.flags.f_contiguous == expected.flags.f_contiguous


@pytest.mark.parametrize("func", ["array", "asarray"])
@pytest.mark.parametrize("order", ["Z", "CF", ""])
def test_invalid_order_raises(device, func, order):
    assert_raises_like(lambda: getattr(np, func)([1, 2], order=order),
                       lambda: getattr(tp, func)([1, 2], order=order))


@pytest.mark.parametrize("ndmin", [0, 1, 2, 4])
@pytest.mark.parametrize("layout", ["0d", "1d", "fortran", "negative"])
def test_array_ndmin(device, layout, ndmin):
    t, n = make_pair(layout, np.int32)
    assert_same(tp.array(t, ndmin=ndmin), np.array(n, ndmin=ndmin))
    assert_same(tp.array(n, ndmin=ndmin), np.array(n, ndmin=ndmin))


def test_explicit_device_argument(device):
    n = sample((2, 3), np.float32)
    for t in (tp.asarray(n, device=device), tp.array(n, device=str(device)),
              tp.zeros(3, device=device), tp.arange(3, device=device),
              tp.eye(2, device=device), tp.linspace(0, 1, 3, device=device)):
        assert t.device == device


# ------------------------------------------------------------------ empty / zeros / ones / full

SHAPES = [(), 0, (3, 4), (2, 0, 3), [2, 3], np.int64(4), (np.int32(2), 3)]


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("shape", SHAPES, ids=repr)
@pytest.mark.parametrize("func", ["empty", "zeros", "ones"])
def test_empty_zeros_ones(device, dtype, func, shape, order):
    t = getattr(tp, func)(shape, dtype=dtype, order=order)
    n = getattr(np, func)(shape, dtype=dtype, order=order)
    assert_layout(t, n)
    assert t.device == device
    assert t.flags.owndata and t.flags.writeable
    if func != "empty":
        assert_same(t, n)


@pytest.mark.parametrize("func", ["empty", "zeros", "ones"])
def test_empty_zeros_ones_default_dtype(device, func):
    t, n = getattr(tp, func)((2, 3)), getattr(np, func)((2, 3))
    assert_layout(t, n)
    if func != "empty":
        assert_same(t, n)
    t, n = getattr(tp, func)(4, np.int16, "F"), getattr(np, func)(4, np.int16, "F")
    assert_layout(t, n)


@pytest.mark.parametrize("shape", [-1, (2, -3), 2.5, (2, 1.0), "3", None], ids=repr)
@pytest.mark.parametrize("func", ["empty", "zeros", "ones", "full"])
def test_bad_shapes_raise(device, func, shape):
    args = (shape, 1) if func == "full" else (shape,)
    assert_raises_like(lambda: getattr(np, func)(*args), lambda: getattr(tp, func)(*args))


@pytest.mark.parametrize("func", ["empty", "zeros", "ones"])
def test_bad_order_raises(device, func):
    assert_raises_like(lambda: getattr(np, func)(3, order="Q"),
                       lambda: getattr(tp, func)(3, order="Q"))


FILLS = [0, 7, -3, 2.5, -0.0, float("nan"), float("inf"), 1 + 2j, True, 2**63, -2**63,
         np.float32(1.5), np.int8(-4), np.uint16(9), np.complex64(1 - 1j), np.float16(-0.0),
         np.bool_(False)]


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("fill", FILLS, ids=repr)
def test_full_scalar_default_dtype(device, fill, order):
    t = tp.full((2, 3), fill, order=order)
    n = np.full((2, 3), fill, order=order)
    assert_same(t, n)
    assert_layout(t, n)
    assert t.device == device


@pytest.mark.parametrize("fill", [0, 3, -2, 2.7, True, 1 + 2j, np.float64(-0.0), np.int64(-5)],
                         ids=repr)
def test_full_scalar_with_dtype(device, dtype, fill):
    check_like_numpy(lambda: np.full((3, 2), fill, dtype=dtype),
                     lambda: tp.full((3, 2), fill, dtype=dtype), strides=True)


@pytest.mark.parametrize("shape", [(), 0, (0, 4), (5,)], ids=repr)
def test_full_degenerate_shapes(device, dtype, shape):
    t = tp.full(shape, dtype.type(1), dtype=dtype)
    n = np.full(shape, dtype.type(1), dtype=dtype)
    assert_same(t, n)
    assert_layout(t, n)


FILL_SHAPES = [((2, 3), (3,)), ((2, 3), (2, 1)), ((4, 2, 3), (2, 3)), ((2, 3), ()),
               ((0, 3), (3,)), ((3,), (1,))]


@pytest.mark.parametrize("with_dtype", [False, True])
@pytest.mark.parametrize("shape,fill_shape", FILL_SHAPES, ids=repr)
@pytest.mark.parametrize("fill_kind", ["numpy", "tessera", "list"])
def test_full_array_fill_values(device, some_dtype, fill_kind, shape, fill_shape, with_dtype):
    fill_np = sample(fill_shape, some_dtype, seed=3)
    fill = {"numpy": fill_np, "tessera": tp.asarray(fill_np),
            "list": fill_np.tolist()}[fill_kind]
    kwargs = {"dtype": np.complex128} if with_dtype else {}
    expected = np.full(shape, fill_np if fill_kind != "list" else fill_np.tolist(), **kwargs)
    t = tp.full(shape, fill, **kwargs)
    assert_same(t, expected)
    assert_layout(t, expected)


@pytest.mark.parametrize("fill_kind", ["numpy", "tessera", "list"])
def test_full_incompatible_fill_raises(device, fill_kind):
    fill_np = np.arange(2.0)
    fill = {"numpy": fill_np, "tessera": tp.asarray(fill_np), "list": [0.0, 1.0]}[fill_kind]
    assert_raises_like(lambda: np.full((2, 3), fill_np), lambda: tp.full((2, 3), fill))


OVERFLOWS = [(300, np.int8), (-129, np.int8), (-1, np.uint8), (256, np.uint8),
             (70000, np.uint16), (-1, np.uint64), (2**31, np.int32), (2**63, np.int64),
             (2**64, np.int64), (2**64, np.uint64), (-2**63 - 1, np.int64), (2**100, np.float32)]


@pytest.mark.parametrize("value,dt", OVERFLOWS, ids=repr)
def test_full_out_of_range_python_int(device, value, dt):
    check_like_numpy(lambda: np.full(3, value, dtype=dt), lambda: tp.full(3, value, dtype=dt))


@pytest.mark.parametrize("value,dt", OVERFLOWS[:10], ids=repr)
def test_full_like_out_of_range_python_int(device, value, dt):
    proto = np.zeros(3, dt)
    check_like_numpy(lambda: np.full_like(proto, value), lambda: tp.full_like(proto, value))


# ------------------------------------------------------------------------------------ *_like

LIKE_FUNCS = ["empty_like", "zeros_like", "ones_like", "full_like"]


def like_args(func):
    return (7,) if func == "full_like" else ()


@pytest.mark.parametrize("source", ["numpy", "tessera"])
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
@pytest.mark.parametrize("func", LIKE_FUNCS)
def test_like_preserves_layout(device, some_dtype, func, layout, source):
    t_in, n = make_pair(layout, some_dtype)
    proto = n if source == "numpy" else t_in
    t = getattr(tp, func)(proto, *like_args(func))
    expected = getattr(np, func)(n, *like_args(func))
    assert_layout(t, expected)
    assert t.device == device
    assert t.flags.owndata and t.flags.writeable
    if func != "empty_like":
        assert_same(t, expected)
    if t.size:
        assert not shares(t, proto)


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("layout", ["c2d", "fortran", "strided", "negative", "permuted3d", "0d"])
@pytest.mark.parametrize("func", LIKE_FUNCS)
def test_like_order(device, func, layout, order):
    t_in, n = make_pair(layout, np.int16)
    t = getattr(tp, func)(t_in, *like_args(func), order=order)
    expected = getattr(np, func)(n, *like_args(func), order=order)
    assert_layout(t, expected)
    if func != "empty_like":
        assert_same(t, expected)


@pytest.mark.parametrize("target", ALL_DTYPES, ids=DTYPE_IDS)
@pytest.mark.parametrize("func", LIKE_FUNCS)
def test_like_dtype(device, func, target):
    t_in, n = make_pair("fortran", np.float32)
    t = getattr(tp, func)(t_in, *like_args(func), dtype=target)
    expected = getattr(np, func)(n, *like_args(func), dtype=target)
    assert_layout(t, expected)
    if func != "empty_like":
        assert_same(t, expected)


@pytest.mark.parametrize("order", ["C", "F", "K"])
@pytest.mark.parametrize("shape", [(2, 5), (), 4, (0, 2), (3, 1, 2)], ids=repr)
@pytest.mark.parametrize("func", LIKE_FUNCS)
def test_like_shape(device, func, shape, order):
    t_in, n = make_pair("fortran", np.float64)
    t = getattr(tp, func)(t_in, *like_args(func), shape=shape, order=order)
    expected = getattr(np, func)(n, *like_args(func), shape=shape, order=order)
    assert_layout(t, expected)
    if func != "empty_like":
        assert_same(t, expected)


@pytest.mark.parametrize("proto", [[1, 2, 3], [[1.5, 2.5]], 4, 2.5j, True], ids=repr)
@pytest.mark.parametrize("func", LIKE_FUNCS)
def test_like_from_non_arrays(device, func, proto):
    t = getattr(tp, func)(proto, *like_args(func))
    expected = getattr(np, func)(proto, *like_args(func))
    assert_layout(t, expected)
    if func != "empty_like":
        assert_same(t, expected)


@pytest.mark.parametrize("fill", [2.7, -1, 1 + 3j, True, [1, 2, 3, 4], np.arange(4.0) * 1.5,
                                  "tessera"], ids=repr)
def test_full_like_fill_values(device, dtype, fill):
    t_in, n = make_pair("c2d", dtype)
    fill_np = np.arange(4.0) - 1.5 if isinstance(fill, str) else fill
    fill_tp = tp.asarray(fill_np) if isinstance(fill, str) else fill
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        check_like_numpy(lambda: np.full_like(n, fill_np), lambda: tp.full_like(t_in, fill_tp))


# ------------------------------------------------------------------------------------ arange

ARANGE_CASES = [
    (5,), (0,), (-3,), (1,), (2, 10), (10, 2), (10, 2, -3), (-5, 5, 2), (0, 10, 3),
    (3, -7, -2), (0, 1, 0.1), (1.5, 5), (-2.5, 2.5, 0.5), (0, -1, -0.25), (1, 2, 0.3),
    (0.1, 0.7, 0.1), (0, 1, 1 / 3), (-1e-3, 1e-3, 1e-4), (1e10, 1e10 + 5), (2**40, 2**40 + 5),
    (0, 0), (5, 5, 2), (0, 5, -1), (0.5, 0.5), (5.5,), (-0.0, 3), (0, 2**53 + 10, 2**51),
    (np.int8(2), 20, 3), (np.float32(0.1), np.float32(1), np.float32(0.1)),
    (np.float32(0), 1, 0.125), (np.uint8(3), np.uint8(10)), (np.int16(-4), np.int16(4)),
    (np.float16(0), np.float16(2), np.float16(0.25)),
    (True, 5), (0, 3, True), (0, 3 + 0j), (1j, 5),
]


@pytest.mark.parametrize("args", ARANGE_CASES, ids=repr)
def test_arange_values(device, args):
    out = check_like_numpy(lambda: np.arange(*args), lambda: tp.arange(*args), bits=True)
    if out is not None:
        assert out.device == device


@pytest.mark.parametrize("args", [(5,), (2, 12, 3), (-4, 4), (10, 0, -2), (0, 3, 0.5),
                                  (0.5, 5.5, 1.5), (-1.5, 2, 0.7), (0, 2), (1, 3), (0,),
                                  (3, 0)], ids=repr)
def test_arange_dtype(device, dtype, args):
    check_like_numpy(lambda: np.arange(*args, dtype=dtype),
                     lambda: tp.arange(*args, dtype=dtype), bits=True)


@pytest.mark.parametrize("args", [(0, 1, 2), (2,), (1, 3), (0, 2, 1), (1, 0, -1), (3,),
                                  (0, 3), (2, 0, -1), (0, 3, 2), (0.5, 2.5)], ids=repr)
def test_arange_bool_dtype_rule(device, args):
    check_like_numpy(lambda: np.arange(*args, dtype=bool),
                     lambda: tp.arange(*args, dtype=bool), bits=True)


@pytest.mark.parametrize("args", [(0, 5, 0), (0.0, 3.0, 0.0), (1, 2, 0.0), (5, 1, 0)], ids=repr)
def test_arange_step_zero(device, args):
    with pytest.raises(ZeroDivisionError):
        np.arange(*args)
    assert_raises_like(lambda: np.arange(*args), lambda: tp.arange(*args))


@pytest.mark.parametrize("args", [(0, float("nan")), (0, float("inf")), (float("nan"),),
                                  (0, 1, float("nan"))], ids=repr)
def test_arange_non_finite_raise(device, args):
    assert_raises_like(lambda: np.arange(*args), lambda: tp.arange(*args))


@pytest.mark.parametrize("args", [("a",), ([1, 2],), (0, None, [1])], ids=repr)
def test_arange_bad_arguments(device, args):
    assert_raises_like(lambda: np.arange(*args), lambda: tp.arange(*args))


def test_arange_zero_d_array_arguments(device):
    assert_same(tp.arange(np.array(5)), np.arange(np.array(5)))
    assert_same(tp.arange(tp.asarray(2), 9, tp.asarray(3)), np.arange(np.array(2), 9, 3))
    assert_same(tp.arange(np.float32(1), tp.asarray(np.float32(2.5)), 0.5),
                np.arange(np.float32(1), np.float32(2.5), 0.5))


def test_arange_keyword_stop(device):
    check_like_numpy(lambda: np.arange(stop=4), lambda: tp.arange(stop=4))
    check_like_numpy(lambda: np.arange(start=1, stop=4, step=2),
                     lambda: tp.arange(start=1, stop=4, step=2))


@pytest.mark.parametrize("args", [(10**6,), (0, 1, 1e-5), (-3e5, 3e5, 0.7)], ids=repr)
def test_arange_long(device, args):
    check_like_numpy(lambda: np.arange(*args), lambda: tp.arange(*args), bits=True)


# ---------------------------------------------------------------------------------- linspace

LINSPACE_CASES = [
    ((0, 1), {}),
    ((0, 1, 5), {}),
    ((-3.5, 7.25, 13), {}),
    ((0, 1, 7), {"endpoint": False}),
    ((1, 0, 9), {}),
    ((0, 1, 0), {}),
    ((0, 1, 0), {"endpoint": False}),
    ((0, 1, 1), {}),
    ((0, 1, 1), {"endpoint": False}),
    ((2, 3, 2), {}),
    ((5, 5, 4), {}),
    ((5, 5, 4), {"endpoint": False}),
    ((0.1, 0.9, 17), {}),
    ((1e-300, 1e300, 11), {}),
    ((-0.0, 0.0, 3), {}),
    ((-1, -0.0, 3), {}),
    ((2, 8, 4), {"dtype": int}),
    ((0, 10, 7), {"dtype": int}),
    ((-5, 10, 7), {"dtype": int}),
    ((-5, 10, 7), {"dtype": np.int8}),
    ((-7.5, -0.5, 6), {"dtype": np.int32, "endpoint": False}),
    ((0, 255, 7), {"dtype": np.uint8}),
    ((0, 1, 10), {"dtype": np.float32}),
    ((0.1, 2.3, 9), {"dtype": np.float16}),
    ((0, 1, 5), {"dtype": complex}),
    ((0, 1 + 2j, 5), {}),
    ((1j, -1j, 4), {"endpoint": False}),
    ((1 + 1j, 3 - 2j, 6), {"dtype": np.complex64}),
    ((np.float32(0), np.float32(1), 5), {}),
    ((np.float32(0.1), 3, 7), {}),
    ((np.float16(0), np.float16(1), 9), {}),
    ((np.int8(-3), np.int8(5), 4), {}),
    ((np.uint8(3), np.uint8(250), 6), {}),
    ((True, False, 3), {}),
    ((0, 1, np.int64(4)), {}),
    ((0, 1, 1000), {}),
    ((float("nan"), 1, 3), {}),
    ((0, float("inf"), 3), {}),
]


@pytest.mark.parametrize("args,kwargs", LINSPACE_CASES, ids=repr)
def test_linspace_values(device, args, kwargs):
    out = check_like_numpy(lambda: np.linspace(*args, **kwargs),
                           lambda: tp.linspace(*args, **kwargs), bits=True)
    if out is not None:
        assert out.device == device
        assert out.flags.c_contiguous


@pytest.mark.parametrize("args,kwargs", LINSPACE_CASES, ids=repr)
def test_linspace_retstep(device, args, kwargs):
    expected, error = numpy_result(lambda: np.linspace(*args, retstep=True, **kwargs))
    if error is not None:
        assert_raises_like(lambda: np.linspace(*args, retstep=True, **kwargs),
                           lambda: tp.linspace(*args, retstep=True, **kwargs))
        return
    out, step = tp.linspace(*args, retstep=True, **kwargs)
    assert_bits(out, expected[0])
    assert type(step) is type(expected[1])
    assert np.array_equal(step, expected[1], equal_nan=True)


@pytest.mark.parametrize("num", [-1, -10])
def test_linspace_negative_num(device, num):
    with pytest.raises(ValueError):
        np.linspace(0, 1, num)
    assert_raises_like(lambda: np.linspace(0, 1, num), lambda: tp.linspace(0, 1, num))


@pytest.mark.parametrize("num", [5.0, "5", None], ids=repr)
def test_linspace_bad_num(device, num):
    assert_raises_like(lambda: np.linspace(0, 1, num), lambda: tp.linspace(0, 1, num))


ARRAY_ENDPOINTS = [
    (np.array([0.0, 1.0]), 5.0, {}),
    (0.0, [4.0, 8.0], {}),
    ([[0.0], [2.0]], [1.0, 3.0, 5.0], {"num": 5}),
    (np.array([1, 2]), np.array([10, 3]), {"dtype": np.int64, "num": 4}),
    (np.array([0.0, 1.0]), 1.0, {"num": 3}),           # a zero-length interval
    (np.array([1.0, 2.0]), 3.0, {"endpoint": False, "num": 4}),
    (np.array([1.0, 2.0]), 3.0, {"num": 1}),
    (np.array([1.0, 2.0]), 3.0, {"num": 0}),
    (np.array([1.0, 2.0]), 3.0, {"axis": -1}),
    (np.array([1.0, 2.0]), 3.0, {"axis": 2}),             # out of bounds
    (np.array([1.0, 2.0], np.float32), 3.0, {"retstep": True}),
    (np.array([1 + 1j, 2.0]), 3.0, {}),
]


@pytest.mark.parametrize("start,stop,kwargs", ARRAY_ENDPOINTS,
                         ids=[str(i) for i in range(len(ARRAY_ENDPOINTS))])
@pytest.mark.parametrize("wrap", ["numpy", "tessera"])
def test_linspace_array_valued_endpoints(device, start, stop, kwargs, wrap):
    def call(m):
        a, b = start, stop
        if m is tp and wrap == "tessera":
            a = tp.asarray(a) if not np.isscalar(a) else a
            b = tp.asarray(b) if not np.isscalar(b) else b
        return m.linspace(a, b, **{"num": 4, **kwargs})

    expected, error = numpy_result(lambda: call(np))
    if error is not None:
        assert_raises_like(lambda: call(np), lambda: call(tp))
        return
    got = call(tp)
    if kwargs.get("retstep"):
        (got, got_step), (expected, expected_step) = got, expected
        np.testing.assert_array_equal(tp.asnumpy(got_step) if isinstance(got_step, tp.ndarray)
                                      else got_step, expected_step)
    assert_same(got, expected)


# --------------------------------------------------------------------------- eye / identity

@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("k", [-6, -2, -1, 0, 1, 3, 6])
@pytest.mark.parametrize("N,M", [(0, None), (1, None), (3, None), (3, 5), (5, 3), (4, 0),
                                 (0, 3), (1, 4)])
def test_eye(device, N, M, k, order):
    t = tp.eye(N, M, k=k, order=order)
    n = np.eye(N, M, k=k, order=order)
    assert_same(t, n)
    assert_layout(t, n)
    assert t.device == device


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("k", [-1, 0, 2])
def test_eye_dtype(device, dtype, k, order):
    t = tp.eye(4, 5, k, dtype, order)
    n = np.eye(4, 5, k, dtype, order)
    assert_same(t, n)
    assert_layout(t, n)


@pytest.mark.parametrize("n", [0, 1, 4])
def test_identity(device, dtype, n):
    assert_same(tp.identity(n, dtype=dtype), np.identity(n, dtype=dtype), strides=True)
    assert_same(tp.identity(n), np.identity(n), strides=True)


@pytest.mark.parametrize("args,kwargs", [((-1,), {}), ((2, -3), {}), ((2.5,), {}),
                                         ((3,), {"k": 1.5}), ((3,), {"order": "Q"}),
                                         ((3, 2.0), {})], ids=repr)
def test_eye_errors(device, args, kwargs):
    assert_raises_like(lambda: np.eye(*args, **kwargs), lambda: tp.eye(*args, **kwargs))


@pytest.mark.parametrize("n", [-2, 2.5])
def test_identity_errors(device, n):
    assert_raises_like(lambda: np.identity(n), lambda: tp.identity(n))


# ------------------------------------------------------------------------------------- copy

@pytest.mark.parametrize("order", ["K", "C", "F", "A"])
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
@pytest.mark.parametrize("source", ["numpy", "tessera"])
def test_copy_function(device, some_dtype, source, layout, order):
    t_in, n = make_pair(layout, some_dtype)
    src = n if source == "numpy" else t_in
    out = tp.copy(src, order=order)
    expected = np.copy(n, order=order)
    assert_same(out, expected, strides=True)
    assert out.flags.owndata and out.flags.writeable
    assert out.device == device
    if n.size:
        assert not shares(out, src)


def test_copy_default_order_is_k(device, dtype):
    t_in, n = make_pair("fortran", dtype)
    assert_same(tp.copy(t_in), np.copy(n), strides=True)


@pytest.mark.parametrize("order", [None, "K", "C", "F", "A"])
@pytest.mark.parametrize("layout", ["fortran", "negative", "0d", "broadcast", "permuted3d"])
def test_copy_method(device, some_dtype, layout, order):
    t_in, n = make_pair(layout, some_dtype)
    kwargs = {} if order is None else {"order": order}
    out = t_in.copy(**kwargs)
    assert_same(out, n.copy(**kwargs), strides=True)
    if n.size:
        assert not shares(out, t_in)


def test_copy_is_independent(device, dtype):
    t_in, n = make_pair("c2d", dtype)
    out = tp.copy(t_in)
    t_in[...] = sample(n.shape, dtype, seed=5)
    assert_same(out, n)


# ------------------------------------------------------- ascontiguousarray / asfortranarray

@pytest.mark.parametrize("func", ["ascontiguousarray", "asfortranarray"])
@pytest.mark.parametrize("layout", LAYOUT_NAMES)
@pytest.mark.parametrize("source", ["numpy", "tessera"])
def test_contiguous_conversions(device, some_dtype, source, layout, func):
    t_in, n = make_pair(layout, some_dtype)
    src = n if source == "numpy" else t_in
    out = getattr(tp, func)(src)
    expected = getattr(np, func)(n)
    assert_same(out, expected)
    assert_layout(out, expected)
    assert out.device == device
    if n.size:
        # A NumPy array moves to a device by copy.
        assert shares(out, src) == (np.shares_memory(expected, n)
                                    and (source == "tessera" or host_shared(device)))
    if source == "tessera":
        assert (out is t_in) == (expected is n)


@pytest.mark.parametrize("target", [np.float32, np.int64, np.complex128, np.bool_], ids=repr)
@pytest.mark.parametrize("func", ["ascontiguousarray", "asfortranarray"])
@pytest.mark.parametrize("layout", ["c2d", "fortran", "strided", "0d"])
def test_contiguous_conversions_dtype(device, layout, func, target):
    t_in, n = make_pair(layout, np.float64)
    out = getattr(tp, func)(t_in, dtype=target)
    expected = getattr(np, func)(n, dtype=target)
    assert_same(out, expected)
    assert_layout(out, expected)


@pytest.mark.parametrize("obj", [[[1, 2], [3, 4]], 7, 2.5, [], [[1.5, 2.5, 3.5]]], ids=repr)
@pytest.mark.parametrize("func", ["ascontiguousarray", "asfortranarray"])
def test_contiguous_conversions_from_sequences(device, func, obj):
    out = getattr(tp, func)(obj)
    expected = getattr(np, func)(obj)
    assert_same(out, expected)
    assert_layout(out, expected)


def test_ascontiguousarray_shares_with_contiguous_numpy(device):
    n = np.arange(12.0).reshape(3, 4)
    t = tp.ascontiguousarray(n)
    before = n.copy()
    n[1, 2] = -1.0
    assert_same(t, n if host_shared(device) else before)


def test_bit_exact_helper_detects_differences():
    # The bit-exact helper must detect a sign-of-zero or last-bit difference.
    x = np.array([0.1, 0.2])
    with pytest.raises(AssertionError):
        assert_bits(tp.asarray(np.nextafter(x, 1)), x)
    with pytest.raises(AssertionError):
        assert_bits(tp.asarray([-0.0]), np.array([0.0]))
