"""CuPy's user kernels on every device (issue 24): ElementwiseKernel, ReductionKernel, fuse,
and RawKernel/RawModule launched with arrays of the CPU device. CuPy's behaviour is the
oracle for the API, the argument rules and the errors (cupy/_core/_kernel.pyx,
_reduction.pyx, fusion.pyx, docs/source/user_guide/kernel.rst); NumPy is the oracle for
values and dtypes.

Kernels compile with a C++ compiler on first use, so each kernel object is made once
(`elementwise`, `reduction` and `fused` below memoize them) and nothing touches the new
names at import time."""

import functools

import numpy as np
import pytest

import tessera as tp
from tessera.cuda.compiler import CompileException

from conftest import assert_same, sample
from test_cuda_kernels import TILED_MATMUL

# --------------------------------------------------------------------------------------------
# helpers


@functools.cache
def elementwise(*args, **kwargs):
    return tp.ElementwiseKernel(*args, **kwargs)


@functools.cache
def reduction(*args, **kwargs):
    return tp.ReductionKernel(*args, **kwargs)


@functools.cache
def fused(func):
    return tp.fuse()(func)


def ints(shape, dtype, lo=-5, hi=5, seed=0):
    """Small integers in `dtype` (complex: integer real and imaginary parts), so that every
    result below is exact whatever the order of operations or FMA contraction."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype.kind == "b":
        return rng.integers(0, 2, size=shape).astype(dtype)
    values = rng.integers(lo, hi, size=shape, endpoint=True)
    if dtype.kind == "c":
        values = values + 1j * rng.integers(lo, hi, size=shape, endpoint=True)
    return values.astype(dtype)


def assert_close(t, n, rtol):
    __tracebackhide__ = True
    n = np.asarray(n)
    assert isinstance(t, tp.ndarray), f"expected tessera.ndarray, got {type(t).__name__}"
    assert (t.dtype, t.shape) == (n.dtype, n.shape)
    np.testing.assert_allclose(tp.asnumpy(t), n, rtol=rtol)


# The kernels of CuPy's user guide and a few more, made on first use.

def squared_diff():
    return elementwise("float32 x, float32 y", "float32 z", "z = (x - y) * (x - y)",
                       "squared_diff")


def squared_diff_generic():
    return elementwise("T x, T y", "T z", "T diff = x - y;\nz = diff * diff;",
                       "squared_diff_generic")


def squared_diff_super_generic():
    return elementwise("X x, Y y", "Z z", "z = (x - y) * (x - y)", "squared_diff_super_generic")


def add_reverse():
    return elementwise("T x, raw T y", "T z", "z = x + y[_ind.size() - i - 1]", "add_reverse")


def add_kernel():
    return elementwise("T x, T y", "T z", "z = x + y", "add_kernel")


def sub_kernel():
    return elementwise("T x, T y", "T z", "z = x - y", "sub_kernel")


def copy_kernel():
    return elementwise("T x", "T z", "z = x", "copy_kernel")


def raw_add():
    return elementwise("raw T x, raw T y", "raw T z", "z[i] = x[i] + y[i]", "raw_add")


def l2norm():
    return reduction("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")


def sum_kernel():
    return reduction("T x", "T y", "x", "a + b", "y = a", "0", "sum_kernel")


def max_kernel():
    return reduction("T x", "T y", "x", "max(a, b)", "y = a", "-CUDART_INF", "max_kernel")


def max_no_identity():
    return reduction("T x", "T y", "x", "max(a, b)", "y = a", None, "max_no_identity")


# --------------------------------------------------------------------------------------------
# ElementwiseKernel: the user guide's examples


def test_squared_diff_fixed_types(device):
    x_np = np.arange(10, dtype=np.float32).reshape(2, 5)
    y_np = np.arange(5, dtype=np.float32)
    x, y = tp.asarray(x_np), tp.asarray(y_np)
    k = squared_diff()
    got = k(x, y)
    assert_same(got, (x_np - y_np) * (x_np - y_np))
    assert_same(got, np.array([[0.0] * 5, [25.0] * 5], dtype=np.float32))
    assert got.device == x.device
    # Scalars take the parameter's type: a Python int, a Python float, a NumPy float64.
    d = x_np - np.float32(5)
    for five in (5, 5.0, np.float64(5)):
        assert_same(k(x, five), d * d)
    assert_same(k(x, 5), np.array([[25, 16, 9, 4, 1], [0, 1, 4, 9, 16]], dtype=np.float32))


def test_squared_diff_given_output_is_returned(device):
    x_np = np.arange(10, dtype=np.float32).reshape(2, 5)
    y_np = np.arange(5, dtype=np.float32)
    z = tp.empty((2, 5), dtype=np.float32)
    out = squared_diff()(tp.asarray(x_np), tp.asarray(y_np), z)
    assert out is z
    assert_same(z, (x_np - y_np) * (x_np - y_np))


@pytest.mark.parametrize("dtype", [np.float64, np.int16], ids=lambda d: np.dtype(d).name)
def test_squared_diff_generic(device, dtype):
    # T is bound from the arrays; int16 products wrap around as NumPy's do.
    x_np, y_np = sample((3, 4), dtype), sample((4,), dtype, seed=1)
    got = squared_diff_generic()(tp.asarray(x_np), tp.asarray(y_np))
    d = x_np - y_np
    assert_same(got, d * d)


def test_super_generic_types_from_the_given_output(device):
    x_np = ints((2, 5), np.int32, -100, 100)
    y_np = sample((5,), np.float32, seed=1)
    z = tp.empty((2, 5), dtype=np.float64)
    out = squared_diff_super_generic()(tp.asarray(x_np), tp.asarray(y_np), z)
    assert out is z
    d = x_np.astype(np.float32) - y_np  # C++: int - float is float
    assert_same(z, (d * d).astype(np.float64))
    # Z is bound by nothing without the output: CuPy raises (a KeyError there).
    with pytest.raises((TypeError, KeyError)):
        squared_diff_super_generic()(tp.asarray(x_np), tp.asarray(y_np))


def test_scalar_arguments_take_the_bound_type(device):
    k = add_kernel()
    x8 = ints((7,), np.int8, -100, 100)
    assert_same(k(tp.asarray(x8), 100), x8 + np.int8(100))  # int8 wraps, as NumPy's
    x32 = sample((7,), np.float32)
    # A NumPy float64 scalar becomes float32 (T is bound by the array; no promotion).
    assert_same(k(tp.asarray(x32), np.float64(0.1)), x32 + np.float32(0.1))
    assert_same(k(tp.asarray(x32), True), x32 + np.float32(1))
    # CuPy stores Python numbers with NumPy's assignment rule: out of range is an error.
    with pytest.raises(OverflowError):
        k(tp.asarray(x8), 300)


def test_raw_argument_reversed(device):
    x_np, y_np = sample((10,), np.float32), sample((10,), np.float32, seed=1)
    k = add_reverse()
    assert_same(k(tp.asarray(x_np), tp.asarray(y_np)), x_np + y_np[::-1])
    # A raw array is indexed in C order over its own (strided) shape, never broadcast; `i`
    # and _ind.size() run over the broadcast shape of the other arguments.
    y_base, x_base = sample((4, 5), np.float32, seed=2), sample((2, 10), np.float32, seed=3)
    got = k(tp.asarray(x_base)[:, ::2], tp.asarray(y_base)[::2, ::-1])
    assert_same(got, x_base[:, ::2] + y_base[::2, ::-1].ravel()[::-1].reshape(2, 5))


def test_all_raw_arguments_need_size(device):
    x_np, y_np = sample((6,), np.int32), sample((6,), np.int32, seed=1)
    x, y = tp.asarray(x_np), tp.asarray(y_np)
    k = raw_add()
    assert_same(k(x, y, size=6), x_np + y_np)
    assert_same(k(x, y, size=4), x_np[:4] + y_np[:4])
    empty = k(x, y, size=0)
    assert (empty.shape, empty.dtype) == ((0,), np.int32)
    with pytest.raises(ValueError, match="Loop size is undecided"):
        k(x, y)


def test_reduce_dims_false_keeps_the_index_tuple(device):
    k = elementwise("T x, raw T y", "T z", "z = x + y[_ind.get()]", "add_indexed",
                    reduce_dims=False)
    x_np = sample((3, 4), np.float64)
    base = sample((4, 3), np.float64, seed=1)
    assert_same(k(tp.asarray(x_np), tp.asarray(base).T), x_np + base.T)


# --------------------------------------------------------------------------------------------
# ElementwiseKernel: dtypes and layouts


@pytest.mark.parametrize("dtype", [np.float16, np.int8, np.bool_, np.complex64, np.complex128],
                         ids=lambda d: np.dtype(d).name)
def test_add_dtypes(device, dtype):
    x_np, y_np = sample((5, 3), dtype), sample((3,), dtype, seed=1)
    assert_same(add_kernel()(tp.asarray(x_np), tp.asarray(y_np)), x_np + y_np)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=lambda d: np.dtype(d).name)
def test_complex_arithmetic_and_functions(device, dtype):
    """CuPy's complex<T> in a snippet: its operators with complex and real operands, and
    the functions kernels call on it, found as CuPy's are (abs(z), exp(z) ...)."""
    k = elementwise(
        "T x, T y", "T p, T q, T r, T s",
        "p = x * y - x / y + (x + y) * real(y) - T(1) / y;"
        "q = T(abs(x) + arg(y) + norm(x), real(conj(x)) * imag(conj(y)));"
        "r = exp(x) * log(y) + sqrt(y) + pow(x, y);"
        "s = sin(x) + cos(y) + tanh(x) + atanh(y)",
        f"complex_ops_{np.dtype(dtype).name}")
    x_np = sample((40,), dtype) / 10
    y_np = sample((40,), dtype, seed=1) / 10 + (1 + 1j)
    got = k(tp.asarray(x_np), tp.asarray(y_np))
    x, y = x_np.astype(np.complex128), y_np.astype(np.complex128)
    expected = (x * y - x / y + (x + y) * y.real - 1 / y,
                np.abs(x) + np.angle(y) + np.abs(x) ** 2 + 1j * (x.real * -y.imag),
                np.exp(x) * np.log(y) + np.sqrt(y) + x ** y,
                np.sin(x) + np.cos(y) + np.tanh(x) + np.arctanh(y))
    rtol = 1e-5 if dtype == np.complex64 else 1e-12
    for t, n in zip(got, expected):
        assert_close(t, n.astype(dtype), rtol=rtol)


