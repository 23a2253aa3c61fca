"""Random sampling: tessera.random, its legacy module-level functions and RandomState, and the
Generator of default_rng, checked against NumPy's API (NumPy 2.4) and against the
distributions themselves (SciPy).

tessera's generator is counter-based (Philox4x32-10), so its values differ from NumPy's and
are never compared with them. What is compared with NumPy: the names, the dtype and shape of
every result (size None, int, tuple, 0 and empty; with size None NumPy gives a Python or
NumPy scalar, tessera a scalar or a 0-d tessera array: either is accepted, with NumPy's dtype),
the results that are not random (zero scales, p of 0 or 1, empty samples) and the exception
type on bad arguments, with an "[api]" message prefix.

The distributions are checked with 10^5 samples: Kolmogorov-Smirnov tests of the continuous
ones (uniform, normal, exponential, gamma below, at and above shape 1, beta), Pearson's
chi-square tests of the discrete ones (integers of every dtype, randint, poisson, binomial,
choice with and without p), the mean and variance within a few standard errors, every bit of
full-range integers, the 53 (24) bits of random floats, the uniformity of permutations, and
the bias of integers over ranges that are not powers of two. Every test uses a fixed seed,
so it is deterministic; the thresholds (p-values above 1e-4, 6 standard errors) are such that
a correct generator fails a test with a given seed essentially never.

Reproducibility: the same seed gives bitwise the same arrays (also from tessera.random.seed
for the legacy functions), different seeds and successive calls give different ones, and
the results do not depend on the number of threads (1, 2 or 3) that generate them, for small
and large (10^6) sizes: the counter-based stream must not depend on the split of the work."""

import contextlib

import numpy as np
import pytest
from scipy import stats

import tessera as tp

from conftest import assert_same
from oracle import assert_raises_like, compact_id

N = 100_000          # samples of the distribution tests
P_MIN = 1e-4         # smallest p-value accepted (with a fixed seed: a deterministic test)
Z_MAX = 6.0          # largest deviation accepted, in standard errors
SEED = 20240607
BIG = 1_000_003      # a large odd size, for the thread-independence tests

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]
P5 = [0.1, 0.2, 0.3, 0.4, 0.0]


# --------------------------------------------------------------------------------------------
# helpers


def gen(seed=SEED):
    return tp.random.default_rng(seed)


def values(result, shape=None):
    """result (a tessera array) as a NumPy array, checking its type (and shape)."""
    __tracebackhide__ = True
    assert isinstance(result, tp.ndarray), f"expected tessera.ndarray, got {type(result)}"
    got = tp.asnumpy(result)
    if shape is not None:
        assert got.shape == shape, f"shape {got.shape} != {shape}"
    return got


def as_int64(x, low=0):
    """Integer samples minus `low`, as int64 (uint64 samples beyond 2**63 included)."""
    x = np.asarray(x)
    if x.dtype == np.uint64:
        return (x - np.uint64(low)).astype(np.int64)
    return x.astype(np.int64) - low


def ks_pvalue(x, dist):
    return stats.kstest(np.asarray(x, dtype=np.float64).ravel(), dist.cdf).pvalue


def chisq_pvalue(x, dist):
    """Pearson's chi-square p-value of the integer samples x (int64) against the frozen SciPy
    discrete distribution `dist`: one bin per value seen, the tails added to the outer bins,
    neighbouring bins merged until each expects at least 20 samples."""
    x = np.asarray(x, dtype=np.int64).ravel()
    lo, hi = dist.support()
    assert x.min() >= lo and x.max() <= hi, \
        f"samples [{x.min()}, {x.max()}] outside the support [{lo}, {hi}]"
    ks = np.arange(x.min(), x.max() + 1)
    expected = dist.pmf(ks) * x.size
    expected[0] += dist.cdf(ks[0] - 1) * x.size
    expected[-1] += dist.sf(ks[-1]) * x.size
    observed = np.bincount(x - ks[0], minlength=ks.size)
    obs, exp, o_acc, e_acc = [], [], 0, 0.0
    for o, e in zip(observed, expected):
        o_acc, e_acc = o_acc + o, e_acc + e
        if e_acc >= 20:
            obs.append(o_acc)
            exp.append(e_acc)
            o_acc, e_acc = 0, 0.0
    if obs:
        obs[-1] += o_acc
        exp[-1] += e_acc
    assert len(obs) >= 2, "the test case has a single bin"
    exp = np.array(exp) * (sum(obs) / sum(exp))
    return stats.chisquare(obs, exp).pvalue


def uniform_pvalue(counts):
    """Chi-square p-value of counts that should be equal."""
    counts = np.asarray(counts)
    return stats.chisquare(counts, np.full(counts.size, counts.sum() / counts.size)).pvalue


def check_moments(x, dist):
    """Sample mean and variance within Z_MAX standard errors of dist's."""
    __tracebackhide__ = True
    x = np.asarray(x, dtype=np.float64).ravel()
    n = x.size
    m, v, k = (float(s) for s in dist.stats(moments="mvk"))
    z_mean = (x.mean() - m) / np.sqrt(v / n)
    z_var = (x.var(ddof=1) - v) / np.sqrt(v * v * (k + 2 + 2 / (n - 1)) / n)
    assert abs(z_mean) < Z_MAX, f"mean {x.mean()} vs {m}: {z_mean:.1f} standard errors"
    assert abs(z_var) < Z_MAX, f"variance {x.var(ddof=1)} vs {v}: {z_var:.1f} standard errors"


@contextlib.contextmanager
def num_threads(n):
    saved = tp.get_num_threads()
    tp.set_num_threads(n)
    try:
        yield
    finally:
        tp.set_num_threads(saved)


def to_tp(x):
    return tp.asarray(x) if isinstance(x, np.ndarray) else x


def discrete(probs):
    return stats.rv_discrete(values=(np.arange(len(probs)), probs))


# --------------------------------------------------------------------------------------------
# names


LEGACY = ["seed", "rand", "randn", "randint", "random", "random_sample", "uniform", "normal",
          "standard_normal", "choice", "shuffle", "permutation"]
GENERATOR = ["integers", "random", "normal", "standard_normal", "uniform", "exponential", "gamma",
             "beta", "poisson", "binomial", "choice", "permutation", "shuffle"]


def test_names():
    random = getattr(tp, "random", None)
    assert random is not None, "tessera.random is missing"
    missing = [n for n in LEGACY + ["RandomState", "default_rng"]
               if not callable(getattr(random, n, None))]
    assert not missing, f"tessera.random lacks {missing}"
    rs = random.RandomState(0)
    missing = [n for n in LEGACY if not callable(getattr(rs, n, None))]
    assert not missing, f"RandomState lacks {missing}"
    g = random.default_rng(0)
    missing = [n for n in GENERATOR if not callable(getattr(g, n, None))]
    assert not missing, f"Generator lacks {missing}"


