#!/usr/bin/env python3
"""Interleaved A/B of `snag explore` between two builds (issue 16's 100-thread
target), with the fork-per-schedule floor beside them.

Each round runs, one after the other: build A's and build B's
`snag explore -j J --schedules N --seed 1 PROGRAM` (each build its own snag and
its own build of the suite program), then the floor: J plain C loops of fork +
the program's thread count of pthread_create/join + _exit, N/J schedules each,
each pinned to its own CPU like a snag worker, once with glibc's defaults and
once with the stack cache snag's CLI sets (GLIBC_TUNABLES). Per run it prints
the schedules/s snag reports, schedules per wall second and per CPU second
(user + system of the command and all its children). Interleaving is what
makes the comparison fair on a shared machine: the load moves every figure
between rounds, and `uptime` is printed before and after.

usage: explore_ab.py BUILD_A BUILD_B [--schedules N] [--rounds R] [--jobs J]
                     [--program NAME] [--threads T]
"""
import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

from explore_speed import FLOOR_PROGRAM  # the floor loop; its third argument pins it

STACK_CACHE = "glibc.pthread.stack_cache_size=1073741824"


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(command, schedules, env):
    """Returns (schedules/s as snag reports it or 0, per wall s, per CPU s)."""
    cpu, started = children_cpu(), time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True, env=env)
    wall, cpu = time.monotonic() - started, children_cpu() - cpu
    found = re.search(r"\(([\d.,]+) schedules/s", result.stdout + result.stderr)
    reported = float(found.group(1).replace(",", "")) if found else 0.0
    return reported, schedules / wall, schedules / cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("build_a")
    parser.add_argument("build_b")
    parser.add_argument("--schedules", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=2, help="snag's -j and the number of floor loops")
    parser.add_argument("--program", default="c_hundred_threads_fixed")
    parser.add_argument("--threads", type=int, default=100, help="the program's thread count, for the floor")
    args = parser.parse_args()
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        sys.exit("explore_ab.py: no C compiler for the floor program")
    env = {k: v for k, v in os.environ.items() if k != "SNAG_OPTIONS"}
    cached = dict(env, GLIBC_TUNABLES=STACK_CACHE)
    with tempfile.TemporaryDirectory() as tmp:
        floor = os.path.join(tmp, "floor")
        with open(floor + ".c", "w") as f:
            f.write(FLOOR_PROGRAM)
        subprocess.run([cc, "-O2", "-o", floor, floor + ".c", "-lpthread"], check=True)
        allowed = sorted(os.sched_getaffinity(0))
        per_loop = args.schedules // args.jobs
        floor_command = ["sh", "-c", " ".join(
            f"{floor} {per_loop} {args.threads} {allowed[j % len(allowed)]} &" for j in range(args.jobs)) + " wait"]
        variants = []
        for name, build in (("A", args.build_a), ("B", args.build_b)):
            program = os.path.join(build, "tests/explore/suite", args.program)
            if not os.path.exists(program):
                sys.exit(f"{program}: not built; build the target explore_suite_programs first")
            variants.append((f"{name} {build}", [os.path.join(build, "bin/snag"), "explore", "-j", str(args.jobs),
                                                 "--schedules", str(args.schedules), "--seed", "1", program], env))
        variants.append(("floor", floor_command, env))
        variants.append(("floor+cache", floor_command, cached))
        print("#", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
        print(f"# {args.program}, -j {args.jobs}, {args.schedules} schedules per run")
        print(f"{'round':>5}  {'variant':40} {'snag sched/s':>12} {'per wall s':>10} {'per CPU s':>9}")
        for r in range(args.rounds):
            for name, command, variant_env in variants:
                reported, wall, cpu = timed(command, args.schedules, variant_env)
                shown = f"{reported:12.0f}" if reported else f"{'-':>12}"
                print(f"{r:5}  {name[:40]:40} {shown} {wall:10.0f} {cpu:9.0f}", flush=True)
        print("#", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())


if __name__ == "__main__":
    main()
