"""Array attributes (shape, dtype, strides, flags, base, device, T, real/imag, ...), dtype
handling, the ndarray constructor, Device, the memory pool and the limits on shapes, checked
against NumPy where NumPy has an answer."""

import copy
import gc
import pickle

import numpy as np
import pytest

import tessera as tp

from conftest import ALL_DTYPES, assert_same
from oracle import assert_raises_like, compact_id as _ids, data, make, message_of

LAYOUTS = ["contiguous", "fortran", "strided", "negative", "broadcast", "transposed_negative"]


# --------------------------------------------------------------------------------------------
# helpers


def same_outcome(np_call, tp_call, check=None):
    """tessera's result matches NumPy's (by `check`, default shape and dtype), or both raise
    alike."""
    try:
        expected = np_call()
    except Exception:
        assert_raises_like(np_call, tp_call)
        return
    got = tp_call()
    if check is None:
        assert got.shape == expected.shape and got.dtype == expected.dtype
    else:
        check(got, expected)


def dtype_id(d):
    return np.dtype(d).name


SHAPES = [(), (0,), (5,), (2, 3), (3, 1, 4), (2, 0, 3), (1, 1), (2, 3, 4, 5)]


# --------------------------------------------------------------------------------------------
# shape, dtype, ndim, size, nbytes, itemsize, strides


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
@pytest.mark.parametrize("shape", SHAPES, ids=_ids)
def test_basic_attributes(device, shape, dtype):
    n = data(shape, dtype)
    for t in (tp.array(n), tp.zeros(shape, dtype), tp.empty(shape, dtype)):
        assert t.shape == n.shape and type(t.shape) is tuple
        assert all(type(d) is int for d in t.shape)
        assert t.dtype == n.dtype and isinstance(t.dtype, np.dtype)
        assert t.ndim == n.ndim and type(t.ndim) is int
        assert t.size == n.size and type(t.size) is int
        assert t.nbytes == n.nbytes and type(t.nbytes) is int
        assert t.itemsize == n.itemsize and type(t.itemsize) is int
        assert type(t.strides) is tuple
        if n.size:  # NumPy gives fresh zero-size arrays all-zero strides (known, intended)
            assert t.strides == n.strides


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.complex128], ids=dtype_id)
@pytest.mark.parametrize("shape", [(5,), (2, 3), (3, 1, 4), (2, 3, 4, 5)], ids=_ids)
def test_strides_of_new_arrays(device, shape, dtype, order):
    assert tp.zeros(shape, dtype, order).strides == np.zeros(shape, dtype, order).strides
    assert tp.empty(shape, dtype, order).strides == np.empty(shape, dtype, order).strides
    assert tp.ones(shape, dtype, order).strides == np.ones(shape, dtype, order).strides
    n = np.zeros(shape, dtype, order)
    assert tp.array(n).strides == np.array(n).strides  # order='K' keeps the layout


@pytest.mark.parametrize("dtype", [np.bool_, np.uint16, np.float64, np.complex64], ids=dtype_id)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape", [(5,), (2, 3), (3, 1, 4), (4, 2, 3)], ids=_ids)
def test_attributes_of_views(device, shape, layout, dtype):
    nbase, tbase, n, t = make(shape, dtype, layout)
    for name in ("shape", "dtype", "ndim", "size", "nbytes", "itemsize", "strides"):
        assert getattr(t, name) == getattr(n, name), name
    assert len(t) == len(n)


def test_len(device):
    n = np.zeros((3, 2))
    t = tp.array(n)
    assert len(t) == len(n)
    assert len(t.T) == len(n.T)
    assert len(tp.zeros((0, 4))) == len(np.zeros((0, 4)))
    assert_raises_like(lambda: len(np.zeros(())), lambda: len(tp.zeros(())))


# --------------------------------------------------------------------------------------------
# flags

FLAG_SHAPES = [(), (0,), (5,), (1,), (2, 3), (3, 1), (1, 3), (2, 1, 3), (1, 1), (0, 3), (3, 0)]


@pytest.mark.parametrize("dtype", [np.int8, np.float64], ids=dtype_id)
@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("shape", FLAG_SHAPES, ids=_ids)
def test_flags_of_new_arrays(device, shape, order, dtype):
    n = np.zeros(shape, dtype, order)
    t = tp.zeros(shape, dtype, order)
    for name in ("c_contiguous", "f_contiguous", "owndata", "writeable", "aligned",
                 "writebackifcopy", "contiguous"):
        assert getattr(t.flags, name) == getattr(n.flags, name), name


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("shape", [(), (5,), (2, 3), (3, 1)], ids=_ids)
def test_flags_fortran_attribute(device, shape, order):
    """flags.fortran is NumPy's alias of f_contiguous."""
    for make_view in (lambda a: a, lambda a: a.T, lambda a: a[::2]):
        n = make_view(np.zeros(shape, order=order)) if shape else np.zeros(())
        t = make_view(tp.zeros(shape, order=order)) if shape else tp.zeros(())
        assert t.flags.fortran == n.flags.fortran


