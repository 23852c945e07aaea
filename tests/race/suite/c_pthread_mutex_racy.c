// snag-race-suite
// expect: racy
// why: two threads increment a global counter; only one of them takes the pthread mutex
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>

pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
long hits;

__attribute__((noinline)) static void* careful(void* arg) {
  (void)arg;
  for (int i = 0; i < 100; ++i) {
    pthread_mutex_lock(&lock);
    hits += 1;  // RACE:first
    pthread_mutex_unlock(&lock);
  }
  return NULL;
}

__attribute__((noinline)) static void* careless(void* arg) {
  (void)arg;
  hits += 100;  // RACE:second
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, careful, NULL);
  pthread_create(&b, NULL, careless, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}
