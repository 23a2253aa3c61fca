"""Discrete Fourier transforms: tessera.fft checked against numpy.fft (NumPy 2.4). fft, ifft,
rfft, irfft, hfft, ihfft, fft2, ifft2, rfft2, irfft2, fftn, ifftn, rfftn, irfftn, fftfreq,
rfftfreq, fftshift and ifftshift, with n, s, axis, axes, norm ("backward", "ortho", "forward",
None), out= and device=.

Inputs of every kind (bool, int32, int64, float16, float32, float64, complex64, complex128):
the result dtype is NumPy's exactly (complex64 for float16, float32 and complex64 input,
complex128 otherwise; the real results of irfft and hfft are float32 / float64, and float16 for
a float16 input to the 1-d irfft, hfft or a one-axis irfftn, which NumPy keeps). Lengths that
are powers of 2, primes (7, 13, 97) and composite odd and even sizes; n and s zero-padding and
truncating; every axis, negative ones included; repeated and empty axes, as NumPy defines them
(each entry of axes is one 1-d transform, done last to first); 3-d and 4-d arrays with subsets
of axes; memory layouts (transposed, strided, reversed, partial rows, broadcast) and pending
(lazy) inputs. Where NumPy raises (0-d input, n or s entries < 1, a bad norm, s and axes of
different lengths, an axis out of range, complex input to rfft, an out of the wrong shape or
dtype), tessera raises the same type or a subclass of it (AxisError for NumPy's IndexError),
with an "[api]" message prefix. Properties that need no oracle: inverse transforms undo the
forward ones, the same transform twice gives identical results (plan reuse), and views at other
alignments (x[1:]) and concurrent calls from several threads give NumPy's values.

NumPy 2.4's hfft, ifft2 and irfft2 ignore out= (they return a new array): their out= is not
tested. fftn's out= with a non-trivial s raises in NumPy, as documented; tessera is checked to
raise too. NumPy 2.4's irfft and hfft of a zero-length axis padded by n read uninitialized
memory: tessera's result is checked to be zeros there.

Tolerances: an FFT of N points has rounding errors of the order of eps * log2(N) relative to
the largest magnitude involved. Results are compared with rtol = TOL * log2(N) and atol = TOL *
log2(N) * max|NumPy's result| (N: the number of points in the input or the result, whichever is
larger, at least 2), TOL being the tolerance per unit of log2(N) of the result's precision, or
float16's for float16 input: NumPy computes the normalization factor (1/n, 1/sqrt(n)) of a
float16 input in float16 (result_type(float16, 1.0)), so its complex64 results are off by up to
2**-11 relatively, where a float32 factor is as right. Likewise a float32 input written to a
complex128 out= is held to single precision (NumPy computes it in double), and fftfreq with a
float32 d to float32's."""

import concurrent.futures
import math
import warnings

import numpy as np
import pytest

import tessera as tp

from conftest import sample
from oracle import compact_id, host_data_refused, make, message_of, public_type
from ufunc_oracle import dtype_id, outcome_like_numpy, raised_by

FFT = np.fft

# Tolerance per unit of log2(N), by the precision of the result (float16 results are computed
# in float32 by NumPy and rounded once: their error is the rounding, about 1e-3 relative).
TOL = {"float16": 1e-3, "float32": 4e-6, "complex64": 4e-6, "float64": 1e-14,
       "complex128": 1e-14}

ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
TWO_D = ["fft2", "ifft2", "rfft2", "irfft2"]
N_D = ["fftn", "ifftn", "rfftn", "irfftn"]
TRANSFORMS = ONE_D + TWO_D + N_D
SHIFTS = ["fftshift", "ifftshift"]
FREQS = ["fftfreq", "rfftfreq"]
NAMES = TRANSFORMS + FREQS + SHIFTS

NORMS = [None, "backward", "ortho", "forward"]
DTYPES = [np.bool_, np.int32, np.int64, np.float16, np.float32, np.float64, np.complex64,
          np.complex128]
# Transforms of real input (complex input: TypeError in NumPy); the others take any input.
REAL_INPUT = {"rfft", "ihfft", "rfft2", "rfftn"}


def input_dtypes(name):
    """The single- and double-precision input dtypes a transform is tested with."""
    return [np.float32, np.float64] if name in REAL_INPUT else [np.complex64, np.complex128]


# --------------------------------------------------------------------------------------------
# comparisons


def as_wide(x):
    x = np.asarray(x)
    return x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)


def magnitude(x):
    """The largest finite |x| (0 for none)."""
    x = np.abs(as_wide(x))
    finite = x[np.isfinite(x)]
    return float(finite.max()) if finite.size else 0.0


def tolerance(dtype, points):
    return TOL[np.dtype(dtype).name] * max(1.0, math.log2(max(points, 2)))


def meta(got, expected, what="result"):
    """tessera's `got` as a NumPy array, after checking that it is a tessera array with
    NumPy's dtype and shape."""
    __tracebackhide__ = True
    assert isinstance(got, tp.ndarray), \
        f"{what}: expected tessera.ndarray, got {type(got).__name__}"
    g, e = tp.asnumpy(got), np.asarray(expected)
    assert (g.dtype, g.shape) == (e.dtype, e.shape), \
        f"{what}: dtype/shape {g.dtype}{g.shape} != {e.dtype}{e.shape}"
    return g


