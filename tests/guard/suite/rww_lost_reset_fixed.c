// snag-guard-suite
// expect: clean
// why: the twin of rww_lost_reset_buggy.c: the deposit's read and write
//      and the reset hold one mutex; "bad" lets the reset run right after
//      the deposit's critical section.
#include "guard_test.h"

static long g_balance = 5;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static gate_t g_read = GATE_INIT, g_reset = GATE_INIT, g_deposited = GATE_INIT;

static void *depositor(void *arg) {
  int schedule = SCHEDULE_OF_ARG(arg);
  if (schedule == GOOD2) park(&g_reset);
  pthread_mutex_lock(&g_lock);
  long old = g_balance;
  g_balance = old + 10;
  pthread_mutex_unlock(&g_lock);
  if (schedule == BAD) {
    unpark(&g_read);
    park(&g_reset);
  }
  unpark(&g_deposited);
  return NULL;
}

int main(int argc, char **argv) {
  int schedule = schedule_of(argc, argv);
  pthread_t t;
  pthread_create(&t, NULL, depositor, SCHEDULE_ARG(schedule));
  if (schedule == BAD) park(&g_read);
  if (schedule == GOOD) park(&g_deposited);
  pthread_mutex_lock(&g_lock);
  g_balance = 0;
  pthread_mutex_unlock(&g_lock);
  unpark(&g_reset);
  pthread_join(t, NULL);
  if (g_balance != 0 && g_balance != 10) {
    fprintf(stderr, "BUG: the reset was lost (balance %ld)\n", g_balance);
    return 1;
  }
  return 0;
}
