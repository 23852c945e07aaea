#!/usr/bin/env bash
# Runs one compiler-pass test: compiles <source> with the snag plugin and
# checks the result with FileCheck, using <source> as the check file.
#
# usage: run-test.sh <clang> <clang++> <FileCheck> <libsnag_pass.so> <source>
#
# The source says how to compile it with `// RUN:` lines (`; RUN:` in .ll
# files; no RUN line means one run with the defaults). Each RUN line is one compilation; its words are
#   NAME=value      set in the compiler's environment (SNAG_INSTRUMENT=atomics)
#   check=A,B       FileCheck prefixes (default CHECK)
#   expect=ir       check the textual IR (default)
#   expect=table    check the decoded site table (docs/site-table.md)
#   expect=error    the compilation must fail cleanly (exit status 1); check
#                   its stderr
#   anything else   an extra compiler flag (-O0, -std=c++20, ...)
# In words, %S is the source's directory. The compiler always gets
#   -g -O1 -S -emit-llvm -fno-discard-value-names -fpass-plugin=<plugin>
# before the extra flags, so a later -O0/-O3 wins. (Value names make the
# checks readable: %p rather than %0.) Site ids are printed as signed i64s;
# match them with {{-?[0-9]+}}. FileCheck gets
# -DSOURCE=<source path>. Every successful run also checks that the site
# table is well formed and lists every site id the IR uses.
set -euo pipefail

if [[ $# -ne 5 ]]; then
  echo "usage: $0 <clang> <clang++> <FileCheck> <plugin> <source>" >&2
  exit 2
fi
clang=$1 clangxx=$2 filecheck=$3 plugin=$4 source=$5
# LLVM 14's opt, found next to FileCheck (FileCheck-14 -> opt-14, or the
# unsuffixed pair in /usr/lib/llvm-14/bin).
opt=$(dirname "$filecheck")/$(basename "$filecheck" | sed 's/FileCheck/opt/')
source_dir=$(cd "$(dirname "$source")" && pwd)
source="$source_dir/$(basename "$source")"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=site-table.sh
. "$here/site-table.sh"

case $source in
  *.c | *.ll) compiler=$clang ;;
  *) compiler=$clangxx ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

mapfile -t runs < <(sed -n -E 's#^[[:space:]]*(//|;)[[:space:]]*RUN:[[:space:]]*(.*)$#\2#p' "$source")
if [[ ${#runs[@]} -eq 0 ]]; then
  runs=("")
fi

run_number=0
for run in "${runs[@]}"; do
  run_number=$((run_number + 1))
  env_vars=() flags=() prefixes=CHECK expect=ir
  for word in $run; do
    word=${word//%S/$source_dir}
    case $word in
      check=*) prefixes=${word#check=} ;;
      expect=*) expect=${word#expect=} ;;
      [A-Z_]*=*) env_vars+=("$word") ;;
      *) flags+=("$word") ;;
    esac
  done
  echo "--- run $run_number: ${env_vars[*]} ${flags[*]} (check=$prefixes expect=$expect)"

  ir=$work/out.ll stderr=$work/stderr.txt
  # Only the RUN line decides these, not the caller's environment.
  unset SNAG_INSTRUMENT SNAG_API_TABLE
  status=0
  env "${env_vars[@]}" "$compiler" -g -O1 -S -emit-llvm -fno-discard-value-names \
    "-fpass-plugin=$plugin" \
    "${flags[@]}" "$source" -o "$ir" 2>"$stderr" || status=$?

  if [[ $expect == error ]]; then
    if [[ $status -ne 1 ]]; then
      echo "expected the compilation to fail with status 1, got $status" >&2
      cat "$stderr" >&2
      exit 1
    fi
    "$filecheck" "--check-prefixes=$prefixes" "-DSOURCE=$source" "$source" <"$stderr"
    continue
  fi

  if [[ $status -ne 0 ]]; then
    echo "compilation failed with status $status" >&2
    cat "$stderr" >&2
    exit 1
  fi
  # clang does not verify the module it prints: an instrumentation that
  # breaks dominance would only crash code generation later.
  if ! "$opt" -verify -disable-output "$ir" 2>"$stderr"; then
    echo "the instrumented IR does not verify:" >&2
    cat "$stderr" >&2
    exit 1
  fi
  table=$work/table.txt
  extract_site_table "$ir" "$table"
  check_site_table "$table" "$ir"
  case $expect in
    ir) input=$ir ;;
    table) input=$table ;;
    *) echo "unknown expect=$expect" >&2; exit 2 ;;
  esac
  "$filecheck" "--check-prefixes=$prefixes" "-DSOURCE=$source" "$source" <"$input"
done
echo "--- all $run_number run(s) passed"
