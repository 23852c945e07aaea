// explore suite: c_plain_lost_wakeup, fixed twin.
// done is written and checked under the mutex, and the waiter waits in a loop until it
// is set.
// explore-budget: 2000
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int done;  // guarded by m

static void* waiter(void* arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  while (!done)
    pthread_cond_wait(&c, &m);
  pthread_mutex_unlock(&m);
  return NULL;
}

static void* finisher(void* arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  done = 1;
  pthread_cond_signal(&c);
  pthread_mutex_unlock(&m);
  return NULL;
}

int main(void) {
  pthread_t w, f;
  pthread_create(&w, NULL, waiter, NULL);
  pthread_create(&f, NULL, finisher, NULL);
  pthread_join(w, NULL);
  pthread_join(f, NULL);
  return 0;
}
