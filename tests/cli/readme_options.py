#!/usr/bin/env python3
"""Every option the README shows for a `snag` command exists in that command's --help.

usage: readme_options.py SNAG README.md

Looks at the README's code blocks: a line naming `snag <engine>` (usage lines
and examples alike, with their indented continuation lines) contributes its
`--option` words. Prints each one the engine's --help does not know, and
exits 1 if there is any.
"""
import re
import subprocess
import sys


def shown_options(readme):
    in_code = False
    current = None
    shown = {}
    for line in open(readme, encoding="utf-8"):
        if line.startswith("```"):
            in_code = not in_code
            current = None
            continue
        if not in_code:
            continue
        m = re.search(r"(?:^|[\s/])snag (\w+)\b", line)
        if m:
            current = m.group(1)
        elif not line.startswith((" ", "\t")):
            current = None
        if current:
            code = line.split("#", 1)[0]
            for option in re.findall(r"(?<![\w-])(--[a-z][a-z-]*)", code):
                shown.setdefault(current, set()).add(option)
    return shown


def main():
    snag, readme = sys.argv[1:3]
    missing = []
    for engine, options in sorted(shown_options(readme).items()):
        result = subprocess.run([snag, engine, "--help"], capture_output=True, text=True)
        if result.returncode != 0:
            missing.append(f"snag {engine}: no such command (its --help failed: "
                           f"{result.stderr.strip()})")
            continue
        for option in sorted(options):
            if not re.search(r"(?<![\w-])" + re.escape(option) + r"(?![\w-])", result.stdout):
                missing.append(f"snag {engine} {option}: shown in the README, unknown to --help")
    for line in missing:
        print(line)
    sys.exit(1 if missing else 0)


if __name__ == "__main__":
    main()
