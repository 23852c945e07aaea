// snag-guard-suite
// expect: tolerated
// pattern: W-R|W
// why: the worker puts its id into a shared slot and reads it back to
//      build its reply, assuming the slot still holds its id (MySQL
//      #19938's shape); the other thread's store between them wins.
#include "guard_test.h"

static volatile int g_slot;
static gate_t g_stored = GATE_INIT, g_other = GATE_INIT, g_done = GATE_INIT;
static int g_reply;

static void *worker(void *arg) {
  int schedule = SCHEDULE_OF_ARG(arg);
  if (schedule == GOOD2) park(&g_other);
  g_slot = 1;  // GUARD:previous
  if (schedule == BAD) {
    unpark(&g_stored);
    park(&g_other);  // preempted between the store and the read
  }
  g_reply = g_slot;  // GUARD:region-end
  unpark(&g_done);
  return NULL;
}

int main(int argc, char **argv) {
  int schedule = schedule_of(argc, argv);
  pthread_t t;
  pthread_create(&t, NULL, worker, SCHEDULE_ARG(schedule));
  if (schedule == BAD) park(&g_stored);
  if (schedule == GOOD) park(&g_done);
  g_slot = 2;  // GUARD:current
  unpark(&g_other);
  pthread_join(t, NULL);
  if (g_reply != 1) {
    fprintf(stderr, "BUG: the worker read back another thread's id (%d)\n", g_reply);
    return 1;
  }
  return 0;
}
