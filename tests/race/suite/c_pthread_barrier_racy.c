// snag-race-suite
// expect: racy
// why: one thread writes its slot only AFTER pthread_barrier_wait, while the other reads that slot after the same barrier
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>

pthread_barrier_t barrier;
int left_val, right_val;
int left_saw, right_saw;

__attribute__((noinline)) static void* left(void* arg) {
  (void)arg;
  pthread_barrier_wait(&barrier);
  left_val = 1;  // RACE:first
  left_saw = right_val;
  return NULL;
}

__attribute__((noinline)) static void* right(void* arg) {
  (void)arg;
  right_val = 2;
  pthread_barrier_wait(&barrier);
  right_saw = left_val;  // RACE:second
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
  return left_saw == 2 ? 0 : 1;
}
