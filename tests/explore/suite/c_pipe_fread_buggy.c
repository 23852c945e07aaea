// explore suite: c_pipe_fread, buggy twin.
// A reader thread reads int records from a pipe with fread while a writer thread writes each
// record in two halves, so fread must wait in glibc's internal read for the second half; the
// reader adds each record with a separate load and store, and main adds its part the same
// way, so when main is preempted between its load and store a part is lost.
// explore-budget: 2000
// explore-min-rate: 5
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static int fds[2];
static atomic_int total;

static void *writer(void *arg) {
  (void)arg;
  for (int i = 1; i <= 5; ++i) {
    const char *bytes = (const char *)&i;
    write(fds[1], bytes, 2);
    write(fds[1], bytes + 2, sizeof i - 2);
  }
  close(fds[1]);
  return 0;
}

static void *reader(void *arg) {
  FILE *in = arg;
  int v;
  while (fread(&v, sizeof v, 1, in) == 1) {
    int t = atomic_load(&total);
    atomic_store(&total, t + v);
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
  assert(atomic_load(&total) == 1015);  // BUG: assertion-failure
  return 0;
}
