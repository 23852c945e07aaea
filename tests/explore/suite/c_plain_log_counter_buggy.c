// explore suite: c_plain_log_counter, buggy twin.
// visit() copies the plain counter visits, logs under an unrelated mutex and then writes
// the copy plus one back, so when the other thread's whole visit runs while the first is
// logging (one preemption, at the log mutex) an increment is lost.
// explore-budget: 2000
#include <assert.h>
#include <pthread.h>
#include <stddef.h>

static pthread_mutex_t log_mutex = PTHREAD_MUTEX_INITIALIZER;
static int log_lines;  // guarded by log_mutex
static int visits;     // plain and unprotected

static void log_visit(void) {
  pthread_mutex_lock(&log_mutex);
  log_lines++;
  pthread_mutex_unlock(&log_mutex);
}

static void* visit(void* arg) {
  (void)arg;
  int seen = visits;
  log_visit();
  visits = seen + 1;
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, visit, NULL);
  pthread_create(&b, NULL, visit, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  assert(visits == 2);  // BUG: assertion-failure
  return 0;
}
