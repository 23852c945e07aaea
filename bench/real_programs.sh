#!/usr/bin/env bash
# Issue 14's real programs: snag race vs. ThreadSanitizer vs. native on public
# projects of the shapes the issue was filed from, measured side by side.
#
#   bench/real_programs.sh SRC_DIR [BUILD_DIR]     (default BUILD_DIR: build/)
#
# SRC_DIR holds each project's sources, unpacked from its GitHub snapshot
# (`git --git-dir=... archive HEAD | tar -x -C SRC_DIR/NAME`); a missing one is
# skipped:
#   concurrentqueue    cameron314/concurrentqueue    lock-free MPMC queue: its own
#                      unit tests (--iterations 1), many threads, nodes of atomics
#   readerwriterqueue  cameron314/readerwriterqueue  lock-free SPSC queue: its
#                      benchmark program (built without -DNDEBUG: 2 runs per test)
#   pigz               madler/pigz (needs zlib1g-dev) parallel gzip, -p 2, at -11
#                      (zopfli) on 300 KB and at -9 on 4 MB of generated text
# Each is built three ways, as users would build it: native (clang-14 /
# clang++-14 -O1 -g), TSan (the same plus -fsanitize=thread) and snag
# (CC=BUILD_DIR/bin/snag-cc, CXX=BUILD_DIR/bin/snag-c++ -O1 -g), then run
# REAL_RUNS times (default 3), configurations interleaved, under
# bench/measure.py; bench/summarize.py prints the table (median wall, CPU and
# peak RSS as multiples of native, race reports of each tool). The checksum
# column is what each program's output must agree on: pigz's compressed bytes
# (md5), the queue tests' "All tests passed."; a difference is a WARNING.
# Not part of `make test`: the sources come from snapshots, like
# bench/check_projects.sh. See bench/README.md.
#
# Environment: REAL_RUNS (3), REAL_TIMEOUT (600 s a run), REAL_PROGRAMS (subset,
# space-separated), REAL_KEEP=1 keeps the temp dir (binaries, logs, reports),
# SNAG_OPTIONS of the snag runs as bench/run.sh (BENCH_SNAG_OPTIONS,
# default engine=race), BENCH_TSAN_OPTIONS for TSan.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
die() { echo "real_programs: error: $*" >&2; exit 1; }
tool=real_programs
# shellcheck source=bench/measure_run.sh
source "$here/measure_run.sh"

src=$(cd "${1:?usage: real_programs.sh SRC_DIR [BUILD_DIR]}" && pwd)
build=${2:-$repo/build}
snag_cc=$build/bin/snag-cc
snag_cxx=$build/bin/snag-c++
runs=${REAL_RUNS:-3}
run_timeout=${REAL_TIMEOUT:-600}
snag_options=${BENCH_SNAG_OPTIONS:-engine=race}
tsan_options=${BENCH_TSAN_OPTIONS:-halt_on_error=0 report_signal_unsafe=0}
[[ -x $snag_cxx && -x $snag_cc ]] || die "no snag wrappers in $build/bin (build snag first)"
command -v clang++-14 >/dev/null || die "clang++-14 not found"
[[ -x /usr/bin/time ]] || die "/usr/bin/time missing (apt-get install time)"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/snag-real.XXXXXX")
cleanup() { if [[ ${REAL_KEEP:-0} == 1 ]]; then echo "real_programs: kept $tmp" >&2; else rm -rf "$tmp"; fi; }
trap cleanup EXIT
mkdir -p "$tmp/bin" "$tmp/log" "$tmp/reports" "$tmp/out"

# Deterministic input for the compressor: lines of words from a fixed
# vocabulary (about 3:1 under gzip -9), no file in the repository needed.
python3 - "$tmp/input4m.txt" <<'EOF'
import random, sys
r = random.Random(14)
words = [''.join(r.choice('abcdefghijklmnopqrstuvwxyz') for _ in range(r.randint(2, 9)))
         for _ in range(3000)]
out, n = [], 0
while n < 4 << 20:
    line = ' '.join(r.choice(words) for _ in range(r.randint(4, 14))) + '\n'
    out.append(line)
    n += len(line)
open(sys.argv[1], 'w').write(''.join(out))
EOF
head -c 300000 "$tmp/input4m.txt" >"$tmp/input300k.txt"

# --- the programs: name, language, sources+flags, arguments -----------------
# program_NAME_build SOURCE_ROOT   prints: LANG FLAGS-AND-SOURCES...
# program_NAME_args                prints: the run's arguments
programs=()
declare -A lang sources args check
if [[ -d $src/concurrentqueue ]]; then
  d=$src/concurrentqueue
  programs+=(cq_unittests)
  lang[cq_unittests]=c++
  # As build/makefile builds bin/unittests (its DEBUG_OPTS -O0 become -O1).
  sources[cq_unittests]="-std=c++11 -DMOODYCAMEL_STATIC -fno-elide-constructors
    $d/tests/common/simplethread.cpp $d/tests/common/systemtime.cpp $d/tests/unittests/unittests.cpp
    $d/c_api/blockingconcurrentqueue.cpp $d/c_api/concurrentqueue.cpp -lrt"
  args[cq_unittests]="--disable-prompt --iterations 1"
  check[cq_unittests]="All tests passed."
