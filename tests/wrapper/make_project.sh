#!/usr/bin/env bash
# A plain Makefile project (tests/wrapper/make_project: a C static library and
# a C++ program, built with make's built-in rules and $(CC)/$(CXX)) built
# with CC=snag-cc CXX=snag-c++ from the environment and from make's command
# line: the program runs, is instrumented, and its events show the library's
# accesses, the threads, the mutex and the condition variables.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

command -v make >/dev/null || fail "make is not installed"
cp -R "$HERE/make_project" project || fail "cannot copy the project"
cd project || fail "cannot cd to the project"
write_line=$(line_of MARK-QUEUE-WRITE queue.c)

check_build() {
  local how=$1
  expect_grep "^snag-cc .*-c .*queue\.c" ../last.log "$how: queue.c compiled by snag-cc"
  expect_grep "^snag-c\+\+ .*main\.cpp" ../last.log "$how: main.cpp compiled by snag-c++"
  expect_grep "^snag-c\+\+ .*-o queue_demo" ../last.log "$how: linked by snag-c++"
  expect_section queue_demo snag_runtime
  expect_section queue_demo snag_sites
  readelf -SW libqueue.a >../archive.txt 2>&1
  expect_grep "[[:space:]]snag_sites[[:space:]]" ../archive.txt "$how: libqueue.a's object is instrumented"
  expect_output "sum=55" "$how: running queue_demo" ./queue_demo

  record "../events-$how.txt" ./queue_demo
  local ev=../events-$how.txt
  expect_grep " T[0-9]+ write .* at=[^ ]*/queue\.c:$write_line:[0-9]+ in queue_push$" "$ev" \
    "$how: the queue's write at queue.c:$write_line"
  expect_grep " T0 thread-create " "$ev" "$how: thread creation"
  expect_grep " T[01] lock-acquired " "$ev" "$how: the queue's mutex"
  expect_grep " T[01] cond-signal " "$ev" "$how: the queue's condition variables"
}

# CC and CXX from the environment (they override make's defaults).
CC=snag-cc CXX=snag-c++ must "make with CC/CXX from the environment" make -j2
check_build environment

must "make clean" make clean
[[ ! -e queue_demo && ! -e queue.o ]] || fail "make clean left files behind"

# CC and CXX on make's command line, with other flags.
must "make with CC/CXX on the command line" make -j2 CC=snag-cc CXX=snag-c++ CFLAGS=-O2 "CXXFLAGS=-O2 -std=c++17"
expect_grep "^snag-cc -O2 " ../last.log "command-line CFLAGS are used"
check_build command-line

# Nothing to do the second time.
must "make again" make CC=snag-cc CXX=snag-c++
expect_grep "Nothing to be done|is up to date" ../last.log "a second make rebuilds nothing"

echo "PASS [$TEST_NAME]"
