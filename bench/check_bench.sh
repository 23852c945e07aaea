#!/usr/bin/env bash
# What `snag check` costs: time per translation unit and per target, cold
# (compiling with clang) and warm (bitcode from the cache), on the labelled
# suite and on real projects.
#
#   bench/check_bench.sh [BUILD_DIR] [PROJECT_BUILD_DIR...]
#
# BUILD_DIR is snag's build (default: the repository's build/). Every
# PROJECT_BUILD_DIR holds a compile_commands.json (CMake:
# -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or a build run under bear); each is
# checked with `snag check -p` twice, cold then warm, and its JSON reports are
# kept in $CHECK_BENCH_OUT (default /tmp/snag-check-bench) for the study
# (docs/check-study.md). Prints tables whose times are medians over
# CHECK_BENCH_RUNS runs (default 3) and whose ratios are against plain
# `clang -c -O0` of the same TUs, so they say something on another machine.
#
# Environment: CHECK_BENCH_RUNS, CHECK_BENCH_OUT, CHECK_BENCH_SUITE (default
# tests/check/suite), CHECK_BENCH_ARGS (extra `snag check` options).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
build=${1:-$repo/build}
[ $# -gt 0 ] && shift
exec python3 "$here/check_bench.py" "$build/bin/snag" "$@"
