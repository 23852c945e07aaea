// snag-race-suite
// expect: racy
// why: read() fills the shared buffer inside the kernel on one thread while another thread reads the buffer; the call is a write of the bytes it received
#include <pthread.h>
#include <stddef.h>
#include <unistd.h>

static int fds[2];
static char buffer[8];
char first;  // not static: the store must stay

static void *receive(void *arg) {
  (void)arg;
  if (read(fds[0], buffer, 4) != 4) return NULL;  // RACE:first
  return NULL;
}

static void *peek(void *arg) {
  (void)arg;
  first = buffer[0];  // RACE:second
  return NULL;
}

int main(void) {
  if (pipe(fds) != 0) return 1;
  if (write(fds[1], "ping", 4) != 4) return 1;
  pthread_t a, b;
  pthread_create(&a, NULL, receive, NULL);
  pthread_create(&b, NULL, peek, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}
