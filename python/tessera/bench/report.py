"""The benchmark's outputs: a table on stdout, a JSON record, a PNG chart."""

import json
import os
import platform
import subprocess
import sys

import numpy as np

import tessera as tp


def machine_info():
    cpu = platform.processor()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError):
        memory = None
    return {"cpu": cpu, "cores": os.cpu_count(), "memory_bytes": memory,
            "platform": platform.platform(), "python": sys.version.split()[0]}


def versions(peers=()):
    blas = "unknown"
    try:
        config = np.show_config(mode="dicts")
        blas = config["Build Dependencies"]["blas"].get("name", "unknown")
        blas += " " + config["Build Dependencies"]["blas"].get("version", "")
    except Exception:  # numpy's config layout is informational only
        pass
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=os.path.dirname(__file__)).stdout.strip()
    return {"tessera": tp.__version__, "tessera_commit": commit, "numpy": np.__version__,
            "numpy_blas": blas.strip(), **{p.name: p.version() for p in peers}}


def _fmt_time(t):
    if t < 1e-6:
        return f"{t * 1e9:8.0f} ns"
    return f"{t * 1e6:8.1f} us" if t < 1e-3 else f"{t * 1e3:8.2f} ms" if t < 1 else f"{t:8.3f} s "


def _peer_cell(result, name):
    peer = result.peers.get(name)
    if peer is None:
        return "-"
    return f"{result.peer_speedup(name):.2f}x" if peer.status == "ok" else "FAILED"


def table(results, triad_bw, peer_names=(), fma_peaks=None):
    """One line per case: tessera's and NumPy's medians, NumPy/tessera, then NumPy/peer for
    each peer ('-' where the peer cannot express the case)."""
    peer_header = "".join(f" {n:>9}" for n in peer_names)
    lines = [f"{'case':<26} {'size':>9} {'tessera':>11} {'numpy':>11} {'numpy/tessera':>13}{peer_header}  notes"]
    lines.append("-" * len(lines[0]) + "-" * 20)
    for r in results:
        c = r.case
        if r.status != "ok":
            blanks = "".join(f" {'':>9}" for _ in peer_names)
            lines.append(f"{c.name:<26} {c.size:>9} {'':>11} {'':>11} {r.status.upper():>13}{blanks}  {r.detail}")
            continue
        notes = []
        if c.bytes_moved:
            bw = c.bytes_moved / r.tessera.median
            notes.append(f"{bw / 1e9:.1f} GB/s = {bw / triad_bw:.0%} of triad")
        if c.flops:
            rate = c.flops / r.tessera.median
            peak = (fma_peaks or {}).get(c.flops_dtype)
            notes.append(f"{rate / 1e9:.1f} GFLOP/s" + (f" = {rate / peak:.0%} of FMA peak" if peak else ""))
        notes.append(f"[{_fmt_time(min(r.tessera.samples)).strip()}..{_fmt_time(max(r.tessera.samples)).strip()}]")
        if r.tessera.peak_rss:
            notes.append("peak RSS " + ", ".join(
                f"{who} {max(t.peak_rss) / 2**20:.0f} MB (+{max(t.peak_rss) / 2**20 - min(t.base_rss) / 2**20:.0f} in the run)"
                for who, t in (("tessera", r.tessera), ("numpy", r.numpy))))
        notes += [f"{n}: {p.detail}" for n, p in r.peers.items() if p.status != "ok"]
        peer_cells = "".join(f" {_peer_cell(r, n):>9}" for n in peer_names)
        lines.append(f"{c.name:<26} {c.size:>9} {_fmt_time(r.tessera.median)} {_fmt_time(r.numpy.median)} "
                     f"{r.speedup:>12.2f}x{peer_cells}  {'; '.join(notes)}")
    if peer_names:
        lines.append(f"peer columns: NumPy time / peer time ('-': the peer cannot express the case)")
    return "\n".join(lines)


