// snag-guard-suite
// expect: tolerated
// learn: good
// pattern: W-W|W
// why: a connection's worker marks it busy and then idle, assuming nobody
//      else sets its state in between; the main thread closes it in that
//      gap and the worker's "idle" overwrites "closed". Correct runs close
//      it only once the worker is idle.
#include "guard_test.h"

enum { IDLE = 0, BUSY = 1, CLOSED = 2 };
static volatile int g_state = IDLE;
static gate_t g_busy = GATE_INIT, g_closed = GATE_INIT, g_idle = GATE_INIT;

static void *worker(void *arg) {
  int schedule = SCHEDULE_OF_ARG(arg);
  g_state = BUSY;  // GUARD:previous
  if (schedule == BAD) {
    unpark(&g_busy);
    park(&g_closed);  // preempted between the two writes
  }
  g_state = IDLE;  // GUARD:region-end
  unpark(&g_idle);
  return NULL;
}

int main(int argc, char **argv) {
  int schedule = schedule_of(argc, argv);
  pthread_t t;
  pthread_create(&t, NULL, worker, SCHEDULE_ARG(schedule));
  if (schedule == BAD) park(&g_busy);
  else park(&g_idle);
  g_state = CLOSED;  // GUARD:current
  unpark(&g_closed);
  pthread_join(t, NULL);
  if (g_state != CLOSED) {
    fprintf(stderr, "BUG: the connection was closed but its state says %d\n", g_state);
    return 1;
  }
  return 0;
}
