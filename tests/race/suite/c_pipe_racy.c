// snag-race-suite
// expect: racy
// why: the producer writes the wake-up byte into a pipe BEFORE filling the shared record, so the consumer's read after read() races with it
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>
#include <unistd.h>

int fds[2];
int record;
int seen;

__attribute__((noinline)) static void* producer(void* arg) {
  char byte = 'x';
  if (write(fds[1], &byte, 1) != 1) return NULL;
  record = *(int*)arg;  // RACE:first
  return NULL;
}

__attribute__((noinline)) static void* consumer(void* arg) {
  (void)arg;
  char byte;
  if (read(fds[0], &byte, 1) != 1) return NULL;
  seen = record;  // RACE:second
  return NULL;
}

int main(int argc, char** argv) {
  (void)argv;
  int v = argc + 41;
  pthread_t p, c;
  if (pipe(fds) != 0) return 1;
  pthread_create(&c, NULL, consumer, NULL);
  pthread_create(&p, NULL, producer, &v);
  pthread_join(p, NULL);
  pthread_join(c, NULL);
  close(fds[0]);
  close(fds[1]);
  return seen >= 0 ? 0 : 1;
}
