// snag-guard-suite
// expect: tolerated
// lean: yes
// learn: good
// expose: yes
// pattern: order W-W
// why: the main thread frees a job (marks it free and returns it to the
//      pool) assuming the worker already wrote its result into it (the
//      W-W order violation of Mozilla's nspr, Lu et al. 2008); when the
//      worker is late it writes into a freed job: a use after free.
#include "guard_test.h"

enum { NEW = 0, DONE = 1, FREED = 2 };
struct job {
  int status;
};
static struct job g_pool[1];
static struct job *g_job;
static gate_t g_done = GATE_INIT, g_freed = GATE_INIT;

static void *worker(void *arg) {
  int schedule = SCHEDULE_OF_ARG(arg);
  struct job *job = g_job;
  if (schedule == BAD) park(&g_freed);  // late
  job->status = DONE;  // GUARD:previous
  unpark(&g_done);
  return NULL;
}

int main(int argc, char **argv) {
  int schedule = schedule_of(argc, argv);
  g_job = &g_pool[0];
  g_job->status = NEW;
  pthread_t t;
  pthread_create(&t, NULL, worker, SCHEDULE_ARG(schedule));
  if (schedule != BAD) park(&g_done);  // correct runs: the worker is quick
  g_job->status = FREED;  // GUARD:current
  unpark(&g_freed);
  pthread_join(t, NULL);
  if (g_pool[0].status != FREED) {
    fprintf(stderr, "BUG: the worker wrote into the job after it was freed\n");
    return 1;
  }
  return 0;
}
