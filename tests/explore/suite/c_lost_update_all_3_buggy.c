// explore suite: c_lost_update_all_3, buggy twin.
// Each of the 3 writers increments the counter with a separate load and store, and the
// check after joining fails only when every writer loaded the initial 0, that is when all
// 3 writers are between their load and their store at once (two preemptions).
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
  int seen = atomic_load_explicit(&counter, memory_order_relaxed);
  atomic_store_explicit(&counter, seen + 1, memory_order_relaxed);
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
  assert(atomic_load(&saw_other) > 0);  // BUG: assertion-failure
  return 0;
}
