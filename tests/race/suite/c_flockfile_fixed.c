// snag-race-suite
// expect: clean
// why: both threads count their lines while holding stdout's stream lock (flockfile is a lock)
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

int lines_written;

__attribute__((noinline)) static void* locked_writer(void* arg) {
  (void)arg;
  flockfile(stdout);
  lines_written = lines_written + 1;
  funlockfile(stdout);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, locked_writer, NULL);
  pthread_create(&b, NULL, locked_writer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return lines_written == 2 ? 0 : 1;
}
