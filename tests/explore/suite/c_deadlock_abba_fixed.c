// explore suite: c_deadlock_abba, fixed twin.
// The reporter locks the two mutexes in the producer's order: queue, then stats.
// explore-budget: 2000
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t queue = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t stats = PTHREAD_MUTEX_INITIALIZER;
static int queued;   // guarded by queue
static int reports;  // guarded by stats

static void* producer(void* arg) {
  (void)arg;
  pthread_mutex_lock(&queue);
  queued++;
  pthread_mutex_lock(&stats);
  reports++;
  pthread_mutex_unlock(&stats);
  pthread_mutex_unlock(&queue);
  return NULL;
}

static void* reporter(void* arg) {
  (void)arg;
  pthread_mutex_lock(&queue);
  pthread_mutex_lock(&stats);
  reports++;
  queued++;
  pthread_mutex_unlock(&stats);
  pthread_mutex_unlock(&queue);
  return NULL;
}

int main(void) {
  pthread_t p, r;
  pthread_create(&p, NULL, producer, NULL);
  pthread_create(&r, NULL, reporter, NULL);
  pthread_join(p, NULL);
  pthread_join(r, NULL);
  return 0;
}
