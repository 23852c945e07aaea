#!/usr/bin/env python3
"""docs/options.md carries exactly the table `snag --help-options=markdown`
prints, so the documentation of SNAG_OPTIONS cannot drift from the runtime's
option table. With --update, rewrites the page's table instead."""
import re
import subprocess
import sys

BEGIN = "<!-- BEGIN snag --help-options=markdown -->\n"
END = "<!-- END snag --help-options=markdown -->\n"


def main() -> int:
    snag, page = sys.argv[1], sys.argv[2]
    table = subprocess.run([snag, "--help-options=markdown"], check=True, capture_output=True,
                           text=True).stdout
    text = open(page, encoding="utf-8").read()
    match = re.search(re.escape(BEGIN) + "(.*?)" + re.escape(END), text, re.S)
    if not match:
        print(f"{page}: the markers around the options table are missing")
        return 1
    if "--update" in sys.argv[3:]:
        open(page, "w", encoding="utf-8").write(text[:match.start(1)] + table + text[match.end(1):])
        return 0
    if match.group(1) != table:
        print(f"{page} differs from `snag --help-options=markdown`; run\n"
              f"  {sys.argv[0]} {snag} {page} --update")
        return 1
    print(f"{page}: the options table matches ({table.count(chr(10)) - 2} keys)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
