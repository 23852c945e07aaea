// snag-tsv-suite
// expect: clean
// why: each thread opens its own DIR stream for the directory, so the two threads' readdir() calls use different streams
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <stddef.h>

static pthread_barrier_t start;
int entries[2];

__attribute__((noinline)) static int count_entries(DIR *dir) {
  int n = 0;
  while (readdir(dir) != NULL)
    ++n;
  return n;
}

static void *lister(void *arg) {
  int *slot = arg;
  DIR *own = opendir("/");
  pthread_barrier_wait(&start);
  if (own != NULL) {
    *slot = count_entries(own);
    closedir(own);
  }
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_barrier_init(&start, NULL, 2);
  pthread_create(&a, NULL, lister, &entries[0]);
  pthread_create(&b, NULL, lister, &entries[1]);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_barrier_destroy(&start);
  return 0;
}
