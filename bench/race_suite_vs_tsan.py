#!/usr/bin/env python3
"""Compares `snag race` with clang's ThreadSanitizer on the labelled race suite.

usage: bench/race_suite_vs_tsan.py [BUILD_DIR] [--runs N] [--jobs J]

Every program in tests/race/suite/ (`*_racy.c[c]`, `*_fixed.c[c]`) is built
twice into a temporary directory, with BUILD_DIR/bin/snag-c++ (snag-cc for C)
and with clang++-14 (clang-14) -fsanitize=thread, then run N times under each
tool (one program at a time, snag and TSan interleaved, so machine load hits
both alike). A racy program counts, per run, as a true positive when the tool
reports the marked pair of lines (and nothing else), a false negative when it
reports nothing, and a false positive plus a false negative when it reports
some other pair. Any report in a clean program is a false positive.

Prints the programs where the tools differ or either is wrong, a TP/FP/FN
summary with precision and recall (counted per run) and, per tool, the programs
it got wrong. Writes nothing outside its temporary directory. Exit status is 0
unless the build directory or a compiler is missing (then 2).
"""
import argparse
import collections
import concurrent.futures
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITE = os.path.join(REPO, "tests", "race", "suite")
sys.path.insert(0, os.path.join(REPO, "tests", "race"))
from check_suite_program import describe, expectations  # noqa: E402

TOOLS = ("snag", "tsan")
RUN_TIMEOUT = 60          # seconds per program run
COMPILE_TIMEOUT = 300
TSAN_OPTIONS = "halt_on_error=0 exitcode=66"

ACCESS_RE = re.compile(r"^  (?:Previous )?(?:[Aa]tomic )?(?:[Rr]ead|[Ww]rite) of size")
FRAME_RE = re.compile(r"^\s+#\d+\s+(.*)$")
SEPARATOR = "=================="


class Report:
    """One report of one run: a pair of source lines (a race) or, for a TSan
    report that is not a data race, its kind and the source lines of its frames."""

    def __init__(self, pair=None, kind=None, lines=()):
        self.pair, self.kind, self.lines = pair, kind, set(lines)

    def matches(self, want):
        if self.kind is None:   # a race with a pair of lines
            return len(self.pair) >= 2 and None not in self.pair[:2] and set(self.pair[:2]) == want
        return want <= self.lines

    def __str__(self):
        if self.kind is None:
            sides = ["?" if x is None else "L%d" % x for x in self.pair[:2]]
            return "/".join(sides + ["(no 2nd side)"] * (2 - len(sides)))
        return self.kind


class Program:
    def __init__(self, source):
        self.source = source
        self.name = os.path.basename(source)
        self.is_c = source.endswith(".c")
        self.verdict, marked = expectations(source)
        self.want = {marked["first"], marked["second"]} if self.verdict == "racy" else set()
        self.binary = {}       # tool -> path
        self.build_error = {}  # tool -> message
        self.runs = {t: [] for t in TOOLS}  # tool -> [(reports, note)]


# ---------------------------------------------------------------- building

def compile_cmd(tool, prog, build_dir, out):
    if tool == "snag":
        driver = os.path.join(build_dir, "bin", "snag-cc" if prog.is_c else "snag-c++")
        flags = ["-std=c11" if prog.is_c else "-std=c++20", "-O1", "-g", "-pthread"]
    else:
        driver = "clang-14" if prog.is_c else "clang++-14"
        flags = ["-std=c11" if prog.is_c else "-std=c++20", "-O1", "-g", "-pthread",
                 "-fsanitize=thread"]
    return [driver] + flags + [prog.source, "-o", out]


def build(tool, prog, build_dir, tmp):
    out = os.path.join(tmp, "%s.%s" % (prog.name.replace(".", "_"), tool))
    try:
        p = subprocess.run(compile_cmd(tool, prog, build_dir, out), capture_output=True,
                           text=True, timeout=COMPILE_TIMEOUT, cwd=tmp)
        if p.returncode != 0 or not os.path.exists(out):
            msg = (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]
            return tool, prog, None, "build failed: " + msg[:200]
    except (OSError, subprocess.TimeoutExpired) as e:
        return tool, prog, None, "build failed: %s" % e
    return tool, prog, out, None


# ---------------------------------------------------------------- running

def run_snag(prog, build_dir, tmp):
    cmd = [os.path.join(build_dir, "bin", "snag"), "race", "--format", "json",
           "--timeout", str(RUN_TIMEOUT), prog.binary["snag"]]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT + 30, cwd=tmp)
    except subprocess.TimeoutExpired:
        return [], "timeout"
    note = None if p.returncode in (0, 66) else "exit %d" % p.returncode
    try:
        findings = json.loads(p.stdout).get("findings", [])
    except (ValueError, AttributeError):
        return [], note or "bad json"
    return [Report(pair=tuple(describe(f, prog.name))) for f in findings], note


