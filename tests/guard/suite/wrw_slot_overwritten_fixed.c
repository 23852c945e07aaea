// snag-guard-suite
// expect: clean
// why: the twin of wrw_slot_overwritten_buggy.c: the store and the read
//      back hold one mutex, as does the other thread's store; "bad" lets
//      the other thread store right after the worker's critical section.
#include "guard_test.h"

static int g_slot;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static gate_t g_stored = GATE_INIT, g_other = GATE_INIT, g_done = GATE_INIT;
static int g_reply;

static void *worker(void *arg) {
  int schedule = SCHEDULE_OF_ARG(arg);
  if (schedule == GOOD2) park(&g_other);
  pthread_mutex_lock(&g_lock);
  g_slot = 1;
  g_reply = g_slot;
  pthread_mutex_unlock(&g_lock);
  if (schedule == BAD) {
    unpark(&g_stored);
    park(&g_other);
  }
  unpark(&g_done);
  return NULL;
}

int main(int argc, char **argv) {
  int schedule = schedule_of(argc, argv);
  pthread_t t;
  pthread_create(&t, NULL, worker, SCHEDULE_ARG(schedule));
  if (schedule == BAD) park(&g_stored);
  if (schedule == GOOD) park(&g_done);
  pthread_mutex_lock(&g_lock);
  g_slot = 2;
  pthread_mutex_unlock(&g_lock);
  unpark(&g_other);
  pthread_join(t, NULL);
  if (g_reply != 1) {
    fprintf(stderr, "BUG: the worker read back another thread's id (%d)\n", g_reply);
    return 1;
  }
  return 0;
}
