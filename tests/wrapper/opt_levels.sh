#!/usr/bin/env bash
# The same programs (C with snag-cc, C++ with snag-c++) at -O0, -O1, -O2,
# -O3 and -Os: each builds, runs, and its record stream shows the marked
# write at the marked source line (the wrapper's -g keeps line information
# at every level).
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

cat >opt.c <<'EOF'
#include <pthread.h>
#include <stdio.h>

int shared_value;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

__attribute__((noinline)) void set_value(int v) {
  pthread_mutex_lock(&lock);
  shared_value = v; /* MARK-OPT-WRITE */
  pthread_mutex_unlock(&lock);
}

static void *thread_main(void *arg) {
  set_value((int)(long)arg);
  return NULL;
}

int main(int argc, char **argv) {
  (void)argv;
  pthread_t t;
  pthread_create(&t, NULL, thread_main, (void *)(long)(argc + 40));
  pthread_join(t, NULL);
  printf("value=%d\n", shared_value);
  return 0;
}
EOF

cat >opt.cpp <<'EOF'
// C++ (a member function, mangled names) without the heavy <thread> and
// <mutex> headers, to keep five compilations fast.
#include <pthread.h>
#include <cstdio>

namespace {
pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
}

struct Box {
  long content = 0;
  __attribute__((noinline)) void put(long v) {
    pthread_mutex_lock(&mu);
    content = v; // MARK-OPT-CXX-WRITE
    pthread_mutex_unlock(&mu);
  }
};

Box the_box;

int main(int argc, char **) {
  pthread_t t;
  pthread_create(&t, nullptr, [](void *arg) -> void * {
    the_box.put(reinterpret_cast<long>(arg) + 6);
    return nullptr;
  }, reinterpret_cast<void *>(static_cast<long>(argc)));
  pthread_join(t, nullptr);
  std::printf("content=%ld\n", the_box.content);
  return 0;
}
EOF

c_line=$(line_of MARK-OPT-WRITE opt.c)
cxx_line=$(line_of MARK-OPT-CXX-WRITE opt.cpp)

for level in -O0 -O1 -O2 -O3 -Os; do
  must "snag-cc $level" "$SNAG_CC" "$level" opt.c -o "opt_c$level"
  expect_section "opt_c$level" snag_runtime
  expect_output "value=41" "C program built with $level" "./opt_c$level"
  record "events_c$level.txt" "./opt_c$level"
  expect_grep " T1 write .* at=[^ ]*/opt\.c:$c_line:[0-9]+ in set_value$" "events_c$level.txt" \
    "C program at $level: the write of set_value at opt.c:$c_line"
  expect_grep " T1 lock-acquired " "events_c$level.txt" "C program at $level: the lock"

  must "snag-c++ $level" "$SNAG_CXX" -std=c++17 "$level" opt.cpp -o "opt_cxx$level"
  expect_section "opt_cxx$level" snag_runtime
  expect_output "content=7" "C++ program built with $level" "./opt_cxx$level"
  record "events_cxx$level.txt" "./opt_cxx$level"
  expect_grep " T1 write .* at=[^ ]*/opt\.cpp:$cxx_line:[0-9]+ in Box::put\(long\)$" "events_cxx$level.txt" \
    "C++ program at $level: the write of Box::put at opt.cpp:$cxx_line"
done

echo "PASS [$TEST_NAME]"
