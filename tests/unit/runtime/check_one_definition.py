#!/usr/bin/env python3
"""Checks that no C symbol of the runtime library is defined in two of its objects.

Interceptors are weak (a program's own definition must win), so when two
source files both define one, the linker keeps either without a word: an
accept interceptor that announced the wait to the controlled scheduler lost
to one that did not, and every schedule where main waited in accept before
its client ran hung. C++ symbols (_Z...) are left out: inline functions are
weak in every object that uses them.

usage: check_one_definition.py LIBRARY.a
"""
import collections
import subprocess
import sys


def defined_symbols(library):
    """(object, nm's type letter, name) of every symbol the library's objects define."""
    out = subprocess.run(["nm", "-A", "--defined-only", library], check=True,
                         capture_output=True, text=True).stdout
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 3:
            yield fields[0].split(":")[1], fields[1], fields[2]


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    where = collections.defaultdict(set)
    for obj, kind, name in defined_symbols(sys.argv[1]):
        if kind in "TWVDBR" and not name.startswith("_Z"):
            where[name].add(obj)
    twice = {name: sorted(objects) for name, objects in where.items() if len(objects) > 1}
    if not where:
        sys.exit(f"FAIL: no symbols read from {sys.argv[1]}")
    if twice:
        sys.exit("FAIL: defined in more than one object (the linker keeps one of them):\n" +
                 "\n".join(f"  {name}: {', '.join(objs)}" for name, objs in sorted(twice.items())))
    print(f"OK: {len(where)} C symbols, each defined once")


if __name__ == "__main__":
    main()
