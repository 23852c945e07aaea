// snag-guard-suite
// expect: tolerated
// pattern: R-W|W
// why: the depositor reads the balance and writes it back increased, as if
//      the two were one step (Apache #21287's shape); an administrator's
//      reset that lands between them is lost.
#include "guard_test.h"

static volatile long g_balance = 5;
static gate_t g_read = GATE_INIT, g_reset = GATE_INIT, g_deposited = GATE_INIT;

static void *depositor(void *arg) {
  int schedule = SCHEDULE_OF_ARG(arg);
  if (schedule == GOOD2) park(&g_reset);
  long old = g_balance;  // GUARD:previous
  if (schedule == BAD) {
    unpark(&g_read);
    park(&g_reset);  // preempted between the read and the write
  }
  g_balance = old + 10;  // GUARD:region-end
  unpark(&g_deposited);
  return NULL;
}

int main(int argc, char **argv) {
  int schedule = schedule_of(argc, argv);
  pthread_t t;
  pthread_create(&t, NULL, depositor, SCHEDULE_ARG(schedule));
  if (schedule == BAD) park(&g_read);
  if (schedule == GOOD) park(&g_deposited);
  g_balance = 0;  // GUARD:current
  unpark(&g_reset);
  pthread_join(t, NULL);
  // Either order is fine: reset then deposit (10) or deposit then reset (0).
  if (g_balance != 0 && g_balance != 10) {
    fprintf(stderr, "BUG: the reset was lost (balance %ld)\n", g_balance);
    return 1;
  }
  return 0;
}
