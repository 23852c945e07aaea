// explore suite: c_void_main, fixed twin.
// A correct program whose main is declared void, so its exit status is whatever was left
// in a register: the same in every schedule, so not a failure of an interleaving (a note
// says so), not a bug.
// explore-budget: 2000
// explore-expect-note: every schedule exited with status
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
