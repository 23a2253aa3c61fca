"""Lazy (fused) evaluation of elementwise operations must be invisible: every program gives
NumPy's results, whatever happens to the inputs after an operation was called (setitem,
in-place operators, out=, fill, writes through NumPy or DLPack views), whatever views are
taken of pending results, however operands alias, and however long the chain of operations.
Errors are raised when the operation is called, and long chains keep memory bounded.

Each program below runs twice: on NumPy arrays with m=numpy (eager), and on tessera arrays
with m=tessera; every array it returns must match."""

import copy
import gc
import json
import os
import pickle
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import tessera as tp

from conftest import assert_same, reports_fp_errors, sample
from oracle import host_shared

# --------------------------------------------------------------------------------------------
# helpers


def run_both(program, *inputs, strides=False, rtol=0):
    """program(m, *arrays) on copies of the NumPy `inputs` with m=numpy and on tessera copies
    with m=tessera; the returned arrays (a tuple) must match (within `rtol` if given)."""
    __tracebackhide__ = True
    n_in = [np.array(x, copy=True) for x in inputs]
    t_in = [tp.array(x) for x in inputs]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = program(np, *n_in)
        got = program(tp, *t_in)
    if not isinstance(expected, tuple):
        expected, got = (expected,), (got,)
    assert len(got) == len(expected)
    for i, (g, e) in enumerate(zip(got, expected)):
        try:
            if rtol:
                assert (g.dtype, g.shape) == (np.asarray(e).dtype, np.asarray(e).shape)
                np.testing.assert_allclose(tp.asnumpy(g), e, rtol=rtol)
            else:
                assert_same(g, e)
            if strides:
                assert_layout(g, e)
        except AssertionError as error:
            raise AssertionError(f"result {i}: {error}") from None


def assert_layout(t, n):
    """t's strides are n's, on every axis longer than 1 (the others' are never used)."""
    n = np.asarray(n)
    if n.size == 0:
        return
    got = [s for s, d in zip(t.strides, t.shape) if d > 1]
    expected = [s for s, d in zip(n.strides, n.shape) if d > 1]
    assert got == expected, f"strides {t.strides} != NumPy's {n.strides} (shape {n.shape})"


def host(x):
    """A writable NumPy view of x's memory: x itself for NumPy, np.asarray for tessera (on
    the CPU; a CUDA array's np.asarray is a host copy, see HOST_VIEW_MUTATIONS)."""
    return np.asarray(x)


# --------------------------------------------------------------------------------------------
# an input changes after an operation was called: the result keeps the values of the time
# of the call


BUILDERS = {
    "add": lambda m, x: x + 1,
    "chain": lambda m, x: (x * 2 - 1) * x + m.sin(x),
    "unary": lambda m, x: -x,
    "ufunc": lambda m, x: m.multiply(x, x),
    "view_of_pending": lambda m, x: (x + 1)[::-1],
    "views_as_inputs": lambda m, x: x[::2] + x[1::2],
    "transposed": lambda m, x: x.reshape(2, 4).T * 3,
    "broadcast": lambda m, x: x[:, None] - x[None, :],
    "where": lambda m, x: m.where(x > 0, x, 0.5),
    "clip": lambda m, x: m.clip(x, -3, 3),
    "comparison": lambda m, x: x >= x[::-1],
    "astype": lambda m, x: (x * 3).astype(np.int32),
    "two_levels": lambda m, x: (x * 2) * (x * 2 + x),
    "round": lambda m, x: m.round(x * 10, 1),
}


def _mut_numpy_view_before(m, x, state):
    state["view"][1] = 99


MUTATIONS = {
    "setitem": lambda m, x, s: x.__setitem__(0, 100),
    "setitem_slice": lambda m, x, s: x.__setitem__(slice(1, 5), -7),
    "setitem_all": lambda m, x, s: x.__setitem__(Ellipsis, 3),
    "setitem_array": lambda m, x, s: x.__setitem__(slice(None), x[::-1] * 2),
    "iadd": lambda m, x, s: x.__iadd__(1),
    "imul_view": lambda m, x, s: x[::2].__imul__(3),
    "out_self": lambda m, x, s: m.add(x, 1, out=x),
    "out_reversed": lambda m, x, s: m.negative(x, out=x[::-1]),
    "out_where": lambda m, x, s: m.multiply(x, 10, out=x, where=x > 0),
    "fill": lambda m, x, s: x.fill(7),
    "numpy_view": lambda m, x, s: host(x).__setitem__(0, 99),
    "numpy_view_of_view": lambda m, x, s: host(x[3:]).__setitem__(0, 99),
    "dlpack_view": lambda m, x, s: np.from_dlpack(x).__setitem__(slice(2, 4), 42),
    "view_fill": lambda m, x, s: x[2:5].fill(3),
    "numpy_view_before": _mut_numpy_view_before,
    "view_before": lambda m, x, s: s["sub"].__setitem__(Ellipsis, -1),
    "clip_out": lambda m, x, s: m.clip(x, 0, 1, out=x),
    "nan_to_num": lambda m, x, s: m.nan_to_num(m.divide(x, 0, out=x), copy=False),
}


