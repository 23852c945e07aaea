#!/usr/bin/env python3
"""The work of bench/check_bench.sh (see there): usage check_bench.py SNAG [PROJECT_BUILD_DIR...]."""
import glob
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

RUNS = int(os.environ.get("CHECK_BENCH_RUNS", "3"))
OUT = os.environ.get("CHECK_BENCH_OUT", "/tmp/snag-check-bench")
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE = os.environ.get("CHECK_BENCH_SUITE", os.path.join(REPO, "tests/check/suite"))
EXTRA = shlex.split(os.environ.get("CHECK_BENCH_ARGS", ""))


def check(snag, args, cache):
    """One `snag check --format json` run: (wall seconds, report)."""
    command = [snag, "check", "--format", "json", "--cache-dir", cache] + EXTRA + args
    start = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True)
    wall = time.monotonic() - start
    if result.returncode not in (0, 2, 66):
        sys.exit(f"check_bench: {' '.join(command)} exited {result.returncode}:\n{result.stderr}")
    try:
        report = json.loads(result.stdout)
    except ValueError:
        report = {"findings": [], "run": {"check": {"targets": []}}, "error": result.stderr}
    report["exit_status"] = result.returncode
    return wall, report


def clang_compile_seconds(file, flags, directory):
    """Plain `clang -c -O0` of one TU, the yardstick of the ratios."""
    compiler = "clang-14" if file.endswith(".c") else "clang++-14"
    start = time.monotonic()
    subprocess.run([compiler] + flags + ["-O0", "-c", "-o", "/dev/null", file], cwd=directory or None,
                   capture_output=True)
    return time.monotonic() - start


def median(values):
    return statistics.median(values) if values else 0.0


def suite_flags(source):
    flags = ["-std=c11" if source.endswith(".c") else "-std=c++20"]
    for line in open(source, encoding="utf-8"):
        if line.startswith("// check-flags:"):
            flags += line.split(":", 1)[1].split()
    return flags


def bench_suite(snag):
    files = sorted(glob.glob(os.path.join(SUITE, "*_buggy.c*")) + glob.glob(os.path.join(SUITE, "*_fixed.c*")))
    if not files:
        print(f"(no suite programs in {SUITE})")
        return
    cold, warm, checks, clang, steps = [], [], [], [], []
    for source in files:
        flags = suite_flags(source)
        c, w, k = [], [], []
        for _ in range(RUNS):
            cache = tempfile.mkdtemp(prefix="snag-check-bench-")
            try:
                wall, report = check(snag, [source, "--"] + flags, cache)
                c.append(wall)
                wall, report = check(snag, [source, "--"] + flags, cache)
                w.append(wall)
                k.append(report["run"]["check"]["targets"][0]["check_seconds"])
            finally:
                shutil.rmtree(cache, ignore_errors=True)
        cold.append(median(c))
        warm.append(median(w))
        checks.append(median(k))
        steps.append(report["run"]["check"]["steps"])
        clang.append(median([clang_compile_seconds(source, flags, None) for _ in range(RUNS)]))
    print(f"suite: {len(files)} single-file programs ({SUITE}), median of {RUNS} runs each")
    print(f"{'':24}{'median':>8}{'p90':>8}{'max':>8}")
    for name, values in [("cold: compile + check s", cold), ("warm: cached, check s", warm),
                         ("interpreter alone s", checks), ("clang -c -O0 s", clang)]:
        values = sorted(values)
        print(f"{name:24}{median(values):8.2f}{values[int(0.9 * (len(values) - 1))]:8.2f}{values[-1]:8.2f}")
    ratios = sorted(c / k for c, k in zip(cold, clang))
    wratios = sorted(w / k for w, k in zip(warm, clang))
    print(f"cold / clang -c -O0: median {median(ratios):.2f}x, max {ratios[-1]:.2f}x;"
          f" warm / clang -c -O0: median {median(wratios):.2f}x, max {wratios[-1]:.2f}x")
    print(f"interpreter steps per program: median {int(median(steps))}, max {max(steps)}")


def bench_project(snag, build_dir):
    # A build directory is named after its project: "spdlog/snag-build" is spdlog.
    path = os.path.normpath(os.path.abspath(build_dir))
    name = os.path.basename(path)
    while "build" in name and os.path.dirname(path) != path:
        path = os.path.dirname(path)
        name = os.path.basename(path)
    os.makedirs(OUT, exist_ok=True)
    cache = tempfile.mkdtemp(prefix="snag-check-bench-")
    try:
        cold_wall, cold = check(snag, ["-p", build_dir], cache)
        warm_walls = []
        for _ in range(RUNS):
            wall, warm = check(snag, ["-p", build_dir], cache)
            warm_walls.append(wall)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    with open(os.path.join(OUT, f"{name}.json"), "w", encoding="utf-8") as f:
        json.dump(warm, f, indent=1)
    db = json.load(open(os.path.join(build_dir, "compile_commands.json"), encoding="utf-8"))
    clang_total = 0.0
    for entry in db:
        args = entry.get("arguments") or shlex.split(entry["command"])
        flags = [a for a in args[1:] if a not in ("-c",)]
        # the reader's own filtering is in cli/compile_commands.cpp; here only -o goes
        cleaned, skip = [], False
        for a in flags:
            if skip:
                skip = False
                continue
            if a == "-o":
                skip = True
                continue
            if a == entry["file"] or a.startswith("-fsanitize"):
                continue
            cleaned.append(a)
        path = entry["file"] if os.path.isabs(entry["file"]) else os.path.join(entry["directory"], entry["file"])
        clang_total += clang_compile_seconds(path, cleaned, entry["directory"])
    targets = cold["run"]["check"]["targets"]
    print(f"\nproject {name}: {len(db)} TUs in {len(targets)} targets; cold {cold_wall:.2f} s, "
          f"warm {median(warm_walls):.2f} s (median of {RUNS}); clang -c -O0 of every TU {clang_total:.2f} s;"
          f" cold/clang {cold_wall / clang_total if clang_total else 0:.2f}x; exit {cold['exit_status']}")
    print(f"  {'target':34}{'TUs':>4}{'compile s':>10}{'check s':>9}{'steps':>10}{'runs':>6}{'findings':>9}")
    warm_by_name = {t["name"]: t for t in warm["run"]["check"]["targets"]}
    for t in targets:
        label = t["name"] if len(t["name"]) <= 33 else "…" + t["name"][-32:]
        w = warm_by_name.get(t["name"], t)
        print(f"  {label:34}{t['translation_units']:>4}{t['compile_seconds']:>10.2f}{w['check_seconds']:>9.2f}"
              f"{w['steps']:>10}{w['runs']:>6}{w['findings']:>9}")
    kinds = {}
    for f in warm["findings"]:
        kinds[f["kind"]] = kinds.get(f["kind"], 0) + 1
    print(f"  findings after dedup: {len(warm['findings'])} {kinds or ''}; report kept in {OUT}/{name}.json")


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    snag = argv[1]
    bench_suite(snag)
    for build_dir in argv[2:]:
        bench_project(snag, build_dir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
