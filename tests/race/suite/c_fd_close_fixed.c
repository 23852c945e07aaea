// snag-race-suite
// expect: clean
// why: the descriptor is closed only after the writer was joined
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>
#include <unistd.h>

int fds[2];

__attribute__((noinline)) static void* writer(void* arg) {
  (void)arg;
  (void)!write(fds[1], "x", 1);
  return NULL;
}

__attribute__((noinline)) static void* closer(void* arg) {
  (void)arg;
  close(fds[1]);
  return NULL;
}

int main(void) {
  if (pipe(fds) != 0) return 1;
  pthread_t w, c;
  pthread_create(&w, NULL, writer, NULL);
  pthread_join(w, NULL);
  pthread_create(&c, NULL, closer, NULL);
  pthread_join(c, NULL);
  close(fds[0]);
  return 0;
}
