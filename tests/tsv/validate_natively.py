#!/usr/bin/env python3
"""Native sanity check of the snag tsv suite (plain clang and ThreadSanitizer).

usage: validate_natively.py [-j N] [--runs N] [--buggy-runs N] [--tsan-runs N]
                            [--markdown] [-v] [name-substring ...]

For every tests/tsv/suite/*_buggy.c(c) / *_fixed.c(c) program it

* checks the labels with check_tsv_program.read_labels (what CTest uses: the
  header, `// object:` in buggy programs only, exactly one TSV:first and one
  TSV:second line in a buggy program, possibly the same line, none in a
  fixed one), that the header lines come in the documented order, that
  every program has its twin, and that a `-fsnag-api-table=FILE` in
  `// build-flags:` names an existing file;
* builds the program with clang++-14 -std=c++20 (clang-14 -std=c11) -O1 -g
  -pthread -Wall -Wextra -I <repo>/include, plainly and with
  -fsanitize=thread, and requires both compilations to be silent;
* runs the plain build --runs times (default 50; buggy programs
  --buggy-runs times, default 200):
  every run must exit 0 within 1 s and print at most 200 bytes;
* runs the ThreadSanitizer build --tsan-runs times and reports, for
  information, what TSan says: the races it reports, each as the pair of
  source lines (first frame in the program's own file) and the header the
  innermost frame is in. TSan sees only races on memory the compiler
  instrumented or its libc interceptors model (library headers, the struct
  tm of localtime/gmtime; not most libc static state), so for a buggy
  program any answer is fine. --markdown also prints the table of
  suite/README.md. A fixed program must not make TSan report
  anything: the fixed twins are data-race free.

Everything is built in a temporary directory; nothing else is written.
Exit status 0 when every program passes, 1 otherwise.
"""
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # write nothing next to the scripts
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_tsv_program import LabelError, read_labels  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.join(HERE, "suite")
REPO = os.path.dirname(os.path.dirname(HERE))
INCLUDE = os.path.join(REPO, "include")
CXX = ["clang++-14", "-std=c++20", "-O1", "-g", "-pthread", "-Wall", "-Wextra", "-I", INCLUDE]
CC = ["clang-14", "-std=c11", "-O1", "-g", "-pthread", "-Wall", "-Wextra", "-I", INCLUDE]
NAME_RE = re.compile(r"^(?P<topic>.+)_(?P<role>buggy|fixed)\.(?P<ext>c|cc)$")
MAX_SECONDS = 1.0
MAX_OUTPUT = 200


def parse_labels(path):
    """Returns (expect, first_lines, second_lines, errors). The labels are
    read by check_tsv_program.read_labels (what CTest uses); on top of it the
    header lines must come in the documented order."""
    errs = []
    try:
        labels = read_labels(path)
    except LabelError as e:
        return None, [], [], [f"SUITE-ERROR: {e}"]
    lines = open(path, encoding="utf-8").read().split("\n")
    order = [r"// snag-tsv-suite$", r"// expect: (violation|clean)$"]
    if labels["expect"] == "violation":
        order.append(r"// object: \S")
    order.append(r"// why: \S")
    for number, pattern in enumerate(order):
        if number >= len(lines) or not re.match(pattern, lines[number]):
            errs.append(f"line {number + 1} should match '{pattern}'")
    for flag in labels["build_flags"]:
        if flag.startswith("-fsnag-api-table="):
            table = os.path.join(SUITE, flag.split("=", 1)[1])
            if not os.path.isfile(table):
                errs.append(f"build-flags names a missing file: {table}")
    first = [i + 1 for i, l in enumerate(lines) if "TSV:first" in l]
    second = [i + 1 for i, l in enumerate(lines) if "TSV:second" in l]
    return labels["expect"], first, second, errs


ACCESS_RE = re.compile(r"(Previous )?(atomic )?(Write|Read|write|read)|Atomic|Previous atomic")
FRAME_RE = re.compile(r"#\d+ .*? (/\S+?):(\d+)(?::\d+)? \(")


def tsan_reports(stderr, own):
    """[(kind, (own lines...), innermost header)] for each TSan warning."""
    reports = []
    for block in stderr.split("WARNING: ThreadSanitizer:")[1:]:
        kind = re.sub(r" \(pid=\d+\)", "", block.split("\n", 1)[0].strip())
        lines, where = [], set()
        for stack in re.split(r"\n  (?=\S)", block)[1:]:
            head = stack.split("\n", 1)[0]
            if not ACCESS_RE.match(head):
                continue
            frames = FRAME_RE.findall(stack)
            if frames and os.path.basename(frames[0][0]) != own:
                where.add(os.path.basename(frames[0][0]))
            for file, line in frames:
                if os.path.basename(file) == own:
                    lines.append(int(line))
                    break
            else:
                lines.append(None)
        reports.append((kind, tuple(sorted(lines, key=lambda x: (x is None, x))),
                        ",".join(sorted(where))))
    return reports


