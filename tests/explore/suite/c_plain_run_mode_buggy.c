// explore suite: c_plain_run_mode, buggy twin.
// main sets the plain variable run_mode only after starting the worker, so when the worker
// runs first (main preempted right after pthread_create) it reads the unset mode.
// explore-budget: 2000
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

enum { MODE_UNSET, MODE_FAST, MODE_SAFE };

static int run_mode;  // plain; MODE_UNSET until main sets it
static int steps;

static void* worker(void* arg) {
  (void)arg;
  int mode = run_mode;
  assert(mode == MODE_FAST || mode == MODE_SAFE);  // BUG: assertion-failure
  steps = mode == MODE_FAST ? 1 : 2;
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  run_mode = MODE_SAFE;
  pthread_join(t, NULL);
  return 0;
}
