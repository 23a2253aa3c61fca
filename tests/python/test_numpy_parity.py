"""Differences from NumPy that gave no error, only another answer (issue 25, part 1): the
axis order of order='K' for broadcast views, flat indices with order=None, strides NumPy
keeps on length-1 axes, interpolation of complex values with infinite parts, `x.real is x`,
and the ComplexWarning of every cast that drops imaginary parts; then the errors, edge cases
and dtype rules of its other parts. NumPy is the oracle."""

import warnings

import numpy as np
import pytest

import tessera as tp

from conftest import assert_same, reports_fp_errors


def views(device, seed, count):
    """(numpy view, tessera view) pairs built the same way: C or F bases, transposed, stepped
    (negative steps too), with broadcast and length-1 axes inserted. The NumPy base is the
    one tessera holds: NumPy's own memory on the CPU, a copy of it on other devices."""
    rng = np.random.default_rng(seed)
    made = 0
    while made < count:
        nd = int(rng.integers(1, 4))
        shape = tuple(int(x) for x in rng.integers(1, 5, nd))
        base = np.arange(int(np.prod(shape)), dtype=float).reshape(shape, order=rng.choice(["C", "F"]))
        t = tp.asarray(base)
        a = base if device.kind == "cpu" else np.array(base, order="K")
        perm = tuple(int(x) for x in rng.permutation(nd))
        a, t = a.transpose(perm), t.transpose(perm)
        key = tuple(slice(None, None, int(rng.choice([1, 2, -1, -2]))) for _ in range(nd))
        a, t = a[key], t[key]
        if rng.random() < 0.5:
            at = int(rng.integers(0, a.ndim + 1))
            key = (slice(None),) * at + (None,)
            a, t = a[key], t[key]
            if rng.random() < 0.7:
                shape = list(a.shape)
                shape[at] = int(rng.integers(0, 4))
                a, t = np.broadcast_to(a, shape), tp.broadcast_to(t, shape)
        made += 1
        yield a, t


def test_asarray_keeps_the_strides_of_length_1_axes(device):
    """NumPy's buffer export rewrites the strides of length-1 axes of contiguous arrays;
    tessera keeps the array's own where it wraps NumPy's memory (the CPU), as NumPy's views,
    copies and empty_like see them, and where it copies them has the strides of NumPy's
    copy."""
    for a in [np.zeros((2, 1), order="F"), np.zeros((1, 4), order="F"), np.zeros((3, 1, 1)),
              np.zeros((1, 0, 2), order="F"), np.zeros((3, 4), order="F")]:
        want = a.strides if device.kind == "cpu" else np.array(a, order="K").strides
        assert tp.asarray(a).strides == want


def test_order_k_of_views(device):
    """ravel('K'), flatten('K'), copy('K') and empty_like(order='K') follow NumPy's iterator
    order, broadcast axes (stride 0) included."""
    for a, t in views(device, seed=25, count=300):
        np.testing.assert_array_equal(tp.asnumpy(t.ravel("K")), a.ravel("K"))
        np.testing.assert_array_equal(tp.asnumpy(t.flatten("K")), a.flatten("K"))
        e, te = np.empty_like(a, order="K"), tp.empty_like(t, order="K")
        assert te.strides == e.strides, (a.shape, a.strides)
        assert te.flags.c_contiguous == e.flags.c_contiguous
        assert te.flags.f_contiguous == e.flags.f_contiguous
        c = t.copy("K")
        assert c.strides == a.copy("K").strides


def test_flat_index_order(device):
    """order=None is C order for ravel_multi_index and unravel_index; lower case is accepted;
    'K' and 'A' are NumPy's ValueError."""
    coords, dims = ([1, 2], [0, 3]), (3, 4)
    for order in (None, "C", "c", "F", "f"):
        np.testing.assert_array_equal(
            tp.asnumpy(tp.ravel_multi_index(coords, dims, order=order)),
            np.ravel_multi_index(coords, dims, order=order))
        for got, want in zip(tp.unravel_index([4, 9], dims, order=order),
                             np.unravel_index([4, 9], dims, order=order)):
            np.testing.assert_array_equal(tp.asnumpy(got), want)
    for order in ("K", "A"):
        for call in (lambda m: m.ravel_multi_index(coords, dims, order=order),
                     lambda m: m.unravel_index([4], dims, order=order)):
            with pytest.raises(ValueError, match="only 'C' or 'F' order is permitted"):
                call(np)
            with pytest.raises(ValueError, match="only 'C' or 'F' order is permitted"):
                call(tp)


