/* Every kind of pthread lock, with try and timed variants. Single-threaded,
   so which calls succeed is certain. */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

int main(void) {
  pthread_mutex_t plain = PTHREAD_MUTEX_INITIALIZER;
  pthread_mutex_t recursive;
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(&recursive, &attr); /* MARK:init-recursive */

  pthread_mutex_lock(&plain); /* MARK:lock-plain */
  int busy = pthread_mutex_trylock(&plain); /* MARK:trylock-busy */
  pthread_mutex_unlock(&plain); /* MARK:unlock-plain */

  pthread_mutex_lock(&recursive);
  pthread_mutex_lock(&recursive); /* MARK:relock-recursive */
  pthread_mutex_unlock(&recursive);
  pthread_mutex_unlock(&recursive);

  struct timespec deadline;
  clock_gettime(CLOCK_REALTIME, &deadline);
  deadline.tv_sec += 5;
  pthread_mutex_timedlock(&plain, &deadline); /* MARK:timedlock */
  pthread_mutex_unlock(&plain);

  pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
  pthread_rwlock_rdlock(&rw); /* MARK:rdlock */
  pthread_rwlock_unlock(&rw);
  pthread_rwlock_wrlock(&rw); /* MARK:wrlock */
  int rw_busy = pthread_rwlock_tryrdlock(&rw); /* MARK:tryrdlock-busy */
  pthread_rwlock_unlock(&rw);

  pthread_spinlock_t spin;
  pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
  pthread_spin_lock(&spin); /* MARK:spin-lock */
  pthread_spin_unlock(&spin);
  pthread_spin_destroy(&spin);

  pthread_mutex_destroy(&recursive); /* MARK:destroy-recursive */
  printf("busy=%d rw_busy=%d\n", busy != 0, rw_busy != 0);
  return 0;
}
