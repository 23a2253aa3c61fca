"""numpy.lib's public submodules that tessera provides: stride_tricks."""

from . import stride_tricks

__all__ = ["stride_tricks"]
