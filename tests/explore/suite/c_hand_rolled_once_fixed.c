// explore suite: c_hand_rolled_once, fixed twin.
// The initializer runs through pthread_once, which runs it exactly once and makes the
// other caller wait for it.
// explore-budget: 2000
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int init_runs;  // accessed with __atomic builtins

static void init_tables(void) {
  int runs = __atomic_add_fetch(&init_runs, 1, __ATOMIC_RELAXED);
  assert(runs == 1);
}

static void* user(void* arg) {
  (void)arg;
  pthread_once(&once, init_tables);
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
