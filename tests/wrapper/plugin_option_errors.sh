#!/usr/bin/env bash
# Wrapper options whose value only the plugin checks: an unknown
# -fsnag-instrument= kind, and an unreadable or malformed -fsnag-api-table=
# file. Each must fail the compilation with a message naming the problem,
# produce no object, and not look like a compiler crash (no "PLEASE submit a
# bug report", no stack dump).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

cat >x.cpp <<'EOF2'
int value;
int main() { value = 1; return value - 1; }
EOF2

# expect_clean_error <description> <regex naming the problem> <command...>
expect_clean_error() {
  local what=$1 pattern=$2
  shift 2
  rm -f out.o
  must_fail "$what" "$@" -c x.cpp -o out.o
  expect_grep "$pattern" last.err "$what: the message names the problem"
  expect_no_grep "PLEASE submit a bug report|Stack dump|^ *#[0-9]+ 0x" last.err \
    "$what: reported as a compiler crash"
  [[ ! -e out.o ]] || fail "$what: an object was produced"
}

expect_clean_error "-fsnag-instrument=bogus" "bogus" "$SNAG_CXX" -fsnag-instrument=bogus
expect_clean_error "-fsnag-instrument=memory,bogus" "bogus" "$SNAG_CXX" -fsnag-instrument=memory,bogus
expect_clean_error "-fsnag-api-table=<missing file>" "no-such-table\.txt" \
  "$SNAG_CXX" -fsnag-api-table=no-such-table.txt
printf 'myapp::Cache put sometimes\n' >bad-table.txt
expect_clean_error "-fsnag-api-table=<malformed file>" "bad-table\.txt:1" \
  "$SNAG_CXX" -fsnag-api-table=bad-table.txt

echo "PASS [$TEST_NAME]"
