// snag-check-suite
// expect: clean
// why: main unlocks log_lock before it joins the logger thread, so the logger can always take the lock and exit
#include <pthread.h>

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static int lines_written = 0;

static void *logger(void *arg) {
  (void)arg;
  pthread_mutex_lock(&log_lock);
  lines_written++;
  pthread_mutex_unlock(&log_lock);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, logger, NULL);
  pthread_mutex_lock(&log_lock);
  lines_written++;
  pthread_mutex_unlock(&log_lock);
  pthread_join(t, NULL);
  return lines_written == 2 ? 0 : 1;
}
