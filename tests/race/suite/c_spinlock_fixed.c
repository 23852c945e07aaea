// snag-race-suite
// expect: clean
// why: both threads protect the shared total with the same pthread spinlock
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>

pthread_spinlock_t spin_a, spin_b;
long total;

__attribute__((noinline)) static void* add_a(void* arg) {
  (void)arg;
  for (int i = 0; i < 100; ++i) {
    pthread_spin_lock(&spin_a);
    total += 1;
    pthread_spin_unlock(&spin_a);
  }
  return NULL;
}

__attribute__((noinline)) static void* add_b(void* arg) {
  (void)arg;
  for (int i = 0; i < 100; ++i) {
    pthread_spin_lock(&spin_a);
    total += 2;
    pthread_spin_unlock(&spin_a);
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
  return total == 300 ? 0 : 1;
}
