/* The parent exits at once; the child it forked outlives it and only then
   races. The child's race must still be in snag's report. */
#include <pthread.h>
#include <time.h>
#include <unistd.h>

int counter;

static void *bump(void *arg) {
  counter++; /* MARK:race */
  return arg;
}

int main(void) {
  if (fork() != 0) return 0;
  struct timespec pause = {0, 300 * 1000 * 1000};
  nanosleep(&pause, NULL);
  pthread_t a, b;
  pthread_create(&a, NULL, bump, NULL);
  pthread_create(&b, NULL, bump, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  return 0;
}
