// snag-tsv-suite
// expect: violation
// object: libc strerror buffer
// why: main calls strerror() while the thread it started also calls strerror(); main joins only afterwards
#define _DEFAULT_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <string.h>

char worker_message[64];
char main_message[64];

static void *worker(void *arg) {
  (void)arg;
  const char *m = strerror(EACCES);  // TSV:first
  strncpy(worker_message, m, sizeof worker_message - 1);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, worker, NULL);
  const char *m = strerror(ENOENT);  // TSV:second
  strncpy(main_message, m, sizeof main_message - 1);
  pthread_join(t, NULL);
  return 0;
}
