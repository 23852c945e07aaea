#!/usr/bin/env bash
# -fsnag-api-table=FILE adds thread-unsafe classes for the `api` kind: calls
# to the listed members are bracketed by api-begin/api-end events. The option
# may be repeated and adds to a SNAG_API_TABLE already in the environment.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

cat >api.cpp <<'EOF2'
#include <cstdio>

namespace myapp {
class Cache {
 public:
  __attribute__((noinline)) void put(int v) { value_ = v; }
  __attribute__((noinline)) int get() const { return value_; }

 private:
  int value_ = 0;
};
}  // namespace myapp

myapp::Cache cache;

int main() {
  cache.put(3); // MARK-PUT
  int v = cache.get(); // MARK-GET
  std::printf("got=%d\n", v);
  return 0;
}
EOF2
put_line=$(line_of MARK-PUT api.cpp)
get_line=$(line_of MARK-GET api.cpp)
PUT=" T0 api-begin .*flags=1 at=[^ ]*/api\.cpp:$put_line:"
GET=" T0 api-begin .* at=[^ ]*/api\.cpp:$get_line:"
printf 'myapp::Cache  put  write\n' >put-table.txt
mkdir tables
printf '# a comment\nmyapp::Cache  get  read\n' >tables/get-table.txt

# build <name> <options...>
build() {
  local name=$1
  shift
  must "snag-c++ $*" "$SNAG_CXX" "$@" api.cpp -o "api_$name"
  expect_output "got=3" "running api_$name" "./api_$name"
  record "events_$name.txt" "./api_$name"
}

build plain
expect_no_grep " api-begin " events_plain.txt "without a table, myapp::Cache is not thread-unsafe"

build put -fsnag-api-table=put-table.txt
expect_grep "$PUT" events_put.txt "put-table.txt: the call to put"
expect_grep " T0 api-end .* at=[^ ]*/api\.cpp:$put_line:" events_put.txt "put-table.txt: the end of put"
expect_no_grep "$GET" events_put.txt "put-table.txt does not list get"

build both -fsnag-api-table=put-table.txt -fsnag-api-table=tables/get-table.txt
expect_grep "$PUT" events_both.txt "two tables: put"
expect_grep "$GET" events_both.txt "two tables: get"

SNAG_API_TABLE=$WORK/tables/get-table.txt build env -fsnag-api-table=put-table.txt
expect_grep "$PUT" events_env.txt "SNAG_API_TABLE plus -fsnag-api-table: put (from the option)"
expect_grep "$GET" events_env.txt "SNAG_API_TABLE plus -fsnag-api-table: get (from the environment)"

# -fsnag-instrument without api leaves the calls unmarked, tables or not.
build no_api -fsnag-instrument=memory -fsnag-api-table=put-table.txt
expect_no_grep " api-begin " events_no_api.txt "-fsnag-instrument=memory: no api events"

echo "PASS [$TEST_NAME]"
