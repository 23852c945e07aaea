#!/usr/bin/env python3
"""Checks that explore's race pass does not depend on the machine's timing.

usage: check_race_pass.py SNAG PROGRAM SOURCE

PROGRAM (race_pass/sleepy_auditor.c) races only when its auditor thread
takes the lock before main, which a real run never does (the auditor sleeps
first) and some controlled schedules do (a sleep is a scheduling point that
takes no time). Requires:
- `snag explore --format json` with seeds 1, 2, 3 and 1 again reports the
  same race pass (`run.explore.race_pass`) every time: its fixed-seed
  schedules, not the run's timing or the exploration's seed, choose it;
- that pass found the race: two access sites and one address (`balance`);
- `--strategy pct` finds the lost update on the line SOURCE marks
  `// BUG: assertion-failure` (only the pass's points at the racy accesses
  make that possible), its replay check reproduces it, and the replay file's
  `points` carry the pass's sites and addresses, so `snag replay` puts the
  same points in the same places;
- `--no-race-points` runs no pass (`race_pass` null).
Exit status 0 when all holds.
"""
import json
import os
import re
import subprocess
import sys
import tempfile


def explore(snag, program, workdir, *options):
    argv = [snag, "explore", "--format", "json", "--replay-out",
            os.path.join(workdir, "bug.snag-replay.json"), *options, program]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    if run.returncode not in (0, 66):
        sys.exit(f"FAIL: {' '.join(argv)} exited {run.returncode}:\n{run.stderr}")
    return json.loads(run.stdout)["run"]["explore"], argv


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    snag, program, source = sys.argv[1:4]
    with open(source) as f:
        bug_lines = {n for n, line in enumerate(f, 1) if re.search(r"//\s*BUG:\s*assertion-failure", line)}
    with tempfile.TemporaryDirectory() as workdir:
        passes = []
        for seed in ("1", "2", "3", "1"):
            result, argv = explore(snag, program, workdir, "--seed", seed, "--schedules", "20")
            passes.append(result["race_pass"])
        if any(p != passes[0] for p in passes):
            sys.exit(f"FAIL: the race pass differs between runs:\n" + "\n".join(map(str, passes)))
        first = passes[0]
        if not first or len(first["sites"]) != 2 or len(first["addresses"]) != 1 or \
                not 1 <= first["schedules"] <= 4:
            sys.exit(f"FAIL: the race pass did not report the race on `balance` (two sites, one "
                     f"address, in at most 4 schedules): {first}")

        result, argv = explore(snag, program, workdir, "--strategy", "pct", "--seed", "1",
                               "--schedules", "500")
        failure = result["failure"]
        if not failure or failure["kind"] != "assertion-failure":
            sys.exit(f"FAIL: {' '.join(argv)} did not find the lost update: {result}")
        if int(failure["location"].rsplit(":", 2)[-2]) not in bug_lines:
            sys.exit(f"FAIL: the failure at {failure['location']} is not the marked line")
        if not failure["reproduced"]:
            sys.exit(f"FAIL: the failure did not reproduce under replay: {failure}")
        with open(result["replay_file"]) as f:
            points = json.load(f)["options"]["points"]
        # Hex ids: the report pads them to 16 digits, the points do not.
        def listed(key):
            m = re.search(r"\+" + key + r"/([0-9a-fA-F,]+)", points)
            return [int(x, 16) for x in m.group(1).split(",")] if m else []
        if listed("sites") != [int(x, 16) for x in first["sites"]] or \
                listed("addrs") != [int(x, 16) for x in first["addresses"]]:
            sys.exit(f"FAIL: the replay file's points {points!r} lack the pass's {first}")

        result, argv = explore(snag, program, workdir, "--no-race-points", "--seed", "1",
                               "--schedules", "20")
        if result["race_pass"] is not None:
            sys.exit(f"FAIL: --no-race-points still ran a race pass: {result['race_pass']}")

    print("OK: the race pass is the same in every run and its points reach the replay file")


if __name__ == "__main__":
    main()
