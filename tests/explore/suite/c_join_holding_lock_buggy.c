// explore suite: c_join_holding_lock, buggy twin.
// The supervisor thread joins its helper while holding the mutex the helper needs, so
// whenever the supervisor locks before the helper does (no preemption needed) both wait
// forever, and main waits for the supervisor.
// explore-budget: 2000
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int progress;  // guarded by m

static void* helper(void* arg) {
  (void)arg;
  pthread_mutex_lock(&m);  // BUG: deadlock
  progress++;
  pthread_mutex_unlock(&m);
  return NULL;
}

static void* supervisor(void* arg) {
  (void)arg;
  pthread_t h;
  pthread_create(&h, NULL, helper, NULL);
  pthread_mutex_lock(&m);  // BUG: deadlock
  progress = 10 * progress;
  pthread_join(h, NULL);  // BUG: deadlock
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(void) {
  pthread_t s;
  pthread_create(&s, NULL, supervisor, NULL);
  pthread_join(s, NULL);  // BUG: deadlock
  return 0;
}
