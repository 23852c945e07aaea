#!/usr/bin/env bash
# Killing snag with SIGKILL (as a CI timeout does) kills the program it runs.
# usage: killed_snag_kills_the_program.sh SNAG FAKE SAMPLE
set -u
snag=$1 fake=$2
marker="killed-snag-$$"
"$snag" events "$fake" hang "$marker" &
pid=$!
for _ in $(seq 50); do pgrep -f "$marker" >/dev/null && break; sleep 0.1; done
pgrep -f "snag_fake_program hang $marker" >/dev/null || { echo "FAILED: the program never started"; exit 1; }
kill -9 "$pid"
for _ in $(seq 50); do pgrep -f "snag_fake_program hang $marker" >/dev/null || { echo ok; exit 0; }; sleep 0.1; done
pkill -9 -f "snag_fake_program hang $marker"
echo "FAILED: the program outlived snag"
exit 1
