#!/usr/bin/env bash
# Counts the access hooks snag's compiler pass leaves in each bench workload:
# statically (hook calls in the IR, and how many of them wait for
# __snag_every_access, i.e. are covered: compiler/plugin/RedundantAccesses.h)
# and dynamically (the IR linked with bench/hook_count_stub.c, a runtime
# stand-in that only counts access-hook calls; run with the flag set, as for
# explore, and cleared, as for race alone).
#
#   bench/count_hooks.sh [BUILD_DIR] [WORKLOAD...]
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=${1:-$(dirname "$here")/build}
shift || true
snag_cxx=$build/bin/snag-c++
[[ -x $snag_cxx ]] || { echo "count_hooks: no $snag_cxx" >&2; exit 1; }
names=("$@")
if ((${#names[@]} == 0)); then
  for f in "$here"/workloads/*.cc; do names+=("$(basename "$f" .cc)"); done
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
clang-14 -O1 -c "$here/hook_count_stub.c" -o "$tmp/stub.o"
printf '%-20s %7s %8s %15s %15s %8s\n' workload hooks covered 'calls(flag 1)' 'calls(flag 0)' removed
for n in "${names[@]}"; do
  ir=$tmp/$n.ll
  "$snag_cxx" -std=c++20 -O1 -g -S -emit-llvm "$here/workloads/$n.cc" -o "$ir"
  hooks=$(grep -cE 'call void @__snag_(read|write)(1|2|4|8|16|_range)\(' "$ir" || true)
  covered=$(grep -c 'load i32, i32\* @__snag_every_access' "$ir" || true)
  clang++-14 -O1 "$ir" "$tmp/stub.o" -pthread -o "$tmp/$n"
  every=$(SNAG_COUNT_EVERY=1 "$tmp/$n" 2>&1 >/dev/null | sed -n 's/^HOOKS //p')
  race=$(SNAG_COUNT_EVERY=0 "$tmp/$n" 2>&1 >/dev/null | sed -n 's/^HOOKS //p')
  printf '%-20s %7s %8s %15s %15s %7.2f%%\n' "$n" "$hooks" "$covered" "$every" "$race" \
    "$(awk -v a="$every" -v b="$race" 'BEGIN { print a ? 100 * (a - b) / a : 0 }')"
done
