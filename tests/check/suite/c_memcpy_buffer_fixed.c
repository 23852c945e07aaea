// snag-check-suite
// expect: clean
// why: both memcpy() calls on the shared malloc'ed frame hold frame_lock, so the copies do not overlap in time
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { FRAME = 64 };
static pthread_mutex_t frame_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char *frame;
static unsigned char copy[FRAME];

static void *reader(void *arg) {
  (void)arg;
  pthread_mutex_lock(&frame_lock);
  memcpy(copy, frame, FRAME);
  pthread_mutex_unlock(&frame_lock);
  return NULL;
}

int main(void) {
  unsigned char next[FRAME];
  memset(next, 7, sizeof next);
  frame = calloc(FRAME, 1);
  if (!frame) return 1;
  pthread_t t;
  pthread_create(&t, NULL, reader, NULL);
  pthread_mutex_lock(&frame_lock);
  memcpy(frame, next, FRAME);
  pthread_mutex_unlock(&frame_lock);
  pthread_join(t, NULL);
  free(frame);
  return copy[0] == 0 || copy[0] == 7 ? 0 : 1;
}
