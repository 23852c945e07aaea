// snag-guard-suite
// expect: tolerated
// learn: good
// expose: yes
// pattern: order W-R
// why: the main thread starts the worker and only then publishes the
//      configuration the worker reads (Transmission #1818's shape); in
//      correct runs the worker is slower, but nothing makes it wait.
#include "guard_test.h"

struct config {
  int port;
};
static struct config g_storage = {8080};
static struct config *volatile g_config;
static gate_t g_ready = GATE_INIT, g_looked = GATE_INIT;
static int g_port;

static void *worker(void *arg) {
  int schedule = SCHEDULE_OF_ARG(arg);
  if (schedule != BAD) park(&g_ready);  // in correct runs it starts late
  struct config *c = g_config;  // GUARD:current
  unpark(&g_looked);
  g_port = c ? c->port : -1;
  return NULL;
}

int main(int argc, char **argv) {
  int schedule = schedule_of(argc, argv);
  pthread_t t;
  pthread_create(&t, NULL, worker, SCHEDULE_ARG(schedule));
  if (schedule == BAD) park(&g_looked);  // preempted before publishing
  g_config = &g_storage;  // GUARD:previous
  unpark(&g_ready);
  pthread_join(t, NULL);
  if (g_port == -1) {
    fprintf(stderr, "BUG: the worker read the configuration before it was published\n");
    return 1;
  }
  return 0;
}
