#!/usr/bin/env python3
"""Checks `snag explore --compare-file` on the output pair with -j, shards and stdin.

usage: check_output.py SNAG BUGGY FIXED

BUGGY and FIXED are the twins of suite/c_output_missing_barrier: with the
arguments `out.txt -` they read eight numbers from stdin and write their
total to out.txt. In a temporary directory, with those numbers piped in:

* the fixed twin explored with `-j 2 --compare-file out.txt` is clean over
  its whole budget (so every schedule of both workers read the same stdin,
  and the workers did not overwrite each other's out.txt);
* a --compare-file name the program never writes is a warning;
* the buggy twin, explored three times the same way, fails in the same
  schedule every time with an output-mismatch naming out.txt line 1 and both
  versions of it, reproduced by explore's replay check, and never writes the
  user's out.txt (each worker has its own copy);
* `snag replay` of its replay file reproduces the output-mismatch and says so;
* `--shard 0/2` and `--shard 1/2` merged with `snag merge` report it too.
Exit status 0 when all holds.
"""
import json
import os
import subprocess
import sys
import tempfile

STDIN = "1 2 3 4 5 6 7 8\n"
RUNS = 3


def run(argv, cwd, expect):
    r = subprocess.run(argv, cwd=cwd, input=STDIN, capture_output=True, text=True, timeout=600)
    if r.returncode != expect:
        sys.exit(f"FAIL: {' '.join(argv)} exited {r.returncode}, not {expect}:\n{r.stderr}")
    return r


def explore(snag, program, cwd, extra=()):
    return [snag, "explore", "--seed", "1", "--schedules", "2000", "-j", "2", "--format", "json",
            "--compare-file", "out.txt", *extra, program, "out.txt", "-"]


def check_finding(finding, what):
    details = finding.get("details") or {}
    if finding.get("kind") != "output-mismatch" or details.get("output") != "out.txt" \
            or str(details.get("output_line")) != "1":
        sys.exit(f"FAIL: {what}: not an output-mismatch naming out.txt line 1: {finding}")
    if not details.get("reference_line") or details.get("reference_line") == details.get("schedule_line"):
        sys.exit(f"FAIL: {what}: the finding does not quote both versions of the line: {details}")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    snag, buggy, fixed = (os.path.abspath(a) for a in sys.argv[1:4])
    with tempfile.TemporaryDirectory() as work:
        r = run(explore(snag, fixed, work), work, 0)
        if json.loads(r.stdout)["findings"]:
            sys.exit(f"FAIL: the fixed twin has findings:\n{r.stdout}")
        # A name the program never writes: a warning, not a silent pass.
        r = run(explore(snag, fixed, work, ["--compare-file", "typo.txt"]), work, 0)
        warnings = json.loads(r.stdout)["run"].get("warnings") or []
        if not any("typo.txt" in w and "never wrote" in w for w in warnings):
            sys.exit(f"FAIL: no warning that the program never wrote typo.txt: {warnings}")

        seen = set()
        replay = os.path.join(work, "bug.snag-replay.json")
        for _ in range(RUNS):
            r = run(explore(snag, buggy, work, ["--replay-out", replay]), work, 66)
            report = json.loads(r.stdout)
            failure = report["run"]["explore"]["failure"]
            if not failure.get("reproduced"):
                sys.exit(f"FAIL: the output-mismatch did not reproduce under replay: {failure}")
            check_finding(report["findings"][0], "explore -j 2")
            seen.add((failure["schedule"], failure["kind"]))
            if os.path.exists(os.path.join(work, "out.txt")):
                sys.exit("FAIL: explore wrote the user's out.txt (each worker should have its own)")
        if len(seen) != 1:
            sys.exit(f"FAIL: {RUNS} runs with the same seed reported different failures: {sorted(seen)}")

        r = run([snag, "replay", "--format", "json", replay], work, 66)
        check_finding(json.loads(r.stdout)["findings"][0], "snag replay")
        if "reproduced output-mismatch" not in r.stderr:
            sys.exit(f"FAIL: snag replay does not say it reproduced the output-mismatch:\n{r.stderr}")

        shards = []
        for shard in ("0/2", "1/2"):
            path = os.path.join(work, f"shard{shard[0]}.json")
            run(explore(snag, buggy, work, ["--shard", shard, "--exitcode", "0", "--output", path,
                                            "--replay-out", os.path.join(work, f"s{shard[0]}.json")]),
                work, 0)
            shards.append(path)
        r = run([snag, "merge", "--format", "json", *shards], work, 66)
        check_finding(json.loads(r.stdout)["findings"][0], "snag merge")
    print(f"PASS: fixed twin clean; buggy twin's output-mismatch in schedule {seen.pop()[0]} "
          f"every time, replayed, and merged from shards")


if __name__ == "__main__":
    main()
