"""pytest plugin for the GPU check (`-p tessera_gpu_outcomes`): one line per finished test,
"<outcome> <node id>", appended to $TESSERA_GPU_CHECK_OUTCOMES as it happens, and each
failure's report (its last FAILURE_CHARS characters: the assertion message and the lines
that raised it) appended to $TESSERA_GPU_CHECK_FAILURES. The check's time limit may stop
pytest before its own summary; these files still give the counts, the names of the
failures and why each failed. Under pytest-xdist only the controller writes (it receives
every worker's reports)."""

import os

FAILURE_CHARS = 4000

_out = None
_failures = None


def pytest_configure(config):
    global _out, _failures
    if hasattr(config, "workerinput"):   # inside an xdist worker
        return
    path = os.environ.get("TESSERA_GPU_CHECK_OUTCOMES")
    if path:
        _out = open(path, "a", buffering=1)
    path = os.environ.get("TESSERA_GPU_CHECK_FAILURES")
    if path:
        _failures = open(path, "a")


def _outcome(report):
    """The test's outcome once this report settles it, else None (a passed setup)."""
    xfail = hasattr(report, "wasxfail")
    if report.when == "call":
        if xfail:
            return "xfailed" if report.skipped else "xpassed"
        return report.outcome
    if report.when == "setup" and not report.passed:
        if xfail and report.skipped:
            return "xfailed"
        return "skipped" if report.skipped else "error"
    if report.when == "teardown" and report.failed:
        return "error"
    return None


def pytest_runtest_logreport(report):
    if _out is None:
        return
    outcome = _outcome(report)
    if outcome:
        _out.write(f"{outcome} {report.nodeid}\n")
    if _failures is not None and outcome in ("failed", "error"):
        text = report.longreprtext
        if len(text) > FAILURE_CHARS:
            text = "[...]\n" + text[-FAILURE_CHARS:]
        _failures.write(f"===== {outcome} {report.nodeid} ({report.when})\n{text}\n\n")
        _failures.flush()


def pytest_unconfigure(config):
    for f in (_out, _failures):
        if f is not None:
            f.close()
