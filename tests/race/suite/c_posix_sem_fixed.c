// snag-race-suite
// expect: clean
// why: the producer writes the message before sem_post; the consumer reads it after sem_wait
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <semaphore.h>
#include <stddef.h>

static sem_t sem;
int message;
int seen;

__attribute__((noinline)) static void* producer(void* arg) {
  message = *(int*)arg;
  sem_post(&sem);
  return NULL;
}

__attribute__((noinline)) static void* consumer(void* arg) {
  (void)arg;
  sem_wait(&sem);
  seen = message;
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
  return seen == argc + 41 ? 0 : 1;
}
