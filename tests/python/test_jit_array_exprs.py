"""NumPy inside jit functions, against Numba: whole-array expressions and reductions
(operators, ufuncs, np.where, copy, astype, sum ... argmax, in-place updates) on broadcast,
strided, reversed, Fortran-ordered and empty arrays, with their values, dtypes and the
exceptions raised; loops that make a new array every iteration run in constant memory;
tuples of arrays returned; np.arange, np.linspace, np.full; and the random numbers of
Python's random and np.random, the same as Numba's for the same seed."""

import math
import random

import numpy as np
import pytest

import tessera as tp
from tessera.bench import _loops
from tessera.jit import TypingError
from tessera.jit.frontend import FunctionSource, lower_function
from tessera.jit.types import ArrayType

numba = pytest.importorskip("numba")

# Numba's advice on strided operands of @ (its BLAS wants contiguous ones): not under test.
# Compiled for the CPU: make test's run on the CUDA device leaves these tests out.
pytestmark = [pytest.mark.filterwarnings("ignore:.*is faster on contiguous arrays"),
              pytest.mark.host_only]


def both(function, *args):
    """The function's result through tessera's jit and Numba's njit, on copies of the
    arguments (so that in-place updates do not meet)."""
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    return tp.jit(function)(*args), numba.njit(function)(*copies)


def same(ours, theirs):
    if isinstance(theirs, tuple):
        assert isinstance(ours, tuple) and len(ours) == len(theirs)
        for o, t in zip(ours, theirs):
            same(o, t)
        return
    if isinstance(theirs, np.ndarray):
        assert isinstance(ours, np.ndarray)
        assert ours.dtype == theirs.dtype, (ours.dtype, theirs.dtype)
        assert ours.shape == theirs.shape
        np.testing.assert_array_equal(ours, theirs)
        return
    assert type(ours) is type(theirs), (type(ours), type(theirs))
    if isinstance(theirs, float) and math.isnan(theirs):
        assert math.isnan(ours)
    else:
        assert ours == theirs


# --- Numba's own first example ------------------------------------------------------------

def go_fast(a):  # Numba's "5 minute guide": a loop, then an array expression returned
    trace = 0.0
    for i in range(a.shape[0]):
        trace += np.tanh(a[i, i])
    return a + trace


@pytest.mark.parametrize("a", [np.arange(100.0).reshape(10, 10),
                               np.arange(100).reshape(10, 10),
                               np.arange(100.0).reshape(10, 10).T,
                               np.arange(200.0).reshape(10, 20)[:, ::2]])
def test_numbas_five_minute_guide(a):
    same(*both(go_fast, a))


# --- operators: Numba's types (NumPy's loop for the operands' dtypes, literals int64 and
# float64, integers meeting floats at the float's width) ---------------------------------

def add(a, b):
    return a + b


def subtract(a, b):
    return a - b


def multiply(a, b):
    return a * b


def true_divide(a, b):
    return a / b


def floor_divide(a, b):
    return a // b


def remainder(a, b):
    return a % b


def power(a, b):
    return a ** b


def bit_and(a, b):
    return a & b


def bit_xor(a, b):
    return a ^ b


def shift_left(a, b):
    return a << b


def less(a, b):
    return a < b


def not_equal(a, b):
    return a != b


_I32 = np.arange(-3, 9, dtype=np.int32)
_F32 = np.linspace(-2, 3, 12, dtype=np.float32)
_F64 = np.linspace(-1.5, 4, 12)
_U8 = np.arange(12, dtype=np.uint8)


@pytest.mark.parametrize("function, a, b", [
    (add, _I32, 1),                              # int32 + int64 literal: int64
    (add, _F32, 2.0),                            # float32 + float64 literal: float64
    (add, _F32, np.float32(2.0)),
    (add, np.ones(4, bool), np.array([True, False, True, False])),
    (add, _U8, 2),
    (add, np.arange(12, dtype=np.int16), np.arange(12, dtype=np.int8)),
    (add, _U8.astype(np.uint64), _I32.astype(np.int64)),
    (subtract, 10, _F64),
    (multiply, _F32, _I32.astype(np.int64)),     # mixed: float32
    (multiply, _F64 + 1j, 2.0),
    (true_divide, _I32, 0),                      # NumPy's semantics: inf, nan, no exception
    (true_divide, _U8, 2),
    (true_divide, _F32, np.float32(0)),
    (floor_divide, _I32, 0),
    (floor_divide, _F64, 0.5),
    (remainder, _I32, 4),
    (remainder, _F64, -1.25),
    (power, _F32, 2),
    (power, _I32, 2),
    (power, 2.0, _F64),
    (bit_and, _I32, 6),
    (bit_xor, np.array([True, False, True]), np.array([True, True, False])),
    (shift_left, _U8, 1),
    (less, _F32, 1),
    (not_equal, _I32, _I32[::-1]),
])
def test_operators(function, a, b):
    same(*both(function, a, b))


