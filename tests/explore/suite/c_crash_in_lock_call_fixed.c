// explore suite: c_crash_in_lock_call, fixed twin.
// main unmaps the worker's mutex only after joining the worker, so no schedule locks it
// after it is gone.
// explore-budget: 2000
// explore-complete
#include <pthread.h>
#include <stdlib.h>
#include <sys/mman.h>

static pthread_mutex_t *lock;
static int done;

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(lock);
  done = 1;
  pthread_mutex_unlock(lock);
  return 0;
}

int main(void) {
  lock = mmap(0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  pthread_mutex_init(lock, 0);
  pthread_t t;
  pthread_create(&t, 0, worker, 0);
  pthread_mutex_lock(lock);
  pthread_mutex_unlock(lock);
  pthread_join(t, 0);
  munmap(lock, 4096);
  return 0;
}
