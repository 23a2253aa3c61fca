"""Products checked against NumPy: matmul and the @ operator (reflected and in-place), dot, vdot,
inner, outer, tensordot, einsum and einsum_path, kron, trace, vecdot, matrix_transpose, and the
numpy.linalg namespace's matmul, matrix_power, multi_dot, vecdot, matrix_transpose, outer,
tensordot, cross, diagonal and trace. Values, dtypes, shapes and the exception type on bad input,
over every dtype, mixed dtypes, 0-d, 1-d, empty and stacked operands with broadcast leading
dimensions, memory layouts (transposed, strided, reversed, broadcast, Fortran), out=, dtype=
and casting=.

Integer and boolean results are compared exactly (integer sums of products wrap modulo 2**bits
in any order). Inexact results are compared within RTOL of their dtype, and within an absolute
ATOL_EPS * k * eps * bound, where bound is the largest sum of |terms| of one output element (the
same product of the inputs' absolute values) and k the number of terms: tessera may sum in
another order than NumPy, and sums whose terms cancel lose relative accuracy. NumPy's scalar
results (1-d @ 1-d, vdot, ...) are 0-d tessera arrays: values and dtypes are compared, not
types."""

import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import tessera as tp

from conftest import ALL_DTYPES, assert_same, reports_fp_errors
from oracle import (assert_raises_type, compact_id, data, host_data_refused, is_host_data,
                    numpy_result, public_type)

# Relative tolerance of each inexact result dtype (float16 products accumulate in float32 in
# NumPy, then round once); the absolute tolerance is ATOL_EPS * k * eps(dtype) * bound.
RTOL = {"float16": 1e-2, "float32": 2e-5, "complex64": 2e-5, "float64": 1e-12,
        "complex128": 1e-12}
ATOL_EPS = 4

# One dtype per kind, for tests whose cases multiply quickly.
FEW_DTYPES = [np.float64, np.float32, np.int16, np.complex128, np.bool_]


def dtype_id(d):
    return np.dtype(d).name


# --------------------------------------------------------------------------------------------
# helpers


def to_tessera(value):
    """value with its NumPy arrays (also inside lists and tuples) as tessera arrays."""
    if isinstance(value, np.ndarray):
        return tp.asarray(value)
    if isinstance(value, (list, tuple)) and any(isinstance(v, np.ndarray) for v in value):
        return type(value)(to_tessera(v) for v in value)
    return value


def _mapped(value, f):
    if isinstance(value, np.ndarray):
        return f(value)
    if isinstance(value, (list, tuple)) and any(isinstance(v, np.ndarray) for v in value):
        return type(value)(_mapped(v, f) for v in value)
    return value


def magnitude(x):
    """The largest finite |x| (0 for none)."""
    x = np.abs(np.asarray(x, dtype=np.complex128 if np.iscomplexobj(x) else np.float64))
    finite = x[np.isfinite(x)]
    return float(finite.max()) if finite.size else 0.0


def error_scale(np_fn, args, kwargs):
    """(bound, k) of np_fn(*args): the largest sum of |terms| of an output element, and the
    number of terms summed into one (the same function of |args| and of ones)."""
    kw = {k: v for k, v in kwargs.items() if k not in ("out", "dtype", "casting")}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        bound = magnitude(np_fn(*[_mapped(a, lambda x: np.abs(x).astype(np.float64))
                                  for a in args], **kw))
        k = magnitude(np_fn(*[_mapped(a, lambda x: np.ones(x.shape)) for a in args], **kw))
    return bound, max(k, 1.0)


def context():
    """The simple local variables of the running test (loop dtypes, shapes, keywords...), to
    say which case of a loop failed."""
    frame = sys._getframe(1)
    while frame is not None and not frame.f_code.co_name.startswith("test_"):
        frame = frame.f_back
    if frame is None:
        return ""
    parts = []
    for key, value in frame.f_locals.items():
        if key.startswith("_") or key in ("device", "expected", "got"):
            continue
        if isinstance(value, type) and issubclass(value, np.generic):
            value = np.dtype(value)
        if isinstance(value, np.dtype):
            parts.append(f"{key}={value.name}")
        elif isinstance(value, (str, int, float, bool, tuple, list, dict, type(None))) and \
                "array" not in repr(value) and len(repr(value)) < 150:
            parts.append(f"{key}={value!r}")
    return ", ".join(parts)


def assert_product(got, expected, bound=0.0, k=1.0, exact=False):
    """got (a tessera array) is NumPy's `expected`: dtype and shape exactly, integer and bool
    values exactly, inexact values within RTOL and ATOL_EPS * k * eps * bound."""
    __tracebackhide__ = True
    n = np.asarray(expected)
    if exact or n.dtype.kind not in "fc":
        assert_same(got, n)
        return
    assert isinstance(got, tp.ndarray), f"expected tessera.ndarray, got {type(got).__name__}"
    assert got.dtype == n.dtype, f"dtype {got.dtype} != {n.dtype}"
    assert got.shape == n.shape, f"shape {got.shape} != {n.shape}"
    atol = ATOL_EPS * k * float(np.finfo(n.dtype).eps) * bound
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(tp.asnumpy(got), n, rtol=RTOL[n.dtype.name], atol=atol,
                                   equal_nan=True)


def check(np_fn, tp_fn, *args, targs=None, tkwargs=None, exact=False, scale=None,
          subclass=False, **kwargs):
    """tp_fn(*targs, **kwargs) against np_fn(*args, **kwargs): NumPy's value, dtype and shape,
    or the type of its exception (with tessera's "[api]" message prefix). targs defaults to
    args as tessera arrays (pass views built the same way for layouts); tkwargs overrides
    keywords for tessera (out=). scale: (bound, k) when error_scale does not apply. subclass:
    a subclass of NumPy's exception type will do (AxisError for NumPy's IndexError). Returns
    tessera's result (None after an error)."""
    __tracebackhide__ = True
    targs = tuple(to_tessera(a) for a in args) if targs is None else targs
    tkw = {k: to_tessera(v) for k, v in kwargs.items()}
    tkw.update(tkwargs or {})
    expected, error = numpy_result(lambda: np_fn(*args, **kwargs))
    try:
        if error is not None:
            if subclass:
                with pytest.raises(public_type(error)):
                    tp_fn(*targs, **tkw)
            else:
                assert_raises_type(public_type(error), lambda: tp_fn(*targs, **tkw))
            return None
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            got = tp_fn(*targs, **tkw)
        if not exact and np.asarray(expected).dtype.kind in "fc" and scale is None:
            scale = error_scale(np_fn, args, kwargs)
        assert_product(got, expected, *(scale or (0.0, 1.0)), exact=exact)
    except AssertionError as failure:
        raise AssertionError(f"{failure}\n  case: {context()}") from None
    return got


def pair(shape, dtype, seed=0, view=None):
    """(tessera, NumPy) arrays of sample data, with view(x, module) applied to both."""
    base = data(shape, dtype, seed)
    t, n = tp.asarray(base), base
    if view is not None:
        t, n = view(t, tp), view(n, np)
    return t, n


def linalg(name):
    """tessera.linalg.<name> (AttributeError, naming it, when missing)."""
    return getattr(tp.linalg, name)


# --------------------------------------------------------------------------------------------
# names


TOP_LEVEL = ["matmul", "dot", "vdot", "inner", "outer", "tensordot", "einsum", "einsum_path",
             "kron", "trace", "vecdot", "matrix_transpose"]
LINALG = ["matmul", "matrix_power", "multi_dot", "vecdot", "matrix_transpose", "outer",
          "tensordot", "cross", "diagonal", "trace"]


def test_function_names(device):
    missing = [f"tessera.{name}" for name in TOP_LEVEL if not callable(getattr(tp, name, None))]
    ns = getattr(tp, "linalg", None)
    missing += [f"tessera.linalg.{name}" for name in LINALG
                if not callable(getattr(ns, name, None))]
    for method in ("__matmul__", "__rmatmul__", "__imatmul__"):
        if not hasattr(tp.ndarray, method):
            missing.append(f"ndarray.{method}")
    assert not missing, f"missing: {', '.join(missing)}"


# --------------------------------------------------------------------------------------------
# matmul: dtypes, promotion, shapes, layouts


DTYPE_SHAPES = [((3, 4), (4, 5)), ((4,), (4,)), ((4,), (4, 3)), ((3, 4), (4,)),
                ((2, 1, 3, 4), (5, 4, 6))]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_matmul_dtypes(device, dtype):
    """Every dtype (bool: any of the ands; integers wrap) through tp.matmul and @, for 1-d @ 1-d
    (0-d result), vector-matrix, matrix-vector and broadcast stacks."""
    for shape_a, shape_b in DTYPE_SHAPES:
        a, b = data(shape_a, dtype, 1), data(shape_b, dtype, 2)
        check(np.matmul, tp.matmul, a, b)
        check(lambda x, y: x @ y, lambda x, y: x @ y, a, b)


PROMOTION_PAIRS = [
    (np.bool_, np.int8), (np.int8, np.uint8), (np.uint32, np.int32), (np.int64, np.uint64),
    (np.bool_, np.float16), (np.int8, np.float16), (np.float16, np.int16),
    (np.float32, np.int64), (np.uint16, np.float32), (np.complex64, np.float64),
    (np.float16, np.complex64), (np.uint8, np.complex128), (np.bool_, np.complex64),
]


@pytest.mark.parametrize("dtypes", PROMOTION_PAIRS,
                         ids=lambda p: f"{dtype_id(p[0])}-{dtype_id(p[1])}")
def test_matmul_promotion(device, dtypes):
    """Mixed dtypes promote as NumPy's (int64 with uint64 computes in float64), both orders."""
    first, second = dtypes
    for x, y in ((first, second), (second, first)):
        a, b = data((3, 4), x, 1), data((4, 2), y, 2)
        check(np.matmul, tp.matmul, a, b)
        check(lambda p, q: p @ q, lambda p, q: p @ q, a[0], b)