VIEW_CASES = [
    ("a[::2]", lambda a: a[::2]), ("a[::-1]", lambda a: a[::-1]), ("a[1:]", lambda a: a[1:]),
    ("a[:, :1]", lambda a: a[:, :1]), ("a[:1]", lambda a: a[:1]),
    ("a[:, 1:2]", lambda a: a[:, 1:2]),
    ("a.T", lambda a: a.T), ("a[None]", lambda a: a[None]), ("a[:, None]", lambda a: a[:, None]),
    ("a[0]", lambda a: a[0]), ("a[0, 0, ...]", lambda a: a[0, 0, ...]),
    ("a[:, 0]", lambda a: a[:, 0]),
    ("a[1:1]", lambda a: a[1:1]), ("a[:, ::-1][:1]", lambda a: a[:, ::-1][:1]),
    ("a[::-1, :1]", lambda a: a[::-1, :1]), ("a[..., :0]", lambda a: a[..., :0]),
    ("a[::3, ::2]", lambda a: a[::3, ::2]), ("a.T[::2]", lambda a: a.T[::2]),
]


@pytest.mark.parametrize("name,view", VIEW_CASES, ids=[v[0] for v in VIEW_CASES])
@pytest.mark.parametrize("order", ["C", "F"])
def test_flags_of_views(device, name, view, order):
    base = np.asarray(np.arange(12.0).reshape(4, 3), order=order)
    n = view(base)
    t = view(tp.array(base))
    assert t.strides == n.strides or n.size == 0
    for flag in ("c_contiguous", "f_contiguous", "owndata", "writeable"):
        assert getattr(t.flags, flag) == getattr(n.flags, flag), flag


@pytest.mark.parametrize("shape,target", [((3,), (2, 3)), ((1,), (4,)), ((), (2, 2)),
                                          ((2, 1), (2, 5)), ((1, 3), (1, 3))], ids=_ids)
def test_flags_of_broadcast(device, shape, target):
    n = np.broadcast_to(np.zeros(shape), target)
    t = tp.broadcast_to(tp.zeros(shape), target)
    for flag in ("c_contiguous", "f_contiguous", "owndata", "writeable"):
        assert getattr(t.flags, flag) == getattr(n.flags, flag), flag


FLAG_KEYS = ["C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED", "WRITEBACKIFCOPY",
             "C", "F", "O", "W", "A", "X", "CONTIGUOUS", "FORTRAN", "c_contiguous", "owndata"]


@pytest.mark.parametrize("key", FLAG_KEYS)
def test_flags_item_access(device, key):
    """flags[key] as NumPy's: the documented upper-case names and letters (NumPy rejects
    lower-case keys with a KeyError)."""
    for make_view in (lambda a: a, lambda a: a.T, lambda a: a[:, ::2], lambda a: a[::-1]):
        n = make_view(np.zeros((2, 3)))
        t = make_view(tp.zeros((2, 3)))
        try:
            expected = n.flags[key]
        except KeyError:
            assert_raises_like(lambda: n.flags[key], lambda: t.flags[key])
        else:
            assert t.flags[key] == expected


@pytest.mark.parametrize("key", ["FNC", "FORC", "BEHAVED", "CARRAY", "FARRAY", "B", "CA", "FA"])
def test_flags_derived_keys(device, key):
    """NumPy's combined flags (FNC, FORC, BEHAVED, ...) answer like NumPy's."""
    for make_view in (lambda a: a, lambda a: a.T, lambda a: a[:, ::2]):
        n = make_view(np.zeros((2, 3)))
        t = make_view(tp.zeros((2, 3)))
        assert t.flags[key] == n.flags[key]
        attribute = {"B": "behaved", "CA": "carray", "FA": "farray"}.get(key, key.lower())
        assert getattr(t.flags, attribute) == getattr(n.flags, attribute)


