// explore suite: c_void_main, fixed twin.
// A correct program whose main is declared void, so its exit status is whatever was left
// in a register; a schedule that ends with a non-zero status that replay does not
// reproduce is "not reproducible", not a bug.
// explore-budget: 2000
#include <pthread.h>
#include <stdatomic.h>

static atomic_int done;

static void *work(void *arg) {
  (void)arg;
  atomic_fetch_add(&done, 1);
  return 0;
}

void main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, work, 0);
  pthread_create(&b, 0, work, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
}
