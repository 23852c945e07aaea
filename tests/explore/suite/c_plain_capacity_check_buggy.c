// explore suite: c_plain_capacity_check, buggy twin.
// reserve() reads the plain counter used without the mutex and only then locks to
// increment it, so when both threads pass the check before either locks (one preemption,
// at the lock) the capacity of 1 is exceeded.
// explore-budget: 2000
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#define CAPACITY 1

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int used;  // plain; written under m but checked without it

static void* reserve(void* arg) {
  (void)arg;
  if (used < CAPACITY) {
    pthread_mutex_lock(&m);
    used++;
    assert(used <= CAPACITY);  // BUG: assertion-failure
    pthread_mutex_unlock(&m);
  }
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, reserve, NULL);
  pthread_create(&b, NULL, reserve, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}
