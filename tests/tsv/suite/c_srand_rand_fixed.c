// snag-tsv-suite
// expect: clean
// why: the srand() and rand() calls are both made under the same pthread mutex
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

static pthread_barrier_t start;
static pthread_mutex_t rng_lock = PTHREAD_MUTEX_INITIALIZER;
int drawn;

static void *reseed(void *arg) {
  (void)arg;
  pthread_barrier_wait(&start);
  pthread_mutex_lock(&rng_lock);
  srand(42);
  pthread_mutex_unlock(&rng_lock);
  return NULL;
}

static void *draw(void *arg) {
  (void)arg;
  pthread_barrier_wait(&start);
  pthread_mutex_lock(&rng_lock);
  drawn = rand();
  pthread_mutex_unlock(&rng_lock);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_barrier_init(&start, NULL, 2);
  pthread_create(&a, NULL, reseed, NULL);
  pthread_create(&b, NULL, draw, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_barrier_destroy(&start);
  return 0;
}