def negated(a):
    return -a


def magnitude(a):
    return abs(a)  # Numba has only np.abs for arrays; tessera takes both


def np_negative(a):
    return np.negative(a)


def np_sqrt_abs(a):
    return np.sqrt(np.abs(a))


def np_exp(a):
    return np.exp(a / 10)


@pytest.mark.parametrize("function", [negated, np_negative, np_sqrt_abs, np_exp])
@pytest.mark.parametrize("a", [_I32, _F32, _U8, _F64 - 2j])
def test_unary_operators_and_ufuncs(function, a):
    ours, theirs = both(function, a)
    assert ours.dtype == theirs.dtype
    np.testing.assert_allclose(ours, theirs, rtol=1e-15 if ours.dtype.itemsize > 4 else 1e-6)


def test_abs_of_an_array():
    for a in (_I32, _F64 - 2j):
        result = tp.jit(magnitude)(a)
        assert result.dtype == np.abs(a).dtype
        np.testing.assert_array_equal(result, np.abs(a))


def invert(a):
    return ~a


@pytest.mark.parametrize("a", [_I32, _U8, np.array([True, False])])
def test_invert(a):
    same(*both(invert, a))


def ufunc_mix(x, y, z):
    return np.hypot(x, y) * np.arctan2(y, z) + np.maximum(x, z)


def test_binary_ufuncs_fuse_in_one_expression():
    x, y, z = _F64, _F64[::-1] * 2, np.float32(0.5)
    same(*both(ufunc_mix, x, y, z))


# --- shapes and layouts --------------------------------------------------------------------

def axpy(a, x, y):
    return a * x + y


_M = np.arange(12.0).reshape(3, 4)


@pytest.mark.parametrize("x, y", [
    (_M, _M[::-1]),                              # reversed rows
    (_M, np.arange(4.0)),                        # a row broadcast down
    (_M, np.arange(3.0).reshape(3, 1)),          # a column broadcast across
    (np.arange(3.0).reshape(3, 1), np.arange(4.0)),  # both stretched
    (np.asfortranarray(_M), _M),                 # Fortran order
    (np.arange(24.0).reshape(3, 8)[:, ::2], _M),  # strided
    (_M[:, ::-1], 1.5),                          # negative strides and a scalar
    (np.zeros((0, 4)), np.arange(4.0)),          # empty
    (np.ones((2, 1, 3)), np.ones((4, 1))),       # three dimensions
])
def test_broadcasting_and_layouts(x, y):
    same(*both(axpy, 2.0, x, y))


def test_operands_that_do_not_broadcast_raise_value_error():
    with pytest.raises(ValueError, match="broadcast"):
        tp.jit(axpy)(2.0, np.ones(3), np.ones(4))
    with pytest.raises(ValueError):
        numba.njit(axpy)(2.0, np.ones(3), np.ones(4))


def test_a_result_is_a_new_c_contiguous_array():
    x = np.asfortranarray(_M)
    r = tp.jit(axpy)(1.0, x, 0.0)
    assert r.flags.c_contiguous and r.flags.owndata is False  # owned by tessera's buffer
    x[0, 0] = 100
    assert r[0, 0] == 0


# --- np.where, copy, astype ----------------------------------------------------------------

def choose(c, a):
    return np.where(c, a, 0.0)


def converted(a):
    return a.astype(np.int32) + np.copy(a.T).T.astype(np.float32)


def copy_is_independent(a):
    b = a.copy()
    a[0] = 99.0
    return b


def test_where_copy_astype():
    a = np.linspace(-3, 3, 7, dtype=np.float32)
    same(*both(choose, a > 0, a))
    same(*both(converted, _M[::-1] + 0.5))
    ours, theirs = both(copy_is_independent, _F64.copy())
    same(ours, theirs)
    assert ours[0] == _F64[0]


# --- reductions ----------------------------------------------------------------------------

def reductions(a):
    return (a.sum(), a.prod(), a.min(), a.max(), a.mean(), a.any(), a.all(), a.argmin(),
            a.argmax(), np.sum(a), np.amax(a), np.amin(a), np.argmax(a))


def spread(a):
    return a.var(), np.std(a), np.var(a * 2)


