// snag-race-suite
// expect: racy
// why: dup2 replaces a descriptor while another thread closes that same descriptor, with nothing ordering the two
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

__attribute__((noinline)) static void* shut(void* arg) {
  (void)arg;
  close(target);  // RACE:second
  return NULL;
}

int main(void) {
  target = open("/dev/null", O_WRONLY);
  spare = open("/dev/null", O_WRONLY);
  if (target < 0 || spare < 0) return 1;
  pthread_t r, s;
  pthread_create(&r, NULL, redirect, NULL);
  pthread_create(&s, NULL, shut, NULL);
  pthread_join(r, NULL);
  pthread_join(s, NULL);
  close(spare);
  return 0;
}
