#!/usr/bin/env python3
"""Checks that `snag explore -j J` reports the same failure whichever worker is faster.

usage: check_jobs.py SNAG PROGRAM SOURCE [STDIN_TEXT]

Runs `SNAG explore --seed 3 -j 2 --format json` on PROGRAM (a buggy twin of
the labelled suite, built from SOURCE) five times, with STDIN_TEXT (\\n for
newlines) as stdin when given, and requires every run to fail in the same
schedule, with the same kind of bug on a line SOURCE marks `// BUG: KIND`,
reproduced by its replay check, and the closing line to name the 2 workers.
The workers share the lowest failing index through the failure bound
(runtime/engines/explore/failure_bound.h); without it the reported failure
would be whichever worker got there first. Exit status 0 when all holds.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

MARKER_RE = re.compile(r"//\s*BUG:\s*([A-Za-z0-9_-]+)")
RUNS = 5


def marked(source):
    with open(source) as f:
        return {(n, m.group(1)) for n, line in enumerate(f, 1) if (m := MARKER_RE.search(line))}


def explore_once(snag, program, stdin_text, workdir):
    argv = [snag, "explore", "--seed", "3", "-j", "2", "--format", "json",
            "--replay-out", os.path.join(workdir, "bug.snag-replay.json"), program]
    run = subprocess.run(argv, input=stdin_text, capture_output=True, text=True, timeout=600)
    if run.returncode != 66:
        sys.exit(f"FAIL: {' '.join(argv)} exited {run.returncode}, not 66:\n{run.stderr}")
    if "2 workers)" not in run.stderr:
        sys.exit(f"FAIL: the closing line does not name the 2 workers:\n{run.stderr}")
    report = json.loads(run.stdout)
    return report["run"]["explore"]["failure"]


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    snag, program, source = sys.argv[1:4]
    stdin_text = sys.argv[4].replace("\\n", "\n") if len(sys.argv) == 5 else ""
    bugs = marked(source)
    seen = set()
    with tempfile.TemporaryDirectory() as workdir:
        for _ in range(RUNS):
            failure = explore_once(snag, program, stdin_text, workdir)
            if not failure.get("reproduced"):
                sys.exit(f"FAIL: the failure did not reproduce under replay: {failure}")
            line = int(failure["location"].rsplit(":", 2)[-2])
            if (line, failure["kind"]) not in bugs:
                sys.exit(f"FAIL: {failure['kind']} at {failure['location']} is not a marked bug of {source}")
            seen.add((failure["schedule"], failure["kind"], failure["location"]))
    if len(seen) != 1:
        sys.exit(f"FAIL: {RUNS} runs with the same seed reported different failures: {sorted(seen)}")
    print(f"PASS: {RUNS} runs, the same failure each time: schedule, kind, location = {seen.pop()}")


if __name__ == "__main__":
    main()