def to_json(results, triad_bw, device, args, peers=(), fma_peaks=None):
    cases = []
    for r in results:
        entry = {"name": r.case.name, "size": r.case.size, "group": r.case.group, "status": r.status,
                 "detail": r.detail}
        if r.status == "ok":
            entry["tessera_s"] = r.tessera.summary()
            entry["numpy_s"] = r.numpy.summary()
            entry["speedup"] = r.speedup
            if r.tessera.peak_rss:
                entry["peak_rss_bytes"] = {"tessera": max(r.tessera.peak_rss),
                                           "numpy": max(r.numpy.peak_rss)}
                entry["rss_before_run_bytes"] = {"tessera": min(r.tessera.base_rss),
                                                 "numpy": min(r.numpy.base_rss)}
            if r.case.bytes_moved:
                entry["tessera_bandwidth_Bps"] = r.case.bytes_moved / r.tessera.median
                entry["fraction_of_triad"] = entry["tessera_bandwidth_Bps"] / triad_bw
            if r.case.flops:
                entry["tessera_gflops"] = r.case.flops / r.tessera.median / 1e9
                if fma_peaks:
                    entry["fraction_of_fma_peak"] = (r.case.flops / r.tessera.median
                                                     / fma_peaks[r.case.flops_dtype])
            entry["peers"] = {
                name: ({"status": "ok", "seconds": p.timing.summary(), "speedup": r.peer_speedup(name)}
                       if p.status == "ok" else {"status": p.status, "detail": p.detail})
                for name, p in r.peers.items()}
        cases.append(entry)
    return {"machine": machine_info(), "versions": versions(peers), "device": str(device),
            "threads": tp.get_num_threads(), "stream_triad_Bps": triad_bw, "quick": args.quick,
            "fma_peak_flops": fma_peaks, "blas": tp._core._blas_config(),
            "cases": cases}


def update_docs(path, header, table_text, machine):
    """Replaces the text between the figures markers of `path` with this run's table."""
    start, end = "<!-- figures:start -->", "<!-- figures:end -->"
    with open(path) as f:
        doc = f.read()
    if start not in doc or end not in doc:
        raise ValueError(f"[bench] {path} has no {start} ... {end} section to rewrite")
    body = (f"{start}\n\nMachine: {machine['cpu']}, {machine['cores']} cores; {header}.\n\n"
            f"```\n{table_text}\n```\n\n{end}")
    head, rest = doc.split(start, 1)
    with open(path, "w") as f:
        f.write(head + body + rest.split(end, 1)[1])


_COLORS = ("tab:purple", "tab:cyan", "tab:olive", "tab:brown", "tab:gray")


def chart(results, path, peer_names=()):
    """Speedup over NumPy per case on a log scale, tessera's bar with each peer's beside it;
    missing and failed cases are labelled, not dropped."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    contestants = ["tessera", *peer_names]
    width = 0.8 / len(contestants)
    labels = [f"{r.case.name}\n{r.case.size}" for r in results]
    fig, ax = plt.subplots(figsize=(max(8, 0.45 * len(results) * len(contestants) ** 0.5), 5.5))
    xs = np.arange(len(results))
    for k, name in enumerate(contestants):
        values = [(r.speedup if name == "tessera" else r.peer_speedup(name)) or np.nan for r in results]
        offsets = xs - 0.4 + width * (k + 0.5)
        ax.bar(offsets, np.nan_to_num(values), width, label=name, color=_COLORS[k % len(_COLORS)])
    for x, r in zip(xs, results):
        if r.status != "ok":
            ax.text(x, 1, r.status, rotation=90, ha="center", va="bottom", fontsize=7, color="gray")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_ylabel("speedup over NumPy (NumPy time / contestant time)")
    ax.set_xticks(xs)
    ax.set_xticklabels(labels, rotation=90, fontsize=7)
    ax.set_title("tessera vs NumPy, same machine, same run")
    if peer_names:
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
