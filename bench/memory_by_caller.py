#!/usr/bin/env python3
"""Where a program's resident memory comes from: each page resident at a
chosen moment, attributed to the function that mapped it.

    bench/memory_by_caller.py [--stop FUNCTION] [--top N] PROGRAM [ARG...]

Runs PROGRAM under gdb (SNAG_OPTIONS and the rest of the environment pass
through), catches every mmap with its caller's three innermost frames that
are not the mapping functions themselves, and stops at FUNCTION's first call
(default: the process's exit_group, after the program's own frees). There it
reads /proc/PID/pagemap and prints the resident KB of each caller, a later
mapping taking over an earlier one's range, then the resident KB of each
mapping of /proc/PID/smaps (the program's and the libraries' files, the
heap, the rest) for what no mmap named. Mappings over 1 GiB (the race
engine's shadow reservations) are not walked page by page: their resident KB
is in the second table.

Made for race_bench.txt section 106; needs gdb. Run it on a build with debug
information (snag-c++ -g) to have the runtime's function names.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

# The gdb side: runs inside gdb's Python, reads its settings from the
# environment (the program under test gets the same environment, harmlessly).
GDB_SCRIPT = r'''
import collections, os, re, struct
import gdb

stop_at = os.environ["MEMORY_BY_CALLER_STOP"]
out_path = os.environ["MEMORY_BY_CALLER_OUT"]
skip = ("raw_syscall", "map_pages", "mmap", "raw_map")
mappings = []   # (address, length, caller), in the order they were made
pending = {}    # thread -> (length, caller) between a mmap's entry and return

gdb.execute("set pagination off")
gdb.execute("set breakpoint pending on")
gdb.execute("set startup-with-shell off")
gdb.execute("catch syscall mmap")
if stop_at == "exit_group":
    gdb.execute("catch syscall exit_group")
else:
    gdb.execute("break " + stop_at)


def caller():
    names, frame = [], gdb.newest_frame()
    while frame is not None and len(names) < 3:
        name = frame.name() or "??"
        if not any(s in name for s in skip):
            names.append(name)
        frame = frame.older()
    return " < ".join(names)


def at_stop():
    try:
        frame = gdb.selected_frame()
    except gdb.error:
        return "gone"
    if stop_at == "exit_group":
        return "stop" if int(gdb.parse_and_eval("$orig_rax")) == 231 else "mmap"
    return "stop" if frame.name() == stop_at else "mmap"


def report():
    pid = gdb.selected_inferior().pid
    owner = {}
    for address, length, who in mappings:
        if length <= (1 << 30) and address < (1 << 63):
            for page in range(address >> 12, (address + length + 4095) >> 12):
                owner[page] = who
    resident = collections.Counter()
    with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
        for page, who in owner.items():
            pagemap.seek(page * 8)
            if struct.unpack("<Q", pagemap.read(8))[0] >> 63:
                resident[who] += 4
    with open(out_path, "w") as out:
        out.write("CALLERS\n")
        for who, kb in resident.most_common():
            out.write(f"{kb}\t{who}\n")
        out.write("MAPPINGS\n")
        current = None
        for line in open(f"/proc/{pid}/smaps"):
            m = re.match(r"([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \d+\s*(.*)", line)
            if m:
                current = [m[1], m[3], m[4].strip() or "[anonymous]"]
            elif line.startswith("Rss:") and current:
                kb = int(line.split()[1])
                if kb:
                    out.write(f"{kb}\t{current[1]} {current[0]} {current[2]}\n")


gdb.execute("run", to_string=True)
while True:
    where = at_stop()
    if where == "gone":
        break
    if where == "stop":
        report()
        break
    thread = gdb.selected_thread().num
    if thread not in pending:
        pending[thread] = (int(gdb.parse_and_eval("$rsi")), caller())
    else:
        length, who = pending.pop(thread)
        mappings.append((int(gdb.parse_and_eval("$rax")) & (2**64 - 1), length, who))
    try:
        gdb.execute("continue", to_string=True)
    except gdb.error:
        break
'''


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stop", default="exit_group", help="function whose first call is the moment measured")
    parser.add_argument("--top", type=int, default=20, help="rows of each table")
    parser.add_argument("program", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    if not args.program:
        parser.error("no program given")
    if not shutil.which("gdb"):
        sys.exit("memory_by_caller: gdb is not installed (apt-get install gdb)")
    with tempfile.TemporaryDirectory(prefix="snag-memory-by-caller.") as tmp:
        script, out = os.path.join(tmp, "script.py"), os.path.join(tmp, "out.txt")
        with open(script, "w") as f:
            f.write(GDB_SCRIPT)
        env = dict(os.environ, MEMORY_BY_CALLER_STOP=args.stop, MEMORY_BY_CALLER_OUT=out)
        subprocess.run(["gdb", "-q", "-batch", "-x", script, "--args"] + args.program, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not os.path.exists(out):
            sys.exit(f"memory_by_caller: the program ended before {args.stop} was reached")
        section, rows = None, {"CALLERS": [], "MAPPINGS": []}
        for line in open(out):
            line = line.rstrip("\n")
            if line in rows:
                section = line
            elif section:
                kb, what = line.split("\t", 1)
                rows[section].append((int(kb), what))
    total = sum(kb for kb, _ in rows["MAPPINGS"])
    print(f"resident at {args.stop}: {total:,} KB")
    print("\nby the caller of mmap (mappings up to 1 GiB):")
    for kb, who in rows["CALLERS"][:args.top]:
        print(f"  {kb:>8,} KB  {who}")
    print("\nby mapping (/proc/PID/smaps):")
    for kb, what in sorted(rows["MAPPINGS"], reverse=True)[:args.top]:
        print(f"  {kb:>8,} KB  {what}")


if __name__ == "__main__":
    main()
