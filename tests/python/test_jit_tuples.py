"""Tuples crossing the boundary of a compiled function: tuple arguments (of numbers, arrays
and tuples, to any depth) and nested tuple results, in tessera.jit against numba.njit (the
oracle: the same functions, values, types and errors), and tuple arguments of CUDA kernels
(tessera.cuda.jit on the CUDA device, against Numba's CUDA simulator)."""

import collections
import os
import types

import numpy as np
import pytest

import tessera as tp
from tessera import cuda, jit
from tessera.jit import TypingError

numba = pytest.importorskip("numba")


def twins(f):
    """`f` compiled by tessera.jit and by numba.njit."""
    return jit(f), numba.njit(f)


def same(ours, theirs):
    """Equal values of equal Python types, through tuples; arrays of equal dtype, shape and
    values."""
    assert type(ours) is type(theirs), (ours, theirs)
    if isinstance(theirs, tuple):
        assert len(ours) == len(theirs)
        for a, b in zip(ours, theirs):
            same(a, b)
    elif isinstance(theirs, np.ndarray):
        assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
        np.testing.assert_array_equal(ours, theirs)
    else:
        assert ours == theirs or (ours != ours and theirs != theirs), (ours, theirs)


def item_sum(t):
    return t[0] + t[1] + t[2]


def nested_sum(t):
    a, (b, c) = t
    return a + b * c


def by_variable_index(t, i):
    return t[i] * 2


def loop_over(t):
    s = 0.0
    for x in t:
        s += x
    return s


def length(t):
    return len(t)


def identity(t):
    return t


def swap_nested(t):
    a, (b, c) = t
    return ((c, b), a)


def zeros_of(shape):
    return np.zeros(shape)


def reshaped(a, shape):
    return a.reshape(shape)


def element_at(a, index):
    return a[index]


def store_at(a, index, value):
    a[index] = value


def sums_of_arrays(arrays):
    first, second = arrays
    return first.sum(), second.sum()


def scale_in_place(pair, factor):
    a, b = pair
    for i in range(a.shape[0]):
        a[i] *= factor
    for i in range(b.shape[0]):
        b[i] *= factor


def stats(a):
    return (a.min(), a.max()), (a.sum(), (a * 2, a.shape))


def arrays_and_counts(n):
    x = np.arange(n)
    return ((x, x * 2.0), (n, (x + 1, np.ones(n, np.int8))))


def concatenated(t, u):
    v = t + u
    return v + (len(v),)


def sliced(a, t):
    return a.shape[1:], t[::-1], t[1:-1], t[:0], np.zeros(a.shape[:2]).shape, t[-2:]


def nested_with_empty(t):
    return ((), (t,), ((),))


NUMBERS = [
    (item_sum, ((1, 2, 3),)),
    (item_sum, ((1, 2.5, 3j),)),
    (item_sum, ((True, np.int8(3), np.uint16(7)),)),
    (item_sum, ((np.float32(1.5), np.float32(2.25), np.float32(-1)),)),
    (item_sum, ((2 ** 63 + 5, 1, 2),)),
    (nested_sum, ((1, (2, 3)),)),
    (nested_sum, ((1.5, (np.int16(2), 3j)),)),
    (by_variable_index, ((1, 2, 3), 1)),
    (by_variable_index, ((1.0, 2.0, 3.0), -1)),
    (loop_over, ((1, 2, 3),)),
    (loop_over, ((1.5, -2.0),)),
    (length, ((1, 2.0, (3, 4)),)),
    (length, ((),)),
    (identity, ((1, 2.5),)),
    (identity, ((np.float32(1.5), (np.uint8(3), True), 2j),)),
    (identity, ((),)),
    (swap_nested, ((1, (2.5, 3)),)),
    (nested_with_empty, (7,)),
    (concatenated, ((1, 2.5), ((3j,), True))),
    (concatenated, ((), ())),
]


@pytest.mark.host_only
@pytest.mark.parametrize("function, args", NUMBERS,
                         ids=[f"{f.__name__}-{i}" for i, (f, _) in enumerate(NUMBERS)])
def test_tuples_of_numbers_as_numba(function, args):
    ours, theirs = twins(function)
    same(ours(*args), theirs(*args))


@pytest.mark.host_only
def test_tuple_shapes_and_indices():
    a = np.arange(24.0).reshape(2, 3, 4)
    for f, args in [(zeros_of, ((2, 3),)), (zeros_of, ((4,),)), (reshaped, (a, (6, 4))),
                    (reshaped, (a, (4, -1))), (element_at, (a, (1, 2, 3))),
                    (element_at, (a, (-1, 0, -2)))]:
        ours, theirs = twins(f)
        same(ours(*args), theirs(*args))
    ours_a, theirs_a = a.copy(), a.copy()
    ours, theirs = twins(store_at)
    ours(ours_a, (1, 0, 2), -5.0)
    theirs(theirs_a, (1, 0, 2), -5.0)
    np.testing.assert_array_equal(ours_a, theirs_a)


@pytest.mark.host_only
def test_slices_of_tuples_with_constant_bounds():
    args = (np.ones((2, 3, 4)), (1, 2.5, 3j, True))
    ours, theirs = twins(sliced)
    same(ours(*args), theirs(*args))

    def variable_bound(t, k):
        return t[k:]

    with pytest.raises(TypingError, match="slice bounds must be constant integers"):
        jit(variable_bound)((1, 2), 1)