LAYOUTS = {
    "0-d": lambda a: a[2, 3],
    "empty": lambda a: a[:0, :3],
    "strided": lambda a: a[1::2, ::3],
    "negative": lambda a: a[::-1, ::-2],
    "transposed": lambda a: a.T,
}


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_copy_layouts(device, layout):
    base = sample((6, 8), np.float64)
    got = copy_kernel()(LAYOUTS[layout](tp.asarray(base)))
    # Outputs are new C-contiguous arrays of the broadcast shape.
    assert_same(got, np.array(LAYOUTS[layout](base), order="C"), strides=True)


def test_pending_inputs(device):
    x_np, y_np = sample((4, 5), np.float64), sample((5,), np.float64, seed=1)
    x, y = tp.asarray(x_np), tp.asarray(y_np)
    assert_same(sub_kernel()(x * 2, y + 1), (x_np * 2) - (y_np + 1))


def test_broadcast_and_negative_strides(device):
    k = sub_kernel()
    a_np = ints((3, 1), np.int64, -50, 50)
    b_np = ints((8,), np.int64, -50, 50, seed=1)
    a, b = tp.asarray(a_np), tp.asarray(b_np)
    assert_same(k(a, b[:4]), a_np - b_np[:4])
    assert_same(k(a[::-1], b[::-2]), a_np[::-1] - b_np[::-2])
    assert_same(k(tp.asarray(np.int64(7)), b[::-1]), np.int64(7) - b_np[::-1])
    assert_same(k(a, 3), a_np - 3)
    empty = k(a[:0], b[:4])
    assert (empty.shape, empty.dtype) == ((0, 4), np.int64)


