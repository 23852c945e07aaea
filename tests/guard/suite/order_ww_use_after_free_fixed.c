// snag-guard-suite
// expect: clean
// expose: yes
// why: the twin of order_ww_use_after_free_buggy.c: the main thread joins
//      the worker before it frees the job, so the worker's write always
//      comes first.
#include "guard_test.h"

enum { NEW = 0, DONE = 1, FREED = 2 };
struct job {
  int status;
};
static struct job g_pool[1];
static struct job *g_job;
static gate_t g_done = GATE_INIT;

static void *worker(void *arg) {
  int schedule = SCHEDULE_OF_ARG(arg);
  struct job *job = g_job;
  if (schedule == GOOD) unpark(&g_done);
  job->status = DONE;
  return NULL;
}

int main(int argc, char **argv) {
  int schedule = schedule_of(argc, argv);
  g_job = &g_pool[0];
  g_job->status = NEW;
  pthread_t t;
  pthread_create(&t, NULL, worker, SCHEDULE_ARG(schedule));
  if (schedule == GOOD) park(&g_done);
  pthread_join(t, NULL);
  g_job->status = FREED;
  if (g_pool[0].status != FREED) {
    fprintf(stderr, "BUG: the worker wrote into the job after it was freed\n");
    return 1;
  }
  return 0;
}