@pytest.mark.parametrize("a", [
    np.arange(1, 9, dtype=np.int32), np.arange(1, 9, dtype=np.uint8),
    np.array([3.5, -1.0, 7.25, 7.25, -1.0], dtype=np.float32), _M[::-1, ::2],
    np.asfortranarray(_M), np.array([True, False, True]), np.arange(6.0).reshape(2, 3).T,
])
def test_reductions_values_and_types(a):
    same(*both(reductions, a))


@pytest.mark.parametrize("a", [np.arange(1, 9, dtype=np.int32), _F32, _M.T, _F64 + 1j])
def test_var_and_std(a):
    ours, theirs = both(spread, a)
    for o, t in zip(ours, theirs):
        assert type(o) is type(t)
        assert o == pytest.approx(t, rel=1e-6)


def test_max_and_argmax_take_the_first_nan():
    a = np.array([1.0, np.nan, 5.0, np.nan])
    same(*both(reductions, a))


def max_of(a):
    return a.max()


def argmin_of(a):
    return a.argmin()


def var_of(a):
    return a.var()


def mean_of(a):
    return a.mean()


@pytest.mark.parametrize("function, error", [(max_of, ValueError), (argmin_of, ValueError),
                                             (var_of, ZeroDivisionError)])
def test_empty_reductions_raise_as_numba(function, error):
    with pytest.raises(error):
        numba.njit(function)(np.ones(0))
    with pytest.raises(error):
        tp.jit(function)(np.ones(0))


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.float32])
def test_the_mean_of_nothing_is_nan(dtype):
    same(*both(mean_of, np.ones(0, dtype)))


def fused_reduction(a, b):
    return ((a - b) ** 2).sum(), (a * b).max(), (a > b).sum()


def test_a_reduction_of_an_expression_stores_nothing():
    same(*both(fused_reduction, _M, np.arange(4.0)))


def a_reduction_with_axis(a):
    return a.max(axis=0)  # Numba has no axis for max either


def test_reduction_arguments_are_refused_by_name():
    with pytest.raises(TypingError, match=r"\.max\(\) takes no arguments"):
        tp.jit(a_reduction_with_axis)(_M)


# --- in-place updates ---------------------------------------------------------------------

def updates(a, b):
    a += b
    a[1:] *= 2
    a -= a[::-1]  # overlapping: every element read before any is written
    return a


