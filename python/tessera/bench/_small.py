"""Issue 23's cases: what a user's loop of small and mid-size operations sees.

- The latency table: one case per call on 3-element arrays, the call repeated in a loop
  compiled for the case, so the timing holds the call and a loop's step, not the harness's
  own Python calls.
- The size sweep: the same expressions from 10^3 to 10^6 elements, where a thread pool's
  wake-up and a lazy tree's set-up must pay for themselves.
- The course's heat solve, run as a user runs a script: in a fresh process, whose malloc has
  not yet grown its thresholds, with that process's peak resident size.
"""

import numpy as np

# Statements timed on t, b (3 float64 each), m (2x3) and u (0-d float64): (name, the
# statement, what it leaves in r, or None when it is an assignment that leaves t).
LATENCY = [
    ("t[1]", "r = t[1]"),
    ("t[1:]", "r = t[1:]"),
    ("t[0] = 1.0", "t[0] = 1.0"),
    ("zeros(3)", "r = xp.zeros(3)"),
    ("empty(3)", "r = xp.empty(3)"),
    ("ones(3)", "r = xp.ones(3)"),
    ("full(3, 2.0)", "r = xp.full(3, 2.0)"),
    ("arange(3)", "r = xp.arange(3)"),
    ("array([1., 2., 3.])", "r = xp.array([1.0, 2.0, 3.0])"),
    ("t.reshape(3, 1)", "r = t.reshape(3, 1)"),
    ("m.T", "r = m.T"),
    ("sin(t)", "r = xp.sin(t)"),
    ("t + b", "r = t + b"),
    ("t * 2.0", "r = t * 2.0"),
    ("t > 1.0", "r = t > 1.0"),
    ("t.sum()", "r = t.sum()"),
    ("t.max()", "r = t.max()"),
    ("t.mean()", "r = t.mean()"),
    ("t.std()", "r = t.std()"),
    ("t.argmax()", "r = t.argmax()"),
    ("t.any()", "r = t.any()"),
    ("where(t > 1, t, 0)", "r = xp.where(t > 1.0, t, 0.0)"),
    ("t.copy()", "r = t.copy()"),
    ("t.astype(float32)", "r = t.astype(xp.float32)"),
    ("u.item()", "r = u.item()"),
    ("float(u)", "r = float(u)"),
    ("len(t)", "r = len(t)"),
    ("t.shape", "r = t.shape"),
    ("bool(u > 1)", "r = bool(u > 1.0)"),
]

_LATENCY_REPS = 1000


def _looped(statement, names, reps):
    """A function of (xp, *names) that runs `statement` `reps` times and returns r (or t when
    the statement assigns into t)."""
    result = "r" if statement.startswith("r = ") else "t"
    source = (f"def run(xp, {', '.join(names)}):\n"
              f"    for _ in range({reps}):\n"
              f"        {statement}\n"
              f"    return {result}\n")
    scope = {}
    exec(compile(source, f"<bench: {statement}>", "exec"), scope)
    return scope["run"]


def _latency_inputs(rng):
    return (np.array([1.5, 0.5, 2.5]), np.array([3.0, 1.0, 2.0]), rng.standard_normal((2, 3)),
            np.array(2.0))


def latency_cases(Case):
    return [Case(name, "3 elems", _latency_inputs, _looped(statement, "tbmu", _LATENCY_REPS),
                 rtol=1e-15, ops=_LATENCY_REPS, values_defined=name != "empty(3)",
                 group="latency")
            for name, statement in LATENCY]


# The size sweep: name -> (statement over a, b, c of n elements, or x of side², inputs).
SWEEP = {
    "a + b": "r = a + b",
    "a * b + c": "r = a * b + c",
    "sin": "r = xp.sin(a)",
    "sum": "r = a.sum()",
}


def _stencil_statement():
    return ("r = (x[:-2, :-2] + x[:-2, 1:-1] + x[:-2, 2:] + x[1:-1, :-2] + x[1:-1, 1:-1]"
            " + x[1:-1, 2:] + x[2:, :-2] + x[2:, 1:-1] + x[2:, 2:])")


def sweep_cases(Case, quick, fma_atol):
    out = []
    for exponent in (3, 4, 5, 6):
        n = 10**exponent
        reps = max(1, 10**5 // n)  # about 10^5 elements per sample at every size
        label = f"1e{exponent}"
        vectors = lambda rng, n=n: tuple(rng.standard_normal(n) for _ in range(3))  # noqa: E731
        for name, statement in SWEEP.items():
            out.append(Case(name, label, vectors, _looped(statement, "abc", reps), ops=reps,
                            rtol=1e-12 if name == "sum" else 1e-15,
                            atol=fma_atol if name == "a * b + c" else 0.0,
                            bytes_moved=8 * n * {"a + b": 3, "a * b + c": 4}.get(name, 2),
                            group="sweep"))
        side = round(n**0.5)
        out.append(Case("3x3 box stencil", f"{side}²", lambda rng, s=side: (rng.standard_normal((s, s)),),
                        _looped(_stencil_statement(), "x", reps), ops=reps, rtol=1e-12,
                        atol=1e-12, bytes_moved=16 * side * side, group="sweep"))
    return out


# The heat-diffusion exercise of the course, as its notebook writes it: a point source in
# the middle of the plate, and the change between iterations measured by linalg.norm.
course_dx = 0.01
course_tol = 1e-6
course_max_iter = 2000


def _point_source(n):
    def make(rng):
        f = np.zeros((n, n))
        f[n // 2, n // 2] = 1.0 / course_dx**2
        return np.zeros((n, n)), f
    return make


def course_heat_solve(xp, p, f):
    for _ in range(course_max_iter):
        p_new = p.copy()
        p_new[1:-1, 1:-1] = 0.25 * (p[:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, :-2] + p[1:-1, 2:]
                                    + course_dx**2 * f[1:-1, 1:-1])
        if xp.linalg.norm(p_new - p) < course_tol:
            return p_new
        p = p_new
    return p


def course_cases(Case, jacobi_heat, jacobi_solve):
    """The course's program, in this process and in a fresh one; the benchmark's own
    Jacobi solve (hot edge, random source, max-norm) in a fresh one too."""
    return [
        Case("heat solve (course)", "N=256", _point_source(256), course_heat_solve,
             rtol=1e-9, atol=1e-12, group="course"),
        Case("heat solve (course)", "N=256 fresh", _point_source(256), course_heat_solve,
             rtol=1e-9, atol=1e-12, fresh_process=True, group="course"),
        Case("Jacobi solve", "N=256 fresh", jacobi_heat(256), jacobi_solve, rtol=1e-9,
             atol=1e-9, fresh_process=True, group="course"),
    ]
