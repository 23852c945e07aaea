#!/usr/bin/env python3
"""Runs one labelled suite program under `snag tsv` and checks the verdict.

usage: check_tsv_program.py SNAG PROGRAM SOURCE

SOURCE is the program's source file, NAME_buggy.c(c) or NAME_fixed.c(c),
with the header described in suite/README.md:

  // snag-tsv-suite
  // expect: violation            (or: // expect: clean)
  // object: std::vector<int>     (violation programs only)
  // why: ...
  // build-flags: ...             (optional; for the build, not read here)

A violation program marks the two conflicting call lines with trailing
`// TSV:first` and `// TSV:second` comments (one line may carry both).

The check runs, in a fresh temporary directory,

  SNAG tsv --runs 2 --seed 1 --trap-file DIR/traps --timeout 60
       --format json --output DIR/report.json PROGRAM

(DIR/traps does not exist beforehand: run 1 starts with no traps, and the
trap file carries the near misses of run 1 into run 2) and reads the JSON
report {"version": 1, "tool": ..., "run": ..., "findings": [...], "summary": ...}.

A violation program passes when snag exits 66 with at least one finding and
every finding is engine "tsv", kind "thread-safety-violation", has two sides
whose innermost frames in SOURCE (matched by base name) are the two marked
lines (in either order; the same line twice when one line carries both
markers), and has details.object containing the `// object:` text.

A clean program passes when snag exits 0 with no findings.

On failure the first line printed is the verdict, one of

  MISSED          a violation program, and snag reported nothing
  WRONG-LINES     a finding's two sides are not the two marked lines
  WRONG-OBJECT    a finding's details.object does not contain the object text
  WRONG-KIND      a finding that is not engine tsv / kind thread-safety-violation
  FALSE-POSITIVE  a clean program, and snag reported something
  BAD-STATUS      snag's exit status is not the expected one (66 / 0), or it
                  failed or timed out
  BAD-REPORT      the JSON report is missing or malformed

followed by the findings, the command and snag's stderr; the exit status is
then 1. Exit status 0 when the program behaves as labelled. A source whose
labels are malformed is a suite error: SUITE-ERROR, exit status 2.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

FOUND = 66            # exit status of snag when it found something
RUNS = 2
SEED = 1
PROGRAM_TIMEOUT = 60  # --timeout given to snag, per run of the program
SNAG_TIMEOUT = 170    # the whole snag command; CTest gives the test 180 s
KIND = "thread-safety-violation"
ENGINE = "tsv"

NAME_RE = re.compile(r"^(?P<topic>.+)_(?P<role>buggy|fixed)\.(?P<ext>c|cc)$")
EXPECT_RE = re.compile(r"^//\s*expect:\s*(\S+)\s*$")
OBJECT_RE = re.compile(r"^//\s*object:\s*(.*?)\s*$")
WHY_RE = re.compile(r"^//\s*why:\s*\S")
FLAGS_RE = re.compile(r"^//\s*build-flags:\s*(.*?)\s*$")
MARK_RE = re.compile(r"TSV:(first|second)\b")


class LabelError(Exception):
    pass


def read_labels(source):
    """The labels of SOURCE: a dict with role ('buggy'|'fixed'), expect
    ('violation'|'clean'), object (str or None), marked (sorted list of the
    marked line numbers, two entries; empty for clean programs) and
    build_flags (list). Raises LabelError when they are malformed."""
    base = os.path.basename(source)
    m = NAME_RE.match(base)
    if not m:
        raise LabelError("the file name must end in _buggy.c(c) or _fixed.c(c)")
    role = m.group("role")
    try:
        with open(source, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise LabelError(f"cannot read: {e}")

    header = []
    for line in lines:
        if not line.startswith("//"):
            break
        header.append(line)
    if not header or header[0].strip() != "// snag-tsv-suite":
        raise LabelError("the first line must be '// snag-tsv-suite'")
    expects = [EXPECT_RE.match(l).group(1) for l in header if EXPECT_RE.match(l)]
    if len(expects) != 1 or expects[0] not in ("violation", "clean"):
        raise LabelError("the header needs exactly one '// expect: violation' or "
                         "'// expect: clean' line")
    expect = expects[0]
    if (role, expect) not in (("buggy", "violation"), ("fixed", "clean")):
        raise LabelError(f"a _{role} program must say "
                         f"'// expect: {'violation' if role == 'buggy' else 'clean'}'")
    if not any(WHY_RE.match(l) for l in header):
        raise LabelError("the header needs a '// why: ...' line")
    objects = [OBJECT_RE.match(l).group(1) for l in header if OBJECT_RE.match(l)]
    flags = []
    for l in header:
        fm = FLAGS_RE.match(l)
        if fm:
            flags += fm.group(1).split()

    first, second = [], []
    for number, line in enumerate(lines, start=1):
        found = MARK_RE.findall(line)
        if found.count("first") > 1 or found.count("second") > 1:
            raise LabelError(f"line {number} repeats a TSV marker")
        if "first" in found:
            first.append(number)
        if "second" in found:
            second.append(number)

    if expect == "violation":
        if len(objects) != 1 or not objects[0]:
            raise LabelError("a violation program needs exactly one non-empty "
                             "'// object: TYPE' line in its header")
        if len(first) != 1 or len(second) != 1:
            raise LabelError(f"a violation program needs exactly one TSV:first and one "
                             f"TSV:second line (found TSV:first on {first or 'no line'}, "
                             f"TSV:second on {second or 'no line'})")
        marked = sorted(first + second)
        obj = objects[0]
    else:
        if first or second:
            raise LabelError(f"a clean program has no TSV markers, but lines "
                             f"{sorted(set(first + second))} have some")
        if objects:
            raise LabelError("a clean program has no '// object:' line")
        marked, obj = [], None
    return {"role": role, "expect": expect, "object": obj, "marked": marked,
            "build_flags": flags}


# ---------------------------------------------------------------------------
# The report.


def own_line(stack, source_name):
    """The line of the innermost frame of STACK in the program's own source."""
    for frame in stack or []:
        if isinstance(frame, dict) and os.path.basename(str(frame.get("file") or "")) == source_name:
            return frame.get("line")
    return None


