// snag-guard-suite
// expect: tolerated
// lean: yes
// pattern: R-R|W
// why: the worker checks a shared pointer and then uses it, assuming no
//      other thread clears it in between (MySQL #644's shape); the main
//      thread clears it while the worker is preempted between the two reads.
#include "guard_test.h"

static int g_value = 42;
static int *volatile g_ptr = &g_value;
static gate_t g_checked = GATE_INIT, g_cleared = GATE_INIT, g_done = GATE_INIT;
static int g_result;

static void *worker(void *arg) {
  int schedule = SCHEDULE_OF_ARG(arg);
  if (schedule == GOOD2) park(&g_cleared);
  if (g_ptr != NULL) {  // GUARD:previous
    if (schedule == BAD) {
      unpark(&g_checked);
      park(&g_cleared);  // preempted between the check and the use
    }
    int *p = g_ptr;  // GUARD:region-end
    g_result = p ? *p : -1;
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
  g_ptr = NULL;  // GUARD:current
  unpark(&g_cleared);
  pthread_join(t, NULL);
  if (g_result == -1) {
    fprintf(stderr, "BUG: the pointer was cleared between check and use\n");
    return 1;
  }
  return 0;
}
