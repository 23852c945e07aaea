// explore suite: c_lost_update_all_5, buggy twin.
// Each of the 5 writers increments the counter with a separate __atomic load and store,
// and the check after joining fails only when every writer loaded the initial 0, that is
// when all 5 writers are between their load and their store at once (four preemptions).
// explore-budget: 10000
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#define WRITERS 5

static int counter;    // accessed with __atomic builtins
static int saw_other;  // writers that saw another writer's increment

static void* writer(void* arg) {
  (void)arg;
  int seen = __atomic_load_n(&counter, __ATOMIC_RELAXED);
  __atomic_store_n(&counter, seen + 1, __ATOMIC_RELAXED);
  if (seen > 0)
    __atomic_fetch_add(&saw_other, 1, __ATOMIC_RELAXED);
  return NULL;
}

int main(void) {
  pthread_t t[WRITERS];
  for (int i = 0; i < WRITERS; i++)
    pthread_create(&t[i], NULL, writer, NULL);
  for (int i = 0; i < WRITERS; i++)
    pthread_join(t[i], NULL);
  assert(__atomic_load_n(&saw_other, __ATOMIC_RELAXED) > 0);  // BUG: assertion-failure
  return 0;
}
