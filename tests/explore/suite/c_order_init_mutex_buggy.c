// explore suite: c_order_init_mutex, buggy twin.
// main sets the table size only after starting the worker, so when the worker takes the
// mutex first (main preempted right after pthread_create) it sees size 0.
// explore-budget: 2000
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int table_size;  // guarded by m; 0 until main sets it

static void* worker(void* arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  int n = table_size;
  pthread_mutex_unlock(&m);
  assert(n > 0);  // BUG: assertion-failure
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_mutex_lock(&m);
  table_size = 16;
  pthread_mutex_unlock(&m);
  pthread_join(t, NULL);
  return 0;
}
