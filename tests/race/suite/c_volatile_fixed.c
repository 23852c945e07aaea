// snag-race-suite
// expect: clean
// why: the counter is a C11 _Atomic int, so ++ is an atomic read-modify-write (same code, different qualifier)
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>

_Atomic int ticks;

__attribute__((noinline)) static void* tick(void* arg) {
  (void)arg;
  for (int i = 0; i < 1000; ++i)
    ticks++;
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, tick, NULL);
  pthread_create(&b, NULL, tick, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return ticks == 2000 ? 0 : 1;
}
