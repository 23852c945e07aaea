// Lazy threads (docs/explore.md, Speed): a new thread has no kernel thread
// before its first turn. Main counts the entries of /proc/self/task after
// creating four threads that block on a gate; each thread marks itself
// started first, with a store the compiler pass does not see (no access
// point before it, even under vb), so a thread that has a kernel thread
// has run up to the gate. Under eager creation
// (--eager-threads) all four exist at once and the assertion fails in any
// schedule where one of them has not run yet.
#define _GNU_SOURCE
#include <assert.h>
#include <dirent.h>
#include <pthread.h>
#include <stddef.h>

#define WORKERS 4

static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
static int started[WORKERS];

static void *worker(void *arg) {
  __asm__ volatile("movl $1, %0" : "=m"(started[(long)arg]));
  pthread_mutex_lock(&gate);
  pthread_mutex_unlock(&gate);
  return NULL;
}

static int tasks(void) {
  DIR *d = opendir("/proc/self/task");
  assert(d);
  int n = 0;
  for (struct dirent *e; (e = readdir(d));)
    if (e->d_name[0] != '.') n++;
  closedir(d);
  return n;
}

static int started_count(void) {
  int n = 0;
  for (int i = 0; i < WORKERS; i++) n += started[i];
  return n;
}

int main(void) {
  pthread_t t[WORKERS];
  int before = tasks();
  pthread_mutex_lock(&gate);
  for (long i = 0; i < WORKERS; i++) pthread_create(&t[i], NULL, worker, (void *)i);
  // A thread may get its first turn while main reads the directory.
  int low = started_count();
  int now = tasks() - before;
  int high = started_count();
  assert(low <= now && now <= high);
  pthread_mutex_unlock(&gate);
  for (int i = 0; i < WORKERS; i++) pthread_join(t[i], NULL);
  return 0;
}
