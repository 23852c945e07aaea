// snag-race-suite
// expect: clean
// why: the thread signals while it still holds the mutex, so the waiter that sees the flag under that mutex is ordered after the signal and may destroy the condition variable
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t cond;
bool done;

__attribute__((noinline)) static void* finisher(void* arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  done = true;
  pthread_cond_signal(&cond);
  pthread_mutex_unlock(&lock);
  return NULL;
}

int main(void) {
  pthread_cond_init(&cond, NULL);
  pthread_t t;
  pthread_create(&t, NULL, finisher, NULL);
  pthread_mutex_lock(&lock);
  while (!done) pthread_cond_wait(&cond, &lock);
  pthread_mutex_unlock(&lock);
  pthread_cond_destroy(&cond);
  pthread_join(t, NULL);
  return 0;
}
