// snag-race-suite
// expect: racy
// why: the reader's last read of the mapping is not ordered before munmap (a relaxed flag only makes it come first in time)
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stddef.h>
#include <sys/mman.h>

char* region;
int sum;
atomic_int done_reading;

__attribute__((noinline)) static void* reader(void* arg) {
  (void)arg;
  sum = region[100];  // RACE:first
  atomic_store_explicit(&done_reading, 1, memory_order_relaxed);
  return NULL;
}

int main(void) {
  region = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (region == MAP_FAILED) return 1;
  region[100] = 1;
  pthread_t t;
  pthread_create(&t, NULL, reader, NULL);
  while (atomic_load_explicit(&done_reading, memory_order_relaxed) == 0) sched_yield();
  munmap(region, 4096);  // RACE:second
  pthread_join(t, NULL);
  return sum == 1 ? 0 : 1;
}
