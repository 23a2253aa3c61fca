"""Set operations of 1-d arrays (isin, intersect1d, setdiff1d, setxor1d, union1d), ediff1d,
and the type checks and checking conversions (isscalar, iscomplex, isreal, iscomplexobj,
isrealobj, isfortran, asarray_chkfinite, real_if_close, require), against NumPy."""

import numpy as np
import pytest

import tessera as tp

from conftest import assert_same, sample
from oracle import assert_raises_like, numpy_result

NAN = np.nan

# (ar1, ar2) pairs as NumPy data: duplicates, multi-d (flattened), empty, 0-d, NaN, mixed
# dtypes, bool, complex.
PAIRS = {
    "int_dups": (np.array([5, 1, 3, 1, 5, 7, 3, 0]), np.array([3, 3, 8, 0, -1, 5])),
    "int_2d": (np.arange(12).reshape(3, 4) % 7, np.array([[2, 9], [4, 4], [11, 0]])),
    "int_3d_float": (sample((2, 3, 2), np.int16, seed=1) % 9,
                     np.array([1.0, 2.5, -3.0, 4.0, 8.0])),
    "empty_left": (np.array([], dtype=np.int64), np.array([1, 2, 3])),
    "empty_right": (np.array([1.5, 2.5, 1.5]), np.array([], dtype=np.float32)),
    "empty_both": (np.zeros((0, 3), dtype=np.float32), np.array([], dtype=np.int8)),
    "zero_d_left": (np.array(3), np.array([1, 3, 5])),
    "zero_d_right": (np.array([1.0, 2.0, 2.0, 4.0]), np.array(2.0)),
    "zero_d_both": (np.array(7, dtype=np.int8), np.array(7, dtype=np.int8)),
    "nan": (np.array([1.0, NAN, 2.0, NAN, 0.0, 3.0]), np.array([NAN, 0.0, 2.0, 5.0, NAN])),
    "nan_left_only": (np.array([NAN, 1.0, NAN]), np.array([1.0, 4.0])),
    "float32_int8": (sample((20,), np.float32, seed=2).round(),
                     sample((15,), np.int8, seed=3) % 10),
    "uint8_int8": (np.array([0, 200, 5, 255, 5], dtype=np.uint8),
                   np.array([-1, 5, 127, -56, 0], dtype=np.int8)),
    "bool": (np.array([True, False, True]), np.array([True, True])),
    "bool_int": (np.array([[True], [False]]), np.array([1, 2, 3])),
    "complex": (np.array([1 + 1j, 2 - 1j, 1 + 1j, 3 + 0j, 1 - 1j]),
                np.array([1 + 1j, 3.0 + 0j, 1j, 2 - 1j])),
    "complex_float": (np.array([1 + 0j, 2 + 1j, 3 + 0j], dtype=np.complex64),
                      np.array([3.0, 1.0, 2.0])),
    "complex_nan": (np.array([complex(NAN, 0), 1 + 1j, complex(0, NAN), 1 + 1j]),
                    np.array([1 + 1j, complex(NAN, 0)])),
    "big": (sample((400,), np.int32, seed=4), sample((300,), np.int32, seed=5)),
    # + 0.0: no -0.0, as which of two equal zeros a sort keeps first is unspecified.
    "big_float": (sample((25, 16), np.float64, seed=6).round() + 0.0,
                  sample((90,), np.float64, seed=7).round() + 0.0),
}

# Pairs whose inputs are each unique (for assume_unique=True, where NumPy's result on
# duplicates is undefined).
UNIQUE_PAIRS = {
    "int": (np.array([5, 1, 3, 7, 0]), np.array([3, 8, 0, -1, 5])),
    "int_2d": (np.array([[9, 2], [4, 6]]), np.array([[2, 3, 4]])),
    "float_int": (np.array([2.5, 1.0, -3.0, 8.0]), np.array([1, 8, 4], dtype=np.int16)),
    "empty": (np.array([], dtype=np.float64), np.array([1, 2])),
    "zero_d": (np.array(4), np.array([4, 5])),
    "bool": (np.array([False, True]), np.array([True])),
    "complex": (np.array([1j, 2 + 0j, 1 - 1j]), np.array([2 + 0j, 1 + 1j])),
    "nan": (np.array([1.0, NAN, 3.0]), np.array([NAN, 3.0])),
}


