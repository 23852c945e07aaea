// explore suite: c_join_holding_lock, fixed twin.
// The supervisor unlocks the mutex before it joins its helper.
// explore-budget: 2000
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int progress;  // guarded by m

static void* helper(void* arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  progress++;
  pthread_mutex_unlock(&m);
  return NULL;
}

static void* supervisor(void* arg) {
  (void)arg;
  pthread_t h;
  pthread_create(&h, NULL, helper, NULL);
  pthread_mutex_lock(&m);
  progress = 10 * progress;
  pthread_mutex_unlock(&m);
  pthread_join(h, NULL);
  return NULL;
}

int main(void) {
  pthread_t s;
  pthread_create(&s, NULL, supervisor, NULL);
  pthread_join(s, NULL);
  return 0;
}
