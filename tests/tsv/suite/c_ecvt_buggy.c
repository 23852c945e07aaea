// snag-tsv-suite
// expect: violation
// object: libc ecvt/fcvt buffer
// why: two threads format numbers with ecvt(), which returns a pointer to one static buffer shared by all threads, with no lock
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

static pthread_barrier_t start;
static const double values[2] = {3.25, 1250.5};
char leading_digit[2];

__attribute__((noinline)) static char first_digit(double value) {
  int exponent, negative;
  const char *digits = ecvt(value, 6, &exponent, &negative);  // TSV:first TSV:second
  return digits[0];
}

static void *formatter(void *arg) {
  int i = *(const int *)arg;
  pthread_barrier_wait(&start);
  leading_digit[i] = first_digit(values[i]);
  return NULL;
}

int main(void) {
  static const int ids[2] = {0, 1};
  pthread_t a, b;
  pthread_barrier_init(&start, NULL, 2);
  pthread_create(&a, NULL, formatter, (void *)&ids[0]);
  pthread_create(&b, NULL, formatter, (void *)&ids[1]);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_barrier_destroy(&start);
  return 0;
}
