// snag-race-suite
// expect: racy
// why: each thread protects the shared total with its OWN pthread spinlock, so nothing orders the updates
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>

pthread_spinlock_t spin_a, spin_b;
long total;

__attribute__((noinline)) static void* add_a(void* arg) {
  (void)arg;
  for (int i = 0; i < 100; ++i) {
    pthread_spin_lock(&spin_a);
    total += 1;  // RACE:first
    pthread_spin_unlock(&spin_a);
  }
  return NULL;
}

__attribute__((noinline)) static void* add_b(void* arg) {
  (void)arg;
  for (int i = 0; i < 100; ++i) {
    pthread_spin_lock(&spin_b);
    total += 2;  // RACE:second
    pthread_spin_unlock(&spin_b);
  }
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_spin_init(&spin_a, PTHREAD_PROCESS_PRIVATE);
  pthread_spin_init(&spin_b, PTHREAD_PROCESS_PRIVATE);
  pthread_create(&a, NULL, add_a, NULL);
  pthread_create(&b, NULL, add_b, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_spin_destroy(&spin_a);
  pthread_spin_destroy(&spin_b);
  return 0;
}
