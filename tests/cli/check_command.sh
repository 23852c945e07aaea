#!/usr/bin/env bash
# Runs a command and checks its exit status and output; used by the CLI tests
# because CTest alone cannot check the exit status and the output together.
#
#   check_command.sh --status N [--stdout RE]... [--stderr RE]...
#                    [--no-stdout RE]... [--no-stderr RE]... [--stderr-lines N]
#                    [--stdin FILE] -- COMMAND [ARGS...]
#
# RE is an extended regular expression (grep -E) that some line of the stream
# must match (--stdout/--stderr) or no line may match (--no-...).
# --stderr-lines checks that stderr has exactly N lines ("one-line errors").
set -uo pipefail

status=""
stdin=/dev/null
stderr_lines=""
checks=()
while [ $# -gt 0 ]; do
  case "$1" in
    --status) status="$2"; shift 2 ;;
    --stdin) stdin="$2"; shift 2 ;;
    --stderr-lines) stderr_lines="$2"; shift 2 ;;
    --stdout|--stderr|--no-stdout|--no-stderr) checks+=("$1" "$2"); shift 2 ;;
    --) shift; break ;;
    *) echo "check_command.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
if [ -z "$status" ] || [ $# -eq 0 ]; then
  echo "check_command.sh: need --status N and a command after --" >&2
  exit 2
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$@" <"$stdin" >"$work/stdout" 2>"$work/stderr"
actual=$?

failures=()
[ "$actual" -eq "$status" ] || failures+=("exit status $actual, expected $status")
for ((i = 0; i < ${#checks[@]}; i += 2)); do
  kind=${checks[i]}
  pattern=${checks[i + 1]}
  case "$kind" in
    --stdout) grep -Eq -- "$pattern" "$work/stdout" || failures+=("stdout does not match: $pattern") ;;
    --stderr) grep -Eq -- "$pattern" "$work/stderr" || failures+=("stderr does not match: $pattern") ;;
    --no-stdout) ! grep -Eq -- "$pattern" "$work/stdout" || failures+=("stdout matches: $pattern") ;;
    --no-stderr) ! grep -Eq -- "$pattern" "$work/stderr" || failures+=("stderr matches: $pattern") ;;
  esac
done
if [ -n "$stderr_lines" ]; then
  lines=$(wc -l <"$work/stderr")
  [ "$lines" -eq "$stderr_lines" ] || failures+=("stderr has $lines lines, expected $stderr_lines")
fi

if [ ${#failures[@]} -gt 0 ]; then
  echo "command: $*"
  printf 'FAILED: %s\n' "${failures[@]}"
  echo "---- stdout ----"; cat "$work/stdout"
  echo "---- stderr ----"; cat "$work/stderr"
  exit 1
fi
exit 0
