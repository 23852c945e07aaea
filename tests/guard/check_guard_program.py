#!/usr/bin/env python3
"""Runs one labelled guard-suite program natively, under `snag learn`,
`snag guard` and (when labelled) `snag expose`, and checks the verdicts.

usage: check_guard_program.py SNAG PROGRAM SOURCE

SOURCE is NAME_buggy.c or NAME_fixed.c with the header of suite/README.md:

  // snag-guard-suite
  // expect: tolerated            (or: // expect: clean)
  // pattern: R-R|W               (tolerated programs only)
  // learn: good good2            (optional; the schedules learned from)
  // expose: yes                  (optional; also run snag expose)
  // lean: yes                    (optional; also build it lean, see 5.)
  // lean: bias                   (optional; lean with -fsnag-bias=30)
  // tolerate: no                 (optional; guard reports the violation but
                                   cannot avoid the failure, see below)
  // why: ...

A tolerated program marks the access guard stalls with `// GUARD:current`
and its remote (or expected) predecessor with `// GUARD:previous`. Every
program takes its schedule as argv[1]: good, good2 (correct orders) or bad
(the rare interleaving, forced with parking: tests/guard/suite/guard_test.h).

A tolerated (buggy) program passes when
  1. natively (SNAG_OPTIONS=engine=none) every learned schedule exits 0
     and `bad` fails (exits non-zero): the bug is real and forced;
  2. `snag learn` learns from each learned schedule (exit 0) and refuses
     `bad` (non-zero, says "not learned from", the file unchanged);
  3. `snag guard --max-stall-ms 2000 ... PROGRAM bad` (F plus one site no
     build has, which guard must count as unmatched) exits 0 (the program's own status: the
     failure did not happen) and reports a finding whose two sides'
     innermost frames are the marked lines, with details.pattern equal to
     the label and details.outcome "tolerated" (with `tolerate: no`: the
     same finding with outcome "not tolerated", and the program fails: the
     stall ended at its cap, as it must when the stalled thread holds the
     lock the other side needs);
  4. with `expose: yes`, `snag expose ... PROGRAM good` (learned from
     correct runs only) exits 66 with a finding naming the marked lines.
  5. with `lean: yes` or `lean: bias`, a lean build of SOURCE
     (snag-cc -fsnag-instrument=guard -fsnag-invariants=F [-fsnag-bias=30],
     instrumenting only the sites in F, minus hot groups with bias) says
     how many sites it instruments (and, with bias, that it left some out),
     and under `snag guard` tolerates `bad` with the same finding.
A clean (fixed) program passes when every schedule exits 0 natively, is
learned from, and then runs under `snag guard` with no finding and status 0
(and, with `expose: yes`, `snag expose` finds nothing either); and when,
learned from `good` alone, `snag learn --relax` on the other schedules
(check-only: it reports the orders `good` did not have and adds them)
leaves a file under which guard finds nothing in them either.

On failure the first line printed is the verdict (NOT-FAILING-NATIVELY,
LEARN-FAILED, NOT-REFUSED, NOT-TOLERATED, MISSED, WRONG-LINES,
WRONG-PATTERN, FALSE-POSITIVE, NOT-EXPOSED, LEAN-BUILD, BAD-REPORT), then the details;
exit status 1. A malformed header is SUITE-ERROR, exit status 2.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

TIMEOUT = 60
# Stalls end as soon as the invariant holds, so a long cap costs nothing when
# guard works; it only keeps the verdict from depending on how fast a loaded
# machine runs the released thread (the default 10 ms cap is for production).
MAX_STALL_MS = "2000"
HOLD_MS = "1000"
NAME_RE = re.compile(r"^(?P<topic>.+)_(?P<role>buggy|fixed)\.c$")
LABEL_RE = re.compile(r"^//\s*(expect|pattern|learn|expose|tolerate|lean|why):\s*(.*?)\s*$")
MARK_RE = re.compile(r"GUARD:(current|previous)\b")


class Failure(Exception):
    pass


def read_labels(source):
    name = os.path.basename(source)
    m = NAME_RE.match(name)
    if not m:
        raise ValueError(f"{name}: not NAME_buggy.c or NAME_fixed.c")
    labels = {"role": m.group("role"), "marks": {}}
    with open(source, encoding="utf-8") as f:
        lines = f.read().splitlines()
    if not lines or lines[0].strip() != "// snag-guard-suite":
        raise ValueError(f"{name}: first line is not '// snag-guard-suite'")
    for number, line in enumerate(lines, 1):
        lm = LABEL_RE.match(line)
        if lm and number < 15:
            labels[lm.group(1)] = lm.group(2)
        for mark in MARK_RE.findall(line):
            if mark in labels["marks"]:
                raise ValueError(f"{name}: GUARD:{mark} marks two lines")
            labels["marks"][mark] = number
    expect = labels.get("expect")
    if expect not in ("tolerated", "clean"):
        raise ValueError(f"{name}: expect must be tolerated or clean")
    if (expect == "tolerated") != (labels["role"] == "buggy"):
        raise ValueError(f"{name}: buggy programs expect tolerated, fixed ones clean")
    if "why" not in labels:
        raise ValueError(f"{name}: missing '// why:'")
    if expect == "tolerated" and (set(labels["marks"]) != {"current", "previous"} or "pattern" not in labels):
        raise ValueError(f"{name}: a tolerated program needs a pattern and both GUARD marks")
    default = "good good2" if expect == "tolerated" else "good good2 bad"
    labels["learn"] = labels.get("learn", default).split()
    labels["expose"] = labels.get("expose", "no") == "yes"
    labels["tolerate"] = labels.get("tolerate", "yes") != "no"
    labels["lean"] = labels.get("lean", "no")
    return labels


def run(command, env=None):
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, env=env)
    except subprocess.TimeoutExpired as e:
        raise Failure(f"BAD-REPORT\ntimed out: {' '.join(command)}") from e


def describe(result, command):
    return f"command: {' '.join(command)}\nstatus: {result.returncode}\nstderr:\n{result.stderr}"


def native(program, schedule):
    env = dict(os.environ, SNAG_OPTIONS="engine=none")
    command = [program, schedule]
    return run(command, env), command


def findings_of(path, result, command):
    try:
        with open(path, encoding="utf-8") as f:
            report = json.load(f)
        return report["findings"]
    except (OSError, ValueError, KeyError) as e:
        raise Failure(f"BAD-REPORT\n{e}\n{describe(result, command)}") from e


def innermost_line(side, source):
    frames = side.get("stack") or []
    if not frames:
        return None
    frame = frames[0]
    if os.path.basename(frame.get("file") or "") != os.path.basename(source):
        return None
    return frame.get("line")


def sides_lines(finding, source):
    sides = finding.get("sides") or []
    return [innermost_line(s, source) for s in sides[:2]]


def guard_bad(snag, program, source, labels, inv, work, tag):
    """Runs `snag guard` on the bad schedule and checks the finding."""
    marks = labels["marks"]
    report = os.path.join(work, f"guard-{tag}.json")
    command = [snag, "guard", "--invariants", inv, "--max-stall-ms", MAX_STALL_MS, "--format", "json",
               "--output", report, program, "bad"]
    result = run(command)
    findings = findings_of(report, result, command)
    if not findings:
        raise Failure(f"MISSED\n{tag}\n{describe(result, command)}")
    expect_lines = [marks["current"], marks["previous"]]
    named = [f for f in findings if sides_lines(f, source) == expect_lines]
    if not named:
        lines = [sides_lines(f, source) for f in findings]
        raise Failure(f"WRONG-LINES\n{tag}: expected sides at lines {expect_lines}, got {lines}\n"
                      f"{json.dumps(findings, indent=2)}")
    finding = named[0]
    details = finding.get("details") or {}
    if finding.get("engine") != "guard" or details.get("pattern") != labels["pattern"]:
        raise Failure(f"WRONG-PATTERN\n{tag}: expected {labels['pattern']}, got {details.get('pattern')}\n"
                      f"{json.dumps(finding, indent=2)}")
    tolerated = details.get("outcome") == "tolerated" and result.returncode == 0
    not_tolerated = details.get("outcome") == "not tolerated" and result.returncode != 0
    if labels["tolerate"] and not tolerated:
        raise Failure(f"NOT-TOLERATED\n{tag}\n{json.dumps(finding, indent=2)}\n{describe(result, command)}")
    if not labels["tolerate"] and not not_tolerated:
        raise Failure(f"BAD-REPORT\n{tag}: expected 'not tolerated' and a failing program\n"
                      f"{json.dumps(finding, indent=2)}\n{describe(result, command)}")
    return result


def check_lean(snag, source, labels, inv, work):
    cc = os.path.join(os.path.dirname(snag), "snag-cc")
    lean = os.path.join(work, "lean")
    command = [cc, "-std=c11", "-O1", "-g", "-pthread", "-fsnag-instrument=guard",
               f"-fsnag-invariants={inv}"]
    if labels["lean"] == "bias":
        command.append("-fsnag-bias=30")
    command += [source, "-o", lean]
    result = run(command)
    summary = re.search(r"guard build from .*: (\d+) sites(?:; --bias 30: left out (\d+) sites)?",
                        result.stderr)
    if result.returncode != 0 or not summary:
        raise Failure(f"LEAN-BUILD\n{describe(result, command)}")
    if labels["lean"] == "bias" and not (summary.group(2) and int(summary.group(2)) > 0):
        raise Failure(f"LEAN-BUILD\n--bias 30 left nothing out\n{describe(result, command)}")
    guard_bad(snag, lean, source, labels, inv, work, "lean")


def check(snag, program, source, labels, work):
    inv = os.path.join(work, "program.invariants")
    marks = labels["marks"]
    buggy = labels["role"] == "buggy"

    # 1. natively
    for schedule in labels["learn"]:
        result, command = native(program, schedule)
        if result.returncode != 0:
            raise Failure(f"LEARN-FAILED\nthe correct schedule '{schedule}' fails natively\n{describe(result, command)}")
    if buggy:
        result, command = native(program, "bad")
        if result.returncode == 0:
            raise Failure(f"NOT-FAILING-NATIVELY\nthe bad schedule does not fail without guard\n{describe(result, command)}")

    # 2. learning
    for schedule in labels["learn"]:
        command = [snag, "learn", "--invariants", inv, program, schedule]
        result = run(command)
        if result.returncode != 0 or "changed" not in result.stderr:
            raise Failure(f"LEARN-FAILED\n{describe(result, command)}")
    if buggy:
        with open(inv, encoding="utf-8") as f:
            before = f.read()
        command = [snag, "learn", "--invariants", inv, program, "bad"]
        result = run(command)
        with open(inv, encoding="utf-8") as f:
            after = f.read()
        if result.returncode == 0 or "not learned from" not in result.stderr or before != after:
            raise Failure(f"NOT-REFUSED\na failing run was learned from\n{describe(result, command)}")

    # 3. guard
    for schedule in [] if buggy else ["good", "good2", "bad"]:
        report = os.path.join(work, f"guard-{schedule}.json")
        command = [snag, "guard", "--invariants", inv, "--format", "json", "--output", report, program, schedule]
        result = run(command)
        findings = findings_of(report, result, command)
        if findings or result.returncode != 0:
            raise Failure(f"FALSE-POSITIVE\nschedule {schedule}\n{json.dumps(findings, indent=2)}\n{describe(result, command)}")
    if buggy:
        # As from an older build: one site this build does not have. It is
        # matched by stable id like the rest, counted, and not checked.
        stale = os.path.join(work, "stale.invariants")
        with open(inv, encoding="utf-8") as f, open(stale, "w", encoding="utf-8") as out:
            out.write(f.read() + "bset 00000000000000ff nil\n")
        result = guard_bad(snag, program, source, labels, stale, work, "bad")
        if not re.search(r"snag guard: 1 of the \d+ sites in .* are not in this build", result.stderr):
            raise Failure(f"BAD-REPORT\nthe site from an older build was not counted\n{result.stderr}")
        # Another program's file: one warning line, and the program still runs.
        foreign = os.path.join(work, "foreign.invariants")
        with open(foreign, "w", encoding="utf-8") as out:
            out.write("snag-invariants 1\nprogram other\nbset 00000000000000aa nil\n")
        command = [snag, "guard", "--invariants", foreign, program, labels["learn"][0]]
        result = run(command)
        warnings = [l for l in result.stderr.splitlines() if l.startswith("snag: warning:")]
        if (result.returncode != 0 or len(warnings) != 1 or
                "learned from program 'other'" not in warnings[0]):
            raise Failure(f"BAD-REPORT\na foreign invariants file\n{describe(result, command)}")

    # 3b. relax: a fixed twin learned from one schedule, relaxed with the others
    if not buggy:
        relaxed = os.path.join(work, "relaxed.invariants")
        command = [snag, "learn", "--invariants", relaxed, program, "good"]
        result = run(command)
        if result.returncode != 0:
            raise Failure(f"LEARN-FAILED\n{describe(result, command)}")
        for schedule in ["good2", "bad"]:
            report = os.path.join(work, f"relax-{schedule}.json")
            command = [snag, "learn", "--relax", "--invariants", relaxed, "--format", "json",
                       "--output", report, program, schedule]
            result = run(command)
            findings = findings_of(report, result, command)
            said = re.search(r"--relax: (\d+) violations? of a correct run added", result.stderr)
            if result.returncode != 0 or not said or int(said.group(1)) != len(findings):
                raise Failure(f"BAD-REPORT\nrelax {schedule}\n{describe(result, command)}")
        for schedule in ["good2", "bad"]:
            report = os.path.join(work, f"relaxed-guard-{schedule}.json")
            command = [snag, "guard", "--invariants", relaxed, "--format", "json", "--output", report,
                       program, schedule]
            result = run(command)
            findings = findings_of(report, result, command)
            if findings or result.returncode != 0:
                raise Failure(f"FALSE-POSITIVE\nafter relaxing, schedule {schedule}\n"
                              f"{json.dumps(findings, indent=2)}\n{describe(result, command)}")

    # 4. expose, from the correct runs' invariants only
    if labels["expose"]:
        report = os.path.join(work, "expose.json")
        command = [snag, "expose", "--invariants", inv, "--hold-ms", HOLD_MS, "--format", "json",
                   "--output", report, program, "good"]
        result = run(command)
        findings = findings_of(report, result, command)
        if buggy:
            expect_lines = [marks["current"], marks["previous"]]
            if result.returncode != 66 or not any(sides_lines(f, source) == expect_lines for f in findings):
                raise Failure(f"NOT-EXPOSED\n{json.dumps(findings, indent=2)}\n{describe(result, command)}")
        elif findings or result.returncode != 0:
            raise Failure(f"FALSE-POSITIVE\nexpose\n{json.dumps(findings, indent=2)}\n{describe(result, command)}")


def check_all(snag, program, source, labels, work):
    check(snag, program, source, labels, work)
    if labels["lean"] != "no":
        check_lean(snag, source, labels, os.path.join(work, "program.invariants"), work)


def main():
    if len(sys.argv) != 4:
        print(__doc__.splitlines()[2].strip(), file=sys.stderr)
        return 2
    snag, program, source = sys.argv[1:]
    try:
        labels = read_labels(source)
    except ValueError as e:
        print(f"SUITE-ERROR\n{e}")
        return 2
    with tempfile.TemporaryDirectory(prefix="snag-guard-") as work:
        try:
            check_all(snag, program, source, labels, work)
        except Failure as e:
            print(e)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
