/* Closes every descriptor from 3 up (as daemons do), opens a file of its
   own (argv[1]), writes a line to it, then races: the race must reach snag,
   and nothing of snag's may land in the program's file. */
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

int counter;

static void *bump(void *arg) {
  counter++; /* MARK:race */
  return arg;
}

int main(int argc, char **argv) {
  for (int fd = 3; fd < 4096; ++fd) close(fd);
  int own = open(argc > 1 ? argv[1] : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  write(own, "program line\n", 13);
  pthread_t a, b;
  pthread_create(&a, NULL, bump, NULL);
  pthread_create(&b, NULL, bump, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  write(own, "last line\n", 10);
  close(own);
  return 0;
}
