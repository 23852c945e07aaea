// explore suite: c_plain_run_mode, fixed twin.
// main sets run_mode before starting the worker.
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
  assert(mode == MODE_FAST || mode == MODE_SAFE);
  steps = mode == MODE_FAST ? 1 : 2;
  return NULL;
}

int main(void) {
  pthread_t t;
  run_mode = MODE_SAFE;
  pthread_create(&t, NULL, worker, NULL);
  pthread_join(t, NULL);
  return 0;
}
