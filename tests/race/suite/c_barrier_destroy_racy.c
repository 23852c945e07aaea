// snag-race-suite
// expect: racy
// why: the thread the barrier picks destroys it while the other thread may still be inside pthread_barrier_wait
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>

pthread_barrier_t barrier;

__attribute__((noinline)) static void* meet(void* arg) {
  (void)arg;
  if (pthread_barrier_wait(&barrier) == PTHREAD_BARRIER_SERIAL_THREAD)  // RACE:first
    pthread_barrier_destroy(&barrier);  // RACE:second
  return NULL;
}

int main(void) {
  pthread_barrier_init(&barrier, NULL, 2);
  pthread_t a, b;
  pthread_create(&a, NULL, meet, NULL);
  pthread_create(&b, NULL, meet, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}
