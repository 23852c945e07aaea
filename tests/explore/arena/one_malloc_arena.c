// Under explore all threads allocate from glibc's main arena
// (cli/explore_engine.cpp, explore_environment: glibc.malloc.arena_max=1):
// threads that each malloc must leave malloc_info() with one heap. Without
// the setting each of the first threads' first malloc makes an arena of its
// own and the assertion fails.
#define _GNU_SOURCE
#include <assert.h>
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kThreads = 4 };

static void *worker(void *arg) {
  char *p = malloc(100);  // the thread's first malloc picks its arena
  p[0] = (char)(size_t)arg;
  free(p);
  return NULL;
}

int main(void) {
  pthread_t threads[kThreads];
  for (size_t i = 0; i < kThreads; ++i) pthread_create(&threads[i], NULL, worker, (void *)i);
  for (size_t i = 0; i < kThreads; ++i) pthread_join(threads[i], NULL);
  char *info = NULL;
  size_t size = 0;
  FILE *out = open_memstream(&info, &size);
  malloc_info(0, out);
  fclose(out);
  int heaps = 0;
  for (const char *at = info; (at = strstr(at, "<heap nr=")) != NULL; ++at) ++heaps;
  free(info);
  assert(heaps == 1);
  return 0;
}
