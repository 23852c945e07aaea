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
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_one_definition import defined_symbols  # noqa: E402


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    objects = set()
    running = []
    for obj, _, name in defined_symbols(sys.argv[1]):
        objects.add(obj)
        if name.startswith("_GLOBAL__sub_I"):
            running.append(f"{obj}: {name}")
    if not objects:
        sys.exit(f"FAIL: no objects read from {sys.argv[1]}")
    if running:
        sys.exit("FAIL: constructors run at start:\n  " + "\n  ".join(running))
    print(f"OK: {len(objects)} objects, no constructor run at start")


if __name__ == "__main__":
    main()
