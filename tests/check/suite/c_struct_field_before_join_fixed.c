// snag-check-suite
// expect: clean
// why: main reads the malloc'ed request's `status` field only after pthread_join, which orders it after the thread's write
#include <pthread.h>
#include <stdlib.h>

struct request {
  int id;
  int bytes;
  int status;
};

int seen_done;  /* shown in a status line */

static void *download(void *arg) {
  struct request *r = arg;
  r->bytes = 1024 * r->id;
  r->status = 200;
  return NULL;
}

int main(void) {
  struct request *r = malloc(sizeof *r);
  if (!r) return 1;
  r->id = 3;
  r->bytes = 0;
  r->status = 0;
  pthread_t t;
  pthread_create(&t, NULL, download, r);
  pthread_join(t, NULL);
  seen_done = r->status == 200;
  int ok = r->bytes == 3072;
  free(r);
  return ok ? 0 : 1;
}
