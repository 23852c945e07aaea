// snag-race-suite
// expect: clean
// why: blocks made and filled by threads are freed by main after it joined them (several threads, a realloc, the memory reused by a later malloc in another thread): the join orders every access before the free
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { kThreads = 4, kRounds = 8 };
static const size_t kSizes[kThreads] = {16, 40, 600, 5000};
static char *blocks[kThreads];

static void *fill(void *arg) {
  long i = (long)arg;
  char *p = malloc(kSizes[i]);
  memset(p, (int)i, kSizes[i]);
  for (size_t k = 0; k < kSizes[i]; k += 3) p[k] = (char)k;
  blocks[i] = p;
  return NULL;
}

static void *grow(void *arg) {
  long i = (long)arg;
  char *p = realloc(blocks[i], kSizes[i] * 2);
  for (size_t k = 0; k < kSizes[i] * 2; k += 5) p[k] = 1;
  blocks[i] = p;
  return NULL;
}

static void *reuse(void *arg) {
  long i = (long)arg;
  char *p = malloc(kSizes[i]);
  for (size_t k = 0; k < kSizes[i]; ++k) p[k] = (char)k;
  free(p);
  return NULL;
}

static void run_all(void *(*work)(void *), long step) {
  pthread_t t[kThreads];
  for (long i = 0; i < kThreads; i += step) pthread_create(&t[i], NULL, work, (void *)i);
  for (long i = 0; i < kThreads; i += step) pthread_join(t[i], NULL);
}

int main(void) {
  for (int round = 0; round < kRounds; ++round) {
    run_all(fill, 1);
    run_all(grow, 2);  // every other block is reallocated by a second thread
    for (int i = 0; i < kThreads; ++i) free(blocks[i]);
    run_all(reuse, 1);  // the freed memory comes back to other threads
  }
  return 0;
}
