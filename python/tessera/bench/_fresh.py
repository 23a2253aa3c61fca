"""python .../tessera/bench/_fresh.py NAME SIZE LIBRARY [--quick]: runs one benchmark case
once in this new process, as a user's script runs it, and prints a JSON line: the run's
seconds (the interpreter's start and the import not counted), the peak resident size, and
the resident size before the run. Spawned by the runner for fresh-process cases.

Run as a file, not as `-m tessera.bench._fresh`: a NumPy run must not import tessera, whose
import would change the process's allocator state and resident size."""

import importlib
import json
import os
import resource
import sys
import time
import types


def _resident_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


def _peak_resident_bytes():
    """This process's peak resident size (VmHWM: getrusage's maxrss would count the parent's
    peak, which a fork-and-exec child inherits on Linux)."""
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmHWM:"))


def _cases_module():
    """cases.py imported as part of a stand-in package: the benchmark's cases without
    importing tessera (its package's parent)."""
    package = types.ModuleType("_bench_cases")
    package.__path__ = [os.path.dirname(os.path.abspath(__file__))]
    sys.modules["_bench_cases"] = package
    return importlib.import_module("_bench_cases.cases")


def main(argv):
    name, size, library = argv[:3]
    quick = "--quick" in argv[3:]
    import numpy as np

    cases = _cases_module()
    case = next(c for c in cases.all_cases(quick) if c.name == name and c.size == size)
    host = case.make_inputs(np.random.default_rng(1234))
    if library == "numpy":
        xp, inputs, finish = np, tuple(np.array(a, copy=True) for a in host), lambda r: None
    else:
        import tessera as xp
        from tessera.bench.runner import _synchronize, _tessera_side
        inputs, finish = _tessera_side(case).prepare(host), _synchronize
    base = _resident_bytes()
    start = time.perf_counter()
    finish(case.run(xp, *inputs))
    seconds = time.perf_counter() - start
    peak = _peak_resident_bytes()
    print(json.dumps({"seconds": seconds, "peak_rss": peak, "base_rss": base}))


if __name__ == "__main__":
    main(sys.argv[1:])