def close(g, e, points, what="result", scale=None, precision=None):
    """NumPy arrays g and e equal within tolerance(precision, points) (precision: e's dtype by
    default), relative and times the largest |e| (or `scale`) absolute; exactly for integer
    and boolean dtypes."""
    __tracebackhide__ = True
    e = np.asarray(e)
    if e.dtype.kind not in "fc":
        assert np.array_equal(g, e), f"{what}: values differ:\n{g}\n!=\n{e}"
        return
    tol = tolerance(e.dtype if precision is None else precision, points)
    scale = (magnitude(e) or 1.0) if scale is None else scale
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(as_wide(g), as_wide(e), rtol=tol, atol=tol * scale,
                                   equal_nan=True, err_msg=what)


def values(*inputs, precision=None):
    """The check of a transform's result: NumPy's dtype, shape and values (within the
    tolerance of N = the largest size of the inputs and the result, in the precision of the
    result, or `precision`; float16's for float16 input, whose normalization factor NumPy
    rounds to float16 even for a complex64 result)."""
    half = any(np.asarray(x).dtype == np.float16 for x in inputs)
    if precision is None and half:
        precision = np.float16

    def check(got, expected):
        __tracebackhide__ = True
        g = meta(got, expected)
        points = max([np.size(x) for x in inputs] + [np.size(expected)])
        close(g, expected, points, precision=precision)
    return check


def exact(got, expected):
    """The check of a rearrangement (fftshift): NumPy's dtype, shape and values exactly."""
    __tracebackhide__ = True
    g = meta(got, expected)
    e = np.asarray(expected)
    assert np.array_equal(g, e, equal_nan=e.dtype.kind in "fc"), f"values differ:\n{g}\n!=\n{e}"


def raises_same(error, tp_call):
    """tp_call raises the type of NumPy's `error` or a subclass of it (AxisError, an IndexError
    and a ValueError, will do for NumPy's IndexError), with a message prefixed "[api]"."""
    __tracebackhide__ = True
    got = raised_by(tp_call, error)
    expected = public_type(error)
    assert isinstance(got, expected), (f"NumPy raises {type(error).__name__}({error}), tessera "
                                       f"raises {type(got).__name__}({got})")
    assert message_of(got).startswith("["), f"message lacks the API prefix: {message_of(got)!r}"


def to_tp(x):
    return tp.asarray(x) if isinstance(x, np.ndarray) else x


def run(name, x, *args, tx=None, tkw=None, check=None, **kwargs):
    """numpy.fft.<name>(x, *args, **kwargs) against tessera.fft.<name> of the same arguments,
    NumPy arrays given as tessera arrays (tx: tessera's first argument, for views built the
    same way; tkw: keywords overridden for tessera, such as out=): check(got, expected) on
    NumPy's result (values(x) by default), or where NumPy raises, the same exception type. A
    failure names the case from the calling test's local variables. Returns tessera's
    result (None after an error)."""
    __tracebackhide__ = True
    tx = to_tp(x) if tx is None else tx
    targs = tuple(to_tp(a) for a in args)
    tkwargs = {k: to_tp(v) for k, v in kwargs.items()}
    tkwargs.update(tkw or {})
    return outcome_like_numpy(lambda: getattr(FFT, name)(x, *args, **kwargs),
                              lambda: getattr(tp.fft, name)(tx, *targs, **tkwargs),
                              check or values(x), raises_same)


def run_host(name, x, *args, check=None, **kwargs):
    """run() for NumPy data `x` (a list) given to tessera as it is: converted as NumPy
    converts it on the CPU, refused on a device that refuses host data (CUDA); and given as
    tessera.asarray(x), checked against NumPy's result for `x` on every device."""
    __tracebackhide__ = True
    if not host_data_refused(lambda: getattr(tp.fft, name)(x, *args, **kwargs)):
        run(name, x, *args, tx=x, check=check, **kwargs)
    run(name, x, *args, tx=tp.asarray(x), check=check, **kwargs)


def signal(shape, dtype, seed=0):
    """sample() data as an ndarray (0-d included): integers within +-100, booleans, values of
    about 10 with imaginary parts of about 1 for complex dtypes."""
    return np.asarray(sample(shape, dtype, seed))


def tp_fft(name):
    """tessera.fft.<name> (AttributeError, naming it, when missing)."""
    return getattr(tp.fft, name)


# --------------------------------------------------------------------------------------------
# names


def test_function_names(device):
    fft = getattr(tp, "fft", None)
    assert fft is not None, "tessera.fft is missing"
    missing = [name for name in NAMES if not callable(getattr(fft, name, None))]
    assert not missing, f"tessera.fft lacks {missing}"


# --------------------------------------------------------------------------------------------
# dtypes


# Shapes each group is tested on: 1-d and along the last axis of 2-d; N-d over all axes.
DTYPE_SHAPES = {**{f: [(10,), (3, 9)] for f in ONE_D}, **{f: [(3, 10), (4, 7)] for f in TWO_D},
                **{f: [(9,), (3, 10)] for f in N_D}}


