// explore suite: c_lost_wakeup_signal_first, fixed twin.
// The signaller sets a flag under the mutex and the waiter waits in a loop until it is
// set, so a signal sent early is not needed.
// explore-budget: 2000
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int signalled;  // guarded by m

static void* waiter(void* arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  while (!signalled)
    pthread_cond_wait(&c, &m);
  pthread_mutex_unlock(&m);
  return NULL;
}

static void* signaller(void* arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  signalled = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(void) {
  pthread_t w, s;
  pthread_create(&w, NULL, waiter, NULL);
  pthread_create(&s, NULL, signaller, NULL);
  pthread_join(w, NULL);
  pthread_join(s, NULL);
  return 0;
}
