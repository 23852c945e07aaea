/* fork with another thread alive; the child uses locks and exits. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t started_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t started_cv = PTHREAD_COND_INITIALIZER;
static int started, stop;

static void *spinner(void *arg) {
  (void)arg;
  pthread_mutex_lock(&started_lock);
  started = 1;
  pthread_cond_signal(&started_cv);
  while (!stop) pthread_cond_wait(&started_cv, &started_lock);
  pthread_mutex_unlock(&started_lock);
  return NULL;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, spinner, NULL);
  pthread_mutex_lock(&started_lock);
  while (!started) pthread_cond_wait(&started_cv, &started_lock);
  pthread_mutex_unlock(&started_lock);
  pid_t pid = fork(); /* MARK:fork */
  if (pid == 0) {
    pthread_mutex_lock(&m); /* MARK:child-lock */
    void *p = malloc(100);
    free(p);
    pthread_mutex_unlock(&m);
    exit(7);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  pthread_mutex_lock(&started_lock);
  stop = 1;
  pthread_cond_broadcast(&started_cv);
  pthread_mutex_unlock(&started_lock);
  pthread_join(t, NULL);
  printf("child exited %d\n", WEXITSTATUS(status));
  return 0;
}
