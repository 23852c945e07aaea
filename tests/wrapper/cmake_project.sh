#!/usr/bin/env bash
# A CMake project (tests/wrapper/cmake_project: a C static library, a C++
# shared library, a two-threaded C++ executable) configured with
#   CC=snag-cc CXX=snag-c++ cmake -G <generator>
# for Ninja (Debug) and for Unix Makefiles (Release: -O3, no -g of CMake's),
# built, and run: every piece is
# instrumented, the runtime is in the executable (and only there), and the
# record engine sees accesses in both libraries, the threads and the mutex.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# The cmake that configured snag (CTest passes it), else the one on PATH.
CMAKE=${SNAG_TEST_CMAKE:-cmake}
command -v "$CMAKE" >/dev/null || fail "cmake is not installed"
command -v ninja >/dev/null || fail "ninja is not installed"
command -v make >/dev/null || fail "make is not installed"

build_and_check() {
  local generator=$1 dir=$2 build_type=$3
  local src=$HERE/cmake_project

  CC=snag-cc CXX=snag-c++ must "configure with -G '$generator'" \
    "$CMAKE" -S "$src" -B "$dir" -G "$generator" -DCMAKE_BUILD_TYPE="$build_type"
  # CMake must have picked the wrappers, not the system compilers.
  expect_grep "^CMAKE_C_COMPILER:[A-Z]+=.*/snag-cc$" "$dir/CMakeCache.txt" "$generator: C compiler"
  expect_grep "^CMAKE_CXX_COMPILER:[A-Z]+=.*/snag-c\+\+$" "$dir/CMakeCache.txt" "$generator: C++ compiler"

  must "build with '$generator'" "$CMAKE" --build "$dir" -j 2

  local exe=$dir/demo shlib=$dir/libjournal.so archive=$dir/libtally.a
  for f in "$exe" "$shlib" "$archive"; do
    [[ -f $f ]] || fail "$generator: $f was not built"
  done

  expect_output "sum=60 entries=40" "$generator: running demo" "$exe"

  expect_section "$exe" snag_runtime
  expect_section "$exe" snag_sites
  expect_section "$shlib" snag_sites
  # The runtime belongs to the executable only: a shared library that
  # carried its own copy would split the runtime's state in two.
  expect_no_section "$shlib" snag_runtime
  readelf -SW "$archive" >"$WORK/archive.txt" 2>&1
  expect_grep "[[:space:]]snag_sites[[:space:]]" "$WORK/archive.txt" "$generator: static library objects instrumented"

  local ev=$WORK/events-${dir##*/}.txt
  record "$ev" "$exe"
  expect_grep " T[0-9]+ (read|write) .* at=[^ ]*/journal\.cpp:[0-9]+:[0-9]+ " "$ev" \
    "$generator: an access in the shared library's source"
  expect_grep " T[0-9]+ (read|write) .* at=[^ ]*/tally\.c:[0-9]+:[0-9]+ " "$ev" \
    "$generator: an access in the static library's C source"
  expect_grep " T[0-9]+ write .* at=[^ ]*/tally\.c:$(line_of 'access in the static library' "$HERE/cmake_project/tally.c"):" \
    "$ev" "$generator: the write of tally_add at its line"
  expect_grep " T0 thread-create " "$ev" "$generator: thread creation"
  expect_grep " T[12] thread-start" "$ev" "$generator: thread start"
  expect_grep " T[12] lock-acquired " "$ev" "$generator: std::mutex acquisition in a worker thread"
  expect_grep " T[0-9]+ unlock " "$ev" "$generator: std::mutex release"
}

build_and_check Ninja "$WORK/build-ninja" Debug
build_and_check "Unix Makefiles" "$WORK/build-make" Release

echo "PASS [$TEST_NAME]"
