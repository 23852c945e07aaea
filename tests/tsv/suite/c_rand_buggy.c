// snag-tsv-suite
// expect: violation
// object: libc rand state
// why: two threads draw numbers with rand(), which updates one hidden generator state shared by all threads
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

static pthread_barrier_t start;
int rolls[2];

__attribute__((noinline)) static int roll_die(void) {
  return rand() % 6 + 1;  // TSV:first TSV:second
}

static void *player(void *arg) {
  int *slot = arg;
  pthread_barrier_wait(&start);
  *slot = roll_die();
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
