// snag-guard-suite
// expect: tolerated
// lean: bias
// pattern: R-R|W
// why: rrw_check_then_use_buggy.c's bug beside a hot compute kernel (two
//      threads smoothing an array), as in the SPLASH-2 programs of paper
//      003, 5.4: a lean build with -fsnag-bias=30 leaves the kernel's sites
//      out (they carry almost every access) and still tolerates the bug,
//      which sits in a cold region.
#include "guard_test.h"

enum { N = 2048, ROUNDS = 20 };
static double g_data[2][N];
static int g_value = 42;
static int *volatile g_ptr = &g_value;
static gate_t g_checked = GATE_INIT, g_cleared = GATE_INIT, g_done = GATE_INIT;
static int g_result;

static void smooth(double *row) {
  for (int round = 0; round < ROUNDS; ++round)
    for (int i = 1; i < N - 1; ++i) row[i] = (row[i - 1] + row[i] + row[i + 1]) / 3.0;
}

static void *kernel(void *arg) {
  smooth(g_data[(long)arg]);
  return NULL;
}

static void *worker(void *arg) {
  int schedule = SCHEDULE_OF_ARG(arg);
  if (schedule == GOOD2) park(&g_cleared);
  if (g_ptr != NULL) {  // GUARD:previous
    if (schedule == BAD) {
      unpark(&g_checked);
      park(&g_cleared);  // preempted between the check and the use
    }
    int *p = g_ptr;
    g_result = p ? *p : -1;
  }
  unpark(&g_done);
  return NULL;
}

int main(int argc, char **argv) {
  int schedule = schedule_of(argc, argv);
  pthread_t k[2], t;
  for (long i = 0; i < 2; ++i) pthread_create(&k[i], NULL, kernel, (void *)i);
  pthread_create(&t, NULL, worker, SCHEDULE_ARG(schedule));
  if (schedule == BAD) park(&g_checked);
  if (schedule == GOOD) park(&g_done);
  g_ptr = NULL;  // GUARD:current
  unpark(&g_cleared);
  pthread_join(t, NULL);
  for (int i = 0; i < 2; ++i) pthread_join(k[i], NULL);
  if (g_result == -1) {
    fprintf(stderr, "BUG: the pointer was cleared between check and use\n");
    return 1;
  }
  return 0;
}
