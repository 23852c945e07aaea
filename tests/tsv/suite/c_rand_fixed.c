// snag-tsv-suite
// expect: clean
// why: each thread draws numbers with rand_r() from its own seed, so no generator state is shared
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

static pthread_barrier_t start;
int rolls[2];

__attribute__((noinline)) static int roll_die(unsigned *seed) {
  return rand_r(seed) % 6 + 1;
}

static void *player(void *arg) {
  int *slot = arg;
  unsigned seed = (unsigned)(slot - rolls) + 1;
  pthread_barrier_wait(&start);
  *slot = roll_die(&seed);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_barrier_init(&start, NULL, 2);
  pthread_create(&a, NULL, player, &rolls[0]);
  pthread_create(&b, NULL, player, &rolls[1]);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_barrier_destroy(&start);
  return 0;
}
