#!/usr/bin/env python3
"""Measures `snag race` against ThreadSanitizer on compiler-rt's own tsan lit tests.

Each applicable test is built twice (snag-c++/snag-cc, and clang -fsanitize=thread),
run once under each tool with a timeout, and judged by the test's own expectation:
a `CHECK: ... WARNING: ThreadSanitizer: data race` line means a race is expected,
a `CHECK-NOT: ... data race` line (and no positive CHECK) means the run must be clean.
Tests whose expectation is neither are skipped; tests that only make sense for
TSan (Darwin, TSAN_OPTIONS/env knobs, TSan internals, several RUN variants) are
excluded and listed with the reason, so the figures say what they cover.

Not part of `make test`: it needs a compiler-rt checkout (large) and minutes.

usage: tsan_lit.py TSAN_TEST_DIR SNAG_BIN_DIR [--clang clang-14] [--timeout 20]
       [--only SUBSTRING] [--jobs 2]
TSAN_TEST_DIR is compiler-rt/test/tsan; its ../sanitizer_common must exist too.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile

RACE_TEXT = "ThreadSanitizer: data race"
# A finding snag reports in ThreadSanitizer-style text.
SNAG_RACE = re.compile(r"WARNING: (snag|ThreadSanitizer): data race")


def exclusion(path, text, runs):
    """Why a test does not apply to a tool-neutral comparison, or None."""
    if "/Darwin/" in path or "REQUIRES: darwin" in text or "UNSUPPORTED: linux" in text:
        return "Darwin-only"
    if not runs:
        return "no RUN line"
    joined = " ".join(runs)
    if "TSAN_OPTIONS" in joined or "%env_tsan_opts" in joined or "env " in joined:
        return "needs TSan-only runtime options"
    if len([r for r in runs if "%run" in r]) > 1:
        return "several RUN variants (TSan flags/defines)"
    if re.search(r"__tsan_(get_|func_|read|write|java|mutex_|on_|set_|flush|external|"
                 r"create_fiber|switch_to_fiber|acquire|release|ignore)", text):
        return "tests TSan internals (__tsan_* instrumentation API)"
    if "%ld_flags_rpath" in joined or "%dynamiclib" in joined or "-shared" in joined:
        return "builds shared libraries with TSan-specific lit substitutions"
    if "/libdispatch/" in path:
        # Their lit.local.cfg marks them unsupported unless libdispatch is
        # installed; Debian has no libdispatch package, so <dispatch/dispatch.h>
        # is missing for clang -fsanitize=thread and for snag alike.
        return "needs libdispatch (lit: unsupported without it; not packaged for Debian)"
    if any(re.search(r"\s-c\s", r) for r in runs):
        return "builds an object in a separate RUN step with other flags, not reproduced here"
    if "REQUIRES:" in text and "stable-runtime" not in text:
        return "lit REQUIRES a TSan/platform feature"
    return None


# Tests whose own comments say their CHECK line is wrong; they are judged by
# what the comment says the program does.
CORRECTED_EXPECTATIONS = {
    # "The data race CHECK-NOT below actually must be CHECK, because the
    # program does contain the data race on global." (the acquire load reads
    # the acquiring thread's own relaxed store, which synchronizes with nothing)
    "stack_sync_reuse.cpp": "race",
    # "This is a false positive, tsan must not bark at the data race. But
    # currently it does." (the main thread's trylock returns EOWNERDEAD: it
    # holds the robust mutex the dead writer held, so both writes are under it)
    "Linux/mutex_robust2.cpp": "clean",
}


def expectation(text):
    pos = [l for l in text.splitlines() if re.search(r"CHECK(-[A-Z0-9]+)?:", l)
           and "CHECK-NOT" not in l and RACE_TEXT in l]
    neg = [l for l in text.splitlines() if "CHECK-NOT" in l
           and ("data race" in l or "ThreadSanitizer" in l)]
    if pos:
        return "race"
    if neg:
        return "clean"
    return None


def compile_flags(run, stem):
    """-O level, -D defines, -std and an ignore list from the RUN line; the rest
    is lit/TSan plumbing. %t in an ignore-list name is the test's output stem."""
    flags = [f for f in run.split() if re.fullmatch(
        r"-O[0-3s]|-D\S+|-std=\S+|-fno-\S+|-x|c\+\+|-fsanitize-(black|ignore)list=\S+", f)]
    return [f.replace("%t", stem) for f in flags]


