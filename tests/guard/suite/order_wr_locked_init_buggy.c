// snag-guard-suite
// expect: tolerated
// tolerate: no
// learn: good
// expose: yes
// pattern: order W-R
// why: like order_wr_config_buggy.c, but both sides hold the same mutex
//      (paper 003, Fig. 10): the worker may take it first and read the
//      configuration before it was published. Expose must hold the main
//      thread before it takes the mutex, not at the write inside it, or the
//      worker could never go first. Guard cannot tolerate this one: the
//      worker reaches the read holding the mutex the main thread needs, so
//      its stall ends at the cap and the failure happens (reported "not
//      tolerated").
#include "guard_test.h"

struct config {
  int port;
};
static struct config g_storage = {8080};
static struct config *g_config;
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static gate_t g_ready = GATE_INIT, g_looked = GATE_INIT;
static int g_port;

static void *worker(void *arg) {
  int schedule = SCHEDULE_OF_ARG(arg);
  if (schedule != BAD) park(&g_ready);  // in correct runs it starts late
  pthread_mutex_lock(&g_lock);
  struct config *c = g_config;  // GUARD:current
  g_port = c ? c->port : -1;
  pthread_mutex_unlock(&g_lock);
  unpark(&g_looked);
  return NULL;
}

int main(int argc, char **argv) {
  int schedule = schedule_of(argc, argv);
  pthread_t t;
  pthread_create(&t, NULL, worker, SCHEDULE_ARG(schedule));
  if (schedule == BAD) park(&g_looked);  // preempted before publishing
  pthread_mutex_lock(&g_lock);
  g_config = &g_storage;  // GUARD:previous
  pthread_mutex_unlock(&g_lock);
  unpark(&g_ready);
  pthread_join(t, NULL);
  if (g_port == -1) {
    fprintf(stderr, "BUG: the worker read the configuration before it was published\n");
    return 1;
  }
  return 0;
}