def update_rows(a, row):
    a[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
    a += row
    return a


def test_in_place_updates():
    # NumPy is the oracle: Numba's `a -= a[::-1]` reads elements it already wrote.
    a, b = _F64.copy(), _F64[::-1].copy()
    same(tp.jit(updates)(a.copy(), b), updates(a.copy(), b))
    same(*both(update_rows, np.arange(30.0).reshape(5, 6), np.arange(6.0)))


def int_updated_with_a_float(a):
    a += 1.5


def test_an_update_that_needs_an_unsafe_cast_is_refused():
    with pytest.raises(TypingError, match="same_kind"):
        tp.jit(int_updated_with_a_float)(np.ones(3, np.int64))


# --- only the branch taken computes ---------------------------------------------------------

def guarded(a):
    m = a.max() if a.size > 0 else -1.0
    big = a.size > 0 and a.max() > 2.0
    return m, big


def converge(x, y, tol):
    steps = 0
    while np.abs(x - y).max() > tol:
        x = (x + y) * 0.5
        steps += 1
    return steps, x.sum()


def test_conditional_expressions_and_while_tests():
    same(*both(guarded, np.ones(0)))
    same(*both(guarded, _F64))
    same(*both(converge, np.zeros(50), np.linspace(0, 1, 50), 1e-9))


# --- memory --------------------------------------------------------------------------------

def relax(a, n):
    x = a.copy()
    s = 0.0
    for _ in range(n):
        x = x * 0.5 + a           # a variable rebound to a new array
        tail = (x - a)[1:]        # a view of a temporary, dead by the next iteration
        s += tail.sum()
        z = np.zeros(a.size)      # np.zeros in the loop
        z += x
        a = a + z * 1e-9          # an argument rebound
    return s, x


def test_loops_that_make_arrays_run_in_constant_memory():
    # More iterations than the 4096 arrays a call could otherwise hold: without freeing,
    # tessera raises MemoryError.
    ours, theirs = both(relax, np.linspace(0, 1, 64), 5000)
    assert ours[0] == pytest.approx(theirs[0], rel=1e-12)
    np.testing.assert_allclose(ours[1], theirs[1], rtol=1e-12)


def view_of_new(n):
    z = np.zeros(n)
    for i in range(n):
        z[i] = i
    return z[2:]


def view_of_argument(a):
    return a[1:, ::2]


def test_returned_views_are_copies_that_outlive_the_call():
    ours, theirs = both(view_of_new, 1000)
    junk = [np.ones(1000) for _ in range(50)]  # reuse freed memory, if any was freed
    same(ours, theirs)
    del junk
    a = np.arange(12.0).reshape(3, 4)
    ours, theirs = both(view_of_argument, a)
    same(ours, theirs)
    a[1, 0] = -5
    assert ours[0, 0] == 4.0  # a copy (Numba returns a view of the argument)


def several_arrays(c, a):
    return np.where(c, a, 0.0), a.astype(np.int32), a.T, a.sum()


def one_array_twice(n):
    x = np.zeros(n)
    return x, x, x[1:]


def test_tuples_holding_arrays_are_returned():
    a = np.arange(12.0).reshape(3, 4)
    same(*both(several_arrays, a > 3, a))
    ours = tp.jit(one_array_twice)(4)
    same(ours, numba.njit(one_array_twice)(4))
    ours[0][1] = 7.0  # each item owns its memory (Numba's share one array)
    assert ours[1][1] == 0.0 and ours[2][0] == 0.0


# --- typing rules shared with scalars, and refusals ---------------------------------------

def scalar_mixed(x, y):
    return np.power(x, y)


def test_mixed_integer_and_float_ufunc_loops_are_numbas():
    # Numba lets any integer meet a float at the float's width: np.power(float32, int32)
    # is float32 (NumPy's own rule would make it float64).
    source = FunctionSource(scalar_mixed)
    assert lower_function(source, ["float32", "int32"]).return_type == "float32"
    j = numba.njit(scalar_mixed)
    j(np.float32(2), np.int32(3))
    assert str(j.nopython_signatures[0].return_type) == "float32"


def kernel_with_array_arithmetic(a, b):
    b[0] = (a + 1).sum()


def test_cuda_kernels_refuse_whole_array_arithmetic():
    source = FunctionSource(kernel_with_array_arithmetic)
    t = ArrayType("float64", 1, "C")
    with pytest.raises(TypingError, match="CUDA kernel"):
        lower_function(source, [t, t], target="cuda")


def truth_of_an_array(a):
    if a > 0:
        return 1
    return 0


def test_the_truth_of_an_array_is_refused():
    with pytest.raises(TypingError, match="truth"):
        tp.jit(truth_of_an_array)(_F64)


# --- random numbers: Numba's algorithms, so the same seed gives Numba's numbers -----------


def python_random(seed):
    random.seed(seed)
    return (random.gauss(1.0, 2.0), random.gauss(0, 1), random.uniform(2, 5),
            random.randint(3, 100), random.randrange(10), random.randrange(5, 50, 7),
            random.normalvariate(1, 1), random.randint(-2**40, 2**40))


def numpy_random(seed):
    np.random.seed(seed)
    return (np.random.random(), np.random.rand(3), np.random.randn(2, 2),
            np.random.normal(1.0, 2.0), np.random.uniform(1, 3, 4), np.random.randint(10),
            np.random.randint(-5, 10**12, size=(3,)), np.random.standard_normal(3),
            np.random.random_sample((2, 3)), np.random.normal(0.5, 3.0, size=2),
            np.random.randint(7, 8))


def test_monte_carlo_pi_draws_numbas_numbers():
    # The benchmark's copy of Numba's front-page example, seeded inside.
    same(*both(_loops.monte_carlo_pi, 20000))


@pytest.mark.parametrize("seed", [0, 7, 2**32 - 1])
def test_python_and_numpy_random_draw_numbas_numbers(seed):
    same(*both(python_random, seed))
    same(*both(numpy_random, seed))


def unseeded_pi(n):
    acc = 0
    for i in range(n):
        x = np.random.random()
        y = np.random.random()
        if x * x + y * y < 1.0:
            acc += 1
    return 4.0 * acc / n


def test_unseeded_draws_differ_between_calls_and_are_uniform():
    f = tp.jit(unseeded_pi)
    first, second = f(200000), f(200000)
    assert first != second
    assert abs(first - math.pi) < 0.03 and abs(second - math.pi) < 0.03


def empty_range():
    return random.randrange(5, 5)


def test_an_empty_range_raises_value_error():
    with pytest.raises(ValueError, match="empty range"):
        tp.jit(empty_range)()


# --- np.arange, np.linspace, np.full ---------------------------------------------------------

def creations(n):
    return (np.arange(n), np.arange(1.5, n, 0.5), np.arange(2, n, 3), np.arange(n, 0, -2),
            np.linspace(0, 1, n), np.linspace(2, 3, 1), np.linspace(-1, 1), np.full(n, 2.5),
            np.full((2, n), 3), np.full_like(np.ones(n), 7), np.arange(n, dtype=np.float32),
            np.linspace(0, 2, 0), np.arange(0))


@pytest.mark.parametrize("n", [0, 1, 5, 11])
def test_creation_functions(n):
    same(*both(creations, n))


def arange_step_zero(n):
    return np.arange(0, n, 0)


def test_arange_with_a_zero_step_raises_value_error():
    with pytest.raises(ValueError, match="Maximum allowed size exceeded"):
        tp.jit(arange_step_zero)(3)


# --- shapes, products, sums along an axis ----------------------------------------------------

def reshapes(a):
    return (a.reshape((2, 6)), a.reshape(6, 2), a.reshape(-1), np.reshape(a, (4, 3)),
            a.ravel(), a.T.ravel(), a.flatten(), (a + 1).reshape(12), a[1:].ravel(),
            a.reshape(2, -1, 3))


def test_reshape_ravel_flatten():
    same(*both(reshapes, np.arange(12.0).reshape(3, 4)))


def reshape_to(a, n):
    return a.reshape(n, -1)


def reshape_transpose(a):
    return a.T.reshape(12)


def test_reshape_errors():
    with pytest.raises(ValueError, match="total size"):
        tp.jit(reshape_to)(np.arange(12.0), 5)
    with pytest.raises(ValueError):
        numba.njit(reshape_to)(np.arange(12.0), 5)
    with pytest.raises(TypingError, match="C-contiguous"):
        tp.jit(reshape_transpose)(np.ones((3, 4)))


def products(a, b):
    return a @ b, np.dot(a, b), a[0] @ b, a @ b[:, 0], np.dot(a[0], a[1]), a[0] @ a[1]


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
def test_matrix_products(dtype):
    a = (np.arange(12) % 5 - 1.5).astype(dtype).reshape(3, 4)
    b = np.ascontiguousarray(a.T[:, ::-1])
    ours, theirs = both(products, a, b)
    for o, t in zip(ours, theirs):
        np.testing.assert_allclose(o, t, rtol=1e-6)
        assert np.asarray(o).dtype == np.asarray(t).dtype


def mixed_product(a, b):
    return a @ b


def test_products_of_mixed_dtypes_and_mismatched_shapes():
    ours = tp.jit(mixed_product)(np.arange(6).reshape(2, 3), np.ones((3, 2)))
    np.testing.assert_array_equal(ours, np.arange(6).reshape(2, 3) @ np.ones((3, 2)))
    assert ours.dtype == np.float64
    with pytest.raises(ValueError, match="mismatch"):
        tp.jit(mixed_product)(np.ones((2, 3)), np.ones((2, 3)))


def power_iteration(a, n):
    x = np.ones(a.shape[0])
    for _ in range(n):
        x = a @ x
        x = x / np.sqrt((x * x).sum())
    return x


def test_a_product_in_a_loop_runs_in_constant_memory():
    a = np.diag(np.arange(1.0, 6.0)) + 0.01
    ours, theirs = both(power_iteration, a, 5000)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)


