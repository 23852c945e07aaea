// snag-check-suite
// expect: race
// why: the reader thread memcpy()s the shared malloc'ed frame out while main memcpy()s the next frame into it, with no lock
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { FRAME = 64 };
static unsigned char *frame;
static unsigned char copy[FRAME];

static void *reader(void *arg) {
  (void)arg;
  memcpy(copy, frame, FRAME);  // RACE:first
  return NULL;
}

int main(void) {
  unsigned char next[FRAME];
  memset(next, 7, sizeof next);
  frame = calloc(FRAME, 1);
  if (!frame) return 1;
  pthread_t t;
  pthread_create(&t, NULL, reader, NULL);
  memcpy(frame, next, FRAME);  // RACE:second
  pthread_join(t, NULL);
  free(frame);
  return copy[0] == 0 || copy[0] == 7 ? 0 : 1;
}
