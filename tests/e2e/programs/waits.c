/* Condition variables, barriers, semaphores and pthread_once, each used in a
   way whose outcome does not depend on timing. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <time.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready;
static pthread_barrier_t barrier;
static sem_t sem;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int initialized;

static void init_once(void) { initialized++; /* MARK:once-body */ }

static void *signaller(void *arg) {
  (void)arg;
  pthread_mutex_lock(&m);
  ready = 1;
  pthread_cond_signal(&cv); /* MARK:cond-signal */
  pthread_mutex_unlock(&m);
  pthread_barrier_wait(&barrier); /* MARK:barrier-worker */
  sem_post(&sem); /* MARK:sem-post */
  pthread_once(&once, init_once);
  return NULL;
}

int main(void) {
  pthread_barrier_init(&barrier, NULL, 2);
  sem_init(&sem, 0, 0);
  pthread_t t;
  pthread_create(&t, NULL, signaller, NULL);
  pthread_mutex_lock(&m);
  while (!ready) pthread_cond_wait(&cv, &m); /* MARK:cond-wait */
  pthread_mutex_unlock(&m);
  pthread_barrier_wait(&barrier);
  sem_wait(&sem); /* MARK:sem-wait */
  pthread_once(&once, init_once); /* MARK:once-main */
  pthread_join(t, NULL);

  /* A timed wait that must time out: nobody signals. */
  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  pthread_mutex_lock(&m);
  int rc = pthread_cond_timedwait(&cv, &m, &deadline); /* MARK:cond-timedwait */
  pthread_mutex_unlock(&m);
  int try_rc = sem_trywait(&sem); /* MARK:sem-trywait-empty */
  printf("initialized=%d timedout=%d try_failed=%d\n", initialized, rc != 0, try_rc != 0);
  pthread_barrier_destroy(&barrier);
  sem_destroy(&sem);
  return 0;
}
