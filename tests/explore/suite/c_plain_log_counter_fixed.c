// explore suite: c_plain_log_counter, fixed twin.
// visit() reads and writes the counter under a mutex of its own and logs afterwards.
// explore-budget: 2000
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t log_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t visits_mutex = PTHREAD_MUTEX_INITIALIZER;
static int log_lines;  // guarded by log_mutex
static int visits;     // guarded by visits_mutex

static void log_visit(void) {
  pthread_mutex_lock(&log_mutex);
  log_lines++;
  pthread_mutex_unlock(&log_mutex);
}

static void* visit(void* arg) {
  (void)arg;
  pthread_mutex_lock(&visits_mutex);
  int seen = visits;
  visits = seen + 1;
  pthread_mutex_unlock(&visits_mutex);
  log_visit();
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, visit, NULL);
  pthread_create(&b, NULL, visit, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(visits == 2);
  return 0;
}
