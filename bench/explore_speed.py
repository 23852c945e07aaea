#!/usr/bin/env python3
"""Schedules per second of `snag explore` (issue 16: >= 3,000/s on small
programs, >= 500/s with 100 threads).

Runs `snag explore` on correct twins of the labelled suite, so that each run
goes through its whole budget, and prints per program the schedules/s that
snag itself reports (the fork server's loop: process start and the race
pre-pass excluded) and the wall time of the whole `snag explore` command.
For scale it also times the physical floor: a plain C program (no snag)
that forks one child per "schedule", which creates and joins the same
number of threads and exits.

usage: explore_speed.py [BUILD_DIR] [--schedules N] [--repeat N]
                        [--programs a,b,...]

The suite programs must have been built (`cmake --build BUILD_DIR --target
explore_suite_programs`). The machine's load changes these figures a lot:
the script prints `uptime` first.
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# Small programs (2-3 threads, a few locks or atomics) and the 100-thread one.
PROGRAMS = [
    ("c_deadlock_abba_fixed", 2),
    ("c_wrong_lock_fixed", 2),
    ("c_lost_update_all_3_fixed", 3),
    ("deadlock_two_locks_fixed", 2),
    ("c_hundred_threads_fixed", 100),
]

# One child per schedule, which starts `threads` threads and joins them: the
# least any fork-per-schedule explorer can do. An optional third argument pins
# the loop to that CPU, like a snag worker (explore_ab.py).
FLOOR_PROGRAM = r"""
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
static void *nothing(void *arg) { return arg; }
int main(int argc, char **argv) {
  int schedules = atoi(argv[1]), threads = atoi(argv[2]);
  if (argc > 3) {
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    CPU_SET(atoi(argv[3]), &cpus);
    sched_setaffinity(0, sizeof cpus, &cpus);
  }
  pthread_t *t = malloc(sizeof(pthread_t) * threads);
  for (int s = 0; s < schedules; s++) {
    pid_t pid = fork();
    if (pid == 0) {
      for (int i = 0; i < threads; i++) pthread_create(&t[i], 0, nothing, 0);
      for (int i = 0; i < threads; i++) pthread_join(t[i], 0);
      _exit(0);
    }
    waitpid(pid, 0, 0);
  }
  return 0;
}
"""


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def explore(snag, program, schedules, extra):
    """Returns (schedules, schedules/s as snag reports it, wall s, CPU s)."""
    with tempfile.TemporaryDirectory() as tmp:
        command = [snag, "explore", "--schedules", str(schedules), "--seed", "1", "--format", "json",
                   "--replay-out", os.path.join(tmp, "replay.json"), *extra, program]
        env = {k: v for k, v in os.environ.items() if k != "SNAG_OPTIONS"}
        started, cpu = time.monotonic(), children_cpu()
        result = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp)
        wall, cpu = time.monotonic() - started, children_cpu() - cpu
    try:
        report = json.loads(result.stdout)["run"]["explore"]
    except (ValueError, KeyError):
        sys.exit(f"no explore report from: {' '.join(command)}\n{result.stderr}")
    if report.get("failure"):
        sys.exit(f"{program}: a correct program failed: {report['failure']}")
    return report["schedules"], report["schedules_per_second"], wall, cpu


def floor_rate(threads, schedules):
    """Returns (schedules per wall second, schedules per CPU second)."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if not compiler:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        source, binary = os.path.join(tmp, "floor.c"), os.path.join(tmp, "floor")
        with open(source, "w") as f:
            f.write(FLOOR_PROGRAM)
        subprocess.run([compiler, "-O2", "-pthread", source, "-o", binary], check=True)
        started, cpu = time.monotonic(), children_cpu()
        subprocess.run([binary, str(schedules), str(threads)], check=True)
        return schedules / (time.monotonic() - started), schedules / (children_cpu() - cpu)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build", nargs="?", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    parser.add_argument("--schedules", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3, help="runs per program; the median is shown")
    parser.add_argument("--programs", default="", help="comma-separated names (default: all)")
    args = parser.parse_args()

    build = os.path.abspath(args.build)
    snag = os.path.join(build, "bin", "snag")
    suite = os.path.join(build, "tests", "explore", "suite")
    chosen = [p for p in PROGRAMS if not args.programs or p[0] in args.programs.split(",")]
    for name, _ in chosen:
        if not os.path.exists(os.path.join(suite, name)):
            sys.exit(f"{suite}/{name}: not built; build the target explore_suite_programs first")

    print("#", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    print(f"# snag explore --schedules {args.schedules} --seed 1, median of {args.repeat} runs, "
          f"{len(os.sched_getaffinity(0))} CPUs (-j's default: one worker per CPU)")
    print(f"{'program':28} {'threads':>7} {'sched/s':>8} {'no pre-pass':>11} {'-j 1':>6} {'per CPU s':>9} "
          f"{'wall s':>7} {'floor/s':>8} {'floor/CPU s':>11}")
    for name, threads in chosen:
        program = os.path.join(suite, name)
        runs = [explore(snag, program, args.schedules, []) for _ in range(args.repeat)]
        bare = [explore(snag, program, args.schedules, ["--no-race-points"]) for _ in range(args.repeat)]
        single = [explore(snag, program, args.schedules, ["-j", "1"]) for _ in range(args.repeat)]
        floor, floor_cpu = floor_rate(threads, args.schedules) or (0, 0)
        rate = statistics.median(r[1] for r in runs)
        bare_rate = statistics.median(r[1] for r in bare)
        single_rate = statistics.median(r[1] for r in single)
        per_cpu = statistics.median(r[0] / r[3] for r in runs)
        wall = statistics.median(r[2] for r in runs)
        print(f"{name:28} {threads:>7} {rate:>8.0f} {bare_rate:>11.0f} {single_rate:>6.0f} {per_cpu:>9.0f} {wall:>7.2f} "
              f"{floor:>8.0f} {floor_cpu:>11.0f}")
    print("# sched/s: as snag explore reports it (each worker's schedules over its time from its first fork);")
    print("# no pre-pass: the same with --no-race-points; -j 1: the same with one worker;")
    print("# per CPU s: schedules / CPU seconds (user +")
    print("# system) of the whole command, race pre-pass and process start included, which other")
    print("# load on the machine disturbs far less than wall time; wall s: the whole command;")
    print("# floor: a plain C loop of fork + the same number of pthread_create/join + _exit.")


if __name__ == "__main__":
    main()
