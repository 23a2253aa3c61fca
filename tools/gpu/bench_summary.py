"""Merges the GPU check's benchmark groups into one JSON and summarises it
(tools/gpu/check, phase 5).

    bench_summary.py GROUPS_DIR OUT_JSON --counts   one line: cases ok / failed / missing, per peer
    bench_summary.py GROUPS_DIR OUT_JSON --table    the medians side by side, one line per case

GROUPS_DIR holds one folder per `python -m tessera.bench` run, each with its JSON, named
"groupN" or "groupN-label" (the check's label for a group with a setting or its own sizes,
e.g. "large");
OUT_JSON gets {"runs": [each run's record, with "group": the folder's name]} (one file,
since only 8 files come back from the device)."""

import glob
import json
import os
import sys


def load(groups_dir):
    runs = []
    for path in sorted(glob.glob(os.path.join(groups_dir, "*", "*.json"))):
        with open(path) as f:
            run = json.load(f)
        run["group"] = os.path.basename(os.path.dirname(path))
        runs.append(run)
    return runs


def counts(runs):
    cases = [c for run in runs for c in run["cases"]]
    if not cases:
        return "no benchmark group finished"
    by_status = {}
    for c in cases:
        by_status[c["status"]] = by_status.get(c["status"], 0) + 1
    text = f"{len(cases)} cases: " + ", ".join(f"{n} {s}" for s, n in sorted(by_status.items()))
    peers = {}
    for c in cases:
        for name, p in c.get("peers", {}).items():
            peers.setdefault(name, {}).setdefault(p["status"], 0)
            peers[name][p["status"]] += 1
    for name, tally in sorted(peers.items()):
        text += f"; {name} " + ", ".join(f"{n} {s}" for s, n in sorted(tally.items()))
    return text


def _ms(seconds):
    return f"{seconds * 1e3:10.3f}" if seconds is not None else f"{'-':>10}"


def table(runs):
    peer_names = ["cupy", "numba.cuda"]
    lines = [f"{'case':<22} {'size':>10} {'tessera':>10} {'numpy':>10} {'cupy':>10} "
             f"{'numba.cuda':>10} {'cupy/tess':>9}  (median ms; cupy/tess > 1: tessera faster)"]
    for run in runs:
        if "-" in run["group"]:
            lines.append(f"-- {run['group']}: the cases below are the check's "
                         f"'{run['group'].split('-', 1)[1]}' group")
        for c in run["cases"]:
            head = f"{c['name'][:22]:<22} {c['size'][:10]:>10}"
            if c["status"] != "ok":
                lines.append(f"{head} {c['status'].upper():>10}  {c['detail'][:60]}")
                continue
            tessera = c["tessera_s"]["median"]
            peers = {n: (p["seconds"]["median"] if p["status"] == "ok" else None)
                     for n, p in c.get("peers", {}).items()}
            cupy = peers.get("cupy")
            ratio = f"{cupy / tessera:9.3f}" if cupy else f"{'-':>9}"
            cells = "".join(f" {_ms(peers.get(n))}" for n in peer_names)
            failed = [n for n, p in c.get("peers", {}).items() if p["status"] != "ok"]
            note = f"  {', '.join(failed)} FAILED" if failed else ""
            numpy_ms = _ms(c["numpy_s"]["median"])
            lines.append(f"{head} {_ms(tessera)} {numpy_ms}{cells} {ratio}{note}")
    if runs:
        v = runs[0]["versions"]
        lines.append("versions: " + ", ".join(f"{k} {v[k]}" for k in v if k != "tessera_commit"))
    return "\n".join(lines)


def main():
    groups_dir, out_json, mode = sys.argv[1:4]
    runs = load(groups_dir)
    with open(out_json, "w") as f:
        json.dump({"runs": runs}, f, indent=1)
    print(counts(runs) if mode == "--counts" else table(runs))


if __name__ == "__main__":
    main()