def run(argv, timeout, env=None):
    start = time.monotonic()
    try:
        p = subprocess.run(argv, capture_output=True, text=True, errors="replace",
                           timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return None, timeout
    return p, time.monotonic() - start


def check(path, opts, bdir):
    name = os.path.basename(path)
    expect, first, second, errs = parse_labels(path)
    res = {"name": name, "expect": expect, "errs": errs, "tsan": [], "worst": 0.0}
    comp = CC if name.endswith(".c") else CXX
    exe = os.path.join(bdir, name + ".bin")
    texe = os.path.join(bdir, name + ".tsan")
    for out, extra in ((exe, []), (texe, ["-fsanitize=thread"])):
        p, _ = run(comp + extra + [path, "-o", out], 120)
        if p is None or p.returncode != 0 or p.stderr.strip():
            errs.append("compile%s: %s" % (" (tsan)" if extra else "",
                                           (p.stderr.strip()[:2000] if p else "timed out")))
            return res
    runs = opts["buggy_runs"] if expect == "violation" else opts["runs"]
    for _ in range(runs):
        p, seconds = run([exe], 10)
        res["worst"] = max(res["worst"], seconds)
        if p is None:
            errs.append("plain run timed out (10 s)")
            break
        if p.returncode != 0:
            errs.append("plain run exit %d: %s" % (p.returncode, (p.stdout + p.stderr)[:300]))
            break
        if len(p.stdout) + len(p.stderr) > MAX_OUTPUT:
            errs.append("prints too much (%d bytes)" % (len(p.stdout) + len(p.stderr)))
            break
    if res["worst"] > MAX_SECONDS:
        errs.append("too slow: %.2f s" % res["worst"])
    env = dict(os.environ, TSAN_OPTIONS="halt_on_error=0 exitcode=0 history_size=7")
    for _ in range(opts["tsan_runs"]):
        p, _ = run([texe], 60, env)
        if p is None:
            errs.append("tsan run timed out")
            break
        if p.returncode != 0 or "DEADLYSIGNAL" in p.stderr or "CHECK failed" in p.stderr:
            errs.append("tsan run failed (exit %d): %s" % (p.returncode, p.stderr[-300:]))
            break
        res["tsan"].append(tsan_reports(p.stderr, name))
        if opts["verbose"]:
            res.setdefault("tsan_out", []).append(p.stderr)
    if expect == "clean" and any(res["tsan"]):
        errs.append("ThreadSanitizer reports a race in a fixed program: %s"
                    % sorted({r for rs in res["tsan"] for r in rs}))
    res["marked"] = tuple(sorted(first + second))
    return res


def tsan_summary(res):
    """One phrase: what TSan said over all runs."""
    runs = res["tsan"]
    if not runs:
        return "-"
    hit = sum(1 for r in runs if r)
    if hit == 0:
        return "no report"
    merged = {}
    for rs in runs:
        for kind, lines, where in rs:
            merged.setdefault((kind, lines), set()).update(w for w in where.split(",") if w)
    parts = []
    for (kind, lines), where in sorted(merged.items(), key=lambda kv: repr(kv[0])):
        shown = "/".join("?" if x is None else str(x) for x in lines)
        tag = " = marked" if res["expect"] == "violation" and lines == res["marked"] else ""
        parts.append(f"{kind} at lines {shown}{tag}"
                     + (f" (in {', '.join(sorted(where))})" if where else ""))
    prefix = "" if hit == len(runs) else f"{hit}/{len(runs)} runs: "
    return prefix + "; ".join(parts)


def markdown_table(results):
    """The README's table: what TSan says about each buggy program."""
    print("| buggy program | ThreadSanitizer (clang 14) says |")
    print("|---|---|")
    for r in results:
        if r["expect"] == "violation":
            print(f"| `{r['name']}` | {tsan_summary(r)} |")
    fixed = [r for r in results if r["expect"] == "clean"]
    silent = [r for r in fixed if r["tsan"] and not any(r["tsan"])]
    print(f"\nFixed programs: TSan is silent on {len(silent)} of {len(fixed)}.")


def main():
    args = sys.argv[1:]
    opts = {"jobs": os.cpu_count() or 2, "runs": 50, "buggy_runs": 200, "tsan_runs": 3,
            "markdown": False, "verbose": False}
    filters = []
    while args:
        a = args.pop(0)
        if a == "-j":
            opts["jobs"] = int(args.pop(0))
        elif a == "--runs":
            opts["runs"] = int(args.pop(0))
        elif a == "--buggy-runs":
            opts["buggy_runs"] = int(args.pop(0))
        elif a == "--tsan-runs":
            opts["tsan_runs"] = int(args.pop(0))
        elif a == "--markdown":
            opts["markdown"] = True
        elif a == "-v":
            opts["verbose"] = True
        elif a.startswith("-"):
            sys.exit(__doc__.strip().split("\n\n")[1])
        else:
            filters.append(a)
    files = sorted(f for f in os.listdir(SUITE)
                   if NAME_RE.match(f) and (not filters or any(x in f for x in filters)))
    bad = 0
    if not filters:
        roles = {}
        for f in files:
            m = NAME_RE.match(f)
            roles.setdefault(m.group("topic"), []).append(m.group("role"))
        for topic, r in sorted(roles.items()):
            if sorted(r) != ["buggy", "fixed"]:
                print(f"UNPAIRED: {topic} has {sorted(r)}")
                bad += 1
    with tempfile.TemporaryDirectory(prefix="snag-tsv-native-") as bdir:
        with concurrent.futures.ThreadPoolExecutor(opts["jobs"]) as ex:
            results = list(ex.map(lambda f: check(os.path.join(SUITE, f), opts, bdir), files))
    for r in results:
        status = "ok" if not r["errs"] else "FAIL"
        bad += bool(r["errs"])
        print("%-44s %-4s %5.2fs  tsan: %s" % (r["name"], status, r["worst"], tsan_summary(r)))
        for e in r["errs"]:
            print("    " + e)
        if opts["verbose"]:
            for out in r.get("tsan_out", [])[:1]:
                print(out)
    print("%d programs, %d with problems" % (len(results), bad))
    if opts["markdown"]:
        print()
        markdown_table(results)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
