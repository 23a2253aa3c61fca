"""Python functions compiled to native code: `jit` (Numba's nopython mode; `njit` is the
same). See docs/kernels.md."""

from .dispatcher import Dispatcher, jit, njit
from .frontend import TypingError

__all__ = ["jit", "njit", "Dispatcher", "TypingError"]
