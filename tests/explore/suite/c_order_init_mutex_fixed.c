// explore suite: c_order_init_mutex, fixed twin.
// main sets the table size before starting the worker.
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
  assert(n > 0);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_mutex_lock(&m);
  table_size = 16;
  pthread_mutex_unlock(&m);
  pthread_create(&t, NULL, worker, NULL);
  pthread_join(t, NULL);
  return 0;
}