def test_flags_unknown_key(device):
    n = np.zeros(3)
    t = tp.zeros(3)
    assert_raises_like(lambda: n.flags["XYZ"], lambda: t.flags["XYZ"])


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_writeable_false_blocks_writes(device, dtype):
    n = data((4, 3), dtype)
    t = tp.array(n)
    n.flags.writeable = False
    t.flags.writeable = False
    assert t.flags.writeable == n.flags.writeable
    assert t.flags["WRITEABLE"] == n.flags["WRITEABLE"]
    value = n[0, 0]
    writes = [
        lambda a: a.__setitem__(0, value), lambda a: a.__setitem__(Ellipsis, value),
        lambda a: a.__setitem__((slice(None), 1), value), lambda a: a.fill(value),
        lambda a: a[1:].__setitem__(0, value), lambda a: a.T.__setitem__(Ellipsis, value),
        lambda a: a.reshape(12).__setitem__(0, value),
    ]
    for write in writes:
        assert_raises_like(lambda: write(n), lambda: write(t))
    assert_same(t, n)
    # views made afterwards are read-only too
    assert t[1:].flags.writeable == n[1:].flags.writeable
    assert t.T.flags.writeable == n.T.flags.writeable
    # the owner can be made writeable again
    n.flags.writeable = True
    t.flags.writeable = True
    assert t.flags.writeable == n.flags.writeable
    t[0, 0] = value
    n[0, 0] = value
    assert_same(t, n)


def test_writeable_set_through_item(device):
    n = np.zeros(3)
    t = tp.zeros(3)
    n.flags["WRITEABLE"] = False
    t.flags["WRITEABLE"] = False
    assert t.flags.writeable == n.flags.writeable
    n.flags["W"] = True
    t.flags["W"] = True
    assert t.flags.writeable == n.flags.writeable
    t[0] = 1.0


def test_writeable_true_on_view_of_read_only_base(device):
    nbase = np.zeros((3, 3))
    tbase = tp.zeros((3, 3))
    nbase.flags.writeable = False
    tbase.flags.writeable = False
    for make_view in (lambda a: a[1:], lambda a: a.T, lambda a: a.reshape(9), lambda a: a[0, 0]):
        n, t = make_view(nbase), make_view(tbase)
        assert t.flags.writeable == n.flags.writeable

        def np_call():
            n.flags.writeable = True

        def tp_call():
            t.flags.writeable = True

        assert_raises_like(np_call, tp_call)
        assert t.flags.writeable == n.flags.writeable


def test_writeable_views_made_before(device):
    """A view made while its base was writeable stays writeable (NumPy's behaviour)."""
    n = np.zeros(4)
    t = tp.zeros(4)
    nv, tv = n[1:], t[1:]
    n.flags.writeable = False
    t.flags.writeable = False
    assert tv.flags.writeable == nv.flags.writeable
    nv[0] = 5
    tv[0] = 5
    assert_same(t, n)


def test_writeable_false_on_a_view_only(device):
    n = np.zeros(4)
    t = tp.zeros(4)
    nv, tv = n[::2], t[::2]
    nv.flags.writeable = False
    tv.flags.writeable = False
    assert t.flags.writeable == n.flags.writeable
    assert_raises_like(lambda: nv.__setitem__(0, 1), lambda: tv.__setitem__(0, 1))
    n[0] = 2
    t[0] = 2
    assert_same(tv, nv)
    # the view may become writeable again: its base is writeable
    nv.flags.writeable = True
    tv.flags.writeable = True
    assert tv.flags.writeable == nv.flags.writeable


# --------------------------------------------------------------------------------------------
# base

BASE_CASES = [
    ("a[1:][1:]", lambda a: a[1:][1:]), ("a[1:]", lambda a: a[1:]), ("a.T", lambda a: a.T),
    ("a.T.T", lambda a: a.T.T), ("a[::-1][0]", lambda a: a[::-1][0]),
    ("a.reshape(24)", lambda a: a.reshape(24)),
    ("a.reshape(4,6)[1:]", lambda a: a.reshape(4, 6)[1:]),
    ("a.ravel()", lambda a: a.ravel()), ("a[...]", lambda a: a[...]),
    ("a[None]", lambda a: a[None]), ("a.swapaxes(0,2)", lambda a: a.swapaxes(0, 2)),
    ("a.transpose(1,0,2)", lambda a: a.transpose(1, 0, 2)),
    ("a[0].squeeze()", lambda a: a[:, :1].squeeze()), ("a.real", lambda a: a.real),
    ("a.imag", lambda a: a.imag), ("a.real[1:]", lambda a: a.real[1:]),
    ("a.copy()", lambda a: a.copy()), ("a.flatten()", lambda a: a.flatten()),
    ("a.T.reshape(24)", lambda a: a.T.reshape(24)), ("a.T.ravel()", lambda a: a.T.ravel()),
    ("a.astype(complex64)", lambda a: a.astype(np.complex64)),
]