# --------------------------------------------------------------------------------------------
# shapes and dtypes, as NumPy's


def _integers(dtype, low=0, high=100):
    return lambda g, s, xp: g.integers(low, high, size=s, dtype=dtype)


GEN_CALLS = {
    "integers": lambda g, s, xp: g.integers(0, 10, size=s),
    "integers-high-only": lambda g, s, xp: g.integers(7, size=s),
    "integers-endpoint": lambda g, s, xp: g.integers(-3, 3, size=s, endpoint=True),
    **{f"integers-{np.dtype(d).name}": _integers(d) for d in INT_DTYPES},
    "integers-bool": _integers(np.bool_, 0, 2),
    "integers-int64-full": lambda g, s, xp: g.integers(-2**63, 2**63 - 1, size=s,
                                                       endpoint=True),
    "integers-uint64-full": _integers(np.uint64, 0, 2**64),
    "random": lambda g, s, xp: g.random(size=s),
    "random-float32": lambda g, s, xp: g.random(size=s, dtype=np.float32),
    "standard_normal": lambda g, s, xp: g.standard_normal(size=s),
    "standard_normal-float32": lambda g, s, xp: g.standard_normal(size=s, dtype=np.float32),
    "normal": lambda g, s, xp: g.normal(1.0, 2.0, size=s),
    "uniform": lambda g, s, xp: g.uniform(-1.0, 1.0, size=s),
    "exponential": lambda g, s, xp: g.exponential(2.0, size=s),
    "gamma": lambda g, s, xp: g.gamma(0.5, 2.0, size=s),
    "beta": lambda g, s, xp: g.beta(2.0, 3.0, size=s),
    "poisson": lambda g, s, xp: g.poisson(4.0, size=s),
    "binomial": lambda g, s, xp: g.binomial(10, 0.3, size=s),
    "choice-int": lambda g, s, xp: g.choice(5, size=s),
    "choice-p": lambda g, s, xp: g.choice(5, size=s, p=P5),
    "choice-no-replace": lambda g, s, xp: g.choice(10, size=s, replace=False),
    "choice-float32-array": lambda g, s, xp: g.choice(
        xp.asarray(np.array([1.5, 2.5, 3.5], np.float32)), size=s),
    "choice-2d-rows": lambda g, s, xp: g.choice(
        xp.asarray(np.arange(12, dtype=np.int16).reshape(4, 3)), size=s),
}


def _dims(s):
    return () if s is None else (s,) if isinstance(s, int) else s


LEGACY_CALLS = {
    "rand": lambda m, s, xp: m.rand(*_dims(s)),
    "randn": lambda m, s, xp: m.randn(*_dims(s)),
    "randint": lambda m, s, xp: m.randint(0, 10, size=s),
    "randint-high-only": lambda m, s, xp: m.randint(5, size=s),
    "randint-int8": lambda m, s, xp: m.randint(-5, 5, size=s, dtype=np.int8),
    "randint-uint8": lambda m, s, xp: m.randint(0, 256, size=s, dtype=np.uint8),
    "randint-int32": lambda m, s, xp: m.randint(0, 10, size=s, dtype=np.int32),
    "random_sample": lambda m, s, xp: m.random_sample(size=s),
    "random": lambda m, s, xp: m.random(size=s),
    "uniform": lambda m, s, xp: m.uniform(2.0, 5.0, size=s),
    "normal": lambda m, s, xp: m.normal(-1.0, 3.0, size=s),
    "standard_normal": lambda m, s, xp: m.standard_normal(size=s),
    "choice": lambda m, s, xp: m.choice(5, size=s),
    "choice-p": lambda m, s, xp: m.choice(5, size=s, p=P5),
    "choice-no-replace": lambda m, s, xp: m.choice(10, size=s, replace=False),
    "choice-float32-array": lambda m, s, xp: m.choice(
        xp.asarray(np.array([1.5, 2.5, 3.5], np.float32)), size=s),
}

SIZES = [None, 5, (2, 3), 0, (0, 3), (2, 1, 3)]


def check_like_numpy(got, expected, array_dtype):
    """got (tessera) has the shape and dtype of expected (NumPy's). A scalar expected (size
    None) may be a 0-d tessera array or a NumPy scalar of dtype array_dtype (NumPy's dtype for
    a size; float32 where NumPy returns a Python float for dtype=float32), or a Python
    scalar of NumPy's type or of that dtype."""
    __tracebackhide__ = True
    if isinstance(expected, np.ndarray):
        assert isinstance(got, tp.ndarray), f"expected tessera.ndarray, got {type(got)}"
        assert got.shape == expected.shape, f"shape {got.shape} != {expected.shape}"
        assert got.dtype == expected.dtype, f"dtype {got.dtype} != {expected.dtype}"
        return
    if isinstance(got, tp.ndarray):
        assert got.shape == (), f"size None: shape {got.shape} != ()"
        assert got.dtype == array_dtype, f"dtype {got.dtype} != {array_dtype}"
    elif isinstance(got, np.generic):
        assert got.dtype == array_dtype, f"dtype {got.dtype} != {array_dtype}"
    else:
        assert isinstance(got, (bool, int, float)), f"unexpected result type {type(got)}"
        assert type(got) is type(expected) or np.asarray(got).dtype == array_dtype, \
            f"{type(got).__name__} result where NumPy gives {type(expected).__name__} " \
            f"of dtype {array_dtype}"


@pytest.mark.parametrize("size", SIZES, ids=compact_id)
@pytest.mark.parametrize("name", list(GEN_CALLS))
def test_generator_shapes_dtypes(device, name, size):
    call = GEN_CALLS[name]
    expected = call(np.random.default_rng(0), size, np)
    array_dtype = call(np.random.default_rng(0), 2, np).dtype
    check_like_numpy(call(gen(), size, tp), expected, array_dtype)


@pytest.mark.parametrize("size", SIZES, ids=compact_id)
@pytest.mark.parametrize("source", ["module", "RandomState"])
@pytest.mark.parametrize("name", list(LEGACY_CALLS))
def test_legacy_shapes_dtypes(device, name, source, size):
    call = LEGACY_CALLS[name]
    if source == "module":
        np.random.seed(0)
        tp.random.seed(0)
        np_m, tp_m = np.random, tp.random
    else:
        np_m, tp_m = np.random.RandomState(0), tp.random.RandomState(0)
    expected = call(np_m, size, np)
    array_dtype = call(np_m, 2, np).dtype
    check_like_numpy(call(tp_m, size, tp), expected, array_dtype)


