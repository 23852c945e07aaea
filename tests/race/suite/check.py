#!/usr/bin/env python3
"""Sanity checker for the snag race suite (plain clang + ThreadSanitizer).

Usage: ./check.py [-j N] [--runs N] [name-substring ...]
Builds every *_racy.* / *_fixed.* program in this directory twice (plain and
-fsanitize=thread) into a temporary directory, runs them, checks the header
and RACE markers, and compares TSan's reported source lines with the markers.
Touches nothing outside the temporary build directory.
"""
import concurrent.futures, os, re, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
CXX = ["clang++-14", "-std=c++20", "-O1", "-g", "-pthread", "-Wall", "-Wextra"]
CC = ["clang-14", "-std=c11", "-O1", "-g", "-pthread", "-Wall", "-Wextra"]

def parse_header(path):
    lines = open(path).read().split("\n")
    errs = []
    if lines[0].strip() != "// snag-race-suite":
        errs.append("first line is not '// snag-race-suite'")
    m = re.match(r"// expect: (racy|clean|potential)\s*$", lines[1])
    if not m:
        errs.append("second line is not '// expect: racy|clean|potential'")
    if not re.match(r"// why: \S", lines[2]):
        errs.append("third line is not '// why: ...'")
    first = [i + 1 for i, l in enumerate(lines) if "RACE:first" in l]
    second = [i + 1 for i, l in enumerate(lines) if "RACE:second" in l]
    expect = m.group(1) if m else None
    return expect, first, second, errs

def tsan_pairs(out, fname):
    pairs = []
    for block in out.split("WARNING: ThreadSanitizer:")[1:]:
        kind = re.sub(r" \(pid=\d+\)", "", block.split("\n", 1)[0].strip())
        lines = []
        for stack in re.split(r"\n  (?=\S)", block)[1:]:
            head = stack.split("\n", 1)[0]
            if not re.match(r"(Previous )?(atomic )?(Write|Read|write|read)|Atomic|Previous atomic", head):
                continue
            for fr in re.findall(r"#\d+ .*? (/\S+?):(\d+)(?::\d+)? \(", stack):
                if os.path.basename(fr[0]) == fname:
                    lines.append(int(fr[1]))
                    break
            else:
                lines.append(None)
        pairs.append((kind, tuple(sorted(lines, key=lambda x: (x is None, x)))))
    return pairs

def check(path, runs, bdir):
    name = os.path.basename(path)
    expect, first, second, errs = parse_header(path)
    racy_name = "_racy." in name
    if racy_name and expect not in ("racy", "potential"): errs.append("racy file not marked racy")
    if not racy_name and expect != "clean": errs.append("fixed file not marked clean")
    if expect in ("racy", "potential") and (len(first) != 1 or len(second) != 1):
        errs.append("need exactly one RACE:first and one RACE:second line (%s, %s)" % (first, second))
    if expect == "clean" and (first or second):
        errs.append("clean file has RACE markers")
    comp = CC if name.endswith(".c") else CXX
    res = {"name": name, "errs": errs}
    exe = os.path.join(bdir, name + ".bin")
    texe = os.path.join(bdir, name + ".tsan")
    for out, extra in ((exe, []), (texe, ["-fsanitize=thread"])):
        p = subprocess.run(comp + extra + [path, "-o", out], capture_output=True, text=True)
        if p.returncode != 0 or p.stderr.strip():
            errs.append("compile%s: %s" % (" tsan" if extra else "", p.stderr.strip()[:2000]))
            return res
    worst = 0.0
    for _ in range(runs):
        t = time.time()
        try:
            p = subprocess.run([exe], capture_output=True, text=True, timeout=10)
        except subprocess.TimeoutExpired:
            errs.append("plain run timed out"); return res
        worst = max(worst, time.time() - t)
        if p.returncode != 0:
            errs.append("plain run exit %d: %s" % (p.returncode, (p.stdout + p.stderr)[:500]))
        if len(p.stdout) + len(p.stderr) > 200:
            errs.append("prints too much")
    res["time"] = worst
    if worst > 1.0: errs.append("too slow: %.2fs" % worst)
    env = dict(os.environ, TSAN_OPTIONS="halt_on_error=0 exitcode=0 history_size=7")
    summaries = []
    for _ in range(runs):
        try:
            p = subprocess.run([texe], capture_output=True, text=True, timeout=30, env=env)
        except subprocess.TimeoutExpired:
            errs.append("tsan run timed out"); return res
        if p.returncode != 0:
            errs.append("tsan run exit %d" % p.returncode)
        if "DEADLYSIGNAL" in p.stderr or "nested bug" in p.stderr or "CHECK failed" in p.stderr:
            summaries.append("CRASH")
            res["tsan_out"] = p.stderr
            continue
        summaries.append(tsan_pairs(p.stderr, name))
        res["tsan_out"] = p.stderr
    res["tsan"] = summaries
    want = tuple(sorted(first + second)) if expect == "racy" else None
    verdicts = []
    for s in summaries:
        if s == "CRASH":
            verdicts.append("TSAN-CRASH")
        elif expect == "clean":
            verdicts.append("ok" if not s else "FALSE-ALARM")
        elif expect == "potential":
            # The racy interleaving never happens: a happens-before detector
            # stays silent (snag reports it only with --potential).
            verdicts.append("ok (silent)" if not s else "FOUND")
        else:
            if not s: verdicts.append("MISSED")
            elif all(k == "data race" and l == want for k, l in s): verdicts.append("ok")
            elif any(l == want for k, l in s): verdicts.append("ok+extra")
            else: verdicts.append("WRONG-LINES")
    res["verdicts"] = verdicts
    return res

def main():
    args = sys.argv[1:]
    jobs, runs, filt, verbose = os.cpu_count() or 2, 3, [], False
    while args:
        a = args.pop(0)
        if a == "-j": jobs = int(args.pop(0))
        elif a == "--runs": runs = int(args.pop(0))
        elif a == "-v": verbose = True
        else: filt.append(a)
    files = sorted(f for f in os.listdir(HERE)
                   if re.search(r"_(racy|fixed)\.(c|cc)$", f) and (not filt or any(x in f for x in filt)))
    # pairing check
    stems = {}
    for f in files:
        m = re.match(r"(.*)_(racy|fixed)\.(c|cc)$", f)
        stems.setdefault(m.group(1), set()).add(m.group(2))
    bad = 0
    if not filt:
        for s, k in sorted(stems.items()):
            if k != {"racy", "fixed"}:
                print("UNPAIRED:", s, k); bad += 1
    with tempfile.TemporaryDirectory() as bdir:
        with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
            results = list(ex.map(lambda f: check(os.path.join(HERE, f), runs, bdir), files))
    for r in results:
        v = r.get("verdicts", [])
        status = "ERR" if r["errs"] else ",".join(sorted(set(v)))
        if r["errs"] or any(x != "ok" for x in v): bad += 1
        print("%-34s %-22s %s" % (r["name"], status, "; ".join(r["errs"])))
        if (verbose or (v and any(x != "ok" for x in v))) and r.get("tsan"):
            print("    tsan pairs:", r["tsan"][0])
            if verbose: print(r.get("tsan_out", ""))
    print("%d files, %d with problems/notes" % (len(results), bad))

if __name__ == "__main__":
    main()