def _tp(*arrays):
    return [tp.asarray(a) for a in arrays]


def _check(np_call, tp_call):
    """tessera's result equals NumPy's, or raises the exception type NumPy raises."""
    expected, error = numpy_result(np_call)
    if error is not None:
        assert_raises_like(np_call, tp_call)
    else:
        assert_same(tp_call(), expected)


def _assert_all_same(got, expected):
    assert isinstance(got, tuple) and len(got) == len(expected)
    for g, e in zip(got, expected):
        assert_same(g, e)


# ------------------------------------------------------------------------------- isin

@pytest.mark.parametrize("invert", [False, True])
@pytest.mark.parametrize("name", sorted(PAIRS))
def test_isin(device, name, invert):
    a, b = PAIRS[name]
    ta, tb = _tp(a, b)
    assert_same(tp.isin(ta, tb, invert=invert), np.isin(a, b, invert=invert))


@pytest.mark.parametrize("invert", [False, True])
@pytest.mark.parametrize("name", sorted(UNIQUE_PAIRS))
def test_isin_assume_unique(device, name, invert):
    a, b = UNIQUE_PAIRS[name]
    ta, tb = _tp(a, b)
    assert_same(tp.isin(ta, tb, assume_unique=True, invert=invert),
                np.isin(a, b, assume_unique=True, invert=invert))


@pytest.mark.parametrize("kind", [None, "sort", "table"])
@pytest.mark.parametrize("name", ["int_dups", "int_2d", "bool", "bool_int", "uint8_int8",
                                  "empty_left", "big"])
def test_isin_kind(device, name, kind):
    a, b = PAIRS[name]
    ta, tb = _tp(a, b)
    for invert in (False, True):
        _check(lambda: np.isin(a, b, kind=kind, invert=invert),
               lambda: tp.isin(ta, tb, kind=kind, invert=invert))


@pytest.mark.parametrize("left,right", [(np.uint64, np.int64), (np.int64, np.uint64),
                                        (np.uint64, np.int8), (np.int16, np.uint64)])
def test_isin_unsigned_with_signed(device, left, right):
    # NumPy compares these exactly (its table method): -1 is not 2**64 - 1.
    a = np.array([0, 1, 5, 7, 3], dtype=left)
    b = np.array([5, 0, 2, 3], dtype=right)
    if np.dtype(left).kind == "i":
        a[-1] = -1
    if np.dtype(right).kind == "i":
        b[-1] = -1
    ta, tb = _tp(a, b)
    for invert in (False, True):
        assert_same(tp.isin(ta, tb, invert=invert), np.isin(a, b, invert=invert))


def test_isin_scalars(device):
    t = tp.asarray(np.array([1, 2, 3]))
    assert_same(tp.isin(2, t), np.isin(2, np.array([1, 2, 3])))
    assert_same(tp.isin(t, 3), np.isin(np.array([1, 2, 3]), 3))
    assert_same(tp.isin(2.5, t, invert=True), np.isin(2.5, np.array([1, 2, 3]), invert=True))


def test_isin_large_random(device):
    # Large enough that NumPy sorts rather than loops; tessera searches either way.
    a = sample((3000,), np.int64, seed=8)
    b = sample((700,), np.int64, seed=9) * 3
    ta, tb = _tp(a, b)
    assert_same(tp.isin(ta, tb), np.isin(a, b, kind="sort"))
    af, bf = a / 4.0, b / 4.0
    assert_same(tp.isin(*_tp(af, bf), invert=True), np.isin(af, bf, invert=True))


