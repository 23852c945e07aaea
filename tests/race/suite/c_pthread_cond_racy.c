// snag-race-suite
// expect: racy
// why: the producer sets the predicate under the mutex and signals, but fills the payload only afterwards, outside the lock
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
int ready;
int payload;
int seen;

__attribute__((noinline)) static void* producer(void* arg) {
  pthread_mutex_lock(&mu);
  ready = 1;
  pthread_cond_signal(&cond);
  pthread_mutex_unlock(&mu);
  payload = *(int*)arg;  // RACE:first
  return NULL;
}

__attribute__((noinline)) static void* consumer(void* arg) {
  (void)arg;
  pthread_mutex_lock(&mu);
  while (!ready)
    pthread_cond_wait(&cond, &mu);
  pthread_mutex_unlock(&mu);
  seen = payload;  // RACE:second
  return NULL;
}

int main(int argc, char** argv) {
  (void)argv;
  int v = argc + 41;
  pthread_t p, c;
  pthread_create(&c, NULL, consumer, NULL);
  pthread_create(&p, NULL, producer, &v);
  pthread_join(p, NULL);
  pthread_join(c, NULL);
  return seen >= 0 ? 0 : 1;
}