MATMUL_SHAPES = [
    ((3, 4), (4, 5)), ((4,), (4,)), ((4,), (4, 5)), ((3, 4), (4,)), ((1, 1), (1, 1)),
    ((2, 1, 3, 4), (5, 4, 6)), ((2, 3, 4), (4,)), ((4,), (2, 4, 3)), ((1, 3, 4), (2, 4, 5)),
    ((2, 2, 3, 4), (2, 1, 4, 5)), ((3, 4), (2, 4, 5)),
    # empty: k = 0 gives zeros, m = 0, n = 0, batch 0
    ((3, 0), (0, 4)), ((0,), (0,)), ((0,), (0, 3)), ((0, 4), (4, 5)), ((3, 4), (4, 0)),
    ((0, 3, 4), (4, 5)), ((2, 0, 3, 4), (1, 4, 2)), ((2, 3, 0), (2, 0, 4)),
    # past small-kernel blocks and their tails
    ((17, 33), (33, 9)), ((65, 70), (70, 40)), ((3, 130), (130,)),
    # errors: 0-d operand, core mismatch, leading dimensions that do not broadcast
    ((), (3,)), ((3,), ()), ((), ()), ((3, 4), (3, 4)), ((3,), (4,)), ((4,), (3, 4)),
    ((2, 3, 4), (3, 4, 5)), ((2, 3, 4), (2, 5, 4)), ((2, 3, 4), (3, 4, 2)),
]


@pytest.mark.parametrize("shapes", MATMUL_SHAPES, ids=compact_id)
def test_matmul_shapes(device, shapes):
    shape_a, shape_b = shapes
    for dtype in FEW_DTYPES:
        a, b = data(shape_a, dtype, 1), data(shape_b, dtype, 2)
        check(np.matmul, tp.matmul, a, b)
        check(lambda x, y: x @ y, lambda x, y: x @ y, a, b)


def T(x, m):
    return x.T


def same(x, m):
    return x


# Each layout: base shape and view of a, base shape and view of b (views built the same way in
# NumPy and tessera).
MATMUL_LAYOUTS = {
    "transposed_a": ((5, 3), T, (5, 4), same),
    "transposed_b": ((3, 5), same, (4, 5), T),
    "transposed_both": ((5, 3), T, (4, 5), T),
    "strided": ((6, 10), lambda x, m: x[::2, ::2], (10, 8), lambda x, m: x[::2, 1::2]),
    "negative": ((3, 5), lambda x, m: x[::-1, ::-1], (5, 4), lambda x, m: x[::-1]),
    "negative_step2": ((3, 10), lambda x, m: x[:, ::-2], (9, 4), lambda x, m: x[::-2, ::-1]),
    "partial_rows": ((3, 7), lambda x, m: x[:, 1:6], (5, 6), lambda x, m: x[:, :4]),
    "fortran": ((3, 5), lambda x, m: m.asfortranarray(x), (5, 4),
                lambda x, m: m.asfortranarray(x)),
    "fortran_stack": ((2, 3, 5), lambda x, m: m.asfortranarray(x), (5, 4), same),
    "broadcast_batch": ((1, 3, 5), lambda x, m: m.broadcast_to(x, (4, 3, 5)), (4, 5, 2), same),
    "broadcast_core": ((1, 5), lambda x, m: m.broadcast_to(x, (3, 5)), (5, 1),
                       lambda x, m: m.broadcast_to(x, (5, 4))),
    "batch_transposed": ((2, 5, 3), lambda x, m: x.transpose(0, 2, 1), (2, 5, 4), same),
    "batch_permuted": ((3, 2, 5), lambda x, m: x.transpose(1, 0, 2), (5, 2, 4),
                       lambda x, m: x.transpose(1, 0, 2)),
    "vector_strided": ((15,), lambda x, m: x[::3], (5, 4), same),
    "vector_negative": ((3, 5), same, (5,), lambda x, m: x[::-1]),
    "large_transposed": ((70, 40), T, (70, 33), same),
}


@pytest.mark.parametrize("layout", list(MATMUL_LAYOUTS))
def test_matmul_layouts(device, layout):
    """Non-contiguous, reversed, broadcast (zero-stride) and Fortran-ordered operands multiply as
    contiguous ones."""
    shape_a, view_a, shape_b, view_b = MATMUL_LAYOUTS[layout]
    for dtype in (np.float64, np.float32, np.int64, np.complex64):
        ta, a = pair(shape_a, dtype, 1, view_a)
        tb, b = pair(shape_b, dtype, 2, view_b)
        check(np.matmul, tp.matmul, a, b, targs=(ta, tb))
        check(lambda x, y: x @ y, lambda x, y: x @ y, a, b, targs=(ta, tb))
        if a.ndim > 1 and b.ndim > 1:  # (a @ b).mT = b.mT @ a.mT: the views transposed again
            check(np.matmul, tp.matmul, np.matrix_transpose(b), np.matrix_transpose(a),
                  targs=(tp.matrix_transpose(tb), tp.matrix_transpose(ta)))


# Products with few terms (at most 8 per element) and results of at least 4096 elements are
# elementwise Dot nodes on the CPU: pending, fused with what uses them. Each layout: base
# shape and view of a, base shape and view of b.
FEW_TERMS_LAYOUTS = {
    "contiguous": ((100, 3), same, (3, 90), same),
    "distance_form": ((100, 3), same, (90, 3), T),  # x @ y.T
    "transposed_a": ((3, 100), T, (3, 90), same),
    "strided": ((200, 6), lambda x, m: x[::2, ::2], (3, 180), lambda x, m: x[:, ::2]),
    "negative": ((100, 8), lambda x, m: x[::-1, ::-1], (8, 90), lambda x, m: x[::-1, ::-1]),
    "broadcast": ((1, 5), lambda x, m: m.broadcast_to(x, (100, 5)), (5, 1),
                  lambda x, m: m.broadcast_to(x, (5, 90))),
    "one_term": ((100, 1), same, (1, 90), same),
    "eight_terms": ((64, 8), same, (8, 64), same),
    "nine_terms": ((64, 9), same, (9, 64), same),  # past the limit: BLAS
    "odd_width": ((77, 4), same, (4, 61), same),  # rows that end between vectors
}


@pytest.mark.parametrize("layout", list(FEW_TERMS_LAYOUTS))
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16], ids=dtype_id)
def test_matmul_few_terms(device, layout, dtype):
    shape_a, view_a, shape_b, view_b = FEW_TERMS_LAYOUTS[layout]
    ta, a = pair(shape_a, dtype, 1, view_a)
    tb, b = pair(shape_b, dtype, 2, view_b)
    check(np.matmul, tp.matmul, a, b, targs=(ta, tb))
    check(lambda x, y: x @ y, lambda x, y: x @ y, a, b, targs=(ta, tb))


FEW_TERMS_USES = {
    "distance_matrix": lambda x, y, m: ((x * x).sum(axis=1)[:, None] - 2 * x @ y.T
                                        + (y * y).sum(axis=1)[None, :]),
    "squared": lambda x, y, m: (x @ y.T) * (x @ y.T),
    "sum": lambda x, y, m: (x @ y.T).sum(),
    "sum_rows": lambda x, y, m: (x @ y.T).sum(axis=0),
    "sum_columns": lambda x, y, m: (x @ y.T).sum(axis=1),
    "max": lambda x, y, m: (x @ y.T).max(axis=0),
    "sqrt_abs": lambda x, y, m: m.sqrt(m.abs(x @ y.T)),
    "transposed": lambda x, y, m: (x @ y.T).T + 1.0,
    "reversed": lambda x, y, m: (x @ y.T)[::-1, ::-3] * 2.0,
    "cast": lambda x, y, m: (x @ y.T).astype(m.float32),
}


@pytest.mark.parametrize("use", list(FEW_TERMS_USES))
def test_matmul_few_terms_fused(device, use):
    """What consumes a product with few terms (the rest of an expression, a reduction, a
    view) sees NumPy's values."""
    fn = FEW_TERMS_USES[use]
    tx, x = pair((300, 3), np.float64, 1)
    ty, y = pair((200, 3), np.float64, 2)
    expected = fn(x, y, np)
    got = fn(tx, ty, tp)
    assert_product(got, expected, bound=float(np.abs(x).max() * np.abs(y).max() * 300), k=8)


def owned_pair(shape, dtype, seed=0):
    """(tessera, NumPy) arrays of sample data, the tessera one a copy that tessera owns."""
    base = data(shape, dtype, seed)
    return tp.array(base, copy=True), base


# A product with few terms and a chain of + - * / on it run as one loop (dot_chain.cpp):
# links of each kind (a row of an array, one value along the row, a constant, the product
# on either side), the most links the loop takes and one more, and trees that are not
# chains. p: the product; r: a row (one value per column); c: a column (one per row).
# The operands are tessera's own copies: a product of arrays that NumPy can still write
# (tp.asarray's views of NumPy memory) is computed at once, never fused.
FEW_TERMS_CHAINS = {
    "column_minus_product": lambda p, r, c: c[:, None] - p,
    "product_plus_row": lambda p, r, c: p + r[None, :],
    "constants": lambda p, r, c: 1.5 - p / 4.0 * 3.0,
    "row_over_product": lambda p, r, c: r[None, :] / p,
    "six_links": lambda p, r, c: (((p + 1.0) * r[None, :] - c[:, None]) / 2.0 + r) * c[:, None],
    "seven_links": lambda p, r, c: (((p + 1.0) * r[None, :] - c[:, None]) / 2.0 + r - 1.0) * r,
    "product_twice": lambda p, r, c: p * p + 1.0,
    "chain_then_sqrt": lambda p, r, c: ((p - c[:, None]) ** 2 + 1.0) ** 0.5,
    "two_dimensional_operand": lambda p, r, c: (p + 1.0) * (c[:, None] * r[None, :]),
}


@pytest.mark.parametrize("chain", list(FEW_TERMS_CHAINS))
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=dtype_id)
@pytest.mark.parametrize("shape", [(300, 200, 3), (61, 77, 5)], ids=["even", "odd"])
def test_matmul_few_terms_chain(device, chain, dtype, shape):
    """A chain of elementwise steps on a product with few terms gives NumPy's values."""
    m, n, k = shape
    tx, x = owned_pair((m, k), dtype, 1)
    ty, y = owned_pair((n, k), dtype, 2)
    tr, r = owned_pair((n,), dtype, 3)
    tc, c = owned_pair((m,), dtype, 4)
    fn = FEW_TERMS_CHAINS[chain]
    with np.errstate(all="ignore"), tp.errstate(all="ignore"):
        expected = fn(x @ y.T, r, c)
        got = fn(tx @ ty.T, tr, tc)
    bound = float(np.abs(x).max() * np.abs(y).max() * k) + 1.0
    scale = bound * float(max(np.abs(r).max(), np.abs(c).max(), 1.0)) ** 2
    assert_product(got, expected, bound=scale, k=8)