def side_lines(finding, source_name):
    sides = finding.get("sides")
    if not isinstance(sides, list):
        return []
    return [own_line(s.get("stack"), source_name) if isinstance(s, dict) else None for s in sides]


def object_of(finding):
    details = finding.get("details")
    if isinstance(details, dict) and isinstance(details.get("object"), str):
        return details["object"]
    return None


def describe(finding, source_name):
    lines = ", ".join("?" if l is None else f"{source_name}:{l}"
                      for l in side_lines(finding, source_name)) or "no sides"
    return (f"{finding.get('engine')}/{finding.get('kind')} on "
            f"{object_of(finding)!r} between [{lines}]")


def tail(text, lines=30):
    text = (text or "").rstrip()
    if not text:
        return "  (empty)"
    return "\n".join("  | " + l for l in text.splitlines()[-lines:])


class Failed(Exception):
    def __init__(self, verdict, message):
        super().__init__(f"{verdict}: {message}")
        self.verdict = verdict


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    snag, program, source = sys.argv[1:4]
    source_name = os.path.basename(source)
    try:
        labels = read_labels(source)
    except LabelError as e:
        print(f"SUITE-ERROR: {source}: {e}")
        sys.exit(2)
    program = os.path.abspath(program)
    if os.sep in snag:
        snag = os.path.abspath(snag)  # snag runs in the temporary directory

    with tempfile.TemporaryDirectory(prefix="snag-tsv-suite-") as workdir:
        traps = os.path.join(workdir, "traps")
        report_path = os.path.join(workdir, "report.json")
        argv = [snag, "tsv", "--runs", str(RUNS), "--seed", str(SEED), "--trap-file", traps,
                "--timeout", str(PROGRAM_TIMEOUT), "--format", "json", "--output", report_path,
                program]
        command = " ".join(shlex.quote(a) for a in argv)
        env = dict(os.environ)
        env.pop("SNAG_OPTIONS", None)  # a stray one must not change the run
        status, stderr, findings = None, "", []
        try:
            try:
                result = subprocess.run(argv, cwd=workdir, env=env, capture_output=True, text=True,
                                        errors="replace", timeout=SNAG_TIMEOUT)
            except subprocess.TimeoutExpired:
                raise Failed("BAD-STATUS", f"snag tsv did not finish within {SNAG_TIMEOUT} s")
            except OSError as e:
                raise Failed("BAD-STATUS", f"cannot run snag: {e}")
            status, stderr = result.returncode, result.stderr
            if status not in (0, FOUND):
                raise Failed("BAD-STATUS", f"snag tsv exited {status} on {source_name} "
                                           f"(expected {FOUND if labels['expect'] == 'violation' else 0})")
            try:
                with open(report_path, encoding="utf-8") as f:
                    report = json.load(f)
            except (OSError, ValueError) as e:
                raise Failed("BAD-REPORT", f"no readable JSON report at {report_path}: {e}")
            if not isinstance(report, dict) or not isinstance(report.get("findings"), list):
                raise Failed("BAD-REPORT", 'the JSON report has no "findings" list')
            findings = [f for f in report["findings"] if isinstance(f, dict)]
            if len(findings) != len(report["findings"]):
                raise Failed("BAD-REPORT", "a finding in the JSON report is not an object")

            if labels["expect"] == "clean":
                if findings:
                    raise Failed("FALSE-POSITIVE",
                                 f"{source_name} is clean but snag reported {len(findings)} "
                                 f"finding(s); first: {describe(findings[0], source_name)}")
                if status != 0:
                    raise Failed("BAD-STATUS", f"snag tsv exited {status} with no findings "
                                               f"on clean {source_name} (expected 0)")
                print(f"{source_name}: clean, as expected ({RUNS} runs)")
                return

            want = labels["marked"]
            want_text = " and ".join(f"{source_name}:{l}" for l in want)
            if not findings:
                raise Failed("MISSED", f"snag reported nothing for {source_name} (expected a "
                                       f"violation on {labels['object']} between {want_text})")
            for finding in findings:
                if finding.get("engine") != ENGINE or finding.get("kind") != KIND:
                    raise Failed("WRONG-KIND", f"expected engine {ENGINE}, kind {KIND}; got "
                                               f"{describe(finding, source_name)}")
            for finding in findings:
                lines = side_lines(finding, source_name)
                if len(lines) != 2 or None in lines or sorted(lines) != want:
                    raise Failed("WRONG-LINES", f"expected a violation between {want_text}; got "
                                                f"{describe(finding, source_name)}")
            for finding in findings:
                obj = object_of(finding)
                if obj is None or labels["object"] not in obj:
                    raise Failed("WRONG-OBJECT", f"expected the object to name "
                                                 f"{labels['object']!r}; got "
                                                 f"{describe(finding, source_name)}")
            if status != FOUND:
                raise Failed("BAD-STATUS", f"snag tsv reported the violation but exited "
                                           f"{status} (expected {FOUND})")
            print(f"{source_name}: violation on {labels['object']} between {want_text}, "
                  f"as expected ({len(findings)} finding(s))")
        except Failed as e:
            print(str(e))
            for finding in findings[:10]:
                print("  finding: " + describe(finding, source_name))
            print(f"  command: {command}")
            if status is not None:
                print(f"  exit status: {status}")
            print("  snag's stderr:")
            print(tail(stderr))
            sys.exit(1)


if __name__ == "__main__":
    main()