def write_run_files(runs, stem):
    """RUN steps that only write a file the build reads (`echo "fun:..." > %t.blacklist`)."""
    for r in runs:
        m = re.fullmatch(r"\s*echo\s+(\"[^\"]*\"|'[^']*'|\S+)\s*(>>?)\s*%t(\.\w+)\s*", r)
        if m:
            with open(stem + m.group(3), "a" if m.group(2) == ">>" else "w") as f:
                f.write(m.group(1).strip("\"'") + "\n")


def build(cmd, timeout):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout * 6)
    except subprocess.TimeoutExpired:
        return False, "compiler timeout"
    return r.returncode == 0, (r.stderr or r.stdout)[-400:]


def run(cmd, timeout, env=None):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env,
                           stdin=subprocess.DEVNULL, errors="replace")
        return r.returncode, r.stdout + r.stderr
    except subprocess.TimeoutExpired:
        return None, ""


def last_error_line(output):
    """The compiler's or linker's first error line, the one that says why."""
    lines = [l.strip() for l in output.splitlines()
             if re.search(r"error:|undefined reference", l) and "linker command failed" not in l]
    rest = output.strip().splitlines()
    return lines[0] if lines else rest[-1] if rest else "(no output)"


def judge(expected, built, code, output, races):
    if not built:
        return "build-fail"
    if code is None:
        return "hang"
    found = races(output)
    if expected == "race":
        return "hit" if found else "miss"
    return "false-alarm" if found else "clean-ok"


def one_test(path, args, tmp):
    text = open(path, encoding="utf-8", errors="replace").read()
    name = os.path.relpath(path, args.tsan_dir)
    runs = [l.split("RUN:", 1)[1] for l in text.splitlines() if "RUN:" in l]
    why = exclusion(path, text, runs)
    expected = expectation(text) if not why else None
    if expected:
        expected = CORRECTED_EXPECTATIONS.get(name, expected)
    if not why and not expected:
        why = "no data-race expectation (tests other reports or output)"
    if why:
        return name, None, why, None, None, {}
    is_c = path.endswith(".c")
    stem = os.path.join(tmp, name.replace("/", "_"))
    write_run_files(runs, stem)
    build_run = next((r for r in runs if "%clang" in r), runs[0])
    flags = compile_flags(build_run, stem) + ["-g", "-I", args.tsan_dir,
                                              "-I", os.path.join(args.tsan_dir, "..")]
    libs = ["-lpthread", "-ldl", "-lm", "-lrt"]
    snag_cc = os.path.join(args.snag_bin, "snag-cc" if is_c else "snag-c++")
    clang = args.clang if is_c else args.clang.replace("clang", "clang++")
    # snag's wrapper compiler may not search clang's resource dir for <sanitizer/...>.
    resource = subprocess.run([args.clang, "-print-resource-dir"], capture_output=True,
                              text=True).stdout.strip()
    sflags = flags + ["-I", os.path.join(resource, "include")]
    results = {}
    ok, results["snag_error"] = build([snag_cc] + sflags + [path, args.shim, "-o", stem + ".snag"] + libs,
                  args.timeout)
    code, out = run([os.path.join(args.snag_bin, "snag"), "race", "--timeout",
                     str(args.timeout), stem + ".snag"], args.timeout + 5) if ok else (0, "")
    results["snag"] = judge(expected, ok, code, out, lambda o: SNAG_RACE.search(o) is not None)
    ok, results["tsan_error"] = build([clang, "-fsanitize=thread"] + flags + [path, "-o", stem + ".tsan"] + libs,
                  args.timeout)
    env = dict(os.environ, TSAN_OPTIONS="halt_on_error=0 exitcode=66")
    code, out = run([stem + ".tsan"], args.timeout, env) if ok else (0, "")
    results["tsan"] = judge(expected, ok, code, out, lambda o: RACE_TEXT in o)
    errors = {tool: last_error_line(results[tool + "_error"])
              for tool in ("snag", "tsan") if results[tool] == "build-fail"}
    return name, expected, None, results["snag"], results["tsan"], errors