def test_matmul_few_terms_chain_streamed(device):
    """An output bigger than the caches is written with streaming stores, its rows (2047
    elements) starting between vectors: NumPy's distance matrix all the same."""
    tx, x = owned_pair((1700, 3), np.float64, 1)
    ty, y = owned_pair((2047, 3), np.float64, 2)
    x2, y2 = (x * x).sum(axis=1), (y * y).sum(axis=1)
    tx2, ty2 = (tx * tx).sum(axis=1), (ty * ty).sum(axis=1)
    expected = x2[:, None] - 2 * x @ y.T + y2[None, :]
    got = tx2[:, None] - 2 * tx @ ty.T + ty2[None, :]
    assert_product(got, expected, bound=float(np.abs(x).max() * np.abs(y).max() * 3) * 4, k=8)


def test_matmul_few_terms_chain_out(device):
    """A chain written through out=: into a strided view, and into one of its own operands
    with a division by zero (a row that raises is computed again, from operands the first
    run must not have overwritten; a generated CUDA kernel reports no error, as CuPy's, and
    computes no row again)."""
    tx, x = owned_pair((120, 3), np.float64, 1)
    ty, y = owned_pair((90, 3), np.float64, 2)
    big, tbig = np.zeros((120, 180)), tp.zeros((120, 180))
    np.add(x @ y.T, 1.0, out=big[:, ::2])
    tp.add(tx @ ty.T, 1.0, out=tbig[:, ::2])
    assert_product(tbig, big, bound=float(np.abs(x).max() * np.abs(y).max() * 3), k=8)
    acc = data((120, 90), np.float64, 5)
    acc[::7, ::5] = 0.0
    tacc = tp.array(acc, copy=True)
    with np.errstate(divide="ignore"), tp.errstate(divide="warn"):
        np.divide(x @ y.T * 2.0, acc, out=acc)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            tp.divide(tx @ ty.T * 2.0, tacc, out=tacc)
    messages = [str(w.message) for w in caught]
    if reports_fp_errors(device):
        assert "divide by zero encountered in divide" in messages
    else:
        assert messages == []
    assert_product(tacc, acc, bound=float(np.abs(x).max() * np.abs(y).max() * 3) * 2, k=8)


@pytest.mark.parametrize("case", ["divide", "invalid", "overflow"])
def test_matmul_few_terms_chain_warnings(device, case):
    """The chain's floating-point errors warn as NumPy's do, naming the step that raised; a
    generated CUDA kernel reports none (CuPy's rule): no warning, nothing raised."""
    x, y = np.ones((100, 3)), np.ones((90, 3))
    row = {"divide": np.zeros(90), "invalid": np.zeros(90), "overflow": np.full(90, 1e308)}[case]
    if case == "invalid":
        x = np.zeros((100, 3))
    tx, ty, trow = tp.array(x), tp.array(y), tp.array(row)

    def chain(p, r):
        return (p / r[None, :] if case != "overflow" else p * r[None, :] * 10.0) + 1.0

    with warnings.catch_warnings(record=True) as np_caught:
        warnings.simplefilter("always")
        expected = chain(x @ y.T, row)
    with warnings.catch_warnings(record=True) as tp_caught:
        warnings.simplefilter("always")
        got = tp.asnumpy(chain(tx @ ty.T, trow))
    expected_messages = sorted(str(w.message) for w in np_caught)
    assert np_caught
    assert sorted(str(w.message) for w in tp_caught) == (
        expected_messages if reports_fp_errors(device) else [])
    np.testing.assert_array_equal(got, expected)
    if reports_fp_errors(device):
        with tp.errstate(all="raise"), pytest.raises(FloatingPointError):
            tp.asnumpy(chain(tx @ ty.T, trow))
    else:
        with tp.errstate(all="raise"):
            np.testing.assert_array_equal(tp.asnumpy(chain(tx @ ty.T, trow)), expected)


def test_matmul_few_terms_out(device):
    tx, x = pair((100, 3), np.float64, 1)
    ty, y = pair((3, 90), np.float64, 2)
    for dtype in (np.float64, np.float32, np.complex128):
        out, tout = np.zeros((100, 90), dtype), tp.zeros((100, 90), dtype)
        r = tp.matmul(tx, ty, out=tout)
        assert r is tout
        assert_product(tout, np.matmul(x, y, out=out), bound=1.0, k=8)
    big, tbig = np.zeros((100, 180)), tp.zeros((100, 180))  # a strided out= view
    tp.matmul(tx, ty, out=tbig[:, ::2])
    np.matmul(x, y, out=big[:, ::2])
    assert_product(tbig, big, bound=1.0, k=8)


def test_matmul_few_terms_keeps_operands_at_call(device):
    """The pending product reads its operands as they were when it was called: writing them
    afterwards, in place or through a view, does not change it."""
    for b_view in (same, T):
        tx, x = pair((100, 3), np.float64, 1)
        shape_b = (3, 90) if b_view is same else (90, 3)
        ty, y = pair(shape_b, np.float64, 2)
        expected = x @ b_view(y, np)
        r = tx @ b_view(ty, tp)
        tx[0] = 1e9
        ty[...] = -1.0
        tx += 5.0
        assert_product(r, expected, bound=1.0, k=8)


def assert_product_warns_as_numpy(x, y, numpy_decides=True):
    """x @ y in tessera gives NumPy's values and warns NumPy's warnings, once each; on a
    CUDA device running generated code, none (CuPy's rule, docs/cuda.md). Where NumPy's
    warnings come from its BLAS kernel's own arithmetic and not from the values
    (`numpy_decides` False), tessera's rule holds: nothing is reported."""
    __tracebackhide__ = True
    with warnings.catch_warnings(record=True) as np_caught:
        warnings.simplefilter("always")
        expected = x @ y
    with warnings.catch_warnings(record=True) as tp_caught:
        warnings.simplefilter("always")
        got = tp.asnumpy(tp.asarray(x) @ tp.asarray(y))
    want = np_caught if reports_fp_errors() and numpy_decides else []
    assert sorted(str(w.message) for w in tp_caught) == sorted(str(w.message) for w in want)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("values", [(1e300, 1e300), (np.inf, 0.0), (np.nan, 1.0)],
                         ids=["overflow", "inf-times-zero", "nan"])
def test_matmul_few_terms_warnings(device, values):
    """Floating-point errors of the product warn as NumPy's do ("... in matmul"), once."""
    x, y = np.full((100, 3), values[0]), np.full((3, 90), values[1])
    assert_product_warns_as_numpy(x, y)


@pytest.mark.parametrize("values", [("big", "big"), (np.inf, 0.0), (np.nan, 1.0), (np.inf, 1.0),
                                    ("-big", "big"), (1.0, 2.0)],
                         ids=["overflow", "inf-times-zero", "nan", "inf", "negative-overflow",
                              "finite"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128], ids=dtype_id)
def test_matmul_blas_warnings(device, values, dtype):
    """Products through the BLAS (50 terms) warn as NumPy's do: overflow from finite
    operands, invalid for inf * 0; inf and NaN operands alone raise nothing. Whether
    NumPy's own product warns for those depends on its OpenBLAS kernel (one that pads a
    tile with zeros multiplies them by inf, and raises invalid), so there tessera's rule is
    checked, not NumPy's machine-dependent warning."""
    big = float(np.finfo(dtype).max) ** 0.6  # its square overflows
    x, y = (np.full(shape, {"big": big, "-big": -big}.get(v, v), dtype)
            for shape, v in (((40, 50), values[0]), ((50, 30), values[1])))
    y[0, :] = 1.0  # a finite row: the NaN/inf results are not all from one kind of term
    # Complex inf * 1 has a NaN part: there the values show the invalid operation too.
    from_values = (not any(v is np.inf or v is np.nan for v in values) or values[1] == 0.0
                   or np.dtype(dtype).kind == "c")
    assert_product_warns_as_numpy(x, y, numpy_decides=from_values)


