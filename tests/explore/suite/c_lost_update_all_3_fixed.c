// explore suite: c_lost_update_all_3, fixed twin.
// Each writer increments the counter with one atomic_fetch_add, so every writer but the
// first sees an earlier increment.
// explore-budget: 5000
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#define WRITERS 3

static atomic_int counter;
static atomic_int saw_other;  // writers that saw another writer's increment

static void* writer(void* arg) {
  (void)arg;
  int seen = atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed);
  if (seen > 0)
    atomic_fetch_add_explicit(&saw_other, 1, memory_order_relaxed);
  return NULL;
}

int main(void) {
  pthread_t t[WRITERS];
  for (int i = 0; i < WRITERS; i++)
    pthread_create(&t[i], NULL, writer, NULL);
  for (int i = 0; i < WRITERS; i++)
    pthread_join(t[i], NULL);
  assert(atomic_load(&saw_other) > 0);
  return 0;
}
