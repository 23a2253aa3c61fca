"""The GPU check's first look (tools/gpu/check, phase "tessera import"): which Python, NumPy
and tessera this run uses (paths prove they come from the payload), what tessera sees of the
CUDA device, NVRTC and OpenBLAS, and one smoke test of each path to the GPU (an array
round trip, an operation, a RawKernel compiled by NVRTC and launched by the driver).

Exit status: 0 when tessera imports and its CUDA device works, 1 when the import fails,
2 when it imports but the CUDA device is missing or the smoke test fails."""

import importlib
import importlib.metadata
import os
import platform
import sys
import traceback


def line(name, value):
    print(f"{name:<28} {value}")


def versions_of_peers():
    for dist in ("cupy-cuda13x", "cupy-cuda12x", "numba", "numba-cuda", "jax", "scipy",
                 "pytest", "pytest-xdist", "pytest-timeout", "hypothesis", "matplotlib"):
        try:
            line(dist, importlib.metadata.version(dist))
        except importlib.metadata.PackageNotFoundError:
            pass


def mapped_openblas():
    """The OpenBLAS file this process mapped: proof of which library tessera loaded."""
    with open("/proc/self/maps") as maps:
        paths = {ln.split()[-1] for ln in maps if "openblas" in ln and "/" in ln}
    return ", ".join(sorted(paths)) or "none mapped"


def smoke(tp, np):
    """One of each path to the device; raises on a wrong answer."""
    host = np.arange(1_000_000, dtype=np.float64)
    a = tp.asarray(host)                                  # host -> device
    np.testing.assert_array_equal(tp.asnumpy(a), host)    # device -> host
    total = float((a * 2.0 + 1.0).sum())                  # an expression and a reduction
    assert total == float((host * 2.0 + 1.0).sum()), total
    kernel = tp.RawKernel(r'''
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}''', "saxpy")
    n = 4096
    x = tp.asarray(np.ones(n, np.float32))
    y = tp.asarray(np.full(n, 2.0, np.float32))
    kernel(((n + 255) // 256,), (256,), (np.float32(3.0), x, y, np.int32(n)))
    np.testing.assert_array_equal(tp.asnumpy(y), np.full(n, 5.0, np.float32))


def main():
    line("python", f"{sys.version.split()[0]} {sys.executable}")
    line("machine", f"{platform.machine()} {platform.platform()}, {os.cpu_count()} cpus")
    import numpy as np

    line("numpy", f"{np.__version__} {os.path.dirname(np.__file__)}")
    versions_of_peers()
    try:
        import tessera as tp
    except Exception:
        print("\nIMPORT FAILED: import tessera")
        traceback.print_exc(file=sys.stdout)
        return 1
    line("tessera", f"{tp.__version__} {os.path.dirname(tp.__file__)}")
    line("tessera._core", tp._core.__file__)
    cuda = tp.cuda
    line("TESSERA_CUDA_SIM", os.environ.get("TESSERA_CUDA_SIM", "(unset)"))
    line("cuda.is_available()", cuda.is_available())
    nvrtc = tp._core._cuda.nvrtc_available()
    line("NVRTC", f"available={nvrtc} version={tp._core._cuda.nvrtc_version() if nvrtc else '-'}")
    line("ptxas", f"available={tp._core._cuda.ptxas_available()}")
    line("BLAS", tp._core._blas_config())
    tp.asnumpy(tp.ones((64, 64), device="cpu") @ tp.ones((64, 64), device="cpu"))
    line("OpenBLAS mapped", mapped_openblas())
    if not cuda.is_available():
        print("\nNO CUDA DEVICE: tessera sees none (is libcuda.so.1 on the loader's path?)")
        return 2
    line("simulated", cuda.runtime.is_simulated())
    line("devices", cuda.runtime.getDeviceCount())
    d = cuda.Device(0)
    free, total = d.mem_info
    line("device 0", f"{d.name}, compute capability {d.compute_capability}, "
                     f"{total / 2**30:.1f} GiB ({free / 2**30:.1f} free), "
                     f"{d.attributes.get('MultiProcessorCount', '?')} SMs")
    line("default device", tp.get_device())
    try:
        with tp.Device("cuda:0"):
            smoke(tp, np)
    except Exception:
        print("\nSMOKE TEST FAILED on cuda:0")
        traceback.print_exc(file=sys.stdout)
        return 2
    line("smoke test", "passed (copies, an expression, a sum, an NVRTC RawKernel)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