def parse_frame(line):
    """(file, line) of a TSan stack frame line, or None if it is not one."""
    m = FRAME_RE.match(line)
    if not m:
        return None
    body = re.sub(r"\s+\(BuildId: [^)]*\)\s*$", "", m.group(1))
    body = re.sub(r"\s+\([^()\s]*\+0x[0-9a-fA-F]+\)\s*$", "", body)
    token = body.rsplit(None, 1)[-1] if body.split() else ""
    fm = re.match(r"^(.*?):(\d+)(?::\d+)?$", token)
    return (fm.group(1), int(fm.group(2))) if fm else (token, None)


def parse_tsan(stderr, source_name):
    reports = []
    lines = stderr.splitlines()
    i = 0
    while i < len(lines):
        pos = lines[i].find("WARNING: ThreadSanitizer:")
        if pos < 0:
            i += 1
            continue
        kind = lines[i][pos + len("WARNING: ThreadSanitizer:"):].strip()
        kind = re.sub(r"\s*\(pid=\d+\)\s*$", "", kind)
        block = []
        i += 1
        while i < len(lines) and not lines[i].startswith(SEPARATOR):
            block.append(lines[i])
            i += 1
        if kind.startswith("data race"):
            sides = []
            j = 0
            while j < len(block) and len(sides) < 2:
                if ACCESS_RE.match(block[j]):
                    found = None
                    j += 1
                    while j < len(block) and FRAME_RE.match(block[j]):
                        frame = parse_frame(block[j])
                        if found is None and os.path.basename(frame[0]) == source_name:
                            found = frame[1]
                        j += 1
                    sides.append(found)
                else:
                    j += 1
            while len(sides) < 2:
                sides.append(None)
            reports.append(Report(pair=tuple(sides)))
        else:
            frame_lines = set()
            for b in block:
                frame = parse_frame(b)
                if frame and os.path.basename(frame[0]) == source_name and frame[1] is not None:
                    frame_lines.add(frame[1])
            reports.append(Report(kind=kind or "unknown report", lines=frame_lines))
    return reports


def run_tsan(prog, tmp):
    env = dict(os.environ, TSAN_OPTIONS=TSAN_OPTIONS)
    try:
        p = subprocess.run([prog.binary["tsan"]], capture_output=True, text=True,
                           timeout=RUN_TIMEOUT, env=env, cwd=tmp, errors="replace")
    except subprocess.TimeoutExpired:
        return [], "timeout"
    reports = parse_tsan(p.stderr, prog.name)
    note = None
    if p.returncode not in (0, 66) or (p.returncode == 66 and not reports):
        note = "crash" if p.returncode < 0 or "DEADLYSIGNAL" in p.stderr or "ERROR:" in p.stderr \
            else "exit %d" % p.returncode
    return reports, note


# ---------------------------------------------------------------- scoring

def score(prog, reports):
    """'TP', 'FN', 'WRONG' (FP+FN) for racy programs; 'OK' or 'FP' for clean ones."""
    if prog.verdict == "clean":
        return "FP" if reports else "OK"
    if not reports:
        return "FN"
    return "TP" if all(r.matches(prog.want) for r in reports) else "WRONG"


def tool_summary(prog, tool):
    """(correct-count string, notes list, wrong?)"""
    runs = prog.runs[tool]
    n = len(runs)
    outcomes = [score(prog, reps) for reps, _ in runs]
    notes = collections.Counter()
    for (reps, note), outcome in zip(runs, outcomes):
        if outcome == "FN":
            notes["missed" + (" (%s)" % note if note else "")] += 1
        elif outcome in ("WRONG", "FP"):
            bad = sorted({str(r) for r in reps if prog.verdict == "clean" or not r.matches(prog.want)})
            notes["reported " + ", ".join(bad)] += 1
        elif note:
            notes[note] += 1
    if tool in prog.build_error:
        notes = collections.Counter({prog.build_error[tool]: n})
    text = ["%s x%d" % (k, v) if n > 1 else k for k, v in sorted(notes.items())]
    if prog.verdict == "racy":
        good = outcomes.count("TP")
        return "%d/%d" % (good, n), text, good < n, outcomes
    fp = outcomes.count("FP")
    return "FP %d/%d" % (fp, n), text, fp > 0, outcomes


# ---------------------------------------------------------------- main

