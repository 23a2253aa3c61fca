"""Numba's `cuda` module as seen inside kernels: `cuda.grid`, `cuda.threadIdx`,
`cuda.shared.array`, `cuda.atomic.add`, `cuda.syncthreads` ... Here they are only names:
the compiler (tessera/jit/cuda_intrinsics.py) recognises each by its `_tessera_cuda_name`
(its path in the module) wherever a kernel refers to it, `cuda.atomic.add` or an imported
`atomic.add`. Used outside a kernel, they say so."""


class KernelOnly:
    """A name of Numba's `cuda` module that means something only inside a kernel."""

    def __init__(self, name, members=()):
        self._tessera_cuda_name = name
        for member in members:
            setattr(self, member, KernelOnly(f"{name}.{member}"))

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"cuda.{self._tessera_cuda_name}() can only be called inside a kernel "
                           "or device function compiled with tessera.cuda.jit")

    def __repr__(self):
        return f"<tessera.cuda.{self._tessera_cuda_name} (inside kernels only)>"


_AXES = ("x", "y", "z")

threadIdx = KernelOnly("threadIdx", _AXES)
blockIdx = KernelOnly("blockIdx", _AXES)
blockDim = KernelOnly("blockDim", _AXES)
gridDim = KernelOnly("gridDim", _AXES)
laneid = KernelOnly("laneid")
warpsize = 32

shared = KernelOnly("shared", ("array",))
local = KernelOnly("local", ("array",))
const = KernelOnly("const", ("array_like",))
# Cooperative groups: the grid group of a cooperative launch (a kernel that synchronizes
# its grid is launched cooperatively).
cg = KernelOnly("cg", ("this_grid",))
# Half-precision arithmetic and math (cuda_intrinsics.FP16_ARITY).
fp16 = KernelOnly("fp16", ("hadd", "hsub", "hmul", "hdiv", "hfma", "hneg", "habs", "hsin",
                           "hcos", "hlog", "hlog2", "hlog10", "hexp", "hexp2", "hexp10",
                           "hsqrt", "hrsqrt", "hceil", "hfloor", "hrint", "htrunc", "hrcp",
                           "heq", "hne", "hge", "hgt", "hle", "hlt", "hmax", "hmin"))
atomic = KernelOnly("atomic", ("add", "sub", "max", "min", "nanmax", "nanmin", "and_", "or_",
                               "xor", "exch", "inc", "dec", "cas", "compare_and_swap"))

NAMES = (
    "grid", "gridsize", "syncthreads", "syncthreads_count", "syncthreads_and",
    "syncthreads_or", "syncwarp", "threadfence", "threadfence_block", "threadfence_system",
    "activemask", "lanemask_lt", "shfl_sync", "shfl_up_sync", "shfl_down_sync",
    "shfl_xor_sync", "all_sync", "any_sync", "eq_sync", "ballot_sync", "match_any_sync",
    "match_all_sync", "popc", "brev", "clz", "ffs", "fma", "cbrt", "selp", "nanosleep",
)
globals().update({name: KernelOnly(name) for name in NAMES})

__all__ = ["threadIdx", "blockIdx", "blockDim", "gridDim", "laneid", "warpsize", "shared",
           "local", "const", "cg", "fp16", "atomic", *NAMES]
