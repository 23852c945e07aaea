#!/usr/bin/env python3
"""Runs one labelled suite program under `snag race` and checks the verdict.

A program states `// expect: racy`, `// expect: potential` or `// expect:
clean` in its header, and racy and potential programs mark the lines of the
two racing accesses with RACE:first and RACE:second.

A potential program races only in interleavings this run does not take (a
lock orders the two accesses, but they hold no common lock): plain `snag
race` must stay silent on it every run, and `snag race --potential` must
report the marked pair as a potential data race, and nothing else. A clean
program with a `// run: snag race --potential` line must stay silent with
--potential too. The check fails on a false positive (any finding in a clean
program, or a finding in a racy program that is not the marked pair), a false
negative (no finding in a racy program) or a wrong line.

A dynamic detector sees only the interleaving that happened, and a few racy
programs race in a way only some interleavings reveal (a read that overtakes
the other thread's first access). A racy program therefore gets up to three
runs to show its race; every report in every run must still be the marked
pair. A clean program runs three times and must be silent every time.

usage: check_suite_program.py SNAG PROGRAM SOURCE
"""
import json
import os
import re
import subprocess
import sys


def expectations(source):
    text = open(source, encoding="utf-8").read()
    m = re.search(r"//\s*expect:\s*(racy|clean|potential)", text)
    if not m:
        sys.exit(f"{source}: no '// expect: racy|clean|potential' header")
    lines = {}
    for number, line in enumerate(text.splitlines(), start=1):
        for marker in re.findall(r"RACE:(first|second)", line):
            lines[marker] = number
    if m.group(1) != "clean" and set(lines) != {"first", "second"}:
        sys.exit(f"{source}: a racy program needs RACE:first and RACE:second markers")
    potential = m.group(1) == "potential" or re.search(r"//\s*run: snag race --potential", text)
    return m.group(1), lines, bool(potential)


def line_in_source(stack, source_name):
    """The line of the innermost frame in the program's own source file."""
    for frame in stack:
        if os.path.basename(frame.get("file", "")) == source_name:
            return frame.get("line")
    return None


def describe(finding, source_name):
    return [line_in_source(side.get("stack", []), source_name) for side in finding.get("sides", [])]


RUNS = 3


def run_once(snag, program, potential=False):
    extra = ["--potential"] if potential else []
    result = subprocess.run([snag, "race", "--format", "json", "--timeout", "60"] + extra + [program],
                            capture_output=True, text=True)
    if result.returncode not in (0, 66):
        print(result.stderr)
        sys.exit(f"snag race exited {result.returncode}")
    return json.loads(result.stdout)["findings"], result.stderr


def main():
    snag, program, source = sys.argv[1:4]
    verdict, marked, potential = expectations(source)
    name = os.path.basename(source)
    want = {marked.get("first"), marked.get("second")}
    if verdict == "potential":
        check_potential(snag, program, name, want)
        return
    for run in range(1, RUNS + 1):
        findings, stderr = run_once(snag, program, potential)
        seen = [describe(f, name) for f in findings]
        if verdict == "clean":
            if findings:
                print(stderr)
                sys.exit(f"FALSE POSITIVE: {name} is race-free but snag reported {len(findings)} "
                         f"race(s) in run {run}, at source lines {seen}")
            continue
        for lines in seen:
            if len(lines) < 2 or None in lines or {lines[0], lines[1]} != want:
                print(stderr)
                sys.exit(f"WRONG REPORT: {name} races at lines {sorted(want)} but snag reported "
                         f"a race between lines {lines}")
        if findings:
            print(f"{name}: race between lines {sorted(want)} found in run {run}")
            return
    if verdict == "clean":
        print(f"{name}: clean in {RUNS} runs, as expected")
        return
    sys.exit(f"FALSE NEGATIVE: {name} races at lines {sorted(want)} but snag reported nothing "
             f"in {RUNS} runs")


def check_potential(snag, program, name, want):
    """Silent without --potential (the racy interleaving did not happen), the
    marked pair as a potential race with it."""
    for run in range(1, RUNS + 1):
        findings, stderr = run_once(snag, program)
        if findings:
            print(stderr)
            sys.exit(f"UNEXPECTED RACE: {name} is ordered in every run, but plain snag race "
                     f"reported {len(findings)} race(s) in run {run}, at {[describe(f, name) for f in findings]}")
    for run in range(1, RUNS + 1):
        findings, stderr = run_once(snag, program, potential=True)
        if not findings:
            print(stderr)
            sys.exit(f"FALSE NEGATIVE: {name} has a potential race at lines {sorted(want)} but "
                     f"snag race --potential reported nothing in run {run}")
        for f in findings:
            lines = describe(f, name)
            if f.get("kind") != "potential-data-race" or len(lines) < 2 or {lines[0], lines[1]} != want:
                print(stderr)
                sys.exit(f"WRONG REPORT: {name} has a potential race at lines {sorted(want)} but "
                         f"snag race --potential reported a {f.get('kind')} at lines {lines}")
    print(f"{name}: potential race between lines {sorted(want)} found in {RUNS} runs, "
          f"none without --potential")


if __name__ == "__main__":
    main()