def test_zero_size_given_output_is_returned(device):
    z = tp.empty((0, 3), dtype=np.float32)
    x = tp.empty((0, 3), dtype=np.float32)
    assert squared_diff()(x, 1.0, z) is z


# --------------------------------------------------------------------------------------------
# ElementwiseKernel: outputs


def test_output_drives_the_broadcast_shape(device):
    # CuPy broadcasts inputs and outputs together: a given output may be larger.
    x_np, y_np = sample((4,), np.float64), sample((4,), np.float64, seed=1)
    z = tp.zeros((3, 4))
    assert add_kernel()(tp.asarray(x_np), tp.asarray(y_np), z) is z
    assert_same(z, np.broadcast_to(x_np + y_np, (3, 4)))


def test_output_written_in_place_and_through_views(device):
    x_np, y_np = sample((6,), np.float64), sample((6,), np.float64, seed=1)
    x, y = tp.array(x_np), tp.asarray(y_np)
    assert add_kernel()(x, y, x) is x  # same element in and out: no copy needed
    assert_same(x, x_np + y_np)
    base = tp.zeros((4, 6))
    add_kernel()(tp.asarray(x_np[:3]), 1.0, base[1::2, ::-1][:, ::2])
    expected = np.zeros((4, 6))
    expected[1::2, ::-1][:, ::2] = x_np[:3] + 1.0
    assert_same(base, expected)


def test_multiple_outputs_and_return_modes(device):
    x_np, y_np = sample((3, 4), np.int32), sample((4,), np.int32, seed=1)
    x, y = tp.asarray(x_np), tp.asarray(y_np)
    both = elementwise("T x, T y", "T s, T d", "s = x + y;\nd = x - y", "sum_and_diff")
    s, d = both(x, y)
    assert_same(s, x_np + y_np)
    assert_same(d, x_np - y_np)
    s_out, d_out = tp.empty((3, 4), dtype=np.int32), tp.empty((3, 4), dtype=np.int32)
    result = both(x, y, s_out, d_out)
    assert isinstance(result, tuple) and len(result) == 2
    assert result[0] is s_out and result[1] is d_out
    assert_same(d_out, x_np - y_np)

    as_tuple = elementwise("T x, T y", "T z", "z = x * y", "mul_tuple", return_tuple=True)
    result = as_tuple(x, y)
    assert isinstance(result, tuple) and len(result) == 1
    assert_same(result[0], x_np * y_np)

    z = tp.empty((3, 4), dtype=np.int32)
    silent = elementwise("T x, T y", "T z", "z = x * y", "mul_silent", no_return=True)
    assert silent(x, y, z) is None
    assert_same(z, x_np * y_np)


def test_no_return_atomic_add_into_raw_output(device):
    k = elementwise("int32 x", "raw int32 total", "atomicAdd(&total[0], x)", "atomic_total",
                    no_return=True)
    x_np = ints((50, 41), np.int32, -100, 100)
    total = tp.zeros(1, dtype=np.int32)
    assert k(tp.asarray(x_np)[::-1, ::2], total) is None
    assert_same(total, np.array([x_np[::-1, ::2].sum()], dtype=np.int32))
    with pytest.raises(ValueError):  # a raw output cannot be allocated without size=
        k(tp.asarray(x_np))


def test_preamble_loop_prep_after_loop(device):
    k = elementwise(
        "T x", "T z, raw int32 flag", "z = scale_and_shift(x, factor)", "prep_kernel",
        preamble="template <typename U> __device__ U scale_and_shift(U v, U f) {\n"
                 "  return v * f + U(1);\n}\n",
        loop_prep="const T factor = T(3)",
        after_loop="atomicMax(&flag[0], 7)")
    x_np = np.arange(-5, 15, dtype=np.float64)
    z, flag = tp.empty(20), tp.zeros(1, dtype=np.int32)
    result = k(tp.asarray(x_np), z, flag)
    assert isinstance(result, tuple) and result[0] is z and result[1] is flag
    assert_same(z, x_np * 3 + 1)
    assert_same(flag, np.array([7], dtype=np.int32))


