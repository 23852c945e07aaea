#!/usr/bin/env bash
# Prepares the real projects of the snag check study (docs/check-study.md) for
# `snag check -p`: a compile_commands.json for each, nothing built.
#
#   bench/check_projects.sh STUDY_DIR
#
# STUDY_DIR holds each project's sources, unpacked from its GitHub snapshot
# (`git --git-dir=... archive HEAD | tar -x -C STUDY_DIR/NAME`):
#   ThreadPool         progschj/ThreadPool         a thread pool (example.cpp)
#   readerwriterqueue  cameron314/readerwriterqueue a lock-free SPSC queue (its unit tests)
#   spdlog             gabime/spdlog               a logging library with an async thread pool
#   cpp-httplib        yhirose/cpp-httplib         an HTTP library with a worker pool (optional)
# Prints the build directories to pass to bench/check_bench.sh.
set -euo pipefail
study=$(cd "${1:?usage: check_projects.sh STUDY_DIR}" && pwd)
dirs=()

# A compile_commands.json by hand for projects built by a one-line makefile:
# every source compiled and linked by one command into OUTPUT (one target).
write_database() {  # DIR OUTPUT FLAGS SOURCE...
  local dir=$1 output=$2 flags=$3
  shift 3
  mkdir -p "$dir/snag-build"
  {
    echo "["
    local first=1
    for source in "$@"; do
      [ $first -eq 1 ] || echo ","
      first=0
      printf '  {"directory": "%s", "command": "clang++-14 %s -c %s -o %s", "file": "%s", "output": "%s"}\n' \
        "$dir" "$flags" "$source" "$output" "$source" "$output"
    done
    echo "]"
  } >"$dir/snag-build/compile_commands.json"
  dirs+=("$dir/snag-build")
}

if [ -d "$study/ThreadPool" ]; then
  write_database "$study/ThreadPool" example "-std=c++11 -pthread" example.cpp
fi
if [ -d "$study/readerwriterqueue" ]; then
  # As tests/unittests/makefile builds it (g++ ... -O3, here at the flags that matter).
  write_database "$study/readerwriterqueue/tests/unittests" unittests "-std=c++11 -DNDEBUG -pthread" \
    unittests.cpp ../common/simplethread.cpp
fi
if [ -d "$study/spdlog" ]; then
  cmake -S "$study/spdlog" -B "$study/spdlog/snag-build" -G Ninja -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
    -DCMAKE_CXX_COMPILER=clang++-14 -DSPDLOG_BUILD_EXAMPLE=ON -DSPDLOG_BUILD_TESTS=OFF >/dev/null
  dirs+=("$study/spdlog/snag-build")
fi
if [ -d "$study/cpp-httplib" ]; then
  write_database "$study/cpp-httplib/example" server_and_client "-std=c++11 -I.. -pthread" server_and_client.cc
fi
printf '%s\n' "${dirs[@]}"