@pytest.mark.parametrize("name,op", BASE_CASES, ids=[c[0] for c in BASE_CASES])
def test_base(device, name, op):
    """A view's base is the array that owns the data; a copy has no base."""
    n = data((2, 3, 4), np.complex128)
    t = tp.array(n)
    assert t.base is None and n.base is None
    nr, tr = op(n), op(t)
    if nr.base is None:
        assert tr.base is None
    elif nr.base is n:
        assert tr.base is t
    else:  # NumPy made a copy and a view of it: tessera need only own a copy
        assert not np.shares_memory(nr, n)
        assert tr.base is None or tr.base is not t
    assert tr.flags.owndata == (tr.base is None)


def test_base_through_module_functions(device):
    t = tp.zeros((2, 3))
    for view in (tp.transpose(t), tp.reshape(t, 6), tp.ravel(t), tp.expand_dims(t, 0),
                 tp.squeeze(t[:1]), tp.moveaxis(t, 0, 1), tp.broadcast_to(t, (4, 2, 3)),
                 tp.atleast_3d(t), tp.swapaxes(t, 0, 1), tp.matrix_transpose(t)):
        assert view.base is t
    assert tp.broadcast_arrays(t, tp.zeros((5, 1, 1)))[0].base is t


def test_base_of_arrays_sharing_numpy_memory(device):
    """asarray() of a NumPy array shares its memory on the CPU (base is the NumPy array);
    array() copies. Views of the shared array have the NumPy array as their base, as NumPy's
    views of it do."""
    if device.kind != "cpu":
        pytest.skip("memory is shared with NumPy on the CPU only")
    n = data((3, 4), np.float64)
    t = tp.asarray(n)
    assert t.base is n
    assert t[1:].base is n and n[1:].base is n
    assert t.T[::2].base is n
    t[0, 0] = 42.0
    assert n[0, 0] == 42.0
    c = tp.array(n)
    assert c.base is None
    c[0, 0] = -1.0
    assert n[0, 0] == 42.0


# --------------------------------------------------------------------------------------------
# device, T


def test_device_attribute(device):
    t = tp.zeros((2, 3))
    assert isinstance(t.device, tp.Device)
    assert t.device == device
    assert t[1:].device == device and t.T.device == device
    assert tp.array(np.zeros(3)).device == device
    assert tp.get_device() == device
    assert tp.zeros(2, device=device).device == device


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.complex64], ids=dtype_id)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("shape", [(), (5,), (2, 3), (2, 3, 4), (1, 4, 1)], ids=_ids)
def test_T(device, shape, layout, dtype):
    nbase, tbase, n, t = make(shape, dtype, layout)
    assert_same(t.T, n.T, strides=True)
    assert t.T.base is (tbase if t.base is None else t.base)
    assert_same(t.T.T, n, strides=True)


# --------------------------------------------------------------------------------------------
# real and imag


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=dtype_id)
@pytest.mark.parametrize("layout", ["contiguous", "fortran", "strided", "negative",
                                    "transposed_negative"])
@pytest.mark.parametrize("shape", [(), (5,), (2, 3)], ids=_ids)
def test_real_imag_views_of_complex(device, shape, layout, dtype):
    nbase, tbase, n, t = make(shape, dtype, layout)
    for part in ("real", "imag"):
        nv, tv = getattr(n, part), getattr(t, part)
        assert_same(tv, nv, strides=True)
        assert tv.base is tbase
        assert tv.flags.writeable == nv.flags.writeable
        # writes through the view reach the complex array
        idx = (0,) * nv.ndim
        nv[idx] = 7.5
        tv[idx] = 7.5
        assert_same(tbase, nbase)
        nv[...] = nv * 2
        tv[...] = tp.array(tp.asnumpy(tv) * 2)
        assert_same(tbase, nbase)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=dtype_id)
@pytest.mark.parametrize("value", [3, -2.5, np.float32(1.25), [1.0, 2.0, 3.0], [[4.0], [5.0]],
                                   np.arange(3.0)], ids=_ids)
@pytest.mark.parametrize("part", ["real", "imag"])
def test_set_real_imag(device, dtype, value, part):
    for layout in ("contiguous", "negative", "strided"):
        nbase, tbase, n, t = make((2, 3), dtype, layout)
        setattr(n, part, value)
        setattr(t, part, value)
        assert_same(tbase, nbase)
        assert_same(t, n)


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("part", ["real", "imag"])
def test_set_real_imag_errors(device, part):
    n = data((2, 3), np.complex128)
    t = tp.array(n)
    for value in [np.ones(4), 1j, "x"]:
        def np_call():
            setattr(n, part, value)

        def tp_call():
            setattr(t, part, value)

        try:
            np_call()
        except Exception:
            assert_raises_like(np_call, tp_call)
        else:
            tp_call()
        assert_same(t, n)