@pytest.mark.parametrize("dtype", DTYPES, ids=dtype_id)
@pytest.mark.parametrize("name", TRANSFORMS)
def test_dtypes(device, name, dtype):
    """Every input kind: NumPy's result dtype (complex64 / float32 for single precision and
    float16 input, float16 kept by the 1-d inverse real transforms, complex128 / float64
    otherwise), shape and values; TypeError for complex input to the real transforms."""
    for shape in DTYPE_SHAPES[name]:
        x = signal(shape, dtype)
        run(name, x)


# --------------------------------------------------------------------------------------------
# 1-d transforms: lengths, n, axis


LENGTHS = [1, 2, 4, 8, 64, 256, 7, 13, 97, 9, 15, 45, 105, 12, 100, 1000]


@pytest.mark.parametrize("length", LENGTHS)
@pytest.mark.parametrize("name", ONE_D)
def test_lengths(device, name, length):
    """Powers of 2, primes and composite sizes (odd and even) of the transformed axis, in
    single and double precision, 1-d and along the last axis of a 2-d array; irfft and hfft
    of one point ask for n = 0 (ValueError)."""
    for dtype in input_dtypes(name):
        for shape in [(length,), (3, length)]:
            x = signal(shape, dtype, seed=length)
            run(name, x)


N_VALUES = [None, 1, 2, 3, 5, 7, 8, 9, 13, 16, 17]


@pytest.mark.parametrize("name", ONE_D)
def test_n(device, name):
    """n smaller than the axis (truncation), equal and larger (zero padding), odd and even,
    for axes of odd and even length, along the last and the first axis; a NumPy integer n."""
    for dtype in input_dtypes(name):
        for length in (8, 7):
            for axis in (-1, 0):
                x = signal((length, 3) if axis == 0 else (3, length), dtype, seed=length)
                for n in N_VALUES:
                    run(name, x, n=n, axis=axis)
        x = signal((6,), dtype)
        n = np.int64(5)
        run(name, x, n=n)
        run(name, x, np.int64(9), np.int64(0))  # n and axis positionally


@pytest.mark.parametrize("name", ONE_D)
def test_axis(device, name):
    """Every axis of 3-d and 4-d arrays, negative ones too, with and without n."""
    for dtype in input_dtypes(name):
        for shape in [(3, 4, 5), (2, 3, 4, 5)]:
            x = signal(shape, dtype)
            for axis in range(-len(shape), len(shape)):
                for n in (None, 6):
                    run(name, x, n=n, axis=axis)


@pytest.mark.parametrize("name", ONE_D)
def test_errors_1d(device, name):
    """NumPy's exception types: n of 0, negative or not an integer; a bad norm; an axis out of
    range; 0-d input (IndexError); an empty transformed axis without n (ValueError), with n
    (zero padding) it transforms; empty other axes give empty results."""
    dtype = input_dtypes(name)[1]
    x = signal((3, 8), dtype)
    for n in (0, -1, -8, 2.0):
        run(name, x, n=n)
    for norm in ("bad", "Ortho", "", 1):
        run(name, x, norm=norm)
    for axis in (2, -3, 5, 1.0):
        run(name, x, axis=axis)
    run(name, signal((), dtype))
    empty = signal((0, 4), dtype)
    for axis, n in [(0, None), (0, 6), (1, None), (1, 6), (-1, 3)]:
        padded = axis == 0 and n is not None and name in ("irfft", "hfft")
        run(name, empty, n=n, axis=axis, check=zeros if padded else None)


def zeros(got, expected):
    """The check of an inverse real transform of a zero-length axis padded to n points:
    NumPy's dtype and shape, and zeros (NumPy 2.4's irfft and hfft read uninitialized memory
    there: its values are not an oracle)."""
    __tracebackhide__ = True
    g = meta(got, expected)
    assert np.all(g == 0), f"the transform of zero padding is not zero:\n{g}"


def test_irfft_lengths(device):
    """irfft's output length: 2 (m - 1) by default (even); odd and even n take the last input
    point as Nyquist or not; irfft(rfft(x), n=len(x)) is x for odd and even lengths."""
    for dtype in (np.complex64, np.complex128):
        for m in (1, 2, 5, 6, 9):
            x = signal((m,), dtype, seed=m)
            for n in (None, 2 * m - 2, 2 * m - 1, m, m + 1, 1, 2):
                run("irfft", x, n=n)
    for dtype in (np.float32, np.float64):
        for length in (1, 2, 7, 8, 13, 16, 97, 100):
            x = signal((length,), dtype, seed=length)
            back = tp.fft.irfft(tp.fft.rfft(tp.asarray(x)), n=length)
            close(meta(back, x), x, length, "irfft(rfft(x), n=len(x))")


