// Lazy threads: a fork while threads are deferred (the child has none of
// them and must not create them) and, with an argument, exit() with threads
// that never had a turn.
#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
static pthread_mutex_t gate = PTHREAD_MUTEX_INITIALIZER;
static void *work(void *p) { pthread_mutex_lock(&gate); pthread_mutex_unlock(&gate); return p; }
int main(int argc, char **argv) {
  pthread_t t[4];
  pthread_mutex_lock(&gate);
  for (int i = 0; i < 4; i++) assert(pthread_create(&t[i], NULL, work, NULL) == 0);
  pid_t pid = fork();
  if (pid == 0) _exit(7);
  int st;
  assert(waitpid(pid, &st, 0) == pid && WEXITSTATUS(st) == 7);
  if (argc > 1) exit(0);  // exit with threads that never ran
  pthread_mutex_unlock(&gate);
  for (int i = 0; i < 4; i++) assert(pthread_join(t[i], NULL) == 0);
  return 0;
}