def main():
    p = argparse.ArgumentParser()
    p.add_argument("tsan_dir")
    p.add_argument("snag_bin")
    p.add_argument("--clang", default="clang-14")
    p.add_argument("--timeout", type=int, default=20)
    p.add_argument("--only", default="")
    p.add_argument("--jobs", type=int, default=2)
    args = p.parse_args()
    args.tsan_dir = os.path.abspath(args.tsan_dir)
    args.shim = os.path.join(tempfile.mkdtemp(), "tsan_testonly_shim.o")
    # Plain clang on purpose: the shim's barrier must stay invisible to snag.
    subprocess.run([args.clang, "-O1", "-c", os.path.join(os.path.dirname(
        os.path.abspath(__file__)), "tsan_testonly_shim.c"), "-o", args.shim], check=True)
    tests = []
    for root, _, files in os.walk(args.tsan_dir):
        for f in sorted(files):
            if f.endswith((".c", ".cpp", ".cc")) and args.only in f:
                tests.append(os.path.join(root, f))
    tests.sort()
    with tempfile.TemporaryDirectory() as tmp, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        rows = list(pool.map(lambda t: one_test(t, args, tmp), tests))
    excluded = [(n, why) for n, _, why, _, _, _ in rows if why]
    judged = [r for r in rows if not r[2]]
    racy = [r for r in judged if r[1] == "race"]
    clean = [r for r in judged if r[1] == "clean"]
    print(f"tests: {len(tests)} found, {len(judged)} judged "
          f"({len(racy)} expect a race, {len(clean)} expect none), {len(excluded)} excluded\n")
    print(f"{'':22}{'snag':>8}{'tsan':>8}")
    def count(kind, idx, among):
        return sum(1 for r in among if r[idx] == kind)
    lines = [("recall (races found)", "hit", racy, True),
             ("false alarms", "false-alarm", clean, True),
             ("build/link failures", "build-fail", judged, False),
             ("hangs (timeout)", "hang", judged, False)]
    for label, kind, among, frac in lines:
        s, t = count(kind, 3, among), count(kind, 4, among)
        suffix = f"/{len(among)}" if frac else ""
        print(f"{label:22}{str(s) + suffix:>8}{str(t) + suffix:>8}")
    print("\ntests where snag and tsan differ (test: expected; snag / tsan):")
    for n, exp, _, s, t, _ in judged:
        if s != t:
            print(f"  {n}: {exp}; {s} / {t}")
    print("\ntests both tools got wrong (test: expected; result):")
    for n, exp, _, s, t, _ in judged:
        if s == t and s not in ("hit", "clean-ok"):
            print(f"  {n}: {exp}; {s}")
    print("\nbuild/link failures (test: tool: first error):")
    for n, _, _, _, _, errors in judged:
        for tool, error in errors.items():
            print(f"  {n}: {tool}: {error}")
    print("\nexpectations corrected by the test's own comment:")
    for n, exp in CORRECTED_EXPECTATIONS.items():
        print(f"  {n}: judged as {exp}")
    print("\nexcluded tests:")
    for n, why in excluded:
        print(f"  {n}: {why}")


if __name__ == "__main__":
    sys.exit(main())