fi
if [[ -d $src/readerwriterqueue ]]; then
  d=$src/readerwriterqueue
  programs+=(rwq_bench)
  lang[rwq_bench]=c++
  # As benchmarks/makefile builds it, without -DNDEBUG: TEST_COUNT is 2, not 25.
  sources[rwq_bench]="-std=c++11 $d/benchmarks/bench.cpp $d/tests/common/simplethread.cpp
    $d/benchmarks/systemtime.cpp -lrt"
  args[rwq_bench]=""
  check[rwq_bench]="Average ops/s:"
fi
if [[ -d $src/pigz ]]; then
  d=$src/pigz z=$src/pigz/zopfli/src/zopfli
  for level in 11 9; do
    n=pigz_$level
    programs+=("$n")
    lang[$n]=c
    sources[$n]="$d/pigz.c $d/yarn.c $d/try.c $z/deflate.c $z/blocksplitter.c $z/tree.c $z/lz77.c
      $z/cache.c $z/hash.c $z/util.c $z/squeeze.c $z/katajainen.c $z/symbols.c -lm -lz"
    check[$n]=md5
  done
  args[pigz_11]="-p 2 -11 -c $tmp/input300k.txt"
  args[pigz_9]="-p 2 -9 -c $tmp/input4m.txt"
fi
if [[ -n ${REAL_PROGRAMS:-} ]]; then read -r -a programs <<<"$REAL_PROGRAMS"; fi
((${#programs[@]})) || die "no project found in $src"

# --- build: pigz_11 and pigz_9 share one binary -------------------------------
binary_of() { case $1 in pigz_*) echo pigz ;; *) echo "$1" ;; esac; }
build_one() {  # name cfg
  local n=$1 cfg=$2 b out cc
  b=$(binary_of "$n")
  out=$tmp/bin/$b.$cfg
  [[ -x $out ]] && return 0
  case ${lang[$n]}.$cfg in
    c.native) cc=(clang-14 -pthread) ;;  c.tsan) cc=(clang-14 -fsanitize=thread) ;;
    c.snag) cc=("$snag_cc") ;;
    c++.native) cc=(clang++-14 -pthread) ;;  c++.tsan) cc=(clang++-14 -fsanitize=thread) ;;
    c++.snag) cc=("$snag_cxx") ;;
  esac
  # shellcheck disable=SC2086  # sources is a word list
  if ! nice "${cc[@]}" -O1 -g -w ${sources[$n]} -o "$out" >"$tmp/log/$b.$cfg.build" 2>&1; then
    echo "real_programs: BUILD FAILED: $n ($cfg)" >&2
    head -20 "$tmp/log/$b.$cfg.build" | sed 's/^/    /' >&2
    rm -f "$out"
  fi
}
t0=$SECONDS
for n in "${programs[@]}"; do
  for cfg in native snag tsan; do build_one "$n" "$cfg"; done
done
echo "real_programs: built in $((SECONDS - t0)) s" >&2

# --- run (rows as bench/run.sh: workload cfg run seconds maxrss_kb exit races checksum cpu) ---
results=$tmp/results.tsv
: >"$results"
t0=$SECONDS
for ((r = 1; r <= runs; r++)); do
  for n in "${programs[@]}"; do
    for cfg in native snag tsan; do   # interleaved so load changes hit all three
      bin=$tmp/bin/$(binary_of "$n").$cfg base=$tmp/log/$n.$cfg.$r
      if [[ ! -x $bin ]]; then record_missing "$n" "$cfg" "$r"; continue; fi
      cd "$tmp/out"   # whatever a program writes beside it stays in the temp dir
      # shellcheck disable=SC2086  # args is a word list
      measure_run "$cfg" "$base" "$bin" ${args[$n]}
      cd - >/dev/null
      if [[ ${check[$n]} == md5 ]]; then
        sum=$(md5sum <"$base.out" | cut -c1-12)
      elif grep -qF "${check[$n]}" "$base.out"; then
        sum=ok
      else
        sum=missing
      fi
      record_run "$n" "$cfg" "$r" "$base" "$sum"
    done
  done
done
echo "real_programs: ran in $((SECONDS - t0)) s" >&2
echo
status=0
python3 "$here/summarize.py" "$results" || status=$?
if compgen -G "$tmp/reports/*" >/dev/null; then
  REAL_KEEP=1
  echo
  echo "race reports / failed runs kept in $tmp/reports:"
  ls "$tmp/reports" | sed 's/^/  /'
fi
exit $status
