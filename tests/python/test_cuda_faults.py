"""Memory faults in kernels on the simulator: reported with block and thread ids as
CUDA_ERROR_ILLEGAL_ADDRESS instead of crashing the process, in the normal mode (null and
wild pointers, stack overflows) and in the bounds-checking mode TESSERA_CUDA_SIM_CHECK=1
(one element past the end of an array, a freed allocation). Every kernel source here is
also compiled by NVRTC for sm_80 and sm_90 and assembled by ptxas."""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import tessera as tp
from tessera import cuda

pytestmark = pytest.mark.skipif(not (cuda.is_available() and cuda.runtime.is_simulated()),
                                reason="the CUDA simulator's checks")

needs_toolkit = pytest.mark.skipif(
    not (tp._core._cuda.nvrtc_available() and tp._core._cuda.ptxas_available()),
    reason="NVRTC or ptxas not installed")

FAULTS = r'''
extern "C" __global__ void fill(float* a, int n, float value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = value;
}
extern "C" __global__ void copy_n(const double* src, double* dst, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i];
}
extern "C" __global__ void write_at(int* p, int offset) {
  if (threadIdx.x == 3) p[offset] = 1;
}
__device__ int deep(int depth) {
  volatile char frame[1 << 15];
  frame[0] = static_cast<char>(depth);
  return depth > 0 ? deep(depth - 1) + frame[0] : frame[0];
}
extern "C" __global__ void recurse(int* out, int depth) { out[0] = deep(depth); }
'''


@needs_toolkit
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_sources_compile_for_gpus(arch):
    ptx, _ = tp._core._cuda.nvrtc_compile(FAULTS, [], [], arch)
    assert tp._core._cuda.ptxas_assemble(ptx, arch)[:4] == b"\x7fELF"


def module():
    return tp.RawModule(code=FAULTS)


def test_null_pointer_is_reported_and_the_device_stays_usable():
    m = module()
    m.get_function("write_at")((2,), (32,), (np.uint64(0), np.int32(5)))  # a null pointer
    with pytest.raises(cuda.CUDARuntimeError) as info:
        cuda.Device().synchronize()
    message = str(info.value)
    assert "CUDA_ERROR_ILLEGAL_ADDRESS" in message
    assert "kernel write_at" in message and "thread (3,0,0)" in message
    assert "address 0x14: a null pointer" in message
    # The error is reported once; later work runs normally.
    a = tp.zeros(1000, dtype=np.float32)
    m.get_function("fill")((8,), (128,), (a, np.int32(1000), np.float32(2.5)))
    np.testing.assert_array_equal(tp.asnumpy(a), np.full(1000, 2.5, np.float32))


def test_stack_overflow_is_reported():
    m = module()
    out = tp.zeros(1, dtype=np.int32)
    m.get_function("recurse")((1,), (2,), (out, np.int32(4)))  # 5 frames of 32 KiB: fits
    cuda.Device().synchronize()
    m.get_function("recurse")((1,), (2,), (out, np.int32(100)))
    with pytest.raises(cuda.CUDARuntimeError, match=r"ILLEGAL_ADDRESS.*kernel recurse, block "
                       r"\(0,0,0\), thread \(0,0,0\).*stack overflowed"):
        cuda.Device().synchronize()


def test_fault_on_a_stream_is_reported_by_that_stream():
    m = module()
    stream = cuda.Stream(non_blocking=True)
    with stream:
        m.get_function("write_at")((1,), (4,), (np.uint64(0), np.int32(0)))
    with pytest.raises(cuda.CUDARuntimeError, match="ILLEGAL_ADDRESS"):
        stream.synchronize()
    stream.synchronize()  # reported once


