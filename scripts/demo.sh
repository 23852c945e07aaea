#!/usr/bin/env bash
# Builds the bundled examples with snag-c++ and runs snag on them, printing
# what it finds. Usage: scripts/demo.sh [BUILD_DIR]
set -uo pipefail
build=${1:-build}
bin="$build/bin"
out="$build/examples"
mkdir -p "$out"

section() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

for example in bank_account shared_vector deadlock ticket_counter; do
  "$bin/snag-c++" -std=c++20 -O1 -g "examples/$example.cc" -o "$out/$example" || exit 1
done

section "A data race: deposit() forgot the lock that withdraw() takes"
echo "\$ snag race $out/bank_account"
"$bin/snag" race "$out/bank_account"
echo "(snag exited with status $?: 66 means something was found)"

section "Container misuse: two threads push_back to one std::vector, caught red-handed"
rm -f "$out/shared_vector.snag-traps"
echo "\$ snag tsv --runs 2 $out/shared_vector"
"$bin/snag" tsv --runs 2 "$out/shared_vector"

section "The same bug as snag race sees it: one race between the two calls"
echo "\$ snag race $out/shared_vector"
"$bin/snag" race "$out/shared_vector"

section "The same findings for machines: SARIF 2.1.0"
echo "\$ snag race --format sarif --output $out/bank_account.sarif $out/bank_account"
"$bin/snag" race --format sarif --output "$out/bank_account.sarif" "$out/bank_account" 2>/dev/null
echo "wrote $out/bank_account.sarif ($(wc -c < "$out/bank_account.sarif") bytes)"

section "A deadlock that needs a rare interleaving, found by the controlled scheduler"
echo "\$ snag explore --seed 1 --replay-out $out/deadlock.replay.json $out/deadlock"
"$bin/snag" explore --seed 1 --replay-out "$out/deadlock.replay.json" "$out/deadlock"

section "An assertion failure (a lost update), found and replayed"
echo "\$ snag explore --seed 1 --replay-out $out/ticket_counter.replay.json $out/ticket_counter"
"$bin/snag" explore --seed 1 --replay-out "$out/ticket_counter.replay.json" "$out/ticket_counter"
echo "\$ snag replay $out/ticket_counter.replay.json"
"$bin/snag" replay "$out/ticket_counter.replay.json" 2>&1 | tail -2

section "The same bank account, checked from source without running it"
echo "\$ snag check --cache-dir $out/check-cache examples/bank_account.cc -- -std=c++20"
"$bin/snag" check --cache-dir "$out/check-cache" examples/bank_account.cc -- -std=c++20
echo "(snag exited with status $?; no program was built or run)"

section "An atomicity violation tolerated in production: snag learn, then snag guard"
"$bin/snag-c++" -std=c++20 -O1 -g examples/config_reload.cc -o "$out/config_reload" || exit 1
echo "\$ $out/config_reload early      # natively: the reload lands between check and use"
SNAG_OPTIONS=engine=none "$out/config_reload" early
echo "(exited with status $?)"
rm -f "$out/config_reload.invariants"
echo "\$ snag learn --invariants $out/config_reload.invariants $out/config_reload late   # correct runs"
"$bin/snag" learn --invariants "$out/config_reload.invariants" "$out/config_reload" late
echo "\$ snag learn --invariants $out/config_reload.invariants $out/config_reload first"
"$bin/snag" learn --invariants "$out/config_reload.invariants" "$out/config_reload" first
echo "\$ snag guard --invariants $out/config_reload.invariants --max-stall-ms 100 $out/config_reload early"
echo "(the example widens its window to 50 ms, so the stall cap is raised from 10 ms to cover it)"
"$bin/snag" guard --invariants "$out/config_reload.invariants" --max-stall-ms 100 "$out/config_reload" early 2>&1 |
  grep -E "^WARNING|Atomicity violation|outcome|pattern|^snag guard|config_reload:"
echo "(snag guard exited with the program's own status: ${PIPESTATUS[0]})"

section "An order violation no test run ever hit, exposed from correct runs: snag learn, then snag expose"
"$bin/snag-c++" -std=c++20 -O1 -g examples/late_publish.cc -o "$out/late_publish" || exit 1
rm -f "$out/late_publish.invariants"
echo "\$ snag learn --runs 3 --invariants $out/late_publish.invariants $out/late_publish   # ordinary runs pass"
"$bin/snag" learn --runs 3 --invariants "$out/late_publish.invariants" "$out/late_publish"
echo "\$ snag expose --invariants $out/late_publish.invariants $out/late_publish"
"$bin/snag" expose --invariants "$out/late_publish.invariants" "$out/late_publish" 2>&1 |
  grep -E "^late_publish|^WARNING|^  Order violation|^  Atomicity violation|late_publish.cc|^snag expose"
echo "(snag expose exited with status ${PIPESTATUS[0]}: 66 means something was found)"

exit 0
