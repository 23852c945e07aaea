#!/usr/bin/env bash
# Performance benchmark: snag race vs. ThreadSanitizer vs. native.
#
#   bench/run.sh [BUILD_DIR]        (default: the repository's build/)
#
# Builds every bench/workloads/*.cc three ways (native, snag, tsan), runs each
# build BENCH_RUNS times (default 3), takes the median wall time and peak RSS,
# and prints one table of slowdown / memory ratios against native plus the
# number of race reports each tool printed. See bench/README.md.
#
# Environment overrides:
#   SNAG_CXX            snag compiler wrapper (default BUILD_DIR/bin/snag-c++)
#   NATIVE_CXX          plain compiler, also used for tsan (default clang++-14)
#   BENCH_RUNS          runs per configuration (default 3)
#   BENCH_JOBS          parallel compile jobs (default 2)
#   BENCH_TIMEOUT       seconds before a single run is killed (default 120)
#   BENCH_WORKLOADS     space-separated subset of workload names
#   BENCH_SNAG_OPTIONS  SNAG_OPTIONS for snag runs (default engine=race)
#   BENCH_TSAN_OPTIONS  TSAN_OPTIONS for tsan runs
#                       (default halt_on_error=0 report_signal_unsafe=0)
#   BENCH_KEEP=1        keep the temp dir (binaries, logs, race reports)
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")

die() { echo "bench: error: $*" >&2; exit 1; }
tool=bench
# shellcheck source=bench/measure_run.sh
source "$here/measure_run.sh"

# --- arguments and tools ------------------------------------------------------
build=${1:-$repo/build}
if [[ $build != /* && ! -d $build && -d $repo/$build ]]; then build=$repo/$build; fi
snag_cxx=${SNAG_CXX:-$build/bin/snag-c++}
native_cxx=${NATIVE_CXX:-clang++-14}
runs=${BENCH_RUNS:-3}
jobs=${BENCH_JOBS:-2}
run_timeout=${BENCH_TIMEOUT:-120}
snag_options=${BENCH_SNAG_OPTIONS:-engine=race}
tsan_options=${BENCH_TSAN_OPTIONS:-halt_on_error=0 report_signal_unsafe=0}

if [[ ! -x $snag_cxx ]]; then
  die "snag compiler wrapper not found or not executable: $snag_cxx
       build snag first ('make build'), pass the build dir ('bench/run.sh BUILD_DIR'),
       or point SNAG_CXX at a snag-c++"
fi
command -v "$native_cxx" >/dev/null || die "$native_cxx not found (install clang-14)"
command -v python3 >/dev/null || die "python3 not found"
if ! command -v /usr/bin/time >/dev/null; then  # bench/measure.py takes peak RSS from it
  echo "bench: /usr/bin/time missing, installing the 'time' package" >&2
  sudo=; [[ $(id -u) -ne 0 ]] && sudo=sudo
  $sudo apt-get install -y -qq time >/dev/null || die "could not install 'time' (apt-get install time)"
fi
# A snag runtime built without optimization makes every number meaningless.
snag_root=$(cd "$(dirname "$snag_cxx")/.." && pwd)
if [[ -f $snag_root/CMakeCache.txt ]]; then
  btype=$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$snag_root/CMakeCache.txt")
  case $btype in
    Release|RelWithDebInfo|MinSizeRel) ;;
    *) echo "bench: warning: $snag_root is configured with CMAKE_BUILD_TYPE='${btype}'" \
            "(not optimized); snag numbers will be pessimistic" >&2 ;;
  esac
fi

if [[ -n ${BENCH_WORKLOADS:-} ]]; then
  read -r -a names <<<"$BENCH_WORKLOADS"
else
  names=()
  for f in "$here"/workloads/*.cc; do names+=("$(basename "$f" .cc)"); done
fi
((${#names[@]})) || die "no workloads in $here/workloads"
for n in "${names[@]}"; do [[ -f $here/workloads/$n.cc ]] || die "no workload $n"; done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/snag-bench.XXXXXX")
keep=${BENCH_KEEP:-0}
cleanup() { if [[ $keep == 1 ]]; then echo "bench: kept $tmp" >&2; else rm -rf "$tmp"; fi; }
trap cleanup EXIT
mkdir -p "$tmp/bin" "$tmp/log" "$tmp/reports"

echo "bench: snag wrapper $snag_cxx" >&2
echo "bench: ${#names[@]} workloads x {native,snag,tsan} x $runs runs; temp dir $tmp" >&2

# --- build --------------------------------------------------------------------
common=(-std=c++20 -O1 -g)
build_one() {  # name cfg
  local n=$1 cfg=$2 src=$here/workloads/$1.cc out=$tmp/bin/$1.$2
  local -a cmd
  case $cfg in
    native) cmd=("$native_cxx" "${common[@]}" -pthread) ;;
    snag)   cmd=("$snag_cxx" "${common[@]}") ;;
    tsan)   cmd=("$native_cxx" "${common[@]}" -fsanitize=thread) ;;
  esac
  if ! "${cmd[@]}" "$src" -o "$out" >"$tmp/log/$n.$cfg.build" 2>&1; then
    echo "bench: BUILD FAILED: $n ($cfg): ${cmd[*]} $src" >&2
    sed 's/^/    /' "$tmp/log/$n.$cfg.build" | head -20 >&2
    rm -f "$out"
  fi
}

t0=$SECONDS
running=0
for n in "${names[@]}"; do
  for cfg in native snag tsan; do
    build_one "$n" "$cfg" &
    running=$((running + 1))
    if ((running >= jobs)); then wait -n || true; running=$((running - 1)); fi
  done
done
wait
echo "bench: built in $((SECONDS - t0)) s" >&2

# --- run ----------------------------------------------------------------------
# results.tsv: workload cfg run seconds maxrss_kb exit races checksum cpu_seconds
results=$tmp/results.tsv
: >"$results"
t0=$SECONDS
for n in "${names[@]}"; do
  echo "bench: running $n" >&2
  for ((r = 1; r <= runs; r++)); do
    for cfg in native snag tsan; do   # interleaved so load changes hit all three
      bin=$tmp/bin/$n.$cfg base=$tmp/log/$n.$cfg.$r
      if [[ ! -x $bin ]]; then record_missing "$n" "$cfg" "$r"; continue; fi
      measure_run "$cfg" "$base" "$bin"
      record_run "$n" "$cfg" "$r" "$base" "$(awk '$1 == "checksum" { print $2; exit }' "$base.out")"
    done
  done
done
echo "bench: ran in $((SECONDS - t0)) s" >&2
echo

status=0
python3 "$here/summarize.py" "$results" || status=$?

if compgen -G "$tmp/reports/*" >/dev/null; then
  keep=1
  echo
  echo "race reports / failed runs kept in $tmp/reports:"
  ls "$tmp/reports" | sed 's/^/  /'
fi
exit $status