def test_interp_of_complex_values_with_infinite_parts(device):
    """NumPy interpolates a complex fp's real and imaginary parts each as a real one: an
    infinite part stays infinite and leaves the other part finite."""
    xp = [0.0, 1.0, 2.0, 3.0]
    fp = np.array([1 + 1j, np.inf + 0j, 3 - np.inf * 1j, 2 + 2j])
    x = [-1.0, 0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0]
    with np.errstate(invalid="ignore"):
        want = np.interp(x, xp, fp)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = tp.asnumpy(tp.interp(tp.asarray(x), tp.asarray(xp), tp.asarray(fp)))
    np.testing.assert_array_equal(got, want)
    assert got.dtype == want.dtype


def test_real_part_of_a_real_array_is_the_array(device):
    x = tp.asarray([1.0, 2.0])
    assert x.real is x and tp.real(x) is x
    z = tp.asarray([1 + 2j])
    assert z.real is not z and tp.asnumpy(z.real).tolist() == [1.0]


COMPLEX_WARNING = "Casting complex values to real discards the imaginary part"


def caught(call):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        call()
    return [(x.category, str(x.message)) for x in w]


@pytest.mark.parametrize("case", ["astype float", "astype int8", "astype bool",
                                  "astype complex64", "add out unsafe", "absolute out",
                                  "setitem basic", "setitem advanced"])
def test_complex_warning(device, case):
    """Every cast from complex to a real or integer dtype warns ComplexWarning, as NumPy's
    does (to bool it does not: that only tests for non-zero); a warning made an error
    leaves the destination unwritten."""
    def run(m):
        z = m.asarray([1 + 2j, 3 - 4j])
        out = m.zeros(2)
        what = case.partition(" ")[2]
        if case.startswith("astype"):
            return lambda: z.astype({"float": np.float64, "int8": np.int8, "bool": np.bool_,
                                     "complex64": np.complex64}[what])
        if case == "add out unsafe":
            return lambda: m.add(z, 1, out=out, casting="unsafe")
        if case == "absolute out":
            return lambda: m.absolute(z, out=out)
        if case == "setitem basic":
            return lambda: out.__setitem__(Ellipsis, z)
        return lambda: out.__setitem__([1, 0], z)
    want = caught(run(np))
    assert caught(run(tp)) == want
    assert all(c is np.exceptions.ComplexWarning and m == COMPLEX_WARNING for c, m in want)
    if case in ("add out unsafe", "setitem basic"):
        out = tp.zeros(2)
        z = tp.asarray([1 + 2j, 3 - 4j])
        with warnings.catch_warnings():
            warnings.simplefilter("error", np.exceptions.ComplexWarning)
            with pytest.raises(np.exceptions.ComplexWarning):
                if case == "setitem basic":
                    out[...] = z
                else:
                    tp.add(z, 1, out=out, casting="unsafe")
        assert tp.asnumpy(out).tolist() == [0.0, 0.0]


@pytest.mark.parametrize("subscripts", ["ij", "ji", "ij->ji", "ii->i", "...i", "ii", "ij->j"])
def test_einsum_views_ignore_dtype(device, subscripts):
    """Where nothing is summed, NumPy's einsum returns a view of the operand and ignores
    dtype= and casting=; where it sums, dtype= is the result's."""
    a = np.arange(9.0).reshape(3, 3)
    t = tp.asarray(a)
    want = np.einsum(subscripts, a, dtype=np.float32, casting="unsafe")
    got = tp.einsum(subscripts, t, dtype=np.float32, casting="unsafe")
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(tp.asnumpy(got), want)
    if np.shares_memory(want, a):
        got[...] = -1  # a view: written through to the operand
        assert (tp.asnumpy(t) == -1).sum() == want.size


@pytest.mark.parametrize("dtype", [np.int8, np.bool_, np.float16, np.float32, np.complex64])
@pytest.mark.parametrize("shape", [(0, 0), (2, 0), (0, 3), (4, 0, 2)], ids=str)
def test_pinv_of_empty_matrices_keeps_the_dtype(device, dtype, shape):
    want = np.linalg.pinv(np.zeros(shape, dtype))
    got = tp.linalg.pinv(tp.zeros(shape, dtype=dtype))
    assert got.dtype == want.dtype and got.shape == want.shape