@pytest.mark.parametrize("case", ["bad_kind", "table_float", "table_overflow",
                                  "table_bool_float"])
def test_isin_errors(device, case):
    a, b, kind = {
        "bad_kind": (np.array([1, 2]), np.array([1]), "hash"),
        "table_float": (np.array([1.0, 2.0]), np.array([1, 2]), "table"),
        "table_overflow": (np.array([1], dtype=np.int8), np.array([-100, 100], dtype=np.int8),
                           "table"),
        "table_bool_float": (np.array([True]), np.array([0.5]), "table"),
    }[case]
    ta, tb = _tp(a, b)
    assert_raises_like(lambda: np.isin(a, b, kind=kind), lambda: tp.isin(ta, tb, kind=kind))


# ------------------------------------------------------------------------- intersect1d

@pytest.mark.parametrize("return_indices", [False, True])
@pytest.mark.parametrize("name", sorted(PAIRS))
def test_intersect1d(device, name, return_indices):
    a, b = PAIRS[name]
    ta, tb = _tp(a, b)
    got = tp.intersect1d(ta, tb, return_indices=return_indices)
    expected = np.intersect1d(a, b, return_indices=return_indices)
    if return_indices:
        _assert_all_same(got, expected)
    else:
        assert_same(got, expected)


@pytest.mark.parametrize("return_indices", [False, True])
@pytest.mark.parametrize("name", sorted(UNIQUE_PAIRS))
def test_intersect1d_assume_unique(device, name, return_indices):
    a, b = UNIQUE_PAIRS[name]
    ta, tb = _tp(a, b)
    got = tp.intersect1d(ta, tb, assume_unique=True, return_indices=return_indices)
    expected = np.intersect1d(a, b, assume_unique=True, return_indices=return_indices)
    if return_indices:
        _assert_all_same(got, expected)
    else:
        assert_same(got, expected)


# ------------------------------------------------------- setdiff1d, setxor1d, union1d

@pytest.mark.parametrize("name", sorted(PAIRS))
@pytest.mark.parametrize("op", ["setdiff1d", "setxor1d", "union1d"])
def test_set_operation(device, op, name):
    a, b = PAIRS[name]
    ta, tb = _tp(a, b)
    assert_same(getattr(tp, op)(ta, tb), getattr(np, op)(a, b))
    assert_same(getattr(tp, op)(tb, ta), getattr(np, op)(b, a))


@pytest.mark.parametrize("name", sorted(UNIQUE_PAIRS))
@pytest.mark.parametrize("op", ["setdiff1d", "setxor1d"])
def test_set_operation_assume_unique(device, op, name):
    a, b = UNIQUE_PAIRS[name]
    ta, tb = _tp(a, b)
    assert_same(getattr(tp, op)(ta, tb, assume_unique=True),
                getattr(np, op)(a, b, assume_unique=True))


def test_signed_zeros(device):
    # -0.0 equals 0.0. Only results that do not depend on which of two equal zeros a sort
    # puts first are compared (intersect1d's with indices comes from a stable sort).
    a, b = np.array([-0.0, 1.0, 2.0, -0.0]), np.array([0.0, 2.0])
    ta, tb = _tp(a, b)
    for invert in (False, True):
        assert_same(tp.isin(ta, tb, invert=invert), np.isin(a, b, invert=invert))
        assert_same(tp.isin(tb, ta, invert=invert), np.isin(b, a, invert=invert))
    assert_same(tp.setdiff1d(ta, tb), np.setdiff1d(a, b))
    assert_same(tp.setdiff1d(tb, ta), np.setdiff1d(b, a))
    _assert_all_same(tp.intersect1d(ta, tb, return_indices=True),
                     np.intersect1d(a, b, return_indices=True))


def test_set_operations_with_scalars(device):
    a = np.array([3, 1, 2, 3])
    t = tp.asarray(a)
    assert_same(tp.union1d(t, 7), np.union1d(a, 7))
    assert_same(tp.setdiff1d(t, 3), np.setdiff1d(a, 3))
    assert_same(tp.setxor1d(2, t), np.setxor1d(2, a))
    assert_same(tp.intersect1d(t, 1.0), np.intersect1d(a, 1.0))