def test_matmul_blas_errors_raise_under_errstate(device):
    x, y = np.full((40, 50), 1e300), np.full((50, 30), 1e300)
    if reports_fp_errors():
        with tp.errstate(over="raise"), pytest.raises(FloatingPointError, match="overflow"):
            tp.asarray(x) @ tp.asarray(y)
    else:  # CuPy's rule: nothing raised, IEEE's values
        with tp.errstate(over="raise"):
            assert np.isinf(tp.asnumpy(tp.asarray(x) @ tp.asarray(y))).all()
    with tp.errstate(over="ignore", invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isinf(tp.asnumpy(tp.asarray(x) @ tp.asarray(y))).all()


def test_vdot_and_einsum_report_nothing(device):
    """NumPy's vdot and einsum loops never check the floating-point status."""
    x, y = np.full((40, 50), 1e300), np.full((50, 30), 1e300)
    tx, ty = tp.asarray(x), tp.asarray(y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.vdot(x[0], y[:, 0]), np.einsum("ij,jk", x, y)
        assert tp.vdot(tx[0], ty[:, 0]).item() == np.inf
        np.testing.assert_array_equal(tp.asnumpy(tp.einsum("ij,jk", tx, ty)),
                                      np.einsum("ij,jk", x, y))


def test_matmul_integer_overflow(device):
    """Integer products and sums wrap modulo 2**bits exactly as NumPy's."""
    cases = [
        (np.full((2, 3), 100, np.int8), np.full((3, 2), 100, np.int8)),
        (np.array([[127, -128, 77]], np.int8), np.array([[-128], [127], [99]], np.int8)),
        (np.full((2, 5), 250, np.uint8), np.full((5, 3), 201, np.uint8)),
        (np.full((3, 3), 30000, np.int16), np.full((3, 3), -29999, np.int16)),
        (np.full((2, 2), 2**31 - 1, np.int32), np.full((2, 2), 2**30 + 7, np.int32)),
        (np.full((2, 2), 2**40 + 3, np.int64), np.full((2, 2), 2**35 - 1, np.int64)),
        (np.full((2, 3), 2**63 + 5, np.uint64), np.full((3, 2), 2**62 + 9, np.uint64)),
        (np.array([100, 100, 100], np.int8), np.array([100, 100, 100], np.int8)),
    ]
    for a, b in cases:
        check(np.matmul, tp.matmul, a, b)


def test_float16_accumulates_in_float32(device):
    """NumPy sums float16 products in float32 and rounds once: a partial sum beyond float16's
    range (120000) does not overflow when the result (60000) fits."""
    a = np.array([60000, 60000, -60000], np.float16)
    b = np.ones(3, np.float16)
    cases = [
        (np.matmul, tp.matmul, (a, b)),
        (np.matmul, tp.matmul, (a[None], np.ones((3, 2), np.float16))),
        (np.dot, tp.dot, (a, b)),
        (np.vdot, tp.vdot, (a, b)),
        (np.inner, tp.inner, (a, b)),
        (np.vecdot, tp.vecdot, (a, b)),
        (lambda x, y: np.tensordot(x, y, 1), lambda x, y: tp.tensordot(x, y, 1), (a, b)),
        (lambda x, y: np.einsum("i,i", x, y), lambda x, y: tp.einsum("i,i", x, y), (a, b)),
    ]
    for np_fn, tp_fn, args in cases:
        check(np_fn, tp_fn, *args)


# --------------------------------------------------------------------------------------------
# matmul: out=, dtype=, casting=


def operands(kind, shapes=((3, 4), (4, 5))):
    """Two operands of dtype `kind`; "f8int": float64 holding small integers (results exact,
    so that casts to integers truncate alike)."""
    if kind == "f8int":
        return tuple(data(s, np.int16, i + 1).astype(np.float64) for i, s in enumerate(shapes))
    return tuple(data(s, kind, i + 1) for i, s in enumerate(shapes))


MATMUL_OUT = [
    # (input dtype, out dtype, out shape, keywords)
    ("float64", "float64", (3, 5), {}),
    ("float32", "float64", (3, 5), {}),
    ("float64", "float32", (3, 5), {}),
    ("int32", "float64", (3, 5), {}),
    ("int16", "int8", (3, 5), {}),
    ("bool", "int64", (3, 5), {}),
    ("float64", "complex64", (3, 5), {}),
    ("float64", "int64", (3, 5), {}),
    ("complex128", "float64", (3, 5), {}),
    ("f8int", "int64", (3, 5), {"casting": "unsafe"}),
    ("f8int", "int16", (3, 5), {"casting": "unsafe"}),
    ("int64", "int64", (3, 5), {"casting": "no"}),
    ("int64", "float64", (3, 5), {"casting": "no"}),
    ("int64", "float64", (3, 5), {"casting": "safe"}),
    ("int64", "float32", (3, 5), {"casting": "safe"}),
    ("float64", "float64", (3, 4), {}),
    ("float64", "float64", (5, 3), {}),
    ("float64", "float64", (15,), {}),
    ("float64", "float64", (1, 3, 5), {}),
]


@pytest.mark.parametrize("case", MATMUL_OUT, ids=compact_id)
def test_matmul_out(device, case):
    """The result lands in out (cast to its dtype under casting=) and out is returned; a
    forbidden cast raises TypeError, a wrong shape ValueError."""
    kind, out_dtype, out_shape, kwargs = case
    a, b = operands(kind)
    nout, tout = np.zeros(out_shape, out_dtype), tp.zeros(out_shape, np.dtype(out_dtype))
    got = check(np.matmul, tp.matmul, a, b, out=nout, tkwargs={"out": tout}, **kwargs)
    if got is not None:
        assert got is tout, "matmul(out=) did not return out"


def test_matmul_out_forms(device):
    """out as a 1-tuple, a non-contiguous view (written through to its base), a 0-d array for
    1-d @ 1-d, and one of the inputs (NumPy buffers the overlap)."""
    a, b = data((3, 4), np.float64, 1), data((4, 5), np.float64, 2)
    nout, tout = np.zeros(5), tp.zeros(5)
    got = check(np.matmul, tp.matmul, a[0], b, out=(nout,), tkwargs={"out": (tout,)})
    assert got is tout

    nbase, tbase = np.zeros((6, 10)), tp.zeros((6, 10))
    nview, tview = nbase[::2, ::-2], tbase[::2, ::-2]
    got = check(np.matmul, tp.matmul, a, b, out=nview, tkwargs={"out": tview})
    assert_product(tbase, nbase, *error_scale(np.matmul, (a, b), {}))

    nout, tout = np.zeros(()), tp.zeros(())
    got = check(np.matmul, tp.matmul, a[0], b[:, 0], out=nout, tkwargs={"out": tout})
    assert got is tout

    sq = data((4, 4), np.float64, 3)
    n, t = sq.copy(), tp.array(sq)
    np.matmul(n, n, out=n)
    got = tp.matmul(t, t, out=t)
    assert got is t
    assert_product(t, n, *error_scale(np.matmul, (sq, sq), {}))


MATMUL_DTYPE = [
    # (input dtype, dtype=, keywords)
    ("int8", "int32", {}),
    ("bool", "int8", {}),
    ("bool", "float32", {}),
    ("float64", "float32", {}),
    ("float32", "float64", {}),
    ("int16", "float64", {}),
    ("uint8", "float16", {}),
    ("float32", "complex128", {}),
    ("float64", "int64", {}),
    ("complex128", "float64", {}),
    ("f8int", "int64", {"casting": "unsafe"}),
    ("int32", "int64", {"casting": "no"}),
    ("int64", "int64", {"casting": "no"}),
    ("int32", "int64", {"casting": "safe"}),
    ("int64", "int32", {"casting": "safe"}),
]


@pytest.mark.parametrize("case", MATMUL_DTYPE, ids=compact_id)
def test_matmul_dtype_keyword(device, case):
    """dtype= picks the loop: the inputs are cast to it under casting= (int8 in int32 does not
    wrap; bool as int8 counts), a forbidden cast raises TypeError."""
    kind, dtype, kwargs = case
    a, b = operands(kind)
    check(np.matmul, tp.matmul, a, b, dtype=np.dtype(dtype), **kwargs)
    check(np.matmul, tp.matmul, a, b, dtype=dtype, **kwargs)


# --------------------------------------------------------------------------------------------
# the @ operator: reflected and in-place


def test_matmul_operator_operands(device):
    """@ with lists and NumPy arrays on either side gives tessera arrays on the CPU (NumPy on
    the left defers through __array_ufunc__) and is refused on CUDA; the same operands as
    tessera arrays give NumPy's result everywhere. A scalar operand raises ValueError."""
    a, b = data((3, 4), np.int32, 1), data((4, 2), np.float32, 2)
    ta, tb = tp.asarray(a), tp.asarray(b)
    matmul = lambda x, y: x @ y  # noqa: E731
    for x, y, tx, ty in [
        ([[1, 2, 3]], a[:3, :3], [[1, 2, 3]], ta[:3, :3]),   # list @ tessera (reflected)
        ([1.5, -2, 0, 4], b, [1.5, -2, 0, 4], tb),
        (a, [1, 0, 2, 5], ta, [1, 0, 2, 5]),                   # tessera @ list
        (a, b, a, tb),                                         # NumPy @ tessera
        (a, b, ta, b),                                         # tessera @ NumPy
        (a[0], b, a[0], tb),
    ]:
        if not host_data_refused(lambda: tx @ ty):
            check(matmul, matmul, x, y, targs=(tx, ty))
        check(matmul, matmul, x, y,
              targs=tuple(tp.asarray(v) if is_host_data(v) else v for v in (tx, ty)))
    for x, y, tx, ty in [(a, 2, ta, 2), (2, a, 2, ta), (np.float64(2.0), a, np.float64(2.0), ta),
                         (a, np.int32(3), ta, np.int32(3))]:
        check(matmul, matmul, x, y, targs=(tx, ty))


def _imatmul(x, y):
    x @= y
    return x


INPLACE = [
    # (a shape, a dtype, b shape, b dtype)
    ((3, 3), np.float64, (3, 3), np.float64),
    ((3, 3), np.int32, (3, 3), np.int32),
    ((3, 3), np.int8, (3, 3), np.int8),
    ((3, 3), np.float64, (3, 3), np.int8),
    ((4, 3), np.complex128, (3, 3), np.complex64),
    ((2, 3, 3), np.float32, (3, 3), np.float32),
    ((2, 3, 3), np.float32, (2, 3, 3), np.float32),
    ((3,), np.float64, (3, 3), np.float64),
    # errors: 1-d second operand, result of another shape, output cast, stack into a matrix
    ((3,), np.float64, (3,), np.float64),
    ((3, 3), np.float64, (3,), np.float64),
    ((3, 3), np.float64, (3, 2), np.float64),
    ((3, 3), np.float64, (2, 3, 3), np.float64),
    ((3, 3), np.int64, (3, 3), np.float64),
    ((3, 3), np.float32, (3, 3), np.complex64),
    ((3, 3), np.float64, (4, 4), np.float64),
]


@pytest.mark.parametrize("case", INPLACE, ids=lambda c: compact_id(
    f"{c[0]}{dtype_id(c[1])}@={c[2]}{dtype_id(c[3])}"))
def test_matmul_inplace(device, case):
    """a @= b writes into a and keeps it (the same object); NumPy's errors leave a unchanged."""
    shape_a, dtype_a, shape_b, dtype_b = case
    a, b = data(shape_a, dtype_a, 1), data(shape_b, dtype_b, 2)
    n, t, tb = a.copy(), tp.array(a), tp.asarray(b)
    expected, error = numpy_result(lambda: _imatmul(n, b))
    if error is not None:
        assert_raises_type(public_type(error), lambda: _imatmul(t, tb))
        assert_same(t, a)
        return
    got = _imatmul(t, tb)
    assert got is t, "a @= b did not keep a"
    assert_product(t, n, *error_scale(np.matmul, (a, b), {}))


def test_matmul_inplace_aliasing_and_views(device):
    """a @= a reads all of a before writing it; a view @= b writes through to its base."""
    for dtype in (np.float64, np.int32, np.complex64):
        a = data((4, 4), dtype, 1)
        n, t = a.copy(), tp.array(a)
        n @= n
        t @= t
        assert_product(t, n, *error_scale(np.matmul, (a, a), {}))

        base, b = data((6, 6), dtype, 2), data((3, 3), dtype, 3)
        nbase, tbase = base.copy(), tp.array(base)
        nview, tview = nbase[::2, ::-2], tbase[::2, ::-2]
        nview @= b
        tview @= tp.asarray(b)
        assert_product(tbase, nbase, *error_scale(np.matmul, (base[::2, ::-2], b), {}))


# --------------------------------------------------------------------------------------------
# dot, vdot, inner, outer


DOT_SHAPES = [
    ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)), ((2, 3), (3, 4)), ((2, 3, 4), (5, 4, 6)),
    ((2, 3, 4), (4,)), ((4,), (2, 4, 3)), ((), (2, 3)), ((2, 3), ()), ((), ()),
    ((0, 3), (3, 2)), ((3, 0), (0, 2)), ((0,), (0,)), ((33, 65), (65, 17)),
    ((2, 3), (2, 3)), ((3,), (4,)), ((2, 3, 4), (5, 3, 6)),
]
DOT_DTYPES = [np.float64, np.float32, np.float16, np.int8, np.uint16, np.bool_, np.complex128]


