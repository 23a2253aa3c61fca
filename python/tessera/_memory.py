"""Memory pools (CuPy's API): each device's arrays come from a caching pool."""

from . import _core


class MemoryPool:
    """The caching allocator of one device: freed blocks are kept for reuse."""

    def __init__(self, device=None):
        self.device = _core._current_device() if device is None else _core.Device(device)

    def used_bytes(self):
        """Bytes held by live arrays."""
        return self.stats()["used_bytes"]

    def free_bytes(self):
        """Bytes cached in freed blocks, ready for reuse."""
        return self.stats()["cached_bytes"]

    def total_bytes(self):
        return self.used_bytes() + self.free_bytes()

    def free_all_blocks(self):
        """Returns every cached block to the system."""
        _core._release_cached(self.device)

    def stats(self):
        """used_bytes, cached_bytes, peak_used_bytes, limit_cached_bytes, allocations, and
        cache_hits (allocations served from the cache)."""
        return _core._memory_stats(self.device)

    def __repr__(self):
        return f"<MemoryPool {self.device}: {self.stats()}>"


def get_default_memory_pool():
    """The memory pool of the current device: the CUDA device's stream-ordered pool
    (tessera.cuda.MemoryPool), or the CPU's caching allocator."""
    if _core._current_device().kind == "cuda":
        from .cuda import get_default_memory_pool as cuda_pool

        return cuda_pool()
    return MemoryPool()
