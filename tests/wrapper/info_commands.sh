#!/usr/bin/env bash
# Commands that do not link: --version, -E, -fsyntax-only, -M/-MM, -S,
# -dumpversion, -print-*, -###. They succeed, produce what clang produces,
# write no executable, and the clang command the wrapper runs (shown by
# -fsnag-verbose) does not name the runtime. -E still sees __SNAG__.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

cat >x.c <<'EOF'
int snag_is = __SNAG__;
int main(void) { return snag_is - 1; }
EOF
cat >bad.c <<'EOF'
int main(void) { return undeclared_name; }
EOF

RUNTIME_ARGS="libsnag_rt\.a|--whole-archive|snag_rt\.dyn"

# no_link <description> <command...>: runs the command with -fsnag-verbose
# appended; it must succeed without linking the runtime or making a.out.
# Its stdout is left in out.txt, its stderr in err.txt.
no_link() {
  local what=$1
  shift
  rm -f a.out
  "$@" -fsnag-verbose >out.txt 2>err.txt
  local rc=$?
  if [[ $rc -ne 0 ]]; then
    show_file err.txt
    fail "$what: exit status $rc from: $*"
  fi
  # -fsnag-verbose prints the clang command on stderr before running it.
  expect_grep "clang" err.txt "$what: -fsnag-verbose shows the clang command"
  expect_no_grep "$RUNTIME_ARGS" err.txt "$what: the runtime must not be linked"
  [[ ! -e a.out ]] || fail "$what: produced a.out"
}

for tool in "$SNAG_CC" "$SNAG_CXX"; do
  name=${tool##*/}
  no_link "$name --version" "$tool" --version
  expect_grep "clang version" out.txt "$name --version prints clang's version"
  # Nothing but the version query is passed on.
  expect_no_grep "fpass-plugin" err.txt "$name --version: no plugin for a version query"

  no_link "$name -dumpversion" "$tool" -dumpversion
  expect_grep "^[0-9]+(\.[0-9]+)*$" out.txt "$name -dumpversion prints a version number"

  no_link "$name -print-prog-name=ld" "$tool" -print-prog-name=ld
  expect_grep "ld" out.txt "$name -print-prog-name=ld"
done

# -E: preprocess only, with the wrapper's definitions.
no_link "snag-c++ -E x.c" "$SNAG_CXX" -E x.c
expect_grep "^int snag_is = 1;" out.txt "snag-c++ -E: __SNAG__ expands to 1"
no_link "snag-cc -E x.c -o x.i" "$SNAG_CC" -E x.c -o x.i
expect_grep "^int snag_is = 1;" x.i "snag-cc -E -o x.i"
# -E from standard input.
no_link "snag-cc -x c -E -" "$SNAG_CC" -x c -E - <x.c
expect_grep "^int snag_is = 1;" out.txt "snag-cc -E of standard input"

# -fsyntax-only: checks, writes nothing, and does fail on an error.
no_link "snag-cc -fsyntax-only" "$SNAG_CC" -fsyntax-only x.c
[[ ! -s out.txt ]] || fail "-fsyntax-only printed on stdout"
[[ -z $(ls ./*.o 2>/dev/null) ]] || fail "-fsyntax-only wrote an object"
no_link "snag-c++ -fsyntax-only" "$SNAG_CXX" -x c++ -fsyntax-only x.c
must_fail "snag-cc -fsyntax-only on an invalid file" "$SNAG_CC" -fsyntax-only bad.c
expect_grep "undeclared_name" last.err "the error in bad.c is reported"

# -M, -MM: dependency rules only.
no_link "snag-cc -M" "$SNAG_CC" -M x.c
expect_grep "^x\.o: x\.c" out.txt "snag-cc -M prints the rule for x.o"
no_link "snag-c++ -MM" "$SNAG_CXX" -x c++ -MM x.c
expect_grep "^x\.o: x\.c" out.txt "snag-c++ -MM prints the rule for x.o"
no_link "snag-cc -M -MF deps.d" "$SNAG_CC" -M -MF deps.d x.c
expect_grep "^x\.o: x\.c" deps.d "snag-cc -M -MF writes the rule to deps.d"
# -MD with -c compiles and writes the rule (and still does not link).
no_link "snag-cc -MD -c" "$SNAG_CC" -MD -c x.c
[[ -f x.o && -f x.d ]] || fail "snag-cc -MD -c did not write x.o and x.d"
expect_section x.o snag_sites

# -S: assembly, instrumented (the site table is in it), not linked.
no_link "snag-cc -S" "$SNAG_CC" -S x.c -o x.s
expect_grep "\.section[[:space:]]+\"?snag_sites" x.s "snag-cc -S: the assembly carries the site table"

# -###: shows the commands, runs none of them.
no_link "snag-cc -###" "$SNAG_CC" -### x.c -o prog
[[ ! -e prog ]] || fail "snag-cc -### produced prog"

# For contrast, the same source linked: the runtime is named.
must "snag-cc x.c" "$SNAG_CC" -fsnag-verbose x.c -o prog
expect_grep "$RUNTIME_ARGS" last.log "a real link names the runtime"
SNAG_OPTIONS=engine=none ./prog || fail "x.c linked by snag-cc exits with $? (expected 0: __SNAG__ == 1)"

echo "PASS [$TEST_NAME]"
