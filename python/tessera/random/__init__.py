"""tessera.random: numpy.random's Generator and legacy APIs over a counter-based
Philox4x32-10 stream (src/kernels/philox.h). A seed gives the same numbers on every device
and for any thread count; the numbers differ from NumPy's (its generators are MT19937 and
PCG64), the distributions do not. float32 variates are generated in float32."""

import math
import numbers
import operator
import secrets

import numpy as np

from .. import _core
from .._core import ndarray
from .._creation import arange, asarray, operand
from .._elementwise import add, divide, isfinite, log, multiply, subtract, where
from .._joining import _axis
from .._manipulation import broadcast_to

__all__ = [
    "Generator", "Philox", "RandomState", "beta", "binomial", "choice", "default_rng",
    "exponential", "gamma", "normal", "permutation", "poisson", "rand", "randint", "randn",
    "random", "random_sample", "seed", "shuffle", "standard_normal", "uniform",
]

_MASK64 = (1 << 64) - 1


def _entropy_key(seed, api):
    """The 64-bit seed of the stream from NumPy's seed forms: None (fresh entropy), an int,
    a sequence of ints, or a SeedSequence."""
    if seed is None:
        return secrets.randbits(64)
    if isinstance(seed, np.random.SeedSequence):
        return int(seed.generate_state(1, np.uint64)[0])
    words = np.asarray(seed)
    if words.dtype.kind not in "iu" and not (words.dtype == object and words.size and all(
            isinstance(w, numbers.Integral) for w in words.ravel())):
        raise TypeError(f"[{api}] SeedSequence expects int or sequence of ints for entropy "
                        f"not {seed!r}")
    key = 0
    for word in (words.ravel().tolist() if words.ndim else [int(words)]):
        word = int(word)
        if word < 0:
            raise ValueError(f"[{api}] expected non-negative integer, got {word}")
        while True:
            key = _mix(key ^ (word & _MASK64))
            word >>= 64
            if not word:
                break
    return key


def _mix(x):
    """SplitMix64's finalizer: folds seed words into one key."""
    x = (x + 0x9E3779B97F4A7C15) & _MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
    return x ^ (x >> 31)


def _size(api, size):
    """size= as a shape tuple (None stays None)."""
    if size is None:
        return None
    try:
        shape = (operator.index(size),)
    except TypeError:
        try:
            shape = tuple(operator.index(s) for s in size)
        except TypeError:
            raise TypeError(f"[{api}] size must be an int or a tuple of ints, got "
                            f"{size!r}") from None
    if any(s < 0 for s in shape):
        raise ValueError(f"[{api}] negative dimensions are not allowed, got size {size!r}")
    return shape


def _parameters(api, size, *params):
    """The result's shape and each parameter as a float64 array broadcast to it.
    Distribution parameters are taken from the host on any device, like index arrays."""
    arrays = [asarray(p) for p in params]
    arrays = [a if a.dtype == np.float64 else a.astype(np.float64) for a in arrays]
    shape = np.broadcast_shapes(*[a.shape for a in arrays])
    if size is not None:
        try:
            if np.broadcast_shapes(shape, size) != size:
                raise ValueError
        except ValueError:
            raise ValueError(f"[{api}] shape mismatch: objects cannot be broadcast to a single "
                             f"shape: parameters of shape {shape} and size {size}") from None
        shape = size
    return shape, [broadcast_to(a, shape) for a in arrays]


def _is_number(x):
    return isinstance(x, (numbers.Real, np.floating, np.integer)) and not isinstance(x, bool)


def _require(api, condition, message):
    if bool(condition.any() if isinstance(condition, ndarray) else condition):
        raise ValueError(f"[{api}] {message}")


def _float_dtype(api, dtype):
    dtype = np.dtype(dtype)
    if dtype not in (np.float32, np.float64):
        raise TypeError(f"[{api}] Unsupported dtype {dtype!r} for {api}: float32 and float64 "
                        "are supported")
    return dtype