def test_results_in_c_order(device):
    """quantile with axis and several q, correlate with the longer second operand, lstsq's
    solution and cholesky's factor (batched or not) come back C-contiguous, as NumPy's."""
    x = np.arange(24.0).reshape(2, 3, 4)
    cases = [
        (np.quantile(x, [0.2, 0.5], axis=1), tp.quantile(tp.asarray(x), [0.2, 0.5], axis=1)),
        (np.percentile(x, [10, 90], axis=(0, 2)),
         tp.percentile(tp.asarray(x), [10, 90], axis=(0, 2))),
    ]
    for mode in ("valid", "same", "full"):
        for a, v in [([1.0, 2.0], [1.0, 2.0, 3.0]), ([1j, 2], [1, 2, 3j])]:
            cases.append((np.correlate(a, v, mode),
                          tp.correlate(tp.asarray(a), tp.asarray(v), mode)))
    rng = np.random.default_rng(7)
    m, b = rng.standard_normal((5, 3)), rng.standard_normal((5, 2))
    cases.append((np.linalg.lstsq(m, b)[0], tp.linalg.lstsq(tp.asarray(m), tp.asarray(b))[0]))
    spd = m.T @ m + np.eye(3)
    for s in (spd, np.stack([spd, 2 * spd])):
        for upper in (False, True):
            cases.append((np.linalg.cholesky(s, upper=upper),
                          tp.linalg.cholesky(tp.asarray(s), upper=upper)))
    for want, got in cases:
        assert got.flags.c_contiguous == want.flags.c_contiguous
        assert got.strides == want.strides
        np.testing.assert_allclose(tp.asnumpy(got), want, rtol=1e-12, atol=1e-12)


# --------------------------------------------------------------------------------------------
# errors and edge cases (issue 25, part 5)


def outcome(call):
    """(type, value) of what `call` returned, or (exception type, None) of what it raised."""
    try:
        r = call()
    except Exception as error:  # noqa: BLE001  (the type is what is compared)
        return type(error), None
    return type(r), r


def test_reshape_copy_argument(device):
    for m in (np, tp):
        a = m.arange(6)
        with pytest.raises(ValueError, match="strings are not allowed for 'copy' keyword"):
            a.reshape((2, 3), copy="str")
        with pytest.raises(ValueError, match="strings are not allowed for 'copy' keyword"):
            m.reshape(a, (2, 3), copy="yes")
    t = tp.arange(6)
    assert t.reshape((2, 3), copy=1).shape == (2, 3)
    with pytest.raises(ValueError, match="Unable to avoid creating a copy"):
        t.reshape((2, 3)).T.reshape(6, copy=False)


@pytest.mark.parametrize("k", [2**63, -2**63 - 5, 6, -6, 10**30])
def test_eye_with_a_diagonal_beyond_the_matrix(device, k):
    want = np.eye(5, 4, k)
    got = tp.eye(5, 4, k)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(tp.asnumpy(got), want)


@pytest.mark.parametrize("bins", [[0, 1.5, np.nan], [np.nan, 1, 0], [np.nan, np.nan],
                                  [-1.0, 0.0, np.nan, np.nan], [np.nan, 3.0, 3.0, 1.0]], ids=str)
@pytest.mark.parametrize("right", [False, True])
def test_digitize_with_nan_bins(device, bins, right):
    """NaN bins at the top count as larger than every number, as NumPy's monotonicity check
    and search order take them. (NaN between numbers passes NumPy's check too, but where x
    then lands depends on the order of a binary search's probes: not compared.)"""
    x = np.array([-1.0, 0.0, 1.0, 1.5, 2.0, np.nan])
    try:
        want = np.digitize(x, bins, right)
    except ValueError:
        with pytest.raises(ValueError, match=r"\[digitize\]"):
            tp.digitize(tp.asarray(x), tp.asarray(bins), right)
        return
    got = tp.digitize(tp.asarray(x), tp.asarray(bins), right)
    np.testing.assert_array_equal(tp.asnumpy(got), want)


@pytest.mark.parametrize("values", ["float array", "complex array", "float scalar", "int array",
                                    "bool array"])
