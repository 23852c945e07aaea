// explore suite: c_join_detached, buggy twin.
// The worker detaches itself, so when its pthread_detach comes before
// main's pthread_join, the join returns EINVAL at once (glibc; POSIX leaves
// it undefined) and main reads the result before the worker stored it.
// explore-budget: 2000
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

static atomic_int result;

static void* worker(void* arg) {
  (void)arg;
  pthread_detach(pthread_self());
  atomic_store(&result, 42);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_join(t, NULL);  // EINVAL, not a wait, once the worker detached itself
  assert(atomic_load(&result) == 42);  // BUG: assertion-failure
  return 0;
}
