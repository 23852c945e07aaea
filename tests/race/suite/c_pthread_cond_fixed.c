// snag-race-suite
// expect: clean
// why: the producer fills the payload, then sets the predicate under the mutex and signals; the consumer waits in a predicate loop and reads the payload afterwards
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>

pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
int ready;
int payload;
int seen;

__attribute__((noinline)) static void* producer(void* arg) {
  payload = *(int*)arg;
  pthread_mutex_lock(&mu);
  ready = 1;
  pthread_cond_signal(&cond);
  pthread_mutex_unlock(&mu);
  return NULL;
}

__attribute__((noinline)) static void* consumer(void* arg) {
  (void)arg;
  pthread_mutex_lock(&mu);
  while (!ready)
    pthread_cond_wait(&cond, &mu);
  pthread_mutex_unlock(&mu);
  seen = payload;
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
  return seen == argc + 41 ? 0 : 1;
}
