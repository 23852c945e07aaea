// snag-guard-suite
// expect: clean
// why: the twin of multivar_range_buggy.c: both bounds are stored and read
//      under one mutex; "bad" lets the reader run after a complete move.
#include <snag/annotations.h>

#include "guard_test.h"

static int g_low = 0, g_high = 10;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static gate_t g_half = GATE_INIT, g_read = GATE_INIT, g_moved = GATE_INIT;
static int g_seen_low, g_seen_high;

static void *mover(void *arg) {
  int schedule = SCHEDULE_OF_ARG(arg);
  if (schedule == GOOD2) park(&g_read);
  pthread_mutex_lock(&g_lock);
  g_low = 20;
  g_high = 30;
  pthread_mutex_unlock(&g_lock);
  if (schedule == BAD) {
    unpark(&g_half);
    park(&g_read);
  }
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
  pthread_mutex_lock(&g_lock);
  g_seen_low = g_low;
  g_seen_high = g_high;
  pthread_mutex_unlock(&g_lock);
  unpark(&g_read);
  pthread_join(t, NULL);
  if (g_seen_low > g_seen_high) {
    fprintf(stderr, "BUG: the reader saw the range [%d, %d]\n", g_seen_low, g_seen_high);
    return 1;
  }
  return 0;
}
