#!/usr/bin/env bash
# -fsnag-instrument=LIST chooses what the plugin instruments: with `none`
# the program still links with the runtime (its interceptors still see the
# threads) but reports no reads, writes or atomics; with `atomics` it reports
# the atomic operations but no plain accesses; with `memory` the reverse.
# The option wins over a SNAG_INSTRUMENT already in the environment.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

cat >kinds.c <<'EOF'
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

int plain;
atomic_int counter;

static void *worker(void *arg) {
  (void)arg;
  atomic_fetch_add(&counter, 1); /* MARK-ATOMIC */
  plain = 5; /* MARK-PLAIN */
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_join(t, NULL);
  printf("plain=%d counter=%d\n", plain, atomic_load(&counter));
  return 0;
}
EOF
atomic_line=$(line_of MARK-ATOMIC kinds.c)
plain_line=$(line_of MARK-PLAIN kinds.c)
ACCESS=" T[0-9]+ (read|write) "
ATOMIC=" T[0-9]+ atomic-(before|after) "
PLAIN_WRITE=" T1 write .* at=[^ ]*/kinds\.c:$plain_line:"
ATOMIC_AT=" T1 atomic-before .* at=[^ ]*/kinds\.c:$atomic_line:"

# build_and_record <name> <wrapper options...>: builds kinds_<name>, checks it
# runs, and records its events in events_<name>.txt.
build_and_record() {
  local name=$1
  shift
  must "snag-cc $*" "$SNAG_CC" -O1 "$@" kinds.c -o "kinds_$name"
  expect_section "kinds_$name" snag_runtime
  expect_output "plain=5 counter=1" "running kinds_$name" "./kinds_$name"
  record "events_$name.txt" "./kinds_$name"
  # Interceptors work whatever the instrumentation.
  expect_grep " T0 thread-create " "events_$name.txt" "$name: thread creation"
  expect_grep " T1 thread-start" "events_$name.txt" "$name: thread start"
}

# Default: everything.
build_and_record default
expect_grep "$PLAIN_WRITE" events_default.txt "default: the plain write"
expect_grep "$ATOMIC_AT" events_default.txt "default: the atomic add"

build_and_record all -fsnag-instrument=all
expect_grep "$PLAIN_WRITE" events_all.txt "all: the plain write"
expect_grep "$ATOMIC_AT" events_all.txt "all: the atomic add"

build_and_record none -fsnag-instrument=none
expect_no_grep "$ACCESS" events_none.txt "none: no read or write events"
expect_no_grep "$ATOMIC" events_none.txt "none: no atomic events"

build_and_record atomics -fsnag-instrument=atomics
expect_grep "$ATOMIC_AT" events_atomics.txt "atomics: the atomic add"
expect_grep " T1 atomic-after .* at=[^ ]*/kinds\.c:$atomic_line:" events_atomics.txt "atomics: the atomic add's completion"
expect_no_grep "$ACCESS" events_atomics.txt "atomics: no plain read or write events"

build_and_record memory -fsnag-instrument=memory
expect_grep "$PLAIN_WRITE" events_memory.txt "memory: the plain write"
expect_no_grep "$ATOMIC" events_memory.txt "memory: no atomic events"

build_and_record both -fsnag-instrument=memory,atomics
expect_grep "$PLAIN_WRITE" events_both.txt "memory,atomics: the plain write"
expect_grep "$ATOMIC_AT" events_both.txt "memory,atomics: the atomic add"

# The last -fsnag-instrument= wins.
build_and_record last -fsnag-instrument=memory -fsnag-instrument=none
expect_no_grep "$ACCESS" events_last.txt "memory then none: no read or write events"

# The option overrides the environment (the wrapper passes it to the plugin
# through SNAG_INSTRUMENT)...
SNAG_INSTRUMENT=none build_and_record env_and_option -fsnag-instrument=atomics
expect_grep "$ATOMIC_AT" events_env_and_option.txt "SNAG_INSTRUMENT=none -fsnag-instrument=atomics: the atomic add"
# ...and without the option the environment is used.
SNAG_INSTRUMENT=none build_and_record env_only
expect_no_grep "$ACCESS|$ATOMIC" events_env_only.txt "SNAG_INSTRUMENT=none: no instrumented events"

# The choice is per compilation: an object built with none next to one built
# with all in one program.
cat >other.c <<'EOF'
int other_value;
void touch_other(void) { other_value = 3; /* MARK-OTHER */ }
EOF
sed -e 's/^  plain = 5;/  touch_other();\n  plain = 5;/' -e 's/^int plain;/int plain;\nvoid touch_other(void);/' kinds.c >mixed.c
must "compile other.c with none" "$SNAG_CC" -c -fsnag-instrument=none other.c
must "compile mixed.c with all" "$SNAG_CC" -c mixed.c
must "link the two" "$SNAG_CC" mixed.o other.o -o mixed
record events_mixed.txt ./mixed
expect_grep " T1 write .* at=[^ ]*/mixed\.c:[0-9]+:" events_mixed.txt "mixed: the write in the object built with all"
expect_no_grep " (read|write) .*other\.c" events_mixed.txt "mixed: the object built with none"

echo "PASS [$TEST_NAME]"
