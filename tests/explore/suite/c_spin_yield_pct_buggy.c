// explore suite: c_spin_yield_pct, buggy twin.
// The same yielding spin lock, but a worker's give() lets go of the lock before its update is
// written back (the store of counter comes after the release): another worker can read the
// old value in between, an update is lost and the assertion fails. The yielding waiters must
// not hide the bug behind a false hang under pct.
// explore-options: --strategy pct
// explore-budget: 300
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <unistd.h>

static atomic_int busy;
static atomic_int counter;

static void take(int use_usleep) {
  while (atomic_exchange(&busy, 1)) {
    if (use_usleep)
      usleep(0);
    else
      sched_yield();
  }
}

static void give(void) { atomic_store(&busy, 0); }

static void* worker(void* arg) {
  int use_usleep = arg != NULL;
  for (int i = 0; i < 3; i++) {
    take(use_usleep);
    int seen = atomic_load(&counter);
    give();
    atomic_store(&counter, seen + 1);
  }
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, worker, NULL);
  pthread_create(&b, NULL, worker, (void*)1);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(atomic_load(&counter) == 6);  // BUG: assertion-failure
  return 0;
}
