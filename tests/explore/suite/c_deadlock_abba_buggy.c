// explore suite: c_deadlock_abba, buggy twin.
// The producer locks queue then stats and the reporter locks stats then queue, so when
// each takes its first mutex before the other takes its second (one preemption) they wait
// for each other forever.
// explore-budget: 2000
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t queue = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t stats = PTHREAD_MUTEX_INITIALIZER;
static int queued;   // guarded by queue
static int reports;  // guarded by stats

static void* producer(void* arg) {
  (void)arg;
  pthread_mutex_lock(&queue);  // BUG: deadlock
  queued++;
  pthread_mutex_lock(&stats);  // BUG: deadlock
  reports++;
  pthread_mutex_unlock(&stats);
  pthread_mutex_unlock(&queue);
  return NULL;
}

static void* reporter(void* arg) {
  (void)arg;
  pthread_mutex_lock(&stats);  // BUG: deadlock
  reports++;
  pthread_mutex_lock(&queue);  // BUG: deadlock
  queued++;
  pthread_mutex_unlock(&queue);
  pthread_mutex_unlock(&stats);
  return NULL;
}

int main(void) {
  pthread_t p, r;
  pthread_create(&p, NULL, producer, NULL);
  pthread_create(&r, NULL, reporter, NULL);
  pthread_join(p, NULL);  // BUG: deadlock
  pthread_join(r, NULL);  // BUG: deadlock
  return 0;
}
