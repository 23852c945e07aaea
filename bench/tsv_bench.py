#!/usr/bin/env python3
"""What `snag tsv` costs, next to native and ThreadSanitizer, in one run.

    bench/tsv_bench.py [BUILD_DIR] [--repeat N] [--only NAME ...]

Builds every bench/tsv/*.cc four ways (native; snag-c++ with the default
instrumentation, which every engine can use; snag-c++ -fsnag-instrument=api,
the lean build only `snag tsv` needs; -fsanitize=thread) into a temporary
directory and runs them interleaved, N times each (default 3), taking the
median wall time. `snag tsv` runs twice per repetition on a fresh trap file:
run 1 learns the dangerous pairs (and pays for the delays that teach it which
pairs are ordered), run 2 starts from the trap file run 1 left. Prints one
table: slowdown against native, and how many reports each tool printed
(ThreadSanitizer's "WARNING:" blocks; snag's findings after deduplication).
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
WORKLOADS = os.path.join(HERE, "tsv")
FLAGS = ["-std=c++20", "-O1", "-g"]
TIMEOUT = 600


def build(name, kind, snag_cxx, out_dir):
    src = os.path.join(WORKLOADS, name + ".cc")
    out = os.path.join(out_dir, f"{name}.{kind}")
    if kind == "native":
        cmd = ["clang++-14", *FLAGS, "-pthread", src, "-o", out]
    elif kind == "tsan":
        cmd = ["clang++-14", *FLAGS, "-fsanitize=thread", src, "-o", out]
    elif kind == "api":
        cmd = [snag_cxx, "-fsnag-instrument=api", *FLAGS, src, "-o", out]
    else:
        cmd = [snag_cxx, *FLAGS, src, "-o", out]
    subprocess.run(cmd, check=True)
    return out


def timed(cmd, env=None):
    start = time.monotonic()
    result = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    return time.monotonic() - start, result


def findings_of(result):
    m = re.search(r"^snag: (\d+) findings?", result.stderr, re.M)
    return int(m.group(1)) if m else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", nargs="?", default=os.path.join(REPO, "build"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()

    snag = os.path.join(args.build, "bin", "snag")
    snag_cxx = os.path.join(args.build, "bin", "snag-c++")
    if not os.access(snag, os.X_OK):
        sys.exit(f"tsv_bench: no snag in {args.build}/bin; build it first (make build)")
    names = sorted(f[:-3] for f in os.listdir(WORKLOADS) if f.endswith(".cc"))
    if args.only:
        names = [n for n in names if n in args.only]

    tmp = tempfile.mkdtemp(prefix="snag-tsv-bench.")
    try:
        rows = []
        for name in names:
            binaries = {k: build(name, k, snag_cxx, tmp) for k in ("native", "tsan", "snag", "api")}
            times = {"native": [], "tsan": [], "run1": [], "run2": [], "api1": [], "api2": []}
            reports = {"tsan": set(), "snag": set()}
            tsan_env = dict(os.environ, TSAN_OPTIONS="halt_on_error=0 report_signal_unsafe=0")
            for _ in range(args.repeat):
                t, _r = timed([binaries["native"]])
                times["native"].append(t)
                t, r = timed([binaries["tsan"]], tsan_env)
                times["tsan"].append(t)
                reports["tsan"].add(r.stderr.count("WARNING: ThreadSanitizer"))
                for build_kind, runs in (("snag", ("run1", "run2")), ("api", ("api1", "api2"))):
                    traps = os.path.join(tmp, f"{name}.{build_kind}.snag-traps")
                    if os.path.exists(traps):
                        os.remove(traps)
                    for run in runs:
                        t, r = timed([snag, "tsv", "--trap-file", traps, binaries[build_kind]])
                        if r.returncode not in (0, 66):
                            print(r.stderr, file=sys.stderr)
                            sys.exit(f"tsv_bench: snag tsv {name} exited {r.returncode}")
                        times[run].append(t)
                        reports["snag"].add(findings_of(r))
            native = statistics.median(times["native"])
            row = {"name": name, "native": native}
            for k in ("tsan", "run1", "run2", "api1", "api2"):
                row[k] = statistics.median(times[k]) / native
            row["tsan_reports"] = "-".join(str(x) for x in sorted(reports["tsan"]))
            row["snag_reports"] = "-".join(str(x) for x in sorted(reports["snag"]))
            rows.append(row)
            print(f"tsv_bench: {name} done", file=sys.stderr)

        keys = ("tsan", "run1", "run2", "api1", "api2")
        print(f"{'':<26}{'':>9}{'full build':>24}{'api build':>24}")
        print(f"{'workload':<16}{'native(s)':>10}{'tsan x':>9}{'run 1 x':>12}{'run 2 x':>12}"
              f"{'run 1 x':>12}{'run 2 x':>12}{'tsan reports':>14}{'tsv findings':>14}")
        for r in rows:
            print(f"{r['name']:<16}{r['native']:>10.2f}" + "".join(
                f"{r[k]:>{9 if k == 'tsan' else 12}.2f}" for k in keys) +
                  f"{r['tsan_reports']:>14}{r['snag_reports']:>14}")
        clean = [r for r in rows if not r["name"].endswith("_bug")]
        if clean:
            print(f"{'geomean (bug-free)':<26}" + "".join(
                f"{statistics.geometric_mean([r[k] for r in clean]):>{9 if k == 'tsan' else 12}.2f}"
                for k in keys))
        print(f"({args.repeat} repetitions, median wall time; tsv times include the snag command; "
              f"{os.cpu_count()} cores)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
