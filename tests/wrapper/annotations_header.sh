#!/usr/bin/env bash
# <snag/annotations.h> is found through the -isystem the wrappers add (no -I
# of ours), __SNAG__ is 1 under both wrappers, the annotation macros reach the
# runtime, and with __SNAG__ undefined they compile to nothing.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

cat >annotated.cpp <<'EOF'
#include <snag/annotations.h>

#include <cstdio>
#include <thread>

#ifndef __SNAG__
#error "__SNAG__ is not defined"
#endif
static_assert(__SNAG__ == 1, "__SNAG__ must be 1");

int payload;
int flag;

int main() {
  std::thread producer([] {
    payload = 42;
    SNAG_HAPPENS_BEFORE(&flag); // MARK-HB
    __atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
  });
  while (!__atomic_load_n(&flag, __ATOMIC_ACQUIRE)) std::this_thread::yield();
  SNAG_HAPPENS_AFTER(&flag); // MARK-HA
  SNAG_BENIGN_RACE(&payload, sizeof payload, "test");
  std::printf("payload=%d snag=%d\n", payload, __SNAG__);
  producer.join();
  return 0;
}
EOF

cat >annotated.c <<'EOF'
#include <snag/annotations.h>
#include <stdio.h>

#if !defined(__SNAG__) || __SNAG__ != 1
#error "__SNAG__ must be 1"
#endif

int value;

int main(void) {
  SNAG_IGNORE_WRITES_BEGIN();
  value = 1;
  SNAG_IGNORE_WRITES_END();
  SNAG_HAPPENS_BEFORE(&value); /* MARK-C-HB */
  printf("value=%d\n", value);
  return 0;
}
EOF

must "snag-c++ with <snag/annotations.h>" "$SNAG_CXX" -std=c++17 -fsnag-verbose annotated.cpp -o annotated
# The header comes from the wrapper's own include directory.
expect_grep "-isystem $PREFIX/include( |$)" last.log "snag-c++ adds -isystem <prefix>/include"
expect_grep "-D__SNAG__=1" last.log "snag-c++ defines __SNAG__"
[[ -f $PREFIX/include/snag/annotations.h ]] || fail "$PREFIX/include/snag/annotations.h is missing"
expect_output "payload=42 snag=1" "running the annotated C++ program" ./annotated
record events.txt ./annotated
expect_grep " T1 annotate-happens-before .* at=[^ ]*/annotated\.cpp:$(line_of MARK-HB annotated.cpp):" events.txt \
  "SNAG_HAPPENS_BEFORE reaches the runtime"
expect_grep " T0 annotate-happens-after .* at=[^ ]*/annotated\.cpp:$(line_of MARK-HA annotated.cpp):" events.txt \
  "SNAG_HAPPENS_AFTER reaches the runtime"
expect_grep " T0 annotate-benign-race " events.txt "SNAG_BENIGN_RACE reaches the runtime"

must "snag-cc with <snag/annotations.h>" "$SNAG_CC" annotated.c -o annotated_c
expect_output "value=1" "running the annotated C program" ./annotated_c
record events_c.txt ./annotated_c
expect_grep " T0 annotate-happens-before .* at=[^ ]*/annotated\.c:$(line_of MARK-C-HB annotated.c):" events_c.txt \
  "SNAG_HAPPENS_BEFORE from C"

# Preprocessing alone also sees the header and the macro.
must "snag-c++ -E" "$SNAG_CXX" -std=c++17 -E annotated.cpp -o annotated.ii
expect_grep "snag_annotate_happens_before\(&flag\)" annotated.ii "-E expands SNAG_HAPPENS_BEFORE to the runtime call"

# A user -U__SNAG__ comes after the wrapper's -D: the macros become no-ops,
# the header still compiles, and no annotation event is produced.
sed -e '/static_assert/d' -e '/^#ifndef __SNAG__/,/^#endif/d' -e 's/, __SNAG__)/, 0)/' annotated.cpp >plain.cpp
must "snag-c++ -U__SNAG__" "$SNAG_CXX" -std=c++17 -U__SNAG__ plain.cpp -o plain
expect_output "payload=42 snag=0" "running the program built with -U__SNAG__" ./plain
record events_plain.txt ./plain
expect_no_grep " annotate-" events_plain.txt "with -U__SNAG__ the macros must be no-ops"

echo "PASS [$TEST_NAME]"
