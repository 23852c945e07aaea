// explore suite: c_hand_rolled_once, buggy twin.
// A hand-rolled "run once" checks the initialized flag and sets it only after running the
// initializer, so when both threads see the flag clear before either sets it (one
// preemption) the initializer runs twice.
// explore-budget: 2000
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

static int initialized;  // accessed with __atomic builtins
static int init_runs;    // accessed with __atomic builtins

static void init_tables(void) {
  int runs = __atomic_add_fetch(&init_runs, 1, __ATOMIC_RELAXED);
  assert(runs == 1);  // BUG: assertion-failure
}

static void* user(void* arg) {
  (void)arg;
  if (!__atomic_load_n(&initialized, __ATOMIC_ACQUIRE)) {
    init_tables();
    __atomic_store_n(&initialized, 1, __ATOMIC_RELEASE);
  }
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, user, NULL);
  pthread_create(&b, NULL, user, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}
