// snag-race-suite
// expect: clean
// why: workers started one after another, each after main joined the one before, take over its vector-clock slot; each writes and reads what the previous one wrote, ordered by the join and the create, and main reads the last value after joining
#include <pthread.h>

static long g_value;

static void *worker(void *arg) {
  g_value = g_value * 31 + (long)arg;
  return NULL;
}

int main(void) {
  for (long i = 0; i < 50; ++i) {
    pthread_t t;
    pthread_create(&t, NULL, worker, (void *)i);
    pthread_join(t, NULL);
  }
  return g_value == 0;
}
