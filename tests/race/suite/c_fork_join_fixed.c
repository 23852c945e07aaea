// snag-race-suite
// expect: clean
// why: main reads the worker's output only after pthread_join
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>

long output;

__attribute__((noinline)) static void* worker(void* arg) {
  long n = *(long*)arg, s = 0;
  for (long i = 1; i <= n; ++i) s += i;
  output = s;
  return NULL;
}

int main(void) {
  long n = 100;
  pthread_t t;
  pthread_create(&t, NULL, worker, &n);
  pthread_join(t, NULL);
  long late = output;
  return late == 5050 ? 0 : 1;
}
