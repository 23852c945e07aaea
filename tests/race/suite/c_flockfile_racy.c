// snag-race-suite
// expect: racy
// why: one thread counts its lines while holding stdout's stream lock, the other counts without taking it
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

int lines_written;

__attribute__((noinline)) static void* locked_writer(void* arg) {
  (void)arg;
  flockfile(stdout);
  lines_written = lines_written + 1;  // RACE:first
  funlockfile(stdout);
  return NULL;
}

__attribute__((noinline)) static void* unlocked_writer(void* arg) {
  (void)arg;
  lines_written = lines_written + 1;  // RACE:second
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, locked_writer, NULL);
  pthread_create(&b, NULL, unlocked_writer, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return lines_written == 2 || lines_written == 1 ? 0 : 1;
}