def test_hfft_roundtrip(device):
    """hfft(ihfft(x), n=len(x)) is the real x, and ihfft(hfft(a, n), n) is a when a is the
    half spectrum of a real signal, for odd and even n; dtypes kept in single precision."""
    for dtype in (np.float32, np.float64):
        for length in (1, 2, 7, 8, 13, 16, 97, 100):
            x = signal((length,), dtype, seed=length)
            half = tp.fft.ihfft(tp.asarray(x))
            back = tp.fft.hfft(half, n=length)
            close(meta(back, x), x, length, "hfft(ihfft(x), n=len(x))")
            a = FFT.ihfft(x)
            again = tp.fft.ihfft(tp.fft.hfft(tp.asarray(a), n=length), n=length)
            close(meta(again, a), a, length, "ihfft(hfft(a, n), n)")
    for n in (None, 7, 8):  # hfft on its own: NumPy's values
        run("hfft", signal((5,), np.complex128), n=n)
        run("ihfft", signal((8,), np.float64), n=n)


# --------------------------------------------------------------------------------------------
# norm


@pytest.mark.parametrize("norm", NORMS, ids=str)
@pytest.mark.parametrize("name", TRANSFORMS)
def test_norm(device, name, norm):
    """Each normalization ("backward" and None: none forward, 1/n inverse; "ortho":
    1/sqrt(n) both ways; "forward": 1/n forward), with the scale taken from the transform's
    length n (or s) when it pads or truncates."""
    for dtype in input_dtypes(name):
        if name in ONE_D:
            x = signal((3, 10), dtype)
            for n in (None, 7, 16):
                run(name, x, n=n, norm=norm)
        else:
            x = signal((2, 6, 5), dtype)
            run(name, x, norm=norm)
            run(name, x, s=(4, 9), axes=(0, 2), norm=norm)


# --------------------------------------------------------------------------------------------
# 2-d and n-d transforms: s, axes


TWO_D_CASES = {  # (shape, keywords)
    "2d": ((6, 5), {}),
    "stacked": ((2, 4, 6), {}),
    "axes-0-1": ((4, 5, 3), {"axes": (0, 1)}),
    "axes-swapped": ((4, 6), {"axes": (1, 0)}),
    "axes-negative": ((3, 4, 5), {"axes": (-1, -3)}),
    "s-pad-trunc": ((6, 5), {"s": (8, 3)}),
    "s-odd": ((4, 6), {"s": (3, 7)}),
    "s-axes": ((3, 4, 5), {"s": (6, 4), "axes": (2, 0)}),
    "s-minus-one": ((4, 6), {"s": (-1, 5)}),
    "three-axes": ((4, 6), {"axes": (0, 1, 1)}),
    "1d-input": ((8,), {}),
    "s-length-mismatch": ((4, 6), {"s": (4,)}),
    "s-zero": ((4, 6), {"s": (0, 6)}),
    "axis-out-of-range": ((4, 6), {"axes": (0, 2)}),
    "empty-batch": ((0, 4, 6), {}),
    "empty-axis": ((0, 6), {}),
    "empty-axis-padded": ((0, 6), {"s": (3, 6)}),
}


@pytest.mark.parametrize("case", list(TWO_D_CASES))
@pytest.mark.parametrize("name", TWO_D)
def test_2d(device, name, case):
    """fft2 and friends over their default axes (-2, -1) or given ones (swapped, negative,
    three of them), with s padding and truncating (-1: the axis' own length); NumPy's errors
    for 1-d input (IndexError), s of the wrong length, s entries < 1, empty axes, axes out of
    range."""
    shape, kwargs = TWO_D_CASES[case]
    for dtype in input_dtypes(name):
        x = signal(shape, dtype)
        run(name, x, **kwargs)


ND_CASES = {  # (shape, s, axes)
    "3d": ((3, 4, 5), None, None),
    "4d": ((2, 3, 4, 5), None, None),
    "1d": ((9,), None, None),
    "last-two": ((3, 4, 5), None, (1, 2)),
    "first-last": ((3, 4, 5), None, (0, 2)),
    "reversed": ((3, 4, 5), None, (2, 0)),
    "negative": ((2, 3, 4, 5), None, (-1, -3)),
    "one-axis": ((3, 4, 5), None, (1,)),
    "first-axis": ((3, 4, 5), None, (0,)),
    "4d-three-axes": ((2, 3, 4, 5), None, (0, 1, 3)),
    "4d-permuted": ((2, 3, 4, 5), None, (3, 1, 0, 2)),
    "s-pad": ((3, 4, 5), (6, 8), (0, 2)),
    "s-truncate": ((3, 4, 5), (2, 3), (1, 2)),
    "s-mixed": ((3, 4, 5), (5, 4, 7), (0, 1, 2)),
    "s-odd-last": ((3, 4, 6), (3, 4, 7), (0, 1, 2)),
    "s-minus-one": ((3, 4, 5), (-1, 6), (0, 2)),
    "4d-s": ((2, 3, 4, 5), (3, 2, 6), (1, 2, 3)),
    "repeated": ((3, 4, 5), None, (1, 1)),
    "repeated-first": ((4, 6), None, (0, 0)),
    "repeated-s": ((3, 4, 5), (3, 7), (2, 2)),
    "repeated-mixed": ((3, 4, 5), None, (0, 2, 0)),
    "empty-axes": ((3, 4), None, ()),
    "empty-axes-s": ((3, 4), (), ()),
    "s-length-mismatch": ((3, 4, 5), (4,), (0, 1)),
    "s-too-long": ((3, 4), (2, 3, 4), None),
    "s-zero": ((3, 4, 5), (0, 4), (0, 1)),
    "s-negative": ((3, 4, 5), (4, -2), (0, 1)),
    "axis-out-of-range": ((3, 4, 5), None, (0, 3)),
    "axis-negative-out-of-range": ((3, 4, 5), None, (-4,)),
    "empty-batch": ((0, 4, 5), None, (1, 2)),
    "empty-transformed": ((0, 4, 5), None, None),
    "empty-padded": ((0, 4), (3, 4), (0, 1)),
}


