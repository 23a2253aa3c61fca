"""The benchmark's machinery: checking against NumPy before timing, missing functions,
peers in their own columns, and the JSON and chart outputs."""

import argparse
import json

import numpy as np
import pytest

from tessera.bench import report
from tessera.bench.cases import Case
from tessera.bench.peers import Peer
from tessera.bench.runner import run_case


def _case(name="a + b", run=lambda xp, a, b: a + b, **kw):
    return Case(name, "4 elems", lambda rng: (rng.standard_normal(4), rng.standard_normal(4)),
                run, rtol=0, **kw)


class _FakePeer(Peer):
    """A peer whose program for 'a + b' is given by the test."""

    def __init__(self, name, program):
        self.name = name
        self.program = program

    def implementation(self, case):
        return self.program if case.name == "a + b" else None


def _lacking(xp, a, b):
    """NumPy has the function; tessera (a module without it) does not."""
    return a + b if xp is np else xp.no_such_function(a)


def _run(case, peers=()):
    return run_case(case, budget_s=0.01, peers=peers, min_runs=2, max_runs=3)


def test_case_is_timed_after_its_check():
    result = _run(_case())
    assert result.status == "ok"
    assert len(result.tessera.samples) >= 2 and len(result.numpy.samples) >= 2
    assert result.speedup > 0


def test_wrong_answer_fails_the_case():
    result = _run(_case(run=lambda xp, a, b: a + b + (0 if xp is np else 1)))
    assert result.status == "failed"
    assert "differs from NumPy" in result.detail


def test_function_tessera_lacks_is_missing():
    result = _run(_case(run=_lacking))
    assert result.status == "missing"
    assert "no_such_function" in result.detail


def test_peers_are_checked_and_timed_in_their_own_columns():
    right = _FakePeer("right", lambda a, b: a + b)
    wrong = _FakePeer("wrong", lambda a, b: a - b)
    result = _run(_case(), peers=[right, wrong])
    assert result.peers["right"].status == "ok"
    assert len(result.peers["right"].timing.samples) >= 2
    assert result.peer_speedup("right") > 0
    assert result.peers["wrong"].status == "failed"
    assert result.peer_speedup("wrong") is None

    other = _run(_case(name="a * b", run=lambda xp, a, b: a * b), peers=[right])
    assert other.peers == {}                       # the peer cannot express this case

    text = report.table([result, other], triad_bw=1e10, peer_names=["right", "wrong"])
    lines = text.splitlines()
    header = lines[0].split()
    assert header[-3:] == ["right", "wrong", "notes"]
    assert "FAILED" in lines[2] and "wrong: AssertionError" in lines[2]
    assert f"x {'-':>9} {'-':>9}  [" in lines[3]


def test_outputs_carry_every_case_and_peer(tmp_path):
    right = _FakePeer("right", lambda a, b: a + b)
    right.version = lambda: "1.0"
    results = [_run(_case(), peers=[right]),
               _run(_case(name="missing one", run=_lacking))]
    args = argparse.Namespace(quick=True)
    record = json.loads(json.dumps(report.to_json(results, 1e10, "cpu", args, [right])))
    assert record["versions"]["right"] == "1.0"
    ok, missing = record["cases"]
    assert ok["peers"]["right"]["status"] == "ok" and ok["peers"]["right"]["speedup"] > 0
    assert missing["status"] == "missing"
    png = tmp_path / "chart.png"
    report.chart(results, str(png), ["right"])
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cases_are_selected_by_name_size_and_device():
    from tessera.bench.__main__ import select_cases
    from tessera.bench.cases import all_cases
    full = all_cases(quick=False)
    large = select_cases(full, "a + b|sum|matmul float32", "1e8|800 MB|N=4096", "cuda")
    assert sorted((c.name, c.size) for c in large) == [
        ("a + b", "1e8"), ("matmul float32", "N=4096"), ("sum", "800 MB")]
    assert all(c.group != "jit" for c in select_cases(full, "*", "*", "cuda"))
    assert all(c.group != "cuda.jit" for c in select_cases(full, "*", "*", "cpu"))
    assert select_cases(full, "a + b", "3 elems", "cpu") == []


