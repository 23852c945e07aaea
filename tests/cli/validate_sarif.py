#!/usr/bin/python3
"""Validates a SARIF log against the official SARIF 2.1.0 JSON schema.

Usage: validate_sarif.py SCHEMA LOG   (LOG may be '-' for standard input)

Exit status: 0 valid, 1 not a valid SARIF log (errors on stderr), 2 the
check itself could not run (bad usage, unreadable file, no jsonschema).
Uses Debian's python3-jsonschema; the schema is draft-04, and all of its
references are local, so nothing is fetched from the network.
"""
import json
import sys


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    try:
        import jsonschema
    except ImportError:
        print("validate_sarif.py: python3-jsonschema is not installed", file=sys.stderr)
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            schema = json.load(f)
        if argv[2] == "-":
            text = sys.stdin.read()
        else:
            with open(argv[2], encoding="utf-8") as f:
                text = f.read()
    except (OSError, ValueError) as e:
        print(f"validate_sarif.py: {e}", file=sys.stderr)
        return 2

    try:
        log = json.loads(text)
    except ValueError as e:
        print(f"{argv[2]}: not a valid SARIF log: not JSON: {e}", file=sys.stderr)
        return 1

    validator = jsonschema.Draft4Validator(schema)
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
    if not errors:
        return 0
    print(f"{argv[2]}: not a valid SARIF log ({len(errors)} schema errors)", file=sys.stderr)
    for error in errors[:10]:
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        print(f"  at {where}: {error.message}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
