#!/usr/bin/env python3
"""`snag explore` on the SCTBench benchmark (mc-imperial/sctbench).

Builds every applicable buggy program of SCTBench's benchmarks/buggy.txt with
snag-cc / snag-c++, explores each with the default options (or --strategy)
and a budget of --schedules schedules or --time-limit seconds, replays the
replay file it wrote, and prints per program: bug found or not, schedules to
the first bug, schedules per second, and whether `snag replay` reproduced it.
The programs left out are listed with the reason.

usage: sctbench.py [--sctbench DIR | --fetch] [--build BUILD_DIR]
                   [--strategies default,random,pct,vb,pctvb]
                   [--schedules N] [--time-limit S] [--seed N]
                   [--programs SUBSTRING] [--output FILE]

DIR is a checkout of https://github.com/mc-imperial/sctbench (the folder
holding benchmarks/); --fetch clones it into a temporary folder. With more
than one strategy the table gives schedules to the first bug per strategy
(the strategy comparison of docs/explore.md) and skips the replays.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

# SCTBench's {NUMTHREADS}: worker threads besides main (buggy.txt counts
# threads including main: 3 for the work-stealing queues).
NUM_THREADS = "2"

# Programs of buggy.txt that are not run, and why.
EXCLUDED = {
    "parsec-2.0/ferret": "links PARSEC's own builds of ImageMagick, GSL and its cass library (pkgs/libs, pkgs/apps/ferret/src)"
                         " through PARSEC's build system, and reads an image database (input_test.tar)",
    "radbench/bug1": "its harness links SpiderMonkey built from a 2009 Firefox source archive"
                     " (firefox-src-2009-09-09.tar.bz2) that the checkout does not contain",
    "radbench/bug2": "its harness links SpiderMonkey 1.7 and NSPR 4.6.7, whose 2007 autoconf builds"
                     " (tarballs in src/) this script does not port to snag-cc",
    "radbench/bug6": "its harness links NSPR 4.8, whose autoconf build (tarball in src/)"
                     " this script does not port to snag-cc",
}

# What some programs need on this machine (scripts/install-deps.sh installs
# both; this script installs nothing): pbzip2 links the system's libbz2
# (Debian libbz2-dev), SPLASH-2's sources are PARMACS m4 macros (Debian m4).
NEEDS = {"conc-bugs/pbzip2-0.9.4": "libbz2-dev", "splash2": "m4"}

# SPLASH-2 programs of buggy.txt: the folder under splash2/, the .C files
# (m4 input), and the arguments of SCTBench's run.sh.
SPLASH2 = {
    "barnes": ("apps/barnes", ["code.C", "code_io.C", "load.C", "grav.C", "getparam.C", "util.C"], []),
    "fft": ("kernels/fft", ["fft.C"], ["-p2", "-m2", "-n4", "-l4"]),
    "lu": ("kernels/lu/non_contiguous_blocks", ["lu.C"], ["-p2", "-n2", "-b1"]),
}

# SPLASH-2's main is K&R C with `char *argv;` (clang rejects it as main), so
# it is compiled as splash2_main and called from this one.
SPLASH2_MAIN = """#undef main
int splash2_main();
int main(int argc, char **argv) { return splash2_main(argc, argv); }
"""


class Program:
    def __init__(self, suite, name, sources, language, args, cflags=(), ldflags=(), inputs=(), m4=None,
                 compare=()):
        self.suite, self.name = suite, name
        self.sources, self.language, self.args = sources, language, args
        self.cflags, self.ldflags = list(cflags), list(ldflags)
        # Files the program reads from its current directory (copied into
        # its own run folder, since schedules may write next to them).
        self.inputs = list(inputs)
        # (macro file, [.C files]): SPLASH-2 sources to expand with m4 first.
        self.m4 = m4
        # Output files explored with --compare-file: SCTBench's runner
        # (maple/script/maple/runner.py) compares the file a program writes
        # with the first run's, and for streamcluster2 that is the only
        # sign of its bug.
        self.compare = list(compare)

    @property
    def label(self):
        return f"{self.suite}/{self.name}"


def args_line(source):
    """SCTBench's first-line convention: `// args: ...` with {NUMTHREADS}."""
    with open(source, errors="replace") as f:
        first = f.readline()
    m = re.search(r"args\s*:(.*)", first)
    if not m:
        return []
    return m.group(1).strip().replace("{NUMTHREADS}", NUM_THREADS).replace("{OUTFILE}", "output.txt").split()