def test_putmask_casts_arrays_safely(device, values):
    dtype = np.float64 if values == "complex array" else np.int64
    v = {"float array": np.array([1.5]), "complex array": np.array([1 + 1j]),
         "float scalar": 1.5, "int array": np.array([7, 8]),
         "bool array": np.array([True])}[values]
    mask = np.array([True, False, True])
    want = np.zeros(3, dtype)
    expected = outcome(lambda: np.putmask(want, mask, v))
    got = tp.zeros(3, dtype=dtype)
    result = outcome(lambda: tp.putmask(got, tp.asarray(mask),
                                        tp.asarray(v) if isinstance(v, np.ndarray) else v))
    assert result[0] is expected[0]
    np.testing.assert_array_equal(tp.asnumpy(got), want)


def test_flat_indices_of_bool_coordinates_and_huge_shapes(device):
    coords = (np.array([True, False]), np.array([1, 0]))
    np.testing.assert_array_equal(
        tp.asnumpy(tp.ravel_multi_index(tuple(tp.asarray(c) for c in coords), (2, 2))),
        np.ravel_multi_index(coords, (2, 2)))
    for got, want in zip(tp.unravel_index(tp.asarray([True, False]), (2, 2)),
                         np.unravel_index(np.array([True, False]), (2, 2))):
        np.testing.assert_array_equal(tp.asnumpy(got), want)
    with pytest.raises(ValueError, match="invalid dims"):
        np.ravel_multi_index((2**62, 0), (2**62 + 1, 4))
    with pytest.raises(ValueError, match=r"\[ravel_multi_index\] invalid dims"):
        tp.ravel_multi_index((2**62, 0), (2**62 + 1, 4))
    with pytest.raises(ValueError, match="dimensions are too large"):
        np.unravel_index(2**63 - 1, (2**32, 2**32))
    with pytest.raises(ValueError, match=r"\[unravel_index\] dimensions are too large"):
        tp.unravel_index(2**63 - 1, (2**32, 2**32))


@pytest.mark.parametrize("x", [[True, False, True], [[True, True, False]] * 2], ids=str)
def test_trapezoid_with_bool_coordinates(device, x):
    y = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]])
    want = np.trapezoid(y, x=np.array(x), axis=-1)
    got = tp.trapezoid(tp.asarray(y), x=tp.asarray(x), axis=-1)
    np.testing.assert_allclose(tp.asnumpy(got), want)


def test_tril_and_triu_indices_from_refuse_n_d_input(device):
    for name in ("tril_indices_from", "triu_indices_from"):
        with pytest.raises(ValueError):
            getattr(np, name)(np.zeros((2, 2, 2)))
        with pytest.raises(ValueError, match=rf"\[{name}\] input array must be 2-d"):
            getattr(tp, name)(tp.zeros((2, 2, 2)))


# --------------------------------------------------------------------------------------------
# dtype rules and errors left over from issue 25 (parts 3 and 5)


@pytest.mark.parametrize("bins", [2, 3, "int_edges", "float32_edges"])
@pytest.mark.parametrize("dtype", [np.int64, np.int8, np.bool_, np.float32])
def test_histogram2d_and_histogramdd_edges(device, dtype, bins):
    """Counts are float64; edges computed from a number of bins are float64 for integer and
    bool samples and keep a float sample's dtype; edges given keep theirs, as NumPy's."""
    x = np.array([1, 2, 3, 4, 4, 0]).astype(dtype)
    y = np.array([4, 3, 2, 1, 0, 0]).astype(dtype)
    edges = {"int_edges": [np.array([0, 2, 5]), np.array([0, 3, 5])],
             "float32_edges": [np.array([0, 2.5, 5], np.float32)] * 2}.get(bins, bins)
    t_edges = [tp.asarray(e) for e in edges] if isinstance(edges, list) else edges
    tx, ty = tp.asarray(x), tp.asarray(y)
    want = np.histogram2d(x, y, bins=edges)
    got = tp.histogram2d(tx, ty, bins=t_edges)
    for g, w in zip(got, want):
        assert_same(g, w)
    sample = np.stack([x, y], axis=1)
    want_h, want_edges = np.histogramdd(sample, bins=edges)
    got_h, got_edges = tp.histogramdd(tp.stack([tx, ty], axis=1), bins=t_edges)
    assert_same(got_h, want_h)
    for g, w in zip(got_edges, want_edges):
        assert_same(g, w)