@pytest.mark.parametrize("shapes", DOT_SHAPES, ids=compact_id)
def test_dot(device, shapes):
    """dot: sum over the last axis of a and the second-to-last of b (N-d), multiply with a
    0-d operand; mismatched axes raise ValueError."""
    shape_a, shape_b = shapes
    for dtype in DOT_DTYPES:
        a, b = data(shape_a, dtype, 1), data(shape_b, dtype, 2)
        check(np.dot, tp.dot, a, b)
    check(np.dot, tp.dot, data(shape_a, np.int8, 1), data(shape_b, np.uint8, 2))
    check(np.dot, tp.dot, data(shape_a, np.float32, 1), data(shape_b, np.complex128, 2))


def test_dot_layouts_and_out(device):
    """Views multiply as contiguous arrays; out must be C-contiguous of the exact result dtype
    and shape (ValueError otherwise), and is returned."""
    for dtype in (np.float64, np.int32, np.complex64):
        ta, a = pair((5, 3), dtype, 1, T)
        tb, b = pair((5, 8), dtype, 2, lambda x, m: x[::-1, ::2])
        check(np.dot, tp.dot, a, b, targs=(ta, tb))
        tv, v = pair((9,), dtype, 3, lambda x, m: x[::-3])
        check(np.dot, tp.dot, a, v, targs=(ta, tv))
    a, b = data((2, 3), np.float64, 1), data((3, 4), np.float64, 2)
    nout, tout = np.zeros((2, 4)), tp.zeros((2, 4))
    got = check(np.dot, tp.dot, a, b, out=nout, tkwargs={"out": tout})
    assert got is tout
    bad_outs = [(np.zeros((2, 4), np.float32), tp.zeros((2, 4), np.float32)),
                (np.zeros((2, 8))[:, ::2], tp.zeros((2, 8))[:, ::2]),
                (np.zeros((4, 2)), tp.zeros((4, 2))),
                (np.zeros((2, 4, 1)), tp.zeros((2, 4, 1)))]
    for nout, tout in bad_outs:
        check(np.dot, tp.dot, a, b, out=nout, tkwargs={"out": tout})


VDOT_SHAPES = [((3,), (3,)), ((2, 3), (3, 2)), ((2, 3), (6,)), ((0,), (0,)), ((), ()),
               ((2, 2, 2), (8,)), ((2, 3), (4, 2)), ((3,), (4,))]


@pytest.mark.parametrize("shapes", VDOT_SHAPES, ids=compact_id)
def test_vdot(device, shapes):
    """vdot: both operands flattened (C order), the first conjugated; sizes must agree."""
    shape_a, shape_b = shapes
    for dtype in DOT_DTYPES + [np.complex64, np.int64]:
        check(np.vdot, tp.vdot, data(shape_a, dtype, 1), data(shape_b, dtype, 2))
    check(np.vdot, tp.vdot, data(shape_a, np.complex64, 1), data(shape_b, np.float64, 2))
    check(np.vdot, tp.vdot, data(shape_a, np.uint64, 1), data(shape_b, np.int64, 2))


def test_vdot_views(device):
    """A transposed or reversed operand flattens in its own C order, not its memory order."""
    for dtype in (np.complex128, np.float32, np.int16):
        ta, a = pair((3, 4), dtype, 1, T)
        tb, b = pair((4, 3), dtype, 2, lambda x, m: x[::-1])
        check(np.vdot, tp.vdot, a, b, targs=(ta, tb))
        check(np.vdot, tp.vdot, b, a, targs=(tb, ta))


INNER_SHAPES = [((3,), (3,)), ((2, 3), (4, 3)), ((2, 3, 4), (5, 4)), ((4,), (2, 3, 4)),
                ((), (2, 3)), ((), ()), ((0,), (0,)), ((2, 0), (3, 0)), ((2, 3), (3, 2))]


@pytest.mark.parametrize("shapes", INNER_SHAPES, ids=compact_id)
def test_inner(device, shapes):
    """inner: sum over the last axes (complex not conjugated); mismatch raises ValueError."""
    shape_a, shape_b = shapes
    for dtype in DOT_DTYPES:
        check(np.inner, tp.inner, data(shape_a, dtype, 1), data(shape_b, dtype, 2))
    check(np.inner, tp.inner, data(shape_a, np.bool_, 1), data(shape_b, np.int8, 2))


OUTER_SHAPES = [((3,), (4,)), ((2, 3), (4,)), ((), (3,)), ((0,), (3,)), ((2, 2), (3, 1))]


@pytest.mark.parametrize("shapes", OUTER_SHAPES, ids=compact_id)
def test_outer(device, shapes):
    """outer flattens both operands."""
    shape_a, shape_b = shapes
    for dtype in DOT_DTYPES:
        check(np.outer, tp.outer, data(shape_a, dtype, 1), data(shape_b, dtype, 2))
    check(np.outer, tp.outer, data(shape_a, np.bool_, 1), data(shape_b, np.int8, 2))
    check(np.outer, tp.outer, data(shape_a, np.uint8, 1), data(shape_b, np.float16, 2))


def test_outer_out(device):
    a, b = data((2,), np.float64, 1), data((3,), np.float64, 2)
    for dtype in (np.float64, np.float32):
        nout, tout = np.zeros((2, 3), dtype), tp.zeros((2, 3), dtype)
        got = check(np.outer, tp.outer, a, b, out=nout, tkwargs={"out": tout})
        assert got is tout


# --------------------------------------------------------------------------------------------
# tensordot


TENSORDOT = [
    ((2, 3, 4), (3, 4, 5), 2),
    ((2, 3), (3, 4), 1),
    ((2, 3), (4,), 0),
    ((3, 4), (3, 4), 2),
    ((2, 3, 4), (4, 3, 5), ([1, 2], [1, 0])),
    ((2, 3, 4), (4, 3, 5), ((1, 2), (1, 0))),
    ((2, 3, 4), (4, 3, 5), ([-1], [0])),
    ((2, 3, 4), (4, 3, 5), ([-2, -1], [1, -3])),
    ((2, 3, 4), (4, 3, 5), (2, 0)),
    ((2, 3, 4), (3, 2, 5), ([0, 1], [1, 0])),
    ((2, 0, 3), (0, 3, 4), 2),
    ((2, 3, 4), (4, 3, 5), ([0], [0])),
    ((2, 3, 4), (4, 3, 5), ([0, 1], [0])),
    ((2, 3), (3, 2), 2),
    ((2, 3, 4), (4, 3, 5), ([3], [0])),
    ((2, 3), (3, 2), 3),
]


@pytest.mark.parametrize("case", TENSORDOT, ids=compact_id)
def test_tensordot(device, case):
    """axes as an int (the last n of a with the first n of b), a pair of sequences or of ints,
    negative axes; mismatched lengths raise ValueError, axes out of range IndexError (NumPy's;
    AxisError, an IndexError too, will do)."""
    shape_a, shape_b, axes = case
    for dtype in (np.float64, np.float32, np.int16, np.complex128):
        a, b = data(shape_a, dtype, 1), data(shape_b, dtype, 2)
        check(lambda x, y: np.tensordot(x, y, axes), lambda x, y: tp.tensordot(x, y, axes), a, b,
              subclass=True)
        check(lambda x, y: np.tensordot(x, y, axes=axes),
              lambda x, y: tp.tensordot(x, y, axes=axes), a, b, subclass=True)
    ta, a = pair(shape_a[::-1], np.float64, 1, T)
    tb, b = pair(shape_b, np.float64, 2, lambda x, m: x[::-1])
    check(lambda x, y: np.tensordot(x, y, axes), lambda x, y: tp.tensordot(x, y, axes), a, b,
          targs=(ta, tb), subclass=True)


# --------------------------------------------------------------------------------------------
# einsum and einsum_path


EINSUM = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ij,jk", [(3, 4), (4, 5)]),
    ("ii->i", [(4, 4)]),
    ("ii", [(4, 4)]),
    ("ij->", [(3, 4)]),
    ("ij->j", [(3, 4)]),
    ("ij->ji", [(3, 4)]),
    ("ij", [(3, 4)]),
    ("ba", [(3, 4)]),
    ("i,j->ij", [(3,), (4,)]),
    ("i,j", [(3,), (4,)]),
    ("i,i", [(5,), (5,)]),
    ("i,i->i", [(5,), (5,)]),
    ("ij,ij->ij", [(3, 4), (3, 4)]),
    ("ij,ij->", [(3, 4), (3, 4)]),
    ("ij,ji->", [(3, 4), (4, 3)]),
    ("ij,j->i", [(3, 4), (4,)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 6)]),
    ("...ij,...jk", [(2, 1, 3, 4), (5, 4, 6)]),
    ("i...->...", [(2, 3, 4)]),
    ("...ii->...i", [(2, 3, 3)]),
    ("ij...,jk...->ik...", [(3, 4, 2), (4, 5, 2)]),
    ("iij->ij", [(3, 3, 4)]),
    ("iji->j", [(3, 4, 3)]),
    ("iii->i", [(3, 3, 3)]),
    ("ijk,kl,lm->ijm", [(2, 3, 4), (4, 5), (5, 2)]),
    ("i,i,i->", [(5,), (5,), (5,)]),
    ("ij,jk,kl,lm->im", [(2, 3), (3, 4), (4, 5), (5, 2)]),
    ("ij,ij->ij", [(1, 4), (3, 4)]),
    (",i->i", [(), (4,)]),
    ("i,->i", [(4,), ()]),
    ("->", [()]),
    ("ij,jk->ik", [(3, 0), (0, 4)]),
    ("ij->", [(0, 3)]),
    ("ij->i", [(0, 3)]),
    ("ij,jk->ik", [(40, 33), (33, 20)]),
    # errors
    ("ij,jk->ik", [(3, 4), (5, 6)]),
    ("ij,jk", [(3, 4)]),
    ("ij", [(3, 4), (4, 5)]),
    ("ij->k", [(3, 4)]),
    ("ij->ii", [(3, 4)]),
    ("ijk", [(3, 4)]),
    ("i", [(3, 4)]),
    ("ii", [(3, 4)]),
    ("i1", [(3, 4)]),
    ("ij,ij->ij", [(2, 4), (3, 4)]),
]


