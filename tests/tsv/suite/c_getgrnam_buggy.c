// snag-tsv-suite
// expect: violation
// object: libc group buffers
// why: main calls getgrgid() while the thread it started calls getgrnam(); both return pointers into the same static group buffers, and main joins only afterwards
#define _DEFAULT_SOURCE
#include <grp.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>

gid_t root_gid = 1;
int gid0_named = 0;

static void *by_name(void *arg) {
  (void)arg;
  struct group *gr = getgrnam("root");  // TSV:first
  root_gid = gr != NULL ? gr->gr_gid : 0;
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, by_name, NULL);
  struct group *gr = getgrgid(0);  // TSV:second
  gid0_named = gr != NULL;
  pthread_join(t, NULL);
  return 0;
}