# Writes through NumPy's view of tessera memory: on a device that shares no memory with the
# host (CUDA), np.asarray gives a host copy, whose writes reach nothing on the device, and
# numpy.from_dlpack refuses a capsule of device memory (NumPy's RuntimeError, as for CuPy's
# and PyTorch's arrays).
HOST_VIEW_MUTATIONS = {"numpy_view", "numpy_view_of_view", "dlpack_view", "numpy_view_before"}


def mutate(device, mutation, m, x, state):
    """MUTATIONS[mutation]; where the device shares no memory with NumPy, a write through a
    NumPy view is made on the tessera side only (it must change nothing there) and not on
    the NumPy side, which gives the expected values."""
    if host_shared(device) or mutation not in HOST_VIEW_MUTATIONS:
        MUTATIONS[mutation](m, x, state)
    elif m is tp and mutation == "dlpack_view":
        with pytest.raises(RuntimeError, match="Unsupported device in DLTensor"):
            MUTATIONS[mutation](m, x, state)
    elif m is tp:
        MUTATIONS[mutation](m, x, state)


@pytest.mark.parametrize("mutation", list(MUTATIONS))
@pytest.mark.parametrize("builder", list(BUILDERS))
def test_mutation_after_call(device, builder, mutation):
    def program(m, x):
        state = {"view": host(x), "sub": x[2:6]}
        y = BUILDERS[builder](m, x)
        mutate(device, mutation, m, x, state)
        return y, x

    run_both(program, sample((8,), np.float64))


@pytest.mark.parametrize("mutation", ["setitem", "iadd", "out_self", "fill", "numpy_view"])
def test_mutation_of_pending_result(device, mutation):
    """A pending result changed after another operation used it: that one keeps the old
    values; the changed one shows the change."""
    def program(m, x):
        y = x * 2
        z = y + 1
        mutate(device, mutation, m, y, {})
        w = y - 1
        return z, y, w, x

    run_both(program, sample((8,), np.float32))


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.float16, np.complex64, np.bool_],
                         ids=lambda d: np.dtype(d).name)
def test_mutation_other_dtypes(device, dtype):
    def program(m, x):
        # (a complex product would be within an ulp only: NumPy's own depends on the layout)
        y = x ^ x[::-1] if x.dtype.kind in "biu" else x - x[::-1] * 2
        z = m.logical_not(x)
        x[0] = x[1]
        x[2:] = x[:-2].copy()
        return y, z, x

    run_both(program, sample((8,), dtype))


def test_mutation_of_complex_parts(device):
    def program(m, x):
        y = x * 2
        z = m.absolute(x)
        x.real = 5
        w = x + 1
        x.imag[1:] = -3
        return y, z, w, x

    run_both(program, sample((6,), np.complex128))


def test_mutation_through_numpy_view(device):
    """The issue's example: n = np.asarray(t); y = t * 2; n[0] = 99 -> y from the old t."""
    values = sample((5,), np.float64)
    t = tp.array(values)
    n = np.asarray(t)
    y = t * 2
    z = y + t
    n[0] = 99
    assert_same(y, values * 2)
    assert_same(z, values * 3)
    if not host_shared(device):  # n is a host copy: its writes reach nothing on the device
        n[1] = -1
        assert_same(t * 2, values * 2)
        return
    assert_same(t + 0, np.concatenate([[99], values[1:]]))
    # and a write through the view before the operation is seen by it
    n[1] = -1
    w = t * 2
    expected = values.copy()
    expected[0], expected[1] = 99, -1
    assert_same(w, expected * 2)


def test_mutation_through_dlpack(device):
    """A tessera array over NumPy memory (from_dlpack), and a NumPy array over tessera memory
    (numpy.from_dlpack): writes on the other side after an operation do not reach its
    result."""
    n = sample((6,), np.float64)
    original = n.copy()
    t = tp.from_dlpack(n)
    y = t + 1
    n[:] = 0
    assert_same(y, original + 1)
    t2 = tp.array(original)
    if not host_shared(device):  # NumPy imports no device memory
        with pytest.raises(RuntimeError, match="Unsupported device in DLTensor"):
            np.from_dlpack(t2)
        assert_same(t, original)  # a device copy of n
        return
    view = np.from_dlpack(t2)
    y2 = t2 * 3
    if view.flags.writeable:
        view[:] = 5
    assert_same(y2, original * 3)


def test_deleted_inputs(device):
    def program(m, x0):
        x = x0 + 0.5
        a = x * 2
        b = a + x
        del x
        gc.collect()
        c = b * a
        del a
        gc.collect()
        return b, c

    run_both(program, sample((3, 4), np.float64))


