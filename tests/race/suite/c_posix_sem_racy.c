// snag-race-suite
// expect: racy
// why: the producer posts the POSIX semaphore BEFORE writing the message, so the consumer's read after sem_wait races with it
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <semaphore.h>
#include <stddef.h>

static sem_t sem;
int message;
int seen;

__attribute__((noinline)) static void* producer(void* arg) {
  sem_post(&sem);
  message = *(int*)arg;  // RACE:first
  return NULL;
}

__attribute__((noinline)) static void* consumer(void* arg) {
  (void)arg;
  sem_wait(&sem);
  seen = message;  // RACE:second
  return NULL;
}

int main(int argc, char** argv) {
  (void)argv;
  int v = argc + 41;
  pthread_t p, c;
  sem_init(&sem, 0, 0);
  pthread_create(&c, NULL, consumer, NULL);
  pthread_create(&p, NULL, producer, &v);
  pthread_join(p, NULL);
  pthread_join(c, NULL);
  sem_destroy(&sem);
  return seen >= 0 ? 0 : 1;
}
