// explore suite: c_claim_owner, fixed twin.
// claim() takes the free owner slot with one compare-exchange, so only one thread ever
// writes its id.
// explore-budget: 5000
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

static int owner;  // 0: free; accessed with __atomic builtins

static void* claim(void* arg) {
  int me = (int)(intptr_t)arg;
  int expected = 0;
  if (__atomic_compare_exchange_n(&owner, &expected, me, 0, __ATOMIC_RELAXED,
                                  __ATOMIC_RELAXED)) {
    int now = __atomic_load_n(&owner, __ATOMIC_RELAXED);
    assert(now == me);
  }
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, claim, (void*)(intptr_t)1);
  pthread_create(&b, NULL, claim, (void*)(intptr_t)2);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}