def axis_sums(a):
    return (a.sum(axis=0), np.sum(a, axis=1), a.sum(1), a.sum(axis=-1), (a > 3).sum(axis=0),
            (a * 2).sum(axis=0))


@pytest.mark.parametrize("a", [np.arange(12.0).reshape(3, 4), np.arange(12).reshape(3, 4).T,
                               np.arange(12, dtype=np.uint8).reshape(2, 6)[:, ::-2]])
def test_sums_along_an_axis(a):
    same(*both(axis_sums, a))


def sum_of_cube(a):
    return a.sum(axis=1)


def test_a_sum_along_an_axis_of_three_dimensions():
    same(*both(sum_of_cube, np.arange(24.0).reshape(2, 3, 4)))


# --- sorting, running sums, clip, boolean masks, augmented element updates --------------------

_WITH_NAN = np.array([3.0, np.nan, -1.0, 7.0, 2.0, -1.0])


def orderings(a):
    return (np.sort(a), np.argsort(a), np.cumsum(a), a.cumprod(), np.clip(a, 0.0, 5.0),
            a[a > 1.0], np.cumsum(np.arange(5) > 2), np.cumsum(np.arange(6).reshape(2, 3)))


def sorted_in_place_and_masked(a):
    b = a.copy()
    b.sort()
    b[b > 2.0] = 0.0
    return b


