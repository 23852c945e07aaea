#!/usr/bin/env bash
# A JSON report on stdout stays parseable when the program prints to stdout
# too: the program's output goes to stderr.
# usage: json_report_stays_parseable.sh SNAG FAKE SAMPLE
set -u
snag=$1 fake=$2 sample=$3
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$snag" race --format json "$fake" args "program output" >"$out" 2>"$err"
status=$?
[[ $status -eq 0 ]] || { echo "FAILED: status $status"; cat "$err"; exit 1; }
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$out" ||
  { echo "FAILED: stdout is not one JSON document:"; cat "$out"; exit 1; }
grep -qx "program output" "$err" || { echo "FAILED: the program's output is not on stderr"; cat "$err"; exit 1; }
"$snag" race --format sarif "$fake" findings "$sample" >"$out" 2>"$err"
python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$out" ||
  { echo "FAILED: SARIF on stdout is not one JSON document"; exit 1; }
echo ok