@pytest.mark.parametrize("case", EINSUM, ids=lambda c: compact_id(f"{c[0]}-{c[1]}"))
def test_einsum(device, case):
    """Explicit and implicit output (alphabetical order), '...' ellipsis, repeated indices
    (diagonal, trace), sums, outer products, 0-d and empty operands, 3+ operands; malformed
    subscripts or mismatched dimensions raise ValueError."""
    subscripts, shapes = case
    for dtype in (np.float64, np.float32, np.int16, np.complex128):
        ops = [data(s, dtype, i + 1) for i, s in enumerate(shapes)]
        check(lambda *xs: np.einsum(subscripts, *xs), lambda *xs: tp.einsum(subscripts, *xs),
              *ops)


EINSUM_DTYPE_CASES = [("ij,jk->ik", [(3, 4), (4, 5)]), ("ii", [(4, 4)]), ("ij->", [(3, 4)]),
                      ("i,j->ij", [(3,), (4,)]), ("ijk,kl,lm->ijm", [(2, 3, 4), (4, 5), (5, 2)])]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_einsum_dtypes(device, dtype):
    """Every dtype (bool sums are ors, int8 sums wrap), and mixed pairs promote as NumPy's."""
    for subscripts, shapes in EINSUM_DTYPE_CASES:
        ops = [data(s, dtype, i + 1) for i, s in enumerate(shapes)]
        check(lambda *xs: np.einsum(subscripts, *xs), lambda *xs: tp.einsum(subscripts, *xs),
              *ops)
    other = {"b": np.int8, "i": np.uint8, "u": np.int16, "f": np.int32, "c": np.float64}
    a, b = data((3, 4), dtype, 1), data((4, 2), other[np.dtype(dtype).kind], 2)
    check(lambda x, y: np.einsum("ij,jk", x, y), lambda x, y: tp.einsum("ij,jk", x, y), a, b)
    check(lambda x, y: np.einsum("ij,jk", x, y), lambda x, y: tp.einsum("ij,jk", x, y),
          b.T, a.T)


def test_einsum_wraps(device):
    """Integer sums wrap in the operand dtype, as NumPy's (no widening)."""
    for subscripts, ops in [("i->", [np.full(300, 1, np.int8)]),
                            ("ij->i", [np.full((3, 300), 7, np.int8)]),
                            ("i,i", [np.full(5, 100, np.int8), np.full(5, 100, np.int8)]),
                            ("ij,jk", [np.full((2, 3), 250, np.uint8),
                                       np.full((3, 2), 250, np.uint8)])]:
        check(lambda *xs: np.einsum(subscripts, *xs), lambda *xs: tp.einsum(subscripts, *xs),
              *ops)


EINSUM_OPTIMIZE = [
    ("ij,jk,kl->il", [(2, 3), (3, 40), (40, 5)]),
    ("ea,fb,abcd,gc,hd->efgh", [(3, 4), (2, 5), (4, 5, 3, 2), (4, 3), (3, 2)]),
    ("ij,jk,kl,lm->im", [(6, 3), (3, 7), (7, 5), (5, 4)]),
    ("...ij,...jk,...kl", [(2, 3, 4), (4, 5), (2, 5, 6)]),
    ("i,i,i->", [(5,), (5,), (5,)]),
    ("ijk,jl,kl->il", [(2, 3, 4), (3, 5), (4, 5)]),
    ("ii,ij->j", [(4, 4), (4, 3)]),
    ("ij,jk->ik", [(3, 4), (4, 5)]),
]


@pytest.mark.parametrize("optimize", [False, True, "greedy", "optimal", "path"],
                         ids=["False", "True", "greedy", "optimal", "explicit_path"])
def test_einsum_optimize(device, optimize):
    """Every optimize= gives NumPy's result (an explicit path: NumPy's own greedy path)."""
    for subscripts, shapes in EINSUM_OPTIMIZE:
        for dtype in (np.float64, np.int32, np.complex64):
            ops = [data(s, dtype, i + 1) for i, s in enumerate(shapes)]
            opt = optimize
            if optimize == "path":
                opt = np.einsum_path(subscripts, *ops, optimize="greedy")[0]
            check(lambda *xs: np.einsum(subscripts, *xs, optimize=opt),
                  lambda *xs: tp.einsum(subscripts, *xs, optimize=opt), *ops)


EINSUM_KEYWORDS = [
    # (subscripts, operand dtype, keywords; "out": (shape, dtype))
    ("ij,jk", "int8", {"dtype": "int32"}),
    ("ij,jk", "float32", {"dtype": "float64"}),
    ("ij,jk", "float64", {"dtype": "float32"}),
    ("ij,jk", "float64", {"dtype": "float32", "casting": "unsafe"}),
    ("ij,jk", "f8int", {"dtype": "int64", "casting": "unsafe"}),
    ("ij->", "bool", {"dtype": "int64"}),
    ("ij->i", "int16", {"dtype": "float64"}),
    ("ij,jk", "float64", {"dtype": "complex128"}),
    ("ij,jk", "float64", {"out": ((3, 5), "float64")}),
    ("ij,jk", "float32", {"out": ((3, 5), "float64")}),
    ("ij,jk", "float64", {"out": ((3, 5), "float32")}),
    ("ij,jk", "float64", {"out": ((3, 5), "float32"), "casting": "same_kind"}),
    ("ij,jk", "float64", {"out": ((3, 4), "float64")}),
    ("ij,jk", "int16", {"out": ((3, 5), "int16"), "dtype": "int16"}),
    ("ij->", "float64", {"out": ((), "float64")}),
    ("ij,jk,kl->il", "float64", {"out": ((3, 2), "float64"), "optimize": True}),
    ("ij,jk,kl->il", "float32", {"dtype": "float64", "optimize": "greedy"}),
]


@pytest.mark.parametrize("case", EINSUM_KEYWORDS, ids=compact_id)
def test_einsum_keywords(device, case):
    """dtype= and out= under einsum's default casting='safe' (a narrowing dtype or out raises
    TypeError), casting=, and out of the wrong shape (ValueError); out is returned."""
    subscripts, kind, kwargs = case
    shapes = {"ij,jk": ((3, 4), (4, 5)), "ij,jk,kl->il": ((3, 4), (4, 5), (5, 2))}.get(
        subscripts, ((3, 4),))
    ops = operands(kind, shapes)
    kwargs = dict(kwargs)
    tkwargs = {}
    if "out" in kwargs:
        shape, dtype = kwargs["out"]
        kwargs["out"], tkwargs["out"] = np.zeros(shape, dtype), tp.zeros(shape, np.dtype(dtype))
    got = check(lambda *xs, **kw: np.einsum(subscripts, *xs, **kw),
                lambda *xs, **kw: tp.einsum(subscripts, *xs, **kw), *ops, tkwargs=tkwargs,
                **kwargs)
    if got is not None and "out" in tkwargs:
        assert got is tkwargs["out"], "einsum(out=) did not return out"


def test_einsum_operand_forms(device):
    """The sublist form (with and without output), Python lists and numbers as operands, and
    non-contiguous, reversed, broadcast and Fortran-ordered operands."""
    a, b = data((2, 3), np.float64, 1), data((3, 4), np.float64, 2)
    check(lambda x, y: np.einsum(x, [0, 1], y, [1, 2], [0, 2]),
          lambda x, y: tp.einsum(x, [0, 1], y, [1, 2], [0, 2]), a, b)
    check(lambda x, y: np.einsum(x, [0, 1], y, [1, 2]),
          lambda x, y: tp.einsum(x, [0, 1], y, [1, 2]), a, b)
    check(lambda x: np.einsum(x, [1, 0]), lambda x: tp.einsum(x, [1, 0]), a)
    # a list operand: converted on the CPU, refused on CUDA (the sublists above are subscripts)
    x = np.array([5, 6], np.int32)
    if not host_data_refused(lambda: tp.einsum("ij,j", [[1, 2], [3, 4]], tp.asarray(x))):
        check(lambda x: np.einsum("ij,j", [[1, 2], [3, 4]], x),
              lambda x: tp.einsum("ij,j", [[1, 2], [3, 4]], x), x)
    check(lambda x: np.einsum("ij,j", [[1, 2], [3, 4]], x),
          lambda x: tp.einsum("ij,j", tp.asarray([[1, 2], [3, 4]]), x), x)
    check(lambda x: np.einsum(",ij", 2.5, x), lambda x: tp.einsum(",ij", 2.5, x), a)
    views = [
        ((4, 3), T, (4, 5), lambda x, m: x[::-1]),
        ((6, 8), lambda x, m: x[::2, ::-2], (4, 5), lambda x, m: m.asfortranarray(x)),
        ((1, 3), lambda x, m: m.broadcast_to(x, (4, 3)), (3, 3), lambda x, m: x.T[::-1]),
    ]
    for dtype in (np.float64, np.int32, np.complex64):
        for shape_a, view_a, shape_b, view_b in views:
            ta, na = pair(shape_a, dtype, 1, view_a)
            tb, nb = pair(shape_b, dtype, 2, view_b)
            for subscripts in ("ij,jk->ik", "ij,jk->ki", "ij,jk"):
                check(lambda x, y: np.einsum(subscripts, x, y),
                      lambda x, y: tp.einsum(subscripts, x, y), na, nb, targs=(ta, tb))
            check(lambda x: np.einsum("ij->j", x), lambda x: tp.einsum("ij->j", x), na,
                  targs=(ta,))
        tsq, nsq = pair((5, 5), dtype, 3, lambda x, m: x.T[::-1, ::-1])
        for subscripts in ("ii", "ii->i", "ij->ji"):
            check(lambda x: np.einsum(subscripts, x), lambda x: tp.einsum(subscripts, x), nsq,
                  targs=(tsq,))


EINSUM_PATH = [
    ("ij,jk,kl->il", [(2, 3), (3, 40), (40, 5)]),
    ("ea,fb,abcd,gc,hd->efgh", [(10, 10), (10, 10), (10, 10, 10, 10), (10, 10), (10, 10)]),
    ("ij,jk,kl,lm->im", [(20, 3), (3, 40), (40, 5), (5, 30)]),
    ("...ij,...jk,...kl", [(2, 3, 4), (4, 5), (2, 5, 6)]),
    ("i,i,i->", [(5,), (5,), (5,)]),
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ii->i", [(3, 3)]),
    ("ijk,jl,kl->il", [(8, 30, 4), (30, 50), (4, 50)]),
]


@pytest.mark.parametrize("optimize", ["default", "greedy", "optimal", True, False, "explicit",
                                      ("greedy", 10), ("optimal", 10)], ids=compact_id)
