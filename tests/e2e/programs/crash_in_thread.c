/* Crashes in a worker thread with no race before it: snag race reports no
   finding, and its note about the signal names the line and the thread. */
#include <pthread.h>
#include <stddef.h>

int *volatile nowhere;

static void *worker(void *arg) {
  *nowhere = 1; /* MARK:segv */
  return arg;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_join(t, NULL);
  return 0;
}