def test_freed_inputs_reused_by_the_pool(device):
    """An input dropped by the program while a result still needs it: new arrays of the same
    size (which the pool may place in freed blocks) do not change the result."""
    x0 = sample((4096,), np.float64)
    x = tp.array(x0) + 0.5
    y = x * 2
    z = tp.sqrt(tp.abs(x))
    del x
    gc.collect()
    others = [tp.full(4096, float(k)) for k in range(8)]
    for k, o in enumerate(others):
        o += k
    assert_same(y, (x0 + 0.5) * 2)
    assert_same(z, np.sqrt(np.abs(x0 + 0.5)))


# --------------------------------------------------------------------------------------------
# intermediates used several times, consumers evaluated in any order


def test_shared_intermediates(device):
    x = sample((4, 5), np.float64)
    t = tp.array(x)
    ty = t * 2 + 1
    a, b, c = ty * ty, ty - t, tp.sqrt(tp.abs(ty))
    ny = x * 2 + 1
    # evaluate out of order: c, a, then b, then y itself
    assert_same(c, np.sqrt(np.abs(ny)))
    assert_same(a, ny * ny)
    assert_same(b, ny - x)
    assert_same(ty, ny)
    d = ty + a + b + c
    assert_same(d, ny + ny * ny + (ny - x) + np.sqrt(np.abs(ny)))


def test_diamond_chain(device):
    def program(m, x):
        y = x + 1
        branches = [y * k for k in range(1, 6)]
        total = branches[0]
        for b in branches[1:]:
            total = total + b - y
        return total, y, branches[3]

    run_both(program, sample((7,), np.float32))


def test_chain_of_views_and_ops(device):
    def program(m, x):
        y = (x + 1).T[::-1]
        z = y[1:, ::2] * 2
        w = m.expand_dims(z, 0) + z[:, :1]
        return y, z, w, w.reshape(-1), w[0, ::-1].T

    run_both(program, sample((5, 6), np.float64), strides=True)


# --------------------------------------------------------------------------------------------
# views of pending results, setitem into pending results


VIEWS = {
    "step": lambda y: y[::2],
    "reverse": lambda y: y[::-1, 1],
    "T": lambda y: y.T,
    "reshape": lambda y: y.reshape(2, 3, 2),
    "index": lambda y: y[1],
    "newaxis": lambda y: y[None, ..., None],
    "ravel": lambda y: y.ravel(),
    "squeeze": lambda y: y[:1].squeeze(),
    "swapaxes": lambda y: y.swapaxes(0, 1),
    "real": lambda y: y.real,
    "broadcast_to": lambda y: (tp if isinstance(y, tp.ndarray) else np).broadcast_to(y[0], (2, 3)),
}


@pytest.mark.parametrize("view", list(VIEWS))
def test_view_of_pending(device, view):
    def program(m, x):
        y = x * 3 - 1
        v = VIEWS[view](y)
        return v, y

    run_both(program, sample((4, 3), np.float64), strides=True)


@pytest.mark.parametrize("view", ["step", "reverse", "T", "reshape", "index", "ravel",
                                  "swapaxes", "real"])
def test_write_through_view_of_pending(device, view):
    """A view of a pending result shares its memory: writes go both ways."""
    def program(m, x):
        y = x + 10
        v = VIEWS[view](y)
        v[...] = v * 2  # through the view into y
        z = y + 0
        y[0] = -1        # into y, seen by the view
        return v, y, z

    run_both(program, sample((4, 3), np.float64), strides=True)


def test_view_base_of_pending(device):
    t = tp.arange(12.0) * 2
    v = t[::3]
    assert v.base is t
    v[0] = 100
    assert float(t[0]) == 100
    r = t.reshape(3, 4)
    assert r.base is t
    r[1, 1] = -5
    assert float(t[5]) == -5


def test_setitem_into_pending(device):
    def program(m, x):
        y = x + 1
        y[0] = 5
        y[1:3] = x[:2] * 10
        z = x * 2
        z[::2] = z[1::2]        # overlapping source and destination in a pending array
        w = x - 1
        w[...] = w[::-1]
        return y, z, w

    run_both(program, sample((6,), np.float64))


def test_temporary_expression_assigned_into_a_view(device):
    """`a[1:-1, 1:-1] = expr` computes a temporary expression straight into the view; an
    expression that reads the target, one the program still holds, one of another dtype,
    and one that must broadcast take the general path. All give NumPy's values."""
    def program(m, p, f):
        q = p.copy()
        q[1:-1, 1:-1] = 0.25 * (p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:]
                                + 1e-4 * f[1:-1, 1:-1])
        q[1:, :] = q[:-1, :] * 2 + 1          # reads the rows it writes
        held = p[1:-1, 1:-1] - f[1:-1, 1:-1]
        r = p.copy()
        r[1:-1, 1:-1] = held
        held += 1                             # the held expression, read after the assignment
        i = m.zeros(p.shape, dtype=np.int32)
        i[1:-1, 1:-1] = p[1:-1, 1:-1] * 100   # cast on assignment
        b = p.copy()
        b[2:-2, :] = p[0] + f[0]              # broadcast
        return q, r, held, i, b

    run_both(program, sample((70, 90), np.float64), sample((70, 90), np.float64, seed=2))