@pytest.mark.parametrize("case", list(ND_CASES))
@pytest.mark.parametrize("name", N_D)
def test_nd(device, name, case):
    """fftn and friends over all axes or subsets of 3-d and 4-d arrays (in any order,
    negative), with s padding, truncating, odd and even (-1: the axis' own length); repeated
    axes (one 1-d transform per entry, last to first), empty axes=() (fftn and ifftn return
    the input; rfftn and irfftn raise IndexError); NumPy's errors for s and axes of different
    lengths, s entries < 1, axes out of range, empty transformed axes."""
    shape, s, axes = ND_CASES[case]
    for dtype in input_dtypes(name):
        x = signal(shape, dtype)
        if s is None or axes is not None:
            run(name, x, s=s, axes=axes)
        else:  # s without axes: deprecated (test_s_deprecated), the values still NumPy's
            run(name, x, s=s)


@pytest.mark.parametrize("name", TWO_D + N_D)
def test_s_deprecated(device, name):
    """The forms of s NumPy 2 deprecates still work, with a DeprecationWarning: s without
    axes (the last len(s) axes), and None entries in s (the axis' default length)."""
    x = signal((4, 6), input_dtypes(name)[1])
    for s, axes in [((3, 5), None), ((None, 5), (0, 1)), ((3, None), (0, 1))]:
        if name in TWO_D and axes is None:
            continue  # fft2's axes default to (-2, -1): not deprecated
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = getattr(FFT, name)(x, s=s, axes=axes)
        with pytest.warns(DeprecationWarning):
            got = tp_fft(name)(tp.asarray(x), s=s, axes=axes)
        values(x)(got, expected)


# --------------------------------------------------------------------------------------------
# layouts and pending inputs


LAYOUTS = ["fortran", "strided", "negative", "partial", "leading", "transposed_negative",
           "broadcast"]
LAYOUT_NAMES = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "rfftn", "irfftn",
                "ifftn"]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("name", LAYOUT_NAMES)
def test_layouts(device, name, layout):
    """Non-contiguous inputs (transposed, every axis stepped by 2, reversed (negative strides),
    rows cut short, the leading axis stepped, transposed and reversed, broadcast with a zero
    stride), transformed along each axis and over all of them."""
    for dtype in input_dtypes(name):
        _, _, x, tx = make((6, 7), dtype, layout)
        if name in ONE_D:
            for axis in (0, 1):
                for n in (None, 8):
                    run(name, x, tx=tx, n=n, axis=axis)
        else:
            run(name, x, tx=tx)
            run(name, x, tx=tx, axes=(1, 0))
            _, _, x3, tx3 = make((3, 4, 5), dtype, layout)
            run(name, x3, tx=tx3, axes=(0, 2))


@pytest.mark.parametrize("name", ["fft", "rfft", "irfft", "fftn", "irfftn"])
def test_pending_input(device, name):
    """Inputs that are pending elementwise results (lazy evaluation) are computed first."""
    for dtype in input_dtypes(name):
        x = signal((5, 8), dtype)
        tx = tp.asarray(x) * 2 + 1
        run(name, x * 2 + 1, tx=tx)
        run(name, (x * 2 + 1).T, tx=tx.T)


def test_list_input(device):
    """Python sequences are converted as NumPy converts them (int lists: complex128) on the
    CPU and refused on CUDA; given as tessera.asarray of them, NumPy's results everywhere."""
    cases = [("fft", [1, 2, 3]), ("ifft", [1j, 2, 3.5, 0]), ("rfft", [1.0, 2.0, 3.0, 4.0]),
             ("irfft", [1, 2j, 3]), ("fftn", [[1, 2], [3, 4]]), ("rfft2", [[1, 2, 3], [4, 5, 6]]),
             ("hfft", [1, 2 - 1j, 3]), ("ihfft", [True, False, True])]
    for name, x in cases:
        run_host(name, x)


def test_zero_d(device):
    """0-d input: NumPy's IndexError for the 1-d, 2-d and real n-d transforms; fftn and ifftn
    of no axes return the input (float64 kept); fftshift raises ValueError."""
    for name in TRANSFORMS + SHIFTS:
        for dtype in (np.float64, np.complex128):
            x = signal((), dtype)
            run(name, x, check=exact if name in SHIFTS else None)


# --------------------------------------------------------------------------------------------
# out=


