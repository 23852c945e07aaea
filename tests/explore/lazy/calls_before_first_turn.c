// Lazy threads: calls that read a thread's descriptor before the thread's
// first turn (name, attributes, kill, scheduling, detach, join) create the
// deferred thread first, and behave as with eager creation. Before pthread_kill
// created it first, the kill failed (ESRCH from a descriptor glibc had not
// written yet).
#define _GNU_SOURCE
#include <assert.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static int count;
static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
static void *work(void *p) {
  pthread_mutex_lock(&gate);
  pthread_mutex_unlock(&gate);
  pthread_mutex_lock(&m);
  count++;
  pthread_mutex_unlock(&m);
  return p;
}
int main(void) {
  pthread_t t[8];
  pthread_mutex_lock(&gate);  // every thread exists until main lets them go
  for (int i = 0; i < 8; i++) assert(pthread_create(&t[i], NULL, work, (void *)(long)i) == 0);
  // Before their first turn (under lazy creation: before they exist).
  char name[16];
  assert(pthread_setname_np(t[1], "w1") == 0);
  assert(pthread_getname_np(t[1], name, sizeof name) == 0 && strcmp(name, "w1") == 0);
  pthread_attr_t a;
  assert(pthread_getattr_np(t[2], &a) == 0);
  size_t sz; void *base;
  assert(pthread_attr_getstack(&a, &base, &sz) == 0 && sz > 0);
  pthread_attr_destroy(&a);
  assert(pthread_kill(t[3], 0) == 0);
  int policy; struct sched_param sp;
  (void)pthread_getschedparam(t[4], &policy, &sp);
  assert(pthread_detach(t[5]) == 0);
  pthread_mutex_unlock(&gate);
  for (int i = 0; i < 8; i++) {
    if (i == 5) continue;
    void *r;
    assert(pthread_join(t[i], &r) == 0 && r == (void *)(long)i);
  }
  // t[5] may still run: wait for it through the count.
  for (;;) { pthread_mutex_lock(&m); int c = count; pthread_mutex_unlock(&m); if (c == 8) break; sched_yield(); }
  printf("ok %d\n", count);
  return 0;
}