def test_temporary_expression_assigned_into_a_view_warns_once(device):
    def warned(m, a):
        q = m.zeros(a.shape)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            q[1:-1, 1:-1] = a[1:-1, 1:-1] * 1e300 * 1e300
        return np.array(m.asnumpy(q) if m is tp else q), [str(w.message) for w in caught]

    a = sample((64, 80), np.float64)
    expected, expected_messages = warned(np, a)
    got, got_messages = warned(tp, tp.array(a))
    np.testing.assert_array_equal(got, expected)
    assert expected_messages == ["overflow encountered in multiply"]
    assert got_messages == (expected_messages if reports_fp_errors(device) else [])


def test_errors_of_one_block_are_attributed_to_their_op(device):
    """Flags are read once per block; a block that raised some runs again step by step, so
    each error is still reported under the op that raised it, and values are unchanged."""
    n = 20_000
    a = np.full(n, 2.0)
    a[n // 2] = 0.0          # one block divides by zero; the others raise nothing
    b = np.full(n, 3.0)
    b[3 * n // 4] = np.inf   # another block: inf - inf in the subtraction

    def warned(m, a, b):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with m.errstate(all="warn"):
                r = (1.0 / a) * 2 + (b - b)
                values = np.array(m.asnumpy(r) if m is tp else r)
        return values, sorted({str(w.message) for w in caught})

    expected, expected_messages = warned(np, a, b)
    got, got_messages = warned(tp, tp.array(a), tp.array(b))
    np.testing.assert_array_equal(got, expected)
    assert len(expected_messages) == 2
    assert got_messages == (expected_messages if reports_fp_errors(device) else [])


def test_inplace_on_pending(device):
    x = sample((6,), np.float32)
    t = tp.array(x)
    y = t * 2
    alias = y
    y += 1
    assert y is alias
    ptr = y.data_ptr
    y *= y
    assert y is alias and y.data_ptr == ptr
    assert_same(y, (x * 2 + 1) * (x * 2 + 1))


def test_pending_as_out(device):
    def program(m, x):
        y = x + 1
        m.multiply(x, 3, out=y)    # overwrites a pending result
        z = x * 2
        m.add(z, z, out=z)
        w = x - 1
        m.subtract(x[1::2], 2, out=w[::2])
        return y, z, w

    run_both(program, sample((6,), np.float64))


def test_pending_as_other_arguments(device):
    """Pending arrays as where= masks, where() conditions, clip bounds, out= of other
    functions, and astype/copy sources."""
    def program(m, x):
        mask = x > 0
        out = x * 0
        m.negative(x, out=out, where=mask)
        lo = x - 1
        c = m.clip(x * 2, lo, lo + 1)
        sel = m.where(mask, x, -x)
        r = m.round(x * 3, 1, out=x * 0)
        a = (x + 1).astype(np.float32)
        cp = (x + 1).copy()
        n2n = m.nan_to_num(x / 0)
        close = m.isclose(x + 1, x + 1 + 1e-9)
        return out, c, sel, r, a, cp, n2n, close

    run_both(program, sample((3, 5), np.float64))


def test_pending_through_python_apis(device):
    """Every way of reading a pending array sees its values."""
    x = sample((2, 3), np.float64)
    t = tp.array(x)
    expected = x * 2 + 1
    y = t * 2 + 1
    assert y.shape == expected.shape and y.dtype == expected.dtype
    assert y.ndim == 2 and y.size == 6 and y.nbytes == expected.nbytes
    assert_layout(y, expected)
    assert y.flags.c_contiguous and y.flags.writeable
    assert y.tolist() == expected.tolist()
    assert repr(y) == repr(expected) and str(y) == str(expected)
    np.testing.assert_array_equal(np.asarray(t * 2 + 1), expected)
    np.testing.assert_array_equal(tp.asnumpy(t * 2 + 1), expected)
    np.testing.assert_array_equal((t * 2 + 1).get(), expected)
    if host_shared(device):
        np.testing.assert_array_equal(np.from_dlpack(t * 2 + 1), expected)
    else:  # NumPy imports no device memory
        with pytest.raises(RuntimeError, match="Unsupported device in DLTensor"):
            np.from_dlpack(t * 2 + 1)
    assert float((t * 2 + 1)[0, 1]) == expected[0, 1]
    assert (t * 2 + 1).item(3) == expected.item(3)
    assert bool((t[0, 0] * 0 + 1)) is True
    assert int((t * 0 + 3)[1, 2]) == 3
    assert [r.tolist() for r in (t * 2 + 1)] == expected.tolist()
    assert_same(pickle.loads(pickle.dumps(t * 2 + 1)), expected)
    assert_same(copy.deepcopy(t * 2 + 1), expected)
    assert_same(tp.array(t * 2 + 1), expected)
    assert_same(tp.ascontiguousarray((t * 2 + 1).T), np.ascontiguousarray(expected.T))
    assert np.asarray(t * 2 + 1).sum() == expected.sum()
    assert f"{(t * 2 + 1)[1, 1]:.3f}" == f"{expected[1, 1]:.3f}"


def test_numpy_view_of_pending(device):
    """np.asarray of a pending result is a view of its memory, as NumPy's is the array (on
    the CPU; on CUDA a host copy of its values, whose writes reach nothing on the device)."""
    x = sample((5,), np.float64)
    t = tp.array(x)
    y = t + 1
    view = np.asarray(y)
    if not host_shared(device):
        np.testing.assert_array_equal(view, x + 1)
        view[0] = 50
        y += 1
        assert_same(y, x + 2)
        return
    view[0] = 50
    assert float(y[0]) == 50
    y[1] = 60
    assert view[1] == 60
    y += 1
    assert view[2] == x[2] + 2
    z = y * 2  # uses y's current values
    view[3] = 0
    assert_same(z, np.array([51, 61, x[2] + 2, x[3] + 2, x[4] + 2]) * 2)


# --------------------------------------------------------------------------------------------
# in-place operations whose operands alias the destination


def _iadd_reversed(m, a):
    a += a[::-1]
    return a


def _shift_accumulate(m, a):
    a[1:] += a[:-1]
    return a


def _shift_back(m, a):
    a[:-1] += a[1:]
    return a


def _imul_mirror(m, a):
    a[:, ::-1] *= a
    return a


def _iadd_transpose(m, a):
    b = a.T
    a += b
    return a, b


def _isub_transpose(m, a):
    a -= a.T
    return a


def _out_shifted(m, a):
    m.add(a[1:], a[:-1], out=a[:-1])
    return a


def _out_reversed(m, a):
    m.multiply(a, 2, out=a[::-1])
    return a


def _out_transposed(m, a):
    m.subtract(a, a[::-1], out=a.T)
    return a


def _two_outputs_aliased(m, a):
    q = a * 0
    m.divmod(a, 3, out=(a[::-1], q))
    m.divmod(a, 4, out=(q, a.T))
    return a, q


def _iadd_expression(m, a):
    a += a * 2 + a[::-1]
    return a


def _iadd_pending_of_self(m, a):
    y = a * 2
    a += y
    return a, y


def _out_into_source_of_pending(m, a):
    y = a * 2
    m.add(y, 1, out=a)
    z = a[::-1] - 1
    m.multiply(z[0], z[:, 1], out=a[:, 0])
    return a, y, z


def _setitem_pending_of_self(m, a):
    a[...] = a.T + 1
    return a


def _setitem_overlap(m, a):
    a[:4:2] = a[1::2] * 2
    a[:, 1:] = a[:, :-1] - 1
    return a


def _where_into_self(m, a):
    a[:] = m.where(a > 0, a[::-1], a)
    return a


def _chain_of_inplace(m, a):
    b = a[1:, 1:]
    a *= 2
    b += a[:-1, :-1]
    a -= 1
    c = a[1:, 1:] + b[0]
    b[...] = c - 1
    return a, b, c


ALIASING = [_iadd_reversed, _shift_accumulate, _shift_back, _imul_mirror, _iadd_transpose,
            _isub_transpose, _out_shifted, _out_reversed, _out_transposed, _two_outputs_aliased,
            _iadd_expression, _iadd_pending_of_self, _out_into_source_of_pending,
            _setitem_pending_of_self, _setitem_overlap,
            _where_into_self, _chain_of_inplace]


@pytest.mark.parametrize("program", ALIASING, ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize("dtype", [np.int32, np.float64], ids=lambda d: np.dtype(d).name)
def test_aliasing(device, program, dtype):
    run_both(program, sample((5, 5), dtype))


@pytest.mark.parametrize("layout", ["fortran", "negative", "strided"])
def test_aliasing_views_of_views(device, layout):
    def program(m, base):
        if layout == "fortran":
            a = base.T
        elif layout == "negative":
            a = base[::-1, ::-1]
        else:
            a = base[::2, 1::2]
        a += a[::-1].T
        a[1:] -= a[:-1] * 2
        return a, base

    shape = (10, 10) if layout == "strided" else (5, 5)
    run_both(program, sample(shape, np.int64))


# --------------------------------------------------------------------------------------------
# long chains: NumPy's values exactly (each operation rounds to its dtype, as NumPy's do)


@pytest.mark.parametrize("steps", [200, 1000])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.float16],
                         ids=lambda d: np.dtype(d).name)
def test_long_chain(device, dtype, steps):
    def program(m, x):
        c = np.dtype(dtype).type(1.0001) if np.dtype(dtype).kind == "f" else \
            np.dtype(dtype).type(1.0001 + 1e-4j)
        for _ in range(steps // 2):
            x = x * c + 0.5
        return x

    # complex products: NumPy's own rounding depends on the layout (SIMD fused multiply-adds)
    rtol = 1e-12 if np.dtype(dtype).kind == "c" else 0
    run_both(program, np.linspace(-1, 1, 33).astype(dtype), rtol=rtol)


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.int64], ids=lambda d: np.dtype(d).name)
def test_long_integer_chain(device, dtype):
    """Wrap-around on overflow at every step, as NumPy's."""
    def program(m, x):
        for i in range(300):
            x = (x * 3 + i % 100) ^ (x >> 1)
        return x

    run_both(program, np.arange(-8, 9).astype(dtype))


