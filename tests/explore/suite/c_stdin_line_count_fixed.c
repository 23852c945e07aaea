// explore suite: c_stdin_line_count, fixed twin.
// Two threads read stdin byte by byte and count its lines with an atomic fetch_add; every
// schedule must see the same three lines, not what an earlier schedule left unread.
// explore-budget: 2000
// explore-stdin: alpha\nbeta\ngamma\n
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <unistd.h>

static atomic_int lines;

static void *count_lines(void *arg) {
  (void)arg;
  char c;
  while (read(0, &c, 1) == 1)
    if (c == '\n') atomic_fetch_add(&lines, 1);
  return 0;
}

int main(void) {
  pthread_t a, b;
  pthread_create(&a, 0, count_lines, 0);
  pthread_create(&b, 0, count_lines, 0);
  pthread_join(a, 0);
  pthread_join(b, 0);
  assert(atomic_load(&lines) == 3);
  return 0;
}
