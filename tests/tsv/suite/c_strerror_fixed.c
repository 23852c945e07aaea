// snag-tsv-suite
// expect: clean
// why: main calls strerror() only after joining the thread that called strerror()
#define _DEFAULT_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

char worker_message[64];
char main_message[64];

static void *worker(void *arg) {
  (void)arg;
  const char *m = strerror(EACCES);
  strncpy(worker_message, m, sizeof worker_message - 1);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  pthread_join(t, NULL);
  const char *m = strerror(ENOENT);
  strncpy(main_message, m, sizeof main_message - 1);
  return 0;
}
