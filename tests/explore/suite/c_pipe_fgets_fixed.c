// explore suite: c_pipe_fgets, fixed twin.
// A reader thread reads lines from a pipe with fgets while a writer thread writes each line
// in two pieces; both add with an atomic fetch_add, so every schedule sums to 1150. fgets
// blocks in glibc's internal read, which must leave the scheduler's control (not a hang).
// explore-budget: 2000
// explore-min-rate: 5
// explore-complete
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
  while (fgets(line, sizeof line, in)) atomic_fetch_add(&total, atoi(line));
  fclose(in);
  return 0;
}

int main(void) {
  pipe(fds);
  FILE *in = fdopen(fds[0], "r");
  pthread_t r, w;
  pthread_create(&r, 0, reader, in);
  pthread_create(&w, 0, writer, 0);
  atomic_fetch_add(&total, 1000);
  pthread_join(r, 0);
  pthread_join(w, 0);
  assert(atomic_load(&total) == 1150);
  return 0;
}
