// snag-race-suite
// expect: clean
// why: main initializes the mutex before it starts the threads that lock it
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t lock;
static int counter;

static void *first_user(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  counter++;
  pthread_mutex_unlock(&lock);
  return NULL;
}

static void *user(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock); counter++; pthread_mutex_unlock(&lock);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_mutex_init(&lock, NULL);
  pthread_create(&a, NULL, first_user, NULL);
  pthread_create(&b, NULL, user, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_mutex_destroy(&lock);
  return counter == 2 ? 0 : 1;
}
