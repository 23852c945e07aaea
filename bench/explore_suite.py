#!/usr/bin/env python3
"""Schedules to bug: `snag explore` on every buggy program of the labelled
suite (tests/explore/suite), once per strategy and seed.

For each program and strategy it prints the median number of schedules the
strategy needed to find the bug (over the seeds; ">N" when the median run did
not find it within the budget), the median wall time of one exploration, and
at the end the schedules per second over all runs.

usage: explore_suite.py [BUILD_DIR] [--seeds N] [--budget N] [--jobs N]
                        [--strategies a,b,...] [--programs SUBSTRING]

The suite programs must have been built (`make build` builds them into
BUILD_DIR/tests/explore/suite).
"""
import argparse
import concurrent.futures
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

STRATEGIES = ["portfolio", "random", "pct", "delay-bound", "preempt-bound", "vb", "pctvb"]


def explore_once(snag, program, strategy, seed, budget):
    """Returns (schedules needed or None, schedules run, seconds)."""
    with tempfile.TemporaryDirectory() as tmp:
        command = [snag, "explore", "--strategy", strategy, "--seed", str(seed),
                   "--schedules", str(budget), "--format", "json",
                   "--replay-out", os.path.join(tmp, "replay.json"), program]
        env = {k: v for k, v in os.environ.items() if k != "SNAG_OPTIONS"}
        started = time.monotonic()
        result = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp)
        seconds = time.monotonic() - started
    try:
        explore = json.loads(result.stdout)["run"]["explore"]
    except (ValueError, KeyError):
        sys.exit(f"no explore report from: {' '.join(command)}\n{result.stderr}")
    found = explore["schedules"] if explore.get("failure") else None
    return found, explore["schedules"], seconds


def median_needed(results, budget):
    # Not found counts as more than the budget: the median is then ">budget"
    # if at least half the seeds missed.
    values = sorted(r[0] if r[0] is not None else budget + 1 for r in results)
    m = values[(len(values) - 1) // 2]
    return f">{budget}" if m > budget else str(m)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build", nargs="?", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--budget", type=int, default=10000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--strategies", default=",".join(STRATEGIES))
    parser.add_argument("--programs", default="")
    args = parser.parse_args()

    args.build = os.path.abspath(args.build)
    snag = os.path.join(args.build, "bin", "snag")
    suite = os.path.join(args.build, "tests", "explore", "suite")
    if not os.path.isdir(suite):
        sys.exit(f"{suite}: no suite programs; run `make build` first")
    programs = sorted(p for p in os.listdir(suite) if p.endswith("_buggy") and args.programs in p)
    strategies = args.strategies.split(",")

    jobs = [(p, s, seed) for p in programs for s in strategies for seed in range(1, args.seeds + 1)]
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(explore_once, snag, os.path.join(suite, p), s, seed, args.budget): (p, s)
                   for p, s, seed in jobs}
        for future in concurrent.futures.as_completed(futures):
            results.setdefault(futures[future], []).append(future.result())

    name_width = max(len(p) for p in programs) - len("_buggy")
    header = f"{'program':<{name_width}}" + "".join(f"{s:>15}" for s in strategies)
    print(f"schedules to bug, median of {args.seeds} seeds (wall seconds of one exploration)")
    print(header)
    total_schedules = total_seconds = 0.0
    misses = {s: 0 for s in strategies}
    for p in programs:
        row = f"{p[:-len('_buggy')]:<{name_width}}"
        for s in strategies:
            r = results[(p, s)]
            needed = median_needed(r, args.budget)
            if needed.startswith(">"):
                misses[s] += 1
            seconds = statistics.median(x[2] for x in r)
            row += f"{needed + f' ({seconds:.2f})':>15}"
            total_schedules += sum(x[1] for x in r)
            total_seconds += sum(x[2] for x in r)
        print(row)
    print("not found within the budget (median):", ", ".join(f"{s} {misses[s]}" for s in strategies))
    print(f"schedules per second over all runs: {total_schedules / total_seconds:.0f} "
          f"({int(total_schedules)} schedules in {total_seconds:.0f} s, {args.jobs} jobs)")


if __name__ == "__main__":
    main()