def test_long_mixed_chain(device):
    def program(m, x):
        y = x
        for i in range(100):
            y = m.where(y > 2, y - 2.5, y + 0.75)
            y = (y.astype(np.float32) * np.float32(1.5)).astype(np.float64) - y
            y = m.maximum(y, x[::-1]) + (y < 0)
        return y

    run_both(program, sample((4, 6), np.float64) / 10)


def test_long_chain_transcendental(device):
    """A contracting chain of transcendental functions, within a few ulp of NumPy."""
    x = sample((50,), np.float64) / 10
    t = tp.array(x)
    for _ in range(100):
        x = np.sin(x) * 0.5 + np.cos(x) * 0.25
        t = tp.sin(t) * 0.5 + tp.cos(t) * 0.25
    np.testing.assert_allclose(tp.asnumpy(t), x, rtol=1e-12, atol=1e-14)


def test_long_chain_with_views(device):
    def program(m, x):
        for i in range(150):
            x = (x[::-1] + x * 0.5).T
            if i % 10 == 0:
                x = x[:, ::-1] + 1
        return x

    run_both(program, sample((6, 6), np.float64), strides=True)


def test_long_chain_reading_in_the_middle(device):
    def program(m, x):
        snapshots = []
        for i in range(300):
            x = x * 1.01 - 0.25
            if i % 50 == 0:
                snapshots.append(x[1:3])     # a view of a pending value, read later
            if i % 75 == 0:
                x[0] = float(x[1])           # a read forces evaluation; then a write
        return (x, *snapshots)

    run_both(program, sample((8,), np.float64))


