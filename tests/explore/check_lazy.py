#!/usr/bin/env python3
"""Checks lazy threads (docs/explore.md, Speed): a new thread's kernel thread
is created at its first turn unless --eager-threads.

usage: check_lazy.py SNAG MODE PROGRAM

MODE says what PROGRAM (a program of lazy/) must show:
  silent     no finding and no incomplete schedule in 300 schedules, lazily
             and with --eager-threads (calls_before_first_turn,
             inherits_creator)
  fork-exit  the same, run without and with an argument
             (fork_and_exit_with_deferred: a fork, and an exit, while
             threads are deferred)
  lazily     silent lazily; with --eager-threads the assertion that no
             thread exists before its first turn fails, is replayed (the
             replay file says eager_threads, so the replay is eager too)
             and reproduces (created_lazily)
  failure    lazily one schedule is incomplete with the note that a
             deferred creation failed, and the program sees EAGAIN in the
             others; with --eager-threads none is incomplete
             (creation_fails)
  replay     the bug found lazily replays with lazy threads and without
             (SNAG_OPTIONS=lazy_threads=0): schedules are chosen by thread
             id, not by which kernel thread exists
Exit status 0 when all holds.
"""
import json
import os
import subprocess
import sys
import tempfile

SCHEDULES = "300"


def explore(snag, program, workdir, *options, args=()):
    replay = os.path.join(workdir, "bug.snag-replay.json")
    argv = [snag, "explore", "-j", "1", "--seed", "1", "--schedules", SCHEDULES, "--format",
            "json", "--replay-out", replay, *options, program, *args]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=500)
    if run.returncode not in (0, 66):
        sys.exit(f"FAIL: {' '.join(argv)} exited {run.returncode}:\n{run.stderr}")
    return run.returncode, json.loads(run.stdout), replay, " ".join(argv)


def silent(snag, program, workdir, *options, args=()):
    status, report, _, argv = explore(snag, program, workdir, *options, args=args)
    incomplete = report["run"]["explore"]["schedules_incomplete"]
    if status != 0 or report["findings"] or sum(incomplete.values()):
        sys.exit(f"FAIL: {argv}: exit {status}, findings {report['findings']}, "
                 f"incomplete {incomplete}")


def replays(snag, replay, environment=None):
    env = dict(os.environ)
    env.update(environment or {})
    run = subprocess.run([snag, "replay", "--format", "json", replay], capture_output=True,
                         text=True, timeout=120, env=env)
    return run.returncode == 66


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    snag, mode, program = sys.argv[1:4]
    with tempfile.TemporaryDirectory() as workdir:
        if mode == "silent":
            silent(snag, program, workdir)
            silent(snag, program, workdir, "--eager-threads")
        elif mode == "fork-exit":
            for args in ((), ("exit",)):
                silent(snag, program, workdir, args=args)
                silent(snag, program, workdir, "--eager-threads", args=args)
        elif mode == "lazily":
            silent(snag, program, workdir)
            status, report, replay, argv = explore(snag, program, workdir, "--eager-threads")
            if status != 66 or report["findings"][0]["kind"] != "assertion-failure":
                sys.exit(f"FAIL: {argv}: threads existed before their first turn, yet exit "
                         f"{status}, findings {report['findings']}")
            with open(replay) as f:
                if not json.load(f)["options"].get("eager_threads"):
                    sys.exit(f"FAIL: {replay} does not say eager_threads")
            if not replays(snag, replay):
                sys.exit(f"FAIL: snag replay {replay} did not reproduce the eager failure")
        elif mode == "failure":
            status, report, _, argv = explore(snag, program, workdir)
            incomplete = report["run"]["explore"]["schedules_incomplete"]
            notes = " ".join(report["run"]["notes"])
            if status != 0 or report["findings"] or incomplete.get("threads") != 1 or \
                    "deferred creation failed" not in notes:
                sys.exit(f"FAIL: {argv}: exit {status}, findings {report['findings']}, "
                         f"incomplete {incomplete}, notes {notes!r}")
            silent(snag, program, workdir, "--eager-threads")
        elif mode == "replay":
            status, report, replay, argv = explore(snag, program, workdir)
            if status != 66:
                sys.exit(f"FAIL: {argv} found no bug (exit {status})")
            for env in ({}, {"SNAG_OPTIONS": "lazy_threads=0"}):
                if not replays(snag, replay, env):
                    sys.exit(f"FAIL: snag replay {replay} with {env or 'lazy threads'} did not "
                             f"reproduce the bug")
        else:
            sys.exit(f"unknown MODE {mode}\n{__doc__}")
    print(f"{mode}: ok")


if __name__ == "__main__":
    main()
