// snag-tsv-suite
// expect: violation
// object: libc rand state
// why: one thread reseeds the generator with srand() while another draws a number with rand(), with no lock
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

static pthread_barrier_t start;
int drawn;

static void *reseed(void *arg) {
  (void)arg;
  pthread_barrier_wait(&start);
  srand(42);  // TSV:first
  return NULL;
}

static void *draw(void *arg) {
  (void)arg;
  pthread_barrier_wait(&start);
  drawn = rand();  // TSV:second
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
