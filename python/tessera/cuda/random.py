"""Numba's numba.cuda.random: one xoroshiro128+ generator per CUDA thread, initialized so
that generator i is generator 0 advanced by i * 2**64 steps. The same seed gives the same
numbers as Numba's, bit for bit (the integer sequence, the uniform floats); the normal
draws follow the same Box-Muller formula, in the device's math library.

A state array is a (n, 2) uint64 tessera array — each row a generator's (s0, s1) — where
Numba's is a record array of the same 16 bytes per generator; kernels use it the same way:

    states = create_xoroshiro128p_states(n, seed=1)

    @cuda.jit
    def kernel(states, out):
        i = cuda.grid(1)
        out[i] = xoroshiro128p_uniform_float32(states, i)

The functions below are plain Python compiled twice: as CUDA device functions (what kernels
call) and as CPU functions (the host computes the initial states, as Numba does).
"""

import math
import types

import numpy as np

from ..jit.cuda_dispatcher import jit as _cuda_jit
from ..jit.dispatcher import jit as _host_jit

TWO_PI_FLOAT32 = np.float32(2 * math.pi)
TWO_PI_FLOAT64 = np.float64(2 * math.pi)


def init_xoroshiro128p_state(states, index, seed):
    """Sets states[index] from a 64-bit seed by SplitMix64 (small seeds do not give
    predictable first numbers)."""
    index = np.int64(index)
    z = np.uint64(seed) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint32(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint32(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint32(31))
    states[index, 0] = z
    states[index, 1] = z


def rotl(x, k):
    """x rotated left by k bits."""
    x = np.uint64(x)
    k = np.uint32(k)
    return (x << k) | (x >> np.uint32(64 - k))


def xoroshiro128p_next(states, index):
    """The next uint64 of generator `index`, which advances."""
    index = np.int64(index)
    s0 = states[index, 0]
    s1 = states[index, 1]
    result = s0 + s1
    s1 ^= s0
    states[index, 0] = rotl(s0, np.uint32(55)) ^ s1 ^ (s1 << np.uint32(14))
    states[index, 1] = rotl(s1, np.uint32(36))
    return result


def xoroshiro128p_jump(states, index):
    """Advances generator `index` by 2**64 steps."""
    index = np.int64(index)
    jump = (np.uint64(0xBEAC0467EBA5FACB), np.uint64(0xD86B048B86AA9922))
    s0 = np.uint64(0)
    s1 = np.uint64(0)
    for i in range(2):
        for b in range(64):
            if jump[i] & (np.uint64(1) << np.uint32(b)):
                s0 ^= states[index, 0]
                s1 ^= states[index, 1]
            xoroshiro128p_next(states, index)
    states[index, 0] = s0
    states[index, 1] = s1


def uint64_to_unit_float64(x):
    """A uint64 as a float64 in [0, 1): its top 53 bits."""
    x = np.uint64(x)
    return (x >> np.uint32(11)) * (np.float64(1) / (np.uint64(1) << np.uint32(53)))


def uint64_to_unit_float32(x):
    """A uint64 as a float32 in [0, 1) (the float64 one, rounded)."""
    return np.float32(uint64_to_unit_float64(x))


def xoroshiro128p_uniform_float32(states, index):
    """A float32 in [0, 1) from generator `index`."""
    return uint64_to_unit_float32(xoroshiro128p_next(states, index))


def xoroshiro128p_uniform_float64(states, index):
    """A float64 in [0, 1) from generator `index`."""
    return uint64_to_unit_float64(xoroshiro128p_next(states, index))


def xoroshiro128p_normal_float32(states, index):
    """A standard normal float32 from generator `index` (Box-Muller; two steps)."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(-np.float32(2.0) * math.log(u1)) * math.cos(TWO_PI_FLOAT32 * u2)


def xoroshiro128p_normal_float64(states, index):
    """A standard normal float64 from generator `index` (Box-Muller; two steps). Its
    uniforms are float32 draws, as Numba's are, so that the sequences match."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(-np.float64(2.0) * math.log(u1)) * math.cos(TWO_PI_FLOAT64 * u2)


def init_xoroshiro128p_states_cpu(states, seed, subsequence_start):
    """Generator 0 from `seed`, jumped `subsequence_start` times; generator i the one
    before it jumped once."""
    n = states.shape[0]
    if n >= 1:
        init_xoroshiro128p_state(states, 0, seed)
        for _ in range(subsequence_start):
            xoroshiro128p_jump(states, 0)
        for i in range(1, n):
            states[i, 0] = states[i - 1, 0]
            states[i, 1] = states[i - 1, 1]
            xoroshiro128p_jump(states, i)


_FUNCTIONS = [init_xoroshiro128p_state, rotl, xoroshiro128p_next, xoroshiro128p_jump,
              uint64_to_unit_float64, uint64_to_unit_float32, xoroshiro128p_uniform_float32,
              xoroshiro128p_uniform_float64, xoroshiro128p_normal_float32,
              xoroshiro128p_normal_float64, init_xoroshiro128p_states_cpu]


def _compiled(decorate):
    """Every function above compiled by `decorate`, calling each other's compiled versions
    (each set sees its own names)."""
    names = dict(globals())
    for f in _FUNCTIONS:
        clone = types.FunctionType(f.__code__, names, f.__name__, f.__defaults__, f.__closure__)
        clone.__doc__, clone.__qualname__ = f.__doc__, f.__qualname__
        names[f.__name__] = decorate(clone)
    return {f.__name__: names[f.__name__] for f in _FUNCTIONS}


_HOST = _compiled(_host_jit)
globals().update(_compiled(_cuda_jit(device=True)))


def init_xoroshiro128p_states(states, seed, subsequence_start=0, stream=0):
    """Initializes the device state array `states` ((n, 2) uint64) for `seed`."""
    host = np.empty((states.shape[0], 2), dtype=np.uint64)
    _HOST["init_xoroshiro128p_states_cpu"](host, np.uint64(seed), np.uint64(subsequence_start))
    states.copy_to_device(host, stream=stream)


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """A new device array of `n` generators' states for `seed`: generator i starts
    i * 2**64 steps (plus subsequence_start * 2**64) into the sequence."""
    from ._numba_api import device_array  # noqa: PLC0415
    states = device_array((n, 2), dtype=np.uint64, stream=stream)
    init_xoroshiro128p_states(states, seed, subsequence_start, stream)
    return states


__all__ = ["create_xoroshiro128p_states", "init_xoroshiro128p_states",
           "xoroshiro128p_uniform_float32", "xoroshiro128p_uniform_float64",
           "xoroshiro128p_normal_float32", "xoroshiro128p_normal_float64",
           "xoroshiro128p_next", "xoroshiro128p_jump", "init_xoroshiro128p_state"]
