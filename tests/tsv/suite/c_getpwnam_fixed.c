// snag-tsv-suite
// expect: clean
// why: the getpwnam() and getpwuid() calls, and the reads of the static passwd entry they return, are both made under the same pthread mutex
#define _DEFAULT_SOURCE
#include <pthread.h>
#include <pwd.h>
#include <stddef.h>
#include <sys/types.h>

static pthread_barrier_t start;
static pthread_mutex_t pw_lock = PTHREAD_MUTEX_INITIALIZER;
uid_t root_uid = 1;
gid_t uid0_group = 1;

static void *by_name(void *arg) {
  (void)arg;
  pthread_barrier_wait(&start);
  pthread_mutex_lock(&pw_lock);
  struct passwd *pw = getpwnam("root");
  root_uid = pw != NULL ? pw->pw_uid : 0;
  pthread_mutex_unlock(&pw_lock);
  return NULL;
}

static void *by_uid(void *arg) {
  (void)arg;
  pthread_barrier_wait(&start);
  pthread_mutex_lock(&pw_lock);
  struct passwd *pw = getpwuid(0);
  uid0_group = pw != NULL ? pw->pw_gid : 0;
  pthread_mutex_unlock(&pw_lock);
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
