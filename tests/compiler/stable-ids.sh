#!/usr/bin/env bash
# Site ids are stable: compiling the same function with unrelated functions
# added, removed or reordered around it (on other lines of the same file)
# gives it the same site ids, including those of the code inlined into it
# and their inline sites. Also checks every id against the formula of
# docs/site-table.md, computed here independently:
#   FNV-1a-64(linkage "|" file "|" line "|" column "|" kind "|" ordinal)
# or, for a site with a parent (the S line's 8th field),
#   FNV-1a-64(linkage "|" file "|" line "|" column "|" kind "|" parent "|" ordinal)
#
# usage: stable-ids.sh <clang++> <libsnag_pass.so> <inputs/stable-ids.cpp>
set -euo pipefail
export LC_ALL=C

if [[ $# -ne 3 ]]; then
  echo "usage: $0 <clang++> <plugin> <source>" >&2
  exit 2
fi
clangxx=$1 plugin=$2
source="$(cd "$(dirname "$3")" && pwd)/$(basename "$3")"
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=site-table.sh
. "$here/site-table.sh"
unset SNAG_INSTRUMENT SNAG_API_TABLE

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# fnv1a64 <string>: prints the hash as 16 hex digits. Bash integers are
# 64-bit and wrap on overflow, which is the arithmetic FNV needs.
fnv1a64() {
  local text=$1 hash=-3750763034362895579 i byte # 14695981039346656037
  for ((i = 0; i < ${#text}; i++)); do
    printf -v byte '%d' "'${text:i:1}"
    hash=$(((hash ^ byte) * 1099511628211))
  done
  printf '%016x' "$hash"
}

# sites <table>: "linkage id kind line column [parent]" per S line, and
# checks each id against the formula.
sites() {
  local table=$1 tag id kind line column file_index name_index parent key
  local -a files=() names=()
  local -A ordinals=()
  while IFS=$'\t' read -r tag a b c d e f g; do
    case $tag in
      F) files[a]=$b ;;
      N) names[a]=$c ;;
      S)
        id=$a kind=$b line=$c column=$d file_index=$e name_index=$f parent=$g
        key="${names[name_index]}|${files[file_index]}|$line|$column|$kind"
        if [[ -n $parent ]]; then
          key="$key|$parent"
        fi
        local ordinal=${ordinals[$key]:-0}
        ordinals[$key]=$((ordinal + 1))
        local expected
        expected=$(fnv1a64 "$key|$ordinal")
        if [[ $id != "$expected" ]]; then
          echo "site $id: expected id $expected for '$key|$ordinal'" >&2
          return 1
        fi
        echo "${names[name_index]} $id $kind $line $column $parent"
        ;;
    esac
  done <"$table"
}

for variant in 1 2; do
  "$clangxx" -g -O1 -S -emit-llvm "-fpass-plugin=$plugin" "-DVARIANT=$variant" \
    "$source" -o "$work/v$variant.ll"
  extract_site_table "$work/v$variant.ll" "$work/v$variant.txt"
  check_site_table "$work/v$variant.txt" "$work/v$variant.ll"
  sites "$work/v$variant.txt" >"$work/v$variant.sites"
done

# work()'s sites, and those of helper(), which is inlined into work() only.
grep -E '^(_Z4worki|_ZL6helperi) ' "$work/v1.sites" | sort >"$work/work1"
grep -E '^(_Z4worki|_ZL6helperi) ' "$work/v2.sites" | sort >"$work/work2"
count=$(wc -l <"$work/work1")
if [[ $count -lt 4 ]]; then
  echo "expected at least 4 sites in work(), found $count" >&2
  cat "$work/v1.txt" >&2
  exit 1
fi
# The inlined code: an inline site in work() and helper()'s sites under it.
inline_site=$(awk '$1 == "_Z4worki" && $3 == 8 && NF == 5 { print $2 }' "$work/work1")
if [[ -z $inline_site ]] ||
  ! awk -v p="$inline_site" '$1 == "_ZL6helperi" && $6 == p { found = 1 } END { exit !found }' "$work/work1"; then
  echo "expected helper()'s sites with an inline site of work() as parent" >&2
  cat "$work/v1.txt" >&2
  exit 1
fi
if ! diff -u "$work/work1" "$work/work2"; then
  echo "the site ids of work() changed with unrelated code" >&2
  exit 1
fi
# The variants really differ.
grep -q '^_Z15unrelated_afteri ' "$work/v1.sites"
grep -q '^_Z16unrelated_beforei ' "$work/v2.sites"
echo "work() keeps its $count site ids; all ids match the formula"
