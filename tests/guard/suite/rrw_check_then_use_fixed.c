// snag-guard-suite
// expect: clean
// why: the twin of rrw_check_then_use_buggy.c: the worker's check and use
//      and the main thread's clearing are each under one mutex, so the
//      pointer cannot be cleared between them; "bad" parks the worker right
//      after its critical section instead.
#include "guard_test.h"

static int g_value = 42;
static int *g_ptr = &g_value;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static gate_t g_checked = GATE_INIT, g_cleared = GATE_INIT, g_done = GATE_INIT;
static int g_result;

static void *worker(void *arg) {
  int schedule = SCHEDULE_OF_ARG(arg);
  if (schedule == GOOD2) park(&g_cleared);
  pthread_mutex_lock(&g_lock);
  if (g_ptr != NULL) {
    int *p = g_ptr;
    g_result = p ? *p : -1;
  }
  pthread_mutex_unlock(&g_lock);
  if (schedule == BAD) {
    unpark(&g_checked);
    park(&g_cleared);
  }
  unpark(&g_done);
  return NULL;
}

int main(int argc, char **argv) {
  int schedule = schedule_of(argc, argv);
  pthread_t t;
  pthread_create(&t, NULL, worker, SCHEDULE_ARG(schedule));
  if (schedule == BAD) park(&g_checked);
  if (schedule == GOOD) park(&g_done);
  pthread_mutex_lock(&g_lock);
  g_ptr = NULL;
  pthread_mutex_unlock(&g_lock);
  unpark(&g_cleared);
  pthread_join(t, NULL);
  if (g_result == -1) {
    fprintf(stderr, "BUG: the pointer was cleared between check and use\n");
    return 1;
  }
  return 0;
}
