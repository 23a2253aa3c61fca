"""python -m tessera.bench: run the suite, print the table, write JSON and a PNG chart."""

import argparse
import datetime
import fnmatch
import json
import os
import sys

import tessera as tp

from . import peers as peer_libraries
from . import report
from .cases import all_cases
from .runner import run_case


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python -m tessera.bench", description=__doc__)
    p.add_argument("--device", default=None, help="cpu or cuda (default: tessera's default device)")
    p.add_argument("--quick", action="store_true", help="smaller sizes; the whole run in minutes")
    p.add_argument("--cases", default="*", help="globs over case names, separated by |, e.g. 'sin*|a + b'")
    p.add_argument("--sizes", default="*",
                   help="globs over size labels, separated by |, e.g. '1e8|800 MB': with the "
                        "full sizes, the largest cases alone (a GPU's bandwidth-bound regime)")
    p.add_argument("--peers", action="store_true",
                   help="also time the peers installed here: numexpr, Numba and JAX on the CPU "
                        "device (make bench PEERS=1 installs them), CuPy and numba.cuda on a "
                        "CUDA device")
    p.add_argument("--out", default="bench/results", help="folder for the JSON and PNG")
    p.add_argument("--docs", default=None,
                   help="also rewrite the figures section of this Markdown file (docs/benchmarks.md)")
    return p.parse_args(argv)


def select_cases(cases, names, sizes, device_kind):
    """The cases whose name matches one of the |-separated globs `names` and whose size label
    one of `sizes`, that run on `device_kind`: loops compiled by tessera.jit run on the CPU,
    kernels by tessera.cuda.jit on a CUDA device, each group joining the runs of its device."""
    def matches(text, globs):
        return any(fnmatch.fnmatch(text, g.strip()) for g in globs.split("|"))

    only_on = {"jit": "cpu", "cuda.jit": "cuda"}
    return [c for c in cases if matches(c.name, names) and matches(c.size, sizes)
            and only_on.get(c.group, device_kind) == device_kind]


def progress(i, total, name):
    width = 30
    done = int(width * i / total)
    sys.stderr.write(f"\r[{'#' * done}{'.' * (width - done)}] {i}/{total} {name[:40]:<40}")
    sys.stderr.flush()


def _fma_peaks():
    return {"float64": tp._core._fma_peak_flops(False, 5),
            "float32": tp._core._fma_peak_flops(True, 5)}


def main(argv=None):
    args = parse_args(argv)
    device = tp.Device(args.device) if args.device else tp.get_device()
    cases = select_cases(all_cases(args.quick), args.cases, args.sizes, device.kind)
    if not cases:
        sys.exit(f"no benchmark case matches {args.cases!r} at sizes {args.sizes!r}")
    budget = 1.0 if args.quick else 3.0
    peers = []
    if args.peers:
        peers, absent = peer_libraries.installed(device.kind)
        if absent:
            hint = ("make bench PEERS=1 installs them" if device.kind == "cpu"
                    else "or no usable GPU")
            print(f"peers not installed, left out: {', '.join(absent)} ({hint})", file=sys.stderr)
    with device:
        triad = tp._core._stream_triad_bandwidth(20_000_000 if not args.quick else 5_000_000, 10)
        fma_peaks = _fma_peaks()
        results = []
        for i, case in enumerate(cases):
            progress(i, len(cases), f"{case.name} {case.size}")
            results.append(run_case(case, budget, peers, quick=args.quick))
        progress(len(cases), len(cases), "done")
        # The peak is a ceiling: on a shared machine the best of two readings, one before
        # and one after the cases, is the nearer estimate of it.
        fma_peaks = {k: max(v, _fma_peaks()[k]) for k, v in fma_peaks.items()}
    sys.stderr.write("\n")
    header = (f"device {device}, {tp.get_num_threads()} threads; STREAM triad {triad / 1e9:.1f} GB/s; "
              f"FMA peak {fma_peaks['float64'] / 1e9:.1f} GFLOP/s float64, "
              f"{fma_peaks['float32'] / 1e9:.1f} float32; BLAS {tp._core._blas_config()}, "
              f"threads spin 2^{os.environ.get('OPENBLAS_THREAD_TIMEOUT', '28')} cycles")
    simulated = device.kind == "cuda" and tp.cuda.runtime.is_simulated()
    if simulated:
        # The simulator runs CUDA kernels on the host's cores, one block at a time: its
        # timings say nothing about a GPU. The run checks that every case works there.
        header = ("SIMULATED CUDA device (TESSERA_CUDA_SIM=1): the timings below are "
                  "meaningless; only the results' checks count.\n" + header)
    peer_names = [p.name for p in peers]
    text = report.table(results, triad, peer_names, fma_peaks)
    print(header)
    print(text)
    if args.docs and simulated:
        print(f"simulated timings are not written into {args.docs}", file=sys.stderr)
    elif args.docs:
        report.update_docs(args.docs, header, text, report.machine_info())
    os.makedirs(args.out, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    json_path = os.path.join(args.out, f"{stamp}.json")
    with open(json_path, "w") as f:
        json.dump(dict(report.to_json(results, triad, device, args, peers, fma_peaks),
                       simulated=simulated), f, indent=1)
    png_path = os.path.join(args.out, f"{stamp}.png")
    report.chart(results, png_path, peer_names)
    print(f"\nwrote {json_path} and {png_path}")
    failed = [r for r in results if r.status == "failed"]
    if failed:
        print(f"{len(failed)} case(s) FAILED their check against NumPy", file=sys.stderr)
        return 1
    return 0


# OpenBLAS's threads spin this long after a call (log2 of cycles), the setting tessera
# gives its own OpenBLAS. NumPy's keeps its default, 2^28 cycles (~0.1 s), unless told: in
# an interleaved run its threads, still spinning from NumPy's turn, would take a core from
# tessera's turn that follows, a cost no program that uses one library alone pays.
BLAS_THREAD_TIMEOUT = "20"


def _with_settled_blas_threads():
    """Restarts this process with NumPy's OpenBLAS set like tessera's; OpenBLAS reads the
    setting when it loads, and NumPy loaded it before this module ran."""
    if os.environ.get("OPENBLAS_THREAD_TIMEOUT") is None:
        os.environ["OPENBLAS_THREAD_TIMEOUT"] = BLAS_THREAD_TIMEOUT
        os.execv(sys.executable, [sys.executable, "-m", "tessera.bench", *sys.argv[1:]])


if __name__ == "__main__":
    _with_settled_blas_threads()
    sys.exit(main())
