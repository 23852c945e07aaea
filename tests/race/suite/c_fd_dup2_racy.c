// snag-race-suite
// expect: racy
// why: dup2 replaces a descriptor (closing the old file) while another thread is still writing through it
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <unistd.h>

int target, spare;

__attribute__((noinline)) static void* redirect(void* arg) {
  (void)arg;
  dup2(spare, target);  // RACE:first
  return NULL;
}

__attribute__((noinline)) static void* log_line(void* arg) {
  (void)arg;
  (void)!write(target, "line\n", 5);  // RACE:second
  return NULL;
}

int main(void) {
  target = open("/dev/null", O_WRONLY);
  spare = open("/dev/null", O_WRONLY);
  if (target < 0 || spare < 0) return 1;
  pthread_t r, l;
  pthread_create(&r, NULL, redirect, NULL);
  pthread_create(&l, NULL, log_line, NULL);
  pthread_join(r, NULL);
  pthread_join(l, NULL);
  close(target);
  close(spare);
  return 0;
}
