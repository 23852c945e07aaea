// explore suite: c_two_fields_split_update, fixed twin.
// The writer updates x and y in one critical section.
// explore-budget: 2000
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int x, y;  // guarded by m; x == y outside critical sections

static void* writer(void* arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  x = 1;
  y = 1;
  pthread_mutex_unlock(&m);
  return NULL;
}

static void* reader(void* arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  int a = x;
  int b = y;
  pthread_mutex_unlock(&m);
  assert(a == b);
  return NULL;
}

int main(void) {
  pthread_t w, r;
  pthread_create(&w, NULL, writer, NULL);
  pthread_create(&r, NULL, reader, NULL);
  pthread_join(w, NULL);
  pthread_join(r, NULL);
  return 0;
}
