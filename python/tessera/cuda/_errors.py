"""The exceptions of tessera.cuda (CuPy's names)."""


class CUDARuntimeError(RuntimeError):
    """A CUDA driver call failed, or there is no CUDA device."""


class OutOfMemoryError(MemoryError):
    """A device (or pinned host) allocation failed even after the pool freed its cache."""
