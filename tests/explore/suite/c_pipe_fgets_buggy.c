// explore suite: c_pipe_fgets, buggy twin.
// A reader thread reads lines from a pipe with fgets (stdio reads through glibc's internal
// read, which no interceptor sees) while a writer thread writes each line in two pieces; the
// reader adds each number to the total with a separate load and store, and main adds its
// part the same way, so when main is preempted between its load and store a part is lost.
// explore-budget: 2000
// explore-min-rate: 5
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int fds[2];
static atomic_int total;

static void *writer(void *arg) {
  (void)arg;
  for (int i = 1; i <= 5; ++i) {
    char line[8] = {(char)('0' + i), '0', '\n'};
    write(fds[1], line, 1);  // the rest of the line comes in a second write
    write(fds[1], line + 1, 2);
  }
  close(fds[1]);
  return 0;
}

static void *reader(void *arg) {
  FILE *in = arg;
  char line[16];
  while (fgets(line, sizeof line, in)) {
    int t = atomic_load(&total);
    atomic_store(&total, t + atoi(line));
  }
  fclose(in);
  return 0;
}

int main(void) {
  pipe(fds);
  FILE *in = fdopen(fds[0], "r");
  pthread_t r, w;
  pthread_create(&r, 0, reader, in);
  pthread_create(&w, 0, writer, 0);
  int t = atomic_load(&total);
  atomic_store(&total, t + 1000);
  pthread_join(r, 0);
  pthread_join(w, 0);
  assert(atomic_load(&total) == 1150);  // BUG: assertion-failure
  return 0;
}