@pytest.mark.parametrize("dtype", [d for d in ALL_DTYPES if np.dtype(d).kind != "c"], ids=dtype_id)
@pytest.mark.parametrize("layout", ["contiguous", "negative", "strided"])
def test_real_imag_of_real_arrays(device, dtype, layout):
    nbase, tbase, n, t = make((2, 3), dtype, layout)
    # .real: the data itself; writes go through
    assert_same(t.real, n.real, strides=True)
    assert t.real.flags.writeable == n.real.flags.writeable
    value = ~n[0, 0] if np.dtype(dtype).kind == "b" else n[0, 0] + np.asarray(1, dtype)
    n.real[0, 0] = value
    t.real[0, 0] = value
    assert_same(tbase, nbase)
    # .imag: zeros of the same dtype, read-only
    ni, ti = n.imag, t.imag
    assert_same(ti, ni)
    assert ti.flags.writeable == ni.flags.writeable
    assert_raises_like(lambda: ni.__setitem__(0, 1), lambda: ti.__setitem__(0, 1))
    assert_same(tbase, nbase)


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.bool_], ids=dtype_id)
def test_set_imag_of_real_array(device, dtype):
    n = data((3,), dtype)
    t = tp.array(n)

    def np_call():
        n.imag = 1

    def tp_call():
        t.imag = 1

    assert_raises_like(np_call, tp_call)
    n.real = 1
    t.real = 1
    assert_same(t, n)


# --------------------------------------------------------------------------------------------
# dtypes

DTYPE_NAMES = ["bool_", "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
               "uint64", "float16", "float32", "float64", "complex64", "complex128", "intp",
               "uintp", "int_", "uint", "byte", "ubyte", "short", "ushort", "intc", "uintc", "long",
               "ulong", "longlong", "ulonglong", "half", "single", "double", "csingle", "cdouble",
               "number", "integer", "signedinteger", "unsignedinteger", "floating",
               "complexfloating", "inexact", "generic", "dtype", "issubdtype"]
# finfo and iinfo are tessera's (the array API standard's Python-number fields):
# tests/python/test_array_api.py checks them against NumPy's.


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_dtype_objects_are_numpy_objects(name):
    assert getattr(tp, name) is getattr(np, name)


def test_constants():
    assert tp.newaxis is np.newaxis
    for name in ("pi", "e", "inf", "euler_gamma"):
        assert getattr(tp, name) == getattr(np, name)
    assert np.isnan(tp.nan)


ACCEPTED_DTYPES = ["f4", np.float32, float, "complex64", np.dtype("i2"), int, bool, complex,
                   "int64", "u8", "=f8", "<f8", "|b1", "?", "b", "B", "h", "H", "i", "I", "l", "L",
                   "q", "Q", "e", "f", "d", "F", "D", "float16", np.uint32, "c16", np.intc,
                   np.bool_, np.longlong, "uint8", np.dtype(np.complex128), "<i4", "int", "float",
                   "complex", np.int8(0).dtype]

CREATORS = [
    ("zeros", lambda m, d: m.zeros((2, 3), dtype=d)),
    ("empty", lambda m, d: m.empty((2, 3), dtype=d)),
    ("ones", lambda m, d: m.ones(4, dtype=d)),
    ("full", lambda m, d: m.full((2,), 1, dtype=d)),
    ("array", lambda m, d: m.array([1, 0, 1], dtype=d)),
    ("asarray", lambda m, d: m.asarray([[1, 2]], dtype=d)),
    ("arange", lambda m, d: m.arange(3, dtype=d)),
    ("eye", lambda m, d: m.eye(2, dtype=d)),
    ("identity", lambda m, d: m.identity(2, dtype=d)),
    ("zeros_like", lambda m, d: m.zeros_like(m.zeros(3), dtype=d)),
    ("ones_like", lambda m, d: m.ones_like(m.zeros(3), dtype=d)),
    ("empty_like", lambda m, d: m.empty_like(m.zeros(3), dtype=d)),
    ("full_like", lambda m, d: m.full_like(m.zeros(3), 2, dtype=d)),
    ("ndarray", lambda m, d: m.ndarray((2, 2), dtype=d)),
    ("astype", lambda m, d: m.zeros(3).astype(d)),
    ("linspace", lambda m, d: m.linspace(0, 1, 3, dtype=d)),
]


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("creator", CREATORS, ids=[c[0] for c in CREATORS])
@pytest.mark.parametrize("spec", ACCEPTED_DTYPES, ids=lambda d: repr(d))
def test_dtype_argument_accepts_numpy_specs(device, spec, creator):
    name, create = creator

    def check(got, expected):
        assert got.dtype == expected.dtype
        assert got.shape == expected.shape
        if name not in ("empty", "empty_like", "ndarray"):
            assert_same(got, expected)

    same_outcome(lambda: create(np, spec), lambda: create(tp, spec), check)


