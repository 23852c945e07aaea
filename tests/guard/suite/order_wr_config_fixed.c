// snag-guard-suite
// expect: clean
// expose: yes
// why: the twin of order_wr_config_buggy.c: the configuration is published
//      before the worker is created, so the worker always reads it.
#include "guard_test.h"

struct config {
  int port;
};
static struct config g_storage = {8080};
static struct config *g_config;
static gate_t g_ready = GATE_INIT, g_looked = GATE_INIT;
static int g_port;

static void *worker(void *arg) {
  int schedule = SCHEDULE_OF_ARG(arg);
  if (schedule != BAD) park(&g_ready);
  struct config *c = g_config;
  unpark(&g_looked);
  g_port = c ? c->port : -1;
  return NULL;
}

int main(int argc, char **argv) {
  int schedule = schedule_of(argc, argv);
  g_config = &g_storage;
  pthread_t t;
  pthread_create(&t, NULL, worker, SCHEDULE_ARG(schedule));
  if (schedule == BAD) park(&g_looked);
  unpark(&g_ready);
  pthread_join(t, NULL);
  if (g_port == -1) {
    fprintf(stderr, "BUG: the worker read the configuration before it was published\n");
    return 1;
  }
  return 0;
}