# --------------------------------------------------------------------------------------------
# errors: raised by the call, not on a later access


def test_errors_raised_at_call_time(device):
    t = tp.array(sample((3, 4), np.float64))
    ti = tp.arange(12).reshape(3, 4)
    y = t * 2 + 1             # a pending chain
    yi = ti + 1
    with pytest.raises(ValueError):
        y + tp.ones(5)
    with pytest.raises(ValueError):
        tp.add(y, tp.ones((2, 4)))
    with pytest.raises(ValueError):
        tp.add(y, 1, out=tp.zeros(4))
    with pytest.raises(TypeError):
        yi /= 2
    with pytest.raises(TypeError):
        tp.add(yi, 1.5, out=yi)
    with pytest.raises(TypeError):
        tp.sqrt(y, dtype=np.int32)
    with pytest.raises(TypeError):
        yi & 1.5
    with pytest.raises(TypeError):
        tp.negative(yi > 1)
    with pytest.raises(OverflowError):
        tp.add(tp.arange(3, dtype=np.int8) + 1, 1000)
    with pytest.raises(ValueError):
        y[0] = y[:2]
    # nothing was written, and the chain still gives NumPy's values
    x = tp.asnumpy(t)
    assert_same(y, x * 2 + 1)
    assert_same(yi, np.arange(12).reshape(3, 4) + 1)
    assert_same(y * 3, (x * 2 + 1) * 3)


def test_value_errors_raised_at_call_time(device):
    """An error NumPy finds in the values (integers to negative powers) is raised by the call
    too, even when the operands are pending."""
    base = tp.arange(1, 5)
    exponents = tp.arange(4) - 2   # pending, with negative values
    with pytest.raises(ValueError):
        base ** exponents
    with pytest.raises(ValueError):
        tp.power(base + 0, -1)
    assert_same(base ** (exponents + 2), np.arange(1, 5) ** np.arange(4))


def test_attributes_of_pending(device):
    """shape, dtype and layout are known when the operation returns."""
    x = sample((3, 4), np.int16)
    for build in (lambda m, a: a + 1, lambda m, a: (a * 2.5).T, lambda m, a: m.less(a, a[0]),
                  lambda m, a: m.divmod(a, 3)[1][::-1], lambda m, a: a[:, :, None] + a[:, None],
                  lambda m, a: (a + 1).astype(np.complex64, order="F"),
                  lambda m, a: m.negative(m.asfortranarray(a)) * 1.5):
        got, expected = build(tp, tp.array(x)), build(np, x)
        assert (got.shape, got.dtype, got.ndim, got.size, got.itemsize, got.nbytes) == \
            (expected.shape, expected.dtype, expected.ndim, expected.size, expected.itemsize,
             expected.nbytes)
        assert_layout(got, expected)
        assert (got.flags.c_contiguous, got.flags.f_contiguous) == \
            (expected.flags.c_contiguous, expected.flags.f_contiguous)
        assert_same(got, expected)


