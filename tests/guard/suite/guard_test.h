// What the guard suite's programs share (see README.md): a schedule chosen
// on the command line, and parking, the test-only hook that forces a rare
// interleaving without sleeps.
//
// park(&gate) holds the calling thread until another thread opens the gate
// with unpark(&gate), or while snag's guard or expose engine stalls a
// thread (__snag_guard_stalling() > 0) or once it has started a stall since
// the park began (__snag_guard_stalls() changed). A parked thread stands for a thread the
// OS happened to preempt at the worst moment; a stall of another thread is
// exactly the time that lets such a thread run again, so the stall releases
// it. Natively (no guard) only unpark releases it, so the bad interleaving
// happens every time. The 10 s limit only keeps a broken test from hanging;
// no outcome depends on it.
#ifndef GUARD_TEST_H
#define GUARD_TEST_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif
unsigned long __snag_guard_stalls(void) __attribute__((weak));
int __snag_guard_stalling(void) __attribute__((weak));
#ifdef __cplusplus
}
#endif

// The harness itself is not instrumented (and not inlined into the code
// under test, where it would be): its own accesses are not the program's.
#define GUARD_TEST_HELPER __attribute__((disable_sanitizer_instrumentation, noinline, unused))

// The schedules: an order correct runs have, another correct one, and the
// rare interleaving. Threads get theirs as their argument, so reading it is
// no shared access of its own.
enum { GOOD = 0, GOOD2 = 1, BAD = 2 };
#define SCHEDULE_ARG(s) ((void *)(long)(s))
#define SCHEDULE_OF_ARG(arg) ((int)(long)(arg))

typedef struct {
  pthread_mutex_t mutex;
  pthread_cond_t cond;
  int open;
} gate_t;

#define GATE_INIT {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0}

GUARD_TEST_HELPER static unsigned long guard_stalls(void) {
  return __snag_guard_stalls ? __snag_guard_stalls() : 0;
}

GUARD_TEST_HELPER static int guard_stalling(void) {
  return __snag_guard_stalling ? __snag_guard_stalling() : 0;
}

GUARD_TEST_HELPER static void unpark(gate_t *g) {
  pthread_mutex_lock(&g->mutex);
  g->open = 1;
  pthread_cond_broadcast(&g->cond);
  pthread_mutex_unlock(&g->mutex);
}

GUARD_TEST_HELPER static void park(gate_t *g) {
  unsigned long stalls = guard_stalls();
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  pthread_mutex_lock(&g->mutex);
  while (!g->open && guard_stalls() == stalls && guard_stalling() == 0) {
    struct timespec now, until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 1000000;  // look at the stall count every millisecond
    if (until.tv_nsec >= 1000000000) until.tv_sec += 1, until.tv_nsec -= 1000000000;
    pthread_cond_timedwait(&g->cond, &g->mutex, &until);
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - start.tv_sec > 10) {
      fprintf(stderr, "guard_test: park gave up after 10 s (a broken test)\n");
      break;
    }
  }
  pthread_mutex_unlock(&g->mutex);
}

// The schedule named by argv[1]: good (default), good2 or bad.
GUARD_TEST_HELPER static int schedule_of(int argc, char **argv) {
  const char *s = argc > 1 ? argv[1] : "good";
  if (!strcmp(s, "good")) return GOOD;
  if (!strcmp(s, "good2")) return GOOD2;
  if (!strcmp(s, "bad")) return BAD;
  fprintf(stderr, "usage: %s good|good2|bad\n", argv[0]);
  exit(2);
}

#endif
