// explore suite: c_claim_owner, buggy twin.
// claim() checks that the owner slot is free and writes its id with a separate store, so
// when both threads see the slot free and then store in turn (two preemptions) one of them
// finds the other's id when it re-reads the slot.
// explore-budget: 5000
#include <assert.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

static int owner;  // 0: free; accessed with __atomic builtins

static void* claim(void* arg) {
  int me = (int)(intptr_t)arg;
  if (__atomic_load_n(&owner, __ATOMIC_RELAXED) == 0) {
    __atomic_store_n(&owner, me, __ATOMIC_RELAXED);
    int now = __atomic_load_n(&owner, __ATOMIC_RELAXED);
    assert(now == me);  // BUG: assertion-failure
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