# --------------------------------------------------------------------------------------------
# memory: long chains do not hold their intermediates; nothing leaks


def run_script(code, timeout=120):
    """Runs `code` in a fresh interpreter (its own memory pool, an address-space limit so
    that a runaway engine fails instead of exhausting the machine) and returns the JSON it
    prints last."""
    script = textwrap.dedent("""
        import json, resource, sys
        limit = 6 * 2**30
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        import numpy as np
        import tessera as tp
    """) + textwrap.dedent(code)
    env = dict(os.environ)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=timeout, env=env)
    assert result.returncode == 0, f"script failed ({result.returncode}):\n{result.stderr[-3000:]}"
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_long_chain_bounded_memory():
    """1000 operations on a 10**6-element float64 array: peak memory stays below 20 arrays,
    and the values are NumPy's."""
    out = run_script("""
        n = 10**6
        x0 = np.linspace(-1, 1, n)
        pool = tp.MemoryPool(tp.get_device())  # the default device's (cuda:0 on the simulator)
        x = tp.array(x0)
        for _ in range(500):
            x = x * 1.0001 + 0.5
        head, tail = tp.asnumpy(x[:1000]), tp.asnumpy(x[-1000:])
        stats = pool.stats()
        e_head, e_tail = x0[:1000], x0[-1000:]
        for _ in range(500):
            e_head = e_head * 1.0001 + 0.5
            e_tail = e_tail * 1.0001 + 0.5
        del x
        print(json.dumps({"peak": stats["peak_used_bytes"], "used_after": pool.used_bytes(),
                          "head": bool(np.array_equal(head, e_head)),
                          "tail": bool(np.array_equal(tail, e_tail))}))
    """)
    array_bytes = 8 * 10**6
    assert out["head"] and out["tail"], "values differ from NumPy's"
    assert out["peak"] < 20 * array_bytes, \
        f"peak {out['peak'] / array_bytes:.1f} arrays for a 1000-operation chain"
    assert out["used_after"] == 0, f"{out['used_after']} bytes still used after del"


def test_shared_subexpressions_do_not_explode():
    """Each value used by the next two steps (a DAG, not a tree): 300 steps finish quickly
    with NumPy's values (a tree walk would take 2**300 steps)."""
    out = run_script("""
        x0 = np.linspace(0, 1, 1000)
        a, b = tp.array(x0), tp.array(x0) + 1
        ea, eb = x0, x0 + 1
        for _ in range(300):
            a, b = b, a * 0.5 + b * 0.25
            ea, eb = eb, ea * 0.5 + eb * 0.25
        print(json.dumps({"ok": bool(np.array_equal(tp.asnumpy(b), eb)
                                     and np.array_equal(tp.asnumpy(a), ea))}))
    """, timeout=60)
    assert out["ok"], "values differ from NumPy's"


def test_very_long_chain_no_recursion_limit():
    """20000 operations on a small array: no recursion error or stack overflow."""
    out = run_script("""
        x0 = np.arange(16, dtype=np.float64)
        x, e = tp.array(x0), x0
        for _ in range(10000):
            x = x * 0.999 + 0.001
            e = e * 0.999 + 0.001
        print(json.dumps({"ok": bool(np.array_equal(tp.asnumpy(x), e))}))
    """, timeout=90)
    assert out["ok"], "values differ from NumPy's"


def test_no_leak_after_chains(device):
    pool = tp.get_default_memory_pool()
    gc.collect()
    before = pool.used_bytes()
    x = tp.array(sample((1000,), np.float64))
    keep = []
    for i in range(200):
        x = x * 1.5 - x[::-1] * 0.25
        if i % 20 == 0:
            keep.append(x[::3])
            keep.append(x + 1)
    tp.asnumpy(x)
    tp.asnumpy(keep[-1])
    y = x + 1
    del x, keep, y
    gc.collect()
    # (a few bytes of slack for whatever the engine caches; one array here is 8000 bytes)
    assert pool.used_bytes() - before < 8000, f"{pool.used_bytes() - before} bytes leaked"


def test_unevaluated_results_release_memory(device):
    """Results dropped without ever being read release everything."""
    pool = tp.get_default_memory_pool()
    gc.collect()
    before = pool.used_bytes()
    x = tp.ones(10000)
    for _ in range(50):
        y = tp.sin(x) + x * 2
        z = y[::2] - 1
        del y, z
    del x
    gc.collect()
    assert pool.used_bytes() - before < 8000, f"{pool.used_bytes() - before} bytes leaked"


# --------------------------------------------------------------------------------------------
# three-input trees of + - * / run as one fused loop on contiguous float operands; any other
# layout, dtype or an output overlapping an input leaves them to the blocked program

FUSED_OPS = {"+": lambda x, y: x + y, "-": lambda x, y: x - y, "*": lambda x, y: x * y,
             "/": lambda x, y: x / y}


