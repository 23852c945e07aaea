#!/usr/bin/env python3
"""What `snag guard` costs, next to native, in one run.

    bench/guard_bench.py [BUILD_DIR] [--repeat N] [--only NAME ...]

For each workload in bench/guard/ (an I/O-bound pipe server and two compute
kernels, FFT and a parallel merge sort) it builds

  native     clang-14 -O1, no snag at all
  floor      snag-cc -fsnag-instrument=none run with engine=none: the snag
             runtime's interceptors alone, the floor under every engine
  full       snag-cc -O1 (every kind of instrumentation), run under guard
  lean       snag-cc -fsnag-instrument=guard -fsnag-invariants=F (only the
             sites the invariants file names), run under guard
  lean+bias  the same with -fsnag-bias=30 (hot site groups left out)

F is learned first with `snag learn --runs 5` on the full build. The guarded
programs are started directly with SNAG_OPTIONS=engine=guard:invariants=F
(what `snag guard` sets), so the figures are the program's own run time,
without the snag command's start-up. Runs are interleaved, N times each
(default 5); the tables show the median wall time (and CPU time) of native
and each configuration's median as a ratio to it, and what bias left out.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
FLAGS = ["-std=gnu11", "-O1", "-g", "-pthread"]
# name: (arguments, kind)
WORKLOADS = {
    "pipe_server": (["4", "20000"], "I/O-bound"),
    "fft": (["2", "17", "8"], "compute"),
    "psort": (["2", str(1 << 19), "2"], "compute"),
}
CONFIGS = ["floor", "full", "lean", "lean+bias"]


def run(cmd, env=None, timeout=600):
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout, check=False)


def build(bin_dir, name, config, out_dir, invariants=None):
    src = os.path.join(HERE, "guard", name + ".c")
    out = os.path.join(out_dir, f"{name}.{config}")
    if config == "native":
        cmd = ["clang-14", *FLAGS, src, "-lm", "-o", out]
    elif config == "full":
        cmd = [os.path.join(bin_dir, "snag-cc"), *FLAGS, src, "-lm", "-o", out]
    elif config == "floor":
        cmd = [os.path.join(bin_dir, "snag-cc"), "-fsnag-instrument=none", *FLAGS, src, "-lm", "-o", out]
    else:
        cmd = [os.path.join(bin_dir, "snag-cc"), "-fsnag-instrument=guard",
               f"-fsnag-invariants={invariants}", *FLAGS, src, "-lm", "-o", out]
        if config == "lean+bias":
            cmd.insert(3, "-fsnag-bias=30")
    result = run(cmd)
    if result.returncode != 0:
        sys.exit(f"guard_bench: cannot build {name} ({config}):\n{result.stderr}")
    summary = re.search(r"snag: guard build from [^:]*: (.*)", result.stderr)
    return out, summary.group(1) if summary else ""


def timed(cmd, env=None):
    """Wall time, CPU time (user + system of the program) and stderr."""
    with tempfile.TemporaryFile() as err:
        start = time.monotonic()
        process = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.monotonic() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        stderr = err.read().decode(errors="replace")
    if process.returncode != 0:
        sys.exit(f"guard_bench: {' '.join(cmd)} failed ({process.returncode}):\n{stderr[-2000:]}")
    return elapsed, usage.ru_utime + usage.ru_stime, stderr


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir", nargs="?", default=os.path.join(REPO, "build"))
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args()
    bin_dir = os.path.join(os.path.abspath(args.build_dir), "bin")
    snag = os.path.join(bin_dir, "snag")
    names = args.only or list(WORKLOADS)

    rows = []
    with tempfile.TemporaryDirectory(prefix="snag-guard-bench-") as work:
        for name in names:
            arguments, kind = WORKLOADS[name]
            binaries = {"native": build(bin_dir, name, "native", work)[0]}
            binaries["full"] = build(bin_dir, name, "full", work)[0]
            binaries["floor"] = build(bin_dir, name, "floor", work)[0]
            invariants = os.path.join(work, name + ".invariants")
            learned = run([snag, "learn", "--runs", "5", "--invariants", invariants, binaries["full"],
                           *arguments])
            if learned.returncode != 0:
                sys.exit(f"guard_bench: learning {name} failed:\n{learned.stderr}")
            summaries = {}
            for config in ("lean", "lean+bias"):
                binaries[config], summaries[config] = build(bin_dir, name, config, work, invariants)
            env = dict(os.environ, SNAG_OPTIONS=f"engine=guard:invariants={invariants}:exitcode=0")
            floor_env = dict(os.environ, SNAG_OPTIONS="engine=none")
            times = {config: [] for config in ["native", *CONFIGS]}
            cpu = {config: [] for config in ["native", *CONFIGS]}
            violations = {config: 0 for config in CONFIGS}
            for _ in range(args.repeat):
                for config in ["native", *CONFIGS]:
                    config_env = {"native": None, "floor": floor_env}.get(config, env)
                    elapsed, used, stderr = timed([binaries[config], *arguments], config_env)
                    times[config].append(elapsed)
                    cpu[config].append(used)
                    if config != "native":
                        violations[config] = max(violations[config],
                                                 len(re.findall(r"^WARNING: snag:", stderr, re.M)))
            native = statistics.median(times["native"])
            native_cpu = statistics.median(cpu["native"])
            rows.append((name, kind, native,
                         [statistics.median(times[c]) / native for c in CONFIGS],
                         [violations[c] for c in CONFIGS], summaries["lean+bias"],
                         native_cpu, [statistics.median(cpu[c]) / native_cpu for c in CONFIGS]))

    print(f"snag guard overhead, median of {args.repeat} runs (ratio to native; "
          f"violations reported in brackets)\n")
    header = f"{'workload':<12} {'kind':<10} {'native s':>9}" + "".join(f" {c:>12}" for c in CONFIGS)
    print(header)
    print("-" * len(header))
    for name, kind, native, ratios, found, *_ in rows:
        cells = "".join(f" {r:>8.2f}x [{v}]" for r, v in zip(ratios, found))
        print(f"{name:<12} {kind:<10} {native:>9.3f}{cells}")
    print("\nthe same runs by CPU time (user + system), which other load on the machine disturbs less\n")
    print(header.replace("native s", "native cpu"))
    print("-" * len(header))
    for name, kind, _, _, _, _, native_cpu, cpu_ratios in rows:
        cells = "".join(f" {r:>12.2f}x" for r in cpu_ratios)
        print(f"{name:<12} {kind:<10} {native_cpu:>9.3f}{cells}")
    print()
    for name, _, _, _, _, summary, *_ in rows:
        print(f"{name}: lean+bias build: {summary}")


if __name__ == "__main__":
    main()
