#!/usr/bin/env python3
"""Runs one labelled `snag check` suite program and checks the verdict.

The suite format (tests/check/suite, shared by three engineers; do not
change it): every file starts with

    // snag-check-suite
    // expect: race | deadlock | clean
    // why: one line
    // check-flags: -DFOO          (optional)
    // entry: library              (optional: no main, in-the-middle starts)

Buggy files mark lines with trailing comments: `// RACE:first` and
`// RACE:second` on the two racing lines (both on one line when the two
sides are the same line), `// DEADLOCK` on every acquisition of the cycle.

The check runs `snag check --format json FILE -- -std=c++20 <check-flags>`
(C: -std=c11). A buggy file passes when the findings contain one finding of
the expected kind whose sides' lines equal the marked lines (as a set), and
no finding of the other kind; a fixed (clean) file passes when there are no
findings at all. The exit status must agree (66 with findings, 0 without).

usage: check_suite_program.py SNAG SOURCE [--cache-dir DIR] [-- EXTRA SNAG OPTIONS]
"""
import json
import os
import re
import subprocess
import sys

KINDS = {"race": "data-race", "deadlock": "deadlock"}


def fail(message, output=""):
    if output:
        print(output, file=sys.stderr)
    print(message, file=sys.stderr)
    sys.exit(1)


def read_program(source):
    """The header's fields and the marked lines, or a failure for a file
    that does not follow the format (a broken test must not pass)."""
    with open(source, encoding="utf-8") as f:
        lines = f.read().splitlines()
    name = os.path.basename(source)
    if not lines or lines[0].strip() != "// snag-check-suite":
        fail(f"{name}: does not start with '// snag-check-suite'")
    header = {}
    body_start = 1  # 0-based index of the first line after the header
    for line in lines[1:]:
        m = re.match(r"//\s*([a-z-]+):\s*(.*?)\s*$", line)
        if not m:
            break
        header[m.group(1)] = m.group(2)
        body_start += 1
    expect = header.get("expect")
    if expect not in ("race", "deadlock", "clean"):
        fail(f"{name}: no '// expect: race|deadlock|clean' line in the header")
    race_lines, deadlock_lines = set(), set()
    firsts, seconds = [], []
    for number, line in enumerate(lines[body_start:], start=body_start + 1):
        comment = line.split("//", 1)[1] if "//" in line else ""
        if re.search(r"\bRACE:first\b", comment):
            firsts.append(number)
        if re.search(r"\bRACE:second\b", comment):
            seconds.append(number)
        if re.search(r"\bDEADLOCK\b", comment):
            deadlock_lines.add(number)
    race_lines = set(firsts) | set(seconds)
    if expect == "race" and (len(firsts) != 1 or len(seconds) != 1):
        fail(f"{name}: expects a race but has {len(firsts)} RACE:first and {len(seconds)} "
             f"RACE:second markers (need exactly one of each)")
    if expect == "deadlock" and not deadlock_lines:
        fail(f"{name}: expects a deadlock but marks no DEADLOCK line")
    if expect == "clean" and (race_lines or deadlock_lines):
        fail(f"{name}: expects no findings but has markers on lines "
             f"{sorted(race_lines | deadlock_lines)}")
    marked = race_lines if expect == "race" else deadlock_lines
    return header, expect, marked


def side_line(side, name):
    """The line of a side's innermost frame in the program's own file."""
    for frame in side.get("stack", []):
        if os.path.basename(frame.get("file", "")) == name:
            return frame.get("line")
    return None


def describe(finding, name):
    lines = [side_line(side, name) for side in finding.get("sides", [])]
    return f"{finding.get('kind')} on lines {lines}: {finding.get('message', '')}"


def main(argv):
    args = argv[1:]
    extra = []
    if "--" in args:
        extra = args[args.index("--") + 1:]
        args = args[:args.index("--")]
    cache_dir = None
    if "--cache-dir" in args:
        i = args.index("--cache-dir")
        cache_dir = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    snag, source = args
    name = os.path.basename(source)
    header, expect, marked = read_program(source)

    std = "-std=c11" if source.endswith(".c") else "-std=c++20"
    command = [snag, "check", "--format", "json"] + extra
    if cache_dir:
        command += ["--cache-dir", cache_dir]
    command += [source, "--", std] + header.get("check-flags", "").split()
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode not in (0, 66):
        fail(f"{name}: snag check exited {result.returncode}", result.stderr)
    try:
        findings = json.loads(result.stdout)["findings"]
    except (ValueError, KeyError) as e:
        fail(f"{name}: snag check wrote no JSON report ({e})", result.stdout + result.stderr)
    seen = "\n".join("  " + describe(f, name) for f in findings) or "  nothing"
    if (result.returncode == 66) != bool(findings):
        fail(f"{name}: exit status {result.returncode} does not agree with {len(findings)} finding(s)")

    if expect == "clean":
        if findings:
            fail(f"FALSE POSITIVE: {name} is clean but snag check found:\n{seen}", result.stderr)
        print(f"{name}: clean, as expected")
        return 0

    kind, other = KINDS[expect], KINDS["deadlock" if expect == "race" else "race"]
    wrong_kind = [f for f in findings if f.get("kind") == other]
    if wrong_kind:
        fail(f"WRONG KIND: {name} has a {expect} but snag check also found:\n{seen}", result.stderr)
    for finding in findings:
        if finding.get("kind") != kind:
            continue
        lines = {side_line(side, name) for side in finding.get("sides", [])}
        if lines == marked:
            print(f"{name}: {expect} on lines {sorted(marked)} found")
            return 0
    if not findings:
        fail(f"FALSE NEGATIVE: {name} has a {expect} on lines {sorted(marked)} but snag check "
             f"found nothing", result.stderr)
    fail(f"WRONG LINES: {name} has a {expect} on lines {sorted(marked)} but snag check found:\n{seen}",
         result.stderr)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
