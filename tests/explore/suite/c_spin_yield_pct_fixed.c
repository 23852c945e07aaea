// explore suite: c_spin_yield_pct, fixed twin.
// A test-and-set spin lock whose waiters yield (sched_yield, usleep(0)) guards a counter.
// Under pct a waiter may have the highest priority and yield forever while the holder never
// runs; the scheduler must notice that a yielding thread makes no progress and let the others
// run, so the correct program is no hang.
// explore-options: --strategy pct
// explore-complete
// explore-budget: 300
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <unistd.h>

static atomic_int busy;
static int counter;  // guarded by busy

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
    int seen = counter;
    counter = seen + 1;
    give();
  }
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, worker, NULL);
  pthread_create(&b, NULL, worker, (void*)1);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(counter == 6);
  return 0;
}