UNSUPPORTED_DTYPES = ["<U5", "U", "S3", bytes, str, object, "O", [("a", "f4")],
                      np.dtype([("a", "i4"), ("b", "f8")]), "datetime64[s]", "M8[ns]", "m8[ns]",
                      np.timedelta64, "V8", np.void, ("f4", (2,)), ">f8", ">i4", ">c16", ">u2",
                      np.dtype("f8").newbyteorder(">")]
if np.dtype(np.longdouble).itemsize != 8:
    UNSUPPORTED_DTYPES += [np.longdouble, np.clongdouble]
if hasattr(np, "float128"):
    UNSUPPORTED_DTYPES += ["float128", "complex256"]


@pytest.mark.parametrize("creator", CREATORS, ids=[c[0] for c in CREATORS])
@pytest.mark.parametrize("spec", UNSUPPORTED_DTYPES, ids=lambda d: repr(d))
def test_unsupported_dtypes(device, spec, creator):
    name, create = creator
    with pytest.raises(TypeError) as info:
        create(tp, spec)
    assert message_of(info.value).startswith("[")
    assert "unsupported dtype" in message_of(info.value)


@pytest.mark.parametrize("spec", ["foo", "f3", 3.5, "i9"], ids=repr)
def test_dtype_not_understood(device, spec):
    assert_raises_like(lambda: np.zeros(3, dtype=spec), lambda: tp.zeros(3, dtype=spec))
    assert_raises_like(lambda: np.array([1], dtype=spec), lambda: tp.array([1], dtype=spec))
    assert_raises_like(lambda: np.ndarray(3, dtype=spec), lambda: tp.ndarray(3, dtype=spec))


@pytest.mark.parametrize("value", [np.array(["a", "b"]), np.array([b"x"]),
                                   np.array([1, "a"], dtype=object),
                                   np.array(["2020-01-01"], dtype="datetime64[D]"),
                                   np.zeros(2, dtype=[("a", "f4")])], ids=lambda v: str(v.dtype))
def test_unsupported_dtypes_of_data(device, value):
    """Data of unsupported dtypes cannot become tessera arrays."""
    with pytest.raises(TypeError) as info:
        tp.array(value)
    assert message_of(info.value).startswith("[")
    assert "unsupported dtype" in message_of(info.value)
    with pytest.raises(TypeError) as info:
        tp.asarray(value)
    assert "unsupported dtype" in message_of(info.value)


@pytest.mark.parametrize("dtype", [">f8", ">i4", ">c8"], ids=str)
def test_non_native_data_is_converted(device, dtype):
    """Non-native *data* (unlike a non-native dtype= argument) is taken in, in native order."""
    n = np.arange(4).astype(dtype)
    t = tp.array(n)
    assert t.dtype == n.dtype.newbyteorder("=")
    assert t.dtype.isnative
    assert np.array_equal(tp.asnumpy(t), n)


# --------------------------------------------------------------------------------------------
# the ndarray constructor


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("dtype", [None, "f4", np.int16, complex, np.dtype("u1")], ids=repr)
@pytest.mark.parametrize("shape", [(2, 3), 5, (), (3, 1, 2), [2, 2]], ids=_ids)
def test_ndarray_constructor(device, shape, dtype, order):
    n = np.ndarray(shape, dtype, order=order)
    t = tp.ndarray(shape, dtype, order)
    assert isinstance(t, tp.ndarray)
    assert t.shape == n.shape and t.dtype == n.dtype
    assert t.strides == n.strides
    assert t.flags.owndata and t.base is None and t.flags.writeable
    assert t.device == device
    t2 = tp.ndarray(shape=shape, dtype=dtype, order=order)
    assert t2.shape == n.shape and t2.dtype == n.dtype and t2.strides == n.strides


def test_ndarray_constructor_device_keyword(device):
    t = tp.ndarray((2,), np.float32, device=device)
    assert t.device == device


@pytest.mark.parametrize("shape", [(-1,), (2, -3), -1, (2**62, 2**62), (1,) * 65, "ab", 2.0],
                         ids=_ids)
def test_ndarray_constructor_errors(device, shape):
    assert_raises_like(lambda: np.ndarray(shape), lambda: tp.ndarray(shape))


def test_ndarray_constructor_bad_order(device):
    assert_raises_like(lambda: np.ndarray((2,), order="X"), lambda: tp.ndarray((2,), order="X"))


# --------------------------------------------------------------------------------------------
# Device


def test_device_basics():
    a, b = tp.Device("cpu"), tp.Device("cpu")
    assert a == b and not (a != b)
    assert hash(a) == hash(b)
    assert a != "cpu"
    assert repr(a) == "Device('cpu')"
    assert str(a) == "cpu"
    assert a.kind == "cpu"
    assert tp.Device(a) == a
    assert len({a, b}) == 1


