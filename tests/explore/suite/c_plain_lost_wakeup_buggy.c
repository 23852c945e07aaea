// explore suite: c_plain_lost_wakeup, buggy twin.
// The waiter checks the plain flag done before taking the mutex and then waits without
// re-checking it, so when the finisher sets it and signals while the waiter is between its
// check and its wait (one preemption, at the waiter's lock) the waiter sleeps forever.
// explore-budget: 2000
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int done;  // plain; written and read without the mutex

static void* waiter(void* arg) {
  (void)arg;
  if (!done) {
    pthread_mutex_lock(&m);     // BUG: deadlock
    pthread_cond_wait(&c, &m);  // BUG: deadlock
    pthread_mutex_unlock(&m);
  }
  return NULL;
}

static void* finisher(void* arg) {
  (void)arg;
  done = 1;
  pthread_mutex_lock(&m);
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(void) {
  pthread_t w, f;
  pthread_create(&w, NULL, waiter, NULL);
  pthread_create(&f, NULL, finisher, NULL);
  pthread_join(w, NULL);  // BUG: deadlock
  pthread_join(f, NULL);  // BUG: deadlock
  return 0;
}
