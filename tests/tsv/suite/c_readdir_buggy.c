// snag-tsv-suite
// expect: violation
// object: DIR stream
// why: two threads read entries from the same DIR stream with readdir() at the same time, with no lock
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <pthread.h>
#include <stddef.h>

static pthread_barrier_t start;
static DIR *root;
int entries[2];

__attribute__((noinline)) static int count_entries(DIR *dir) {
  int n = 0;
  while (readdir(dir) != NULL)  // TSV:first TSV:second
    ++n;
  return n;
}

static void *lister(void *arg) {
  int *slot = arg;
  pthread_barrier_wait(&start);
  *slot = count_entries(root);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  root = opendir("/");
  if (root == NULL)
    return 0;
  pthread_barrier_init(&start, NULL, 2);
  pthread_create(&a, NULL, lister, &entries[0]);
  pthread_create(&b, NULL, lister, &entries[1]);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_barrier_destroy(&start);
  closedir(root);
  return 0;
}