def test_device_pickle_and_copy():
    d = tp.Device("cpu")
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        e = pickle.loads(pickle.dumps(d, protocol))
        assert isinstance(e, tp.Device) and e == d and repr(e) == repr(d)
    assert copy.copy(d) == d and copy.deepcopy(d) == d


def test_device_context_manager():
    outer = tp.get_device()
    with tp.Device("cpu") as d:
        assert isinstance(d, tp.Device) and d == tp.Device("cpu")
        assert tp.get_device() == d
        assert tp.zeros(3).device == d
        assert tp.array([1, 2]).device == d
        assert tp.arange(3).device == d
        with tp.Device("cpu"):
            assert tp.get_device() == tp.Device("cpu")
        assert tp.get_device() == d
    assert tp.get_device() == outer
    with pytest.raises(RuntimeError):
        with tp.Device("cpu"):
            raise RuntimeError("boom")
    assert tp.get_device() == outer


@pytest.mark.parametrize("spec,error", [("tpu", ValueError), ("", ValueError),
                                        ("cpu:x", ValueError), (5, TypeError), (1.5, TypeError)],
                         ids=_ids)
def test_device_errors(spec, error):
    with pytest.raises(error) as info:
        tp.Device(spec)
    assert message_of(info.value).startswith("[")


# --------------------------------------------------------------------------------------------
# the memory pool


def _settle():
    gc.collect()


def _pool_stats(device):
    """The statistics of the device's pool: tessera.MemoryPool(device) reports those of the
    pool the device's arrays come from (on CUDA, the device pool that
    get_default_memory_pool() gives, whose CuPy API has no stats())."""
    return tp.MemoryPool(device).stats()


def _default_pool_type(device):
    """CuPy's API: the current device's default pool is the CUDA device pool on CUDA."""
    return tp.MemoryPool if device.kind == "cpu" else tp.cuda.MemoryPool


def test_memory_pool_used_bytes(device):
    pool = tp.get_default_memory_pool()
    assert isinstance(pool, _default_pool_type(device))
    _settle()
    before = pool.used_bytes()
    a = tp.empty(1000, np.float64)
    assert pool.used_bytes() >= before + a.nbytes
    view = a[::2]
    during = pool.used_bytes()
    assert view.base is a
    del a
    _settle()
    assert pool.used_bytes() == during, "a view keeps its owner's memory alive"
    del view
    _settle()
    assert pool.used_bytes() == before
    stats = _pool_stats(device)
    assert stats["used_bytes"] == pool.used_bytes() and stats["cached_bytes"] == pool.free_bytes()
    assert stats["peak_used_bytes"] >= before + 8000
    assert pool.total_bytes() == pool.used_bytes() + pool.free_bytes()


def test_memory_pool_free_all_blocks(device):
    pool = tp.get_default_memory_pool()
    a = tp.empty(4096, np.uint8)
    nbytes = a.nbytes
    del a
    _settle()
    assert pool.free_bytes() >= nbytes, "a freed block is cached"
    pool.free_all_blocks()
    assert pool.free_bytes() == 0
    assert _pool_stats(device)["cached_bytes"] == 0


def test_memory_pool_reuses_blocks(device):
    pool = tp.get_default_memory_pool()
    pool.free_all_blocks()
    a = tp.empty((64, 64), np.float32)
    del a
    _settle()
    stats = _pool_stats(device)
    b = tp.empty((64, 64), np.float32)
    after = _pool_stats(device)
    assert after["cache_hits"] == stats["cache_hits"] + 1
    assert after["allocations"] >= stats["allocations"] + 1
    assert pool.free_bytes() < stats["cached_bytes"]
    del b


def test_memory_pool_zero_size_and_copies(device):
    pool = tp.get_default_memory_pool()
    _settle()
    before = pool.used_bytes()
    a = tp.zeros((0, 5))
    b = tp.zeros(100)
    c = b.copy()
    assert pool.used_bytes() >= before + b.nbytes + c.nbytes
    del a, b, c
    _settle()
    assert pool.used_bytes() == before


def test_memory_pool_of_a_device(device):
    pool = tp.MemoryPool(device)
    assert pool.device == device
    assert set(pool.stats()) >= {"used_bytes", "cached_bytes", "peak_used_bytes",
                                 "limit_cached_bytes", "allocations", "cache_hits"}


# --------------------------------------------------------------------------------------------
# limits: negative dimensions, overflowing sizes, invalid axes, > 64 dimensions

BAD_SHAPES = [(-1,), (2, -3), -1, (0, -1), (2**62, 2**62), (2**31, 2**31, 4), (0, 2**62, 2**62),
              2**63 - 1, 2**70, (2**70, 0), (1,) * 65, (0,) * 65]