def test_block_size_and_stream(device):
    x_np = sample((100,), np.float32)
    k = add_kernel()
    assert_same(k(tp.asarray(x_np), 1, block_size=1), x_np + np.float32(1))
    assert_same(k(tp.asarray(x_np), 1, block_size=32, stream=None), x_np + np.float32(1))
    with pytest.raises(ValueError):
        k(tp.asarray(x_np), 1, block_size=0)


# --------------------------------------------------------------------------------------------
# ElementwiseKernel: errors


def test_wrong_number_of_arguments(device):
    x = tp.zeros(3, dtype=np.float32)
    for args in [(x,), (x, x, x, x)]:
        with pytest.raises(TypeError, match="Wrong number of arguments for 'squared_diff'"):
            squared_diff()(*args)


def test_type_mismatch(device):
    x32, x64 = tp.zeros(3, dtype=np.float32), tp.zeros(3, dtype=np.float64)
    with pytest.raises(TypeError, match="Type is mismatched"):
        squared_diff()(x32, x64)  # a fixed type: no casting
    with pytest.raises(TypeError, match="Type is mismatched"):
        add_kernel()(x32, x64)  # T already bound to float32
    with pytest.raises(TypeError, match="Type is mismatched"):
        squared_diff()(x32, x32, tp.zeros(3, dtype=np.float64))  # a given output
    with pytest.raises(TypeError, match="Type is mismatched"):
        add_kernel()(x32, x32, tp.zeros(3, dtype=np.float64))  # the output binds T first


def test_output_shape_and_type_errors(device):
    x = tp.zeros((3, 4))
    k = add_kernel()
    with pytest.raises(ValueError):
        k(x, x, tp.zeros(4))  # broadcast shape (3, 4) != (4,)
    with pytest.raises(ValueError):
        k(x[0], x[0], tp.zeros((2, 3)))  # does not broadcast
    with pytest.raises(TypeError):
        k(x, x, 3.0)  # an output must be an array


def test_loop_size_errors(device):
    x = tp.zeros(3, dtype=np.float32)
    with pytest.raises(ValueError, match="size"):
        add_kernel()(x, x, size=3)
    with pytest.raises(ValueError, match="size"):
        add_reverse()(x, x, size=3)
    with pytest.raises(ValueError, match="Loop size is undecided"):
        add_kernel()(1.0, 2.0)


def test_unknown_keyword(device):
    x = tp.zeros(3, dtype=np.float32)
    with pytest.raises(TypeError, match="foo"):
        add_kernel()(x, x, foo=1)


def test_snippet_that_does_not_compile(device):
    k = tp.ElementwiseKernel("T x", "T z", "z = x + undefined_name", "broken_snippet")
    x = tp.zeros(3)
    for _ in range(2):  # a failed compile is not remembered as a kernel
        with pytest.raises(CompileException) as info:
            k(x)
        assert "broken_snippet" in str(info.value)
        assert "undefined_name" in str(info.value)
    r = tp.ReductionKernel("T x", "T y", "x", "a + b + no_such_value", "y = a", "0",
                           "broken_reduce")
    with pytest.raises(CompileException) as info:
        r(x)
    assert "broken_reduce" in str(info.value)
    assert "no_such_value" in str(info.value)
    assert_same(copy_kernel()(x), np.zeros(3))  # the device still works


def test_declaration_errors():
    with pytest.raises(ValueError, match="'i'"):
        tp.ElementwiseKernel("T i", "T z", "z = i")
    for name in ["1kernel", "my kernel", "a-b", ""]:
        with pytest.raises(ValueError, match="Invalid kernel name"):
            tp.ElementwiseKernel("T x", "T z", "z = x", name)
        with pytest.raises(ValueError, match="Invalid kernel name"):
            tp.ReductionKernel("T x", "T y", "x", "a + b", "y = a", "0", name)
    # No name, an unknown keyword before the type, an empty parameter (CuPy: Exception).
    for params in ["float32", "const float32 x", "float32 x,", "float32 x,, T y"]:
        with pytest.raises(ValueError):
            tp.ElementwiseKernel(params, "T z", "z = x")
    with pytest.raises(TypeError):
        tp.ElementwiseKernel("float33 x", "T z", "z = x")
    with pytest.raises(TypeError):
        tp.ReductionKernel("T x", "floaty y", "x", "a + b", "y = a", "0")


# --------------------------------------------------------------------------------------------
# ReductionKernel


def test_l2norm_user_guide(device):
    x_np = np.arange(10, dtype=np.float32).reshape(2, 5)
    x = tp.asarray(x_np)
    k = l2norm()
    got = k(x, axis=1)
    assert_same(got, np.sqrt((x_np * x_np).sum(axis=1)))
    np.testing.assert_allclose(tp.asnumpy(got), [5.477226, 15.9687195], rtol=1e-6)
    assert_same(k(x, axis=0, keepdims=True), np.sqrt((x_np * x_np).sum(axis=0, keepdims=True)))
    assert_same(k(x), np.sqrt((x_np * x_np).sum()))  # axis=None: a 0-d array


def test_l2norm_0d_and_empty(device):
    k = l2norm()
    assert_same(k(tp.asarray(np.array(-3.0, dtype=np.float32))), np.array(3.0, dtype=np.float32))
    empty = tp.zeros((2, 0), dtype=np.float32)
    assert_same(k(empty, axis=1), np.zeros(2, dtype=np.float32))  # post_map(identity)
    assert_same(k(empty, axis=0), np.zeros(0, dtype=np.float32))


