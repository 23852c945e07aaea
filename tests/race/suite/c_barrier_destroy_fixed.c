// snag-race-suite
// expect: clean
// why: the barrier is destroyed only after both threads that waited on it were joined
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>

pthread_barrier_t barrier;

__attribute__((noinline)) static void* meet(void* arg) {
  (void)arg;
  pthread_barrier_wait(&barrier);
  return NULL;
}

int main(void) {
  pthread_barrier_init(&barrier, NULL, 2);
  pthread_t a, b;
  pthread_create(&a, NULL, meet, NULL);
  pthread_create(&b, NULL, meet, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_barrier_destroy(&barrier);
  return 0;
}