CREATION_CALLS = [
    ("zeros", lambda m, s: m.zeros(s)), ("empty", lambda m, s: m.empty(s)),
    ("ones", lambda m, s: m.ones(s, dtype=np.int8)), ("full", lambda m, s: m.full(s, 2.0)),
    ("ndarray", lambda m, s: m.ndarray(s)),
    ("broadcast_to", lambda m, s: m.broadcast_to(m.zeros(()), s)),
    ("empty_like", lambda m, s: m.empty_like(m.zeros(2), shape=s)),
]


@pytest.mark.parametrize("call", CREATION_CALLS, ids=[c[0] for c in CREATION_CALLS])
@pytest.mark.parametrize("shape", BAD_SHAPES, ids=lambda s: _ids(s)[:40])
def test_bad_shapes(device, shape, call):
    """Negative dimensions and overflowing sizes are ValueErrors, as in NumPy."""
    _, create = call
    same_outcome(lambda: create(np, shape), lambda: create(tp, shape))


@pytest.mark.parametrize("ndim", [63, 64])
def test_64_dims_allowed(device, ndim):
    shape = (1,) * ndim
    t = tp.zeros(shape)
    assert t.shape == np.zeros(shape).shape
    assert t.reshape(1).shape == (1,)
    assert tp.zeros(1).reshape(shape).ndim == ndim


MANY_DIMS = [
    ("a[None * 65]", lambda m, a: a[(None,) * 65]),
    ("a[None * 64]", lambda m, a: a[(None,) * 64]),
    ("a[None * 63]", lambda m, a: a[(None,) * 63]),
    ("expand_dims 65", lambda m, a: m.expand_dims(a, tuple(range(65)))),
    ("expand_dims 64", lambda m, a: m.expand_dims(a, tuple(range(64)))),
    ("zeros((1,)*64)[None]", lambda m, a: m.zeros((1,) * 64)[None]),
    ("reshape (1,)*65", lambda m, a: a.reshape((1,) * 65)),
    ("broadcast_to (1,)*65", lambda m, a: m.broadcast_to(a, (1,) * 65)),
    ("atleast_3d of 64-d", lambda m, a: m.atleast_3d(m.zeros((1,) * 64))),
]


@pytest.mark.parametrize("name,call", MANY_DIMS, ids=[c[0] for c in MANY_DIMS])
def test_more_than_64_dims(device, name, call):
    same_outcome(lambda: call(np, np.zeros(())), lambda: call(tp, tp.zeros(())))


AXIS_CALLS = [
    ("swapaxes", lambda m, a: m.swapaxes(a, 0, 2)),
    ("swapaxes-neg", lambda m, a: m.swapaxes(a, -3, 0)),
    ("squeeze", lambda m, a: m.squeeze(a[:1], axis=2)),
    ("squeeze-neg", lambda m, a: m.squeeze(a, -3)),
    ("moveaxis-src", lambda m, a: m.moveaxis(a, 2, 0)),
    ("moveaxis-dst", lambda m, a: m.moveaxis(a, 0, -3)),
    ("expand_dims", lambda m, a: m.expand_dims(a, 3)),
    ("expand_dims-neg", lambda m, a: m.expand_dims(a, -4)),
    ("transpose", lambda m, a: m.transpose(a, (0, 2))),
    ("transpose-neg", lambda m, a: m.transpose(a, (-3, 0))),
    ("method-swapaxes", lambda m, a: a.swapaxes(5, 0)),
    ("method-squeeze", lambda m, a: a.squeeze(9)),
]


@pytest.mark.parametrize("name,call", AXIS_CALLS, ids=[c[0] for c in AXIS_CALLS])
def test_invalid_axes(device, name, call):
    n = np.zeros((2, 3))
    t = tp.zeros((2, 3))
    assert_raises_like(lambda: call(np, n), lambda: call(tp, t))
    with pytest.raises(np.exceptions.AxisError):
        call(tp, t)


def test_huge_axes(device):
    """Axes far outside int's range are errors (NumPy: ValueError, of which AxisError is a
    kind), not wrapped around."""
    n = np.zeros((2, 3))
    t = tp.zeros((2, 3))
    with pytest.raises(ValueError):
        np.squeeze(n, -2**63)
    # (not swapaxes: NumPy's swapaxes wraps such axes around to int, and tessera's matches)
    for call in (lambda: tp.squeeze(t, -2**63), lambda: tp.moveaxis(t, 2**32, 0),
                 lambda: tp.expand_dims(t, 2**32), lambda: t.squeeze(2**63 - 1)):
        with pytest.raises(ValueError) as info:
            call()
        assert message_of(info.value).startswith("[")
