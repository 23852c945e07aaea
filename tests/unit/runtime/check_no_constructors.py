#!/usr/bin/env python3
"""Checks that no object of the runtime library runs a constructor at start.

The runtime's tables are zeros until used, and as zeros in .bss they cost a
program nothing until it writes them. A global that is not constant-
initialized (a member left without an initializer, an array of atomics in a
struct) gets a constructor that writes its zeros when the program starts:
explore's stack pool made 18 KiB resident in every program, whatever the
engine (race_bench.txt section 101). Such globals are declared constinit.

usage: check_no_constructors.py LIBRARY.a
"""
import subprocess
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = subprocess.run(["nm", "-A", "--defined-only", sys.argv[1]], check=True,
                         capture_output=True, text=True).stdout
    objects = set()
    running = []
    for line in out.splitlines():
        fields = line.split()
        if len(fields) != 3:
            continue
        objects.add(fields[0].split(":")[1])
        if fields[2].startswith("_GLOBAL__sub_I"):
            running.append(f"{fields[0].split(':')[1]}: {fields[2]}")
    if not objects:
        sys.exit(f"no objects read from {sys.argv[1]}")
    if running:
        sys.exit("constructors run at start:\n  " + "\n  ".join(running))
    print(f"{len(objects)} objects, no constructor run at start")


if __name__ == "__main__":
    main()