OUT_CASES = {  # (name, input shape, input dtype, keywords, out shape, out dtype)
    "fft": ("fft", (8,), np.complex128, {}, (8,), np.complex128),
    "fft-padded": ("fft", (5,), np.float64, {"n": 8}, (8,), np.complex128),
    "fft-truncated": ("fft", (8,), np.complex128, {"n": 3}, (3,), np.complex128),
    "fft-axis0": ("fft", (4, 6), np.complex128, {"axis": 0}, (4, 6), np.complex128),
    "fft-to-complex64": ("fft", (8,), np.float64, {}, (8,), np.complex64),
    "fft-float32-to-complex128": ("fft", (8,), np.float32, {}, (8,), np.complex128),
    "fft-float16": ("fft", (8,), np.float16, {}, (8,), np.complex64),
    "ifft-ortho": ("ifft", (3, 7), np.complex64, {"norm": "ortho"}, (3, 7), np.complex64),
    "fft-wrong-length": ("fft", (8,), np.complex128, {}, (7,), np.complex128),
    "fft-wrong-ndim": ("fft", (8,), np.complex128, {}, (1, 8), np.complex128),
    "fft-padded-wrong": ("fft", (5,), np.complex128, {"n": 8}, (5,), np.complex128),
    "fft-real-out": ("fft", (8,), np.float64, {}, (8,), np.float64),
    "fft-int-out": ("fft", (8,), np.int64, {}, (8,), np.int64),
    "rfft": ("rfft", (8,), np.float64, {}, (5,), np.complex128),
    "rfft-odd": ("rfft", (3, 9), np.float32, {}, (3, 5), np.complex64),
    "rfft-wrong": ("rfft", (8,), np.float64, {}, (8,), np.complex128),
    "irfft": ("irfft", (5,), np.complex128, {}, (8,), np.float64),
    "irfft-odd-n": ("irfft", (5,), np.complex128, {"n": 9}, (9,), np.float64),
    "irfft-complex-out": ("irfft", (5,), np.complex128, {}, (8,), np.complex128),
    "irfft-int-out": ("irfft", (5,), np.complex128, {}, (8,), np.int64),
    "irfft-wrong": ("irfft", (5,), np.complex128, {}, (5,), np.float64),
    "ihfft": ("ihfft", (8,), np.float64, {}, (5,), np.complex128),
    "fftn": ("fftn", (4, 6), np.complex128, {}, (4, 6), np.complex128),
    "fftn-axes": ("fftn", (3, 4, 5), np.float64, {"axes": (0, 2)}, (3, 4, 5), np.complex128),
    "ifftn": ("ifftn", (4, 6), np.complex64, {}, (4, 6), np.complex64),
    "fft2": ("fft2", (3, 4, 6), np.complex128, {"axes": (0, 2)}, (3, 4, 6), np.complex128),
    "rfftn": ("rfftn", (4, 6), np.float64, {}, (4, 4), np.complex128),
    "rfft2": ("rfft2", (4, 7), np.float32, {}, (4, 4), np.complex64),
    "irfftn": ("irfftn", (4, 4), np.complex128, {"s": (4, 6), "axes": (0, 1)}, (4, 6),
               np.float64),
    "fftn-wrong-shape": ("fftn", (4, 6), np.complex128, {}, (4, 5), np.complex128),
    "fftn-nontrivial-s": ("fftn", (4, 6), np.complex128, {"s": (3, 5), "axes": (0, 1)},
                          (3, 5), np.complex128),
}


@pytest.mark.parametrize("case", list(OUT_CASES))
def test_out(device, case):
    """The result lands in out (cast to its dtype, same_kind) and out is returned; ValueError
    for an out of the wrong shape, TypeError for one the result cannot be cast to (complex to
    real or integer, real to integer); fftn's out is used for every axis' transform, so
    only a trivial s works (ValueError otherwise, as NumPy documents)."""
    name, shape, dtype, kwargs, out_shape, out_dtype = OUT_CASES[case]
    x = signal(shape, dtype)
    nout, tout = np.zeros(out_shape, out_dtype), tp.zeros(out_shape, dtype=np.dtype(out_dtype))
    # NumPy computes in out's precision when it is the higher (float32 input, complex128 out);
    # the transform's own precision, then a cast, is as right.
    natural = getattr(FFT, name)(np.ones(shape, dtype)).dtype
    precision = min((natural, np.dtype(out_dtype)),
                    key=lambda d: np.finfo(d).precision if d.kind in "fc" else 99)
    got = run(name, x, out=nout, tkw={"out": tout}, check=values(x, precision=precision),
              **kwargs)
    if got is not None:
        assert got is tout, f"{name}(out=) did not return out"


def test_out_views(device):
    """out as a strided view (written through to its base, the gaps untouched) and as a
    transposed (Fortran-ordered) array; the input itself as out (in place)."""
    x = signal((8,), np.complex128)
    base = tp.zeros((16,), dtype=np.dtype(np.complex128))
    got = tp.fft.fft(tp.asarray(x), out=base[::2])
    values(x)(got, FFT.fft(x))
    close(tp.asnumpy(base)[::2], FFT.fft(x), 8, "out's base")
    assert np.all(tp.asnumpy(base)[1::2] == 0), "fft(out=view) wrote outside the view"

    x2 = signal((4, 6), np.complex128)
    tout = tp.zeros((6, 4), dtype=np.dtype(np.complex128)).T
    got = tp.fft.fft(tp.asarray(x2), out=tout)
    assert got is tout
    values(x2)(tout, FFT.fft(x2))

    for name, kwargs in [("fft", {}), ("ifft", {"norm": "ortho"}), ("fft", {"axis": 0}),
                         ("fftn", {}), ("ifftn", {"axes": (1, 0)}), ("fft2", {})]:
        tx = tp.array(x2)  # a copy (tp.asarray would share x2's memory)
        got = tp_fft(name)(tx, out=tx, **kwargs)
        assert got is tx, f"{name}(x, out=x) did not return x"
        values(x2)(tx, getattr(FFT, name)(x2, **kwargs))


