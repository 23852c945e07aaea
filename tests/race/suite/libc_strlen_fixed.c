// snag-race-suite
// expect: clean
// why: the renaming thread is joined before strlen walks the name
#include <pthread.h>
#include <stddef.h>
#include <string.h>

static char name[32] = "worker-thread";
static size_t name_length;

static void *measure(void *arg) {
  (void)arg;
  name_length = strlen(name);
  return NULL;
}

static void *rename_it(void *arg) {
  (void)arg;
  name[4] = 'E';
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&b, NULL, rename_it, NULL);
  pthread_join(b, NULL);
  pthread_create(&a, NULL, measure, NULL);
  pthread_join(a, NULL);
  return name_length == 13 ? 0 : 1;
}
