// snag-guard-suite
// expect: tolerated
// pattern: multi-variable
// why: a range's two bounds must change together, but the writer stores
//      them one after the other (Mozilla's js_FlushPropertyCache shape, Lu
//      et al. 2008); a reader between the stores sees low > high. The
//      bounds are guarded as one variable with SNAG_GUARD_SAME_VARIABLE.
#include <snag/annotations.h>

#include "guard_test.h"

static volatile int g_low = 0, g_high = 10;
static gate_t g_half = GATE_INIT, g_read = GATE_INIT, g_moved = GATE_INIT;
static int g_seen_low, g_seen_high;

static void *mover(void *arg) {
  int schedule = SCHEDULE_OF_ARG(arg);
  if (schedule == GOOD2) park(&g_read);
  g_low = 20;  // GUARD:previous
  if (schedule == BAD) {
    unpark(&g_half);
    park(&g_read);  // preempted between the two bounds
  }
  g_high = 30;  // GUARD:region-end
  unpark(&g_moved);
  return NULL;
}

int main(int argc, char **argv) {
  int schedule = schedule_of(argc, argv);
  SNAG_GUARD_SAME_VARIABLE(&g_high, sizeof g_high, &g_low);
  pthread_t t;
  pthread_create(&t, NULL, mover, SCHEDULE_ARG(schedule));
  if (schedule == BAD) park(&g_half);
  if (schedule == GOOD) park(&g_moved);
  g_seen_low = g_low;  // GUARD:current
  g_seen_high = g_high;
  unpark(&g_read);
  pthread_join(t, NULL);
  if (g_seen_low > g_seen_high) {
    fprintf(stderr, "BUG: the reader saw the range [%d, %d]\n", g_seen_low, g_seen_high);
    return 1;
  }
  return 0;
}
