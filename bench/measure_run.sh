# Sourced by bench/run.sh and bench/real_programs.sh: one measured run of one
# configuration (native, snag or tsan) and its row in results.tsv.
#
# Callers set: here (bench/), tmp (temp dir with reports/), results (the TSV),
# run_timeout, snag_options, tsan_options, and a `tool` name for messages.

# measure_run CFG BASE BIN [ARGS...]
#   Runs BIN under bench/measure.py with only CFG's options in the environment;
#   stdout to BASE.out, stderr to BASE.err, measure.py's line to BASE.time.
#   Sets: rc secs rss cpu races.
measure_run() {
  local cfg=$1 base=$2 bin=$3 user sys
  shift 3
  rc=0
  case $cfg in
    native) env -u SNAG_OPTIONS -u TSAN_OPTIONS \
              "$here/measure.py" "$base.time" "$run_timeout" "$bin" "$@" >"$base.out" 2>"$base.err" || rc=$? ;;
    snag)   env -u TSAN_OPTIONS SNAG_OPTIONS="$snag_options" \
              "$here/measure.py" "$base.time" "$run_timeout" "$bin" "$@" >"$base.out" 2>"$base.err" || rc=$? ;;
    tsan)   env -u SNAG_OPTIONS TSAN_OPTIONS="$tsan_options" \
              "$here/measure.py" "$base.time" "$run_timeout" "$bin" "$@" >"$base.out" 2>"$base.err" || rc=$? ;;
  esac
  secs= rss= user= sys=
  read -r secs rss user sys < <(tail -n 1 "$base.time") || true
  cpu=NA
  [[ -n $user && -n $sys ]] && cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.4f", u + s }')
  case $cfg in
    snag) races=$(grep -c '^WARNING: snag: data race' "$base.err" || true) ;;
    tsan) races=$(grep -c '^WARNING: ThreadSanitizer: data race' "$base.err" || true) ;;
    *)    races=0 ;;
  esac
}

# record_run NAME CFG RUN BASE CHECKSUM
#   After measure_run: keeps the first report of each tool and every failed
#   run's stderr in $tmp/reports, and appends the row
#   (workload cfg run seconds maxrss_kb exit races checksum cpu_seconds).
record_run() {
  local n=$1 cfg=$2 r=$3 base=$4 sum=$5
  if ((races > 0)) && [[ ! -f $tmp/reports/$n.$cfg.txt ]]; then
    cp "$base.err" "$tmp/reports/$n.$cfg.txt"
  fi
  if [[ $rc -ne 0 && $rc -ne 66 ]] || [[ $rc -eq 66 && $cfg == native ]]; then
    echo "$tool: $n ($cfg) run $r exited with status $rc; stderr tail:" >&2
    tail -n 5 "$base.err" | sed 's/^/    /' >&2
    cp "$base.err" "$tmp/reports/$n.$cfg.failed.txt"
  fi
  printf '%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$cfg" "$r" "${secs:-NA}" "${rss:-NA}" \
    "$rc" "$races" "${sum:--}" "$cpu" >>"$results"
}

# record_missing NAME CFG RUN: the row of a configuration that did not build.
record_missing() {
  printf '%s\t%s\t%d\tNA\tNA\tbuild\t0\t-\tNA\n' "$1" "$2" "$3" >>"$results"
}
