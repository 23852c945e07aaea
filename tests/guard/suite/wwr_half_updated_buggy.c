// snag-guard-suite
// expect: tolerated
// pattern: W-W|R
// why: the writer marks a record as being rewritten (-1) and then stores
//      the new value, assuming nobody reads in between (Mozilla #73761's
//      shape); a reader preempted into that gap sees the marker.
#include "guard_test.h"

static volatile int g_record = 7;
static gate_t g_marked = GATE_INIT, g_read = GATE_INIT, g_written = GATE_INIT;
static int g_seen;

static void *reader(void *arg) {
  int schedule = SCHEDULE_OF_ARG(arg);
  if (schedule == BAD) park(&g_marked);
  if (schedule == GOOD) park(&g_written);
  g_seen = g_record;  // GUARD:current
  unpark(&g_read);
  return NULL;
}

int main(int argc, char **argv) {
  int schedule = schedule_of(argc, argv);
  pthread_t t;
  pthread_create(&t, NULL, reader, SCHEDULE_ARG(schedule));
  if (schedule == GOOD2) park(&g_read);
  g_record = -1;  // GUARD:previous
  if (schedule == BAD) {
    unpark(&g_marked);
    park(&g_read);  // preempted between the two writes
  }
  g_record = 8;  // GUARD:region-end
  unpark(&g_written);
  pthread_join(t, NULL);
  if (g_seen == -1) {
    fprintf(stderr, "BUG: the reader saw a half-updated record\n");
    return 1;
  }
  return 0;
}