def main():
    ap = argparse.ArgumentParser(description="snag race vs ThreadSanitizer on tests/race/suite")
    ap.add_argument("build_dir", nargs="?", default=os.path.join(REPO, "build"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    if args.runs < 1 or args.jobs < 1:
        ap.error("--runs and --jobs must be at least 1")
    build_dir = os.path.abspath(args.build_dir)

    for tool in ("snag", "snag-c++", "snag-cc"):
        path = os.path.join(build_dir, "bin", tool)
        if not (os.path.isfile(path) and os.access(path, os.X_OK)):
            print("error: %s not found (is %s a built snag build directory?)" % (path, build_dir),
                  file=sys.stderr)
            return 2
    for compiler in ("clang-14", "clang++-14"):
        if not shutil.which(compiler):
            print("error: %s not found on PATH" % compiler, file=sys.stderr)
            return 2

    sources = sorted(set(glob.glob(os.path.join(SUITE, "*_racy.c")) + glob.glob(os.path.join(SUITE, "*_racy.cc"))
                         + glob.glob(os.path.join(SUITE, "*_fixed.c")) + glob.glob(os.path.join(SUITE, "*_fixed.cc"))))
    programs = []
    for src in sources:
        try:
            programs.append(Program(src))
        except SystemExit as e:
            print("warning: skipping %s: %s" % (os.path.basename(src), e), file=sys.stderr)
    if not programs:
        print("warning: no suite programs found in %s" % SUITE, file=sys.stderr)
        return 0

    start = time.time()
    with tempfile.TemporaryDirectory(prefix="snag-suite-vs-tsan-") as tmp:
        print("building %d programs x 2 tools with %d jobs ..." % (len(programs), args.jobs),
              file=sys.stderr, flush=True)
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(build, tool, prog, build_dir, tmp) for prog in programs for tool in TOOLS]
            for fut in concurrent.futures.as_completed(futures):
                tool, prog, out, err = fut.result()
                if out:
                    prog.binary[tool] = out
                else:
                    prog.build_error[tool] = err
                    print("warning: %s: %s: %s" % (prog.name, tool, err), file=sys.stderr)

        for r in range(args.runs):
            print("run %d/%d ... (%.0f s)" % (r + 1, args.runs, time.time() - start), file=sys.stderr,
                  flush=True)
            for prog in programs:
                for tool in TOOLS:
                    if tool in prog.build_error:
                        prog.runs[tool].append(([], None))
                    elif tool == "snag":
                        prog.runs[tool].append(run_snag(prog, build_dir, tmp))
                    else:
                        prog.runs[tool].append(run_tsan(prog, tmp))
        print("done (%.0f s)" % (time.time() - start), file=sys.stderr, flush=True)

    # ---- per-program table
    n = args.runs
    rows, wrong = [], {t: [] for t in TOOLS}
    totals = {t: collections.Counter() for t in TOOLS}
    for prog in programs:
        summ = {t: tool_summary(prog, t) for t in TOOLS}
        for t in TOOLS:
            for o in summ[t][3]:
                if o == "TP":
                    totals[t]["TP"] += 1
                elif o == "FN":
                    totals[t]["FN"] += 1
                elif o == "FP":
                    totals[t]["FP"] += 1
                elif o == "WRONG":
                    totals[t]["FP"] += 1
                    totals[t]["FN"] += 1
            if summ[t][2]:
                wrong[t].append("%s (%s)" % (prog.name, "; ".join(summ[t][1]) or summ[t][0]))
        differ = summ["snag"][0] != summ["tsan"][0]
        if differ or summ["snag"][2] or summ["tsan"][2]:
            notes = "; ".join("%s: %s" % (t, ", ".join(summ[t][1])) for t in TOOLS if summ[t][1])
            rows.append((prog.name, prog.verdict, summ["snag"][0], summ["tsan"][0], notes))

    width = max([len("program")] + [len(r[0]) for r in rows])
    print("Programs where snag and tsan differ or either is wrong (%d run%s each; racy: detected/N, "
          "clean: FP/N):" % (n, "" if n == 1 else "s"))
    if rows:
        print("%-*s  %-6s  %-8s  %-8s  %s" % (width, "program", "expect", "snag", "tsan", "notes"))
        for row in rows:
            print("%-*s  %-6s  %-8s  %-8s  %s" % (width, *row))
    else:
        print("  (none)")

    racy = sum(1 for p in programs if p.verdict == "racy")
    clean = len(programs) - racy
    print()
    print("tool   TP    FP    FN    precision  recall   (over %d racy + %d clean programs, %d run%s each)"
          % (racy, clean, n, "" if n == 1 else "s"))
    for t in TOOLS:
        tp, fp, fn = totals[t]["TP"], totals[t]["FP"], totals[t]["FN"]
        prec = "%.3f" % (tp / (tp + fp)) if tp + fp else "n/a"
        rec = "%.3f" % (tp / (tp + fn)) if tp + fn else "n/a"
        print("%-6s %-5d %-5d %-5d %-10s %-8s" % (t, tp, fp, fn, prec, rec))
    for t in TOOLS:
        print()
        print("%s got wrong (%d program%s)%s" % (t, len(wrong[t]), "" if len(wrong[t]) == 1 else "s",
                                                 ":" if wrong[t] else ": none"))
        for w in wrong[t]:
            print("  " + w)
    return 0


if __name__ == "__main__":
    sys.exit(main())
