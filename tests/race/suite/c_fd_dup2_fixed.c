// snag-race-suite
// expect: clean
// why: dup2 over a descriptor another thread writes to is a use of it, not a race (daemons dup /dev/null over stdout on purpose); it is closed only after both threads were joined
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <unistd.h>

int target, spare;

__attribute__((noinline)) static void* redirect(void* arg) {
  (void)arg;
  dup2(spare, target);
  return NULL;
}

__attribute__((noinline)) static void* log_line(void* arg) {
  (void)arg;
  (void)!write(target, "line\n", 5);
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
