// explore suite: c_crash_in_lock_call, buggy twin.
// main frees the mutex the worker is about to lock (the shape of SCTBench's pbzip2 bug):
// when the worker runs after the free, pthread_mutex_lock faults inside snag's own
// interceptor. The crash must be reported at the worker's call, not in snag's sources.
// explore-budget: 2000
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

static pthread_mutex_t *lock;
static int done;

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(lock);  // BUG: crash
  done = 1;
  pthread_mutex_unlock(lock);
  return 0;
}

int main(void) {
  // Its own page, unmapped at "free", so that the late lock faults every time.
  lock = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  pthread_mutex_init(lock, 0);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(lock);
  pthread_mutex_unlock(lock);
  munmap(lock, 4096);
  pthread_join(t, 0);
  return 0;
}