@pytest.mark.parametrize("a", [_WITH_NAN, _WITH_NAN[::-1], np.arange(7.0)[::2],
                               np.array([], dtype=float)])
def test_sort_cumsum_clip_and_masks(a):
    ours, theirs = both(orderings, a)
    for o, t in zip(ours, theirs):
        assert o.dtype == t.dtype
        np.testing.assert_array_equal(o, t)
    ours, theirs = both(sorted_in_place_and_masked, a)
    np.testing.assert_array_equal(ours, theirs)


def sorted_rows(a):
    b = a.copy()
    b.sort()
    c = a.T.copy()
    c.sort()  # in place, of an F-ordered copy
    return np.sort(a), np.sort(a * 2), b, c


@pytest.mark.parametrize("a", [
    np.array([[3.0, np.nan, 1.0], [2.0, 1.0, 0.0]]),
    np.arange(24, dtype=np.int16).reshape(2, 3, 4)[:, ::-1, ::-2] % 5,
    np.asfortranarray(np.arange(12.0).reshape(3, 4) % 4)[::-1],
    np.zeros((2, 0, 3)),
], ids=["nan", "3-d-strided", "F-reversed", "empty"])
def test_sort_of_n_dimensional_arrays_sorts_the_last_axis(a):
    same(*both(sorted_rows, a))


def argsort_rows(a):
    return np.argsort(a), np.argsort(a.T)


@pytest.mark.parametrize("a", [
    np.array([[3.0, np.nan, 1.0, 1.0], [2.0, 2.0, 0.0, np.nan]]),
    np.arange(24, dtype=np.int32).reshape(2, 3, 4)[:, ::-1] % 3,
], ids=["nan-ties", "3-d"])
def test_argsort_of_n_dimensional_arrays(a):
    # NumPy is the oracle: Numba's argsort takes one-dimensional arrays only.
    ours = tp.jit(argsort_rows)(a)
    same(ours, (np.argsort(a, kind="stable"), np.argsort(a.T, kind="stable")))


def two_d_mask(a):
    return a[a > 3]


def mask_of_another_shape(a, m):
    return a[m]


def test_masks_of_n_dimensional_arrays():
    # NumPy is the oracle: Numba takes one-dimensional masks only.
    a = np.arange(12.0).reshape(3, 4)
    np.testing.assert_array_equal(tp.jit(two_d_mask)(a), a[a > 3])
    np.testing.assert_array_equal(tp.jit(two_d_mask)(a.T), a.T[a.T > 3])
    with pytest.raises(IndexError, match="boolean index"):
        tp.jit(mask_of_another_shape)(np.ones(3), np.ones(4, bool))


def histogram_of_draws(n, seed):
    counts = np.zeros(n, np.int64)
    np.random.seed(seed)
    for _ in range(1000):
        counts[np.random.randint(n)] += 1  # the index is drawn once
    return counts


def test_an_augmented_element_update_evaluates_its_index_once():
    same(*both(histogram_of_draws, 5, 1))


# --- transpose, diff, outer, median, unique ---------------------------------------------------

def shaped(a, b):
    return (a.transpose(), np.transpose(a), np.diff(b), np.diff(a), np.outer(b, b[::-1]),
            np.median(a), np.median(b[::2]), np.unique(b * 0 + np.floor(b / 2)))


@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_transpose_diff_outer_median_unique(dtype):
    a = (np.arange(12) % 5).astype(dtype).reshape(3, 4)
    b = np.array([3, 1, 4, 1, 5, 9, 2, 6], dtype=dtype)
    same(*both(shaped, a, b))


def middle(a):
    return np.median(a)


@pytest.mark.parametrize("a", [np.array([1.0, np.nan, 3.0]), np.array([2.0, 1.0]),
                               np.array([5.0])])
def test_median_of_nan_even_and_single(a):
    same(*both(middle, a))


def test_median_of_nothing_is_nan():
    assert math.isnan(tp.jit(middle)(np.ones(0)))


def bool_diff(a):
    return np.diff(a)


def test_diff_of_bools_is_not_equal_as_numpy():
    a = np.array([True, True, False, True])
    np.testing.assert_array_equal(tp.jit(bool_diff)(a), np.diff(a))


def permuted(a):
    return (a.transpose(1, 0, 2), a.transpose((2, 0, 1)), np.transpose(a, (0, 2, 1)),
            np.transpose(a, axes=(-1, -2, -3)), a.transpose(0, 1, 2), a.transpose(2, 1, 0)[1])


