// explore suite: c_plain_capacity_check, fixed twin.
// reserve() checks the counter under the mutex it increments it with.
// explore-budget: 2000
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#define CAPACITY 1

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int used;  // guarded by m

static void* reserve(void* arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  if (used < CAPACITY) {
    used++;
    assert(used <= CAPACITY);
  }
  pthread_mutex_unlock(&m);
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
