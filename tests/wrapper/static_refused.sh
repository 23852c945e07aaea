#!/usr/bin/env bash
# What the wrappers refuse, and how: a static link, an unknown or empty
# -fsnag- option and an unreadable response file each fail with a non-zero
# status and one line "snag-cc: error: ..." that names the problem, without
# producing an output file. (An unknown -fsnag-instrument= kind is
# unknown_kind.sh's subject.)
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

cat >x.c <<'EOF'
int main(void) { return 0; }
EOF

# expect_one_line_error <tool name> <regex the message must match>: checks
# $WORK/last.err after must_fail.
expect_one_line_error() {
  local tool=$1 pattern=$2 lines
  lines=$(grep -c '' last.err)
  if [[ $lines -ne 1 ]]; then
    show_file last.err
    fail "expected exactly one line of error from $tool, got $lines"
  fi
  expect_grep "^$tool: error: " last.err "the error names the wrapper"
  expect_grep "$pattern" last.err "the error names the problem"
  [[ ! -s last.out ]] || { show_file last.out; fail "$tool printed on stdout while failing"; }
}

# -static: refused for a link, by both names, wherever it is on the line.
must_fail "snag-cc -static x.c" "$SNAG_CC" -static x.c -o static_prog
expect_one_line_error snag-cc "-static"
[[ ! -e static_prog ]] || fail "snag-cc -static produced static_prog"

must_fail "snag-c++ -static" "$SNAG_CXX" -x c++ x.c -O2 -static -o static_prog
expect_one_line_error "snag-c\+\+" "-static"
[[ ! -e static_prog ]] || fail "snag-c++ -static produced static_prog"

# The refusal happens before clang runs: even a missing source gives the
# -static error, not clang's.
must_fail "snag-cc -static missing.c" "$SNAG_CC" -static missing.c
expect_one_line_error snag-cc "-static"

# -static inside a response file is seen too.
echo '-static x.c -o static_prog' >static.rsp
must_fail "snag-cc @static.rsp" "$SNAG_CC" @static.rsp
expect_one_line_error snag-cc "-static"

# Compiling (not linking) with -static is harmless and allowed.
must "snag-cc -static -c" "$SNAG_CC" -static -c x.c -o x.o
[[ -f x.o ]] || fail "snag-cc -static -c produced no object"

# Unknown wrapper option.
must_fail "snag-cc -fsnag-foo" "$SNAG_CC" -fsnag-foo x.c -o prog
expect_one_line_error snag-cc "-fsnag-foo"
[[ ! -e prog ]] || fail "snag-cc -fsnag-foo produced prog"
must_fail "snag-c++ -fsnag-foo=1 -c" "$SNAG_CXX" -c -fsnag-foo=1 x.c
expect_one_line_error "snag-c\+\+" "-fsnag-foo=1"

# Wrapper options without their value.
must_fail "snag-cc -fsnag-instrument=" "$SNAG_CC" -fsnag-instrument= x.c -o prog
expect_one_line_error snag-cc "-fsnag-instrument="
must_fail "snag-cc -fsnag-api-table=" "$SNAG_CC" -fsnag-api-table= x.c -o prog
expect_one_line_error snag-cc "-fsnag-api-table="
[[ ! -e prog ]] || fail "a failed wrapper option produced prog"

# A response file that does not exist.
must_fail "snag-cc @missing.rsp" "$SNAG_CC" @missing.rsp
expect_one_line_error snag-cc "missing\.rsp"
expect_grep "response file" last.err "the error says it is a response file"
mkdir unreadable.rsp
must_fail "snag-cc @<directory>" "$SNAG_CC" -c @unreadable.rsp
[[ -s last.err ]] || fail "reading a directory as a response file failed silently"

echo "PASS [$TEST_NAME]"