SUM_LAYOUTS = {
    "contiguous": lambda a: a[:, :5, :6],
    "strided": lambda a: a[::-1, 1::2, ::-2],
}


@pytest.mark.parametrize("layout", list(SUM_LAYOUTS))
@pytest.mark.parametrize("axis", [None, 1, -1, (2, -3), (0, 1)], ids=str)
def test_sum_axes_keepdims(device, axis, layout):
    base = sample((4, 10, 12), np.int64)
    x_np = SUM_LAYOUTS[layout](base)
    x = tp.asarray(x_np.copy()) if layout == "contiguous" else SUM_LAYOUTS[layout](tp.asarray(base))
    for keepdims in (False, True):
        assert_same(sum_kernel()(x, axis=axis, keepdims=keepdims),
                    x_np.sum(axis=axis, keepdims=keepdims))


def test_float32_sum_is_accurate(device):
    # NumPy's pairwise summation keeps this within a few float32 ulps; a running float32 sum
    # is off by about 1e-4 after 10**5 terms.
    x = tp.asarray(np.full(10**6, 0.1, dtype=np.float32))
    got = sum_kernel()(x)
    assert (got.shape, got.dtype) == ((), np.float32)
    exact = float(np.float32(0.1)) * 10**6
    assert abs(float(tp.asnumpy(got)) - exact) / exact < 1e-5


def test_max_with_minus_inf_identity(device):
    base = sample((5, 6, 7), np.float64, seed=3)
    x_np = -np.abs(base[:, ::-2, 1:]) - 1  # all negative
    x = -tp.abs(tp.asarray(base)[:, ::-2, 1:]) - 1
    k = max_kernel()
    assert_same(k(x, axis=(0, 2), keepdims=True), x_np.max(axis=(0, 2), keepdims=True))
    assert_same(k(x, axis=-2), x_np.max(axis=-2))
    assert_same(k(x), x_np.max())
    # The identity is the result of an empty reduction (where NumPy's max has none).
    assert_same(k(tp.zeros((3, 0)), axis=1), np.full(3, -np.inf))


def test_identity_none(device):
    k = max_no_identity()
    x_np = -np.abs(sample((4, 5), np.float64)) - 1  # a zero start value would show
    x = tp.asarray(x_np)
    assert_same(k(x, axis=1), x_np.max(axis=1))
    assert_same(k(x), x_np.max())
    message = "zero-size array to reduction operation max_no_identity which has no identity"
    empty = tp.zeros((3, 0))
    with pytest.raises(ValueError, match=message):
        k(empty, axis=1)
    with pytest.raises(ValueError, match=message):
        k(empty)
    # Nothing to reduce into: an empty result, as NumPy's max gives.
    assert_same(k(empty, axis=0), np.zeros((3, 0)).max(axis=0))


def test_reduce_type_differs_from_output(device):
    x_np = ints((6, 40), np.int8, -100, 100)
    x = tp.asarray(x_np)
    saturating = reduction("int8 x", "int8 y", "x", "a + b",
                           "y = a > 127 ? 127 : (a < -128 ? -128 : a)", "0", "saturating_sum",
                           reduce_type="int")
    expected = np.clip(x_np.sum(axis=1, dtype=np.int64), -128, 127).astype(np.int8)
    assert_same(saturating(x, axis=1), expected)
    # By default `a` has the output's type: int8 sums wrap around, as NumPy's int8 sum does.
    assert_same(sum_kernel()(x, axis=1), x_np.sum(axis=1, dtype=np.int8))


def test_two_inputs_broadcast(device):
    k = reduction("T x, T w", "T y", "x * w", "a + b", "y = a", "0", "weighted_sum")
    x_np, w_np = ints((3, 4), np.int64, -50, 50), ints((4,), np.int64, -50, 50, seed=1)
    x, w = tp.asarray(x_np), tp.asarray(w_np)
    assert_same(k(x, w, axis=1), (x_np * w_np).sum(axis=1))
    assert_same(k(x, 2, axis=0), (x_np * 2).sum(axis=0))


def test_reduction_outputs(device):
    x_np = ints((3, 4), np.int64, -50, 50)
    x = tp.asarray(x_np)
    k = sum_kernel()
    y = tp.empty(3, dtype=np.int64)
    assert k(x, axis=1, out=y) is y
    assert_same(y, x_np.sum(axis=1))
    y2 = tp.empty(4, dtype=np.int64)
    assert k(x, y2, axis=0) is y2
    assert_same(y2, x_np.sum(axis=0))
    with pytest.raises(ValueError):
        k(x, y, axis=1, out=y)  # both positional and out=
    with pytest.raises(ValueError):
        k(x, axis=1, out=tp.empty(4, dtype=np.int64))
    with pytest.raises(TypeError, match="Type is mismatched"):
        k(x, axis=1, out=tp.empty(3))
    # Several outputs: every one is written; the call returns the first (CuPy's rule).
    both = reduction("T x", "T y, T z", "x", "a + b", "y = a, z = a * 2", "0", "sum_twice")
    y, z = tp.empty(3, dtype=np.int64), tp.empty(3, dtype=np.int64)
    assert both(x, y, z, axis=1) is y
    assert_same(y, x_np.sum(axis=1))
    assert_same(z, x_np.sum(axis=1) * 2)


