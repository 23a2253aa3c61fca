"""The card's own ceilings, measured with CuPy alone (tools/gpu/check, phase "GPU ceilings"):
what any library can reach on this GPU, to read tessera's and the peers' figures against.
Runs without tessera, so a run whose tessera fails to import still yields them.

Each figure is the median of several runs timed with CUDA events after a warm-up. Exit
status 0 when measured, 3 when no GPU library is usable here (the rehearsal)."""

import statistics
import sys


def timed(cp, fn, repeats=10):
    """Median seconds of fn() on the current stream, by CUDA events, after one warm-up."""
    fn()
    times = []
    for _ in range(repeats):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop) / 1e3)
    return statistics.median(times)


def row(name, seconds, rate):
    print(f"{name:<40} {seconds * 1e3:10.3f} ms  {rate}")


def measure(cp):
    import numpy as np

    dev = cp.cuda.Device()
    props = cp.cuda.runtime.getDeviceProperties(dev.id)
    name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    print(f"device: {name}, compute capability {dev.compute_capability}, "
          f"{props['multiProcessorCount']} SMs, {props['totalGlobalMem'] / 2**30:.1f} GiB")
    print(f"CUDA driver {cp.cuda.runtime.driverGetVersion()}, runtime "
          f"{cp.cuda.runtime.runtimeGetVersion()}, NVRTC {cp.cuda.nvrtc.getVersion()}, "
          f"CuPy {cp.__version__}")

    n = 1 << 27                                        # 1 GiB of float64
    a = cp.random.standard_normal(n)
    b = cp.empty_like(a)
    t = timed(cp, lambda: b.__setitem__(Ellipsis, a))
    row("device-to-device copy, 1 GiB", t, f"{2 * a.nbytes / t / 1e9:8.0f} GB/s (read + write)")
    c = cp.empty_like(a)
    t = timed(cp, lambda: cp.add(a, b, out=c))
    row("a + b, 2^27 float64", t, f"{3 * a.nbytes / t / 1e9:8.0f} GB/s")

    x = cp.random.standard_normal(10**7)
    y = cp.empty_like(x)
    t = timed(cp, lambda: cp.sin(x, out=y))
    row("sin, 1e7 float64", t, f"{16 * x.size / t / 1e9:8.0f} GB/s")
    t = timed(cp, lambda: x.sum())
    row("sum, 1e7 float64", t, f"{8 * x.size / t / 1e9:8.0f} GB/s")

    tiny = cp.ones(3)
    t = timed(cp, lambda: [tiny + tiny for _ in range(1000)], repeats=5) / 1000
    row("x + x on 3 elements (per launch)", t, f"{t * 1e6:8.1f} us")

    # Host <-> device: tessera's CUDA operations stage through host memory for now
    # (docs/cuda.md), so these bound what they can reach.
    host = np.ones(1 << 25)                            # 256 MiB, pageable
    pinned_mem = cp.cuda.alloc_pinned_memory(host.nbytes)
    pinned = np.frombuffer(pinned_mem, host.dtype, host.size)
    pinned[...] = 1.0
    d = cp.empty(host.size)
    for label, src in (("pageable", host), ("pinned", pinned)):
        t = timed(cp, lambda src=src: d.set(src), repeats=5)
        row(f"host -> device, 256 MiB {label}", t, f"{host.nbytes / t / 1e9:8.1f} GB/s")
        t = timed(cp, lambda src=src: d.get(out=src), repeats=5)
        row(f"device -> host, 256 MiB {label}", t, f"{host.nbytes / t / 1e9:8.1f} GB/s")

    for dtype, label in ((cp.float64, "float64"), (cp.float32, "float32")):
        m = cp.random.standard_normal((8192, 8192)).astype(dtype)
        t = timed(cp, lambda m=m: m @ m, repeats=5)
        row(f"matmul 8192^3 {label} (cuBLAS)", t, f"{2 * 8192**3 / t / 1e12:8.1f} TFLOP/s")


def main():
    try:
        import cupy as cp

        cp.cuda.runtime.getDeviceCount()
    except Exception as error:
        print(f"CuPy is not usable here: {type(error).__name__}: {error}")
        return 3
    measure(cp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
