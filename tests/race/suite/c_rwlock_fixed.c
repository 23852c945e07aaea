// snag-race-suite
// expect: clean
// why: the reader holds the pthread rwlock for reading, the writer holds it for writing
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stddef.h>

pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
int settings[2] = {1, 2};
int snapshot;

__attribute__((noinline)) static void* reader(void* arg) {
  (void)arg;
  pthread_rwlock_rdlock(&rw);
  snapshot = settings[0] + settings[1];
  pthread_rwlock_unlock(&rw);
  return NULL;
}

__attribute__((noinline)) static void* writer(void* arg) {
  (void)arg;
  pthread_rwlock_wrlock(&rw);
  settings[1] = 20;
  pthread_rwlock_unlock(&rw);
  return NULL;
}

int main(void) {
  pthread_t r, w;
  pthread_create(&r, NULL, reader, NULL);
  pthread_create(&w, NULL, writer, NULL);
  pthread_join(r, NULL);
  pthread_join(w, NULL);
  return snapshot == 3 || snapshot == 21 ? 0 : 1;
}
