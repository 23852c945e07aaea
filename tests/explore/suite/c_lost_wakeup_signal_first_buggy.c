// explore suite: c_lost_wakeup_signal_first, buggy twin.
// The signaller records no state and the waiter waits unconditionally, so when the
// signaller runs before the waiter reaches pthread_cond_wait (no preemption needed, only
// the order in which the two threads start) the signal is lost.
// explore-budget: 2000
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;

static void* waiter(void* arg) {
  (void)arg;
  pthread_mutex_lock(&m);     // BUG: deadlock
  pthread_cond_wait(&c, &m);  // BUG: deadlock
  pthread_mutex_unlock(&m);
  return NULL;
}

static void* signaller(void* arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(void) {
  pthread_t w, s;
  pthread_create(&w, NULL, waiter, NULL);
  pthread_create(&s, NULL, signaller, NULL);
  pthread_join(w, NULL);  // BUG: deadlock
  pthread_join(s, NULL);  // BUG: deadlock
  return 0;
}