def test_set_operations_large(device):
    a = sample((2000,), np.int16, seed=10)
    b = sample((1500,), np.int16, seed=11) // 2
    ta, tb = _tp(a, b)
    for op in ("setdiff1d", "setxor1d", "union1d", "intersect1d"):
        assert_same(getattr(tp, op)(ta, tb), getattr(np, op)(a, b))
    _assert_all_same(tp.intersect1d(ta, tb, return_indices=True),
                     np.intersect1d(a, b, return_indices=True))


# ---------------------------------------------------------------------------- ediff1d

EDIFF_INPUTS = {
    "int": np.array([1, 2, 4, 7, 0]),
    "int8_2d": np.array([[1, 100], [-100, 5]], dtype=np.int8),
    "uint8": np.array([5, 3, 250, 1], dtype=np.uint8),
    "float32_3d": sample((2, 2, 3), np.float32, seed=12),
    "float_nan": np.array([1.0, NAN, 3.0, np.inf]),
    "complex": np.array([1 + 1j, 3 - 2j, 0j]),
    "one": np.array([4.0]),
    "zero_d": np.array(5),
    "empty": np.array([], dtype=np.int16),
}


@pytest.mark.parametrize("name", sorted(EDIFF_INPUTS))
def test_ediff1d(device, name):
    a = EDIFF_INPUTS[name]
    assert_same(tp.ediff1d(tp.asarray(a)), np.ediff1d(a))


@pytest.mark.parametrize("pad", ["scalar", "list", "array", "empty", "2d"])
@pytest.mark.parametrize("name", ["int", "int8_2d", "float32_3d", "complex", "zero_d",
                                  "empty"])
def test_ediff1d_to_begin_to_end(device, name, pad):
    # An empty list is float64: NumPy refuses it as padding of integers (same_kind).
    a = EDIFF_INPUTS[name]
    begin, end = {
        "scalar": (-99, 88),
        "list": ([-99, -98], [88, 99]),
        "array": (np.array([7], dtype=np.int8), np.array([3, 4], dtype=np.int16)),
        "empty": (np.array([], dtype=np.int64), []),
        "2d": (np.array([[1, 2], [3, 4]]), np.array([[5], [6]])),
    }[pad]

    def dev(x):
        return tp.asarray(x) if isinstance(x, (np.ndarray, list)) else x

    t = tp.asarray(a)
    _check(lambda: np.ediff1d(a, to_begin=begin), lambda: tp.ediff1d(t, to_begin=dev(begin)))
    _check(lambda: np.ediff1d(a, to_end=end), lambda: tp.ediff1d(t, to_end=dev(end)))
    _check(lambda: np.ediff1d(a, to_end=end, to_begin=begin),
           lambda: tp.ediff1d(t, to_end=dev(end), to_begin=dev(begin)))


@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")
def test_ediff1d_float_padding(device):
    a = np.array([1.5, 4.0, 2.0], dtype=np.float32)
    t = tp.asarray(a)
    assert_same(tp.ediff1d(t, to_begin=0.25, to_end=tp.asarray(np.array([1e40]))),
                np.ediff1d(a, to_begin=0.25, to_end=np.array([1e40])))
    c = np.array([1 + 1j, 2 + 0j])
    assert_same(tp.ediff1d(tp.asarray(c), to_begin=2.5), np.ediff1d(c, to_begin=2.5))


@pytest.mark.parametrize("case", ["float_begin_int", "float_end_int", "complex_begin_float",
                                  "int_begin_bool", "bool_ary", "bool_ary_bool_pad"])