# --------------------------------------------------------------------------------------------
# properties: round trips, large transforms, plan reuse, alignment, threads


@pytest.mark.parametrize("norm", NORMS, ids=str)
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=dtype_id)
def test_roundtrip(device, dtype, norm):
    """The inverse of each transform, with the same norm, gives back its input: ifft(fft(x)),
    ifftn(fftn(x)) over subsets of axes, irfftn(rfftn(x), s) with odd and even last axes,
    irfft2(rfft2(x), s); the dtype kept in single precision."""
    real = np.float32 if dtype == np.complex64 else np.float64
    for length in (1, 7, 16, 97, 100):
        x = signal((2, length), dtype, seed=length)
        back = tp.fft.ifft(tp.fft.fft(tp.asarray(x), norm=norm), norm=norm)
        close(meta(back, x), x, length, f"ifft(fft(x)) of length {length}")
    x = signal((3, 4, 5), dtype)
    for axes in (None, (0, 2), (1,), (2, 0, 1)):
        back = tp.fft.ifftn(tp.fft.fftn(tp.asarray(x), axes=axes, norm=norm), axes=axes,
                            norm=norm)
        close(meta(back, x), x, x.size, f"ifftn(fftn(x, axes={axes}))")
    for shape in ((3, 4, 5), (3, 4, 6), (2, 3, 4, 5)):
        y = signal(shape, real)
        axes = tuple(range(len(shape)))
        back = tp.fft.irfftn(tp.fft.rfftn(tp.asarray(y), norm=norm), s=shape, axes=axes,
                             norm=norm)
        close(meta(back, y), y, y.size, f"irfftn(rfftn(y)) of shape {shape}")
        back = tp.fft.irfft2(tp.fft.rfft2(tp.asarray(y), norm=norm), s=shape[-2:], norm=norm)
        close(meta(back, y), y, y.size, f"irfft2(rfft2(y)) of shape {shape}")


LARGE_CASES = {  # (name, shape, dtype, keywords)
    "fft2-complex128": ("fft2", (512, 384), np.complex128, {}),
    "ifft2-complex128": ("ifft2", (512, 384), np.complex128, {"norm": "ortho"}),
    "fft2-complex64": ("fft2", (512, 384), np.complex64, {}),
    "rfft2-float64": ("rfft2", (512, 384), np.float64, {}),
    "irfft2-complex128": ("irfft2", (512, 193), np.complex128, {"s": (512, 384)}),
    "fftn-3d": ("fftn", (64, 48, 40), np.complex128, {}),
    "fft-long": ("fft", (1 << 16,), np.complex128, {}),
    "fft-long-prime": ("fft", (10007,), np.complex128, {}),
    "fft-batched-axis0": ("fft", (1024, 200), np.complex128, {"axis": 0}),
    "rfft-many-rows": ("rfft", (2000, 96), np.float32, {}),
}


@pytest.mark.parametrize("case", list(LARGE_CASES))
def test_large(device, case):
    """Large transforms (which FFTW may plan with several threads) match NumPy's: 512x384
    in single and double precision, a 3-d cube, long 1-d (power of 2 and prime), batches of
    many short rows or columns."""
    name, shape, dtype, kwargs = LARGE_CASES[case]
    x = signal(shape, dtype)
    run(name, x, **kwargs)


def test_plan_reuse(device):
    """The same transform twice gives identical results, and a cached plan computes new data
    (of the same shape and dtype) and other layouts right."""
    for name, dtype in [("fft", np.complex128), ("rfft", np.float32), ("irfft", np.complex64),
                        ("fft2", np.complex64), ("rfftn", np.float64)]:
        x = signal((12, 40), dtype)
        tx = tp.asarray(x)
        first, second = tp_fft(name)(tx), tp_fft(name)(tx)
        assert np.array_equal(tp.asnumpy(first), tp.asnumpy(second)), \
            f"{name} twice gives different results"
        run(name, x, tx=tx)
        y = signal((12, 40), dtype, seed=1)
        run(name, y)
        run(name, y[::-1], tx=tp.asarray(y)[::-1])
        run(name, x.T.copy().T, tx=tp.asarray(x.T.copy()).T)  # Fortran order


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128],
                         ids=dtype_id)
