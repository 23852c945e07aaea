#!/usr/bin/env python3
"""Merges the shards of one `snag explore` of a labelled suite program and checks the result.

usage: check_merge.py SNAG SOURCE SHARD.json...

Each SHARD.json is the `--format json` report of `snag explore --shard I/N`
of the program built from SOURCE (see check_explore_program.py for the
labels: `// BUG: KIND` on the lines where a buggy twin's failure is
reported; a fixed twin has none). The check runs

  SNAG merge --format json SHARD.json...      and      SNAG merge SHARD.json...

and requires, for a buggy twin: exit status 66; exactly one finding, of the
marked kind, on a marked line of SOURCE, reported as many times as the
shards found it, naming the earliest failing schedule among the shards and
that shard's replay file; the schedule counts of the shards summed; the text
report showing that finding once. For a fixed twin: exit status 0, no
findings, the counts summed. Exit status 0 when all holds, 1 otherwise.
"""
import json
import os
import re
import subprocess
import sys

FOUND = 66
MARKER_RE = re.compile(r"//\s*BUG:\s*([A-Za-z0-9_-]+)")


def marked_lines(source):
    kinds, lines = set(), set()
    with open(source, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            m = MARKER_RE.search(line)
            if m:
                kinds.add(m.group(1))
                lines.add(number)
    return kinds, lines


def own_lines(finding, source_name):
    """The lines of SOURCE in the innermost own-source frame of each side."""
    out = set()
    for side in finding.get("sides", []):
        for frame in side.get("stack", []):
            if os.path.basename(frame.get("file", "")) == source_name:
                out.add(frame.get("line"))
                break
    return out


def main():
    snag, source, shard_files = sys.argv[1], sys.argv[2], sys.argv[3:]
    source_name = os.path.basename(source)
    kinds, lines = marked_lines(source)
    shards = []
    for path in shard_files:
        with open(path, encoding="utf-8") as f:
            shards.append(json.load(f)["run"]["explore"])
    problems = []

    merged_run = subprocess.run([snag, "merge", "--format", "json"] + shard_files,
                                capture_output=True, text=True)
    text_run = subprocess.run([snag, "merge"] + shard_files, capture_output=True, text=True)
    expected_status = FOUND if kinds else 0
    for what, run in (("merge --format json", merged_run), ("merge", text_run)):
        if run.returncode != expected_status:
            problems.append(f"snag {what} exited {run.returncode}, expected {expected_status}: "
                            f"{run.stderr.strip()}")
    try:
        merged = json.loads(merged_run.stdout)
    except ValueError as e:
        print(f"snag merge --format json wrote no JSON ({e}); stderr:\n{merged_run.stderr}")
        return 1
    explore = merged["run"]["explore"]
    findings = merged["findings"]

    total = sum(s["schedules"] for s in shards)
    if explore["schedules"] != total:
        problems.append(f"merged schedules {explore['schedules']}, the shards ran {total}")
    if explore["missing_shards"]:
        problems.append(f"shards reported missing: {explore['missing_shards']}")

    failed = [(s["failure"]["schedule"], s) for s in shards if s.get("failure")]
    if kinds:
        if not failed:
            problems.append("no shard found the bug; nothing to merge (raise the budget?)")
        if len(findings) != 1:
            problems.append(f"{len(findings)} findings, expected the one bug once")
        elif findings:
            f = findings[0]
            if f["kind"] not in kinds:
                problems.append(f"finding of kind {f['kind']}, expected {sorted(kinds)}")
            if not own_lines(f, source_name) & lines:
                problems.append(f"finding at lines {sorted(own_lines(f, source_name))} of "
                                f"{source_name}, none of them marked {sorted(lines)}")
            if f.get("count", 1) != len(failed):
                problems.append(f"finding reported {f.get('count', 1)} times, "
                                f"{len(failed)} shards found it")
            if failed:
                schedule, shard = min(failed, key=lambda pair: pair[0])
                details = f.get("details", {})
                if details.get("schedule") != schedule or explore["failure"]["schedule"] != schedule:
                    problems.append(f"merged finding names schedule {details.get('schedule')}, "
                                    f"the earliest failure was schedule {schedule}")
                if details.get("replay_file") != shard["replay_file"]:
                    problems.append(f"merged finding names replay file {details.get('replay_file')}, "
                                    f"expected {shard['replay_file']}")
        summaries = [line for line in text_run.stderr.splitlines() if line.startswith("SUMMARY:")]
        if len(summaries) != 1:
            problems.append(f"the text report has {len(summaries)} SUMMARY lines, expected 1")
    else:
        if findings:
            problems.append(f"{len(findings)} findings in the merge of a fixed twin")
        if not all(s["schedules_complete"] for s in shards) or not explore["schedules_complete"]:
            problems.append("a shard of the fixed twin did not run its whole budget")

    for p in problems:
        print(p)
    if not problems:
        print(f"ok: {len(shard_files)} shards, {total} schedules, {len(findings)} finding(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
