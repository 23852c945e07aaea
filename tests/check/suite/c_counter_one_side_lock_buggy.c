// snag-check-suite
// expect: race
// why: the pthread worker bumps `hits` under hits_lock but main's reset writes it without taking the lock
#include <pthread.h>

static pthread_mutex_t hits_lock = PTHREAD_MUTEX_INITIALIZER;
static long hits = 0;

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&hits_lock);
  hits += 1;  // RACE:first
  pthread_mutex_unlock(&hits_lock);
  return NULL;
}

static void reset_stats(void) {
  hits = 0;  // RACE:second
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  reset_stats();
  pthread_join(t, NULL);
  return hits <= 1 ? 0 : 1;
}
