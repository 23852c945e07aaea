// snag-race-suite
// expect: clean
// why: each thread writes its slot before pthread_barrier_wait and reads the other's slot after it
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>

pthread_barrier_t barrier;
int left_val, right_val;
int left_saw, right_saw;

__attribute__((noinline)) static void* left(void* arg) {
  (void)arg;
  left_val = 1;
  pthread_barrier_wait(&barrier);
  left_saw = right_val;
  return NULL;
}

__attribute__((noinline)) static void* right(void* arg) {
  (void)arg;
  right_val = 2;
  pthread_barrier_wait(&barrier);
  right_saw = left_val;
  return NULL;
}

int main(void) {
  pthread_t l, r;
  pthread_barrier_init(&barrier, NULL, 2);
  pthread_create(&l, NULL, left, NULL);
  pthread_create(&r, NULL, right, NULL);
  pthread_join(l, NULL);
  pthread_join(r, NULL);
  pthread_barrier_destroy(&barrier);
  return left_saw == 2 && right_saw == 1 ? 0 : 1;
}
