// explore suite: c_capacity_limit_4, fixed twin.
// A worker takes a slot with a compare-exchange loop that only succeeds while a slot is
// free.
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
  int seen = atomic_load(&active);
  while (seen < SLOTS && !atomic_compare_exchange_strong(&active, &seen, seen + 1)) {
  }
  if (seen < SLOTS) {
    int now = seen + 1;
    assert(now <= SLOTS);
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
