// snag-check-suite
// expect: clean
// why: main's reset takes hits_lock too, so both writes of `hits` are ordered by the pthread mutex
#include <pthread.h>

static pthread_mutex_t hits_lock = PTHREAD_MUTEX_INITIALIZER;
static long hits = 0;

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&hits_lock);
  hits += 1;
  pthread_mutex_unlock(&hits_lock);
  return NULL;
}

static void reset_stats(void) {
  pthread_mutex_lock(&hits_lock);
  hits = 0;
  pthread_mutex_unlock(&hits_lock);
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  reset_stats();
  pthread_join(t, NULL);
  return hits <= 1 ? 0 : 1;
}