def _into(out, result, api):
    if out is None:
        return result
    if out.dtype != result.dtype:
        raise TypeError(f"[{api}] Supplied output array has the wrong type: {out.dtype}; "
                        f"the result is {result.dtype}")
    if out.shape != result.shape:
        raise ValueError(f"[{api}] size must match out.shape when used together: out has "
                         f"shape {out.shape}, the result {result.shape}")
    out[...] = result
    return out


class Philox:
    """tessera's bit generator, as NumPy's BitGenerator objects are used: built from a seed
    (the forms Generator takes) or a SeedSequence, whose spawn() gives independent children
    (Dask's random module gives each chunk one). Generator(Philox(s)) draws the stream of
    Generator(s)."""

    def __init__(self, seed=None, *, _api="Philox"):
        if seed is None:
            seed = secrets.randbits(64)
        self._key = _entropy_key(seed, _api)  # checks the seed as Generator(seed) does
        self._seed_seq = (seed if isinstance(seed, np.random.SeedSequence)
                          else np.random.SeedSequence(seed))

    @property
    def seed_seq(self):
        return self._seed_seq

    def spawn(self, n_children):
        """Independent bit generators, from the children of this one's SeedSequence."""
        return [type(self)(child) for child in self._seed_seq.spawn(n_children)]

    def __repr__(self):
        return "Philox(Philox4x32-10)"