def applicable(root):
    """(programs to run, [(label, reason)] left out), from buggy.txt."""
    bench = os.path.join(root, "benchmarks")
    programs, excluded = [], []
    with open(os.path.join(bench, "buggy.txt")) as f:
        entries = [line.split() for line in f if line.strip() and not line.startswith("#")]
    for suite, name, *counts in entries:
        label = f"{suite}/{name}"
        reason = EXCLUDED.get(label) or EXCLUDED.get(suite)
        if reason:
            excluded.append((label, reason))
            continue
        d = os.path.join(bench, suite)
        if suite in ("concurrent-software-benchmarks", "inspect_examples", "inspect_benchmarks"):
            source = os.path.join(d, name + ".c")
            # qsort_mt has a `return;` in a function returning void *: gcc
            # warns, clang's default makes it an error.
            programs.append(Program(suite, name, [source], "c", args_line(source), ["-Wno-error=return-type"]))
        elif suite == "chess":
            source = os.path.join(d, name + ".cpp")
            programs.append(Program(suite, name, [source], "c++", args_line(source), ["-std=gnu++11"]))
        elif suite == "conc-bugs" and name == "stringbuffer-jdk1.4":
            sd = os.path.join(d, name)
            programs.append(Program(suite, name, [os.path.join(sd, "main.cpp"), os.path.join(sd, "stringbuffer.cpp")],
                                    "c++", []))
        elif suite == "safestack":
            programs.append(Program(suite, name, [os.path.join(d, "SafeStack.cpp")], "c++", [], ["-std=gnu++11"]))
        elif label == "conc-bugs/pbzip2-0.9.4":
            # The bug: main frees the queue's mutex while a consumer thread
            # may still lock it. SCTBench's run.sh compresses test.tar.
            sd = os.path.join(d, name)
            programs.append(Program(suite, name, [os.path.join(sd, "pbzip2-0.9.4", "pbzip2.cpp")], "c++",
                                    ["-k", "-f", "-p2", "-1", "-b1", "test.tar"],
                                    ["-w", "-D_LARGEFILE64_SOURCE", "-D_FILE_OFFSET_BITS=64"], ["-lbz2"],
                                    [os.path.join(sd, "test.tar")]))
        elif label == "conc-bugs/aget-bug2":
            # SCTBench's aget reads the server's answers from the files "0"
            # and "17573" (named by the byte offset each thread asks for)
            # instead of a socket, so no HTTP server is needed.
            sd = os.path.join(d, name, "aget-devel")
            units = ["main", "Aget", "Misc", "Head", "Signal", "Download", "Ftp", "Resume", "loadrc"]
            programs.append(Program(suite, name, [os.path.join(sd, u + ".c") for u in units], "c",
                                    ["-l", "dl.txt", "http://www.gnu.org/licenses/gpl.txt"], ["-w"], [],
                                    [os.path.join(sd, "0"), os.path.join(sd, "17573")]))
        elif suite == "parsec-2.0" and name.startswith("streamcluster"):
            # PARSEC's "test" input: k1 k2 d n chunksize clustersize infile
            # outfile threads, points generated ("none"). buggy.txt's thread
            # count is main and two rounds of localSearch threads: 5 (2
            # workers) for streamcluster and streamcluster3, 7 (3) for
            # streamcluster2, whose bug cannot show with 2 on this input (the
            # master's own block of points opens the first center).
            workers = str((int(counts[0]) - 1) // 2) if counts and counts[0].isdigit() else NUM_THREADS
            sd = os.path.join(d, "pkgs", "kernels", name, "src")
            programs.append(Program(suite, name, [os.path.join(sd, "streamcluster.cpp"),
                                                  os.path.join(sd, "parsec_barrier.cpp")], "c++",
                                    ["2", "5", "1", "10", "10", "5", "none", "output.txt", workers],
                                    ["-w", "-DENABLE_THREADS"], compare=["output.txt"]))
        elif suite == "splash2" and name in SPLASH2:
            folder, units, args = SPLASH2[name]
            sd = os.path.join(d, folder)
            # gnu89 for the K&R code; stdlib.h declares malloc (otherwise an
            # int); no PIE: the code casts heap pointers to `unsigned`, which
            # only keeps them whole below 4 GiB.
            programs.append(Program(suite, name, [], "c", args,
                                    ["-w", "-Wno-error=return-type", "-std=gnu89", "-fno-pic", "-include", "stdlib.h", "-Dmain=splash2_main"],
                                    ["-no-pie", "-lm"], [],
                                    (os.path.join(d, "null_macros", "c.m4.null"), [os.path.join(sd, u) for u in units])))
        else:
            excluded.append((label, "no build recipe in this script"))
    return programs, excluded


def expand_m4(program, out_dir):
    """SPLASH-2: each .C through m4 (with -s: #line markers name the .C file,
    so findings point into the checkout). Returns the .c files, or raises
    OSError / CalledProcessError."""
    macros, units = program.m4
    folder = os.path.dirname(units[0])
    # The .H headers the .C files include, expanded next to them.
    for header in os.listdir(folder):
        if header.endswith(".H"):
            with open(os.path.join(out_dir, header[:-2] + ".h"), "w") as f:
                subprocess.run(["m4", "-s", macros, os.path.join(folder, header)], stdout=f, check=True)
    sources = []
    for unit in units:
        target = os.path.join(out_dir, os.path.basename(unit)[:-2] + ".c")
        with open(target, "w") as f:
            subprocess.run(["m4", "-s", macros, unit], stdout=f, check=True)
        sources.append(target)
    shim = os.path.join(out_dir, "splash2_main.c")
    with open(shim, "w") as f:
        f.write(SPLASH2_MAIN)
    return sources + [shim]


def build(program, snag_bin, out_dir):
    """Returns (binary path, None) or (None, first error line)."""
    wrapper = os.path.join(snag_bin, "snag-c++" if program.language == "c++" else "snag-cc")
    binary = os.path.join(out_dir, program.suite + "--" + program.name)
    sources = program.sources
    # The compiler runs in the sources' folder: SCTBench's preprocessed
    # copies (reorder_10_bad.c ...) name their origin relative to it (`# 1
    # "reorder_bad.c"`), and the debug information resolves such names
    # against the compiler's directory.
    cwd = os.path.dirname(sources[0]) if sources else out_dir
    if program.m4:
        folder = os.path.join(out_dir, program.suite + "--" + program.name + ".src")
        os.makedirs(folder, exist_ok=True)
        try:
            sources = expand_m4(program, folder)
        except (OSError, subprocess.CalledProcessError) as e:
            return None, f"m4 expansion failed (Debian package m4): {e}"
        cwd = folder
    command = [wrapper, "-g", "-O0", *program.cflags, "-o", binary, *sources, "-pthread", *program.ldflags]
    r = subprocess.run(command, capture_output=True, text=True, cwd=cwd)
    if r.returncode != 0:
        errors = [l for l in r.stderr.splitlines() if "error" in l] or r.stderr.splitlines() or ["?"]
        return None, errors[0].strip()
    return binary, None


def run_folder(program, binary, work):
    """The folder the program runs in: `work`, or its own with its inputs."""
    if not program.inputs:
        return work
    folder = binary + ".run"
    os.makedirs(folder, exist_ok=True)
    for path in program.inputs:
        shutil.copy(path, folder)
    return folder


def clean_env():
    return {k: v for k, v in os.environ.items() if k != "SNAG_OPTIONS"}


def explore(snag, binary, args, strategy, options, work, compare=()):
    """Returns the report's run.explore object, the seconds it took, and the replay file."""
    replay = os.path.join(work, os.path.basename(binary) + "." + strategy + ".json")
    if os.path.exists(replay):
        os.remove(replay)
    # The report goes to a file: the program's own output before its first
    # thread shares snag's stdout.
    report_file = replay + ".report"
    command = [snag, "explore", "--schedules", str(options.schedules), "--time-limit", str(options.time_limit),
               "--seed", str(options.seed), "--format", "json", "--output", report_file, "--replay-out", replay]
    if strategy != "default":
        command += ["--strategy", strategy]
    for output in compare:
        command += ["--compare-file", output]
    command += [binary, *args]
    started = time.monotonic()
    r = subprocess.run(command, capture_output=True, text=True, env=clean_env(), cwd=work,
                       stdin=subprocess.DEVNULL, timeout=options.time_limit * 4 + 60)
    seconds = time.monotonic() - started
    try:
        with open(report_file) as f:
            report = json.load(f)["run"]["explore"]
    except (OSError, ValueError, KeyError):
        tail = (r.stderr.strip().splitlines() or ["no output"])[-1]
        return None, seconds, f"no report (exit {r.returncode}): {tail}"
    return report, seconds, replay if report.get("replay_file") else None


def replayed(snag, replay, work):
    report_file = replay + ".replayed"
    subprocess.run([snag, "replay", "--format", "json", "--output", report_file, "--timeout", "30", replay],
                   capture_output=True, text=True, env=clean_env(), cwd=work, stdin=subprocess.DEVNULL, timeout=120)
    try:
        with open(report_file) as f:
            return bool(json.load(f)["run"]["replay"]["reproduced"])
    except (OSError, ValueError, KeyError):
        return False


def output_line(replay):
    """"output.txt line 1": the first line an output-mismatch differs in (its replay file)."""
    try:
        with open(replay) as f:
            output = json.load(f)["output"]
        return f"{output['where']} line {output['line']}"
    except (OSError, ValueError, KeyError):
        return ""


def to_first_bug(report):
    failure = report.get("failure")
    return None if not failure else failure["schedule"] + 1


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sctbench", help="checkout of mc-imperial/sctbench")
    parser.add_argument("--fetch", action="store_true", help="git clone mc-imperial/sctbench first")
    parser.add_argument("--build", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build"))
    parser.add_argument("--strategies", default="default")
    parser.add_argument("--schedules", type=int, default=10000)
    parser.add_argument("--time-limit", type=float, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--programs", default="", help="comma-separated substrings of the labels to run")
    parser.add_argument("--output")
    options = parser.parse_args()

    work = tempfile.mkdtemp(prefix="sctbench-")
    root = options.sctbench
    if options.fetch:
        root = os.path.join(work, "sctbench")
        subprocess.run(["git", "clone", "--depth", "1", "https://github.com/mc-imperial/sctbench", root], check=True)
    if not root or not os.path.isfile(os.path.join(root, "benchmarks", "buggy.txt")):
        sys.exit("sctbench.py: give --sctbench DIR (a checkout of mc-imperial/sctbench, with benchmarks/buggy.txt) or --fetch")
    snag_bin = os.path.join(os.path.abspath(options.build), "bin")
    snag = os.path.join(snag_bin, "snag")
    if not os.access(snag, os.X_OK):
        sys.exit(f"sctbench.py: no snag in {snag_bin}; build first")
    strategies = options.strategies.split(",")
    comparison = len(strategies) > 1

    lines = []

    def out(text=""):
        print(text, flush=True)
        lines.append(text)

    programs, excluded = applicable(root)
    wanted = options.programs.split(",")
    programs = [p for p in programs if any(w in p.label for w in wanted)]
    out(f"# snag explore on SCTBench: budget {options.schedules} schedules or {options.time_limit:g} s per program, "
        f"seed {options.seed}, strategies {','.join(strategies)}")
    if comparison:
        out(f"{'program':50} " + " ".join(f"{s:>10}" for s in strategies))
    else:
        out(f"{'program':50} {'found':>6} {'to bug':>7} {'sched/s':>8} {'replayed':>8}  kind / location")
    found_count = {s: 0 for s in strategies}
    replayed_count = 0
    run = 0
    for program in programs:
        binary, error = build(program, snag_bin, work)
        if not binary:
            excluded.append((program.label, "does not build with snag: " + error))
            continue
        run += 1
        cells = []
        folder = run_folder(program, binary, work)
        for strategy in strategies:
            report, seconds, replay = explore(snag, binary, program.args, strategy, options, folder,
                                              program.compare)
            if report is None:
                cells.append("error")
                if not comparison:
                    out(f"{program.label:50} {'error':>6}  {replay}")
                continue
            needed = to_first_bug(report)
            if needed:
                found_count[strategy] += 1
            if comparison:
                cells.append(str(needed) if needed else f">{report['schedules']}")
                continue
            rate = report.get("schedules_per_second") or 0
            again = replayed(snag, replay, folder) if replay else False
            replayed_count += again
            failure = report.get("failure") or {}
            where = f"{failure.get('kind', '')} {failure.get('location', '')}".strip()
            if failure.get("kind") == "output-mismatch" and replay:
                where += " " + output_line(replay)
            out(f"{program.label:50} {'yes' if needed else 'no':>6} {needed or '-':>7} {rate:8.0f} "
                f"{('yes' if again else 'NO') if needed else '-':>8}  {where}")
        if comparison:
            out(f"{program.label:50} " + " ".join(f"{c:>10}" for c in cells))
    out()
    if comparison:
        out("found: " + ", ".join(f"{s} {found_count[s]}/{run}" for s in strategies))
    else:
        out(f"found {found_count[strategies[0]]}/{run}, replayed {replayed_count}/{found_count[strategies[0]]}")
    out(f"excluded ({len(excluded)}):")
    for label, reason in excluded:
        out(f"  {label}: {reason}")
    if options.output:
        with open(options.output, "w") as f:
            f.write("\n".join(lines) + "\n")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
