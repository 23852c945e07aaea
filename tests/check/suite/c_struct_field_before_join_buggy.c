// snag-check-suite
// expect: race
// why: the download thread writes the malloc'ed request's `status` field while main reads it before pthread_join
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
  r->status = 200;  // RACE:first
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
  seen_done = r->status == 200;  // RACE:second
  pthread_join(t, NULL);
  int ok = r->bytes == 3072;
  free(r);
  return ok ? 0 : 1;
}
