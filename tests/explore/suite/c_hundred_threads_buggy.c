// explore suite: c_hundred_threads, buggy twin.
// 100 workers each take a ticket in two critical sections (read the counter, then store
// the read value plus one), so a worker preempted between them loses another worker's
// ticket; the bug is easy to hit, the point is reaching it among 100 threads within
// the budget.
// explore-budget: 2000
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

#define WORKERS 100

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int tickets;

static void* worker(void* arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  int mine = tickets;
  pthread_mutex_unlock(&lock);
  pthread_mutex_lock(&lock);
  tickets = mine + 1;
  pthread_mutex_unlock(&lock);
  return NULL;
}

int main(void) {
  pthread_t t[WORKERS];
  for (int i = 0; i < WORKERS; i++)
    pthread_create(&t[i], NULL, worker, NULL);
  for (int i = 0; i < WORKERS; i++)
    pthread_join(t[i], NULL);
  assert(tickets == WORKERS);  // BUG: assertion-failure
  return 0;
}
