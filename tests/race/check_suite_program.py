#!/usr/bin/env python3
"""Runs one labelled suite program under `snag race` and checks the verdict.

A program states `// expect: racy` or `// expect: clean` in its header, and
racy programs mark the lines of the two racing accesses with RACE:first and
RACE:second. The check fails on a false positive (any finding in a clean
program, or a finding in a racy program that is not the marked pair), a false
negative (no finding in a racy program) or a wrong line.

usage: check_suite_program.py SNAG PROGRAM SOURCE
"""
import json
import os
import re
import subprocess
import sys


def expectations(source):
    text = open(source, encoding="utf-8").read()
    m = re.search(r"//\s*expect:\s*(racy|clean)", text)
    if not m:
        sys.exit(f"{source}: no '// expect: racy|clean' header")
    lines = {}
    for number, line in enumerate(text.splitlines(), start=1):
        for marker in re.findall(r"RACE:(first|second)", line):
            lines[marker] = number
    if m.group(1) == "racy" and set(lines) != {"first", "second"}:
        sys.exit(f"{source}: a racy program needs RACE:first and RACE:second markers")
    return m.group(1), lines


def line_in_source(stack, source_name):
    """The line of the innermost frame in the program's own source file."""
    for frame in stack:
        if os.path.basename(frame.get("file", "")) == source_name:
            return frame.get("line")
    return None


def describe(finding, source_name):
    return [line_in_source(side.get("stack", []), source_name) for side in finding.get("sides", [])]


def main():
    snag, program, source = sys.argv[1:4]
    verdict, marked = expectations(source)
    result = subprocess.run([snag, "race", "--format", "json", "--timeout", "60", program],
                            capture_output=True, text=True)
    if result.returncode not in (0, 66):
        print(result.stderr)
        sys.exit(f"snag race exited {result.returncode}")
    findings = json.loads(result.stdout)["findings"]
    name = os.path.basename(source)
    seen = [describe(f, name) for f in findings]
    if verdict == "clean":
        if findings:
            print(result.stderr)
            sys.exit(f"FALSE POSITIVE: {name} is race-free but snag reported {len(findings)} race(s), "
                     f"at source lines {seen}")
        print(f"{name}: clean, as expected")
        return
    want = {marked["first"], marked["second"]}
    if not findings:
        sys.exit(f"FALSE NEGATIVE: {name} races at lines {sorted(want)} but snag reported nothing")
    for lines in seen:
        if len(lines) < 2 or None in lines or {lines[0], lines[1]} != want and not (
                len(want) == 1 and lines[0] in want and lines[1] in want):
            print(result.stderr)
            sys.exit(f"WRONG REPORT: {name} races at lines {sorted(want)} but snag reported "
                     f"a race between lines {lines}")
    print(f"{name}: race between lines {sorted(want)} found")


if __name__ == "__main__":
    main()
