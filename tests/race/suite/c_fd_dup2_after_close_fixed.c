// snag-race-suite
// expect: clean
// why: the close is ordered before the dup2 onto its number (release store, acquire load), so the number is the new file's and nothing races
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <unistd.h>

int target, spare;
atomic_int closed;

__attribute__((noinline)) static void* shut(void* arg) {
  (void)arg;
  close(target);
  atomic_store_explicit(&closed, 1, memory_order_release);
  return NULL;
}

int main(void) {
  target = open("/dev/null", O_WRONLY);
  spare = open("/dev/null", O_WRONLY);
  if (target < 0 || spare < 0) return 1;
  pthread_t s;
  pthread_create(&s, NULL, shut, NULL);
  while (atomic_load_explicit(&closed, memory_order_acquire) == 0) sched_yield();
  dup2(spare, target);
  pthread_join(s, NULL);
  close(target);
  close(spare);
  return 0;
}