def warnings_of(call, fp_errors):
    """(category, message) of each warning `call` gives, in order; without the floating-point
    ones where the device reports none (CUDA)."""
    found = caught(call)
    if fp_errors:
        return found
    return [(c, m) for c, m in found
            if not m.startswith(("invalid value", "divide by zero", "overflow"))]


COV_CASES = {
    "no_observations_1d": (lambda m: m.zeros(0), {}),
    "no_observations_2d": (lambda m: m.zeros((2, 0)), {}),
    "no_variables": (lambda m: m.zeros((0, 2)), {}),
    "no_variables_complex": (lambda m: m.zeros((0, 3), dtype=np.complex64), {}),
    "no_variables_float32_dtype": (lambda m: m.zeros((0, 3)), {"dtype": np.float32}),
    "no_observations_int": (lambda m: m.zeros((3, 0), dtype=np.int16), {}),
    "no_observations_float32": (lambda m: m.zeros((2, 0), dtype=np.float32), {}),
    "no_observations_complex": (lambda m: m.zeros((2, 0), dtype=np.complex64), {}),
    "no_observations_columns": (lambda m: m.zeros((0, 3)), {"rowvar": False}),
    "one_observation": (lambda m: m.ones((2, 1)), {}),
    "ddof_beyond_observations": (lambda m: m.arange(6.0).reshape(2, 3), {"ddof": 5}),
    "bias": (lambda m: m.zeros((2, 0)), {"bias": True}),
}


@pytest.mark.parametrize("case", list(COV_CASES))
def test_cov_of_empty_input(device, case):
    """NumPy's values and dtype (a (0, 0) float64 array without variables, NaN without
    observations) and its warnings in its order: the empty mean, the degrees of freedom,
    then the floating-point ones of scaling by 1 / 0."""
    make, kwargs = COV_CASES[case]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.cov(make(np), **kwargs)
        assert_same(tp.cov(make(tp), **kwargs), want)
    fp_errors = reports_fp_errors(device)
    assert (warnings_of(lambda: tp.cov(make(tp), **kwargs), fp_errors)
            == warnings_of(lambda: np.cov(make(np), **kwargs), fp_errors))


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, np.int16, np.bool_])
@pytest.mark.parametrize("shape", [(0, 0), (3, 0), (0, 2), (2, 0, 3)], ids=str)
def test_pinv_of_empty_integer_matrices(device, dtype, shape):
    want = np.linalg.pinv(np.zeros(shape, dtype))
    assert_same(tp.linalg.pinv(tp.zeros(shape, dtype=dtype)), want)


@pytest.mark.parametrize("name", ["quantile", "percentile", "nanquantile", "nanpercentile"])
def test_quantiles_of_n_d_q(device, name):
    """NumPy computes 2-d q (q's shape first in the result) and refuses 3-d and more with a
    ValueError, with or without axis."""
    scale = 100 if "percentile" in name else 1
    a = np.arange(12.0).reshape(3, 4)
    t = tp.asarray(a)
    q2 = np.array([[0.1, 0.5], [0.9, 1.0]]) * scale
    for axis in (None, 1):
        want = getattr(np, name)(a, q2, axis=axis)
        got = getattr(tp, name)(t, q2, axis=axis)
        assert got.shape == want.shape
        np.testing.assert_allclose(tp.asnumpy(got), want, rtol=1e-12)
        for q in (q2[None], np.full((1, 1, 1, 1), 0.5 * scale)):
            with pytest.raises(ValueError, match="q must be a scalar or 1d"):
                getattr(np, name)(a, q, axis=axis)
            with pytest.raises(ValueError, match=rf"^\[{name}\] q must be a scalar or 1d"):
                getattr(tp, name)(t, q, axis=axis)


@pytest.mark.parametrize("shape", [(), (3,), (2, 2, 2), (1, 2, 2, 1)], ids=str)
def test_tril_and_triu_indices_from_refuse_other_than_2_d(device, shape):
    for name in ("tril_indices_from", "triu_indices_from"):
        with pytest.raises(ValueError, match="input array must be 2-d"):
            getattr(np, name)(np.zeros(shape))
        with pytest.raises(ValueError, match=rf"^\[{name}\] input array must be 2-d"):
            getattr(tp, name)(tp.zeros(shape))
