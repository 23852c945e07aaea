// explore suite: c_join_detached, fixed twin.
// Main detaches the worker and waits for its result on a semaphore; its
// pthread_join of the detached worker returns EINVAL at once (glibc), which
// main expects. The worker waits for main's go-ahead, so a join that waited
// for the worker instead would be a deadlock.
// explore-budget: 2000
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stddef.h>

static atomic_int result;
static sem_t go, done;

static void* worker(void* arg) {
  (void)arg;
  while (sem_wait(&go) != 0) {
  }
  atomic_store(&result, 42);
  sem_post(&done);
  return NULL;
}

int main(void) {
  sem_init(&go, 0, 0);
  sem_init(&done, 0, 0);
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_detach(t);
  int rc = pthread_join(t, NULL);  // a detached thread cannot be joined
  assert(rc == EINVAL);
  sem_post(&go);
  while (sem_wait(&done) != 0) {
  }
  assert(atomic_load(&result) == 42);
  return 0;
}
