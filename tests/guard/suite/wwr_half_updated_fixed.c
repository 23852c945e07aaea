// snag-guard-suite
// expect: clean
// why: the twin of wwr_half_updated_buggy.c: both writes and the read hold
//      one mutex, so no read falls between the two writes; "bad" lets the
//      reader run between two complete updates.
#include "guard_test.h"

static int g_record = 7;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static gate_t g_marked = GATE_INIT, g_read = GATE_INIT, g_written = GATE_INIT;
static int g_seen;

static void *reader(void *arg) {
  int schedule = SCHEDULE_OF_ARG(arg);
  if (schedule == BAD) park(&g_marked);
  if (schedule == GOOD) park(&g_written);
  pthread_mutex_lock(&g_lock);
  g_seen = g_record;
  pthread_mutex_unlock(&g_lock);
  unpark(&g_read);
  return NULL;
}

static void update(int value) {
  pthread_mutex_lock(&g_lock);
  g_record = -1;
  g_record = value;
  pthread_mutex_unlock(&g_lock);
}

int main(int argc, char **argv) {
  int schedule = schedule_of(argc, argv);
  pthread_t t;
  pthread_create(&t, NULL, reader, SCHEDULE_ARG(schedule));
  if (schedule == GOOD2) park(&g_read);
  update(8);
  if (schedule == BAD) {
    unpark(&g_marked);
    park(&g_read);
  }
  update(9);
  unpark(&g_written);
  pthread_join(t, NULL);
  if (g_seen == -1) {
    fprintf(stderr, "BUG: the reader saw a half-updated record\n");
    return 1;
  }
  return 0;
}
