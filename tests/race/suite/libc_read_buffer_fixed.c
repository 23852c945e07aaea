// snag-race-suite
// expect: clean
// why: the reader of the buffer starts only after the thread that read() into it was joined
#include <pthread.h>
#include <stddef.h>
#include <unistd.h>

static int fds[2];
static char buffer[8];
char first;  // not static: the store must stay

static void *receive(void *arg) {
  (void)arg;
  if (read(fds[0], buffer, 4) != 4) return NULL;
  return NULL;
}

static void *peek(void *arg) {
  (void)arg;
  first = buffer[0];
  return NULL;
}

int main(void) {
  if (pipe(fds) != 0) return 1;
  if (write(fds[1], "ping", 4) != 4) return 1;
  pthread_t a, b;
  pthread_create(&a, NULL, receive, NULL);
  pthread_join(a, NULL);
  pthread_create(&b, NULL, peek, NULL);
  pthread_join(b, NULL);
  return 0;
}
