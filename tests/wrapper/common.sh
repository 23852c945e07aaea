# shellcheck shell=bash
# Shared set-up and assertions of the wrapper tests. Each test script is run
# as `bash <test>.sh <bin dir>` and sources this file first: it checks the
# toolchain, makes a fresh temporary directory (removed on exit), cd's into it
# and clears the environment variables that would change what snag does.
#
# Assertions print "FAIL [<test>]: <what>" with the relevant output and exit 1.

set -u

if [[ $# -lt 1 || ! -d $1 ]]; then
  echo "usage: $0 <snag bin dir>" >&2
  exit 2
fi

TEST_NAME=$(basename "$0" .sh)
# shellcheck disable=SC2034  # used by the scripts that source this file
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BIN=$(cd "$1" && pwd)
PREFIX=$(dirname "$BIN")
SNAG_CC=$BIN/snag-cc
SNAG_CXX=$BIN/snag-c++
export PATH="$BIN:$PATH"

# Settings a developer may have exported must not leak into the tests.
unset SNAG_OPTIONS SNAG_INSTRUMENT SNAG_API_TABLE SNAG_CLANG SNAG_CLANGXX
unset CFLAGS CXXFLAGS CPPFLAGS LDFLAGS MAKEFLAGS MFLAGS CMAKE_GENERATOR

fail() {
  echo "FAIL [$TEST_NAME]: $*" >&2
  exit 1
}

for tool in "$SNAG_CC" "$SNAG_CXX"; do
  [[ -x $tool ]] || fail "$tool is missing (build the snag-cc target)"
done
for piece in libsnag_pass.so libsnag_rt.a snag_rt.dyn; do
  [[ -f $PREFIX/lib/snag/$piece ]] || fail "$PREFIX/lib/snag/$piece is missing (build the whole project)"
done

WORK=$(mktemp -d "${TMPDIR:-/tmp}/snag-wrapper-$TEST_NAME.XXXXXX") || fail "mktemp -d failed"
trap 'cd /; rm -rf "$WORK"' EXIT
cd "$WORK" || fail "cannot cd to $WORK"

# show_file <file> [max lines]: a file's content, for failure messages.
show_file() {
  local max=${2:-40}
  if [[ -s $1 ]]; then
    echo "---- $1 (first $max lines) ----" >&2
    head -n "$max" "$1" | cut -c 1-300 >&2
    echo "----" >&2
  fi
}

# must <description> <command...>: runs the command with its output in
# $WORK/last.log; fails the test when it exits non-zero.
must() {
  local what=$1
  shift
  "$@" >"$WORK/last.log" 2>&1
  local rc=$?
  if [[ $rc -ne 0 ]]; then
    show_file "$WORK/last.log" 30
    fail "$what: exit status $rc from: $*"
  fi
}

# must_fail <description> <command...>: the command must exit non-zero; its
# stdout goes to $WORK/last.out and its stderr to $WORK/last.err.
must_fail() {
  local what=$1
  shift
  "$@" >"$WORK/last.out" 2>"$WORK/last.err"
  local rc=$?
  if [[ $rc -eq 0 ]]; then
    show_file "$WORK/last.err"
    fail "$what: expected a failure, but it succeeded: $*"
  fi
}

# expect_grep <extended regex> <file> <description>
expect_grep() {
  if ! grep -Eq -- "$1" "$2"; then
    show_file "$2" 60
    fail "$3: no line of $2 matches /$1/"
  fi
}

# expect_no_grep <extended regex> <file> <description>
expect_no_grep() {
  if grep -Eq -- "$1" "$2"; then
    echo "---- matching lines of $2 ----" >&2
    grep -E -m 10 -- "$1" "$2" >&2
    fail "$3: unexpected lines in $2 match /$1/"
  fi
}

# expect_section <elf file> <section>: readelf -S lists the section.
expect_section() {
  readelf -SW "$1" >"$WORK/sections.txt" 2>&1 || { show_file "$WORK/sections.txt"; fail "readelf -S $1 failed"; }
  grep -Eq "[[:space:]]$2[[:space:]]" "$WORK/sections.txt" ||
    fail "$1 has no ELF section $2 (was it built through the snag wrapper?)"
}

# expect_no_section <elf file> <section>
expect_no_section() {
  readelf -SW "$1" >"$WORK/sections.txt" 2>&1 || { show_file "$WORK/sections.txt"; fail "readelf -S $1 failed"; }
  if grep -Eq "[[:space:]]$2[[:space:]]" "$WORK/sections.txt"; then
    fail "$1 has an ELF section $2 but should not"
  fi
}

# expect_output <expected stdout> <description> <command...>: the command
# succeeds and prints exactly the expected text. Instrumented programs run
# with SNAG_OPTIONS=engine=none (the runtime and its interceptors, no
# detection): these tests are about how the program was built, so a
# detection engine's findings or exit status must not decide them.
expect_output() {
  local expected=$1 what=$2
  shift 2
  local out rc
  out=$(SNAG_OPTIONS=engine=none "$@" 2>"$WORK/last.err")
  rc=$?
  if [[ $rc -ne 0 ]]; then
    show_file "$WORK/last.err"
    fail "$what: exit status $rc from: $*"
  fi
  [[ $out == "$expected" ]] || fail "$what: printed '$out', expected '$expected'"
}

# record <events file> <command...>: runs an instrumented program with the
# record engine writing its event stream to the file; the program must
# succeed and the stream must not be empty.
record() {
  local events=$1
  shift
  rm -f "$events"
  SNAG_OPTIONS="engine=record:events=$events" "$@" >"$WORK/record.out" 2>"$WORK/record.err"
  local rc=$?
  if [[ $rc -ne 0 ]]; then
    show_file "$WORK/record.err"
    show_file "$events"
    fail "instrumented run exited with status $rc: $*"
  fi
  [[ -s $events ]] || { show_file "$WORK/record.err"; fail "the record engine wrote no events to $events for: $*"; }
}

# line_of <marker> <file>: the line number of the (single) line containing the marker.
line_of() {
  local n
  n=$(grep -n -F -- "$1" "$2" | cut -d: -f1)
  [[ $n =~ ^[0-9]+$ ]] || fail "marker '$1' not found exactly once in $2"
  echo "$n"
}