def _special_sample(n, dtype, seed):
    values = sample((n,), dtype, seed)
    values[::97] = 0.0
    values[1::89] = np.inf
    values[2::83] = -np.inf
    values[3::79] = np.nan
    values[4::73] = -0.0
    return values


@pytest.mark.parametrize("op1", list(FUSED_OPS))
@pytest.mark.parametrize("op2", list(FUSED_OPS))
@pytest.mark.parametrize("op1_first", [True, False], ids=["ab_c", "c_ab"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_fused_pair_values(device, op1, op2, op1_first, dtype):
    f1, f2 = FUSED_OPS[op1], FUSED_OPS[op2]

    def program(m, a, b, c):
        with m.errstate(all="ignore"):  # the warnings have their own test below
            return f2(f1(a, b), c) if op1_first else f2(c, f1(a, b))

    n = 200_003  # rows long enough to be split over the threads, with a ragged tail
    run_both(program, *(_special_sample(n, dtype, seed) for seed in range(3)))


@pytest.mark.parametrize("layout", ["repeated", "strided", "reversed", "broadcast", "scalar",
                                    "mixed_dtype", "out", "out_aliased", "inplace", "2d_T"])
def test_fused_pair_layouts(device, layout):
    n = 100_001
    a, b, c = (sample((n,), np.float64, seed) for seed in range(3))
    programs = {
        "repeated": lambda m, a, b, c: a * a + b,
        "strided": lambda m, a, b, c: a[::2] * b[::2] + c[::-2],
        "reversed": lambda m, a, b, c: a[::-1] * b + c[::-1],
        "broadcast": lambda m, a, b, c: a.reshape(1, -1)[:, :1000] * b[:1000] + c[:7000].reshape(7, 1000),
        "scalar": lambda m, a, b, c: a * 2.5 + c,
        "mixed_dtype": lambda m, a, b, c: a * b.astype(np.float32) + c,
        "out": lambda m, a, b, c: m.add(a * b, c, out=m.empty_like(a)),
        "out_aliased": lambda m, a, b, c: m.add(a * b, c, out=a),
        "inplace": lambda m, a, b, c: (c.__iadd__(a * b), c)[1],
        "2d_T": lambda m, a, b, c: (a[:100000].reshape(1000, 100).T * b[:100000].reshape(100, 1000)
                                    + c[:100000].reshape(100, 1000)),
    }
    run_both(programs[layout], a, b, c)


@pytest.mark.parametrize("expression", ["a * b + c", "c - a / b", "a + b * c", "(a - b) * c"])
def test_fused_pair_reports_each_ops_errors(device, expression):
    """Errors of a fused loop are reported under the op that raised them, as NumPy's are; a
    generated CUDA kernel reports none (CuPy's rule), its values NumPy's all the same."""
    n = 50_000
    a = np.full(n, 1e300)
    b = np.full(n, 1e300)
    c = np.full(n, -np.inf)
    b[7] = 0.0
    a[11] = 0.0

    def warned(m, a, b, c):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with m.errstate(all="warn"):
                result = eval(expression, {}, {"a": a, "b": b, "c": c})
                values = np.array(m.asnumpy(result) if m is tp else result)
        return values, sorted({str(w.message) for w in caught})

    expected, expected_messages = warned(np, a, b, c)
    got, got_messages = warned(tp, tp.array(a), tp.array(b), tp.array(c))
    np.testing.assert_array_equal(got, expected)
    assert expected_messages
    assert got_messages == (expected_messages if reports_fp_errors(device) else [])


# --------------------------------------------------------------------------------------------
# results too big for the caches (24 MiB and more) are written with streaming stores


@pytest.mark.parametrize("offset", [0, 1, 3], ids=lambda o: f"offset{o}")
def test_streamed_results(device, offset):
    """Every element arrives, whatever the output's alignment: one output, two outputs, a
    float32 result, and out= views that start between vectors."""
    n = 3_300_000  # 26.4 MB of float64
    a = np.linspace(-50.0, 50.0, n)
    b = np.cos(a)
    ta, tb = tp.asarray(a), tp.asarray(b)
    assert_same(ta + tb * 2.0 - 1.0, a + b * 2.0 - 1.0)
    for tr, r in zip(tp.divmod(ta, 7.0), np.divmod(a, 7.0)):
        assert_same(tr, r)
    out, tout = np.zeros(n + offset), tp.zeros(n + offset)
    tp.add(ta * 3.0, tb, out=tout[offset:])
    np.add(a * 3.0, b, out=out[offset:])
    assert_same(tout, out)
    c = np.linspace(-5.0, 5.0, 2 * n)  # a float32 result of 26.4 MB too
    tc = tp.asarray(c)
    out32, tout32 = np.zeros(2 * n + offset, np.float32), tp.zeros(2 * n + offset, tp.float32)
    tp.multiply(tp.sin(tc), tc, out=tout32[offset:], casting="same_kind")
    np.multiply(np.sin(c), c, out=out32[offset:], casting="same_kind")
    assert_same(tout32, out32)
