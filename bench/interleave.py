#!/usr/bin/env python3
"""Compare builds of one workload on a busy machine: run them interleaved.

    interleave.py ROUNDS DIR WORKLOAD CONFIG [CONFIG...]

Runs DIR/WORKLOAD.CONFIG for every CONFIG in turn, ROUNDS times over, each
run through measure.py (CPU time of all threads from wait4, peak RSS from
/usr/bin/time), and prints one line: per config the minimum and median CPU
milliseconds (user+sys) and the median peak RSS in KB.

Why: when other work shares the cores, a build measured after another meets
a different load; run by run, every build sees the same load on average, and
CPU time counts only what the program itself used. Environment as
bench/run.sh: SNAG_OPTIONS=engine=race, TSAN_OPTIONS="halt_on_error=0
report_signal_unsafe=0" unless already set.
"""
import os
import statistics
import subprocess
import sys
import tempfile


def run_once(measure, binary, env):
    with tempfile.NamedTemporaryFile("r", prefix="snag-interleave.") as out:
        subprocess.run([sys.executable, measure, out.name, "600", binary], env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wall, rss_kb, user, sys_s = out.read().split()[:4]
    return (float(user) + float(sys_s)) * 1000, int(rss_kb)


def main():
    if len(sys.argv) < 5:
        sys.exit("usage: interleave.py ROUNDS DIR WORKLOAD CONFIG [CONFIG...]")
    rounds, directory, workload, configs = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
    measure = os.path.join(os.path.dirname(os.path.abspath(__file__)), "measure.py")
    env = dict(os.environ)
    env.setdefault("SNAG_OPTIONS", "engine=race")
    env.setdefault("TSAN_OPTIONS", "halt_on_error=0 report_signal_unsafe=0")
    cpu = {c: [] for c in configs}
    rss = {c: [] for c in configs}
    for _ in range(rounds):
        for c in configs:
            binary = os.path.join(directory, f"{workload}.{c}")
            if not os.access(binary, os.X_OK):
                sys.exit(f"interleave.py: error: no executable {binary}")
            ms, kb = run_once(measure, binary, env)
            cpu[c].append(ms)
            rss[c].append(kb)
    med = statistics.median
    print(f"{workload:14s} cpu ms min/median: "
          + " ".join(f"{c} {min(cpu[c]):.0f}/{med(cpu[c]):.0f}" for c in configs)
          + " | peak KB median: " + " ".join(f"{c} {med(rss[c]):.0f}" for c in configs), flush=True)


if __name__ == "__main__":
    main()
