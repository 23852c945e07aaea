// snag-race-suite
// expect: racy
// why: strlen walks the shared name inside libc while another thread overwrites a character of it
#include <pthread.h>
#include <stddef.h>
#include <string.h>

static char name[32] = "worker-thread";
static size_t name_length;

static void *measure(void *arg) {
  (void)arg;
  name_length = strlen(name);  // RACE:first
  return NULL;
}

static void *rename_it(void *arg) {
  (void)arg;
  name[4] = 'E';  // RACE:second
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, measure, NULL);
  pthread_create(&b, NULL, rename_it, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return name_length == 13 ? 0 : 1;
}
