# Helpers for reading the site table (docs/site-table.md) out of the textual
# IR the pass produces. Sourced by run-test.sh and stable-ids.sh.

# extract_site_table <ir file> <out file>
# Writes the decoded table (empty if the module has none).
extract_site_table() {
  local line content
  line=$(grep -m1 -E '^@__snag_sites = ' "$1" || true)
  if [[ -z $line ]]; then
    : >"$2"
    return
  fi
  content=${line#*c\"}
  content=${content%%\", section*}
  # The IR writer escapes bytes as \XX (hex), including \ itself as \5C.
  printf '%b' "${content//\\/\\x}" >"$2"
}

# check_site_table <table file> <ir file>
# Fails with a message unless the table is well formed and lists every site
# id the IR passes to a hook or stores into __snag_call_site. Parents (the
# optional 8th field of S lines) must be inline sites listed earlier, and
# every inline site must be a parent.
check_site_table() {
  local table=$1 ir=$2
  awk -F'\t' '
    BEGIN { files = 0; names = 0 }
    function fail(msg) { print "site table line " NR ": " msg ": " $0 > "/dev/stderr"; bad = 1; exit 1 }
    NR == 1 && ($1 != "M" || NF != 3) { fail("expected the M line first") }
    $1 == "M" { if (NR != 1) fail("second M line"); next }
    $1 == "F" { if (NF != 3 || $2 != files) fail("bad F line"); files++; next }
    $1 == "N" { if (NF != 4 || $2 != names) fail("bad N line"); names++; next }
    $1 == "S" {
      if ((NF != 7 && NF != 8) || length($2) != 16 || $2 !~ /^[0-9a-f]+$/ || $3 !~ /^[0-8]$/) fail("bad S line")
      if ($6 >= files || $7 >= names) fail("S line before its F or N line")
      if (seen[$2]++) fail("duplicate site id")
      kind[$2] = $3
      last_site = $2
      # The optional parent: an inline site (kind 8) listed earlier.
      if (NF == 8) {
        if (length($8) != 16 || $8 !~ /^[0-9a-f]+$/) fail("bad parent field")
        if (!($8 in kind)) fail("parent not listed before the site")
        if (kind[$8] != 8) fail("parent is not an inline site")
        parent_of_some[$8] = 1
      }
      next
    }
    # An API site'"'"'s access, object type and operation, right after its S line.
    $1 == "A" {
      if (NF != 5 || $2 != last_site || kind[$2] != 7 || ($3 != "r" && $3 != "w") || $4 == "" || $5 == "") fail("bad A line")
      next
    }
    { fail("unknown line") }
    END {
      if (bad) exit 1
      # An inline site exists only as a frame of other sites.
      for (id in kind)
        if (kind[id] == 8 && !(id in parent_of_some)) {
          print "site table: inline site " id " is nobody'"'"'s parent" > "/dev/stderr"
          exit 1
        }
    }
  ' "$table" || return 1

  local ids id missing=0
  ids=$( {
    # The site is a hook's last argument, so the last "i64 N)" of the line.
    sed -nE -e '/call void @__snag_(func_entry|func_exit|register_sites)\(/d' \
      -e 's/.*call void @__snag_[a-z0-9_]+\(.*i64 (-?[0-9]+)\).*/\1/p' "$ir"
    sed -nE 's/.*call void @__snag_func_entry\(i64 (-?[0-9]+),.*/\1/p' "$ir"
    sed -nE 's/.*store i64 (-?[0-9]+), i64\* @__snag_call_site.*/\1/p' "$ir"
  } | sort -u)
  local missing_ids
  missing_ids=$(for id in $ids; do printf '%016x\n' "$id"; done |
    awk -F'\t' 'NR == FNR { if ($1 == "S") listed[$2] = 1; next } !($1 in listed)' \
      "$table" -)
  if [[ -n $missing_ids ]]; then
    echo "site ids used in the IR but missing from the site table:" $missing_ids >&2
    missing=1
  fi
  return $missing
}