@pytest.mark.parametrize("faulthandler_enabled", ["before", "after"])
def test_faults_outside_kernels_still_crash(faulthandler_enabled):
    """The trap takes only faults of kernel code; others reach the handler that was there
    before (here Python's faulthandler, enabled before the simulator starts or after its
    first launch), and the process ends. A kernel fault is reported either way."""
    script = textwrap.dedent(f"""
        import ctypes, faulthandler, numpy as np, tessera as tp
        from tessera import cuda
        if {faulthandler_enabled == "before"}:
            faulthandler.enable()
        kernel = tp.RawModule(code={FAULTS!r}).get_function("write_at")
        for offset in (0, 1):
            with cuda.Device(0):
                kernel((1,), (4,), (np.uint64(0), np.int32(offset)))
                try:
                    cuda.Device().synchronize()
                except cuda.CUDARuntimeError as e:
                    print("reported:", e, flush=True)
            faulthandler.enable()
        ctypes.string_at(8)
        print("survived", flush=True)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, env=os.environ.copy())
    assert done.returncode != 0 and "survived" not in done.stdout
    assert "Segmentation fault" in done.stderr
    reports = [line for line in done.stdout.splitlines() if line.startswith("reported:")]
    assert len(reports) == 2, done.stdout + done.stderr
    assert "address 0x0: a null pointer" in reports[0]
    assert "address 0x4: a null pointer" in reports[1]


CHECKED = textwrap.dedent("""
    import json, numpy as np, tessera as tp
    from tessera import cuda
    m = tp.RawModule(code=SOURCE)
    fill, copy_n = m.get_function("fill"), m.get_function("copy_n")
    pool = tp.get_default_memory_pool()

    def outcome(launch):
        try:
            launch()
            cuda.Device().synchronize()
            return "ok"
        except cuda.CUDARuntimeError as e:
            return str(e)

    results = {}
    for n in (1000, 1001, 7):
        a = tp.zeros(n, dtype=np.float32)
        results[f"fill {n}"] = outcome(lambda: fill((n // 64 + 1,), (64,), (a, np.int32(n), np.float32(1))))
        results[f"fill {n} + 1"] = outcome(
            lambda: fill((n // 64 + 1,), (64,), (a, np.int32(n + 1), np.float32(1))))
        results[f"values {n}"] = tp.asnumpy(a).tolist() == [1.0] * n
        results[f"pool {n}"] = [pool.used_bytes(), pool.total_bytes(), pool.free_bytes()]
        del a
    src, dst = tp.arange(3.0), tp.zeros(3)
    results["read past the end"] = outcome(lambda: copy_n((1,), (32,), (src[1:], dst, np.int32(3))))
    stale = tp.zeros(100, dtype=np.float32)
    address = stale.data_ptr
    del stale
    results["freed"] = outcome(lambda: fill((1,), (32,), (np.uint64(address), np.int32(32), np.float32(1))))
    results["after"] = outcome(lambda: copy_n((1,), (32,), (src, dst, np.int32(3))))
    results["copied"] = tp.asnumpy(dst).tolist()
    print(json.dumps(results))
""")


def test_bounds_checking_mode():
    """TESSERA_CUDA_SIM_CHECK=1 (a process of its own: the mode is chosen at start)."""
    env = {**os.environ, "TESSERA_CUDA_SIM_CHECK": "1"}
    done = subprocess.run([sys.executable, "-c", f"SOURCE = {FAULTS!r}\n" + CHECKED],
                          capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout.strip().splitlines()[-1])
    for n in (1000, 1001, 7):
        assert results[f"fill {n}"] == "ok"
        assert results[f"values {n}"]
        overrun = results[f"fill {n} + 1"]
        assert "CUDA_ERROR_ILLEGAL_ADDRESS" in overrun, overrun
        block, thread = divmod(n, 64)
        assert f"kernel fill, block ({block},0,0), thread ({thread},0,0)" in overrun, overrun
        assert f"0 bytes past the end of a {4 * n}-byte allocation" in overrun, overrun
        # The pool hands out exact allocations and caches nothing in this mode.
        assert results[f"pool {n}"] == [4 * n, 4 * n, 0]
    # src[1:] has two elements: the third read lands 0 bytes past the end of src's 24.
    assert "0 bytes past the end of a 24-byte allocation" in results["read past the end"]
    assert "kernel copy_n, block (0,0,0), thread (2,0,0)" in results["read past the end"]
    assert "that was freed, at offset 0" in results["freed"], results["freed"]
    assert results["after"] == "ok" and results["copied"] == [0.0, 1.0, 2.0]
