// explore suite: c_void_main, buggy twin.
// The same void main program, but the workers count with a separate load and store, so a
// count can be lost and the assertion fails: a real bug, which replay reproduces.
// explore-budget: 2000
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

static atomic_int done;

static void *work(void *arg) {
  (void)arg;
  int seen = atomic_load(&done);
  atomic_store(&done, seen + 1);
  return 0;
}

void main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, work, 0);
  pthread_create(&b, 0, work, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(atomic_load(&done) == 2);  // BUG: assertion-failure
}