def test_ediff1d_errors(device, case):
    a, begin, end = {
        "float_begin_int": (np.array([1, 2, 3]), np.array([1.5]), None),
        "float_end_int": (np.array([1, 2, 3], dtype=np.int8), None, np.array([0.5])),
        "complex_begin_float": (np.array([1.0, 2.0]), np.array([1j]), None),
        "int_begin_bool": (np.array([True, False]), np.array([1]), None),
        "bool_ary": (np.array([True, False, True]), None, None),
        "bool_ary_bool_pad": (np.array([True, False]), np.array([True]), None),
    }[case]
    t = tp.asarray(a)
    tb = None if begin is None else tp.asarray(begin)
    te = None if end is None else tp.asarray(end)
    assert_raises_like(lambda: np.ediff1d(a, to_begin=begin, to_end=end),
                       lambda: tp.ediff1d(t, to_begin=tb, to_end=te))


# ------------------------------------------------------------------------ type checks

def test_isscalar(device):
    values = [3, 2.5, 1j, True, "s", b"b", np.float32(1), np.int8(2), np.bool_(True),
              np.array(3), np.array([1]), [1], (1,), None, np.str_("x"), slice(1)]
    for v in values:
        assert tp.isscalar(v) == np.isscalar(v), repr(v)
    t0 = tp.asarray(np.array(3.0))
    assert tp.isscalar(t0) is False
    assert tp.isscalar(tp.asarray(np.array([1, 2]))) is False


@pytest.mark.parametrize("dtype", [np.bool_, np.int32, np.uint8, np.float32, np.float64,
                                   np.complex64, np.complex128])
@pytest.mark.parametrize("shape", [(), (0,), (5,), (2, 3)])
def test_iscomplex_isreal(device, dtype, shape):
    a = sample(shape, dtype, seed=13)
    if np.dtype(dtype).kind == "c" and a.size:
        a.flat[0] = a.flat[0].real  # one zero imaginary part
    t = tp.asarray(a)
    assert_same(tp.iscomplex(t), np.asarray(np.iscomplex(a)))
    assert_same(tp.isreal(t), np.asarray(np.isreal(a)))
    assert tp.iscomplexobj(t) == np.iscomplexobj(a)
    assert tp.isrealobj(t) == np.isrealobj(a)
    assert tp.iscomplexobj(a) == np.iscomplexobj(a)
    assert tp.isrealobj(a) == np.isrealobj(a)


def test_iscomplex_scalars(device):
    for v in (3, 2.5, 1 + 0j, 1 + 2j, True):
        assert_same(tp.iscomplex(v), np.asarray(np.iscomplex(v)))
        assert_same(tp.isreal(v), np.asarray(np.isreal(v)))


def test_iscomplexobj_host_values():
    values = [3, 2.5, 1j, True, [1, 2], [1, 2j], (1.5,), np.complex64(0), np.float16(1),
              np.array([1j]), np.array([1.0]), np.dtype(np.complex64).type(1)]
    for v in values:
        assert tp.iscomplexobj(v) == np.iscomplexobj(v), repr(v)
        assert tp.isrealobj(v) == np.isrealobj(v), repr(v)


def test_isfortran(device):
    a = np.arange(12.0).reshape(3, 4)
    t = tp.asarray(a)
    for tv, nv in [(t, a), (t.T, a.T), (t[:, 1], a[:, 1]), (t[:1], a[:1]),
                   (tp.asfortranarray(t), np.asfortranarray(a)), (t[::2, ::2], a[::2, ::2]),
                   (tp.asarray(np.array(1.0)), np.array(1.0)),
                   (tp.asarray(np.arange(4)), np.arange(4))]:
        assert tp.isfortran(tv) == np.isfortran(nv)
    assert tp.isfortran(a.T) == np.isfortran(a.T)


@pytest.mark.parametrize("values", [[1.0, 2.0], [1.0, np.inf], [NAN, 1.0], [-np.inf],
                                    [1 + 1j, complex(1, NAN)], [1, 2], [True], []])
