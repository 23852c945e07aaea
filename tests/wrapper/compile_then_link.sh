#!/usr/bin/env bash
# Separate compile steps (-c) and a link-only step given only .o files:
# objects are instrumented but carry no runtime, the link adds the runtime
# once, and C and C++ objects link together with snag-c++ (and C objects with
# snag-cc).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

cat >counter.c <<'EOF'
#include <pthread.h>

static pthread_mutex_t counter_lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;

void counter_bump(void) {
  pthread_mutex_lock(&counter_lock);
  counter += 1; /* MARK-C-WRITE */
  pthread_mutex_unlock(&counter_lock);
}

long counter_value(void) { return counter; }
EOF

cat >worker.cpp <<'EOF'
#include <thread>

extern "C" void counter_bump(void);

int worker_runs = 0;

void run_workers(int n) {
  std::thread a([n] { for (int i = 0; i < n; ++i) counter_bump(); });
  std::thread b([n] { for (int i = 0; i < n; ++i) counter_bump(); });
  a.join();
  b.join();
  worker_runs = 2; // MARK-CXX-WRITE
}
EOF

cat >main.cpp <<'EOF'
#include <cstdio>

extern "C" long counter_value(void);
void run_workers(int n);
extern int worker_runs;

int main() {
  run_workers(10);
  std::printf("counter=%ld runs=%d\n", counter_value(), worker_runs);
  return 0;
}
EOF

cat >cmain.c <<'EOF'
#include <stdio.h>

void counter_bump(void);
long counter_value(void);

int main(void) {
  counter_bump();
  counter_bump();
  printf("counter=%ld\n", counter_value());
  return 0;
}
EOF

# Compile steps: one file at a time, and two at once.
must "compile counter.c" "$SNAG_CC" -c counter.c -o counter.o
must "compile worker.cpp and main.cpp in one command" "$SNAG_CXX" -std=c++17 -O1 -c worker.cpp main.cpp
must "compile cmain.c" "$SNAG_CC" -c cmain.c
for o in counter.o worker.o main.o cmain.o; do
  [[ -f $o ]] || fail "$o was not produced by the -c step"
  expect_section "$o" snag_sites
  # -c does not link: the runtime must not be put into an object.
  expect_no_section "$o" snag_runtime
  nm "$o" >nm.txt 2>&1
  expect_no_grep " [TDB] (__snag_register_sites|snag_annotate_happens_before)$" nm.txt \
    "$o defines runtime symbols"
done

# Link-only steps: the wrapper must see that .o inputs mean a link.
must "link C and C++ objects with snag-c++" "$SNAG_CXX" counter.o worker.o main.o -o mixed
expect_section mixed snag_runtime
expect_section mixed snag_sites
expect_output "counter=20 runs=2" "running the mixed C/C++ program" ./mixed

record events.txt ./mixed
expect_grep " T[0-9]+ write .* at=[^ ]*/counter\.c:$(line_of MARK-C-WRITE counter.c):" events.txt \
  "the write in the C object"
expect_grep " T0 write .* at=[^ ]*/worker\.cpp:$(line_of MARK-CXX-WRITE worker.cpp):" events.txt \
  "the write in the C++ object"
expect_grep " T0 thread-create " events.txt "thread creation"
expect_grep " T[12] lock-acquired " events.txt "pthread_mutex_lock in a worker thread"
expect_grep " T0 thread-join " events.txt "thread join"

must "link C objects with snag-cc" "$SNAG_CC" cmain.o counter.o -o conly
expect_section conly snag_runtime
expect_output "counter=2" "running the C program linked by snag-cc" ./conly
record events-c.txt ./conly
expect_grep " T0 lock-acquired " events-c.txt "pthread_mutex_lock in the C program"

# The link step's own options (here -pthread and -Wl,...) still work, and
# linking objects from a subdirectory with -o elsewhere too.
mkdir -p objs out
cp counter.o cmain.o objs/
must "link with extra linker options" "$SNAG_CC" -pthread -Wl,--as-needed objs/cmain.o objs/counter.o -o out/conly2
expect_section out/conly2 snag_runtime
expect_output "counter=2" "running the program linked with extra options" out/conly2

# -static-libstdc++ and -static-libgcc are not -static: allowed, and they work.
must "link with -static-libstdc++ -static-libgcc" "$SNAG_CXX" -static-libstdc++ -static-libgcc \
  counter.o worker.o main.o -o mixed_static_libs
expect_section mixed_static_libs snag_runtime
expect_output "counter=20 runs=2" "running the program linked with -static-libstdc++" ./mixed_static_libs

echo "PASS [$TEST_NAME]"
