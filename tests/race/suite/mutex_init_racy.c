// snag-race-suite
// expect: racy
// why: one thread initializes the mutex while the other may already be locking it; nothing orders pthread_mutex_init before the other thread's lock, which reads the mutex
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t lock;
static int counter;

static void *initializer(void *arg) {
  (void)arg;
  pthread_mutex_init(&lock, NULL);  // RACE:first
  pthread_mutex_lock(&lock);
  counter++;
  pthread_mutex_unlock(&lock);
  return NULL;
}

static void *user(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock); counter++; pthread_mutex_unlock(&lock);  // RACE:second
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, initializer, NULL);
  pthread_create(&b, NULL, user, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_mutex_destroy(&lock);
  return counter == 2 ? 0 : 1;
}