@pytest.mark.parametrize("source", ["module", "RandomState"])
def test_legacy_float32_cupy_style(device, source):
    """CuPy's dtype= on the legacy rand, randn and random_sample (the workshop's
    `cp.random.rand(N, N, dtype=cp.float32)`): float32 samples of the right distribution,
    float64 by default, and a TypeError for other dtypes."""
    m = tp.random if source == "module" else tp.random.RandomState(3)
    u = m.rand(N // 100, 100, dtype=np.float32)
    assert u.dtype == np.float32 and u.shape == (N // 100, 100)
    assert ks_pvalue(values(u).ravel(), stats.uniform(0.0, 1.0)) > P_MIN
    z = m.randn(N, dtype=np.float32)
    assert z.dtype == np.float32
    assert ks_pvalue(values(z, (N,)), stats.norm()) > P_MIN
    assert m.random_sample((3,), dtype=np.float32).dtype == np.float32
    assert m.rand(3).dtype == m.random_sample(3).dtype == np.float64
    with pytest.raises(TypeError, match="float32 and float64"):
        m.rand(3, dtype=np.int32)


@pytest.mark.parametrize("name", ["normal", "uniform"])
def test_float32_cupy_style(device, name):
    """dtype=float32 for normal and uniform (CuPy's extension), where accepted: float32
    samples of the right distribution."""
    g = gen()
    try:
        x = g.normal(1.0, 2.0, size=N, dtype=np.float32) if name == "normal" else \
            g.uniform(-1.0, 3.0, size=N, dtype=np.float32)
    except TypeError:
        pytest.skip(f"{name}(dtype=float32) not accepted (NumPy has no dtype for {name})")
    assert x.dtype == np.float32
    dist = stats.norm(1.0, 2.0) if name == "normal" else stats.uniform(-1.0, 4.0)
    assert ks_pvalue(values(x, (N,)), dist) > P_MIN


@pytest.mark.parametrize("name", ["random", "standard_normal"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=lambda d: np.dtype(d).name)
def test_out(device, name, dtype):
    """out=: filled in place and returned, with or without a matching size."""
    g = gen()
    out = tp.zeros((300, 4), dtype=dtype)
    kwargs = {} if dtype == np.float64 else {"dtype": dtype}
    result = getattr(g, name)(out=out, **kwargs)
    assert result is out
    x = values(out, (300, 4))
    assert x.dtype == dtype and np.unique(x).size > 0.95 * x.size
    again = getattr(g, name)(size=(300, 4), out=out, **kwargs)
    assert again is out and not np.array_equal(values(out), x)


# --------------------------------------------------------------------------------------------
# results that are not random: as NumPy's exactly


EXACT_CASES = [
    ("normal-scale-0", lambda g: g.normal(3.0, 0.0, size=4)),
    ("uniform-empty-range", lambda g: g.uniform(2.0, 2.0, size=3)),
    ("exponential-scale-0", lambda g: g.exponential(0.0, size=3)),
    ("gamma-shape-0", lambda g: g.gamma(0.0, size=3)),
    ("poisson-0", lambda g: g.poisson(0.0, size=3)),
    ("binomial-n-0", lambda g: g.binomial(0, 0.5, size=3)),
    ("binomial-p-0", lambda g: g.binomial(5, 0.0, size=3)),
    ("binomial-p-1", lambda g: g.binomial(5, 1.0, size=3)),
    ("integers-one-value", lambda g: g.integers(0, 1, size=3)),
    ("integers-endpoint-one-value", lambda g: g.integers(5, 5, size=3, endpoint=True)),
    ("integers-int8-min", lambda g: g.integers(-128, -127, size=3, dtype=np.int8)),
    ("integers-uint64-max", lambda g: g.integers(2**64 - 1, 2**64 - 1, size=2,
                                                 dtype=np.uint64, endpoint=True)),
    ("choice-1", lambda g: g.choice(1, size=3)),
    ("choice-p-one-hot", lambda g: g.choice(5, size=4, p=[0, 0, 1.0, 0, 0])),
    ("choice-none-no-replace", lambda g: g.choice(5, size=0, replace=False)),
    ("choice-0-of-0", lambda g: g.choice(0, size=0)),
    ("permutation-0", lambda g: g.permutation(0)),
    ("permutation-1", lambda g: g.permutation(1)),
]


@pytest.mark.parametrize("case", EXACT_CASES, ids=lambda c: c[0])
def test_exact(device, case):
    _, call = case
    assert_same(call(gen()), call(np.random.default_rng(0)))


# --------------------------------------------------------------------------------------------
# continuous distributions: Kolmogorov-Smirnov and moments


CONTINUOUS = [
    ("random", lambda g: g.random(size=N), stats.uniform()),
    ("random-float32", lambda g: g.random(size=N, dtype=np.float32), stats.uniform()),
    ("uniform", lambda g: g.uniform(-2.0, 3.0, size=N), stats.uniform(-2.0, 5.0)),
    ("uniform-default", lambda g: g.uniform(size=N), stats.uniform()),
    ("normal", lambda g: g.normal(1.5, 2.5, size=N), stats.norm(1.5, 2.5)),
    ("normal-default", lambda g: g.normal(size=N), stats.norm()),
    ("standard_normal", lambda g: g.standard_normal(size=N), stats.norm()),
    ("standard_normal-float32", lambda g: g.standard_normal(size=N, dtype=np.float32),
     stats.norm()),
    ("exponential", lambda g: g.exponential(2.0, size=N), stats.expon(scale=2.0)),
    ("exponential-default", lambda g: g.exponential(size=N), stats.expon()),
    ("gamma-0.3", lambda g: g.gamma(0.3, size=N), stats.gamma(0.3)),
    ("gamma-1", lambda g: g.gamma(1.0, size=N), stats.gamma(1.0)),
    ("gamma-4.5-scale-2", lambda g: g.gamma(4.5, 2.0, size=N), stats.gamma(4.5, scale=2.0)),
    ("gamma-50", lambda g: g.gamma(50.0, size=N), stats.gamma(50.0)),
    ("beta-0.5-0.5", lambda g: g.beta(0.5, 0.5, size=N), stats.beta(0.5, 0.5)),
    ("beta-2-5", lambda g: g.beta(2.0, 5.0, size=N), stats.beta(2.0, 5.0)),
    ("beta-0.3-4", lambda g: g.beta(0.3, 4.0, size=N), stats.beta(0.3, 4.0)),
    ("beta-30-40", lambda g: g.beta(30.0, 40.0, size=N), stats.beta(30.0, 40.0)),
]

LEGACY_CONTINUOUS = [
    ("rand", lambda m: m.rand(N), stats.uniform()),
    ("rand-2d", lambda m: m.rand(100, N // 100), stats.uniform()),
    ("random_sample", lambda m: m.random_sample(N), stats.uniform()),
    ("random", lambda m: m.random(N), stats.uniform()),
    ("uniform", lambda m: m.uniform(-1.0, 4.0, N), stats.uniform(-1.0, 5.0)),
    ("randn", lambda m: m.randn(N), stats.norm()),
    ("normal", lambda m: m.normal(-3.0, 0.5, N), stats.norm(-3.0, 0.5)),
    ("standard_normal", lambda m: m.standard_normal(N), stats.norm()),
]


def legacy_source(source, seed=SEED):
    if source == "module":
        tp.random.seed(seed)
        return tp.random
    return tp.random.RandomState(seed)


@pytest.mark.parametrize("case", CONTINUOUS, ids=lambda c: c[0])
def test_continuous_ks(device, case):
    _, call, dist = case
    x = values(call(gen()))
    assert x.size == N
    p = ks_pvalue(x, dist)
    assert p > P_MIN, f"Kolmogorov-Smirnov p-value {p:.3g}"


@pytest.mark.parametrize("source", ["module", "RandomState"])
@pytest.mark.parametrize("case", LEGACY_CONTINUOUS, ids=lambda c: c[0])
def test_legacy_continuous_ks(device, case, source):
    _, call, dist = case
    x = values(call(legacy_source(source)))
    assert x.size == N and x.dtype == np.float64
    p = ks_pvalue(x, dist)
    assert p > P_MIN, f"Kolmogorov-Smirnov p-value {p:.3g}"


@pytest.mark.parametrize("case", CONTINUOUS, ids=lambda c: c[0])
def test_continuous_moments(device, case):
    _, call, dist = case
    check_moments(values(call(gen(SEED + 1))), dist)


RANGES = [
    ("random", lambda g: g.random(size=BIG), 0.0, 1.0, False),
    ("random-float32", lambda g: g.random(size=BIG, dtype=np.float32), 0.0, 1.0, False),
    ("uniform", lambda g: g.uniform(-2.0, 3.0, size=N), -2.0, 3.0, True),
    ("exponential", lambda g: g.exponential(size=N), 0.0, np.inf, True),
    ("gamma-0.3", lambda g: g.gamma(0.3, size=N), 0.0, np.inf, True),
    ("beta-0.3-4", lambda g: g.beta(0.3, 4.0, size=N), 0.0, 1.0, True),
    ("standard_normal", lambda g: g.standard_normal(size=N), -np.inf, np.inf, False),
]


@pytest.mark.parametrize("case", RANGES, ids=lambda c: c[0])
def test_ranges(device, case):
    """Finite samples within the support: random's [0, 1) excludes 1 (float32 too)."""
    _, call, low, high, high_included = case
    x = values(call(gen()))
    assert np.all(np.isfinite(x)), "non-finite samples"
    assert x.min() >= low, f"sample {x.min()} below {low}"
    assert x.max() <= high if high_included else x.max() < high, f"sample {x.max()} >= {high}"


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=lambda d: np.dtype(d).name)
def test_random_resolution(device, dtype):
    """random() uses the whole mantissa: in [0.5, 1), where floats are spaced 2**-53
    (float32: 2**-24), the last bit of the samples is 0 or 1 equally often."""
    x = values(gen().random(size=N, dtype=dtype)).astype(np.float64)
    bits = 53 if dtype == np.float64 else 24
    top = x[x >= 0.5] * 2.0**bits
    assert np.all(top == np.floor(top))
    odd = np.mod(top, 2).mean()
    assert abs(odd - 0.5) < Z_MAX * 0.5 / np.sqrt(top.size), \
        f"last mantissa bit set in {odd:.4f} of the samples"


# --------------------------------------------------------------------------------------------
# discrete distributions: chi-square and moments


def _integers_case(low, high, dtype=None, endpoint=False):
    kwargs = {} if dtype is None else {"dtype": dtype}
    name = f"integers({low},{high}{',' + np.dtype(dtype).name if dtype else ''}" \
           f"{',endpoint' if endpoint else ''})"
    top = high + 1 if endpoint else high
    return (name, lambda g: g.integers(low, high, size=N, endpoint=endpoint, **kwargs),
            stats.randint(0, top - low), low)


DISCRETE = [
    _integers_case(0, 10),
    _integers_case(0, 10, endpoint=True),
    ("integers(7)", lambda g: g.integers(7, size=N), stats.randint(0, 7), 0),
    _integers_case(-5, 5, np.int8),
    _integers_case(-128, 127, np.int8, endpoint=True),
    _integers_case(0, 256, np.uint8),
    _integers_case(0, 255, np.uint8, endpoint=True),
    _integers_case(250, 255, np.uint8, endpoint=True),
    _integers_case(-1000, 1000, np.int16),
    _integers_case(0, 3, np.uint16),
    _integers_case(-3, 4, np.int32),
    _integers_case(0, 7, np.uint32),
    _integers_case(10**12, 10**12 + 6, np.int64),
    _integers_case(-2**63, -2**63 + 5, np.int64),
    _integers_case(2**63, 2**63 + 5, np.uint64),
    _integers_case(2**64 - 6, 2**64 - 1, np.uint64, endpoint=True),
    _integers_case(0, 2, np.bool_),
    *[(f"poisson({lam})", (lambda lam: lambda g: g.poisson(lam, size=N))(lam),
       stats.poisson(lam), 0) for lam in [0.5, 3.0, 9.5, 10.0, 11.0, 50.0, 1000.0]],
    ("poisson-default", lambda g: g.poisson(size=N), stats.poisson(1.0), 0),
    *[(f"binomial({n},{p})", (lambda n, p: lambda g: g.binomial(n, p, size=N))(n, p),
       stats.binom(n, p), 0)
      for n, p in [(5, 0.5), (10, 0.3), (10, 0.97), (20, 0.6), (100, 0.02), (1000, 0.5),
                   (1000, 0.001), (1000, 0.999), (100000, 0.25)]],
    ("choice(7)", lambda g: g.choice(7, size=N), stats.randint(0, 7), 0),
    ("choice(5,p)", lambda g: g.choice(5, size=N, p=P5), discrete(P5), 0),
    ("choice(array,p)", lambda g: g.choice(tp.asarray(np.arange(10, 15)), size=N, p=P5),
     discrete(P5), 10),
    ("choice(3,p-float32)", lambda g: g.choice(3, size=N,
                                               p=np.array([0.25, 0.5, 0.25], np.float32)),
     discrete([0.25, 0.5, 0.25]), 0),
]

LEGACY_DISCRETE = [
    ("randint(0,10)", lambda m: m.randint(0, 10, N), stats.randint(0, 10), 0),
    ("randint(5)", lambda m: m.randint(5, size=N), stats.randint(0, 5), 0),
    ("randint(-3,3,int8)", lambda m: m.randint(-3, 3, N, dtype=np.int8), stats.randint(0, 6),
     -3),
    ("randint(0,256,uint8)", lambda m: m.randint(0, 256, N, dtype=np.uint8),
     stats.randint(0, 256), 0),
    ("randint(-1000,1000,int64)", lambda m: m.randint(-1000, 1000, N, dtype=np.int64),
     stats.randint(0, 2000), -1000),
    ("choice(7)", lambda m: m.choice(7, N), stats.randint(0, 7), 0),
    ("choice(5,p)", lambda m: m.choice(5, N, p=P5), discrete(P5), 0),
]


@pytest.mark.parametrize("case", DISCRETE, ids=lambda c: c[0])
def test_discrete_chisquare(device, case):
    _, call, dist, low = case
    x = values(call(gen()))
    assert x.size == N
    p = chisq_pvalue(as_int64(x, low), dist)
    assert p > P_MIN, f"chi-square p-value {p:.3g}"


@pytest.mark.parametrize("source", ["module", "RandomState"])
@pytest.mark.parametrize("case", LEGACY_DISCRETE, ids=lambda c: c[0])
def test_legacy_discrete_chisquare(device, case, source):
    _, call, dist, low = case
    x = values(call(legacy_source(source)))
    assert x.size == N
    p = chisq_pvalue(as_int64(x, low), dist)
    assert p > P_MIN, f"chi-square p-value {p:.3g}"


@pytest.mark.parametrize("case", DISCRETE, ids=lambda c: c[0])
def test_discrete_moments(device, case):
    _, call, dist, low = case
    check_moments(as_int64(values(call(gen(SEED + 1))), low), dist)


FULL_RANGES = [
    (np.int64, -2**63, 2**63 - 1, True), (np.uint64, 0, 2**64, False),
    (np.int32, -2**31, 2**31, False), (np.uint32, 0, 2**32 - 1, True),
    (np.int16, -2**15, 2**15 - 1, True), (np.int8, -128, 128, False),
    (np.uint8, 0, 256, False),
]


@pytest.mark.parametrize("case", FULL_RANGES, ids=lambda c: np.dtype(c[0]).name)
def test_full_range_bits(device, case):
    """integers over a dtype's whole range: every bit is set in half of the samples."""
    dtype, low, high, endpoint = case
    x = values(gen().integers(low, high, size=N, dtype=dtype, endpoint=endpoint))
    assert x.dtype == dtype
    bits = 8 * x.itemsize
    u = x.view(f"u{x.itemsize}").astype(np.uint64)
    freq = ((u[:, None] >> np.arange(bits, dtype=np.uint64)) & np.uint64(1)).mean(axis=0)
    z = (freq - 0.5) / (0.5 / np.sqrt(N))
    assert np.all(np.abs(z) < Z_MAX), f"bit frequencies off: {dict(enumerate(freq.round(4)))}"


LARGE_RANGES = [
    ("uint32-3*2**30", lambda g: g.integers(0, 3 * 2**30, size=N, dtype=np.uint32), 30),
    ("int64-3*2**30", lambda g: g.integers(0, 3 * 2**30, size=N), 30),
    ("int64-3*2**61", lambda g: g.integers(0, 3 * 2**61, size=N), 61),
    ("uint64-3*2**62", lambda g: g.integers(0, 3 * 2**62, size=N, dtype=np.uint64), 62),
    ("randint-3*2**30", lambda g: tp.random.RandomState(SEED).randint(0, 3 * 2**30, N), 30),
]


@pytest.mark.parametrize("case", LARGE_RANGES, ids=lambda c: c[0])
def test_large_range_unbiased(device, case):
    """integers over [0, 3 * 2**k): the thirds are equally likely (a modulo reduction of 32 or
    64 random bits would make the first third twice as likely as the others)."""
    _, call, shift = case
    x = values(call(gen()))
    thirds = (x.astype(np.uint64) >> np.uint64(shift)).astype(np.int64)
    assert thirds.max() <= 2
    p = uniform_pvalue(np.bincount(thirds, minlength=3))
    assert p > P_MIN, f"chi-square p-value {p:.3g}, thirds {np.bincount(thirds)}"


# --------------------------------------------------------------------------------------------
# reproducibility


SAMPLERS = {
    "integers": lambda g, n: g.integers(0, 1000, size=n),
    "integers-uint8": lambda g, n: g.integers(0, 256, size=n, dtype=np.uint8),
    "integers-int64-full": lambda g, n: g.integers(-2**63, 2**63 - 1, size=n, endpoint=True),
    "random": lambda g, n: g.random(size=n),
    "random-float32": lambda g, n: g.random(size=n, dtype=np.float32),
    "standard_normal": lambda g, n: g.standard_normal(size=n),
    "standard_normal-float32": lambda g, n: g.standard_normal(size=n, dtype=np.float32),
    "normal": lambda g, n: g.normal(1.0, 2.0, size=n),
    "uniform": lambda g, n: g.uniform(-1.0, 1.0, size=n),
    "exponential": lambda g, n: g.exponential(size=n),
    "gamma-0.3": lambda g, n: g.gamma(0.3, size=n),
    "gamma-4.5": lambda g, n: g.gamma(4.5, size=n),
    "beta": lambda g, n: g.beta(0.5, 2.0, size=n),
    "poisson-3": lambda g, n: g.poisson(3.0, size=n),
    "poisson-1000": lambda g, n: g.poisson(1000.0, size=n),
    "binomial-10": lambda g, n: g.binomial(10, 0.3, size=n),
    "binomial-1000": lambda g, n: g.binomial(1000, 0.6, size=n),
    "choice": lambda g, n: g.choice(1000, size=n),
    "choice-p": lambda g, n: g.choice(5, size=n, p=P5),
    "choice-no-replace": lambda g, n: g.choice(2 * n, size=n, replace=False),
    "permutation": lambda g, n: g.permutation(n),
    "shuffle": lambda g, n: _shuffled(g, n),
}

LEGACY_SAMPLERS = {
    "rand": lambda m, n: m.rand(n),
    "randn": lambda m, n: m.randn(n),
    "randint": lambda m, n: m.randint(0, 1000, n),
    "random_sample": lambda m, n: m.random_sample(n),
    "uniform": lambda m, n: m.uniform(-1.0, 1.0, n),
    "normal": lambda m, n: m.normal(1.0, 2.0, n),
    "choice": lambda m, n: m.choice(1000, n),
    "permutation": lambda m, n: m.permutation(n),
    "shuffle": lambda m, n: _shuffled(m, n),
}


def _shuffled(g, n):
    x = tp.arange(n)
    assert g.shuffle(x) is None
    return x


def same(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


@pytest.mark.parametrize("name", list(SAMPLERS))
def test_same_seed_same_values(device, name):
    call = SAMPLERS[name]
    a, b = values(call(gen(7), 1000)), values(call(gen(7), 1000))
    assert same(a, b), "the same seed gives different values"


@pytest.mark.parametrize("seeds", [(7, 8), (0, 1), (0, 2**32), (5, 5 + 2**64)], ids=compact_id)
@pytest.mark.parametrize("name", list(SAMPLERS))
def test_other_seed_other_values(device, name, seeds):
    call = SAMPLERS[name]
    a, b = values(call(gen(seeds[0]), 1000)), values(call(gen(seeds[1]), 1000))
    assert not same(a, b), "different seeds give the same values"


@pytest.mark.parametrize("name", list(SAMPLERS))
def test_successive_calls_differ(device, name):
    call = SAMPLERS[name]
    g = gen()
    a, b, c = (values(call(g, 1000)) for _ in range(3))
    assert not same(a, b) and not same(b, c) and not same(a, c), "successive calls repeat"
    g2 = gen()
    assert same(values(call(g2, 1000)), a) and same(values(call(g2, 1000)), b), \
        "the sequence of calls does not repeat from the same seed"


@pytest.mark.parametrize("seeds", [(0, 1), (1, 2), (SEED, SEED + 1), (0, 2**32)],
                         ids=compact_id)
def test_streams_uncorrelated(device, seeds):
    """Neighbouring seeds, and successive calls, give uncorrelated normal samples."""
    a = values(gen(seeds[0]).standard_normal(size=N))
    b = values(gen(seeds[1]).standard_normal(size=N))
    g = gen(seeds[0])
    c, d = values(g.standard_normal(size=N)), values(g.standard_normal(size=N))
    limit = Z_MAX / np.sqrt(N)
    for x, y, what in [(a, b, "seeds"), (c, d, "successive calls")]:
        r = np.corrcoef(x, y)[0, 1]
        assert abs(r) < limit, f"correlation {r:.4f} between {what}"
        r = np.corrcoef(x[:-1], y[1:])[0, 1]
        assert abs(r) < limit, f"shifted correlation {r:.4f} between {what}"


def test_unseeded_differ(device):
    a = values(tp.random.default_rng().random(size=100))
    b = values(tp.random.default_rng(None).random(size=100))
    assert not same(a, b)
    tp.random.seed()
    c = values(tp.random.rand(100))
    tp.random.seed()
    assert not same(c, values(tp.random.rand(100)))


@pytest.mark.parametrize("source", ["module", "RandomState"])
@pytest.mark.parametrize("name", list(LEGACY_SAMPLERS))
def test_legacy_seed_repeats(device, name, source):
    """tessera.random.seed(s) (RandomState(s), RandomState.seed(s)) repeats the values; two
    calls after it differ; another seed gives other values."""
    call = LEGACY_SAMPLERS[name]
    m = legacy_source(source, 11)
    a, b = values(call(m, 1000)), values(call(m, 1000))
    assert not same(a, b), "successive calls repeat"
    m = legacy_source(source, 11)
    assert same(values(call(m, 1000)), a) and same(values(call(m, 1000)), b), \
        "the seed does not repeat the values"
    if source == "RandomState":
        m.seed(11)
        assert same(values(call(m, 1000)), a), "RandomState.seed does not repeat the values"
    assert not same(values(call(legacy_source(source, 12), 1000)), a), \
        "another seed gives the same values"


@pytest.mark.parametrize("name", ["rand", "randn", "randint", "uniform", "permutation"])
def test_seed_is_randomstate(device, name):
    """As NumPy's: the module-level functions after seed(s) give RandomState(s)'s values."""
    call = LEGACY_SAMPLERS[name]
    tp.random.seed(23)
    a = values(call(tp.random, 500))
    assert same(a, values(call(tp.random.RandomState(23), 500)))


@pytest.mark.parametrize("size", [37, BIG, (997, 1003)], ids=compact_id)
@pytest.mark.parametrize("name", list(SAMPLERS))
def test_thread_count_independent(device, name, size):
    """The values do not depend on the number of threads that generate them."""
    call = SAMPLERS[name]
    if name in ("permutation", "shuffle", "choice-no-replace") and not isinstance(size, int):
        pytest.skip("a 1-d sampler")
    results = []
    for threads in (1, 2, 3):
        with num_threads(threads):
            results.append(values(call(gen(3), size)))
    assert same(results[0], results[1]), "1 and 2 threads give different values"
    assert same(results[0], results[2]), "1 and 3 threads give different values"


@pytest.mark.parametrize("name", ["rand", "randn", "randint", "permutation"])
def test_legacy_thread_count_independent(device, name):
    call = LEGACY_SAMPLERS[name]
    results = []
    for threads in (1, 2):
        with num_threads(threads):
            results.append(values(call(legacy_source("module", 5), BIG)))
            results.append(values(call(legacy_source("RandomState", 5), BIG)))
    assert same(results[0], results[2]) and same(results[1], results[3]), \
        "1 and 2 threads give different values"


# --------------------------------------------------------------------------------------------
# choice, permutation, shuffle


def test_choice_without_replacement(device):
    g = gen()
    x = values(g.choice(100, size=50, replace=False), (50,))
    assert np.unique(x).size == 50 and x.min() >= 0 and x.max() < 100
    x = values(g.choice(10, size=10, replace=False))
    assert np.array_equal(np.sort(x), np.arange(10)), "choice(n, n) is not a permutation"
    x = values(g.choice(1000, size=(20, 25), replace=False), (20, 25))
    assert np.unique(x).size == 500
    pool = np.arange(20) * 3 + 1
    x = values(g.choice(tp.asarray(pool), size=7, replace=False))
    assert np.unique(x).size == 7 and np.all(np.isin(x, pool))
    x = values(g.choice(5, size=2, replace=False, p=[0, 0.5, 0.5, 0, 0]))
    assert sorted(x.tolist()) == [1, 2], "entries of p 0 chosen"
    x = values(g.choice(8, size=3, replace=False, p=[0.05, 0.05, 0.3, 0.3, 0.3, 0, 0, 0]))
    assert np.unique(x).size == 3 and x.max() <= 4
    x = values(tp.random.choice(30, 30, replace=False))
    assert np.array_equal(np.sort(x), np.arange(30))
    x = values(tp.random.RandomState(1).choice(30, 12, replace=False))
    assert np.unique(x).size == 12


def test_choice_rows(device):
    """choice of a 2-d array picks rows (axis=0) or columns (axis=1)."""
    g = gen()
    a = np.arange(40).reshape(8, 5)
    x = values(g.choice(tp.asarray(a), size=6), (6, 5))
    assert all(any(np.array_equal(r, row) for row in a) for r in x)
    x = values(g.choice(tp.asarray(a), size=3, axis=1, replace=False), (8, 3))
    cols = [tuple(c) for c in x.T]
    assert len(set(cols)) == 3 and set(cols) <= {tuple(c) for c in a.T}


@pytest.mark.parametrize("kind", ["generator", "RandomState", "module"])
def test_permutation_uniform(device, kind):
    """All 24 orders of permutation(4), and the 12 ordered pairs of choice(4, 2,
    replace=False), equally likely."""
    m = gen() if kind == "generator" else legacy_source(kind)
    codes = [tuple(values(m.permutation(4)).tolist()) for _ in range(2400)]
    orders = {o: i for i, o in enumerate(sorted(set(codes)))}
    assert len(orders) == 24
    p = uniform_pvalue(np.bincount([orders[c] for c in codes], minlength=24))
    assert p > P_MIN, f"permutation: chi-square p-value {p:.3g}"
    pairs = [tuple(values(m.choice(4, 2, replace=False)).tolist()) for _ in range(1200)]
    assert len(set(pairs)) == 12 and all(a != b for a, b in pairs)
    counts = np.array([pairs.count(pair) for pair in sorted(set(pairs))])
    p = uniform_pvalue(counts)
    assert p > P_MIN, f"choice without replacement: chi-square p-value {p:.3g}"


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.int16, np.uint8],
                         ids=lambda d: np.dtype(d).name)
def test_permutation(device, dtype):
    g = gen()
    p = values(g.permutation(1000), (1000,))
    assert p.dtype == np.int64
    assert np.array_equal(np.sort(p), np.arange(1000)) and not np.array_equal(p, np.arange(1000))
    base = (np.arange(200) % 151).astype(dtype)
    x = tp.array(base)  # a copy: asarray may share base's memory
    p = values(g.permutation(x), (200,))
    assert p.dtype == dtype
    assert np.array_equal(np.sort(p), np.sort(base)) and not np.array_equal(p, base)
    assert np.array_equal(values(x), base), "permutation changed its input"
    p = values(tp.random.permutation(x))
    assert p.dtype == dtype and np.array_equal(np.sort(p), np.sort(base))


def test_permutation_axis(device):
    g = gen()
    a = np.arange(60).reshape(12, 5)
    p = values(g.permutation(tp.array(a)), (12, 5))
    assert np.array_equal(p[np.argsort(p[:, 0])], a) and not np.array_equal(p, a), \
        "rows not permuted whole"
    p = values(g.permutation(tp.array(a), axis=1), (12, 5))
    assert np.array_equal(p[:, np.argsort(p[0])], a) and not np.array_equal(p, a), \
        "columns not permuted whole"
    p = values(tp.random.RandomState(0).permutation(tp.array(a)), (12, 5))
    assert np.array_equal(p[np.argsort(p[:, 0])], a)


@pytest.mark.parametrize("kind", ["generator", "RandomState", "module"])
@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.int8], ids=lambda d: np.dtype(d).name)
def test_shuffle(device, kind, dtype):
    """shuffle in place: the same multiset in another order, rows of 2-d arrays whole."""
    m = gen() if kind == "generator" else legacy_source(kind)
    base = (np.arange(100) % 97).astype(dtype)
    x = tp.array(base)  # a copy: asarray may share base's memory
    assert m.shuffle(x) is None
    got = values(x, (100,))
    assert got.dtype == dtype
    assert np.array_equal(np.sort(got), np.sort(base)) and not np.array_equal(got, base)
    a = np.arange(120).reshape(30, 4).astype(dtype)
    x = tp.array(a)
    m.shuffle(x)
    got = values(x, (30, 4))
    assert np.array_equal(got[np.argsort(got[:, 0])], a) and not np.array_equal(got, a), \
        "rows not shuffled whole"


def test_shuffle_axis_and_views(device):
    g = gen()
    a = np.arange(200).reshape(4, 50)
    x = tp.array(a)
    g.shuffle(x, axis=1)
    got = values(x, (4, 50))
    assert np.array_equal(got[:, np.argsort(got[0])], a) and not np.array_equal(got, a), \
        "columns not shuffled whole"
    base = tp.arange(40)
    view = base[::2]
    g.shuffle(view)
    got = values(base)
    assert np.array_equal(got[1::2], np.arange(1, 40, 2)), "shuffle of a view wrote outside it"
    assert np.array_equal(np.sort(got[::2]), np.arange(0, 40, 2))
    assert not np.array_equal(got[::2], np.arange(0, 40, 2)), "the view was not shuffled"


# --------------------------------------------------------------------------------------------
# errors: NumPy's exception type


ONES = np.ones((2, 2))
ERROR_CASES = [
    ("integers-low-eq-high", "gen", "integers", (5, 5), {}),
    ("integers-low-gt-high", "gen", "integers", (5, 3), {}),
    ("integers-high-0", "gen", "integers", (0,), {}),
    ("integers-endpoint-low-gt-high", "gen", "integers", (6, 5), {"endpoint": True}),
    ("integers-float-dtype", "gen", "integers", (0, 10), {"dtype": np.float64}),
    ("integers-complex-dtype", "gen", "integers", (0, 10), {"dtype": np.complex128}),
    ("integers-uint8-negative-low", "gen", "integers", (-1, 10), {"dtype": np.uint8}),
    ("integers-uint8-high-300", "gen", "integers", (0, 300), {"dtype": np.uint8}),
    ("integers-int8-endpoint-128", "gen", "integers", (0, 128),
     {"dtype": np.int8, "endpoint": True}),
    ("integers-negative-size", "gen", "integers", (0, 10), {"size": -1}),
    ("integers-negative-dim", "gen", "integers", (0, 10), {"size": (2, -1)}),
    ("random-negative-size", "gen", "random", (-1,), {}),
    ("random-int32", "gen", "random", (3,), {"dtype": np.int32}),
    ("random-float16", "gen", "random", (3,), {"dtype": np.float16}),
    ("random-out-wrong-dtype", "gen", "random", (), {"out": np.zeros(3, np.float32)}),
    ("random-out-wrong-size", "gen", "random", (), {"size": 4, "out": np.zeros(3)}),
    ("standard_normal-int64", "gen", "standard_normal", (3,), {"dtype": np.int64}),
    ("standard_normal-out-wrong-size", "gen", "standard_normal", (),
     {"size": (3, 2), "out": np.zeros((2, 3))}),
    ("normal-negative-scale", "gen", "normal", (0.0, -1.0), {}),
    ("normal-float-size", "gen", "normal", (0.0, 1.0, 2.5), {}),
    ("uniform-negative-size", "gen", "uniform", (0.0, 1.0, -2), {}),
    ("uniform-high-lt-low", "gen", "uniform", (1.0, 0.0), {}),
    ("uniform-infinite-range", "gen", "uniform", (0.0, np.inf), {}),
    ("exponential-negative-scale", "gen", "exponential", (-1.0,), {}),
    ("gamma-negative-shape", "gen", "gamma", (-1.0,), {}),
    ("gamma-negative-scale", "gen", "gamma", (1.0, -1.0), {}),
    ("beta-a-0", "gen", "beta", (0.0, 1.0), {}),
    ("beta-negative-b", "gen", "beta", (1.0, -1.0), {}),
    ("poisson-negative", "gen", "poisson", (-1.0,), {}),
    ("poisson-too-large", "gen", "poisson", (1e20,), {}),
    ("binomial-negative-n", "gen", "binomial", (-1, 0.5), {}),
    ("binomial-p-above-1", "gen", "binomial", (10, 1.5), {}),
    ("binomial-negative-p", "gen", "binomial", (10, -0.1), {}),
    ("choice-p-sum-not-1", "gen", "choice", (5,), {"p": [0.5, 0.5, 0.5, 0, 0]}),
    ("choice-p-wrong-size", "gen", "choice", (5,), {"p": [0.5, 0.5]}),
    ("choice-p-negative", "gen", "choice", (5,), {"p": [-0.5, 0.5, 0.5, 0.5, 0]}),
    ("choice-more-than-population", "gen", "choice", (5, 6), {"replace": False}),
    ("choice-too-few-nonzero-p", "gen", "choice", (5, 3),
     {"replace": False, "p": [1.0, 0, 0, 0, 0]}),
    ("choice-empty-population", "gen", "choice", (0, 1), {}),
    ("choice-negative-population", "gen", "choice", (-1,), {}),
    ("choice-negative-size", "gen", "choice", (5, -1), {}),
    ("permutation-axis-2", "gen", "permutation", (ONES,), {"axis": 2}),
    ("shuffle-axis-2", "gen", "shuffle", (ONES,), {"axis": 2}),
    ("randint-low-eq-high", "legacy", "randint", (5, 5), {}),
    ("randint-high-0", "legacy", "randint", (0,), {}),
    ("randint-float-dtype", "legacy", "randint", (0, 10), {"dtype": np.float64}),
    ("randint-uint8-negative-low", "legacy", "randint", (-1, 10), {"dtype": np.uint8}),
    ("choice-more-than-population", "legacy", "choice", (5, 6), {"replace": False}),
    ("choice-p-sum-not-1", "legacy", "choice", (5,), {"p": [0.5, 0.5, 0.5, 0, 0]}),
    ("normal-negative-scale", "legacy", "normal", (0.0, -1.0), {}),
    ("rand-negative", "legacy", "rand", (-1,), {}),
    ("randn-negative", "legacy", "randn", (2, -1), {}),
    ("uniform-negative-size", "legacy", "uniform", (0.0, 1.0, -1), {}),
    ("random_sample-negative-size", "legacy", "random_sample", (-1,), {}),
    ("seed-negative", "legacy", "seed", (-1,), {}),
    ("seed-too-large", "legacy", "seed", (2**32,), {}),
]


def _call(lib, api, name, args, kwargs, convert):
    args = tuple(convert(a) for a in args)
    kwargs = {k: convert(v) for k, v in kwargs.items()}
    target = lib.random.default_rng(0) if api == "gen" else \
        lib.random if api == "module" else lib.random.RandomState(0)
    return getattr(target, name)(*args, **kwargs)


def _error_params():
    for case in ERROR_CASES:
        apis = ["gen"] if case[1] == "gen" else ["module", "RandomState"]
        for api in apis:
            yield pytest.param(api, *case[2:], id=f"{case[0]}-{api}")


@pytest.mark.parametrize("api, name, args, kwargs", list(_error_params()))
def test_errors(device, api, name, args, kwargs):
    assert_raises_like(lambda: _call(np, api, name, args, kwargs, lambda x: x),
                       lambda: _call(tp, api, name, args, kwargs, to_tp))


@pytest.mark.parametrize("make, seed", [
    ("default_rng", -1), ("default_rng", 1.5), ("RandomState", -1), ("RandomState", 2**32),
], ids=compact_id)
def test_seed_errors(device, make, seed):
    assert_raises_like(lambda: getattr(np.random, make)(seed),
                       lambda: getattr(tp.random, make)(seed))


def test_philox_bit_generator(device):
    """tessera.random.Philox, as NumPy's bit generators are used: Generator(Philox(s)) is
    Generator(s), a SeedSequence seeds it, spawn() gives independent children."""
    assert_same(tp.random.default_rng(tp.random.Philox(11)).random(5),
                tp.random.default_rng(11).random(5).get())
    seq = np.random.SeedSequence(3)
    assert_same(tp.random.Generator(tp.random.Philox(seq)).random(4),
                tp.random.Generator(np.random.SeedSequence(3)).random(4).get())
    children = tp.random.Philox(seq).spawn(3)
    draws = [tp.random.default_rng(c).random(8).get() for c in children]
    assert not np.array_equal(draws[0], draws[1]) and not np.array_equal(draws[1], draws[2])
    again = [tp.random.default_rng(c).random(8).get()
             for c in tp.random.Philox(np.random.SeedSequence(3)).spawn(3)]
    for a, b in zip(draws, again):
        np.testing.assert_array_equal(a, b)
    assert isinstance(tp.random.default_rng(1).bit_generator, tp.random.Philox)
    with pytest.raises(ValueError, match=r"\[Philox\]"):
        tp.random.Philox(-1)
