// snag-tsv-suite
// expect: clean
// why: main calls getgrgid() only after joining the thread that called getgrnam()
#define _DEFAULT_SOURCE
#include <grp.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>

gid_t root_gid = 1;
int gid0_named = 0;

static void *by_name(void *arg) {
  (void)arg;
  struct group *gr = getgrnam("root");
  root_gid = gr != NULL ? gr->gr_gid : 0;
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, by_name, NULL);
  pthread_join(t, NULL);
  struct group *gr = getgrgid(0);
  gid0_named = gr != NULL;
  return 0;
}