def test_reduction_errors(device):
    x = tp.zeros((2, 3, 4), dtype=np.int64)
    k = sum_kernel()
    with pytest.raises(TypeError, match="Wrong number of arguments for '?sum_kernel"):
        k(x, x, x)
    with pytest.raises(TypeError, match="foo"):
        k(x, foo=1)
    for axis in [(1, 1), (0, -3)]:
        with pytest.raises(ValueError, match="duplicate"):
            k(x, axis=axis)
    for axis in [3, -4, (0, 5)]:
        with pytest.raises(np.exceptions.AxisError):
            k(x, axis=axis)
    with pytest.raises(ValueError, match="Loop size is undecided"):
        k(3)
    saturating = reduction("int8 x", "int8 y", "x", "a + b",
                           "y = a > 127 ? 127 : (a < -128 ? -128 : a)", "0", "saturating_sum",
                           reduce_type="int")
    with pytest.raises(TypeError, match="Type is mismatched"):
        saturating(tp.zeros(3, dtype=np.int16))


# --------------------------------------------------------------------------------------------
# fuse


def squared_diff_fn(x, y):
    return (x - y) * (x - y)


def _select(m, x, y):
    return m.where(x > y, x - y, m.abs(y) * 2)


def select_fn(x, y):
    return _select(tp, x, y)


def _smooth(m, x):
    return m.exp(-x * x) + m.sqrt(m.abs(x))


def smooth_fn(x):
    return _smooth(tp, x)


def sum_of_products(x, y):
    return tp.sum(x * y, axis=-1)


def sum_and_product(x, y):
    return x + y, x * y


def test_fuse_user_guide(device):
    k = fused(squared_diff_fn)
    expected = np.array([81, 49, 25, 9, 1, 1, 9, 25, 49, 81])
    assert_same(k(tp.arange(10), tp.arange(10)[::-1]), expected)
    # Without tessera arrays the function runs as it is: NumPy in, NumPy out.
    got = k(np.arange(10), np.arange(10)[::-1])
    assert type(got) is np.ndarray
    np.testing.assert_array_equal(got, expected)
    assert k(3, 1) == 4


def test_fuse_decorator_forms(device):
    def sq_diff(x, y):
        return (x - y) * (x - y)

    x_np, y_np = ints((3, 4), np.int64), ints((4,), np.int64, seed=1)
    for fuse in (tp.fuse, tp.fuse(), tp.fuse(kernel_name="named_squared_diff")):
        k = fuse(sq_diff)
        assert k.__name__ == "sq_diff"
        assert_same(k(tp.asarray(x_np), tp.asarray(y_np)), (x_np - y_np) * (x_np - y_np))


@pytest.mark.parametrize("x_dtype, y", [
    (np.int32, np.float32), (np.int8, 3), (np.float32, 2.5), (np.float16, np.float16),
    (np.complex64, np.complex64)], ids=["int32-float32", "int8-int", "float32-float",
                                        "float16", "complex64"])
def test_fuse_dtypes_follow_numpy(device, x_dtype, y):
    k = fused(squared_diff_fn)
    x_np = ints((3, 4), x_dtype)
    if isinstance(y, type):
        y_np = ints((4,), y, seed=1)
        got = k(tp.asarray(x_np), tp.asarray(y_np))
    else:
        y_np = y
        got = k(tp.asarray(x_np), y)
    assert_same(got, squared_diff_fn(x_np, y_np))


def test_fuse_ufuncs_and_where(device):
    k = fused(select_fn)
    for dtype in (np.int64, np.float64):
        x_np, y_np = ints((3, 4), dtype), ints((3, 4), dtype, seed=1)
        assert_same(k(tp.asarray(x_np), tp.asarray(y_np)), _select(np, x_np, y_np))
    x_np = sample((50,), np.float32) / 10
    assert_close(fused(smooth_fn)(tp.asarray(x_np)), _smooth(np, x_np), rtol=1e-6)


def test_fuse_layouts(device):
    k = fused(squared_diff_fn)
    a_np = ints((3, 1), np.int64, -50, 50)
    b_np = ints((8,), np.int64, -50, 50, seed=1)
    c_np = ints((6, 8), np.int64, -50, 50, seed=2)
    a, b, c = tp.asarray(a_np), tp.asarray(b_np), tp.asarray(c_np)
    assert_same(k(a, b[:4]), squared_diff_fn(a_np, b_np[:4]))  # (3, 1) with (4,)
    assert_same(k(a[::-1], b[::-2]), squared_diff_fn(a_np[::-1], b_np[::-2]))
    assert_same(k(c[1::2, ::3], c[::-2, 1::3]), squared_diff_fn(c_np[1::2, ::3], c_np[::-2, 1::3]))
    assert_same(k(c * 2, b + 1), squared_diff_fn(c_np * 2, b_np + 1))  # pending inputs
    assert_same(k(tp.asarray(np.int64(4)), b), squared_diff_fn(np.int64(4), b_np))
    assert_same(k(tp.asarray(np.int64(4)), tp.asarray(np.int64(9))), np.int64(25))
    assert_same(k(c[:0], b), squared_diff_fn(c_np[:0], b_np))


