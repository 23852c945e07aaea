// snag-race-suite
// expect: racy
// why: the program defines its own send() (snag's interceptor must give way, not clash at link time) and two threads bump its unprotected counter
#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>

static long sent_bytes;

ssize_t send(int fd, const void *data, size_t size, int flags) {
  (void)fd, (void)data, (void)flags;
  sent_bytes += (long)size;  // RACE:first RACE:second
  return (ssize_t)size;
}

static void *sender(void *arg) {
  (void)arg;
  send(1, "x", 1, 0);
  return NULL;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, NULL, sender, NULL);
  pthread_create(&b, NULL, sender, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return sent_bytes == 2 ? 0 : 1;
}
