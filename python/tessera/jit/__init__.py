"""Python functions compiled to native code: `jit` (Numba's nopython mode; `njit` is the
same), `vectorize` (ufuncs from scalar functions); `tessera.cuda.jit` for CUDA kernels.
See docs/kernels.md."""

from .dispatcher import Dispatcher, jit, njit
from .frontend import TypingError
from .guvectorize import GUVectorizedUFunc, guvectorize
from .stencil import Stencil, stencil
from .vectorize import VectorizedUFunc, vectorize

# Numba's prange: in a jit(parallel=True) function its loop runs in parallel; elsewhere,
# and in Python, it is range.
prange = range

__all__ = ["jit", "njit", "prange", "vectorize", "guvectorize", "stencil", "Dispatcher",
           "TypingError", "VectorizedUFunc", "GUVectorizedUFunc", "Stencil"]
