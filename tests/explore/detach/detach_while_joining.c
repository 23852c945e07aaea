// A worker that detaches itself while main already waits in pthread_join:
// glibc leaves it joinable (pthread_detach returns 0 and does nothing), so
// the join waits for it and returns 0. Run under preempt-bound's first
// schedule (bound 0: no preemption), main always reaches its join first.
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

static void* worker(void* arg) {
  (void)arg;
  int rc = pthread_detach(pthread_self());
  assert(rc == 0);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  int rc = pthread_join(t, NULL);  // begun before the detach: it waits
  assert(rc == 0);
  return 0;
}
