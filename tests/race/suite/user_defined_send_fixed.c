// snag-race-suite
// expect: clean
// why: the program defines its own send() (snag's interceptor must give way, not clash at link time) and two threads bump its counter under a mutex
#include <pthread.h>
#include <stddef.h>
#include <sys/types.h>

static long sent_bytes;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

ssize_t send(int fd, const void *data, size_t size, int flags) {
  (void)fd, (void)data, (void)flags;
  pthread_mutex_lock(&lock);
  sent_bytes += (long)size;
  pthread_mutex_unlock(&lock);
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