def test_einsum_path(device, optimize):
    """The contraction list (the path) is NumPy's for the same shapes; the report is a
    string (its text is not compared)."""
    for subscripts, shapes in EINSUM_PATH:
        ops = [data(s, np.float64, i + 1) for i, s in enumerate(shapes)]
        kwargs = {} if optimize == "default" else {"optimize": optimize}
        if optimize == "explicit":
            if len(ops) < 2:
                continue
            kwargs["optimize"] = ["einsum_path"] + [(0, 1)] * (len(ops) - 1)
        expected, error = numpy_result(lambda: np.einsum_path(subscripts, *ops, **kwargs))
        tops = [tp.asarray(x) for x in ops]
        if error is not None:
            assert_raises_type(public_type(error), lambda: tp.einsum_path(subscripts, *tops,
                                                                          **kwargs))
            continue
        got = tp.einsum_path(subscripts, *tops, **kwargs)
        assert list(got[0]) == list(expected[0]), \
            f"{subscripts} {shapes} optimize={optimize!r}: path {got[0]} != {expected[0]}"
        assert isinstance(got[1], str)


def test_einsum_path_errors(device):
    """Unknown optimize names (KeyError), mismatched labels, unknown output labels and a wrong
    operand count (ValueError)."""
    a, b, c = data((2, 3), np.float64, 1), data((3, 4), np.float64, 2), data((4, 5), np.float64)
    for subscripts, ops, kwargs in [("ij,jk,kl", (a, b, c), {"optimize": "bogus"}),
                                    ("ij,jk", (a, a), {}),
                                    ("ij,jk->m", (a, b), {}),
                                    ("ij,jk", (a,), {})]:
        expected, error = numpy_result(lambda: np.einsum_path(subscripts, *ops, **kwargs))
        assert error is not None
        assert_raises_type(public_type(error), lambda: tp.einsum_path(
            subscripts, *[tp.asarray(x) for x in ops], **kwargs))


# --------------------------------------------------------------------------------------------
# kron


KRON_SHAPES = [((2, 3), (4,)), ((2, 1, 3), (2, 2)), ((3,), (2,)), ((), (2, 2)), ((2, 2), ()),
               ((0, 2), (3,)), ((2, 3), (2, 3)), ((2,), (3, 1, 2))]


@pytest.mark.parametrize("shapes", KRON_SHAPES, ids=compact_id)
def test_kron(device, shapes):
    shape_a, shape_b = shapes
    for dtype in DOT_DTYPES:
        check(np.kron, tp.kron, data(shape_a, dtype, 1), data(shape_b, dtype, 2))
    check(np.kron, tp.kron, data(shape_a, np.bool_, 1), data(shape_b, np.float32, 2))
    ta, a = pair((3, 2), np.int16, 1, T)
    check(np.kron, tp.kron, a, data(shape_b, np.int16, 2),
          targs=(ta, tp.asarray(data(shape_b, np.int16, 2))))


# --------------------------------------------------------------------------------------------
# linalg.matrix_power, linalg.multi_dot


def invertible(shape, dtype, seed=0):
    """Well-conditioned matrices (diagonally dominant) of `shape`."""
    m = shape[-1]
    x = data(shape, dtype, seed) / 10 + 2 * m * np.eye(m)
    return x.astype(dtype)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, -1, -2, -3])
def test_matrix_power_float(device, n):
    """Positive, zero (identity of the dtype) and negative (inverse) powers of float and complex
    matrices and stacks of them; n as a NumPy integer too."""
    for dtype in (np.float64, np.float32, np.complex128, np.complex64):
        for shape in ((4, 4), (2, 3, 3), (1, 1)):
            a = invertible(shape, dtype, 1)
            if n < 0:
                expected = np.linalg.matrix_power(a, n)
                scale = (magnitude(expected), 8 * shape[-1] * -n)
            else:
                scale = None
            check(lambda x: np.linalg.matrix_power(x, n),
                  lambda x: linalg("matrix_power")(x, n), a, scale=scale)
            check(lambda x: np.linalg.matrix_power(x, np.int64(n)),
                  lambda x: linalg("matrix_power")(x, np.int64(n)), a, scale=scale)


MATRIX_POWER = [
    # (matrix, n): integer and bool powers are exact; integer inverses are float64
    (np.full((2, 2), 5, np.int8), 5),
    (data((3, 3), np.int8, 1), 4),
    (data((3, 3), np.uint16, 1), 3),
    (data((4, 4), np.int64, 1), 6),
    (data((3, 3), np.int32, 1), 0),
    (data((3, 3), np.int32, 1), 1),
    (np.array([[2, 1], [1, 1]], np.int64), -1),
    (np.array([[2, 1], [1, 1]], np.int32), -3),
    (np.array([[True, False], [True, True]]), 3),
    (np.array([[True, False], [True, True]]), 0),
    (np.array([[False, True], [True, False]]), 2),
    (data((3, 3), np.float16, 1) / 8, 2),
    (data((3, 3), np.float16, 1), 0),
    (np.zeros((0, 0)), 3),
    (np.zeros((0, 0)), -1),
    (np.zeros((2, 0, 0), np.int32), 2),
    # errors
    (np.ones((2, 2), np.float16), -1),
    (np.ones((2, 2)), 2.0),
    (np.ones((2, 3)), 2),
    (np.ones(3), 2),
    (np.ones(()), 2),
    (np.ones((2, 2)), -1),
    (np.ones((2, 2), np.int8), -1),
]


@pytest.mark.parametrize("case", MATRIX_POWER,
                         ids=lambda c: compact_id(f"{c[0].dtype}{c[0].shape}**{c[1]!r}"))
def test_matrix_power(device, case):
    """Integer, bool and float16 powers, empty matrices; LinAlgError for non-square or
    singular input, TypeError for float16 inverses and non-integer exponents."""
    a, n = case
    scale = None
    if isinstance(n, int) and n < 0 and a.size:
        expected, error = numpy_result(lambda: np.linalg.matrix_power(a, n))
        if error is None:
            scale = (magnitude(expected), 16)
    check(lambda x: np.linalg.matrix_power(x, n), lambda x: linalg("matrix_power")(x, n), a,
          scale=scale)


MULTI_DOT = [
    [(2, 3), (3, 4)],
    [(2, 3), (3, 4), (4, 5)],
    [(10, 2), (2, 30), (30, 3), (3, 7)],
    [(4, 6), (6, 2), (2, 8), (8, 3), (3, 5)],
    [(3,), (3, 4), (4, 5)],
    [(2, 3), (3, 4), (4,)],
    [(3,), (3, 4), (4,)],
    [(3,), (3, 4), (4, 5), (5,)],
    [(3,), (3,)],
    [(0, 3), (3, 4), (4, 2)],
    [(2, 0), (0, 4), (4, 2)],
    # errors
    [(2, 3)],
    [(2, 3), (4, 4), (4, 2)],
    [(2, 3), (3,), (3, 2)],
    [(3, 3, 3), (3, 4), (4, 2)],
]


@pytest.mark.parametrize("shapes", MULTI_DOT, ids=compact_id)
def test_multi_dot(device, shapes):
    """2, 3 and 4+ arrays, the first and/or last 1-d; fewer than two arrays or a mismatch raise
    ValueError, a 1-d or 3-d array inside a chain of 3+ LinAlgError."""
    for dtype in (np.float64, np.float32, np.int64, np.complex128):
        arrays = [data(s, dtype, i + 1) for i, s in enumerate(shapes)]
        check(np.linalg.multi_dot, linalg("multi_dot"), arrays)
    arrays = [data(s, (np.int8, np.float32, np.bool_, np.uint16)[i % 4], i + 1)
              for i, s in enumerate(shapes)]
    check(np.linalg.multi_dot, linalg("multi_dot"), arrays)


def test_multi_dot_out(device):
    arrays = [data(s, np.float64, i + 1) for i, s in enumerate([(2, 3), (3, 4), (4, 2)])]
    nout, tout = np.zeros((2, 2)), tp.zeros((2, 2))
    got = check(np.linalg.multi_dot, linalg("multi_dot"), arrays, out=nout,
                tkwargs={"out": tout})
    assert got is tout
    ta, a = pair((3, 2), np.float64, 4, T)
    check(np.linalg.multi_dot, linalg("multi_dot"), [a, arrays[1], arrays[2]],
          targs=([ta, tp.asarray(arrays[1]), tp.asarray(arrays[2])],))


# --------------------------------------------------------------------------------------------
# trace


TRACE = [
    ((3, 4), {}),
    ((4, 3), {"offset": 1}),
    ((4, 3), {"offset": -2}),
    ((3, 4), {"offset": 5}),
    ((3, 4), {"offset": -4}),
    ((2, 3, 4), {"axis1": 1, "axis2": 2}),
    ((2, 3, 4), {"offset": 1, "axis1": 0, "axis2": 2}),
    ((2, 3, 4), {"axis1": -1, "axis2": 0}),
    ((2, 3, 4), {}),
    ((3, 3), {"dtype": "int8"}),
    ((3, 3), {"dtype": "float32"}),
    ((3, 3), {"dtype": "complex128"}),
    ((0, 0), {}),
    ((2, 0, 3), {}),
    ((3,), {}),
    ((2, 3, 4), {"axis1": 1, "axis2": 1}),
    ((2, 3, 4), {"axis1": 3}),
]


@pytest.mark.parametrize("case", TRACE, ids=compact_id)
def test_trace(device, case):
    """The sum of a diagonal (sum's dtype: small integers and bool widen to int64, unsigned to
    uint64), offset, axis1/axis2 and dtype=; 1-d input and equal axes raise ValueError."""
    shape, kwargs = case
    for dtype in (np.bool_, np.int8, np.uint8, np.int64, np.float16, np.float32, np.complex128):
        check(np.trace, tp.trace, data(shape, dtype, 1), **kwargs)
        if len(shape) >= 2:
            t, n = pair(shape[::-1], dtype, 1, T)
            check(np.trace, tp.trace, n, targs=(t,), **kwargs)


def test_trace_out(device):
    a = data((2, 3, 3), np.float64, 1)
    for dtype in (np.float64, np.float32):
        nout, tout = np.zeros(2, dtype), tp.zeros(2, dtype)
        got = check(np.trace, tp.trace, a, axis1=1, axis2=2, out=nout, tkwargs={"out": tout})
        assert got is tout


# --------------------------------------------------------------------------------------------
# vecdot, matrix_transpose