@pytest.mark.parametrize("name", ["numexpr", "numba", "jax"])
def test_installed_peer_agrees_with_numpy_on_a_stencil(name):
    pytest.importorskip(name)
    from tessera.bench import peers
    from tessera.bench.cases import classic_cases

    peer = next(p for p in peers.ALL if p.name == name)
    assert peer.available()
    stencil = next(c for c in classic_cases(quick=True) if c.name == "3x3 box stencil")
    stencil.make_inputs = lambda rng: (rng.standard_normal((20, 30)),)
    result = _run(stencil, peers=[peer])
    assert result.peers[name].status == "ok", result.peers[name].detail


def _small_cases(group, size=None):
    from tessera.bench.cases import all_cases
    return [c for c in all_cases(quick=True) if c.group == group and size in (None, c.size)]


def test_every_latency_and_sweep_case_agrees_with_numpy():
    cases = _small_cases("latency") + _small_cases("sweep", "1e3") + _small_cases("sweep", "32²")
    assert len(cases) >= 30
    for case in cases:
        result = _run(case)
        assert result.status == "ok", (case.name, result.detail)


def test_a_case_repeating_its_operation_is_timed_per_operation():
    def run(xp, a, b):
        return [a + b for _ in range(1000)][-1]
    whole = _run(_case(run=run))
    per_op = _run(_case(run=run, ops=1000))
    # The same work reported per operation: a thousandth of the run's time (the two runs'
    # noise is far below the factor of 10 asked here).
    assert per_op.tessera.median < whole.tessera.median / 10
    assert per_op.numpy.median < whole.numpy.median / 10


def test_a_case_without_defined_values_checks_shape_and_dtype_only():
    garbage = lambda xp, a, b: a * 0 + (7 if xp is np else 8)  # noqa: E731
    assert _run(_case(run=garbage, values_defined=False)).status == "ok"
    assert _run(_case(run=garbage)).status == "failed"
    wrong_dtype = lambda xp, a, b: (a if xp is np else a.astype(xp.float32))  # noqa: E731
    assert _run(_case(run=wrong_dtype, values_defined=False)).status == "failed"


def test_a_fresh_process_case_runs_each_library_in_a_process_of_its_own(tmp_path):
    import dataclasses
    (latency,) = [c for c in _small_cases("latency") if c.name == "t[1]"]
    result = _run(dataclasses.replace(latency, fresh_process=True))
    assert result.status == "ok"
    for timing in (result.tessera, result.numpy):
        assert len(timing.samples) == len(timing.peak_rss) == 3
        assert all(peak >= base > 0 for peak, base in zip(timing.peak_rss, timing.base_rss))
    # The run's own resident size, not the parent's: far below this test process's.
    assert max(result.numpy.peak_rss) < 1 << 30
    text = report.table([result], 1e10)
    assert "peak RSS tessera" in text and "numpy" in text
    record = report.to_json([result], 1e10, "cpu", argparse.Namespace(quick=True))
    assert set(record["cases"][0]["peak_rss_bytes"]) == {"tessera", "numpy"}


def test_the_course_heat_solve_agrees_with_numpy():
    from tessera.bench import _small
    (case,) = [c for c in _small_cases("course") if c.size == "N=256"]
    p, f = case.make_inputs(np.random.default_rng(0))
    p, f = p[:32, :32].copy(), f[:32, :32].copy()
    f[16, 16] = f.max()
    import tessera as tp
    want = _small.course_heat_solve(np, p, f)
    got = _small.course_heat_solve(tp, tp.array(p), tp.array(f))
    np.testing.assert_allclose(tp.asnumpy(got), want, rtol=1e-12, atol=1e-15)


def test_user_kernel_cases_agree_with_numpy():
    """The kernels group's ElementwiseKernel, fuse and ReductionKernel cases, and the built-in
    expressions beside them, give NumPy's values."""
    cases = _small_cases("kernels")
    assert {c.name for c in cases} >= {"ElementwiseKernel (x-y)*(x-y)", "fuse (x-y)*(x-y)",
                                       "ReductionKernel L2 norm of rows"}
    for case in cases:
        result = _run(case)
        assert result.status == "ok", (case.name, case.size, result.detail)