class Generator:
    """numpy.random.Generator's methods over the Philox stream."""

    def __init__(self, seed=None):
        self.bit_generator = seed if isinstance(seed, Philox) else Philox(seed, _api="Generator")
        self._engine = _core._Generator(self.bit_generator._key)

    def __repr__(self):
        return "Generator(Philox4x32-10)"

    def _standard(self, method, api, size, dtype, out):
        dtype = _float_dtype(api, dtype)
        shape = _size(api, size)
        if out is not None:
            shape = out.shape if shape is None else shape
        result = getattr(self._engine, method)(() if shape is None else shape, dtype)
        return _into(out, result, api)

    def random(self, size=None, dtype=np.float64, out=None):
        """Uniform floats on [0, 1)."""
        return self._standard("random", "random", size, dtype, out)

    def standard_normal(self, size=None, dtype=np.float64, out=None):
        """Standard normal variates."""
        return self._standard("standard_normal", "standard_normal", size, dtype, out)

    def standard_exponential(self, size=None, dtype=np.float64, method="zig", out=None):
        """Standard exponential variates."""
        if method not in ("zig", "inv"):
            raise ValueError(f"[standard_exponential] method must be 'zig' or 'inv', got "
                             f"{method!r}")
        return self._standard("standard_exponential", "standard_exponential", size, dtype, out)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=np.float64):
        """Normal variates: loc + scale * a standard normal. dtype=float32 draws float32
        variates natively (CuPy's extension of NumPy's signature)."""
        dtype = _float_dtype("normal", dtype)
        if _is_number(loc) and _is_number(scale):
            # Scalar parameters: no broadcast arrays, and no pass for loc=0, scale=1.
            if scale < 0:
                raise ValueError("[normal] scale < 0")
            shape = _size("normal", size)
            z = self._engine.standard_normal(() if shape is None else shape, dtype)
            z = z if scale == 1 else multiply(z, float(scale))
            return z if loc == 0 else add(z, float(loc))
        shape, (loc, scale) = _parameters("normal", _size("normal", size), loc, scale)
        _require("normal", scale < 0, "scale < 0")
        z = self._engine.standard_normal(shape, dtype)
        return add(loc, multiply(scale, z)).astype(dtype, copy=False)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=np.float64):
        """Uniform variates on [low, high); dtype=float32 draws float32 (CuPy's extension)."""
        return self._uniform(low, high, size, True, dtype)

    def _uniform(self, low, high, size, ordered, dtype=np.float64):
        dtype = _float_dtype("uniform", dtype)
        shape, (low, high) = _parameters("uniform", _size("uniform", size), low, high)
        span = subtract(high, low)
        if ordered:
            _require("uniform", span < 0, "high - low < 0")
        if bool((~isfinite(span)).any()):
            raise OverflowError("[uniform] high - low range exceeds valid bounds")
        u = self._engine.random(shape, dtype)
        return add(low, multiply(span, u)).astype(dtype, copy=False)

    def exponential(self, scale=1.0, size=None):
        """Exponential variates of the given scale."""
        shape, (scale,) = _parameters("exponential", _size("exponential", size), scale)
        _require("exponential", scale < 0, "scale < 0")
        return multiply(scale, self._engine.standard_exponential(shape, np.float64))

    def standard_gamma(self, shape, size=None, dtype=np.float64, out=None):
        """Gamma variates of the given shape and scale 1."""
        _float_dtype("standard_gamma", dtype)
        result_shape, (k,) = _parameters("standard_gamma", _size("standard_gamma", size), shape)
        _require("standard_gamma", k < 0, "shape < 0")
        result = self._engine.standard_gamma(k).astype(dtype, copy=False)
        return _into(out, result.reshape(result_shape), "standard_gamma")

    def gamma(self, shape, scale=1.0, size=None):
        """Gamma variates (Marsaglia and Tsang)."""
        result_shape, (k, scale) = _parameters("gamma", _size("gamma", size), shape, scale)
        _require("gamma", k < 0, "shape < 0")
        _require("gamma", scale < 0, "scale < 0")
        return multiply(self._engine.standard_gamma(k), scale)

    def beta(self, a, b, size=None):
        """Beta variates, as X / (X + Y) of gamma variates X ~ Γ(a) and Y ~ Γ(b)."""
        shape, (a, b) = _parameters("beta", _size("beta", size), a, b)
        _require("beta", a <= 0, "a <= 0")
        _require("beta", b <= 0, "b <= 0")
        x = self._engine.standard_gamma(a)
        y = self._engine.standard_gamma(b)
        return divide(x, add(x, y))

    def poisson(self, lam=1.0, size=None):
        """Poisson variates (int64)."""
        shape, (lam,) = _parameters("poisson", _size("poisson", size), lam)
        _require("poisson", (lam < 0) | (lam != lam), "lam < 0 or lam is NaN")
        _require("poisson", lam > 9.223372006484771e18, "lam value too large")
        return self._engine.poisson(lam)

    def binomial(self, n, p, size=None):
        """Binomial variates (int64): successes in n trials of probability p."""
        shape, (trials, p) = _parameters("binomial", _size("binomial", size), n, p)
        _require("binomial", trials < 0, "n < 0")
        _require("binomial", (p < 0) | (p > 1) | (p != p), "p < 0, p > 1 or p is NaN")
        return self._engine.binomial(trials.astype(np.int64), p)

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False):
        """Uniform integers on [low, high) ([low, high] with endpoint), exactly uniform."""
        dtype = np.dtype(dtype)
        if dtype.kind not in "biu":
            raise TypeError(f"[integers] Unsupported dtype {dtype!r} for integers")
        if high is None:
            low, high = 0, low
        if isinstance(low, (ndarray, np.ndarray, list, tuple)) or isinstance(
                high, (ndarray, np.ndarray, list, tuple)):
            raise NotImplementedError("[integers] array-valued low and high are not supported "
                                      "yet; pass Python ints")
        low, high = _python_int("integers", low), _python_int("integers", high)
        top = high if endpoint else high - 1
        info = (0, 1) if dtype.kind == "b" else (np.iinfo(dtype).min, np.iinfo(dtype).max)
        if low < info[0]:
            raise ValueError(f"[integers] low is out of bounds for {dtype}")
        if top > info[1]:
            raise ValueError(f"[integers] high is out of bounds for {dtype}")
        if top < low:
            raise ValueError("[integers] low > high" if endpoint else "[integers] low >= high")
        shape = _size("integers", size)
        span = (top - low + 1) & _MASK64  # 2**64 wraps to 0: the full range
        return self._engine.integers(low & _MASK64, span, () if shape is None else shape, dtype)

    def _permutation_of(self, n):
        """A uniformly random permutation of range(n): the order of random 64-bit keys."""
        keys = self._engine.integers(0, 0, (n,), np.uint64)
        return _core._argsort(keys, -1)

    def permutation(self, x, axis=0):
        """A permuted copy of x along axis, or a permutation of range(x) for an int x."""
        if isinstance(x, numbers.Integral) and not isinstance(x, bool):
            return self._permutation_of(int(x))
        x = operand(x)
        if x.ndim == 0:
            raise IndexError("[permutation] x must be an integer or at least 1-dimensional")
        axis = _axis("permutation", axis, x.ndim)
        return x.take(self._permutation_of(x.shape[axis]), axis=axis)

    def shuffle(self, x, axis=0):
        """Permutes x in place along axis."""
        if not isinstance(x, (ndarray, np.ndarray)):
            raise TypeError("[shuffle] x must be an array (tessera.ndarray or numpy.ndarray)")
        if x.ndim == 0:
            raise TypeError("[shuffle] x must be at least 1-dimensional")
        axis = _axis("shuffle", axis, x.ndim)
        order = self._permutation_of(x.shape[axis])
        if isinstance(x, np.ndarray):
            x[...] = np.take(x, order.get(), axis=axis)
        else:
            x[...] = x.take(order, axis=axis)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        """Random samples from a (or from range(a)), with or without replacement, uniform or
        with probabilities p."""
        shape = _size("choice", size)
        count = 1 if shape is None else math.prod(shape)
        if isinstance(a, numbers.Integral) and not isinstance(a, bool):
            n = int(a)
            if n < 0 or (n == 0 and count):
                raise ValueError("[choice] a must be a positive integer unless no samples are "
                                 "taken")
            population = None
        else:
            population = operand(a)
            if population.ndim == 0:
                raise ValueError("[choice] a must be a sequence or an integer, not a 0-d array")
            axis = _axis("choice", axis, population.ndim)
            n = population.shape[axis]
            if n == 0 and count:
                raise ValueError("[choice] a cannot be empty unless no samples are taken")
        weights = None if p is None else self._probabilities(p, n)
        if replace:
            if weights is None:
                index = self.integers(0, n, size=count) if n else arange(0)
            else:
                cdf = weights.cumsum()
                cdf = divide(cdf, cdf[-1])
                u = self._engine.random((count,), np.float64)
                index = _core._searchsorted(cdf, u, True, None)
                index = where(index >= n, n - 1, index)
        else:
            if count > n:
                raise ValueError("[choice] Cannot take a larger sample than population when "
                                 "replace is False")
            if weights is None:
                index = self._permutation_of(n)[:count]
            else:
                if int((weights > 0).sum()) < count:
                    raise ValueError("[choice] Fewer non-zero entries in p than size")
                # Efraimidis–Spirakis: the count largest keys log(u) / p.
                u = self._engine.random((n,), np.float64)
                keys = divide(log(subtract(1.0, u)), weights)
                index = _core._argsort(-keys, -1)[:count]
        if shape is None:
            index = index[0]
        else:
            index = index.reshape(shape)
        if population is None:
            return index
        return population.take(index, axis=axis)

    def _probabilities(self, p, n):
        # Probabilities are a parameter, like index arrays: taken from the host on any device.
        p = asarray(p)
        if p.ndim != 1:
            raise ValueError("[choice] p must be 1-dimensional")
        if p.shape[0] != n:
            raise ValueError("[choice] a and p must have same size")
        p = p.astype(np.float64)
        _require("choice", (p < 0) | (p != p), "probabilities are not non-negative")
        total = float(p.sum())
        if abs(total - 1.0) > math.sqrt(np.finfo(np.float64).eps):
            raise ValueError("[choice] probabilities do not sum to 1")
        return p


