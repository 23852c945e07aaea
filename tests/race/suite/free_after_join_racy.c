// snag-race-suite
// expect: racy
// why: main frees a block a thread wrote, after seeing the block's address through a relaxed atomic but before joining the thread: a relaxed load orders nothing, so the free races with the thread's write
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

static _Atomic(char *) block;

static void *fill(void *arg) {
  (void)arg;
  char *p = malloc(64);
  p[8] = 2;  // RACE:first
  atomic_store_explicit(&block, p, memory_order_relaxed);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, fill, NULL);
  char *p;
  while ((p = atomic_load_explicit(&block, memory_order_relaxed)) == NULL) {
  }
  free(p);  // RACE:second
  pthread_join(t, NULL);
  return 0;
}
