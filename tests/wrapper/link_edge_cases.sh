#!/usr/bin/env bash
# Less common ways of asking clang to link (or not) that the wrapper must
# classify like their usual spellings:
#   -x <lang> still in effect at the end of the command line;
#   --shared (clang's alias of -shared);
#   --static and -static-pie (refused like -static);
#   -r (a relocatable link: no runtime in the partial object);
#   -g modifiers (-gz, -gsplit-dwarf, ...) that do not by themselves ask for
#   debug information (the wrapper must still add -g).
# Each case runs on its own; all are reported before the test fails.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

cat >prog.c <<'EOF'
#include <stdio.h>
int value;
int helper(void);
int main(void) {
  value = helper(); /* MARK-EDGE-WRITE */
  printf("value=%d\n", value);
  return 0;
}
EOF
cat >helper.c <<'EOF'
int helper(void) { return 5; }
EOF
write_line=$(line_of MARK-EDGE-WRITE prog.c)

failures=()
run_case() {
  local name=$1
  mkdir "case-$name"
  if ! (cd "case-$name" && "case_$name"); then
    failures+=("$name")
  fi
}

# -x c applies to every later input; the runtime archive the wrapper appends
# must not be read as C source.
case_x_language() {
  must "snag-cc -x c <stdin> (compile and link)" "$SNAG_CC" -x c - ../helper.c -o prog <../prog.c
  expect_section prog snag_runtime
  expect_output "value=5" "running the program built from standard input" ./prog
  cp ../prog.c prog.inc
  must "snag-c++ -x c++ prog.inc (compile and link)" "$SNAG_CXX" -x c++ ../helper.c prog.inc -o prog2
  expect_section prog2 snag_runtime
}

# --shared is -shared: a shared library gets no runtime.
case_double_dash_shared() {
  must "compile helper.c -fPIC" "$SNAG_CC" -fPIC -c ../helper.c -o helper.o
  must "snag-cc --shared" "$SNAG_CC" --shared helper.o -o libhelper.so
  expect_section libhelper.so snag_sites
  expect_no_section libhelper.so snag_runtime
}

# Every spelling of a static link is refused with the wrapper's one-line error.
case_static_spellings() {
  local flag
  for flag in --static -static-pie; do
    must_fail "snag-cc $flag" "$SNAG_CC" "$flag" ../prog.c ../helper.c -o static_prog
    [[ $(grep -c '' "$WORK/last.err") -eq 1 ]] ||
      { show_file "$WORK/last.err" 10; fail "snag-cc $flag: expected one line of error"; }
    expect_grep "^snag-cc: error: .*static" "$WORK/last.err" "snag-cc $flag: refused by the wrapper"
  done
}

# ld -r combines objects into one object; the runtime goes in only at the
# final link, or it would be linked twice.
case_relocatable() {
  must "compile" "$SNAG_CC" -c ../prog.c ../helper.c
  must "snag-cc -r" "$SNAG_CC" -r prog.o helper.o -o combined.o
  nm combined.o >nm.txt 2>&1
  expect_no_grep " T __snag_register_sites$" nm.txt "the partial object must not contain the runtime"
  must "link the partial object" "$SNAG_CC" combined.o -o prog
  expect_output "value=5" "running the program linked from combined.o" ./prog
}

# -g<modifier> options that do not turn debug information on.
case_debug_modifiers() {
  local flag lost=()
  for flag in -gz -gsplit-dwarf -grecord-command-line -gno-column-info -gdwarf-4 -gline-tables-only -g3; do
    must "snag-cc $flag" "$SNAG_CC" "$flag" ../prog.c ../helper.c -o "prog$flag"
    record "events$flag.txt" "./prog$flag"
    grep -Eq " T0 write .* at=[^ ]*/prog\.c:$write_line:" "events$flag.txt" || lost+=("$flag")
  done
  [[ ${#lost[@]} -eq 0 ]] ||
    fail "the write at prog.c:$write_line has no source line when built with: ${lost[*]}"
}

run_case x_language
run_case double_dash_shared
run_case static_spellings
run_case relocatable
run_case debug_modifiers

[[ ${#failures[@]} -eq 0 ]] || fail "failing cases: ${failures[*]}"
echo "PASS [$TEST_NAME]"
