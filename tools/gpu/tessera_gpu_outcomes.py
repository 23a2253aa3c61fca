"""pytest plugin for the GPU check (`-p tessera_gpu_outcomes`): one line per finished test,
"<outcome> <node id>", appended to $TESSERA_GPU_CHECK_OUTCOMES as it happens. The check's
time limit may stop pytest before its own summary; these lines still give the counts and
the names of the failures. Under pytest-xdist only the controller writes (it receives every
worker's reports)."""

import os

_out = None


def pytest_configure(config):
    global _out
    path = os.environ.get("TESSERA_GPU_CHECK_OUTCOMES")
    if path and not hasattr(config, "workerinput"):   # not inside an xdist worker
        _out = open(path, "a", buffering=1)


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


def pytest_unconfigure(config):
    if _out is not None:
        _out.close()