@pytest.mark.host_only
def test_tuples_of_arrays_are_the_callers_arrays():
    a = np.arange(5.0)
    b = np.arange(3, dtype=np.int64)
    ours, theirs = twins(sums_of_arrays)
    same(ours((a, b)), theirs((a, b)))
    # A view and a tessera array in one tuple: both written in place.
    x, y = np.arange(10.0)[::2], tp.arange(4.0)
    jit(scale_in_place)((x, y), 3.0)
    np.testing.assert_array_equal(x, np.arange(10.0)[::2] * 3)
    np.testing.assert_array_equal(y.get(), np.arange(4.0) * 3)


@pytest.mark.host_only
@pytest.mark.parametrize("function, arg", [(stats, np.array([3.0, -1.0, 2.0])),
                                           (stats, np.arange(6).reshape(2, 3)[:, ::-1]),
                                           (arrays_and_counts, 4), (arrays_and_counts, 0)])
def test_nested_results_holding_arrays(function, arg):
    ours, theirs = twins(function)
    same(ours(arg), theirs(arg))


@pytest.mark.host_only
def test_each_tuple_type_has_its_own_specialization():
    f = jit(item_sum)
    assert f((1, 2, 3)) == 6
    assert f((1.5, 2, 3)) == 6.5
    assert f((1, 2, 3, 4)) == 6  # a longer tuple: its own specialization
    assert f(((1, 2), (3, 4), (5, 6))) == (1, 2, 3, 4, 5, 6)
    assert len(f.signatures) == 4


@pytest.mark.host_only
def test_tuples_holding_what_no_specialization_takes():
    f = jit(item_sum)
    Point = collections.namedtuple("Point", "x y z")
    for bad, held in [((1, "a", 2), "str"), ((1, [2], 3), "list"), ((1, (2, None), 3), "NoneType")]:
        with pytest.raises(TypingError, match=rf"item_sum\(\) argument 1: a tuple holding a {held} "
                                              "is not a number, an array or a tuple of them"):
            f(bad)
    with pytest.raises(TypingError, match="argument 1: a Point is not a number"):
        f(Point(1, 2, 3))


@pytest.mark.host_only
def test_a_variable_index_into_a_mixed_tuple_is_a_typing_error():
    with pytest.raises(TypingError, match="by_variable_index"):
        jit(by_variable_index)((1, 2.5), 0)
    with pytest.raises(numba.core.errors.TypingError):
        numba.njit(by_variable_index)((1, 2.5), 0)


@pytest.mark.host_only
def test_a_result_of_more_than_the_result_buffer_holds():
    def many(a):
        eight = (a, a, a, a, a, a, a, a)
        sixteen = eight + eight
        return (sixteen + sixteen, (sixteen + sixteen, a))

    with pytest.raises(ValueError, match="more than 1024 bytes"):
        jit(many)(1.0)


# --- CUDA kernels ----------------------------------------------------------------------------

def numba_cuda():
    """Numba's CUDA target on its simulator (imported once, with the simulator on)."""
    os.environ["NUMBA_ENABLE_CUDASIM"] = "1"
    numba.config.reload_config()
    from numba import cuda as numba_cuda_module  # noqa: PLC0415
    if not numba.config.ENABLE_CUDASIM:
        pytest.skip("numba.cuda was imported without its simulator")
    return numba_cuda_module


def numba_kernel(f):
    names = dict(f.__globals__)
    names["cuda"] = numba_cuda()
    return numba_cuda().jit(types.FunctionType(f.__code__, names, f.__name__))


def affine(out, x, coefficients):
    i = cuda.grid(1)
    if i < x.size:
        a, (b, c) = coefficients
        out[i] = a * x[i] * x[i] + b * x[i] + c


def add_pair(pair, out):
    i = cuda.grid(1)
    first, second = pair
    if i < out.size:
        out[i] = first[i] + second[i]


def fill_at(a, index, value):
    if cuda.grid(1) == 0:
        a[index] = value


needs_cuda = pytest.mark.skipif(not cuda.is_available(), reason="no CUDA device or simulator")


@needs_cuda
@pytest.mark.parametrize("coefficients", [(2.0, (-1.0, 0.5)), (np.float32(2), (3, True))])
def test_kernel_tuple_of_numbers(coefficients):
    x = np.linspace(-1, 1, 37)
    ours, theirs = np.zeros_like(x), np.zeros_like(x)
    out = cuda.to_device(ours)
    cuda.jit(affine)[2, 32](out, cuda.to_device(x), coefficients)
    numba_kernel(affine)[2, 32](theirs, x, coefficients)
    np.testing.assert_array_equal(out.copy_to_host(), theirs)


@needs_cuda
def test_kernel_tuple_of_device_and_host_arrays():
    a, b = np.arange(40.0), np.arange(40.0) * 3
    out = cuda.device_array(40)
    with pytest.warns(Warning, match="copy overhead"):
        cuda.jit(add_pair)[2, 32]((cuda.to_device(a), b), out)
    np.testing.assert_array_equal(out.copy_to_host(), a + b)


@needs_cuda
def test_kernel_tuple_index():
    a = np.zeros((3, 4))
    d = cuda.to_device(a)
    cuda.jit(fill_at)[1, 32](d, (2, 1), 7.5)
    numba_kernel(fill_at)[1, 32](a, (2, 1), 7.5)
    np.testing.assert_array_equal(d.copy_to_host(), a)


@needs_cuda
def test_kernel_tuple_holding_a_string_is_a_typing_error():
    with pytest.raises(TypingError, match=r"affine\(\) argument 3: a str is not a number, an "
                                          "array or a tuple of them"):
        cuda.jit(affine)[1, 32](cuda.device_array(3), cuda.device_array(3), (1.0, ("x", 2.0)))