def test_alignment(device, dtype):
    """Views starting one element into their base (x[1:]: 4 or 8 or 16 bytes off the base's
    alignment) and rows at alternating alignments are transformed right, before and after
    the same transform of aligned data (a plan made for aligned data must not be used
    unaligned as if it were)."""
    names = ["rfft", "ihfft", "rfftn"] if np.dtype(dtype).kind == "f" else \
        ["fft", "ifft", "irfft", "hfft", "fftn"]
    for length in (16, 15, 64):
        base = signal((length + 1,), dtype, seed=length)
        tbase = tp.asarray(base)
        for name in names:
            run(name, base[:-1], tx=tbase[:-1])
            run(name, base[1:], tx=tbase[1:])
            run(name, base[:-1], tx=tbase[:-1])
    base = signal((9, 33), dtype)
    tbase = tp.asarray(base)
    for name in names:
        run(name, base[:, 1:], tx=tbase[:, 1:])
        run(name, base[1:, 1:], tx=tbase[1:, 1:])


def test_threads(device):
    """Transforms of several shapes called at once from four threads (planning and plan
    cache lookups concurrent with executions) give NumPy's results."""
    inputs = [signal(shape, np.complex128, seed=i) for i, shape in
              enumerate([(64, 48), (97,), (30, 31), (256,), (8, 8, 8), (1000,)])]
    expected = [FFT.fftn(x) for x in inputs]

    def work(i):
        out = []
        for _ in range(5):
            for j in range(len(inputs)):
                k = (i + j) % len(inputs)
                out.append((k, tp.asnumpy(tp.fft.fftn(tp.asarray(inputs[k])))))
        return out

    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(work, range(4)))
    for result in results:
        for k, got in result:
            assert got.dtype == expected[k].dtype and got.shape == expected[k].shape
            close(got, expected[k], inputs[k].size, f"fftn of input {k} from a thread")


# --------------------------------------------------------------------------------------------
# fftfreq, rfftfreq


@pytest.mark.parametrize("name", FREQS)
def test_freq(device, name):
    """The sample frequencies [0, 1, ..., -1] / (d n) (rfftfreq: the non-negative ones), as
    float64, for odd and even n and d a Python float or int or a NumPy float32; device=
    places the result."""
    for n in (1, 2, 5, 8, 9, 100, np.int64(6)):
        for d in (1.0, 0.1, 2, -0.5, np.float32(0.25)):
            # a float32 d: NumPy's 1 / (n d) is float32 or float64 by NEP 50's rules for
            # Python and NumPy scalars; either is as right
            precision = np.float32 if isinstance(d, np.float32) else None
            run(name, n, d=d, check=values(n, precision=precision))
    got = run(name, 7, 0.5, device="cpu", tkw={"device": device})
    assert got.device == device, f"{name}(device=) result on {got.device}, not {device}"
    got = run(name, 8)
    assert got.device == device, f"{name}() result on {got.device}, not the default {device}"


@pytest.mark.parametrize("name", FREQS)
def test_freq_errors(device, name):
    """NumPy's exceptions: n = 0 or d = 0 (ZeroDivisionError), negative n (ValueError; for
    rfftfreq, n = -1 gives an empty result), a non-integer n (ValueError)."""
    for n in (0, -1, -3, 5.0):
        run(name, n)
    run(name, 4, d=0)
    run(name, 4, d=0.0)


# --------------------------------------------------------------------------------------------
# fftshift, ifftshift


SHIFT_CASES = [((7,), None), ((8,), None), ((8,), 0), ((4, 5), None), ((4, 5), 0),
               ((4, 5), -1), ((4, 5), (0, 1)), ((4, 5), (1, 0)), ((4, 5), [1]), ((3, 4, 5), (0, 2)),
               ((3, 4, 5), -2), ((4, 5), (0, 0)), ((0, 3), None), ((1,), None),
               ((4, 5), 2), ((4, 5), (0, -3))]


@pytest.mark.parametrize("case", SHIFT_CASES, ids=compact_id)
@pytest.mark.parametrize("name", SHIFTS)
def test_shift(device, name, case):
    """fftshift and ifftshift of any dtype over all axes (axes=None), one (int, negative) or
    several (tuple, list, repeated: shifted twice): values exactly; IndexError for an axis out
    of range."""
    shape, axes = case
    for dtype in (np.bool_, np.int32, np.float16, np.float64, np.complex128):
        x = signal(shape, dtype)
        run(name, x, axes=axes, check=exact)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_shift_layouts(device, layout):
    """Shifts of non-contiguous inputs, over all axes and one."""
    for name in SHIFTS:
        _, _, x, tx = make((6, 7), np.float64, layout)
        run(name, x, tx=tx, check=exact)
        run(name, x, tx=tx, axes=1, check=exact)


def test_shift_roundtrip(device):
    """ifftshift undoes fftshift (and fftshift ifftshift) for odd and even lengths; a list
    input (refused on CUDA, as tessera.asarray of it); fftshift(fftfreq(n)) is the ascending
    frequencies."""
    for shape in ((5, 6), (7,), (8,), (2, 3, 4)):
        x = signal(shape, np.float64)
        exact(tp.fft.ifftshift(tp.fft.fftshift(tp.asarray(x))), x)
        exact(tp.fft.fftshift(tp.fft.ifftshift(tp.asarray(x), axes=0), axes=0), x)
    run_host("fftshift", [1, 2, 3, 4, 5], check=exact)
    run_host("ifftshift", [[1, 2], [3, 4]], axes=1, check=exact)
    for n in (8, 9):
        run("fftshift", FFT.fftfreq(n), tx=tp.fft.fftfreq(n), check=exact)
