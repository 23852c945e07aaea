// snag-tsv-suite
// expect: violation
// object: libc passwd buffers
// why: getpwnam() and getpwuid() return pointers into the same static passwd buffers, and two threads call them at the same time with no lock
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <pwd.h>
#include <stddef.h>
#include <sys/types.h>

static pthread_barrier_t start;
uid_t root_uid = 1;
gid_t uid0_group = 1;

static void *by_name(void *arg) {
  (void)arg;
  pthread_barrier_wait(&start);
  struct passwd *pw = getpwnam("root");  // TSV:first
  root_uid = pw != NULL ? pw->pw_uid : 0;
  return NULL;
}

static void *by_uid(void *arg) {
  (void)arg;
  pthread_barrier_wait(&start);
  struct passwd *pw = getpwuid(0);  // TSV:second
  uid0_group = pw != NULL ? pw->pw_gid : 0;
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_barrier_init(&start, NULL, 2);
  pthread_create(&a, NULL, by_name, NULL);
  pthread_create(&b, NULL, by_uid, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  pthread_barrier_destroy(&start);
  return 0;
}
