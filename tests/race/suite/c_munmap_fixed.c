// snag-race-suite
// expect: clean
// why: the mapping is unmapped only after the reader was joined
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
  sum = region[100];
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
  pthread_join(t, NULL);
  munmap(region, 4096);
  return sum == 1 ? 0 : 1;
}
