// snag-check-suite
// expect: deadlock
// why: main joins the logger thread while holding log_lock, which the logger needs for its final write
#include <pthread.h>

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int lines_written = 0;

static void *logger(void *arg) {
  (void)arg;
  pthread_mutex_lock(&log_lock);  // DEADLOCK
  lines_written++;
  pthread_mutex_unlock(&log_lock);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, logger, NULL);
  pthread_mutex_lock(&log_lock);  // DEADLOCK
  lines_written++;
  pthread_join(t, NULL);  // DEADLOCK
  pthread_mutex_unlock(&log_lock);
  return lines_written == 2 ? 0 : 1;
}
