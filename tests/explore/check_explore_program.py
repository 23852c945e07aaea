#!/usr/bin/env python3
"""Runs one labelled suite program under `snag explore` and checks the verdict.

usage: check_explore_program.py SNAG PROGRAM SOURCE

SOURCE is the program's source file; its name says what it is:
NAME_buggy.c(c) or NAME_fixed.c(c). Both carry a budget line
`// explore-budget: N` (the number of schedules, at most 10000). A buggy
program marks the lines where the failure must be reported with trailing
`// BUG: KIND` comments, KIND one of assertion-failure, deadlock, crash,
exit-status, data-race or output-mismatch (one kind per program); a fixed program has no
markers. An optional `// explore-options: ...` line adds options to every
`snag explore` run (for example --with-race). Optional lines for what a
program needs or must show:

  // explore-stdin: TEXT        TEXT (with \n for newlines) is the program's
                                stdin, in explore and in every replay
  // explore-expect-note: WORD  a note of the explore report contains WORD
  // explore-complete           no schedule stopped at the step limit or the
                                schedule timeout (a correct spin-wait must
                                not spin until the step limit)
  // explore-output-line: W N   (output-mismatch) the finding names line N of
                                output W (stdout or a --compare-file name) as
                                the first that differs, with both versions;
                                it replaces the location check, since an
                                output has no stack
  // explore-min-rate: N        explore ran at least N schedules/s (a floor
                                far below the normal rate: it catches a
                                program that blocks until the schedule
                                timeout, not a slow machine)

The check runs, in a temporary directory,

  SNAG explore --seed 1 --schedules N --format json --replay-out DIR/replay.json PROGRAM

For a buggy program it requires exit status 66, at least one finding, the
first finding's kind equal to the marked kind, and the first finding's
location on a marked line. The location is the innermost frame of the first
side's stack whose file has SOURCE's base name; for a deadlock, whose
primary stack may be any of the blocked threads', the innermost own-source
frame of ANY side may be the marked one. It then requires the replay file
and runs `SNAG replay --format json DIR/replay.json` 20 times: each run must
exit 66 with a first finding of the same kind at the same own-source
location (for a deadlock: the same set of own-source locations of all
sides, in any order).

For a fixed program it requires exit status 0 and no findings after the
whole budget (findings labelled not reproducible, details.reproducible
false, do not count).

Exit status 0 when the program behaves as labelled, 1 otherwise (with an
explanation), 2 when the source's labels are malformed.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time

KINDS = ("assertion-failure", "deadlock", "crash", "exit-status", "data-race", "hang",
         "output-mismatch")
MAX_BUDGET = 10000
SEED = 1
REPLAYS = 20
FOUND = 66  # exit status of `snag explore` / `snag replay` when the bug showed
# CTest gives each test 600 s; keep some of it for the report.
TIME_BUDGET = 570.0
REPLAY_TIMEOUT = 60.0

BUDGET_RE = re.compile(r"//\s*explore-budget:\s*(\S+)")
MARKER_RE = re.compile(r"//\s*BUG:\s*([A-Za-z0-9_-]+)")
# Extra `snag explore` options a program needs (for example --with-race).
OPTIONS_RE = re.compile(r"//\s*explore-options:\s*(.*\S)")
STDIN_RE = re.compile(r"//\s*explore-stdin:\s*(.*\S)")
NOTE_RE = re.compile(r"//\s*explore-expect-note:\s*(.*\S)")
RATE_RE = re.compile(r"//\s*explore-min-rate:\s*(\d+)")
COMPLETE_RE = re.compile(r"//\s*explore-(complete)\b")
OUTPUT_LINE_RE = re.compile(r"//\s*explore-output-line:\s*(\S+\s+\d+)")


def optional_label(source, regex):
    with open(source, encoding="utf-8") as f:
        m = regex.search(f.read())
    return m.group(1) if m else None


def explore_options(source):
    with open(source, encoding="utf-8") as f:
        m = OPTIONS_RE.search(f.read())
    return m.group(1).split() if m else []


def explore_command(snag, budget, replay, program, options):
    return ([snag, "explore", "--seed", str(SEED), "--schedules", str(budget), "--format", "json",
             "--replay-out", replay] + options + [program])


class CheckFailed(Exception):
    pass


def bad_labels(source, message):
    print(f"{source}: {message}", file=sys.stderr)
    sys.exit(2)


def read_labels(source):
    """Returns (role, budget, kind, marked_lines) from the source's labels."""
    base = os.path.basename(source)
    stem = base.rsplit(".", 1)[0]
    if stem.endswith("_buggy"):
        role = "buggy"
    elif stem.endswith("_fixed"):
        role = "fixed"
    else:
        bad_labels(source, "the file name must end in _buggy.c(c) or _fixed.c(c)")
    try:
        with open(source, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        bad_labels(source, f"cannot read: {e}")

    budgets = []
    markers = {}
    for number, line in enumerate(lines, start=1):
        for value in BUDGET_RE.findall(line):
            budgets.append((number, value))
        found = MARKER_RE.findall(line)
        if len(found) > 1:
            bad_labels(source, f"line {number} has more than one BUG marker")
        if found:
            if found[0] not in KINDS:
                bad_labels(source, f"line {number}: unknown bug kind '{found[0]}' "
                                   f"(known: {', '.join(KINDS)})")
            markers[number] = found[0]

    if len(budgets) != 1:
        bad_labels(source, f"needs exactly one '// explore-budget: N' line, found {len(budgets)}")
    number, value = budgets[0]
    if not value.isdigit() or not 1 <= int(value) <= MAX_BUDGET:
        bad_labels(source, f"line {number}: the budget must be a number from 1 to {MAX_BUDGET}, "
                           f"not '{value}'")
    budget = int(value)

    if role == "fixed":
        if markers:
            bad_labels(source, f"a fixed program has no BUG markers, but lines "
                               f"{sorted(markers)} have some")
        return role, budget, None, set()
    if not markers:
        bad_labels(source, "a buggy program needs at least one '// BUG: KIND' marker")
    kinds = sorted(set(markers.values()))
    if len(kinds) != 1:
        bad_labels(source, f"all markers of a program must have the same kind, found {kinds}")
    return role, budget, kinds[0], set(markers)


# ---------------------------------------------------------------------------
# The report.


def own_frame(stack, source_name):
    """(line, column) of the innermost frame in the program's own source file."""
    for frame in stack or []:
        if not isinstance(frame, dict):
            continue
        if os.path.basename(str(frame.get("file", ""))) == source_name:
            return (frame.get("line"), frame.get("column"))
    return None


# A file of snag's own runtime (an interceptor, the core or an engine).
SNAG_RUNTIME_RE = re.compile(r"/runtime/(intercept|core|engines)/[^/]+\.(cpp|h)$")


def first_frame(finding):
    """The innermost frame of the first side, or None."""
    sides = finding.get("sides") or []
    stack = sides[0].get("stack") if sides and isinstance(sides[0], dict) else None
    return stack[0] if stack and isinstance(stack[0], dict) else None


def side_frames(finding, source_name):
    """The own-source frame of every side (None where a side has none)."""
    sides = finding.get("sides") or []
    return [own_frame(side.get("stack"), source_name) if isinstance(side, dict) else None
            for side in sides]


def fmt_loc(source_name, loc):
    if loc is None:
        return "<no frame in " + source_name + ">"
    line, column = loc
    return f"{source_name}:{line}" + (f":{column}" if column else "")


def output_key(finding):
    """(output, line) that an output-mismatch names as the first difference."""
    details = finding.get("details") if isinstance(finding.get("details"), dict) else {}
    return (details.get("output"), str(details.get("output_line")))


def location_key(finding, source_name):
    """What must stay the same across replays: the primary own-source frame
    or, for a deadlock, the set of own-source frames of all sides (for an
    output-mismatch, the output line it names)."""
    if finding.get("kind") == "output-mismatch":
        return output_key(finding)
    frames = side_frames(finding, source_name)
    if finding.get("kind") == "deadlock":
        return tuple(sorted((f for f in frames if f is not None), key=repr))
    return frames[0] if frames else None


def describe_key(finding, key, source_name):
    if finding.get("kind") == "output-mismatch":
        return f"naming {key[0]} line {key[1]}"
    if finding.get("kind") == "deadlock":
        return "with sides at [" + ", ".join(fmt_loc(source_name, k) for k in key) + "]"
    return "at " + fmt_loc(source_name, key)


def a_kind(kind):
    return ("an " if str(kind)[:1] in "aeiou" else "a ") + str(kind)


def describe_finding(finding, source_name):
    frames = side_frames(finding, source_name)
    where = ", ".join(fmt_loc(source_name, f) for f in frames) or "no sides"
    message = finding.get("message", "")
    return f"{finding.get('kind')} ({where}){': ' + message if message else ''}"


# ---------------------------------------------------------------------------
# Running snag.


class Runner:
    def __init__(self, workdir):
        self.workdir = workdir
        self.deadline = time.monotonic() + TIME_BUDGET
        self.env = dict(os.environ)
        # The CLI sets SNAG_OPTIONS for the program; a stray one from the
        # caller's environment must not change what is explored.
        self.env.pop("SNAG_OPTIONS", None)
        self.stdin = None  # inherited, unless the program has an explore-stdin line

    def remaining(self):
        return self.deadline - time.monotonic()

    def run(self, argv, timeout):
        """Runs argv with the program's stdin (self.stdin) and parses its JSON report."""
        command = " ".join(shlex.quote(a) for a in argv)
        timeout = min(timeout, self.remaining())
        if timeout <= 0:
            raise CheckFailed(f"out of time ({TIME_BUDGET:.0f} s) before running:\n  {command}")
        try:
            result = subprocess.run(argv, cwd=self.workdir, env=self.env, capture_output=True,
                                    text=True, errors="replace", timeout=timeout,
                                    input=self.stdin)
        except subprocess.TimeoutExpired:
            raise CheckFailed(f"the command did not finish within {timeout:.0f} s:\n  {command}")
        except OSError as e:
            raise CheckFailed(f"cannot run the command: {e}\n  {command}")
        report = None
        text = result.stdout.strip()
        if text:
            try:
                report = json.loads(text)
            except ValueError:
                start = text.find("{")
                if start >= 0:
                    try:
                        report, _ = json.JSONDecoder().raw_decode(text[start:])
                    except ValueError:
                        report = None
        return command, result, report


def tail(text, lines=25):
    text = (text or "").rstrip()
    if not text:
        return "  (empty)"
    kept = text.splitlines()[-lines:]
    return "\n".join("  | " + line for line in kept)


def fail(what, expected, got, command, result=None, extra=None):
    message = [what, f"  expected: {expected}", f"  got:      {got}", f"  command:  {command}"]
    if result is not None:
        message.append(f"  exit status: {result.returncode}")
        message.append("  stderr:")
        message.append(tail(result.stderr))
    if extra:
        message.append(extra)
    raise CheckFailed("\n".join(message))


def findings_of(report, command, result):
    if not isinstance(report, dict) or not isinstance(report.get("findings"), list):
        fail("the JSON report on stdout is missing or malformed",
             'a JSON object {"findings": [...], "run": ..., "summary": ...} on stdout',
             "stdout: " + (result.stdout.strip()[:300] or "(empty)"), command, result)
    return [f for f in report["findings"] if isinstance(f, dict)]


def check_run_labels(report, labels, source_name, command, result):
    """The explore run's note and rate, when the source asks for them."""
    run = report.get("run") if isinstance(report, dict) else None
    run = run if isinstance(run, dict) else {}
    word = labels.get("note")
    if word:
        notes = [n for n in run.get("notes") or [] if isinstance(n, str)]
        if not any(word in n for n in notes):
            fail(f"MISSING NOTE: the explore report of {source_name} has no note about '{word}'",
                 f"a note containing '{word}'", f"notes {notes}", command, result)
    if labels.get("complete"):
        explore = run.get("explore") if isinstance(run.get("explore"), dict) else {}
        incomplete = explore.get("schedules_incomplete") or {}
        stopped = sum(v for v in incomplete.values() if isinstance(v, int)) if isinstance(incomplete, dict) else 0
        if stopped:
            fail(f"INCOMPLETE: {stopped} schedule(s) of {source_name} stopped at a limit",
                 "every schedule ran to the program's end", f"schedules_incomplete {incomplete}",
                 command, result)
    rate = labels.get("rate")
    if rate:
        explore = run.get("explore") if isinstance(run.get("explore"), dict) else {}
        got = explore.get("schedules_per_second", 0)
        if not isinstance(got, (int, float)) or got < rate:
            fail(f"TOO SLOW: snag explore ran {source_name} at {got} schedules/s",
                 f"at least {rate} schedules/s", f"{got} schedules/s", command, result)


def check_fixed(snag, program, source_name, budget, options, runner, labels):
    command, result, report = runner.run(
        explore_command(snag, budget, os.path.join(runner.workdir, "replay.json"), program,
                        options),
        runner.remaining())
    if result.returncode not in (0, FOUND):
        fail(f"SNAG FAILED: snag explore could not check {source_name}",
             "exit status 0 and no findings", f"exit status {result.returncode}", command, result)
    # A failure its replay did not reproduce is labelled, not a bug (the
    # explore-expect-note line of such a program asks for the note).
    findings = [f for f in findings_of(report, command, result)
                if not (isinstance(f.get("details"), dict)
                        and f["details"].get("reproducible") is False)]
    if findings:
        fail(f"FALSE ALARM: {source_name} is correct under every schedule, but snag explore "
             f"reported {len(findings)} finding(s)",
             "exit status 0 and no findings",
             f"exit status {result.returncode}; first finding: "
             f"{describe_finding(findings[0], source_name)}",
             command, result)
    if result.returncode != 0:
        fail(f"UNEXPECTED EXIT: {source_name} is correct, but snag explore did not exit 0",
             "exit status 0 and no findings", f"exit status {result.returncode}, no findings",
             command, result)
    check_run_labels(report, labels, source_name, command, result)
    print(f"{source_name}: no finding in {budget} schedules, as expected")


def check_output_line(finding, label, source_name, want, command, result):
    """An output-mismatch names the labelled output line, with both versions."""
    if not label:
        bad_labels(source_name, "an output-mismatch program needs '// explore-output-line: W N'")
    where, line = label.split()
    details = finding.get("details") if isinstance(finding.get("details"), dict) else {}
    got = output_key(finding)
    if (str(got[0]), str(got[1])) != (where, line):
        fail(f"WRONG LOCATION: the output-mismatch in {source_name} does not name {where} line {line}",
             want, f"{got[0]} line {got[1]}: {finding.get('message')}", command, result)
    if details.get("reference_line") == details.get("schedule_line"):
        fail(f"NO DIFFERENCE SHOWN: the output-mismatch in {source_name} quotes the same line twice",
             "schedule 0's line and the failing schedule's, different", json.dumps(details),
             command, result)


def check_buggy(snag, program, source_name, budget, options, kind, marked, runner, labels):
    replay = os.path.join(runner.workdir, "replay.json")
    command, result, report = runner.run(
        explore_command(snag, budget, replay, program, options),
        runner.remaining() - 120)  # the rest is for the replays
    lines = ", ".join(str(n) for n in sorted(marked))
    want = f"exit status {FOUND} and {a_kind(kind)} at {source_name} line(s) {lines}"
    if result.returncode not in (0, FOUND):
        fail(f"SNAG FAILED: snag explore could not check {source_name}", want,
             f"exit status {result.returncode}", command, result)
    findings = findings_of(report, command, result)
    if result.returncode != FOUND or not findings:
        got = (f"exit status {result.returncode}, {len(findings)} finding(s)"
               + (f"; first: {describe_finding(findings[0], source_name)}" if findings else ""))
        what = (f"MISSED: snag explore did not find the {kind} in {source_name} "
                f"within {budget} schedules" if not findings else
                f"UNEXPECTED EXIT: snag explore reported findings for {source_name} but "
                f"did not exit {FOUND}")
        fail(what, want, got, command, result)
    check_run_labels(report, {"rate": labels.get("rate")}, source_name, command, result)
    first = findings[0]
    if first.get("kind") != kind:
        fail(f"WRONG KIND: the first finding in {source_name} is not the labelled bug", want,
             describe_finding(first, source_name), command, result)

    frames = side_frames(first, source_name)
    if kind == "output-mismatch":
        check_output_line(first, labels.get("output_line"), source_name, want, command, result)
    elif kind == "deadlock":
        hits = [f for f in frames if f is not None and f[0] in marked]
    else:
        hits = [frames[0]] if frames and frames[0] is not None and frames[0][0] in marked else []
    if kind != "output-mismatch" and not hits:
        scope = "any side's" if kind == "deadlock" else "the first side's"
        fail(f"WRONG LOCATION: {scope} innermost frame in {source_name} is not on a "
             f"marked line", want, describe_finding(first, source_name), command, result)
    top = first_frame(first)
    if kind == "crash" and top and SNAG_RUNTIME_RE.search(str(top.get("file", ""))):
        fail(f"WRONG LOCATION: the crash in {source_name} is reported inside snag's runtime "
             f"({top.get('file')}:{top.get('line')}), not at the program's call",
             want, describe_finding(first, source_name), command, result)
    key = location_key(first, source_name)
    where = describe_key(first, key, source_name)

    if not os.path.isfile(replay):
        fail(f"NO REPLAY FILE: snag explore found the bug in {source_name} but wrote no "
             f"replay file", f"a replay file at {replay}", "no such file", command, result)
    try:
        with open(replay, encoding="utf-8") as f:
            replay_text = f.read()
        replay_doc = json.loads(replay_text)
    except (OSError, ValueError) as e:
        fail(f"BAD REPLAY FILE: the replay file of {source_name} is not JSON",
             "a JSON replay file", str(e), command, result)
    bug = replay_doc.get("bug") if isinstance(replay_doc, dict) else None
    if isinstance(bug, dict) and "kind" in bug and bug["kind"] != kind:
        fail(f"BAD REPLAY FILE: the replay file of {source_name} names another bug",
             f'"bug": {{"kind": "{kind}", ...}}', json.dumps(bug), command, result)
    info = ""
    if isinstance(replay_doc, dict):
        parts = [f"{k} {replay_doc[k]}" for k in ("strategy", "schedule", "preemptions")
                 if k in replay_doc]
        info = " (" + ", ".join(parts) + ")" if parts else ""

    for attempt in range(1, REPLAYS + 1):
        rcommand, rresult, rreport = runner.run([snag, "replay", "--format", "json", replay],
                                                REPLAY_TIMEOUT)
        rfindings = findings_of(rreport, rcommand, rresult) if rresult.stdout.strip() else []
        extra = "  replay file:\n" + tail(replay_text, 40)
        if rresult.returncode != FOUND or not rfindings:
            fail(f"NOT REPLAYED: replay {attempt} of {REPLAYS} of {source_name} did not "
                 f"reproduce the bug",
                 f"exit status {FOUND} and {a_kind(kind)} {where}",
                 f"exit status {rresult.returncode}, {len(rfindings)} finding(s)"
                 + (f"; first: {describe_finding(rfindings[0], source_name)}"
                    if rfindings else ""),
                 rcommand, rresult, extra)
        rfirst = rfindings[0]
        rkey = location_key(rfirst, source_name)
        if rfirst.get("kind") != kind or rkey != key:
            fail(f"REPLAY DIFFERS: replay {attempt} of {REPLAYS} of {source_name} reported "
                 f"another bug than the explore run",
                 f"{a_kind(kind)} {where}",
                 f"{a_kind(rfirst.get('kind'))} {describe_key(rfirst, rkey, source_name)}",
                 rcommand, rresult, extra)
    print(f"{source_name}: {kind} found {where}{info}; replayed {REPLAYS} times")


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    snag, program, source = sys.argv[1:4]
    role, budget, kind, marked = read_labels(source)
    options = explore_options(source)
    stdin = optional_label(source, STDIN_RE)
    rate = optional_label(source, RATE_RE)
    labels = {"note": optional_label(source, NOTE_RE), "rate": int(rate) if rate else None,
              "complete": optional_label(source, COMPLETE_RE),
              "output_line": optional_label(source, OUTPUT_LINE_RE)}
    source_name = os.path.basename(source)
    program = os.path.abspath(program)
    if os.sep in snag:
        snag = os.path.abspath(snag)  # the runs happen in a temporary directory
    with tempfile.TemporaryDirectory(prefix="snag-explore-suite-") as workdir:
        runner = Runner(workdir)
        if stdin:
            runner.stdin = stdin.replace("\\n", "\n")
        try:
            if role == "fixed":
                check_fixed(snag, program, source_name, budget, options, runner, labels)
            else:
                check_buggy(snag, program, source_name, budget, options, kind, marked, runner,
                            labels)
        except CheckFailed as e:
            print(str(e))
            sys.exit(1)


if __name__ == "__main__":
    main()
