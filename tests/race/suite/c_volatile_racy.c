// snag-race-suite
// expect: racy
// why: volatile is not synchronization: two threads incrementing a volatile int still race
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>

volatile int ticks;

__attribute__((noinline)) static void* tick(void* arg) {
  (void)arg;
  for (int i = 0; i < 1000; ++i)
    ticks++;  // RACE:first RACE:second
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, tick, NULL);
  pthread_create(&b, NULL, tick, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}