def test_fuse_with_reduction(device):
    k = fused(sum_of_products)
    x_np, y_np = ints((3, 4), np.int64, -50, 50), ints((3, 4), np.int64, -50, 50, seed=1)
    assert_same(k(tp.asarray(x_np), tp.asarray(y_np)), np.sum(x_np * y_np, axis=-1))
    base = ints((4, 6, 10), np.int64, -50, 50, seed=2)
    x3 = tp.asarray(base)[::-1, 1::2, ::2]  # (4, 3, 5), times a (1,) array
    assert_same(k(x3, tp.asarray(y_np[0, :1])),
                np.sum(base[::-1, 1::2, ::2] * y_np[0, :1], axis=-1))
    assert_same(k(tp.zeros((3, 0), dtype=np.int64), tp.zeros(0, dtype=np.int64)),
                np.zeros(3, dtype=np.int64))
    rng = np.random.default_rng(4)
    x_np, y_np = rng.random((5, 64), np.float32), rng.random((5, 64), np.float32)
    assert_close(k(tp.asarray(x_np), tp.asarray(y_np)), np.sum(x_np * y_np, axis=-1),
                 rtol=1e-5)


def test_fuse_returns_a_tuple(device):
    x_np, y_np = ints((3, 4), np.int32), ints((4,), np.int32, seed=1)
    result = fused(sum_and_product)(tp.asarray(x_np), tp.asarray(y_np))
    assert isinstance(result, tuple) and len(result) == 2
    assert_same(result[0], x_np + y_np)
    assert_same(result[1], x_np * y_np)


def test_fuse_invalid_argument(device):
    k = fused(squared_diff_fn)
    with pytest.raises(TypeError):
        k(tp.zeros(3), "abc")
    if device.kind != "cpu":  # host data is not moved implicitly (CuPy's TypeError)
        with pytest.raises(TypeError):
            k(tp.zeros(3), [1, 2, 3])


# --------------------------------------------------------------------------------------------
# RawKernel and RawModule on every device (CUDA C++ run on the CPU with CPU arrays)

MY_ADD = r'''
extern "C" __global__
void my_add(const float* x1, const float* x2, float* y) {
    int tid = blockDim.x * blockIdx.x + threadIdx.x;
    y[tid] = x1[tid] + x2[tid];
}
'''

SUM_AND_MULTIPLY = r'''
extern "C"{

__global__ void test_sum(const float* x1, const float* x2, float* y, unsigned int N)
{
    unsigned int tid = blockDim.x * blockIdx.x + threadIdx.x;
    if (tid < N) y[tid] = x1[tid] + x2[tid];
}

__global__ void test_multiply(const float* x1, const float* x2, float* y, unsigned int N)
{
    unsigned int tid = blockDim.x * blockIdx.x + threadIdx.x;
    if (tid < N) y[tid] = x1[tid] * x2[tid];
}

}'''

FX3 = r'''
template<typename T>
__global__ void fx3(T* arr, int N) {
    unsigned int tid = blockIdx.x * blockDim.x + threadIdx.x;
    if (tid < N) {
        arr[tid] = arr[tid] * 3;
    }
}
'''

BLOCK_SUM = r'''
extern "C" __global__ void block_sum(const int* x, int n, int* total, int* per_block) {
  extern __shared__ int partial[];
  const int t = threadIdx.x;
  int acc = 0;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) acc += x[i];
  partial[t] = acc;
  __syncthreads();
  for (int half = blockDim.x / 2; half > 0; half /= 2) {
    if (t < half) partial[t] += partial[t + half];
    __syncthreads();
  }
  if (t == 0) {
    per_block[blockIdx.x] = partial[0];
    atomicAdd(total, partial[0]);
  }
}
'''

def test_raw_kernel_user_guide_add(device):
    add = tp.RawKernel(MY_ADD, "my_add")
    x1 = tp.arange(25, dtype=tp.float32).reshape(5, 5)
    x2 = tp.arange(25, dtype=tp.float32).reshape(5, 5)
    y = tp.zeros((5, 5), dtype=tp.float32)
    assert add((5,), (5,), (x1, x2, y)) is None
    assert_same(y, np.arange(25, dtype=np.float32).reshape(5, 5) * 2)


def test_raw_module_user_guide(device):
    module = tp.RawModule(code=SUM_AND_MULTIPLY)
    ker_sum, ker_times = module.get_function("test_sum"), module.get_function("test_multiply")
    n = 10
    x1_np = np.arange(n**2, dtype=np.float32).reshape(n, n)
    x1 = tp.asarray(x1_np)
    x2 = tp.ones((n, n), dtype=tp.float32)
    y = tp.zeros((n, n), dtype=tp.float32)
    ker_sum((n,), (n,), (x1, x2, y, n**2))  # a Python int (long long) for unsigned int
    assert_same(y, x1_np + 1)
    ker_times((n,), (n,), (x1, x2, y, np.uint32(n**2)))
    assert_same(y, x1_np * 1)


def test_raw_module_templates_user_guide(device):
    module = tp.RawModule(code=FX3, options=("-std=c++11",),
                          name_expressions=["fx3<float>", "fx3<double>"])
    for name, dtype in [("fx3<float>", np.float32), ("fx3<double>", np.float64)]:
        a = tp.arange(10, dtype=dtype)
        module.get_function(name)((1,), (10,), (a, 10))
        assert_same(a, np.arange(10, dtype=dtype) * 3)


