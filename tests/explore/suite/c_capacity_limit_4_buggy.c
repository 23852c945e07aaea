// explore suite: c_capacity_limit_4, buggy twin.
// A worker checks that one of the 3 slots is free and takes it with a separate
// atomic_fetch_add, so when all four workers are admitted together (three inside and the
// fourth preempted between its check and its add, three or four preemptions) four
// workers occupy three slots; fewer than four threads cannot exceed the limit.
// explore-budget: 10000
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#define WORKERS 4
#define SLOTS 3

static atomic_int active;

static void* worker(void* arg) {
  (void)arg;
  if (atomic_load(&active) < SLOTS) {
    int now = atomic_fetch_add(&active, 1) + 1;
    assert(now <= SLOTS);  // BUG: assertion-failure
    atomic_fetch_sub(&active, 1);
  }
  return NULL;
}

int main(void) {
  pthread_t t[WORKERS];
  for (int i = 0; i < WORKERS; i++)
    pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < WORKERS; i++)
    pthread_join(t[i], NULL);
  return 0;
}
