// snag-guard-suite
// expect: clean
// why: the twin of www_close_lost_buggy.c: the worker's two writes and the
//      close hold one mutex, and the worker leaves a closed connection
//      closed; every schedule ends closed.
#include "guard_test.h"

enum { IDLE = 0, BUSY = 1, CLOSED = 2 };
static int g_state = IDLE;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static gate_t g_busy = GATE_INIT, g_closed = GATE_INIT, g_idle = GATE_INIT;

static void *worker(void *arg) {
  int schedule = SCHEDULE_OF_ARG(arg);
  if (schedule == GOOD2) park(&g_closed);
  pthread_mutex_lock(&g_lock);
  if (g_state != CLOSED) {
    g_state = BUSY;
    g_state = IDLE;
  }
  pthread_mutex_unlock(&g_lock);
  if (schedule == BAD) {
    unpark(&g_busy);
    park(&g_closed);
  }
  unpark(&g_idle);
  return NULL;
}

int main(int argc, char **argv) {
  int schedule = schedule_of(argc, argv);
  pthread_t t;
  pthread_create(&t, NULL, worker, SCHEDULE_ARG(schedule));
  if (schedule == BAD) park(&g_busy);
  if (schedule == GOOD) park(&g_idle);
  pthread_mutex_lock(&g_lock);
  g_state = CLOSED;
  pthread_mutex_unlock(&g_lock);
  unpark(&g_closed);
  pthread_join(t, NULL);
  if (g_state != CLOSED) {
    fprintf(stderr, "BUG: the connection was closed but its state says %d\n", g_state);
    return 1;
  }
  return 0;
}