def test_raw_kernel_shared_memory_sync_and_atomics(device):
    x_np = ints((10_007,), np.int32, -300, 700)
    blocks, threads = 8, 128
    total = tp.zeros(1, dtype=np.int32)
    per_block = tp.zeros(blocks, dtype=np.int32)
    tp.RawKernel(BLOCK_SUM, "block_sum")(
        (blocks,), (threads,), (tp.asarray(x_np), np.int32(x_np.size), total, per_block),
        shared_mem=threads * 4)
    assert_same(total, np.array([x_np.sum()], dtype=np.int32))
    stride = blocks * threads
    expected = [x_np[np.arange(x_np.size) % stride // threads == b].sum() for b in range(blocks)]
    assert_same(per_block, np.array(expected, dtype=np.int32))


def test_raw_kernel_2d_grid_static_shared(device):
    """The CUDA suite's tiled matmul (test_cuda_kernels.py) on every device."""
    m, n, k = 37, 29, 53
    a_np, b_np = ints((m, k), np.float32), ints((k, n), np.float32, seed=1)
    c = tp.zeros((m, n), dtype=np.float32)
    module = tp.RawModule(code=TILED_MATMUL, name_expressions=["matmul<16>"])
    module.get_function("matmul<16>")(
        ((n + 15) // 16, (m + 15) // 16), (16, 16),
        (tp.asarray(a_np), tp.asarray(b_np), c, np.int32(m), np.int32(n), np.int32(k)))
    assert_same(c, a_np @ b_np)


def test_fuse_makes_one_pending_expression(device):
    """The fused function's operations join one lazy expression: nothing is computed until the
    result is read, then one pass computes it (no intermediate of the function exists)."""
    k = fused(squared_diff_fn)
    x_np, y_np = sample((100, 100), np.float64), sample((100, 100), np.float64, seed=1)
    x, y = tp.asarray(x_np), tp.asarray(y_np)
    result = k(x, y)
    assert result._pending
    assert_same(result, (x_np - y_np) * (x_np - y_np))
    assert not result._pending


# Long runs over few outputs are split into parts (each reduced into scratch memory, then the
# parts into the output): the values must not depend on it.

def test_split_runs_full_and_axis_reductions(device):
    x_np = sample((3, 40000), np.float64)
    x = tp.asarray(x_np)
    assert_close(sum_kernel()(x), x_np.sum(), rtol=1e-12)
    assert_close(sum_kernel()(x, axis=1, keepdims=True), x_np.sum(axis=1, keepdims=True),
                 rtol=1e-12)
    assert_close(l2norm()(x[:, ::-1], axis=(0, 1)), np.sqrt((x_np * x_np).sum()), rtol=1e-12)


def test_split_runs_without_identity_and_complex(device):
    x_np = -np.abs(sample((50000,), np.float64)) - 1.0
    assert_same(max_no_identity()(tp.asarray(x_np)), np.asarray(x_np.max()))
    z_np = sample((2, 30000), np.complex128)
    assert_close(sum_kernel()(tp.asarray(z_np), axis=1), z_np.sum(axis=1), rtol=1e-12)


def test_split_runs_with_several_outputs(device):
    k = reduction("T x", "T lo, T hi", "x", "a + b", "lo = a - 1; hi = a + 1", "0",
                  "sum_pm_one")
    x_np = sample((60000,), np.float64)
    lo, hi = tp.empty((), np.float64), tp.empty((), np.float64)
    k(tp.asarray(x_np), lo, hi)
    assert_close(lo, np.asarray(x_np.sum() - 1), rtol=1e-12)
    assert_close(hi, np.asarray(x_np.sum() + 1), rtol=1e-12)


def test_map_expr_sees_the_index_along_the_reduction(device):
    """_J, CuPy's index of the element within its output's run, in map_expr."""
    k = reduction("T x", "int64 y", "_J * (x == x)", "a + b", "y = a", "0", "index_sum",
                  reduce_type="long long")
    for n in (13, 40000):
        x = tp.asarray(np.ones((2, n)))
        assert_same(k(x, axis=1), np.full(2, n * (n - 1) // 2, np.int64))


COOPERATIVE = r"""
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void normalize(float* x, float* total, int n) {
  cg::grid_group grid = cg::this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(total, x[i]);
  grid.sync();
  if (i < n) x[i] = x[i] / total[0];
}
"""


def test_raw_kernel_cooperative_groups(device):
    """enable_cooperative_groups=True launches all blocks at once, so that every block's
    atomicAdd is in `total` before any block reads it after grid.sync()."""
    k = tp.RawKernel(COOPERATIVE, "normalize", enable_cooperative_groups=True)
    x_np = np.arange(1, 129, dtype=np.float32)
    x, total = tp.array(x_np), tp.zeros(1, np.float32)
    k((4,), (32,), (x, total, np.int32(128)))
    assert_same(total, np.array([x_np.sum()], np.float32))
    np.testing.assert_allclose(tp.asnumpy(x), x_np / x_np.sum(), rtol=1e-6)


def test_raw_kernel_includes_cuda_fp16(device):
    """The toolkit's headers are on NVRTC's include path (and the simulator's own stand in
    for them on the CPU)."""
    code = r"""
    #include <cuda_fp16.h>
    extern "C" __global__ void twice(const __half* x, __half* y, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) y[i] = __hadd(x[i], x[i]);
    }
    """
    k = tp.RawKernel(code, "twice")
    x_np = np.linspace(-2, 2, 50).astype(np.float16)
    x, y = tp.asarray(x_np), tp.zeros(50, np.float16)
    k((1,), (64,), (x, y, np.int32(50)))
    assert_same(y, x_np + x_np)