@pytest.mark.parametrize("a", [np.arange(24.0).reshape(2, 3, 4),
                               np.arange(24).reshape(2, 3, 4)[:, ::-1],
                               np.asfortranarray(np.arange(24.0).reshape(2, 3, 4)),
                               np.zeros((2, 0, 3), np.int8)],
                         ids=["C", "reversed", "F", "empty"])
def test_transpose_with_axes(a):
    same(*both(permuted, a))


def write_through_permuted(a):
    v = a.transpose(2, 0, 1)
    v[3, 1, 2] = -1.0
    v[0] += 100.0
    return a


def test_transpose_with_axes_is_a_view():
    same(*both(write_through_permuted, np.arange(24.0).reshape(2, 3, 4)))


def repeated_axis(a):
    return a.transpose(1, 1)


def wrong_count_of_axes(a):
    return np.transpose(a, (1, 0, 2))


def test_transpose_with_bad_axes_is_a_typing_error():
    with pytest.raises(TypingError, match="repeated axis in transpose"):
        tp.jit(repeated_axis)(np.ones((2, 2)))
    with pytest.raises(TypingError, match="axes don't match array"):
        tp.jit(wrong_count_of_axes)(np.ones((2, 2)))


# --- argmin and argmax along an axis ------------------------------------------------------------

def arg_along(a):
    return (a.argmax(axis=0), np.argmin(a, axis=1), np.argmax(a, -1), a.argmin(0),
            (a * 2).argmax(axis=1))


@pytest.mark.parametrize("a", [np.array([[1.0, 5, np.nan], [7, 2, 3], [7, np.nan, 1]]),
                               np.array([[3, 3, 1], [1, 3, 3]], np.int16)[:, ::-1],
                               np.array([[True, False], [True, True]]),
                               np.asfortranarray(np.arange(12.0).reshape(3, 4) % 5),
                               np.zeros((3, 0))[:0]],
                         ids=["nan", "ties-reversed", "bool", "F", "empty-both"])
def test_argmin_and_argmax_along_an_axis(a):
    if a.size == 0:
        for f in (lambda x: x.argmax(axis=0), lambda x: np.argmin(x, axis=1)):
            with pytest.raises(ValueError, match="empty sequence"):
                f(a)
        with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
            tp.jit(arg_along)(a)
        return
    same(*both(arg_along, a))


def arg_of_rows(a):
    return a.argmax(axis=0)


def test_arg_along_an_axis_of_one_dimension_is_a_number_and_empty_axes_raise():
    same(*both(arg_of_rows, np.array([3.0, 9.0, 1.0])))
    same(*both(arg_of_rows, np.zeros((3, 0))))  # nothing to reduce along, nothing to give
    # NumPy's error where the axis reduced is empty (Numba's is a ZeroDivisionError)
    with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
        tp.jit(arg_of_rows)(np.zeros((0, 3)))
    with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
        np.zeros((0, 3)).argmax(axis=0)


# --- integer-array (fancy) indexing ---------------------------------------------------------------

def gather(a, i):
    return a[i], a[i[::-1]] * 2


@pytest.mark.parametrize("a, i", [
    (np.arange(10.0), np.array([3, -1, 0, 3])),
    (np.arange(10, dtype=np.int16)[::-2], np.array([1, 2], np.uint8)),
    (np.arange(12.0).reshape(3, 4), np.array([2, 0, -3], np.int32)),
    (np.asfortranarray(np.arange(24).reshape(2, 3, 4)), np.array([1, 1, 0])),
    (np.arange(5.0), np.zeros(0, np.int64)),
], ids=["1-d", "strided-uint8", "rows", "3-d-F", "empty"])
def test_integer_array_indexing_gathers_as_numba(a, i):
    same(*both(gather, a, i))


def scatter(a, i, v):
    a[i] = v
    return a


@pytest.mark.parametrize("a, i, v", [
    (np.arange(10.0), np.array([1, 1, -1]), 7.0),
    (np.arange(10.0), np.array([1, 2]), np.array([5.0, 6.0])),
    (np.arange(10, dtype=np.int32), np.array([4, 0, 4]), np.array([1.9, 2.0, 3.0])),
    (np.arange(10.0), np.array([0, 9]), np.array([4.0])),
    (np.arange(12.0).reshape(3, 4), np.array([2, 0]), -1.0),
], ids=["number-repeated", "values", "floats-into-ints-last-wins", "one-value", "rows"])
def test_integer_array_assignment_as_numba(a, i, v):
    same(*both(scatter, a, i, v))


