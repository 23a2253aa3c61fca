"""Checking and timing one case: tessera and NumPy in the same process, interleaved."""

import json
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

import tessera as tp

# Errors that mean "tessera lacks this function", as opposed to a wrong answer.
_MISSING = (AttributeError, NotImplementedError)


@dataclass
class Timing:
    samples: list = field(default_factory=list)
    # Fresh-process cases: each run's peak resident size, and the size once the library was
    # imported and the inputs made (bytes).
    peak_rss: list = field(default_factory=list)
    base_rss: list = field(default_factory=list)

    @property
    def median(self):
        return statistics.median(self.samples)

    def summary(self):
        return {"min": min(self.samples), "median": self.median, "max": max(self.samples),
                "runs": len(self.samples)}


@dataclass
class PeerResult:
    status: str                       # "ok", "failed"
    detail: str = ""
    timing: Timing | None = None


@dataclass
class Result:
    case: object
    status: str                       # "ok", "missing", "failed"
    detail: str = ""
    tessera: Timing | None = None
    numpy: Timing | None = None
    peers: dict = field(default_factory=dict)   # peer name -> PeerResult, for the peers that ran

    @property
    def speedup(self):
        return self.numpy.median / self.tessera.median if self.status == "ok" else None

    def peer_speedup(self, name):
        peer = self.peers.get(name)
        if self.status != "ok" or peer is None or peer.status != "ok":
            return None
        return self.numpy.median / peer.timing.median


def _synchronize(result):
    """Waits until `result` is computed on its device, so the clock reads finished work:
    pending (lazy) arrays are evaluated, then the device's queue drained."""
    values = result if isinstance(result, (tuple, list)) else (result,)
    for v in values:
        if isinstance(v, tp.ndarray):
            v._evaluate()
            v.device.synchronize()


def _to_host(result):
    if isinstance(result, (tuple, list)):
        return type(result)(_to_host(r) for r in result)
    return tp.asnumpy(result) if isinstance(result, tp.ndarray) else np.asarray(result)


@dataclass
class _Side:
    """One contestant of a case: how it gets fresh inputs, runs, and finishes its work."""
    prepare: Callable
    run: Callable
    synchronize: Callable
    timing: Timing = field(default_factory=Timing)


def host_copies(host_inputs):
    """Private copies of a case's inputs, so no run sees another's writes."""
    return tuple(np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in host_inputs)


def _numpy_side(case):
    return _Side(host_copies, lambda *a: case.run(np, *a), lambda r: None)


def _tessera_side(case):
    return _Side(lambda h: tuple(tp.array(a) if isinstance(a, np.ndarray) else a for a in h),
                 lambda *a: case.run(tp, *a), _synchronize)


def _check(case, got, want):
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape:
        raise AssertionError(f"shape {got.shape} != NumPy's {want.shape}")
    if got.dtype != want.dtype:
        raise AssertionError(f"dtype {got.dtype} != NumPy's {want.dtype}")
    if not case.values_defined:
        return
    if case.statistical:
        for name, moment in (("mean", np.mean), ("std", np.std)):
            if abs(moment(got) - moment(want)) > case.atol:
                raise AssertionError(f"{name} {moment(got):.4g} differs from NumPy's "
                                     f"{moment(want):.4g} by more than {case.atol}")
        return
    if not np.allclose(got, want, rtol=case.rtol, atol=case.atol, equal_nan=True):
        err = np.max(np.abs(got.astype(np.complex128) - want.astype(np.complex128)))
        raise AssertionError(f"differs from NumPy: max abs error {err:.3g} beyond rtol={case.rtol}, atol={case.atol}")


def _check_all(case, got, want):
    if isinstance(want, (tuple, list)):
        for g, w in zip(got, want):
            _check(case, g, w)
    else:
        _check(case, got, want)


def _time_once(side, args, calls=1):
    """Seconds per run: `calls` runs back to back, then the last result's completion."""
    start = time.perf_counter()
    for _ in range(calls):
        result = side.run(*args)
    side.synchronize(result)
    return (time.perf_counter() - start) / calls


