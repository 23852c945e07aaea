// Lazy threads: a deferred thread's kernel thread is created by whichever
// thread first hands it the baton, yet it must start with what it would
// have inherited from its creator: CPU affinity, scheduling policy, nice
// value, name and signal mask. Thread A changes all of them for itself and
// creates C; main keeps running scheduling points meanwhile, so in some
// schedules main, not A, gives C its first turn.
#define _GNU_SOURCE
#include <assert.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static cpu_set_t a_cpus;
static int a_nice;

static void *child(void *arg) {
  (void)arg;
  char name[16];
  assert(pthread_getname_np(pthread_self(), name, sizeof name) == 0);
  assert(strcmp(name, "creator-a") == 0);
  assert(sched_getscheduler(0) == SCHED_BATCH);
  assert(getpriority(PRIO_PROCESS, (id_t)gettid()) == a_nice);
  cpu_set_t cpus;
  assert(sched_getaffinity(0, sizeof cpus, &cpus) == 0);
  assert(CPU_EQUAL(&cpus, &a_cpus));
  sigset_t mask;
  pthread_sigmask(SIG_BLOCK, NULL, &mask);
  assert(sigismember(&mask, SIGUSR2));
  return NULL;
}

static void *creator(void *arg) {
  (void)arg;
  pthread_setname_np(pthread_self(), "creator-a");
  struct sched_param p = {0};
  assert(sched_setscheduler(0, SCHED_BATCH, &p) == 0);
  setpriority(PRIO_PROCESS, (id_t)gettid(), getpriority(PRIO_PROCESS, (id_t)gettid()) + 2);
  a_nice = getpriority(PRIO_PROCESS, (id_t)gettid());
  // Another CPU than the one the schedule runs on, where there is one.
  sched_getaffinity(0, sizeof a_cpus, &a_cpus);
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  if (cpus > 1) {
    cpu_set_t other;
    CPU_ZERO(&other);
    CPU_SET((sched_getcpu() + 1) % cpus, &other);
    if (sched_setaffinity(0, sizeof other, &other) == 0) a_cpus = other;
  }
  sigset_t usr2;
  sigemptyset(&usr2);
  sigaddset(&usr2, SIGUSR2);
  pthread_sigmask(SIG_BLOCK, &usr2, NULL);
  pthread_t c;
  assert(pthread_create(&c, NULL, child, NULL) == 0);
  pthread_mutex_lock(&m);
  pthread_mutex_unlock(&m);
  pthread_join(c, NULL);
  return NULL;
}

int main(void) {
  pthread_t a;
  pthread_create(&a, NULL, creator, NULL);
  for (int i = 0; i < 4; i++) {
    pthread_mutex_lock(&m);
    pthread_mutex_unlock(&m);
  }
  pthread_join(a, NULL);
  return 0;
}