VECDOT_SHAPES = [((4,), (4,), {}), ((2, 1, 4), (3, 4), {}), ((3, 4), (3, 4), {"axis": 0}),
                 ((2, 3, 4), (3, 4), {"axis": -2}), ((0, 4), (4,), {}), ((2, 0), (2, 0), {})]


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=dtype_id)
def test_vecdot(device, dtype):
    """vecdot and linalg.vecdot: the sum over axis of conj(x1) * x2, broadcasting the other
    dimensions."""
    for shape_a, shape_b, kwargs in VECDOT_SHAPES:
        a, b = data(shape_a, dtype, 1), data(shape_b, dtype, 2)
        check(np.vecdot, tp.vecdot, a, b, **kwargs)
        check(np.linalg.vecdot, linalg("vecdot"), a, b, **kwargs)
    t, n = pair((4, 3), dtype, 3, T)
    check(np.vecdot, tp.vecdot, n, n[::-1], targs=(t, t[::-1]))


def test_vecdot_conjugates_first(device):
    a = np.array([1 + 2j, 3j, -1 - 1j])
    b = np.array([1j, 2, 0.5 + 0.5j])
    for np_fn, tp_fn in ((np.vecdot, tp.vecdot), (np.linalg.vecdot, linalg("vecdot"))):
        for x, y in ((a, b), (b, a), (a, a), (a.astype(np.complex64), b.real)):
            check(np_fn, tp_fn, x, y)


VECDOT_OTHER = [
    ((2, 4), np.float64, (2, 3), np.float64, {}),
    ((2, 4), np.float64, (), np.float64, {}),
    ((3, 4), np.float64, (3, 4), np.float64, {"axis": 2}),
    ((3, 4), np.int8, (4,), np.uint8, {}),
    ((3, 4), np.float16, (4,), np.int16, {}),
    ((3, 4), np.int64, (4,), np.uint64, {}),
]


@pytest.mark.parametrize("case", VECDOT_OTHER, ids=lambda c: compact_id(
    f"{c[0]}{dtype_id(c[1])}-{c[2]}{dtype_id(c[3])}-{c[4]}"))
def test_vecdot_promotion_and_errors(device, case):
    shape_a, dtype_a, shape_b, dtype_b, kwargs = case
    a, b = data(shape_a, dtype_a, 1), data(shape_b, dtype_b, 2)
    check(np.vecdot, tp.vecdot, a, b, **kwargs)
    check(np.linalg.vecdot, linalg("vecdot"), a, b, **kwargs)


def test_vecdot_ufunc_keywords(device):
    """tp.vecdot is a ufunc as NumPy's: out= (returned) and dtype=."""
    a, b = data((2, 3), np.float64, 1), data((3,), np.float64, 2)
    nout, tout = np.zeros(2, np.float32), tp.zeros(2, np.float32)
    got = check(np.vecdot, tp.vecdot, a, b, out=nout, tkwargs={"out": tout})
    assert got is tout
    check(np.vecdot, tp.vecdot, data((2, 3), np.int8, 1), data((3,), np.int8, 2),
          dtype=np.float32)
    check(np.vecdot, tp.vecdot, a, b, dtype=np.int64)


@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 4), (0, 3), (1, 2, 0, 5), (3,), ()],
                         ids=compact_id)
def test_matrix_transpose(device, shape):
    """The last two axes swapped (1-d and 0-d raise ValueError), on contiguous and transposed
    input."""
    for dtype in (np.float64, np.int8, np.complex64, np.bool_):
        a = data(shape, dtype, 1)
        check(np.matrix_transpose, tp.matrix_transpose, a, exact=True)
        check(np.linalg.matrix_transpose, linalg("matrix_transpose"), a, exact=True)
        if len(shape) >= 2:
            t, n = pair(shape[::-1], dtype, 1, T)
            check(np.matrix_transpose, tp.matrix_transpose, n, targs=(t,), exact=True)


# --------------------------------------------------------------------------------------------
# the rest of numpy.linalg's array-API functions


LINALG_MATMUL = [((3, 4), (4, 5)), ((4,), (4,)), ((2, 1, 3, 4), (5, 4, 6)), ((3, 4), (4,)),
                 ((3, 4), ()), ((3, 4), (3, 4))]


@pytest.mark.parametrize("shapes", LINALG_MATMUL, ids=compact_id)
def test_linalg_matmul(device, shapes):
    shape_a, shape_b = shapes
    for dtype in (np.float64, np.int16, np.complex64, np.bool_):
        check(np.linalg.matmul, linalg("matmul"), data(shape_a, dtype, 1),
              data(shape_b, dtype, 2))
    check(np.linalg.matmul, linalg("matmul"), data(shape_a, np.int8, 1),
          data(shape_b, np.float32, 2))


LINALG_OUTER = [((3,), np.float64, (4,), np.float64), ((3,), np.int8, (2,), np.float16),
                ((3,), np.bool_, (2,), np.bool_), ((0,), np.complex64, (3,), np.float32),
                ((2, 3), np.float64, (3,), np.float64), ((), np.float64, (3,), np.float64)]


@pytest.mark.parametrize("case", LINALG_OUTER, ids=lambda c: compact_id(
    f"{c[0]}{dtype_id(c[1])}-{c[2]}{dtype_id(c[3])}"))
def test_linalg_outer(device, case):
    """linalg.outer takes 1-d arrays only (ValueError otherwise)."""
    shape_a, dtype_a, shape_b, dtype_b = case
    check(np.linalg.outer, linalg("outer"), data(shape_a, dtype_a, 1), data(shape_b, dtype_b, 2))


LINALG_TENSORDOT = [((2, 3, 4), (3, 4, 5), {}), ((2, 3), (3, 4), {"axes": 1}),
                    ((2, 3, 4), (4, 3, 5), {"axes": ([1, 2], [1, 0])}),
                    ((2, 3), (4,), {"axes": 0}), ((2, 3), (3, 2), {})]


@pytest.mark.parametrize("case", LINALG_TENSORDOT, ids=compact_id)
def test_linalg_tensordot(device, case):
    """linalg.tensordot: axes keyword-only, default 2."""
    shape_a, shape_b, kwargs = case
    for dtype in (np.float64, np.int32, np.complex128):
        check(np.linalg.tensordot, linalg("tensordot"), data(shape_a, dtype, 1),
              data(shape_b, dtype, 2), **kwargs)


LINALG_CROSS = [
    ((3,), np.float64, (3,), np.float64, {}),
    ((2, 3), np.float64, (3,), np.float64, {}),
    ((4, 1, 3), np.float32, (2, 3), np.float32, {}),
    ((3, 2), np.float64, (3, 2), np.float64, {"axis": 0}),
    ((2, 3, 4), np.complex128, (3, 4), np.complex128, {"axis": -2}),
    ((5, 3), np.int8, (5, 3), np.uint8, {}),
    ((5, 3), np.int8, (5, 3), np.int8, {}),
    ((5, 3), np.int64, (3,), np.float16, {}),
    ((0, 3), np.float64, (3,), np.float64, {}),
    # errors
    ((2,), np.float64, (2,), np.float64, {}),
    ((3, 2), np.float64, (3, 2), np.float64, {}),
    ((3,), np.bool_, (3,), np.bool_, {}),
    ((2, 3), np.float64, (4, 3), np.float64, {}),
]


@pytest.mark.parametrize("case", LINALG_CROSS, ids=lambda c: compact_id(
    f"{c[0]}{dtype_id(c[1])}-{c[2]}{dtype_id(c[3])}-{c[4]}"))
def test_linalg_cross(device, case):
    """linalg.cross of 3-element vectors along axis (2-element vectors raise ValueError, bool
    TypeError); integers wrap."""
    shape_a, dtype_a, shape_b, dtype_b, kwargs = case
    a, b = data(shape_a, dtype_a, 1), data(shape_b, dtype_b, 2)
    # a cross product is a difference of two products: its rounding is relative to them
    scale = (2 * magnitude(a) * magnitude(b), 2)
    check(np.linalg.cross, linalg("cross"), a, b, scale=scale, **kwargs)


@pytest.mark.parametrize("shape", [(3, 4), (4, 3), (2, 3, 4), (0, 3), (3,)], ids=compact_id)
def test_linalg_diagonal(device, shape):
    """linalg.diagonal over the last two axes with offset (1-d raises ValueError)."""
    for dtype in (np.float64, np.int16, np.complex64, np.bool_):
        for offset in (0, 1, -1, 3, -5):
            check(np.linalg.diagonal, linalg("diagonal"), data(shape, dtype, 1), offset=offset,
                  exact=True)
        if len(shape) >= 2:
            t, n = pair(shape[::-1], dtype, 1, T)
            check(np.linalg.diagonal, linalg("diagonal"), n, targs=(t,), offset=1, exact=True)


LINALG_TRACE = [((3, 4), {}), ((2, 3, 4), {}), ((2, 3, 4), {"offset": 1}),
                ((2, 4, 3), {"offset": -1}), ((3, 3), {"dtype": "float32"}),
                ((3, 3), {"dtype": "int8"}), ((0, 0), {}), ((3,), {})]


@pytest.mark.parametrize("case", LINALG_TRACE, ids=compact_id)
def test_linalg_trace(device, case):
    """linalg.trace over the last two axes: offset and dtype= (sum's default dtypes)."""
    shape, kwargs = case
    for dtype in (np.bool_, np.int8, np.uint16, np.float32, np.float64, np.complex64):
        check(np.linalg.trace, linalg("trace"), data(shape, dtype, 1), **kwargs)


@pytest.mark.parametrize("user", [{}, {"OPENBLAS_CORETYPE": "Sandybridge",
                                       "OPENBLAS_THREAD_TIMEOUT": "4"}],
                         ids=["tessera_chooses", "user_chooses"])
def test_blas_load_settings(user):
    """tessera sets OpenBLAS's kernels (by the CPU's instruction sets) and its threads' spin
    while the library loads, leaves the environment as the user had it, and a user's own
    settings win."""
    script = ("import os, numpy as np, tessera as tp\n"
              "a = tp.array(np.ones((64, 64)))\n"
              "assert (a @ a).sum().item() == 64.0 ** 3\n"
              "print(tp._core._blas_config().split('core=')[1])\n"
              "print(*(os.environ.get(f'OPENBLAS_{v}') for v in ('CORETYPE', 'THREAD_TIMEOUT')))\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENBLAS_")} | user
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    core, environment = done.stdout.splitlines()[:2]
    assert environment == f"{user.get('OPENBLAS_CORETYPE')} {user.get('OPENBLAS_THREAD_TIMEOUT')}"
    with open("/proc/cpuinfo") as f:
        flags = f.read()
    if user:
        assert core == "Sandybridge"
    elif " avx2 " in flags and " fma " in flags:
        assert core in ("Haswell", "SkylakeX")