def test_asarray_chkfinite(device, values):
    a = np.array(values)
    t = tp.asarray(a)
    expected = None
    try:
        expected = np.asarray_chkfinite(a)
    except ValueError:
        pass
    if expected is None:
        assert_raises_like(lambda: np.asarray_chkfinite(a), lambda: tp.asarray_chkfinite(t))
    else:
        assert_same(tp.asarray_chkfinite(t), expected)


@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")
def test_asarray_chkfinite_dtype(device):
    t = tp.asarray(np.array([1, 2, 3]))
    assert_same(tp.asarray_chkfinite(t, dtype=np.float32),
                np.asarray_chkfinite(np.array([1, 2, 3]), dtype=np.float32))
    big = np.array([1e300])
    assert_raises_like(lambda: np.asarray_chkfinite(big, dtype=np.float32),
                       lambda: tp.asarray_chkfinite(tp.asarray(big), dtype=np.float32))
    assert tp.asarray_chkfinite(t, order="F").dtype == np.int64


@pytest.mark.parametrize("tol", [100, 1000, 1e-10, 1])
@pytest.mark.parametrize("values,dtype", [
    ([2.1 + 4e-14j, 5.2 + 3e-15j], np.complex128),
    ([2.1 + 4e-13j, 5.2 + 3e-15j], np.complex128),
    ([1 + 1e-6j, 2 + 0j], np.complex64),
    ([1 + 1e-5j], np.complex64),
    ([1 + 0j, -0.0 - 0j], np.complex128),
    ([1.5, 2.5], np.float64),
    ([3, 4], np.int32),
    ([], np.complex128),
])
def test_real_if_close(device, values, dtype, tol):
    a = np.array(values, dtype=dtype)
    assert_same(tp.real_if_close(tp.asarray(a), tol=tol), np.real_if_close(a, tol=tol))


REQUIREMENTS = [None, [], "C", "F", "A", "W", "O", "E", ["C", "W"], ["F", "O"],
                ["ALIGNED", "owndata"], ["c_contiguous"], ("FORTRAN", "E", "W"), "CAO"]


@pytest.mark.parametrize("requirements", REQUIREMENTS, ids=repr)
@pytest.mark.parametrize("layout", ["c", "f", "strided", "readonly_view", "0d", "0d_view"])
def test_require(device, layout, requirements):
    n_owner = np.arange(24.0, dtype=np.float32).reshape(4, 6).copy()
    t_owner = tp.array(n_owner)  # a copy: owns its data, as n_owner does
    views = {
        "c": lambda x: x,
        "f": lambda x: x.T,
        "strided": lambda x: x[::2, 1::2],
        "readonly_view": lambda x: x[1:],
        "0d": lambda x: x[1:2, 2:3].reshape(()).copy(),
        "0d_view": lambda x: x[1:2, 2:3].reshape(()),
    }
    n, t = views[layout](n_owner), views[layout](t_owner)
    if layout == "readonly_view":
        n.flags.writeable = False
        t.flags.writeable = False
    got = tp.require(t, requirements=requirements)
    expected = np.require(n, requirements=requirements)
    assert_same(got, expected)
    for flag in ("C_CONTIGUOUS", "F_CONTIGUOUS", "WRITEABLE", "OWNDATA"):
        assert got.flags[flag] == expected.flags[flag], flag


def test_require_dtype(device):
    a = np.arange(6, dtype=np.int16).reshape(2, 3)
    t = tp.asarray(a)
    for req in (None, "F", ["C", "O"]):
        got = tp.require(t, dtype=np.float64, requirements=req)
        expected = np.require(a, dtype=np.float64, requirements=req)
        assert_same(got, expected)
        assert got.flags.f_contiguous == expected.flags.f_contiguous


@pytest.mark.parametrize("requirements", [["C", "F"], "CF", ["X"], ["C", "bogus"]])
def test_require_errors(device, requirements):
    a = np.arange(4.0)
    t = tp.asarray(a)
    assert_raises_like(lambda: np.require(a, requirements=requirements),
                       lambda: tp.require(t, requirements=requirements))
