// snag-race-suite
// expect: clean
// why: the producer fills the shared record and then writes a byte into a pipe; the consumer reads it only after read() returns the byte
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>
#include <unistd.h>

int fds[2];
int record;
int seen;

__attribute__((noinline)) static void* producer(void* arg) {
  char byte = 'x';
  record = *(int*)arg;
  if (write(fds[1], &byte, 1) != 1) return NULL;
  return NULL;
}

__attribute__((noinline)) static void* consumer(void* arg) {
  (void)arg;
  char byte;
  if (read(fds[0], &byte, 1) != 1) return NULL;
  seen = record;
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
  return seen == argc + 41 ? 0 : 1;
}