def _python_int(api, value):
    if isinstance(value, (float, np.floating)):
        if not float(value).is_integer():
            raise TypeError(f"[{api}] bounds must be integers, got {value!r}")
        return int(value)
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"[{api}] bounds must be integers, got {value!r}") from None


def default_rng(seed=None):
    """A Generator seeded with `seed` (fresh entropy when None); a Generator passes through."""
    if isinstance(seed, Generator):
        return seed
    return Generator(seed)


class RandomState:
    """numpy.random.RandomState's methods over the Philox stream (the legacy API)."""

    def __init__(self, seed=None):
        self.seed(seed)

    def seed(self, seed=None):
        """Restarts the stream from `seed` (an int in [0, 2**32) or a sequence of them)."""
        if seed is not None:
            words = np.asarray(seed)
            if words.dtype.kind not in "iu" or (words.size and (
                    words.min() < 0 or words.max() > 2**32 - 1)):
                raise ValueError("[seed] Seed must be between 0 and 2**32 - 1")
        self._generator = Generator(seed)

    # dtype= (float32 or float64) is CuPy's extension of these legacy calls:
    # `cupy.random.rand(n, n, dtype=cupy.float32)` runs unchanged.
    def random_sample(self, size=None, dtype=np.float64):
        return self._generator.random(size, dtype=dtype)

    random = random_sample

    def rand(self, *shape, dtype=np.float64):
        return self._generator.random(shape or None, dtype=dtype)

    def randn(self, *shape, dtype=np.float64):
        return self._generator.standard_normal(shape or None, dtype=dtype)

    def standard_normal(self, size=None):
        return self._generator.standard_normal(size)

    def normal(self, loc=0.0, scale=1.0, size=None, dtype=np.float64):
        return self._generator.normal(loc, scale, size, dtype)

    def uniform(self, low=0.0, high=1.0, size=None, dtype=np.float64):
        """Uniform variates between low and high (high < low allowed, as in NumPy's
        legacy API)."""
        return self._generator._uniform(low, high, size, False, dtype)

    def exponential(self, scale=1.0, size=None):
        return self._generator.exponential(scale, size)

    def gamma(self, shape, scale=1.0, size=None):
        return self._generator.gamma(shape, scale, size)

    def beta(self, a, b, size=None):
        return self._generator.beta(a, b, size)

    def poisson(self, lam=1.0, size=None):
        return self._generator.poisson(lam, size)

    def binomial(self, n, p, size=None):
        return self._generator.binomial(n, p, size)

    def randint(self, low, high=None, size=None, dtype=int):
        """Integers on [low, high) (on [0, low) when high is None)."""
        return self._generator.integers(low, high, size, np.dtype(dtype))

    def choice(self, a, size=None, replace=True, p=None):
        return self._generator.choice(a, size, replace, p)

    def permutation(self, x):
        return self._generator.permutation(x)

    def shuffle(self, x):
        self._generator.shuffle(x)


_global = RandomState()


def seed(seed=None):
    """Reseeds the module-level generator of the legacy functions."""
    _global.seed(seed)


def _legacy(name):
    # A private name: errors name the RandomState method it calls, not this wrapper.
    def _call(*args, **kwargs):
        return getattr(_global, name)(*args, **kwargs)
    _call.__name__ = name
    _call.__doc__ = f"RandomState.{name} of the module-level generator (tessera.random.seed)."
    return _call


for _name in ("rand", "randn", "randint", "random", "random_sample", "uniform", "normal",
              "standard_normal", "choice", "shuffle", "permutation", "exponential", "gamma",
              "beta", "poisson", "binomial"):
    globals()[_name] = _legacy(_name)