def _time_in_fresh_process(case, library, quick, timing):
    """One run of `case` by `library` ("numpy" or "tessera") in a new Python process, timed
    there without the interpreter's start and the import; appends its peak resident size."""
    command = [sys.executable, os.path.join(os.path.dirname(__file__), "_fresh.py"), case.name,
               case.size, library]
    done = subprocess.run(command + (["--quick"] if quick else []), capture_output=True,
                          text=True, env=dict(os.environ, PYTHONWARNINGS="ignore"))
    if done.returncode != 0:
        raise RuntimeError(f"{library} in a fresh process failed: {done.stderr.strip()[-300:]}")
    report = json.loads(done.stdout.splitlines()[-1])
    timing.peak_rss.append(report["peak_rss"])
    timing.base_rss.append(report["base_rss"])
    return report["seconds"]


def _first_line(error):
    return f"{type(error).__name__}: {error}".splitlines()[0][:120]


def run_case(case, budget_s, peers=(), min_runs=5, max_runs=60, quick=False):
    """Checks `case` against NumPy, then times NumPy, tessera and each peer that can express
    the case alternately until the medians are stable (or the time budget is spent). A
    fresh-process case runs NumPy and tessera, each run in a process of its own."""
    rng = np.random.default_rng(1234)
    host_inputs = case.make_inputs(rng)
    want = case.run(np, *_numpy_side(case).prepare(host_inputs))
    tessera = _tessera_side(case)
    try:
        got = tessera.run(*tessera.prepare(host_inputs))
        _synchronize(got)
    except (*_MISSING, TypeError) as error:
        # An operator Python cannot find on tessera.ndarray is a missing function too.
        if isinstance(error, TypeError) and "unsupported operand" not in str(error):
            raise
        return Result(case, "missing", _first_line(error))
    try:
        _check_all(case, _to_host(got), want)
    except AssertionError as error:
        return Result(case, "failed", str(error))

    sides = {"tessera": tessera, "numpy": _numpy_side(case)}
    if case.fresh_process:
        for _ in range(3):
            for name, side in sides.items():
                side.timing.samples.append(_time_in_fresh_process(case, name, quick, side.timing))
        return Result(case, "ok", tessera=tessera.timing, numpy=sides["numpy"].timing)
    peer_results = {}
    for peer in peers:
        program = peer.implementation(case)
        if program is None:
            continue
        side = _Side(peer.prepare, program, peer.synchronize)
        try:
            result = side.run(*side.prepare(host_inputs))
            side.synchronize(result)
            _check_all(case, peer.to_host(result), want)
        except Exception as error:  # a peer's failure is reported in its column, not raised
            peer_results[peer.name] = PeerResult("failed", _first_line(error))
            continue
        sides[peer.name] = side
        peer_results[peer.name] = PeerResult("ok", timing=side.timing)

    args = {name: side.prepare(host_inputs) for name, side in sides.items()}
    for name, side in sides.items():  # warm-up: caches, page faults, lazy set-up, JIT compiles
        _time_once(side, args[name])
    spent = 0.0
    for run in range(max_runs):
        for name, side in sides.items():
            if case.mutates:
                args[name] = side.prepare(host_inputs)
            t = _time_once(side, args[name], case.calls)
            side.timing.samples.append(t / case.ops)
            spent += t
        if run + 1 >= min_runs and (spent > budget_s * len(sides) / 2 or _stable(sides)):
            break
    return Result(case, "ok", tessera=tessera.timing, numpy=sides["numpy"].timing, peers=peer_results)


def _stable(sides):
    """Both medians moved less than 2% over the last 5 runs."""
    for side in sides.values():
        s = side.timing.samples
        if len(s) < 10:
            return False
        if abs(statistics.median(s) - statistics.median(s[:-5])) > 0.02 * statistics.median(s):
            return False
    return True