def test_integer_array_indices_out_of_bounds_raise_index_error():
    # NumPy's error (Numba reads and writes past the array)
    for bad in (np.array([10]), np.array([-11]), np.array([0, 12])):
        with pytest.raises(IndexError, match="out of bounds"):
            tp.jit(gather)(np.arange(10.0), bad)
        with pytest.raises(IndexError):
            np.arange(10.0)[bad]
        a = np.arange(10.0)
        with pytest.raises(IndexError, match="out of bounds"):
            tp.jit(scatter)(a, bad, 1.0)
    with pytest.raises(ValueError, match="shape mismatch"):
        tp.jit(scatter)(np.arange(10.0), np.array([1, 2, 3]), np.array([1.0, 2.0]))
    with pytest.raises(ValueError, match="shape mismatch"):
        np.arange(10.0)[np.array([1, 2, 3])] = np.array([1.0, 2.0])


def two_d_index(a, i):
    return a[i]


@pytest.mark.parametrize("a, i", [
    (np.arange(10.0), np.array([[3, -1], [0, 9], [2, 2]])),
    (np.arange(12, dtype=np.int32).reshape(3, 4)[::-1], np.array([[[2], [0]]], np.int8)),
    (np.arange(6.0), np.zeros((2, 0), np.int64)),
], ids=["1-d", "rows-3-d-index", "empty"])
def test_integer_arrays_of_several_dimensions_index_as_numpy(a, i):
    # NumPy is the oracle: Numba takes one-dimensional index arrays only.
    same(tp.jit(two_d_index)(a, i), a[i])


def scatter_two_d(a, i):
    a[i] = 1.0
    return a


def test_integer_array_indexing_refuses_what_it_does_not_take():
    with pytest.raises(TypingError, match="float64 is not supported"):
        tp.jit(two_d_index)(np.arange(4.0), np.zeros(2))
    with pytest.raises(TypingError, match="2-d array of int64 is not supported"):
        tp.jit(scatter_two_d)(np.arange(4.0), np.zeros((2, 2), np.int64))


# --- np.concatenate, np.stack and the other joins -----------------------------------------------

def joined(a, b):
    return (np.concatenate((a, b)), np.concatenate((a, b * 2, a), axis=1),
            np.concatenate((a.T, b.T), axis=-1), np.concatenate((a[:1], b.astype(np.int32))))


def test_concatenate():
    a = np.arange(6.0).reshape(2, 3)
    b = np.arange(6, 12.0).reshape(2, 3)
    same(*both(joined, a, b))


def join_rows(a, b):
    return np.concatenate((a, b))


def test_concatenate_of_mismatched_extents_raises_value_error():
    with pytest.raises(ValueError, match="except for the concatenation axis"):
        tp.jit(join_rows)(np.ones((2, 3)), np.ones((2, 4)))
    with pytest.raises(ValueError):
        numba.njit(join_rows)(np.ones((2, 3)), np.ones((2, 4)))


def stacked(a, b):
    return (np.stack((a, b)), np.stack((a, b, a), axis=1), np.stack((a, b), -1),
            np.vstack((a, b)), np.hstack((a, b)), np.column_stack((a, b)), np.dstack((a, b)))


@pytest.mark.parametrize("a, b", [
    (np.arange(3.0), np.arange(3, dtype=np.int32)),
    (np.arange(6.0).reshape(2, 3), np.arange(6, 12).reshape(2, 3)[:, ::-1]),
    (np.ones((2, 2, 2), np.float32), np.zeros((2, 2, 2), np.int8)),
    (np.zeros(0), np.zeros(0)),
], ids=["1-d", "2-d", "3-d", "empty"])
def test_stack_vstack_hstack_column_stack_dstack(a, b):
    ours = tp.jit(stacked)(a, b)
    same(ours, stacked(a, b))  # NumPy's
    if a.ndim < 3:  # Numba's column_stack takes 1-d and 2-d arrays only
        same(ours, numba.njit(stacked)(a, b))


def stack_pair(a, b):
    return np.stack((a, b))


def vstack_pair(a, b):
    return np.vstack((a, b))


def test_stacks_of_mismatched_shapes_raise_value_error():
    with pytest.raises(ValueError, match="all input arrays must have the same shape"):
        tp.jit(stack_pair)(np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match="all input arrays must have the same shape"):
        numba.njit(stack_pair)(np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match="except for the concatenation axis"):
        tp.jit(vstack_pair)(np.ones(3), np.ones(4))
    same(*both(vstack_pair, np.ones((1, 3)), np.zeros((2, 3))))
